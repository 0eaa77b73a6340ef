"""Computer players at a table: the engine's players act for computer seats and timed-out people.

Each seat's computer plays at its level (:mod:`bot.table.computer`): the seat's own, else the table's
(``normal`` unless a table option changed it, also for a person the timer took over). A strong
search gets :data:`~bot.table.computer.DECISION_SECONDS` and gives way to the heuristic when that
starves it. The service runs all of this in a worker thread, off the event loop.
"""

from __future__ import annotations

import random
import time

import engine
from bot.table import computer, forced, stakes
from bot.table.match import Match
from engine.state import State

__all__ = ["choose", "offer", "play_computers", "autoplay", "level_of"]


def level_of(match: Match, seat: int) -> str:
    """The level the computer plays ``seat`` at."""
    return match.table.seats[seat].level or match.table.level


COMMAND_SECONDS = 10.0
"""Strong searches of one command stop after this long in all; the heuristic plays on."""


def choose(state: State, seat: int, level: str = "normal", rng: random.Random | None = None,
           seconds: float = computer.DECISION_SECONDS) -> engine.Action:
    """The computer player's action for ``seat``, whose turn it is (a strong search gets ``seconds``)."""
    return computer.act(level, state, seat, rng or random.Random(), seconds=seconds)


def offer(state: State, seat: int, level: str = "normal", rng: random.Random | None = None,
          seconds: float = computer.DECISION_SECONDS) -> engine.Action | None:
    """The out-of-turn action the computer player takes for ``seat`` now, if any."""
    return computer.offer(level, state, seat, rng or random.Random(), seconds=seconds)


class _Budget:
    """What is left of a command's :data:`COMMAND_SECONDS` for strong searches."""

    def __init__(self) -> None:
        self.end = time.monotonic() + COMMAND_SECONDS

    def level(self, match: Match, seat: int) -> tuple[str, float]:
        """The level ``seat`` plays at now and the seconds its search may take."""
        left = self.end - time.monotonic()
        level = level_of(match, seat)
        if level == "stark" and left <= 0:
            return "normal", 0.0
        return level, min(computer.DECISION_SECONDS, left)


def play_computers(match: Match) -> None:
    """Let the computer act for its seats until a person must act, the match is over, or one deal is played.

    A person's move the rules force (his last card, his only decision: :mod:`bot.table.forced`) is made too.

    Before each turn every other computer seat is asked once whether it takes an offer
    (Spritzen, Stoß, Ledig ...), so doublings cannot go back and forth without end. The work is
    bounded: once the computers' moves end a deal and the next one is dealt, they stop, and the
    service's turn timer lets them go on (a ``cpu`` timer, see ``Service._timer``). While a person
    may still declare playing alone before the first lead (:mod:`bot.table.window`), they wait.
    """
    asked: set[tuple] = set()
    seats = match.table.seats
    dealt = match.dealt
    rng = random.Random(match.rng.getrandbits(64))
    budget = _Budget()
    while match.running and match.dealt == dealt and not match.table.declare:
        state = match.state
        spot = (match.dealt, state.phase, len(state.tricks), len(state.trick), state.to_act)
        for seat in range(state.n):
            if seat == state.to_act or not seats[seat].computer or (spot, seat) in asked:
                continue
            asked.add((spot, seat))
            if _decide(match, seat, budget, rng) is not None:
                break
        else:
            seat = state.to_act
            if seats[seat].computer:
                _decide(match, seat, budget, rng)
            elif (action := forced.move(state, [s for s in range(state.n) if not seats[s].computer])) is not None:
                match.act(seat, action, forced.BY)
            else:
                return


def _decide(match: Match, seat: int, budget: _Budget, rng: random.Random) -> engine.Action | None:
    """The computer decides for ``seat`` and acts (on his turn, or taking an offer); a strong computer's stake
    against the heuristic's choice goes into the story with its reason (:mod:`bot.table.stakes`)."""
    state = match.state
    level, seconds = budget.level(match, seat)
    action, seen = computer.decide(level, state, seat, rng, seconds=seconds)
    why = stakes.why(state, seat, action, seen)
    if action is not None:
        match.act(seat, action, "cpu", why)
    elif why is not None:
        match.declined(seat, why)
    return action


def autoplay(match: Match, seat: int) -> engine.Action:
    """The timer ran out for ``seat``: the computer plays his turn and his next ones until he acts."""
    match.table.seats[seat].auto = True
    action = choose(match.state, seat, level_of(match, seat))
    match.act(seat, action, "timer")
    play_computers(match)
    return action
