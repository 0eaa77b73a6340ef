"""A finished deal read back from a table's move log: how it was dealt, every action, who took each.

The move log (:mod:`bot.store.tables`) holds one entry per save, each with the moves of that save: a
new deal as ``{"deal": <engine JSON>}`` and an action as ``{"s": seat, "a": action, "by": who}``
(:mod:`bot.table.match`). The ``no``-th deal entry starts the table's deal number ``no``, the number its
result notice and score sheet give it; the deal runs to the next deal entry, or is still running.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import engine
from engine.actions import Action
from engine.state import State

__all__ = ["Deal", "finished_deal"]


@dataclass(frozen=True)
class Deal:
    """Deal number ``no`` of a table: its state as dealt, and each action as ``(seat, action, by)``."""

    no: int
    start: State
    actions: tuple[tuple[int, Action, str], ...]

    def seat_of(self, user_key: str, seated: int | None) -> int | None:
        """The seat ``user_key`` played in this deal: where he acted himself, else ``seated`` (his seat at
        the table now, where the timer may have played every card for him) if that seat acted at all."""
        own = {seat for seat, _, by in self.actions if by == user_key}
        if own:
            return min(own)
        return seated if seated is not None and any(seat == seated for seat, _, _ in self.actions) else None


def finished_deal(entries: list[str], no: int) -> Deal | None:
    """Deal ``no`` (1 = the table's first) from the move log ``entries`` (oldest first), if it was dealt and
    has ended there; ``None`` otherwise."""
    if no < 1:
        return None
    dealt, start, actions = 0, None, []
    for entry in entries:
        for move in json.loads(entry).get("moves", ()):
            if "deal" in move:
                dealt += 1
                if dealt == no + 1:
                    break
                if dealt == no:
                    start = engine.from_json(move["deal"])
            elif dealt == no:
                actions.append((move["s"], Action.from_dict(move["a"]), move.get("by", "")))
        if dealt > no:
            break
    if start is None:
        return None
    deal = Deal(no, start, tuple(actions))
    return deal if _ended(deal) else None


def _ended(deal: Deal) -> bool:
    state = deal.start
    for seat, action, _ in deal.actions:
        state, _ = engine.apply(state, seat, action)
    return engine.is_over(state)
