"""One seat's review of a finished deal: the engine's review (:mod:`engine.review`) of a deal from the move log.

:func:`review` is the one call the bot makes into the engine's review; it runs for seconds and so off the
event loop (:mod:`bot.service.review`). What it returns is JSON, to keep: per decision ``seat``, ``index``
(its place among the deal's actions), ``choice``, ``best`` (replay-format actions, ``best`` ``None`` where the
strong player would have let the offers pass), ``cost`` (in the game's units) and ``mark`` (a clear mistake),
as ``stammtisch review --json`` prints them. :func:`reviewed` gives them back their views for the words.
"""

from __future__ import annotations

import random
from typing import Any

import engine
from bot.table.deal_log import Deal
from engine import review as judge
from engine.actions import Action

__all__ = ["review", "reviewed"]


def _actions(deal: Deal) -> list[tuple[int, Action]]:
    return [(seat, action) for seat, action, _ in deal.actions]


def review(deal: Deal, seat: int, samples: int | None = None, seed: int = 0) -> list[dict[str, Any]]:
    """The decisions ``seat`` made in ``deal``, each judged from what he saw when he made it (``samples``: sampled
    deals per decision, ``None``: the game's; ``seed``: the same seed, the same judgement)."""
    found = judge.review(deal.start, _actions(deal), lambda index: random.Random(f"{seed}:{index}"), [seat], samples)
    return judge.report(found)["decisions"]


def reviewed(deal: Deal, decisions: list[dict[str, Any]]) -> judge.Review:
    """The review of ``deal`` whose ``decisions`` :func:`review` made, each with the view its seat had then (what
    its words may name); no figures of the search (``opinion`` ``None``)."""
    at = {d["index"]: d for d in decisions}
    state, found = deal.start, []
    for index, (actor, action, _) in enumerate(deal.actions):
        if (d := at.get(index)) is not None:
            found.append(judge.Decision(d["seat"], index, Action.from_dict(d["choice"]),
                                        Action.from_dict(d["best"]) if d["best"] is not None else None,
                                        d["cost"], d["mark"], engine.view(state, actor), None))
        state, _ = engine.apply(state, actor, action)
    return judge.Review(state.GAME, tuple(found), None, state)
