"""The daily digest: at his hour, one message to a person's private chat lists the tables that await him.

His ``digest`` timer (:mod:`bot.store.personal`, leased like the tables' timers) comes due at the hour he chose
(:mod:`bot.table.digest`); it is set for the next day's hour before the message is built, so a process that dies
in between sends that day's digest at most once (a crash before it leaves the lease to send it). Nothing is sent on
a day no table awaits him. Quiet hours that came to cover the hour since he chose it hold it to their end.

The list is :func:`awaiting`: his open tables where it is his turn, read as »Meine Tische« (``/tische``) reads them
(:meth:`~bot.store.tables.Store.records_for_user`), the most urgent first (the automatic move soonest,
:func:`bot.table.deadlines.auto_at`, as that list orders his turns).
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.protocol.outgoing import Notice, Outgoing
from bot.service import mytables
from bot.service.change import Tables
from bot.store.personal import DIGEST
from bot.table import deadlines, digest, pace
from bot.table.record import Table
from bot.words import figures
from bot.words.i18n import game_name, t, tn

__all__ = ["came_due", "awaiting", "rows"]

_MOST = 20
"""At most this many tables in one digest (the per-person table cap is 10 by default)."""


async def awaiting(tables: Tables, user_key: str) -> list[Table]:
    """His open tables where it is his turn (not played for him by the computer), the most urgent first (no
    automatic move: last), read and ordered as »Meine Tische« does (off the loop)."""
    records = [record for _, record in await tables.store.records_for_user(user_key)]
    found = await asyncio.to_thread(mytables.seated, [r.data for r in records], [r.version for r in records], user_key)
    return [table for table, seat, _ in found if table.status == "playing" and table.state
            and table.state.get("to_act") == seat and not table.seats[seat].computer][:_MOST]


async def came_due(tables: Tables, user: str, leased: float, now: float) -> list[Outgoing]:
    """His digest's hour came: set the next one, and list the tables awaiting him (nothing if none does)."""
    store = tables.store
    chosen = await digest.of(store, user)
    if chosen is None:
        await store.personal.done(DIGEST, user, leased)
        return []
    quiet_end = await pace.chat_quiet_end(store, chosen.chat.key, now, tables.settings)
    if quiet_end is not None:
        await store.personal.schedule(DIGEST, user, quiet_end)
        return []
    await store.personal.schedule(DIGEST, user, digest.next_at(chosen.minute, chosen.zone, now))
    waiting = await awaiting(tables, user)
    if not waiting:
        return []
    lines = [tn(chosen.lang, "digest.head", len(waiting)), *rows(waiting, chosen.lang, chosen.zone)]
    return [Notice(chosen.chat, "\n".join(lines))]


def rows(waiting: list[Table], lang: str, zone: str) -> list[str]:
    """A line for each table awaiting him: its game and chat, and when the computer plays for him (in ``zone``)."""
    tz, out = ZoneInfo(zone or "UTC"), []
    for table in waiting:
        when = deadlines.auto_at(table)
        where = table.chat.title or game_name(table.game, lang)
        if when is None:
            out.append(t(lang, "digest.row", game=game_name(table.game, lang), chat=where))
        else:
            out.append(t(lang, "digest.row_auto", game=game_name(table.game, lang), chat=where,
                         when=figures.moment(lang, datetime.fromtimestamp(when, tz))))
    return out
