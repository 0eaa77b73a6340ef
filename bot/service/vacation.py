"""Vacations: ``urlaub 7d`` (``vacation 7``), ``urlaub`` and ``urlaub aus``, and what they do to a person's tables.

While a person's vacation runs, his Fernspiel tables (outside tournaments) wait for him: each knows it
(:mod:`bot.table.vacation`), its turn timers come later by what his turn overlapped it
(:mod:`bot.table.deadlines`), and its message says until when. Every step is one table save (the record and its
timer together, in one script), so a crash at any point loses no timer; the steps over all his tables are
guarded by his ``vacation`` timer (:mod:`bot.store.personal`): set ``lease_s`` ahead before they begin and moved
to the vacation's end when they are done, so a process that dies between two tables leaves them to the next
process, which does them again (a table that knows already keeps its record). A timer of a table not reached
yet that comes due meanwhile is held there (:func:`held`): none fires during a vacation.

When it ends by its day he is told so in his private chat, once (at most: like the digest, a process that dies
after it marked him told sends nothing), with the tables where it is his turn then
(:func:`bot.service.digest.awaiting`); in his private chat's language, else the one he asked for it in; in that
chat's quiet hours his timer waits for their end to tell him (his tables go on at once). Not when he ended it
himself: he was answered then.

Decided: the budget counts calendar days booked (``urlaub 7d``: 7) in the year (UTC) the vacation begins; an
early end, by ``urlaub aus`` or by a move of his at one of these tables, gives back the whole days not begun. A
running vacation is not lengthened: he ends it first. At its end his turn has the time it had when it began,
its automatic move at least one reminder interval later.
"""

from __future__ import annotations

import contextlib
import re
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.protocol.outgoing import ChatRef, Command, Notice, Outgoing, PrivateText, UserRef
from bot.service import digest
from bot.service.answer import chosen_lang
from bot.service.change import Tables
from bot.store.personal import VACATION as TIMER
from bot.store.vacations import Vacation, year_of
from bot.table import deadlines, pace, vacation
from bot.table.record import Table
from bot.table.refused import Refused
from bot.words import figures
from bot.words.i18n import supported, t, tn

__all__ = ["typed", "came_due", "held", "until_text"]

_DAYS = re.compile(r"([0-9]{1,3})(?:d|t|tag|tage|day|days)?")
_OFF = frozenset({"aus", "off", "ende", "end", "stop", "zurück", "zurueck", "back"})


def until_text(lang: str, until: float, zone: str) -> str:
    """The day a vacation ends, as the chat writes it in its time zone: ``Fr., 12.12.``."""
    return figures.weekday(lang, datetime.fromtimestamp(until, ZoneInfo(zone or "UTC")))


async def typed(tables: Tables, cmd: Command, args: tuple[str, ...], lang: str) -> list[Outgoing]:
    """``urlaub`` with no words: how it stands; ``urlaub 7d``: begin one; ``urlaub aus``: end it."""
    store, settings, now = tables.store, tables.settings, tables.clock()
    user, budget = cmd.user.key, settings.vacation_days
    zone = await pace.chat_zone(store, cmd.chat.key, settings)
    word = "".join(args).lower()[:20]
    if not word:
        vac = await store.vacations.get(user)
        left = await store.vacations.left(user, year_of(now), budget)
        if vac is not None and vac.runs(now):
            return [Notice(cmd.chat, tn(lang, "vac.running", left, until=until_text(lang, vac.until, zone)))]
        return [Notice(cmd.chat, tn(lang, "vac.none", left))]
    if word in _OFF:
        return await _end(tables, cmd, lang, now)
    m = _DAYS.fullmatch(word)
    if m is None:
        raise Refused("vac_unknown", most=budget)
    days = int(m.group(1))
    if not 1 <= days <= budget:
        raise Refused("vac_days", most=budget)
    await store.personal.guard(TIMER, user, now)
    started = await store.vacations.start(user, now, days, budget, zone, cmd.lang if supported(cmd.lang) else lang)
    if not started.ok:
        if started.until:  # one runs (its guard, due soon, does its steps again if they were cut short)
            raise Refused("vac_already", until=until_text(lang, started.until, zone))
        raise Refused("vac_budget", left=started.left, most=budget)
    out = await _hold_all(tables, user, Vacation(now, started.until, days, zone))
    await store.personal.schedule(TIMER, user, started.until)
    text = tn(lang, "vac.started", started.left, until=until_text(lang, started.until, zone))
    return [Notice(cmd.chat, text), *out]


async def _end(tables: Tables, cmd: Command, lang: str, now: float) -> list[Outgoing]:
    """``urlaub aus``: the vacation ends now, his tables go on, the unused whole days come back."""
    store = tables.store
    guarded = await store.personal.guard(TIMER, cmd.user.key, now)
    back = await store.vacations.end(cmd.user.key, now)
    if back is None:
        raise Refused("vac_not_running")
    out = await _release_all(tables, cmd.user.key, now)
    await store.personal.done(TIMER, cmd.user.key, guarded)
    left = await store.vacations.left(cmd.user.key, year_of(now), tables.settings.vacation_days)
    return [Notice(cmd.chat, tn(lang, "vac.ended", left, back=back)), *out]


