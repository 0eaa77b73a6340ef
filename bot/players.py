"""Computer players at a table: the engine's players act for computer seats and timed-out people.

Each game module ``engine.<module>`` has its computer player in ``engine.players.<module>``
with ``choose(state, seat) -> Action`` (its turn) and ``offer(state, seat) -> Action | None``
(an out-of-turn doubling or playing alone, if it wants one).
"""

from __future__ import annotations

import engine
from engine.players.strong import heuristic
from engine.state import State

from .play import Match

__all__ = ["choose", "offer", "play_computers", "autoplay"]


def choose(state: State, seat: int) -> engine.Action:
    """The computer player's action for ``seat``, whose turn it is."""
    return heuristic(state.GAME).choose(state, seat)


def offer(state: State, seat: int) -> engine.Action | None:
    """The out-of-turn action the computer player takes for ``seat`` now, if any."""
    return heuristic(state.GAME).offer(state, seat)


def play_computers(match: Match) -> None:
    """Let the computer act for its seats until a person must act, the match is over, or one deal is played.

    Before each turn every other computer seat is asked once whether it takes an offer
    (Spritzen, Stoß, Ledig ...), so doublings cannot go back and forth without end. The work is
    bounded: once the computers' moves end a deal and the next one is dealt, they stop, and the
    service's turn timer lets them go on (a ``cpu`` timer, see ``Service._timer``).
    """
    asked: set[tuple] = set()
    seats = match.table.seats
    dealt = match.dealt
    while match.running and match.dealt == dealt:
        state = match.state
        spot = (match.dealt, state.phase, len(state.tricks), len(state.trick), state.to_act)
        for seat in range(state.n):
            if seat == state.to_act or not seats[seat].computer or (spot, seat) in asked:
                continue
            asked.add((spot, seat))
            action = offer(state, seat)
            if action is not None:
                match.act(seat, action, "cpu")
                break
        else:
            seat = state.to_act
            if not seats[seat].computer:
                return
            match.act(seat, choose(state, seat), "cpu")


def autoplay(match: Match, seat: int) -> engine.Action:
    """The timer ran out for ``seat``: the computer plays his turn and his next ones until he acts."""
    match.table.seats[seat].auto = True
    action = choose(match.state, seat)
    match.act(seat, action, "timer")
    play_computers(match)
    return action
