"""A hint (»Tipp«) in words: the strong player's choice and why, from the figures of its search.

``💡 A♥ – macht den Stich in 19 von 24 möglichen Verteilungen; 10♠ kostet im Schnitt 0,4 Striche``: the
choice by its button's label, how often it wins the trick (a card) or the deal (any other decision)
over the sampled deals, and what the next best choice costs on average in the game's unit (Striche,
points, tricks). Letting an offer pass says how seldom taking it wins. Only the asker reads it.
"""

from __future__ import annotations

from typing import Any

from bot.table.tipp import Advice, Weighed
from bot.words.buttons import action_label
from bot.words.figures import decimal
from bot.words.i18n import t, tn

__all__ = ["tipp_text", "stake_clause", "EVEN"]

EVEN = 0.05
"""A cost below this (in the game's unit) is no cost: the other choice is as good."""
_UNIT = {"bauernstoss": "striche", "alter_schafkopf": "striche", "bauerchen": "points", "bauer": "points",
         "rams": "tricks"}
"""The unit a deal's worth is counted in, per game (see :func:`engine.players.strong.worth`)."""


def _label(lang: str, game: str, view: dict[str, Any], weighed: Weighed) -> str:
    return action_label(lang, weighed.action, game, view)


def stake_clause(lang: str, advice: Advice) -> str:
    """Why a stake decision (a doubling, playing alone, or letting one pass) was taken: ``gewinnt in 17 von 24
    Verteilungen`` for the offer taken; ``gewinnt nur in 9 von 24`` for the best offer let pass."""
    if advice.best is not None:
        return tn(lang, "tipp.wins", advice.samples, k=advice.of(advice.best).deals)
    taken = max((w for w in advice.weighed if w.action is not None), key=lambda w: w.worth)
    return tn(lang, "tipp.wins_only", advice.samples, k=taken.deals)


def tipp_text(lang: str, game: str, view: dict[str, Any], advice: Advice) -> str:
    """The hint for the reader of ``view`` (his seat's view when he asked) in ``lang``."""
    n = advice.samples
    best = advice.of(advice.best)
    others = sorted((w for w in advice.weighed if w is not best), key=lambda w: -w.worth)
    if best.action is None:  # an offer let pass: how seldom the best offer wins
        taken = others[0]
        return t(lang, "tipp.let_pass", choice=_label(lang, game, view, taken), why=stake_clause(lang, advice))
    if best.tricks is not None:
        why = tn(lang, "tipp.takes_trick", n, k=best.tricks)
    else:
        why = tn(lang, "tipp.wins_deal", n, k=best.deals)
    text = t(lang, "tipp.best", choice=_label(lang, game, view, best), why=why)
    if not others:
        return text
    other = others[0]
    cost = best.worth - other.worth
    alternative = _label(lang, game, view, other) if other.action is not None else t(lang, "tipp.nothing")
    if cost < EVEN:
        return text + t(lang, "tipp.as_good", choice=alternative)
    shown = round(cost, 1)
    return text + tn(lang, f"tipp.costs.{_UNIT[game]}", 1 if shown == 1 else 2, choice=alternative,
                     cost=decimal(lang, shown, 0 if shown == int(shown) else 1))
