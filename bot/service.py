"""The table service: every command from every adapter, and the turn timers.

One change is always: load the table, check the command, let the engine (and the computer
players) act, save with a compare-and-set on the version plus one move-log entry and the turn
timer, then return the outgoing effects. A lost race tries again with the record the refused
save returned; a button pressed on an old version of the table is answered "already played"
with a fresh view and never applied. A table this process saved last is not loaded again: the
change starts from the record it saved, and the compare-and-set proves that it is still current
(see :class:`_Recent`).

Only buttons whose effect depends on what the presser saw carry a version that must still hold:
a card or decision of a hand counts if the hand was rendered as the presser holds it now (its
buttons carry the version at which it last changed, ``Table.hand_at``: a hand is not edited for
another player's card), an offer of the table message (doubling, playing alone) and the rematch
only from the current version. Lobby and table verbs (start, join, leave, computer players,
options, "my hand") are checked against the table as it is now, so a press that still makes sense
works from a message one or more versions old.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any

import engine
from engine.actions import PLAY
from engine.rams import target_of
from engine.state import State

from . import actarg, metrics, notify, pace, players, render, story, textcmd, tokens
from . import options as typed_options
from .computer import LEVEL_OPTION, LEVELS, level_from
from .i18n import LANGS, Text, game_name, hint_key, supported, t
from .outage import UNAVAILABLE, Outage
from .outgoing import ChatRef, Command, HandMessage, JoinLink, Notice, Outgoing, Toast, UserRef
from .play import Match
from .settings import Settings, parse_duration
from .store import Record, Store
from .table import Refused, Seat, Table
from .tablecount import TableCounts

__all__ = ["Service", "join_payload"]

log = logging.getLogger(__name__)

ATTEMPTS = 10
"""How often a change is retried after losing a compare-and-set race."""
RECENT = 1024
"""How many tables a service remembers as it last saved them (see :class:`_Recent`)."""
_PRIVATE_TABLES = 20
"""How many of a user's tables a move typed in the private chat looks at for the one running table."""
_PAYLOAD = re.compile(r"join-([0-9A-Za-z]{1,16})")
_HAND_VERBS = frozenset({"act", "hand"})
"""Buttons of a player's own hand: pressed in the table's chat or in the presser's private chat."""
_REJECTED = {engine.Code.DEAL_OVER: "deal_over", engine.Code.WRONG_PHASE: "wrong_phase",
             engine.Code.NOT_YOUR_TURN: "not_your_turn"}


def join_payload(table_id: str) -> str:
    """The deep-link payload that opens the private chat and joins ``table_id`` (<= 64 of ``A-Za-z0-9_-``)."""
    return f"join-{table_id}"


@dataclass
class _Ctx:
    """One attempt at a change: the loaded table and what the command adds to the answer."""

    cmd: Command | None
    table: Table
    match: Match
    version: int
    now: float
    out: list[Outgoing] = field(default_factory=list)
    lead: list[Outgoing] = field(default_factory=list)
    """Notices of what made the change (an automatic move, a player gone): they come before the
    table and before the result of a deal they lead to."""
    hands: set[int] = field(default_factory=set)
    quiet: bool = False
    """Nothing to save: answer with ``out`` (and the hands in ``hands``) only."""
    show_table: bool = True
    repost: bool = False

    @property
    def user(self) -> UserRef:
        """Who sent the command."""
        return self.cmd.user

    def seat(self) -> int:
        """The presser's seat, or a refusal."""
        seat = self.table.seat_of(self.user.key)
        if seat is None:
            raise Refused("not_seated")
        return seat


class _Recent:
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


def _seconds(value) -> int | None:
    return None if value is None else int(value.total_seconds())


_SAVED: ContextVar[bool] = ContextVar("stammtisch_saved", default=False)
"""Whether the command this task is handling saved a table: what its update marker records."""


def _update_key(cmd: Command | None) -> str:
    """The key that marks the command's platform update as handled (``""`` if it names none)."""
    if cmd is None or not cmd.update_id:
        return ""
    return f"{cmd.chat.platform}:{cmd.bot}:{cmd.update_id}"


def _log_saved(table: Table, version: int, cmd: Command | None, was: str) -> None:
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


def _rejection(rej: engine.Rejected, action: engine.Action, to_act: str) -> Refused:
    """The refusal of an engine action the engine rejected; ``to_act`` names who is to act."""
    if rej.code == engine.Code.WRONG_PHASE and action.kind == PLAY:  # the hand shows its cards before the play
        return Refused("play_not_yet")
    if rej.code in _REJECTED:
        return Refused(_REJECTED[rej.code], name=to_act)
    if action.meld and rej.hint != "not_in_hand":  # the hand shows its melds all the time
        return Refused("hint.meld_lead")
    return Refused(hint_key(rej.hint))


