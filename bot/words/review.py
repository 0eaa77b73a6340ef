"""The review of a deal in words (»Nachbesprechung«): each decision beside the strong player's, its cost, its mark.

Built from an :class:`engine.review.Review` only: a decision names the seat's own choice and the
strong player's, both among the choices of that seat's view then (a card of its own hand, a suit,
a call), labelled as its buttons were (:func:`~bot.words.buttons.action_label`), never a card of
another hand. The cost is in the game's units (Striche, points, tricks), one decimal.
"""

from __future__ import annotations

from engine.actions import Action
from engine.review import Decision, Review
from engine.state import PLAY_PHASE

from bot.words.buttons import action_label
from bot.words.figures import decimal
from bot.words.fit import fit_head
from bot.words.i18n import game_name, t, tn

__all__ = ["decision_line", "review_lines", "review_text"]

_SHOWN = 0.05
"""The least cost that shows as more than 0.0: a decision costing less counts as the strong player's."""


def _label(lang: str, game: str, action: Action | None, decision: Decision) -> str:
    """What a choice was called at the table; letting every offer pass has no button of its own."""
    return t(lang, "act.let_pass") if action is None else action_label(lang, action, game, decision.view)


def decision_line(lang: str, game: str, decision: Decision) -> str:
    """One decision: ``✗ 2. Stich: A♥ – stark: 10♠ – kostet im Schnitt 1,4 Punkte``."""
    view = decision.view
    where = (t(lang, "rv.trick", n=len(view["tricks"]) + 1) if view["phase"] == PLAY_PHASE
             else t(lang, "rv.before"))
    line = t(lang, "rv.line", where=where, choice=_label(lang, game, decision.choice, decision),
             best=_label(lang, game, decision.best, decision),
             cost=t(lang, f"rv.cost.{game}", cost=decimal(lang, decision.cost)))
    return t(lang, "rv.marked" if decision.mark else "rv.unmarked", line=line)


def _summary(lang: str, game: str, decisions: list[Decision]) -> str:
    return t(lang, "rv.title", game=game_name(game, lang), decisions=tn(lang, "rv.decisions", len(decisions)),
             mistakes=tn(lang, "rv.mistakes", sum(d.mark for d in decisions)))


def review_lines(lang: str, review: Review, seats: list[int]) -> list[str]:
    """Every decision of each of ``seats`` in the order taken, under a line naming the seat by its replay
    number, after a summary line (the command line's review); last, where the replay stopped."""
    lines = [_summary(lang, review.game, [d for d in review.decisions if d.seat in seats])]
    for seat in seats:
        lines.append(t(lang, "rv.seat", seat=seat))
        lines += [decision_line(lang, review.game, d) for d in review.decisions if d.seat == seat]
    if review.error is not None:
        lines.append(t(lang, "rv.stopped", index=review.error["index"]))
    return lines


def review_text(lang: str, review: Review, seat: int) -> str:
    """The review for the player of ``seat``, compact: the marked decisions first, then those where the strong
    player chose otherwise, then how many he chose as the strong player did."""
    mine = [d for d in review.decisions if d.seat == seat]
    if not mine:
        return t(lang, "rv.nothing")
    marked = [d for d in mine if d.mark]
    other = [d for d in mine if not d.mark and d.best != d.choice and d.cost >= _SHOWN]
    same = len(mine) - len(marked) - len(other)
    tail = [tn(lang, "rv.same", same)] if same else []
    lines = [decision_line(lang, review.game, d) for d in marked + other]
    return fit_head([_summary(lang, review.game, mine), *lines], tail)
