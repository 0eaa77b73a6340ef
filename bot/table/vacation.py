"""A person's vacation as one Fernspiel table knows it: the clock of his turns stops while it runs.

A vacation (``urlaub 7d``, :mod:`bot.service.vacation`) is noted at each of his Fernspiel tables as an
:class:`~bot.table.record.Away` entry. A turn of his that overlaps it gets its reminders and automatic
move later by the overlap (:mod:`bot.table.deadlines`): he finds the time left that he had when it began.
Only Fernspiel tables outside tournaments hold: other paces and a tournament's rounds keep their
organizer's rule. When it ends (at its day, by ``urlaub aus`` or by a move of his) the entry's end becomes
the real one and it is marked done; an entry that ended before the current turn began is dropped.
"""

from __future__ import annotations

from bot.table.record import Away, Table

__all__ = ["holds", "running", "hold", "release", "paused"]


def holds(table: Table) -> bool:
    """Whether a vacation makes ``table`` wait: a running Fernspiel table outside a tournament."""
    return table.pace == "fernspiel" and not table.tourney and table.status == "playing"


def running(table: Table, user_key: str, now: float) -> Away | None:
    """The vacation of ``user_key`` this table knows as running at ``now``, else ``None``."""
    away = table.away.get(user_key)
    return away if away is not None and not away.done and away.until > now else None


def hold(table: Table, user_key: str, start: float, until: float, zone: str) -> bool:
    """Note that ``user_key`` is away from ``start`` to ``until``; False if the table knew it already."""
    away = table.away.get(user_key)
    if away is not None and (away.start, away.until, away.done) == (start, until, False):
        return False
    earlier, stopped, ended = paused(table, user_key) if away is not None and away.start != start else (0.0, 0.0, 0.0)
    table.away[user_key] = Away(start=start, until=until, zone=zone, before=earlier + ended - stopped)
    _prune(table)
    return True


def release(table: Table, user_key: str, end: float) -> bool:
    """``user_key``'s vacation ended at ``end`` (its day, or earlier); False if the table knew it already."""
    away = table.away.get(user_key)
    if away is None or away.done:
        return False
    away.until = max(away.start, min(away.until, end))
    away.done = True
    _prune(table)
    return True


def paused(table: Table, user_key: str) -> tuple[float, float, float]:
    """How ``user_key``'s vacations stop the current turn's clock: how long earlier ones stopped it (seconds),
    and when the last one stopped it and lets it go on (epoch seconds; all 0: it never stood)."""
    away = table.away.get(user_key)
    if away is None or away.until <= table.since:
        return 0.0, 0.0, 0.0
    return (away.before if away.start >= table.since else 0.0), max(away.start, table.since), away.until


def _prune(table: Table) -> None:
    """Drop the entries that can change no deadline any more: ended before the current turn, or of people gone."""
    table.away = {k: a for k, a in table.away.items()
                  if table.seat_of(k) is not None and not (a.done and a.until <= table.since)}
