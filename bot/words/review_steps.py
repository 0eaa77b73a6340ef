"""A review of one seat's deal, trick by trick, as the web table steps through it.

Built from the deal as it was dealt and played (:class:`bot.table.deal_log.Deal`) and the seat's judged
decisions (:mod:`bot.table.review`): each step is a completed trick as the table saw it (the engine's
public view of the deal's end) with the decisions the seat made in it, the decisions before the play a
step of their own. Nothing but what the table showed and the seat's own choices: never another hand.
"""

from __future__ import annotations

from typing import Any

import engine
from bot.table.deal_log import Deal
from bot.table.match import trick_event
from bot.table.record import Table
from bot.words.buttons import action_label
from bot.words.i18n import game_name, t, tn
from bot.words.webdeal import named_trick
from engine.actions import Action

__all__ = ["review_steps", "review_text", "decision_lines", "LABELS"]

LABELS = ("back", "next", "close")
"""The step-through's own words (``rv.web.<name>``), sent with every review."""


def _views(deal: Deal, seat: int) -> tuple[dict[int, dict[str, Any]], Any]:
    """What ``seat`` saw before each of his actions (by the action's index), and the deal's end state."""
    state, views = deal.start, {}
    for index, (actor, action, _) in enumerate(deal.actions):
        if actor == seat:
            views[index] = engine.view(state, seat)
        state, _ = engine.apply(state, actor, action)
    return views, state


def _decision(table: Table, decision: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """One judged decision in words: his choice, the strong one, the cost and the mark, and the line that tells it."""
    lang, game = table.lang, table.game
    choice = action_label(lang, Action.from_dict(decision["choice"]), game, view)
    best = decision["best"]
    strong = action_label(lang, Action.from_dict(best), game, view) if best is not None else t(lang, "rv.let_pass")
    where = t(lang, "rv.trick", no=decision["trick"]) if decision["trick"] else t(lang, "rv.before")
    if not decision["mark"]:
        text = t(lang, "rv.line_good", where=where, choice=choice)
    elif decision.get("cost") is not None:
        text = t(lang, "rv.line_cost", where=where, choice=choice, best=strong, cost=f"{decision['cost']:g}")
    else:
        text = t(lang, "rv.line_mark", where=where, choice=choice, best=strong)
    return {"index": decision["index"], "trick": decision["trick"], "choice": choice, "best": strong,
            "cost": decision.get("cost"), "mark": bool(decision["mark"]), "text": text}


def decision_lines(table: Table, deal: Deal, seat: int, decisions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each judged decision of ``seat`` in words (:func:`_decision`), in the order he made them."""
    views, _ = _views(deal, seat)
    return [_decision(table, d, views[d["index"]]) for d in decisions]


def review_steps(table: Table, deal: Deal, seat: int, decisions: list[dict[str, Any]]) -> dict[str, Any]:
    """The step-through of ``seat``'s review of ``deal``: ``no``, ``title``, ``marks`` (how many decisions
    are marked), ``steps`` (each ``title``, ``trick`` (:func:`~bot.words.webdeal.named_trick`, ``None``
    before the play) and ``decisions`` (:func:`decision_lines`)) and ``labels`` (the page's words)."""
    lang = table.lang
    views, final = _views(deal, seat)
    judged = [_decision(table, d, views[d["index"]]) for d in decisions]
    steps = []
    before = [d for d in judged if not d["trick"]]
    if before:
        steps.append({"title": t(lang, "rv.before"), "trick": None, "decisions": before})
    for no, trick in enumerate(engine.view(final, None)["tricks"], 1):
        steps.append({"title": t(lang, "rv.trick", no=no), "trick": named_trick(table, trick_event(final, trick)),
                      "decisions": [d for d in judged if d["trick"] == no]})
    return {"no": deal.no, "title": t(lang, "rv.title", game=game_name(table.game, lang), no=deal.no),
            "marks": sum(d["mark"] for d in judged), "steps": steps,
            "labels": {name: t(lang, f"rv.web.{name}") for name in LABELS}}


def review_text(table: Table, deal: Deal, seat: int, decisions: list[dict[str, Any]]) -> str:
    """The review in a chat, compact: its title, how many marks, the marked decisions first, the rest counted."""
    lang = table.lang
    judged = decision_lines(table, deal, seat, decisions)
    marked = [d["text"] for d in judged if d["mark"]]
    lines = [t(lang, "rv.title", game=game_name(table.game, lang), no=deal.no)]
    lines.append(tn(lang, "rv.marks", len(marked)) if marked else t(lang, "rv.no_marks"))
    lines += marked
    if len(judged) > len(marked):
        lines.append(tn(lang, "rv.good", len(judged) - len(marked)))
    return "\n".join(lines)
