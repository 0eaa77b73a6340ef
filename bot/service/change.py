"""The change cycle: load a table, let a command change it, save it with a compare-and-set, answer.

One change is always: load the table, check the command, let the engine (and the computer
players) act, save with a compare-and-set on the version plus one move-log entry and the turn
timer, then return the outgoing effects. A lost race tries again with the record the refused
save returned. A table this process saved last is not loaded again: the change starts from the
record it saved, and the compare-and-set proves that it is still current (see :class:`Recent`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any, NamedTuple

from bot import memory
from bot.ops import metrics
from bot.ops.settings import Settings
from bot.protocol import tokens, wire
from bot.protocol.outgoing import Command, Outgoing
from bot.service.answer import Ctx, answer, notify_hand, refusal, results
from bot.store import personal
from bot.store.counts import TableCounts
from bot.store.records import Journal, Record
from bot.store.tables import Store
from bot.store.tourneys import KIND as TOURNEY
from bot.table import deadlines, notify, vacation, window
from bot.table.match import Match
from bot.table.record import Table
from bot.table.refused import Refused
from bot.words import hand
from engine.state import State

__all__ = ["Tables", "Recent", "Again", "until_saved", "SAVED", "BEFORE", "done_before", "update_key", "log_saved",
           "seconds", "turn_timer", "ATTEMPTS", "RECENT", "SHOW_GUARD_S"]

log = logging.getLogger(__package__)

ATTEMPTS = 10
"""How often a change is tried after losing a compare-and-set race (a table's or a tournament's)."""
RECENT = 1024
"""How many tables a service remembers as it last saved them (see :class:`Recent`)."""
SHOW_GUARD_S = 5.0
"""Seconds after a save its show guard comes due unless the outbox write of its effects disarmed it: far above
the milliseconds between the two, above a loaded tick's run of timers before its write (a guard that fires
early only costs a rebuild: the first write of a version wins), and well within the 10 s a table may wait."""

SAVED: ContextVar[bool] = ContextVar("stammtisch_saved", default=False)
"""Whether the command this task is handling saved a table: what its update marker records."""
BEFORE: ContextVar[bool] = ContextVar("stammtisch_before", default=False)
"""Whether the command this task is handling was carried out before (see :class:`~bot.protocol.outgoing.Before`)."""


def done_before() -> list[Outgoing]:
    """The answer to a command whose update was carried out before (its save landed): nothing; it counts as saved."""
    SAVED.set(True)
    BEFORE.set(True)
    return []


class Again(NamedTuple):
    """An attempt at a change to make again from ``record`` (``None``: the stored one, loaded anew): its save lost
    the compare-and-set race, or it started from a remembered record that no refusal may be given from."""

    record: Any = None


async def until_saved(attempt: Callable[[Any, bool], Awaitable[Any]], start: Any = None) -> Any:
    """Run ``attempt`` until it no longer loses a compare-and-set race; at most :data:`ATTEMPTS` times, then busy.

    The one retry loop of every versioned record the service changes (a table's, :meth:`Tables.change`, and a
    tournament's, :func:`bot.service.tourney.change.change`). ``attempt(record, fresh)`` starts from ``record``
    (``None``: it loads the stored one; ``start`` at first, then what its :class:`Again` returned); ``fresh``
    tells that ``record`` was just read from Redis (not remembered from an earlier save). It returns its
    answer, or :class:`Again`; it raises :class:`~bot.table.refused.Refused` to refuse.
    """
    record, fresh = start, False
    for _ in range(ATTEMPTS):
        done = await attempt(record, fresh)
        if not isinstance(done, Again):
            return done
        record, fresh = done.record, done.record is not None
    raise Refused("busy")


def seconds(value) -> int | None:
    """A ``timedelta`` setting as whole seconds (``None`` stays ``None``)."""
    return None if value is None else int(value.total_seconds())


def update_key(cmd: Command | None) -> str:
    """The key that marks the command's platform update as handled (``""`` if it names none)."""
    if cmd is None or not cmd.update_id:
        return ""
    return f"{cmd.chat.platform}:{cmd.bot}:{cmd.update_id}"


def log_saved(table: Table, version: int, cmd: Command | None, was: str) -> None:
    """One log line for a saved change: INFO when the table's status changed, else DEBUG.

    Only the command's verb is logged, never its argument (which can name a card of a hand).
    """
    level = logging.INFO if table.status != was else logging.DEBUG
    if not log.isEnabledFor(level):
        return
    token = tokens.parse(cmd.token) if cmd and cmd.token else None
    verb = token.verb if token else cmd.verb if cmd else "timer"
    log.log(level, "table %s %s", table.id, table.status if table.status != was else "changed",
            extra={"table": table.id, "game": table.game, "platform": table.chat.platform, "version": version,
                   "verb": verb, "status": table.status})


class Recent:
    """The tables this process saved last, as it saved them: the record and its decoded engine state.

    A change starts from the remembered record instead of loading it: the compare-and-set of the
    save on version and revision proves that it was still the stored one (a refused save returns
    the stored record to try again with). An answer that saves nothing (a refusal, a quiet command)
    is only ever given from a record just read from Redis. A table whose save failed in any way is
    forgotten; least recently used tables are forgotten first.
    """

    def __init__(self, size: int = RECENT) -> None:
        self._size = size
        self._items: OrderedDict[str, tuple[Record, State | None]] = OrderedDict()

    def get(self, table_id: str) -> tuple[Record, State | None] | None:
        """The remembered record and state of the table, if any."""
        item = self._items.get(table_id)
        if item is not None:
            self._items.move_to_end(table_id)
        return item

    def record(self, table_id: str, record: Record) -> tuple[Record, State | None]:
        """``record`` with the remembered state if it is the remembered record, else with ``None``."""
        item = self._items.get(table_id)
        return item if item is not None and item[0] == record else (record, None)

    def put(self, table_id: str, record: Record, state: State | None) -> None:
        """Remember what the table was saved as."""
        self._items[table_id] = (record, state)
        self._items.move_to_end(table_id)
        if len(self._items) > self._size:
            self._items.popitem(last=False)

    def drop(self, table_id: str) -> None:
        """Forget the table."""
        self._items.pop(table_id, None)


class Tables:
    """The stored tables and the one way to change them (:meth:`change`), shared by every kind of command.

    Args:
        store: the Redis store.
        settings: timer defaults and the default language.
        rng: shuffles the deals (``secrets.SystemRandom()`` unless a test gives a seeded one).
        clock: the time in epoch seconds.
        counts: where to count tables by state for the metrics (``None``: not counted).
    """

    def __init__(self, store: Store, settings: Settings, rng=None, clock: Callable[[], float] = time.time,
                 counts: TableCounts | None = None) -> None:
        self.store = store
        self.settings = settings
        self.rng = rng or secrets.SystemRandom()
        self.clock = clock
        self.counts = counts
        self.recent = Recent()
        self.book = memory.Book(store.redis, store.prefix, cap=settings.memory_matches,
                                ttl=settings.memory_days * 86400)
        """Where the chats' memories live (:mod:`bot.memory`)."""
        self.guarded: tuple[str, ...] = ()
        """The platforms whose tables' saves arm a show guard: those whose effects go through an outbox."""
        self.unshown: OrderedDict[str, set[int]] = OrderedDict()
        """The versions this process saved (or a guard rebuilt), by table, whose effects are not written yet:
        the outbox write disarms their show guards (at most :data:`RECENT` tables)."""
        self._counting: set[asyncio.Task] = set()

    async def change(self, table_id: str, cmd: Command | None, fn: Callable[[Ctx], None]) -> list[Outgoing]:
        """Let ``fn`` change the table for ``cmd`` (``None``: a timer), save it and answer.

        ``fn`` raises :class:`Refused` to refuse, or sets ``ctx.quiet`` to answer without saving.
        A refusal or a quiet answer is only given from a record just read from Redis; a lost
        compare-and-set tries again with the record it returned (:func:`until_saved`).
        """
        update = update_key(cmd)
        started = time.perf_counter()

        async def attempt(cached: tuple[Record, State | None] | None, fresh: bool) -> list[Outgoing] | Again:
            if cached is None:
                loaded = await self.store.fetch(table_id)
                if loaded is None:
                    raise Refused("unknown_table")
                cached, fresh = self.recent.record(table_id, loaded), True
            (version, data, rev), state = cached
            table = Table.load(data)
            now = self.clock()
            match = Match(table, self.rng, now, state)
            before = {i: _signature(table, match.state, i) for i in table.humans()}
            ctx = Ctx(cmd, table, match, version, now)
            was = table.status
            turn_before = match.to_act()
            reclaimed = _reclaim(ctx)
            try:
                if cmd is None or any(seat.computer or seat.empty for seat in table.seats):
                    # the computer players' moves run off the event loop: they may take long (an empty
                    # seat gets a computer player at the start, which plays at once)
                    await asyncio.to_thread(fn, ctx)
                else:
                    fn(ctx)  # people only: one engine action, far cheaper than a thread's hand-over
            except Refused as r:
                if fresh:
                    if update and await self.store.applied(table_id, update):
                        return done_before()  # its save landed: another process's, or this one's before a crash
                    return refusal(ctx, r)
                return Again()
            if ctx.quiet and not reclaimed:
                if fresh:
                    return answer(ctx, version, set())
                return Again()
            match.save()
            _seen(ctx)
            back = _came_back(ctx)
            if back:  # before the save: a crash after it leaves the guard to end his vacation at his other tables
                await self.store.personal.guard(personal.VACATION, ctx.user.key, now)
            changed, fading = _hands_changed(ctx, before, version + 1)
            status = "open" if table.open else "finished"
            entry = {"v": version, "by": cmd.user.key if cmd else "timer", "cmd": _what(cmd), "moves": match.log}
            data = table.dump()
            self.recent.drop(table_id)  # until the save is known to have landed
            recorded = self._journal(table, match, now)
            guarded = table.chat.platform in self.guarded
            notes = [*ctx.lead, *results(ctx)] if guarded else []
            saved = await self.store.save(table_id, version, data, log=[json.dumps(entry, separators=(",", ":"))],
                                          status=status, user_keys=table.user_keys(), chat_key=table.index_key,
                                          timer=turn_timer(table, match, now), rev=rev, update=update,
                                          journal=recorded, guard_at=now + SHOW_GUARD_S if guarded else None,
                                          notes=wire.pack(notes) if notes else b"")
            if saved:
                SAVED.set(True)
                if guarded:
                    self.unwritten(table_id, version + 1)
                if back and await self.store.vacations.end(ctx.user.key, now) is not None:
                    await self.store.personal.schedule(personal.VACATION, ctx.user.key, now)  # the others at the next tick
                if recorded and table.status == "finished":
                    self._count(table.chat.group)
                self.recent.put(table_id, Record(version + 1, data, saved.rev), match.state)
                if table.tourney and not table.open:  # its tournament reads the result at once
                    await self.store.schedule(table.tourney.partition(":")[0], 0, TOURNEY, now)
                if self.counts:
                    await self.counts.note(table_id, table.status, now)
                out = answer(ctx, version + 1, changed, fading)
                metrics.moved(table.game, table.chat.platform, time.perf_counter() - started)
                log_saved(table, version + 1, cmd, was)
                idle = notify.idle_turn(table, turn_before, match.to_act(), bool(match.moves or match.dealt), now)
                if idle is not None and await notify.wants_every_turn(self.store, table.chat, table.user(idle)):
                    out = notify_hand(out, ctx, idle, version + 1)
                return out
            if saved.duplicate:
                return done_before()
            if saved.current is None:
                raise Refused("unknown_table")
            return Again((saved.current, None))
        return await until_saved(attempt, self.recent.get(table_id))

    def unwritten(self, table_id: str, version: int) -> None:
        """Note that the effects of the table's ``version`` are not written to the outbox yet (:attr:`unshown`)."""
        self.unshown.setdefault(table_id, set()).add(version)
        self.unshown.move_to_end(table_id)
        if len(self.unshown) > RECENT:
            self.unshown.popitem(last=False)

    def _journal(self, table: Table, match: Match, now: float) -> Journal | None:
        """What the save records in the chat's memory; a record that cannot be built is logged, the move saved."""
        try:
            return memory.journal(self.book, table, match.news, now)
        except Exception:  # noqa: BLE001  (the move matters more than its record)
            log.exception("table %s: its finished deal or match could not be recorded", table.id)
            return None

    def _count(self, group: str) -> None:
        """Count the chat's recorded deals and match into its statistics, after the answer (queries count too)."""
        task = asyncio.create_task(self._counted(group))
        self._counting.add(task)
        task.add_done_callback(self._counting.discard)

    async def _counted(self, group: str) -> None:
        try:
            await memory.absorb(self.book, group)
        except Exception:  # noqa: BLE001  (the entries wait in the inbox for the next count)
            log.warning("counting the memory of %s failed; it is counted with the next query", group, exc_info=True)

    async def counted(self) -> None:
        """Wait until the counting started so far is done (for tests and an orderly shutdown)."""
        while self._counting:
            await asyncio.gather(*self._counting, return_exceptions=True)


def turn_timer(table: Table, match: Match, now: float) -> tuple[str, float] | None:
    """The first turn timer of the new version: the reminder, or the automatic move if it comes first.

    A computer to act (its moves stopped after a deal, see :func:`bot.table.cpu.play_computers`)
    goes on at the next tick. While people may still declare before the first lead, the end of
    their wait comes first (:mod:`bot.table.window`). A Fernspiel turn's deadlines rise
    (:mod:`bot.table.deadlines`). The store drops a closed table's timers. A table in a private chat
    has no reminder: its only person plays against the computer.
    """
    seat = match.to_act()
    if table.declare and seat is not None:  # people may still declare before the first lead
        return (window.TIMER, table.declare_end) if table.declare_end else None
    if seat is not None and table.seats[seat].computer:
        return "cpu", now
    if seat is None or table.chat.private:
        return None
    if deadlines.rising(table):
        return deadlines.next_timer(table, seat, now)
    if table.remind and not (table.auto and table.auto <= table.remind):
        return "remind", max(now, table.since + table.remind)
    if table.auto:
        return "auto", max(now, table.since + table.auto)
    return None


def _seen(ctx: Ctx) -> None:
    """Note when the person who sent the command last acted here (only seated people are kept)."""
    table = ctx.table
    if ctx.cmd is not None and table.seat_of(ctx.user.key) is not None:
        table.seen[ctx.user.key] = ctx.now
    table.seen = {k: v for k, v in table.seen.items() if table.seat_of(k) is not None}


def _came_back(ctx: Ctx) -> bool:
    """A move of the sender at a table waiting for his vacation ends the vacation (here at once, at his other
    tables by his vacation's timer, :mod:`bot.service.vacation`)."""
    if ctx.cmd is None or not ctx.match.moves or vacation.running(ctx.table, ctx.user.key, ctx.now) is None:
        return False
    return vacation.release(ctx.table, ctx.user.key, ctx.now)


def _what(cmd: Command | None) -> str:
    """What the move log keeps of the command: its token or its words."""
    if cmd is None:
        return "timer"
    return cmd.token or " ".join((cmd.verb, *cmd.args))


def _reclaim(ctx: Ctx) -> bool:
    """A player whose turns the timer played takes his seat back by acting at the table."""
    if ctx.cmd is None:
        return False
    seat = ctx.table.seat_of(ctx.user.key)
    if seat is None or not ctx.table.seats[seat].auto:
        return False
    ctx.table.seats[seat].auto = False
    return True


def _signature(table: Table, state: State | None, seat: int) -> tuple:
    """What ``seat``'s hand message shows (:func:`bot.words.hand.hand_signature`), his window included."""
    return hand.hand_signature(state, seat, table.status, seat in window.waiting_for(table))


def _hands_changed(ctx: Ctx, before: dict[int, tuple], version: int) -> tuple[set[int], set[int]]:
    """The people whose hand message changes with the save of ``version``, and those of them whose hand only
    lost choices (:func:`bot.words.hand.only_lost`: its buttons stay valid, the adapters may hold its edit).

    Only the others' hands are noted changed in ``Table.hand_at`` (their older buttons are stale from now on), not one
    that only gained choices (:func:`bot.words.hand.only_gained`: its older buttons still do what they did). A hand
    that went out as one its owner cannot act on yet is noted in ``Table.held`` and counts as changed again when his
    turn comes, so that the adapters show what they held back.
    """
    table, state = ctx.table, ctx.match.state
    if state is None or table.status == "lobby":
        return set(), set()
    after = {seat: _signature(table, state, seat) for seat in table.humans()}
    changed = {seat for seat, now in after.items() if before.get(seat) != now}
    fading = {seat for seat in changed if seat in before and hand.only_lost(before[seat], after[seat])}
    gained = {seat for seat in changed if seat in before and hand.only_gained(before[seat], after[seat])}
    for seat in changed - fading - gained:
        table.hand_changed(seat, version)
    held = {seat for seat in table.held if seat in after} - (changed - fading)
    declaring = window.waiting_for(table)
    held |= {seat for seat in changed - fading if hand.waits(state, seat, seat in declaring)}
    if state.to_act in held:  # his turn: the hand held back goes out now, unchanged (an adapter shows it at once)
        held.discard(state.to_act)
        changed.add(state.to_act)
        fading.discard(state.to_act)
    table.held = sorted(held)
    return changed, fading
