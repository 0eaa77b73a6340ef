"""A hint (»Tipp«) in words: the strong player's choice and why, from the figures of its search.

``💡 A♥ – macht den Stich in 19 von 24 möglichen Verteilungen; 10♠ kostet im Schnitt 0,4 Striche``: the
choice by its button's label, how often it takes the trick (a card) or wins the deal (any other
decision) over the sampled deals, and what the next best choice costs on average in the game's unit
(Striche, points, tricks). Letting an offer pass says how seldom taking it would win. Only the asker
reads it. :func:`stake_clause` is the short reason the story gives for a strong computer's stake.
"""

from __future__ import annotations

from typing import Any

from bot.words.buttons import action_label
from bot.words.figures import decimal
from bot.words.i18n import t, tn
from engine.actions import PLAY
from engine.players.opinion import ActionStats, Opinion

__all__ = ["tipp_text", "stake_clause", "EVEN", "TAKES"]

EVEN = 0.05
"""A cost below this (in the game's unit) is no cost: the other choice is as good."""
TAKES = 0.5
"""A card that takes the trick in at least this share of the sampled deals is told by it; else by the deal won."""
_UNIT = {"bauernstoss": "striche", "alter_schafkopf": "striche", "bauerchen": "points", "bauer": "points",
         "rams": "tricks"}
"""The unit a deal's worth is counted in, per game (see :func:`engine.players.strong.net`)."""


def _count(share: float, samples: int) -> int:
    """How many of ``samples`` sampled deals a ``share`` of them is."""
    return round(share * samples)


def stake_clause(lang: str, why: dict[str, Any]) -> str:
    """Why a stake decision (a doubling, playing alone, or letting one pass) was made, from its figures
    (:func:`bot.table.stakes.why`): ``gewinnt in 17 von 24 Verteilungen`` for the stake taken, ``gewinnt nur
    in 9 von 24 Verteilungen`` for one let pass (``why["kind"]``)."""
    return tn(lang, "tipp.wins_only" if "kind" in why else "tipp.wins", why["n"], k=why["k"])


def _label(lang: str, game: str, view: dict[str, Any], stats: ActionStats) -> str:
    return action_label(lang, stats.action, game, view) if stats.action is not None else t(lang, "tipp.nothing")


def tipp_text(lang: str, game: str, view: dict[str, Any], seen: Opinion) -> str:
    """The hint for the reader of ``view`` (his seat's view when he asked) in ``lang``."""
    n = seen.samples
    best = seen.stats(seen.best)
    if not n:  # one choice only: nothing to weigh
        return t(lang, "tipp.only", choice=_label(lang, game, view, best))
    others = sorted((s for s in seen.options if s is not best), key=lambda s: -s.worth)
    if best.action is None:  # an offer let pass: how seldom the best offer wins
        return t(lang, "tipp.let_pass", choice=_label(lang, game, view, others[0]),
                 why=tn(lang, "tipp.wins_only", n, k=_count(others[0].won, n)))
    if best.action.kind == PLAY and best.trick >= TAKES:
        why = tn(lang, "tipp.takes_trick", n, k=_count(best.trick, n))
    else:
        why = tn(lang, "tipp.wins_deal", n, k=_count(best.won, n))
    text = t(lang, "tipp.best", choice=_label(lang, game, view, best), why=why)
    if not others:
        return text
    other = others[0]
    cost = round(best.worth - other.worth, 1)
    if cost < EVEN:
        return text + t(lang, "tipp.as_good", choice=_label(lang, game, view, other))
    return text + tn(lang, f"tipp.costs.{_UNIT[game]}", 1 if cost == 1 else 2, choice=_label(lang, game, view, other),
                     cost=decimal(lang, cost, 0 if cost == int(cost) else 1))
