"""The service's face to the adapters: one command in, its effects out (:meth:`Service.handle`), and the timers.

Every command takes the same way: :meth:`Service.handle` marks the platform update as handled,
sends a button press to :mod:`bot.service.presses` and a typed command to
:mod:`bot.service.typed`; both change tables through :class:`~bot.service.change.Tables`, whose
answers :mod:`bot.service.answer` builds. :meth:`Service.tick` fires the due turn timers
(:mod:`bot.service.timers`). A refusal is a short toast in the player's language; Redis down
is a polite "try again", logged once per outage. A person's typed commands in a group that change no
table are answered there within a budget (:mod:`bot.service.budget`); a hand asked for is not counted.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import engine
from bot.ops import metrics
from bot.ops.settings import Settings
from bot.protocol.outgoing import Before, ChatRef, Command, HandMessage, Outgoing, TableList, Toast, UserRef
from bot.protocol.unavailable import UNAVAILABLE
from bot.service import budget, lobby, mytables, presses, review, timers, typed
from bot.service.tourney import tables as tourney_tables
from bot.service.answer import chosen_lang, refusal_lang, toast_lang
from bot.service.change import BEFORE, SAVED, Tables, update_key
from bot.store.counts import TableCounts
from bot.store.feed import Feed
from bot.store.outage import Outage
from bot.store.outbox import Outbox
from bot.store.tables import SHOW, Store
from bot.store.watchers import SEATED, WatcherCounts, seated_page
from bot.table.record import Table
from bot.table.refused import Refused
from bot.words.i18n import supported, t
from bot.words.webview import web_view

__all__ = ["Service"]

log = logging.getLogger(__package__)


class Service:
    """Runs tables for any adapter; the arguments are those of :class:`~bot.service.change.Tables`.

    With an ``outbox`` (``stammtisch run``), the effects of the timers for a chat platform go through it to the
    processes that run that platform's adapter (:meth:`tick`), as do those an adapter hands to :meth:`show` (its
    presses and commands, the web table's taps).
    """

    def __init__(self, store: Store, settings: Settings, rng=None, clock: Callable[[], float] = time.time,
                 counts: TableCounts | None = None, outbox: Outbox | None = None) -> None:
        self.tables = Tables(store, settings, rng, clock, counts)
        self.outbox = outbox
        if outbox is not None:  # every change's effects for its platforms go through it: each save is guarded
            self.tables.guarded = outbox.platforms
        self.watchers = WatcherCounts(store.redis, store.prefix)
        """The watchers of each table, across processes (:meth:`watched`)."""
        self.seated = WatcherCounts(store.redis, store.prefix, kind=SEATED)
        """The players whose own seat's web page is open, across processes (:meth:`on_web`)."""
        self._outage = Outage(log)

    @property
    def store(self) -> Store:
        """The Redis store the tables live in."""
        return self.tables.store

    @property
    def settings(self) -> Settings:
        """Timer defaults and the default language."""
        return self.tables.settings

    join_payload = staticmethod(lobby.join_payload)

    @staticmethod
    def games() -> list[str]:
        """The ids of the games a table can be opened for."""
        return engine.game_ids()

    async def open_game(self, chat: ChatRef) -> str | None:
        """The game of the chat's open table, or ``None`` if none is open."""
        table_id = await self.store.table_for_chat(chat.key)
        loaded = await self.store.load(table_id) if table_id else None
        return Table.load(loaded[1]).game if loaded else None

    async def needs_admin(self, cmd: Command) -> bool:
        """Whether ``cmd``, typed or a button pressed, is allowed only to a chat admin: an adapter that must ask
        the platform (Telegram's ``getChatMember``) asks then, and passes the answer as :attr:`Command.admin`.
        A button gives the same powers as the command typed."""
        if cmd.token:
            return await presses.needs_admin(self.tables, cmd)
        return await typed.needs_admin(self.tables, cmd)

    async def cannot_reach(self, user: UserRef) -> str | None:
        """Why the platform refused a private message to ``user`` lately (``"blocked"``, ``"cannot_dm"``),
        else ``None``: an adapter sends him nothing privately meanwhile (:mod:`bot.store.reach`).
        Redis down: ``None`` (the platform is asked again)."""
        try:
            return await self.store.reach.refused(user.key)
        except UNAVAILABLE as exc:
            self._outage.failed(exc)
            return None

    async def unreachable(self, user: UserRef, reason: str) -> None:
        """The platform refused a private message to ``user`` for ``reason``: remember it for a while, for
        every process; until he writes to the bot privately (:meth:`handle`)."""
        try:
            await self.store.reach.note(user.key, reason)
        except UNAVAILABLE as exc:
            self._outage.failed(exc)

    async def chat_lang(self, chat: ChatRef) -> str:
        """The language the chat chose with ``sprache``, else the bot's default."""
        return await chosen_lang(self.store, chat) or self.settings.lang

    async def web_view(self, table_id: str, user: UserRef, access: str = "seat") -> dict[str, Any]:
        """What ``user`` sees of the table, as JSON-able data (:func:`bot.words.webview.web_view`).

        ``access`` ``"seat"``: his seat; ``"any"``: his seat, else the public view a watcher sees;
        ``"watch"``: the public view. Never a full state, never another seat's cards.
        ``{"refused": "no_table"}`` when there is no such table, ``{"refused": "not_seated", "lang": ...}``
        when he holds no seat at it and may not watch. An ended table in his own private chat offers
        »Revanche« and »Neuer Tisch«: his taps press them there.
        """
        return (await self.web_views(table_id, [(user, access)]))[0]

    async def web_views(self, table_id: str, asks: list[tuple[UserRef, str]]) -> list[dict[str, Any]]:
        """:meth:`web_view` for each ``(user, access)`` of ``asks``, the table read once and the public view
        made once for all who watch."""
        loaded = await self.store.fetch(table_id)
        if loaded is None:
            return [{"refused": "no_table"} for _ in asks]
        (version, data, _), state = self.tables.recent.record(table_id, loaded)
        table = Table.load(data)
        if state is None and table.state:
            state = engine.from_json(table.state)
        public: dict[str, Any] | None = None
        out = []
        for user, access in asks:
            seat = table.seat_of(user.key) if access != "watch" else None
            if seat is None and access == "seat":
                out.append({"refused": "not_seated", "lang": table.lang})
            elif seat is None:
                public = public or web_view(table, state, version, None, self.tables.clock())
                out.append(public)
            else:
                own = table.chat.private and table.chat.key == ChatRef(user.platform, user.user_id, private=True).key
                out.append(web_view(table, state, version, seat, self.tables.clock(), ends=own))
        return out

    async def tables_of(self, user: UserRef, lang: str, page: int = 0) -> TableList:
        """Page ``page`` of »Meine Tische« of ``user`` (:mod:`bot.service.mytables`), for the web table's page."""
        chat = ChatRef(user.platform, user.user_id, private=True)
        return await mytables.listing(self.tables, user, chat, lang if supported(lang) else self.settings.lang, page)

    async def review_steps(self, table_id: str, user: UserRef, no: int | None = None) -> dict[str, Any]:
        """``user``'s review of deal ``no`` of the table (``None``: its last finished one), trick by trick, for the
        web table (:func:`bot.service.review.steps`): his own decisions and what the table saw, nothing else.
        ``{"refused": <text key>, "lang": ...}`` when there is none for him (Redis down: ``technical_problem``)."""
        try:
            return await review.steps(self.tables, table_id, user.key, no)
        except UNAVAILABLE as exc:
            self._outage.failed(exc)
            return {"refused": "technical_problem"}

    async def next_table(self, table_id: str) -> str | None:
        """The table opened after ``table_id`` in its chat (a rematch, a new table) once it ended, else ``None``."""
        loaded = await self.store.fetch(table_id)
        if loaded is None:
            return None
        table = Table.load(loaded[1])
        if table.open:
            return None
        last = await self.store.get_chat_setting(table.chat.key, "last")
        return last if last and last != table_id and await self.store.fetch(last) is not None else None

    async def watched(self, table_id: str, pages: list[str], gone: list[str] = ()) -> int:
        """Note (or renew) watchers' ``pages`` of a table and drop those ``gone``, counted across processes; how
        many watch it now."""
        return await self.watchers.note(table_id, pages, time.time(), gone)  # the wall clock: pages live in real time

    async def seated_pages(self, table_id: str, pages: list[tuple[str, str]], gone: list[tuple[str, str]] = ()) -> None:
        """Note (or renew) players' own ``pages`` of a table open, each (user key, page name), and drop those
        ``gone``, across processes (:meth:`on_web`)."""
        await self.seated.note(table_id, [seated_page(*p) for p in pages], time.time(), [seated_page(*p) for p in gone])

    async def on_web(self, table_id: str, user: UserRef) -> bool:
        """Whether ``user`` has his seat's web page of the table open (in any process): his private hand in the
        chat needs no edits meanwhile."""
        return await self.seated.holds(table_id, user.key, time.time())

    def feed(self, on_move: Callable[[str, int], None], on_gap: Callable[[], None]) -> Feed:
        """A live feed of every saved table version, from any process (see :mod:`bot.store.feed`); start it."""
        return self.store.feed(on_move, on_gap)

    async def handle(self, cmd: Command) -> list[Outgoing]:
        """Carry out one command (typed or a button token) and return what to show.

        A platform update is handled once: one carried out before (a redelivery, or another process's copy)
        is answered with an empty :class:`~bot.protocol.outgoing.Before` (the platform gets no answer of
        this process). It is marked after it was handled, and a save it makes marks it in the same script,
        so a crash at any point neither drops it nor applies it twice. Redis down or hung: the answer is a polite
        "try again" (the outage is logged once), and nothing was changed by this command.
        """
        update = update_key(cmd)
        try:
            if update and await self.store.seen(update):
                return Before()
            if cmd.chat.private:  # he wrote to the bot privately: it can write to him again
                await self.store.reach.reached(cmd.user.key)
            SAVED.set(False)
            BEFORE.set(False)
            budget.SPENT.set(False)
            out = await self._handle(cmd)
            answered = not (cmd.token or cmd.chat.private or SAVED.get())  # a typed command in a group, no change
            if answered and not budget.SPENT.get() and not all(isinstance(o, HandMessage) for o in out):
                out = await budget.spend(self.store, self.settings, cmd, out)
            if update:
                await self.store.mark_seen(update, saved=SAVED.get())
        except UNAVAILABLE as exc:
            self._outage.failed(exc)
            lang = cmd.lang if supported(cmd.lang) else self.settings.lang
            return [Toast(cmd.user, cmd.chat, t(lang, "technical_problem"))]
        self._outage.worked()
        return Before() if BEFORE.get() else out

    async def _handle(self, cmd: Command) -> list[Outgoing]:
        try:
            if cmd.token:
                return await presses.press(self.tables, cmd)
            return await typed.typed(self.tables, cmd)
        except Refused as r:
            metrics.refused(None, cmd.chat.platform, r.key)
            lang = await refusal_lang(self.store, cmd, self.settings.lang)
            return [Toast(cmd.user, cmd.chat, t(lang, r.key, **r.params))]
        except UNAVAILABLE:
            raise  # answered by handle, logged once per outage
        except Exception as exc:  # noqa: BLE001  (refused politely, logged once; a failed change saves nothing)
            # what was typed or pressed stays out of the log: it may name a card of the sender's hand
            log.exception("a %s in %s by %s was refused after an unexpected error",
                          "button" if cmd.token else "command", cmd.chat.key, cmd.user.key)
            # input no parser above foresaw is not understood; anything else is our failure
            key = "not_understood" if isinstance(exc, (ValueError, OverflowError, RecursionError)) else "failed"
            lang = await toast_lang(self.store, cmd, self.settings.lang)
            return [Toast(cmd.user, cmd.chat, t(lang, key))]

    async def tick(self, now: float | None = None, table: str | None = None) -> list[Outgoing]:
        """Fire the due turn timers this process wins: reminders, automatic moves, computers going on.

        ``table`` fires only that table's timers (the console, which has no tick loop, after each command).
        With an outbox, the effects for its platforms are written there and only the rest are returned.
        """
        now = self.tables.clock() if now is None else now
        out: list[Outgoing] = []
        try:
            await timers.fire(self.tables, now, out, table)
        except UNAVAILABLE as exc:
            self._outage.failed(exc)
            return await self._through_outbox(out)
        self._outage.worked()
        return await self._through_outbox(out)

    async def show(self, outs: list[Outgoing], here: bool = False) -> list[Outgoing]:
        """Effects of a command, a press or a tap: those for the outbox's platforms go through it
        (:class:`~bot.store.outbox.Outbox`) to whichever process serves their chat, in the order of their chat's
        other effects; the rest (all, without an outbox) are returned. While Redis is known down (the command was
        answered with an apology), and with ``here`` (the adapter stops: its reader reads no more), all are
        returned for this process's adapter to show, and the show guards of the saves they show are disarmed
        (:mod:`bot.service.shown`: else the guard would show them a second time)."""
        if here or self._outage.down:
            await self._disarm(outs)
            return outs
        return await self._through_outbox(outs)

    def _guards(self, outs: list[Outgoing]) -> dict[str, set[int]]:
        """The saved versions whose effects are among ``outs`` and not written yet, by table (no longer unshown)."""
        unshown = self.tables.unshown
        return {table: unshown.pop(table) for table in {getattr(o, "table_id", "") for o in outs} if table in unshown}

    async def _disarm(self, outs: list[Outgoing]) -> None:
        """Drop the show guards of the saves whose effects ``outs`` are shown by this process's adapter."""
        try:
            await self._drop(self._guards(outs))
        except UNAVAILABLE as exc:  # the guard shows them again: better twice than never
            self._outage.failed(exc)

    async def _drop(self, guards: dict[str, set[int]]) -> None:
        """Drop the show guards ``guards`` (saved versions by table)."""
        for table, versions in guards.items():
            for version in versions:
                await self.store.done(table, version, SHOW)

    async def _through_outbox(self, outs: list[Outgoing]) -> list[Outgoing]:
        """Write ``outs`` to the outbox, disarming the show guards of the saves they show (:mod:`bot.service.shown`)."""
        if self.outbox is None or not outs:
            return outs
        guards = self._guards(outs)
        try:
            rest = await self.outbox.put(outs, guards)
            if self.outbox.cluster:  # the write could not drop them (another slot); a crash before this: they fire
                await self._drop(guards)
            return rest
        except UNAVAILABLE as exc:  # saved, not shown: the show guards show it
            self._outage.failed(exc)
            return [o for o in outs if o.chat.platform not in self.outbox.platforms]

    async def topic_opened(self, table_id: str, thread: str) -> list[Outgoing]:
        """The forum topic an :class:`~bot.protocol.outgoing.OpenTopic` asked for exists: its table moves there.

        Not a typed command: only an adapter that opened the topic calls this. Idempotent.
        """
        try:
            out = await tourney_tables.move_to_topic(self.tables, table_id, thread)
        except Refused:  # the table is gone
            return []
        except UNAVAILABLE as exc:
            self._outage.failed(exc)
            return []
        self._outage.worked()
        return out

    async def migrate(self, old: ChatRef, new_chat_id: str) -> list[Outgoing]:
        """A group got a new chat id (Telegram's upgrade to a supergroup): its table and language move along.

        Not a typed command: only an adapter that heard it from the platform calls this. Idempotent.
        """
        return await lobby.migrate(self.tables, old, new_chat_id)
