"""A person's review of his deal as he gets it: the chat's compact text, and the web table's steps trick by trick.

Built from the deal as it was dealt and played (:class:`bot.table.deal_log.Deal`) and his judged decisions
(:mod:`bot.table.review`), in the review's own words (:mod:`bot.words.review`). Each web step is a completed
trick as the table saw it (the engine's public view of the deal's end) with the decisions he made in it, his
decisions before the play a step of their own. Nothing but what the table showed and his own choices.
"""

from __future__ import annotations

from typing import Any

import engine
from bot.table.deal_log import Deal
from bot.table.match import trick_event
from bot.table.record import Table
from bot.table.review import reviewed
from bot.words.buttons import action_label
from bot.words.i18n import game_name, t
from bot.words.review import decision_line, review_text
from bot.words.webdeal import named_trick
from engine.review import Decision
from engine.state import PLAY_PHASE

__all__ = ["review_steps", "chat_text", "LABELS"]

LABELS = ("back", "next", "close")
"""The step-through's own words (``rv.web.<name>``), sent with every review."""


def chat_text(table: Table, deal: Deal, seat: int, decisions: list[dict[str, Any]]) -> str:
    """The review in a chat, compact (:func:`bot.words.review.review_text`), under the deal's number."""
    return t(table.lang, "rv.chat", no=deal.no, text=review_text(table.lang, reviewed(deal, decisions), seat))


def _judged(lang: str, game: str, decision: Decision) -> dict[str, Any]:
    """One decision on the web: the trick it was made in (0: before the play), its mark, its line (the chat's,
    or where he chose as the strong player did, only that)."""
    trick = len(decision.view["tricks"]) + 1 if decision.view["phase"] == PLAY_PHASE else 0
    if decision.mark or decision.best != decision.choice:
        return {"trick": trick, "mark": decision.mark, "same": False, "text": decision_line(lang, game, decision)}
    where = t(lang, "rv.trick", n=trick) if trick else t(lang, "rv.before")
    return {"trick": trick, "mark": False, "same": True,
            "text": t(lang, "rv.web.same", where=where, choice=action_label(lang, decision.choice, game, decision.view))}


def review_steps(table: Table, deal: Deal, seat: int, decisions: list[dict[str, Any]]) -> dict[str, Any]:
    """The step-through of ``seat``'s review of ``deal``: ``no``, ``title``, ``marks`` (how many decisions are
    marked), ``steps`` (each ``title``, ``trick`` (:func:`~bot.words.webdeal.named_trick`, ``None`` before the
    play) and ``decisions`` (each ``trick``, ``mark``, ``same`` (as the strong player chose) and ``text``)) and
    ``labels`` (the page's words)."""
    lang = table.lang
    review = reviewed(deal, decisions)
    judged = [_judged(lang, table.game, d) for d in review.decisions if d.seat == seat]
    steps = []
    before = [d for d in judged if not d["trick"]]
    if before:
        steps.append({"title": t(lang, "rv.before"), "trick": None, "decisions": before})
    for no, trick in enumerate(engine.view(review.state, None)["tricks"], 1):
        steps.append({"title": t(lang, "rv.trick", n=no), "trick": named_trick(table, trick_event(review.state, trick)),
                      "decisions": [d for d in judged if d["trick"] == no]})
    return {"no": deal.no, "title": t(lang, "rv.deal_title", game=game_name(table.game, lang), no=deal.no),
            "marks": sum(d["mark"] for d in judged), "steps": steps,
            "labels": {name: t(lang, f"rv.web.{name}") for name in LABELS}}
