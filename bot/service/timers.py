"""The turn timers: reminders, automatic moves, the computers going on, the end of the wait for
declarations before the first lead, the store's resync guard and a save's show guard (:mod:`bot.service.shown`).

A timer is leased, not taken (:meth:`~bot.store.tables.Store.claim`): if this process dies before
the save that carries it out, it comes due again. One that has nothing (more) to do is dropped.
A person's timer due in the chat's quiet hours waits for their end, one due during his vacation for its end
(:mod:`bot.service.vacation`). The people's own timers (a daily digest, a vacation's guard) fire here too.
"""

from __future__ import annotations

import logging

import engine
from bot.protocol.outgoing import Notice, Outgoing
from bot.protocol.unavailable import UNAVAILABLE
from bot.service.answer import Ctx
from bot.service import digest, shown, vacation
from bot.service.tourney import results as tourney_results
from bot.service.change import Tables, turn_timer
from bot.store import personal
from bot.store.tables import SHOW
from bot.store.tourneys import KIND
from bot.table import cpu, deadlines, notify, pace, window
from bot.table.match import Match
from bot.table.record import Table
from bot.table.refused import Refused
from bot.words import buttons
from bot.words.i18n import game_name, t

__all__ = ["fire"]

log = logging.getLogger(__package__)


async def fire(tables: Tables, now: float, out: list[Outgoing], only: str | None = None) -> None:
    """Fire the timers due at ``now`` that this process wins (``only``: that table's alone) into ``out``.

    Raises what Redis raises when it is unavailable (``out`` keeps what the timers fired before
    showed); one table's failure is logged and the others go on.
    """
    store = tables.store
    for table_id, version, kind in await store.due(now):
        if only is not None and table_id != only or kind == SHOW and not tables.guarded:
            continue  # a show guard is for a process that writes to the outbox
        if await _away(tables, table_id, version, kind, now, out) or await _quiet(tables, table_id, version, kind, now):
            continue
        if not await store.claim(table_id, version, kind, now):
            continue
        try:
            if kind == KIND:  # a tournament's visit sets its next one itself (a failed one comes again)
                out += await tourney_results.poll(tables, table_id, now)
                continue
            if kind in deadlines.REMINDERS:
                out += await _remind(tables, table_id, version, kind, now)
            elif kind == "sync":
                await _resync(tables, table_id, version, now)
            elif kind == SHOW:
                rebuilt = await shown.came_due(tables, table_id, version, now)
                if rebuilt:  # their write drops the guard (a crash before it lets it come due again)
                    out += rebuilt
                    continue
            elif kind == "cpu":
                out += await tables.change(table_id, None, lambda ctx, v=version: _go_on(ctx, v))
            elif kind == window.TIMER:
                out += await tables.change(table_id, None, lambda ctx, v=version: _declared(ctx, v))
            else:
                out += await tables.change(table_id, None, lambda ctx, v=version: _autoplay(ctx, v))
        except Refused:  # the table is gone
            pass
        except UNAVAILABLE:
            raise
        except Exception:  # noqa: BLE001  (one table's failure must not hide the others' moves)
            log.exception("timer %s of table %s at version %s failed", kind, table_id, version)
            continue
        await store.done(table_id, version, kind)  # a no-op if its save dropped it
    if only is None:
        await _personal(tables, now, out)


async def _personal(tables: Tables, now: float, out: list[Outgoing]) -> None:
    """Fire the people's own timers due at ``now`` that this process wins: digests, vacations' guards."""
    store = tables.store
    for kind, user in await store.personal.due(now):
        leased = await store.personal.claim(kind, user, now)
        if leased is None:
            continue
        try:
            if kind == personal.VACATION:
                out += await vacation.came_due(tables, user, leased, now)
            else:
                out += await digest.came_due(tables, user, leased, now)
        except UNAVAILABLE:
            raise
        except Exception:  # noqa: BLE001  (one person's failure must not hide the others')
            log.exception("the %s timer of %s failed", kind, user)


async def _away(tables: Tables, table_id: str, version: int, kind: str, now: float, out: list[Outgoing]) -> bool:
    """Whether a person's turn timer waits for his vacation (:func:`bot.service.vacation.held`)."""
    if kind not in (*deadlines.REMINDERS, "auto"):
        return False
    loaded = await tables.store.load(table_id)
    try:
        table = Table.load(loaded[1]) if loaded and loaded[0] == version else None
    except ValueError:  # a broken record: its timer fails where the others' failures are logged
        return False
    return table is not None and await vacation.held(tables, table, version, kind, now, out)


