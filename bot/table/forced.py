"""Moves the rules leave no choice in: a person's last card, and »Mitspielen« where it is all he may do.

When the seat to act holds one card and no other person at the table may double or declare any more, that card
is played for him; when his only legal action is Rams's »Mitspielen« (robbing the trump committed him to play),
it is taken for him. A bid that is the only one left is not: it tells the table about his cards, and he
should see himself make it. Nothing is hidden or decided by it: the trick and the story show the move as any other,
and the log names it ``forced``. A whole last trick so costs nobody a press (nor, in slow play, a day).
"""

from __future__ import annotations

from collections.abc import Collection

import engine
from engine.actions import PLAY
from engine.rams import PLAY_HAND
from engine.state import State

__all__ = ["BY", "move"]

BY = "forced"
"""The log's ``by`` of a move the rules made (as ``cpu`` and ``timer`` name theirs)."""


def move(state: State, people: Collection[int] | None = None) -> engine.Action | None:
    """The move the rules force on the seat to act now, if any: his only legal action, where it is the last card
    of his hand or »Mitspielen«, and no other seat of ``people`` (all seats if ``None``) has an offer (a doubling,
    playing alone) he could still take. A computer seat's offer does not wait: the computers were asked before
    this turn (:func:`bot.table.cpu.play_computers`) and are asked again before the next, as when he presses."""
    seat = state.to_act
    if seat is None:
        return None
    legal = state.legal()
    others = range(state.n) if people is None else people
    if len(legal) != 1 or any(state.offers_for(other) for other in others if other != seat):
        return None
    action = legal[0]
    last_card = action.kind == PLAY and state.hands[seat].bit_count() == 1
    return action if last_card or action == PLAY_HAND else None