class Service:
    """Runs tables for any adapter.

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
        self._recent = _Recent()
        self._outage = Outage(log)

    join_payload = staticmethod(join_payload)

    @staticmethod
    def games() -> list[str]:
        """The ids of the games a table can be opened for."""
        return engine.game_ids()

    async def open_game(self, chat: ChatRef) -> str | None:
        """The game of the chat's open table, or ``None`` if none is open."""
        table_id = await self.store.table_for_chat(chat.key)
        loaded = await self.store.load(table_id) if table_id else None
        return Table.load(loaded[1]).game if loaded else None

    # ------------------------------------------------------------------ entry points
    async def handle(self, cmd: Command) -> list[Outgoing]:
        """Carry out one command (typed or a button token) and return what to show.

        A platform update is handled once: a redelivered one is answered with nothing. It is marked
        after it was handled, and a save it makes marks it in the same script, so a crash at any
        point neither drops it nor applies it twice. Redis down or hung: the answer is a polite
        "try again" (the outage is logged once), and nothing was changed by this command.
        """
        update = _update_key(cmd)
        try:
            if update and await self.store.seen(update):
                return []
            _SAVED.set(False)
            out = await self._handle(cmd)
            if update:
                await self.store.mark_seen(update, saved=_SAVED.get())
        except UNAVAILABLE as exc:
            self._outage.failed(exc)
            lang = cmd.lang if supported(cmd.lang) else self.settings.lang
            return [Toast(cmd.user, cmd.chat, t(lang, "technical_problem"))]
        self._outage.worked()
        return out

    async def _handle(self, cmd: Command) -> list[Outgoing]:
        try:
            if cmd.token:
                return await self._press(cmd)
            return await self._typed(cmd)
        except Refused as r:
            metrics.refused(None, cmd.chat.platform, r.key)
            lang = await self._refusal_lang(cmd)
            return [Toast(cmd.user, cmd.chat, t(lang, r.key, **r.params))]
        except UNAVAILABLE:
            raise  # answered by handle, logged once per outage
        except Exception as exc:  # noqa: BLE001  (refused politely, logged once; a failed change saves nothing)
            # what was typed or pressed stays out of the log: it may name a card of the sender's hand
            log.exception("a %s in %s by %s was refused after an unexpected error",
                          "button" if cmd.token else "command", cmd.chat.key, cmd.user.key)
            # input no parser above foresaw is not understood; anything else is our failure
            key = "not_understood" if isinstance(exc, (ValueError, OverflowError, RecursionError)) else "failed"
            lang = await self._toast_lang(cmd)
            return [Toast(cmd.user, cmd.chat, t(lang, key))]

    async def tick(self, now: float | None = None, table: str | None = None) -> list[Outgoing]:
        """Fire the due turn timers this process wins: reminders, automatic moves, computers going on.

        A timer is leased, not taken (:meth:`Store.claim`): if this process dies before the save
        that carries it out, it comes due again. One that has nothing (more) to do is dropped.
        ``table`` fires only that table's timers (the console, which has no tick loop, after each command).
        """
        now = self.clock() if now is None else now
        out: list[Outgoing] = []
        try:
            for table_id, version, kind in await self.store.due(now):
                if table is not None and table_id != table:
                    continue
                if await self._quiet(table_id, version, kind, now):
                    continue
                if not await self.store.claim(table_id, version, kind, now):
                    continue
                try:
                    if kind == "remind":
                        out += await self._remind(table_id, version, now)
                    elif kind == "sync":
                        await self._resync(table_id, version, now)
                    elif kind == "cpu":
                        out += await self._change(table_id, None, lambda ctx, v=version: self._go_on(ctx, v))
                    else:
                        out += await self._change(table_id, None, lambda ctx, v=version: self._autoplay(ctx, v))
                except Refused:  # the table is gone
                    pass
                except UNAVAILABLE:
                    raise
                except Exception:  # noqa: BLE001  (one table's failure must not hide the others' moves)
                    log.exception("timer %s of table %s at version %s failed", kind, table_id, version)
                    continue
                await self.store.done(table_id, version, kind)  # a no-op if its save dropped it
        except UNAVAILABLE as exc:
            self._outage.failed(exc)
            return out
        self._outage.worked()
        return out

    async def _quiet(self, table_id: str, version: int, kind: str, now: float) -> bool:
        """Whether a person's timer (reminder, automatic move) falls in the chat's quiet hours; then it
        is moved to their end. The computers' and the store's own timers always run."""
        if kind not in ("remind", "auto"):
            return False
        loaded = await self.store.load(table_id)
        try:
            chat_key = Table.load(loaded[1]).chat.key if loaded else None
        except ValueError:  # a broken record: its timer fails where the others' failures are logged
            return False
        end = await pace.chat_quiet_end(self.store, chat_key, now, self.settings) if chat_key else None
        if end is None:
            return False
        await self.store.schedule(table_id, version, kind, end)
        return True

    async def migrate(self, old: ChatRef, new_chat_id: str) -> list[Outgoing]:
        """A group got a new chat id (Telegram's upgrade to a supergroup): its table and language move along.

        Not a typed command: only an adapter that heard it from the platform calls this. Idempotent.
        """
        new = replace(old, chat_id=new_chat_id)
        lang = await self.store.get_chat_setting(old.key, "lang")
        if lang is not None:
            await self.store.set_chat_setting(new.key, "lang", lang)
        table_id = await self.store.table_for_chat(old.key)
        if table_id is None:
            return []

        def move(ctx: _Ctx) -> None:
            ctx.table.chat = replace(ctx.table.chat, chat_id=new_chat_id)
            ctx.repost = True

        mover = UserRef(old.platform, "migration")
        out = await self._change(table_id, Command(new, mover, verb="migrate", args=(new_chat_id,)), move)
        await self.store.release_chat(old.key, table_id)
        return out

    # ------------------------------------------------------------------ the change cycle
    async def _change(self, table_id: str, cmd: Command | None, fn: Callable[[_Ctx], None]) -> list[Outgoing]:
        update = _update_key(cmd)
        cached, fresh = self._recent.get(table_id), False
        started = time.perf_counter()
        for _ in range(ATTEMPTS):
            if cached is None:
                loaded = await self.store.fetch(table_id)
                if loaded is None:
                    raise Refused("unknown_table")
                cached, fresh = self._recent.record(table_id, loaded), True
            (version, data, rev), state = cached
            table = Table.load(data)
            now = self.clock()
            match = Match(table, self.rng, now, state)
            before = {i: render.hand_signature(match.state, i, table.status) for i in table.humans()}
            ctx = _Ctx(cmd, table, match, version, now)
            was = table.status
            turn_before = match.to_act()
            reclaimed = self._reclaim(ctx)
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
                        _SAVED.set(True)
                        return []  # a redelivered update whose save landed before a crash
                    return self._refusal(ctx, r)
                cached = None
                continue
            if ctx.quiet and not reclaimed:
                if fresh:
                    return self._answer(ctx, version, set())
                cached = None
                continue
            match.save()
            self._seen(ctx)
            changed = self._hands_changed(ctx, before, version + 1)
            status = "open" if table.open else "finished"
            entry = {"v": version, "by": cmd.user.key if cmd else "timer", "cmd": self._what(cmd), "moves": match.log}
            data = table.dump()
            self._recent.drop(table_id)  # until the save is known to have landed
            saved = await self.store.save(table_id, version, data, log=[json.dumps(entry, separators=(",", ":"))],
                                          status=status, user_keys=table.user_keys(), chat_key=table.chat.key,
                                          timer=self._timer(table, match, now), rev=rev, update=update)
            if saved:
                _SAVED.set(True)
                self._recent.put(table_id, Record(version + 1, data, saved.rev), match.state)
                if self.counts:
                    await self.counts.note(table_id, table.status, now)
                answer = self._answer(ctx, version + 1, changed)
                metrics.moved(table.game, table.chat.platform, time.perf_counter() - started)
                _log_saved(table, version + 1, cmd, was)
                idle = notify.idle_turn(table, turn_before, match.to_act(), bool(match.moves or match.dealt), now)
                if idle is not None and await notify.wants_every_turn(self.store, table.chat, table.user(idle)):
                    answer = self._notify_hand(answer, ctx, idle, version + 1)
                return answer
            if saved.duplicate:
                _SAVED.set(True)
                return []
            if saved.current is None:
                raise Refused("unknown_table")
            cached, fresh = (saved.current, None), True
        raise Refused("busy")

    @staticmethod
    def _seen(ctx: _Ctx) -> None:
        """Note when the person who sent the command last acted here (only seated people are kept)."""
        table = ctx.table
        if ctx.cmd is not None and table.seat_of(ctx.user.key) is not None:
            table.seen[ctx.user.key] = ctx.now
        table.seen = {k: v for k, v in table.seen.items() if table.seat_of(k) is not None}

    @staticmethod
    def _what(cmd: Command | None) -> str:
        if cmd is None:
            return "timer"
        return cmd.token or " ".join((cmd.verb, *cmd.args))

    @staticmethod
    def _reclaim(ctx: _Ctx) -> bool:
        """A player whose turns the timer played takes his seat back by acting at the table."""
        if ctx.cmd is None:
            return False
        seat = ctx.table.seat_of(ctx.user.key)
        if seat is None or not ctx.table.seats[seat].auto:
            return False
        ctx.table.seats[seat].auto = False
        return True

    def _refusal(self, ctx: _Ctx, r: Refused) -> list[Outgoing]:
        """A toast, and with ``r.fresh`` the message the stale button came from as it is now.

        That message goes alone with the toast: the versions its buttons carry tell the adapter
        whether the presser's copy is out of date (an edit that would change nothing is not made).
        """
        table = ctx.table
        metrics.refused(table.game, table.chat.platform, r.key)
        out: list[Outgoing] = [Toast(ctx.user, ctx.cmd.chat, t(table.lang, r.key, **r.params))]
        seat = table.seat_of(ctx.user.key)
        if r.fresh == "table":
            out.append(render.table_message(table, ctx.match.state, ctx.version, ctx.now))
        elif r.fresh == "hand" and seat is not None and ctx.match.state is not None:
            out.append(render.hand_message(table, ctx.match.state, seat, ctx.version))
        return out

    @staticmethod
    def _hands_changed(ctx: _Ctx, before: dict[int, tuple], version: int) -> set[int]:
        """The people whose hand message changes with the save of ``version`` (noted in ``Table.hand_at``)."""
        table, state = ctx.table, ctx.match.state
        if state is None or table.status == "lobby":
            return set()
        changed = {seat for seat in table.humans()
                   if before.get(seat) != render.hand_signature(state, seat, table.status)}
        for seat in changed:
            table.hand_changed(seat, version)
        return changed

    @staticmethod
    def _notify_hand(answer: list[Outgoing], ctx: _Ctx, seat: int, version: int) -> list[Outgoing]:
        """``answer`` with the hand of ``seat``, whose turn it is after a while away, posted anew to notify him."""
        user = ctx.table.user(seat)
        hand = render.hand_message(ctx.table, ctx.match.state, seat, version, turn=True)
        return [o for o in answer if not (isinstance(o, HandMessage) and o.user.key == user.key)] + \
            [replace(hand, notify=True)]

    def _answer(self, ctx: _Ctx, version: int, changed: set[int]) -> list[Outgoing]:
        """What led to the change, the table message (unless the command keeps it), the hands that changed
        or were asked for, the results, what the command adds."""
        table, state = ctx.table, ctx.match.state
        out: list[Outgoing] = list(ctx.lead)
        news = ctx.match.news
        if ctx.show_table:
            message = render.table_message(table, state, version, ctx.now, news)
            out.append(replace(message, repost=True) if ctx.repost else message)
        if state is not None and table.status != "lobby":
            for seat in table.humans():
                if seat in changed or seat in ctx.hands:
                    out.append(render.hand_message(table, state, seat, version))
        out += [Notice(table.chat, render.result_text(table, ev["record"], ev["no"]), table_id=table.id, result=True)
                for ev in news if ev["type"] == "deal_over"]
        return out + ctx.out

    @staticmethod
    def _timer(table: Table, match: Match, now: float) -> tuple[str, float] | None:
        """The first turn timer of the new version: the reminder, or the automatic move if it comes first.

        A computer to act (its moves stopped after a deal, see ``players.play_computers``) goes on
        at the next tick. The store drops a closed table's timers. A table in a private chat has no
        reminder: its only person plays against the computer.
        """
        seat = match.to_act()
        if seat is not None and table.seats[seat].computer:
            return "cpu", now
        if seat is None or table.chat.private:
            return None
        if table.remind and not (table.auto and table.auto <= table.remind):
            return "remind", max(now, table.since + table.remind)
        if table.auto:
            return "auto", max(now, table.since + table.auto)
        return None

    # ------------------------------------------------------------------ languages
    async def _chat_lang(self, cmd: Command) -> str:
        lang = await self.store.get_chat_setting(cmd.chat.key, "lang")
        if supported(lang):
            return lang
        if cmd.chat.private and supported(cmd.lang):
            return cmd.lang
        return self.settings.lang

    async def _toast_lang(self, cmd: Command) -> str:
        """The language of an answer only the sender sees: the chat's, else his client's, else the default."""
        lang = await self.store.get_chat_setting(cmd.chat.key, "lang")
        if supported(lang):
            return lang
        return cmd.lang if supported(cmd.lang) else self.settings.lang

    async def _refusal_lang(self, cmd: Command) -> str:
        """The language of a refusal: a pressed button's table speaks its own, else as :meth:`_toast_lang`."""
        tok = tokens.parse(cmd.token) if cmd.token else None
        loaded = await self.store.load(tok.table) if tok is not None else None
        return Table.load(loaded[1]).lang if loaded else await self._toast_lang(cmd)

    # ------------------------------------------------------------------ typed commands
    async def _typed(self, cmd: Command) -> list[Outgoing]:
        if cmd.chat.private:
            await self.store.set_chat_setting(cmd.user.key, "dm", "1")
        verb = cmd.verb.strip()
        if cmd.chat.private and verb.lower().lstrip("/") == "start" and cmd.args:
            m = _PAYLOAD.fullmatch(cmd.args[0])
            if m:
                return await self._change(m.group(1), cmd, self._join_from_link)
        parsed = textcmd.parse(verb, cmd.args) if verb else None
        if parsed is None:
            raise Refused("unknown_command", verb=verb)
        lang = await self._chat_lang(cmd)
        if parsed.kind == "table":
            if parsed.name == "help":
                return [self._help(cmd, lang)]
            if parsed.name == "language":
                return await self._language(cmd, parsed.args)
            if parsed.name in ("notify", "quiet", "timezone"):
                return [await self._chat_pref(cmd, parsed, lang)]
            if parsed.name == "new":
                return await self._new(cmd, lang, parsed.args)
            if parsed.name == "rules" and parsed.args:
                game = textcmd.game_id(parsed.args[0])
                if game is None:
                    raise Refused("unknown_game", word=parsed.args[0], games=textcmd.games_text())
                return [Notice(cmd.chat, self._rules(game, {}, lang))]
        table_id = await self.store.table_for_chat(cmd.chat.key)
        if table_id is None and parsed.kind == "table" and parsed.name == "rematch":
            return await self._typed_rematch(cmd)
        if table_id is None and parsed.kind == "table" and parsed.name == "hand" and cmd.chat.private:
            return await self._all_hands(cmd)
        if table_id is None and parsed.kind == "action" and cmd.chat.private:
            table_id = await self._only_running_table(cmd)
        if table_id is None:
            if parsed.kind == "table" and parsed.name in ("start", "rules", "table", "hand"):
                return [self._help(cmd, lang)]
            raise Refused("no_table")
        if parsed.kind == "action":
            return await self._change(table_id, cmd, lambda ctx: self._typed_action(ctx, parsed))
        reachable = parsed.name != "join" or await self._reachable(cmd)
        return await self._change(table_id, cmd, lambda ctx: self._table_verb(ctx, parsed, reachable))

    async def _only_running_table(self, cmd: Command) -> str:
        """A move typed in the private chat goes to the user's one running table; with several he is asked which."""
        running = []
        for table_id in (await self.store.tables_for_user(cmd.user.key))[:_PRIVATE_TABLES]:
            loaded = await self.store.load(table_id)
            if loaded is not None and Table.load(loaded[1]).status == "playing":
                running.append(Table.load(loaded[1]))
        if not running:
            raise Refused("no_hands")
        if len(running) > 1:
            raise Refused("which_table", tables=", ".join(
                f"{game_name(tb.game, tb.lang)} ({tb.chat.title or tb.chat.chat_id})" for tb in running))
        return running[0].id

    async def _typed_rematch(self, cmd: Command) -> list[Outgoing]:
        """``revanche`` typed after the match: the rematch button of the chat's last table."""
        last = await self.store.get_chat_setting(cmd.chat.key, "last")
        loaded = await self.store.load(last) if last else None
        if loaded is None:
            raise Refused("no_table")
        return await self._again(cmd, tokens.Token(last, loaded[0], "rematch"))

    async def _all_hands(self, cmd: Command) -> list[Outgoing]:
        """``hand`` in the private chat: the user's hand at every table he sits at."""
        out: list[Outgoing] = []
        for table_id in await self.store.tables_for_user(cmd.user.key):
            with contextlib.suppress(Refused):
                out += await self._change(table_id, cmd, self._hand)
        if not out:
            raise Refused("no_hands")
        return out

    def _help(self, cmd: Command, lang: str) -> Notice:
        return Notice(cmd.chat, t(lang, "help", games=textcmd.games_text()))

    @staticmethod
    def _rules(game: str, options: dict, lang: str, n: int = 0) -> str:
        opts = engine.parse_options(game, options).model_dump()
        target = opts.get("target") or (target_of(engine.parse_options(game, options), n) if n else
                                        t(lang, "rs.default_target"))
        return t(lang, f"rules.{game}", target=target)

    async def _reachable(self, cmd: Command) -> bool:
        if cmd.chat.private or cmd.reachable is not None:
            return cmd.chat.private or cmd.reachable
        return await self.store.get_chat_setting(cmd.user.key, "dm") is not None

    async def _chat_pref(self, cmd: Command, parsed: textcmd.Parsed, lang: str) -> Notice:
        """``benachrichtigung``, ``ruhezeit`` and ``zeitzone``: set (or with no words, show) the chat's choice."""
        if parsed.name == "notify":
            mode = await notify.choose(self.store, cmd.chat, cmd.user, parsed.args)
            return Notice(cmd.chat, t(lang, f"notify.{mode}", name=cmd.user.name or cmd.user.user_id))
        if parsed.name == "timezone":
            zone = await pace.set_zone(self.store, cmd.chat, parsed.args, self.settings)
            return Notice(cmd.chat, t(lang, "tz_set", zone=zone))
        quiet, zone = await pace.set_quiet(self.store, cmd.chat, parsed.args, self.settings)
        if quiet is None:
            return Notice(cmd.chat, t(lang, "quiet_off"))
        start, end = pace.hhmm(quiet).split("-")
        return Notice(cmd.chat, t(lang, "quiet_set", start=start, end=end, zone=zone))

    async def _language(self, cmd: Command, args: tuple[str, ...]) -> list[Outgoing]:
        lang = args[0].lower() if args else ""
        if lang not in LANGS:
            raise Refused("lang_unknown")
        await self.store.set_chat_setting(cmd.chat.key, "lang", lang)
        notice = Notice(cmd.chat, t(lang, "lang_set"))
        table_id = await self.store.table_for_chat(cmd.chat.key)
        if table_id is None:
            return [notice]

        def switch(ctx: _Ctx) -> None:
            ctx.table.lang = lang
            ctx.hands.update(ctx.table.humans() if ctx.table.status == "playing" else ())
            ctx.out.append(notice)
        return await self._change(table_id, cmd, switch)

    async def _new(self, cmd: Command, lang: str, args: tuple[str, ...], seats: list[Seat] | None = None,
                   game: str | None = None, options: dict | None = None) -> list[Outgoing]:
        """Open a table in the command's chat; a private chat starts a match against the computer at once."""
        players = len(seats) if seats else None
        if game is None:
            game, players, options = textcmd.new_args(args)
        cls = engine.game_class(game)
        lo, hi = cls.PLAYERS
        n = players or cls.DEFAULT_PLAYERS
        if not lo <= n <= hi:
            raise Refused("bad_players" if lo < hi else "bad_players_exact", game=game_name(game, lang), lo=lo, hi=hi,
                          count=t(lang, f"count.{lo}") if lo == hi else lo)
        opts = typed_options.parse(game, options)
        now = self.clock()
        table = Table(id=self.store.new_id(), chat=cmd.chat, game=game, n=n,
                      options=opts.model_dump(exclude_defaults=True), lang=lang, opener=cmd.user.key,
                      seats=seats or [Seat() for _ in range(n)], remind=_seconds(self.settings.reminder_after),
                      auto=_seconds(self.settings.autoplay_after), created=now, since=now)
        if seats is None:
            table.join(cmd.user)
        update = _update_key(cmd)
        if not await self.store.create(table.id, cmd.chat.key, table.dump(), table.user_keys(), update=update):
            other = await self.store.table_for_chat(cmd.chat.key) if update else None
            if other and await self.store.applied(other, update):
                _SAVED.set(True)
                return []  # a redelivered update whose table was created before a crash
            raise Refused("table_exists")
        _SAVED.set(True)
        if self.counts:
            await self.counts.note(table.id, table.status, now)
        _log_saved(table, 1, cmd, "")
        await self.store.set_chat_setting(cmd.chat.key, "last", table.id)
        if cmd.chat.private or seats is not None:
            return await self._change(table.id, replace(cmd, update_id=""), self._start)  # create marked it
        out: list[Outgoing] = [render.table_message(table, None, 1, now)]
        if not await self._reachable(cmd):
            out.append(self._join_link(table, cmd.user))
        return out

    def _join_link(self, table: Table, user: UserRef) -> JoinLink:
        return JoinLink(user, table.chat, table.id, join_payload(table.id), t(table.lang, "join_link"))

    # ------------------------------------------------------------------ table commands
    def _table_verb(self, ctx: _Ctx, parsed: textcmd.Parsed, reachable: bool) -> None:
        name, args, table = parsed.name, parsed.args, ctx.table
        if name == "join":
            self._join(ctx, reachable)
        elif name == "leave":
            self._leave(ctx)
        elif name == "seat":
            table.move(ctx.user, textcmd.seat_number(args, table.n))
        elif name == "computer":
            if args and args[0].lower() in ("weg", "remove", "raus", "-", "rm"):
                table.remove_bot(textcmd.seat_number(args[1:], table.n) if args[1:] else None)
            else:
                table.add_bot(level_from(args[0]) if args else None)
        elif name == "start":
            self._start(ctx)
        elif name == "hand":
            self._hand(ctx)
        elif name == "table":
            ctx.quiet = True
            ctx.repost = True
        elif name == "abort":
            self._abort(ctx)
        elif name == "rematch":
            raise Refused("not_finished")
        elif name == "rules":
            self._rules_notice(ctx)
        elif name == "sheet":
            ctx.quiet = True
            ctx.show_table = False
            ctx.out.append(Notice(table.chat, story.sheet_text(table), table_id=table.id))
        elif name == "option":
            self._option(ctx, args)
        elif name == "pace":
            self._pace(ctx, " ".join(args))
        else:  # "new", "help", "language" were handled before loading a table
            raise Refused("unknown_command", verb=name)

    def _join(self, ctx: _Ctx, reachable: bool) -> None:
        """Seat the user and offer the link to the private chat if the bot may not write there yet.

        When the adapter asked the platform and the bot cannot write to him, he only gets the link,
        which seats him (like the button): nobody sits at a table whose cards cannot reach him.
        """
        if ctx.cmd.reachable is False:
            ctx.quiet = True
            ctx.show_table = False
            if ctx.table.seat_of(ctx.user.key) is None:
                ctx.table.model_copy(deep=True).join(ctx.user)  # a full or running table is refused first
            ctx.out.append(self._join_link(ctx.table, ctx.user))
            return
        ctx.table.join(ctx.user)
        if not reachable:
            ctx.out.append(self._join_link(ctx.table, ctx.user))

    def _join_from_link(self, ctx: _Ctx) -> None:
        table = ctx.table
        seat = table.seat_of(ctx.user.key)
        if seat is None:
            table.join(ctx.user)
        else:
            ctx.quiet = True
            ctx.show_table = False
            if table.status == "playing":
                ctx.hands.add(seat)
        ctx.out.append(Toast(ctx.user, ctx.cmd.chat,
                             t(table.lang, "joined_from_link", chat=table.chat.title or table.chat.chat_id)))

    def _leave(self, ctx: _Ctx) -> None:
        table = ctx.table
        name = table.seats[ctx.seat()].name
        table.leave(ctx.user.key)
        if table.status == "playing" and not table.humans():
            table.status = "aborted"
            ctx.out.append(Notice(table.chat, t(table.lang, "closed_no_humans", name=name), table_id=table.id))
        elif table.status == "playing":
            ctx.lead.append(Notice(table.chat, t(table.lang, "left_playing", name=name), table_id=table.id))
            players.play_computers(ctx.match)

    def _start(self, ctx: _Ctx) -> None:
        table = ctx.table
        if table.status != "lobby":
            raise Refused("game_running" if table.status == "playing" else "table_closed")
        ctx.seat()  # only a person at the table starts it, the opener too: a table of computers never starts
        ctx.match.start()
        players.play_computers(ctx.match)

    def _hand(self, ctx: _Ctx) -> None:
        seat = ctx.seat()
        if ctx.table.status != "playing":
            raise Refused("not_started")
        ctx.quiet = True
        ctx.show_table = False
        ctx.hands.add(seat)

    def _abort(self, ctx: _Ctx) -> None:
        table = ctx.table
        if table.vote_abort(ctx.user.key):
            ctx.out.append(Notice(table.chat, t(table.lang, "aborted"), table_id=table.id))
            return
        need = len(table.humans()) // 2 + 1
        votes = len([v for v in table.votes if table.seat_of(v) is not None])
        name = table.seats[ctx.seat()].name
        ctx.out.append(Notice(table.chat, t(table.lang, "abort_vote", name=name, votes=votes, need=need),
                              table_id=table.id))

    def _rules_notice(self, ctx: _Ctx) -> None:
        table = ctx.table
        ctx.quiet = True
        ctx.show_table = False
        ctx.out.append(Notice(table.chat, self._rules(table.game, table.options, table.lang, table.n), table_id=table.id))

    def _option(self, ctx: _Ctx, args: tuple[str, ...]) -> None:
        table = ctx.table
        names = [*engine.option_specs(table.game), *typed_options.DURATIONS, LEVEL_OPTION, "pace"]
        if len(args) != 2:
            raise Refused("option_unknown", names=", ".join(names))
        if args[0] not in names:
            raise Refused("unknown_option", name=args[0], names=", ".join(names))
        self._opener_only(ctx)
        if args[0] == "pace":
            self._pace(ctx, args[1])
            return
        name, value = args
        if name == LEVEL_OPTION:
            table.set_level(level_from(value))
            return
        if name in typed_options.DURATIONS:
            try:
                seconds = _seconds(parse_duration(value))
            except ValueError:
                raise Refused("bad_option_value", name=name, allowed=Text("allowed.duration")) from None
            setattr(table, "remind" if name == "reminder_after" else "auto", seconds)
            return
        try:
            value = typed_options.parse_text(table.game, name, value)
        except engine.OptionError as exc:
            raise typed_options.refusal(exc) from None
        self._set_option(table, name, value)

    def _pace(self, ctx: _Ctx, word: str | None) -> None:
        """The opener sets the table's pace (``word``; ``None``: the next preset, for the lobby button)."""
        table = ctx.table
        self._opener_only(ctx)
        preset = pace.next_pace(table) if word is None else pace.pace_of(word)
        if preset is None:
            raise Refused("pace_unknown")
        pace.set_pace(table, preset, _seconds(self.settings.reminder_after), _seconds(self.settings.autoplay_after))

    @staticmethod
    def _opener_only(ctx: _Ctx) -> None:
        """Refuse anyone but the opener, who must still sit at the table."""
        ctx.seat()
        table = ctx.table
        if not table.is_opener(ctx.user.key):
            seat = table.seat_of(table.opener)
            raise Refused("only_opener", name=table.seats[seat].name if seat is not None
                          else table.opener.partition(":")[2])

    def _set_option(self, table: Table, name: str, value: Any) -> None:
        if table.status != "lobby":
            raise Refused("game_running")
        opts = typed_options.parse(table.game, {**table.options, name: value})
        table.options = opts.model_dump(exclude_defaults=True)

    # ------------------------------------------------------------------ engine actions
    def _act(self, ctx: _Ctx, seat: int, action: engine.Action) -> None:
        try:
            ctx.match.act(seat, action, ctx.user.key)
        except engine.Rejected as rej:
            seat = ctx.match.to_act()
            raise _rejection(rej, action, render.seat_name(ctx.table, seat) if seat is not None else "–") from None
        players.play_computers(ctx.match)

    def _typed_action(self, ctx: _Ctx, parsed: textcmd.Parsed) -> None:
        seat = ctx.seat()
        match = ctx.match
        if not match.running:
            raise Refused("not_started" if ctx.table.status == "lobby" else "deal_over")
        state = match.state
        legal = engine.legal_actions(state) if state.to_act == seat else state.offers_for(seat)
        try:
            self._act(ctx, seat, textcmd.action_for(parsed.name, parsed.args, legal))
        except Refused as r:
            # a refusal explains the hand ("you must follow suit", "you don't hold it"): not in a group
            if r.key.startswith("hint.") and not ctx.cmd.chat.private:
                raise Refused("use_hand_buttons") from None
            raise

    # ------------------------------------------------------------------ buttons
    async def _press(self, cmd: Command) -> list[Outgoing]:
        tok = tokens.parse(cmd.token)
        if tok is None:
            raise Refused("forged")
        if tok.verb in ("rematch", "new"):
            return await self._again(cmd, tok)
        reachable = await self._reachable(cmd) if tok.verb == "join" else True
        return await self._change(tok.table, cmd, lambda ctx: self._pressed(ctx, tok, reachable))

    @staticmethod
    def _check_chat(ctx: _Ctx, verb: str) -> None:
        """A button counts only where its table is: the table's chat, or for a hand the presser's private chat."""
        chat, home = ctx.cmd.chat, ctx.table.chat
        if chat.key != home.key and not (verb in _HAND_VERBS and chat.private and chat.platform == home.platform):
            raise Refused("forged")

    def _pressed(self, ctx: _Ctx, tok: tokens.Token, reachable: bool) -> None:
        table, verb = ctx.table, tok.verb
        self._check_chat(ctx, verb)
        if verb == "act":
            seat, action = self._pressed_action(ctx, tok)
            self._act(ctx, seat, action)
        elif verb == "hand":
            self._hand(ctx)
        elif verb == "join":
            self._join(ctx, reachable)
        elif verb == "leave":
            self._leave(ctx)
        elif verb == "bot":
            if tok.arg and tok.arg not in LEVELS:
                raise Refused("forged")
            table.add_bot(tok.arg or None)
        elif verb == "botx":
            table.remove_bot(None)
        elif verb == "start":
            self._start(ctx)
        elif verb == "rules":
            self._rules_notice(ctx)
        elif verb in ("opts", "opt"):
            self._option_button(ctx, verb, tok.arg)
        elif verb == "pace":
            self._pace(ctx, None)
        else:
            raise Refused("forged")

    @staticmethod
    def _pressed_action(ctx: _Ctx, tok: tokens.Token) -> tuple[int, engine.Action]:
        """The presser's seat and the action of his ``act`` button, if it still shows what he holds.

        A card or decision of his hand counts from the version at which the hand last changed on
        (a second tap on the hand his card left is refused); an offer of the table message only from
        the current table, whose words ("double", "double back") change with every call.
        """
        if tok.version > ctx.version:
            raise Refused("forged")
        action = actarg.decode(tok.arg)
        if action is None:
            raise Refused("forged")
        seat = ctx.seat()
        offer = action.kind in render.OFFER_KINDS
        if tok.version < (ctx.version if offer else ctx.table.hand_since(seat)):
            raise Refused("already_played", fresh="table" if offer else "hand")
        return seat, action

    def _option_button(self, ctx: _Ctx, verb: str, arg: str) -> None:
        table = ctx.table
        if table.status != "lobby":
            raise Refused("game_running")
        self._opener_only(ctx)
        if verb == "opts":
            table.show_opts = arg == "1"
            return
        fields = render.option_fields(table.game)
        if not (arg.isascii() and arg.isdecimal()) or int(arg) >= len(fields):
            raise Refused("forged")
        name, values = fields[int(arg)]
        current = getattr(engine.parse_options(table.game, table.options), name)
        self._set_option(table, name, values[(values.index(current) + 1) % len(values)])

    async def _again(self, cmd: Command, tok: tokens.Token) -> list[Outgoing]:
        """Rematch (same seats, started at once) or a new lobby for the same game, from a closed table."""
        busy = await self.store.table_for_chat(cmd.chat.key) is not None
        claimed: list[Table] = []

        def claim(ctx: _Ctx) -> None:
            claimed.clear()  # only the attempt that counts may claim
            table = ctx.table
            self._check_chat(ctx, tok.verb)
            if table.open:
                raise Refused("not_finished")
            if tok.verb == "rematch":
                if table.status != "finished":
                    raise Refused("not_finished")
                if table.rematched or tok.version != ctx.version:
                    raise Refused("already_played")
                if busy:  # refused before the rematch is claimed, so it is not used up for nothing
                    raise Refused("table_exists")
                ctx.seat()
                table.rematched = True
            else:
                ctx.quiet = True
            claimed.append(table)
        update = _update_key(cmd)
        loaded = await self.store.load(tok.table) if update and await self.store.applied(tok.table, update) else None
        if loaded is not None:  # a redelivered press whose claim landed before a crash: open the table now
            claimed.append(Table.load(loaded[1]))
        else:
            refused = await self._change(tok.table, cmd, claim)
            if not claimed:
                return refused
        old = claimed[-1]
        seats = ([Seat(user=s.user, name=s.name, bot=s.bot, level=s.level) for s in old.seats]
                 if tok.verb == "rematch" else None)
        return await self._new(cmd, old.lang, (), seats=seats, game=old.game, options=old.options)

    # ------------------------------------------------------------------ timers
    async def _resync(self, table_id: str, version: int, now: float) -> None:
        """A save's guard timer came due (Redis Cluster): the indexes and the timer follow the stored table.

        If the table moved past ``version``, the process that saved it may have died before it
        updated them; doing it again is harmless. If it did not, that save never landed.
        """
        loaded = await self.store.fetch(table_id)
        if loaded is None or loaded.version == version:
            return
        table = Table.load(loaded.data)
        timer = self._timer(table, Match(table, self.rng, now, None), now) if table.open else None
        await self.store.reindex(table_id, loaded.version, "open" if table.open else "finished", table.user_keys(),
                                 table.chat.key, timer)

    async def _remind(self, table_id: str, version: int, now: float) -> list[Outgoing]:
        """Remind the player to act if nothing changed; then set the automatic move's timer."""
        loaded = await self.store.load(table_id)
        if loaded is None or loaded[0] != version:
            return []
        table = Table.load(loaded[1])
        seat = table.state.get("to_act") if table.status == "playing" and table.state else None
        if seat is None or table.seats[seat].computer:
            return []
        if table.auto:
            await self.store.schedule(table_id, version, "auto", max(now, table.since + table.auto), replaces="remind")
        user = table.user(seat)
        text = t(table.lang, "reminder", name=user.name, game=game_name(table.game, table.lang))
        silent = await notify.current(self.store, table.chat, user) == notify.OFF
        return [Notice(table.chat, text, () if silent else (user,), table.id)]

    @staticmethod
    def _go_on(ctx: _Ctx, version: int) -> None:
        """The computers go on where they stopped after a deal, if nothing changed since."""
        seat = ctx.match.to_act()
        if version != ctx.version or seat is None or not ctx.table.seats[seat].computer:
            ctx.quiet = True
            ctx.show_table = False
            return
        players.play_computers(ctx.match)

    def _autoplay(self, ctx: _Ctx, version: int) -> None:
        table = ctx.table
        seat = ctx.match.to_act()
        if version != ctx.version or seat is None or table.seats[seat].computer:
            ctx.quiet = True
            ctx.show_table = False
            return
        user = table.user(seat)
        state = ctx.match.state
        action = players.autoplay(ctx.match, seat)
        if action.kind in ("announce", "give", "exchange"):  # the suit or card stays secret
            label = t(table.lang, "act.hidden")
        else:
            label = render.action_label(table.lang, action, table.game, engine.view(state, seat))
        ctx.lead.append(Notice(table.chat, t(table.lang, "autoplayed", name=user.name, action=label), (user,), table.id))
