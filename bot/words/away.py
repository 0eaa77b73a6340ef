"""How long the person a slow table waits on has been away, and when the computer plays for him.

One line for the table message and the web table of a Fernspiel table (:mod:`bot.table.pace`): the
others see since when the turn is his, when he last acted at the table, and how soon the automatic
move comes (later by the time a vacation of his stopped the clock; not at all while it runs, see
:func:`bot.words.render.vacation_lines`). Durations are relative to the moment the table is shown.
"""

from __future__ import annotations

from bot.table import deadlines, vacation
from bot.table.record import Table
from bot.words.figures import ago
from bot.words.i18n import t
from bot.words.story import seat_name

__all__ = ["away_line"]


def away_line(table: Table, seat: int | None, now: float) -> str:
    """``⏳ Anna: seit 5 Std. dran · zuletzt da vor 2 Tg. · automatischer Zug in 2 Tg.``; empty unless a
    Fernspiel table waits on a person in ``seat``."""
    if table.pace != "fernspiel" or table.status != "playing" or seat is None or not table.seats[seat].human \
            or table.seats[seat].computer:
        return ""
    lang = table.lang
    parts = [t(lang, "away.since", name=seat_name(table, seat), ago=ago(now - table.since, lang))]
    seen = table.seen.get(table.seats[seat].user)
    if seen:
        parts.append(t(lang, "away.seen", ago=ago(now - seen, lang)))
    if vacation.running(table, table.seats[seat].user, now) is not None:
        return " · ".join(parts)  # the vacation's own line says until when; the clock stands meanwhile
    if table.auto:
        left = deadlines.auto_at(table) - now
        parts.append(t(lang, "away.auto", left=ago(left, lang)) if left >= 60 else t(lang, "away.auto_now"))
    return " · ".join(parts)
