"""Why a strong computer raised the stake, or let it be: the figures its story tells (issue 33, item 4).

When the strong search doubles (Spritzen, Stoß), plays alone (Ledig, Karten weg) or lets such an offer
pass where the game's heuristic would have taken it, the table's story says why in one short clause:
in how many of the sampled deals the stake taken wins, or the stake let pass would have won. This
module finds those decisions and their figures; :mod:`bot.words.story` says them.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action
from engine.players.heuristic import heuristic
from engine.players.opinion import Opinion
from engine.state import State

__all__ = ["STAKES", "why"]

STAKES = frozenset({"spritz", "stoss", "karten_weg", "ledig"})
"""The choices that stake much on one deal: the doublings and playing alone."""


def _stake(action: Action | None) -> bool:
    return action is not None and action.kind in STAKES


def why(state: State, seat: int, action: Action | None, seen: Opinion | None) -> dict[str, Any] | None:
    """The story's figures of ``seat``'s decision ``action`` (before it is applied to ``state``), if the strong
    search (``seen``) decided a stake against the heuristic's choice; else ``None``.

    ``{"k": 17, "n": 24}``: the stake taken won in 17 of 24 sampled deals; with ``"kind"`` the stake let pass
    (the heuristic's choice) and in how many it would have won.
    """
    if seen is None:
        return None
    brain = heuristic(state.GAME)
    prior = brain.choose(state, seat) if state.to_act == seat else brain.offer(state, seat)
    if action == prior or not (_stake(action) or _stake(prior)):
        return None
    if _stake(action):
        return {"k": round(seen.stats(action).won * seen.samples), "n": seen.samples}
    return {"kind": prior.kind, "k": round(seen.stats(prior).won * seen.samples), "n": seen.samples}
