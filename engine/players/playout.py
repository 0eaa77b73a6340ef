"""Playing a deal to its end in place with given deciders, as a table would ask them."""

from __future__ import annotations

from collections.abc import Callable

from ..actions import Action
from ..state import State

__all__ = ["play_out", "STEPS"]

STEPS = 400
"""More actions than any deal needs: a deal still running after this many is cut off."""


def play_out(state: State, act: Callable[[State, int], Action],
             offer: Callable[[State, int], Action | None], check: bool = False, steps: int = STEPS) -> bool:
    """Play ``state``'s deal to its end in place; False if it was cut off after ``steps`` actions.

    Before each turn every other seat with an out-of-turn offer (doubling, playing alone) is asked
    once through ``offer(state, seat)``; then ``act(state, seat)`` decides for the seat to act.
    With ``check`` every action is validated first (:class:`~engine.rejection.Rejected` if illegal).
    """
    asked: set[tuple] = set()
    for _ in range(steps):
        to_act = state.to_act
        if to_act is None:
            return True
        offers = state.offers()
        seat, action = to_act, None
        if offers:
            spot = (state.phase, len(state.tricks), len(state.trick), to_act)
            for s in sorted(offers):
                if (spot, s) not in asked:
                    asked.add((spot, s))
                    action = offer(state, s)
                    if action is not None:
                        seat = s
                        break
        if action is None:
            action = act(state, to_act)
        if check:
            state.check(seat, action)
        state.do(seat, action)
    return state.to_act is None