async def _quiet(tables: Tables, table_id: str, version: int, kind: str, now: float) -> bool:
    """Whether a person's timer (reminder, automatic move, a Fernspiel table's wait for declarations) falls
    in the chat's quiet hours; then it is moved to their end. The computers' and the store's own timers,
    and the short wait for declarations, always run."""
    if kind not in (*deadlines.REMINDERS, "auto", window.TIMER):
        return False
    loaded = await tables.store.load(table_id)
    try:
        table = Table.load(loaded[1]) if loaded else None
    except ValueError:  # a broken record: its timer fails where the others' failures are logged
        return False
    if table is not None and kind == window.TIMER and table.pace != "fernspiel":
        return False
    chat_key = table.chat.key if table else None
    end = await pace.chat_quiet_end(tables.store, chat_key, now, tables.settings) if chat_key else None
    if end is None:
        return False
    await tables.store.schedule(table_id, version, kind, end)
    return True


async def _resync(tables: Tables, table_id: str, version: int, now: float) -> None:
    """A save's guard timer came due (Redis Cluster): the indexes and the timer follow the stored table.

    If the table moved past ``version``, the process that saved it may have died before it
    updated them; doing it again is harmless. If it did not, that save never landed.
    """
    loaded = await tables.store.fetch(table_id)
    if loaded is None or loaded.version == version:
        return
    table = Table.load(loaded.data)
    timer = turn_timer(table, Match(table, tables.rng, now, None), now) if table.open else None
    await tables.store.reindex(table_id, loaded.version, "open" if table.open else "finished", table.user_keys(),
                               table.index_key, timer)


async def _remind(tables: Tables, table_id: str, version: int, kind: str, now: float) -> list[Outgoing]:
    """Remind the player to act if nothing changed; then set the turn's next timer (a Fernspiel turn's second
    reminder, :mod:`bot.table.deadlines`, else the automatic move)."""
    store = tables.store
    loaded = await store.load(table_id)
    if loaded is None or loaded[0] != version:
        return []
    table = Table.load(loaded[1])
    seat = table.state.get("to_act") if table.status == "playing" and table.state else None
    if seat is None or table.seats[seat].computer:
        return []
    if deadlines.rising(table):
        await store.schedule(table_id, version, *deadlines.next_timer(table, seat, now), replaces=kind)
    elif table.auto:
        await store.schedule(table_id, version, "auto", max(now, table.since + table.auto), replaces=kind)
    user = table.user(seat)
    text = t(table.lang, "reminder", name=user.name, game=game_name(table.game, table.lang))
    silent = await notify.current(store, table.chat, user) == notify.OFF
    return [Notice(table.chat, text, () if silent else (user,), table.id)]


def _go_on(ctx: Ctx, version: int) -> None:
    """The computers go on where they stopped after a deal, if nothing changed since."""
    seat = ctx.match.to_act()
    if version != ctx.version or seat is None or not ctx.table.seats[seat].computer:
        ctx.keep_table()
        return
    cpu.play_computers(ctx.match)


def _declared(ctx: Ctx, version: int) -> None:
    """The wait for the people's declarations ran out, if nothing changed since: the play goes on."""
    if version != ctx.version or not ctx.table.declare:
        ctx.keep_table()
        return
    window.close(ctx.table, ctx.now)
    cpu.play_computers(ctx.match)


_DID = {"play": "did.play", "name_trump": "did.name"}
"""What the computer did for a person away too long, by the engine action's kind (else it chose)."""


def _autoplay(ctx: Ctx, version: int) -> None:
    """The timer plays for the person to act, if nothing changed since; the chat is told what it played."""
    table = ctx.table
    seat = ctx.match.to_act()
    if version != ctx.version or seat is None or table.seats[seat].computer:
        ctx.keep_table()
        return
    user = table.user(seat)
    state = ctx.match.state
    action = cpu.autoplay(ctx.match, seat)
    if action.kind in ("announce", "give", "exchange"):  # the suit or card stays secret
        label = t(table.lang, "act.hidden")
    else:
        label = buttons.action_label(table.lang, action, table.game, engine.view(state, seat))
    did = t(table.lang, _DID.get(action.kind, "did.choose"), action=label)
    ctx.lead.append(Notice(table.chat, t(table.lang, "autoplayed", name=user.name, did=did), (user,), table.id))