async def came_due(tables: Tables, user: str, leased: float, now: float) -> list[Outgoing]:
    """His vacation's timer came due: do its steps again while it runs (then wait for its end), else release
    his tables. A vacation a move of his ended at one table (:func:`bot.service.change`) ends here for all."""
    store = tables.store
    vac = await store.vacations.get(user)
    if vac is not None and vac.runs(now):
        if not await _came_back(tables, user, vac):
            out = await _hold_all(tables, user, vac)
            await store.personal.schedule(TIMER, user, vac.until)
            return out
        await store.vacations.end(user, now)
        vac = vac._replace(until=now, told=True)
    out = await _release_all(tables, user, vac.until if vac is not None else now)
    if vac is not None and not vac.told:
        platform, _, user_id = user.partition(":")
        chat = ChatRef(platform, user_id, private=True)
        later = await pace.chat_quiet_end(store, chat.key, now, tables.settings)
        if later is not None:  # the word waits for the morning
            await store.personal.schedule(TIMER, user, later)
            return out
        if await store.vacations.over(user, now):
            out.append(await _welcome(tables, chat, vac))
    await store.personal.done(TIMER, user, leased)
    return out


async def _welcome(tables: Tables, chat: ChatRef, vac: Vacation) -> PrivateText:
    """The word to him (in his private ``chat``) that his vacation is over, with the tables where it is his turn."""
    user = UserRef(chat.platform, chat.chat_id)
    lang = await chosen_lang(tables.store, chat) or vac.lang or tables.settings.lang
    waiting = await digest.awaiting(tables, user.key)
    head = tn(lang, "vac.over_turns", len(waiting)) if waiting else t(lang, "vac.over")
    return PrivateText(user, chat, "\n".join([head, *digest.rows(waiting, lang, vac.zone)]))


async def held(tables: Tables, table: Table, version: int, kind: str, now: float, out: list[Outgoing]) -> bool:
    """Whether the due ``kind`` timer of ``table`` (at ``version``) waits for the vacation of the person to act;
    then the table learns of it (its save sets the timer anew, its message goes to ``out``), or if it knew, the
    timer moves to where it belongs now."""
    seat = table.state.get("to_act") if table.state else None
    if kind not in (*deadlines.REMINDERS, "auto") or not vacation.holds(table) or seat is None:
        return False
    user = table.seats[seat].user
    vac = await tables.store.vacations.get(user) if user else None
    if vac is None or not vac.runs(now) or _released(table, user, vac):
        return False
    zone = await pace.chat_zone(tables.store, table.chat.key, tables.settings)
    saved = []

    def step(ctx) -> None:
        if vacation.holds(ctx.table) and vacation.hold(ctx.table, user, vac.start, vac.until, zone):
            saved.append(True)
        else:
            ctx.keep_table()
    out += await tables.change(table.id, None, step)
    if not saved:
        vacation.hold(table, user, vac.start, vac.until, zone)
        await tables.store.schedule(table.id, version, *deadlines.next_timer(table, seat, now), replaces=kind)
    return True


def _released(table: Table, user: str, vac: Vacation) -> bool:
    """Whether a move of ``user`` at ``table`` ended this vacation there."""
    away = table.away.get(user)
    return away is not None and away.done and away.start == vac.start


async def _came_back(tables: Tables, user: str, vac: Vacation) -> bool:
    """Whether a move of his ended the running vacation at one of his tables (its end did not reach the rest)."""
    return any(_released(table, user, vac) for table in await _tables(tables, user))


async def _tables(tables: Tables, user: str) -> list[Table]:
    """His open tables as stored now."""
    out = []
    for table_id in await tables.store.tables_for_user(user):
        loaded = await tables.store.load(table_id)
        if loaded is not None:
            out.append(Table.load(loaded[1]))
    return out


async def _hold_all(tables: Tables, user: str, vac: Vacation) -> list[Outgoing]:
    """Each of his Fernspiel tables learns of the vacation (one save each; a table that knows keeps its record)."""
    def step(ctx, zone: str) -> None:
        if not vacation.holds(ctx.table) or not vacation.hold(ctx.table, user, vac.start, vac.until, zone):
            ctx.keep_table()
    return await _each(tables, user, lambda table: vacation.holds(table), step)


async def _release_all(tables: Tables, user: str, end: float) -> list[Outgoing]:
    """Each table that knows of his vacation learns that it ended at ``end``."""
    def step(ctx, zone: str) -> None:
        if not vacation.release(ctx.table, user, end):
            ctx.keep_table()
    return await _each(tables, user, lambda table: user in table.away, step)


async def _each(tables: Tables, user: str, which, step) -> list[Outgoing]:
    """``step`` at each of his tables ``which`` selects, as a change of its own; a table gone meanwhile is skipped."""
    out: list[Outgoing] = []
    for table in await _tables(tables, user):
        if not which(table):
            continue
        zone = await pace.chat_zone(tables.store, table.chat.key, tables.settings)
        with contextlib.suppress(Refused):
            out += await tables.change(table.id, None, lambda ctx, z=zone: step(ctx, z))
    return out
