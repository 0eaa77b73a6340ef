"""When a Fernspiel turn's reminders and automatic move come: they rise with the deadline.

A turn of ``auto`` seconds gets at most two reminders: one when half of it has passed, one when its last
tenth begins (the last hour at the least; none if that is not after the first), then the automatic move.
A vacation of the person to act (:mod:`bot.table.vacation`) stops the clock: each comes later by the time
the turn overlapped it, and the automatic move at least one reminder interval (``remind``) after the
vacation's end, so that he gets time to find his cards; what came due before it began is not
repeated. Timer kinds: ``remind``, ``remind_last``, ``auto``.
"""

from __future__ import annotations

from bot.table import vacation
from bot.table.record import Table

__all__ = ["REMINDERS", "rising", "stages", "next_timer", "auto_at"]

REMINDERS = ("remind", "remind_last")
"""The kinds of a turn's two reminders, in their order."""
_LAST_TENTH_AT_LEAST = 3600.0


def rising(table: Table) -> bool:
    """Whether ``table``'s turns follow these deadlines (a Fernspiel table with an automatic move)."""
    return table.pace == "fernspiel" and bool(table.auto)


def stages(table: Table, seat: int) -> list[tuple[str, float]]:
    """The turn timers of ``seat``'s current turn, earliest first: ``(kind, due)`` (a :func:`rising` table)."""
    auto = float(table.auto or 0)
    offsets = [("remind", auto / 2)]
    last = auto - max(auto / 10, _LAST_TENTH_AT_LEAST)
    if last > auto / 2:
        offsets.append(("remind_last", last))
    offsets.append(("auto", auto))
    earlier, stopped, until = vacation.paused(table, table.seats[seat].user)
    due = []
    for kind, offset in offsets:
        at = table.since + offset + earlier
        # what came due before the clock stopped stays in the past: a reminder is never sent twice
        due.append((kind, at + until - stopped if until and at > stopped else at))
    if until:
        floor = until + (table.remind or auto / 10)
        due[-1] = ("auto", max(due[-1][1], floor))
    return due


def next_timer(table: Table, seat: int, now: float) -> tuple[str, float]:
    """The first of ``seat``'s turn timers still to come after ``now`` (the automatic move at once if none)."""
    return next(((kind, at) for kind, at in stages(table, seat) if at > now), ("auto", now))


def auto_at(table: Table) -> float | None:
    """When the automatic move plays the current turn at ``table``, if it ever does (later by what a vacation
    stopped the clock at a :func:`rising` table)."""
    seat = table.state.get("to_act") if table.state else None
    if seat is None or not table.auto:
        return None
    if rising(table):
        return stages(table, seat)[-1][1]
    return table.since + table.auto
