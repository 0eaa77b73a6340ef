"""Carrying out the bot layer's outgoing effects with Discord REST calls, through the outbox.

- :class:`~bot.protocol.outgoing.TableMessage`: edit the channel's table message in place (its id is kept
  in the store's refs with the version it shows); post it anew if there is none, if the effect
  asks for a repost, or if Discord refuses the edit because the message is too old to edit
  (30046) or gone (10008); the old one is then deleted, so a channel has one table message.
  While a deal is played the edit waits up to ``Tuning.table_lazy_s`` for the next card, so one
  edit often shows two (see :func:`~adapters.common.slots.table_may_wait`); at a deal's end it waits so
  behind the result's post, for the next deal's first move.
- :class:`~bot.protocol.outgoing.HandMessage`: the same for the player's hand, a direct message; a hand
  marked ``notify`` is posted as a new DM (an edit would not notify him) and the old one deleted.
  A hand whose owner is not to act waits up to ``Tuning.lazy_s`` for a newer one (changes in a
  burst go in one edit); one he cannot act on yet (``HandMessage.partial``: his first cards of a new
  deal, or not his turn before the play) up to ``Tuning.partial_s``, for his turn or choices, and as
  long one that only lost choices (``HandMessage.fading``: its buttons still work), for its next change.
  If his DMs are closed (50007) the channel is told so once, and his hand is shown only as the
  ephemeral answer to his "My hand" button (kept up to date while Discord lets the bot edit it).
- :class:`~bot.protocol.outgoing.Notice`: a new message in the channel, its users mentioned.
- Every new message of an outbox entry carries a ``nonce`` named after the entry and its call
  (:func:`adapters.common.once.nonce`) with ``enforce_nonce``: a replay after its sender died returns the message
  Discord made then instead of a second one.
- :class:`~bot.protocol.outgoing.Toast` outside an interaction: a message in the channel; a ``secret`` one (it may
  tell his cards) a DM, or nothing where his DMs are closed.
- :class:`~bot.protocol.outgoing.PrivateText` (a review): the ephemeral answer of the interaction that asked for it
  (:mod:`adapters.discord.app`); outside one as a ``secret`` toast.
- :class:`~bot.protocol.outgoing.JoinLink`: nothing; a bot may write to any member of its servers.
- :class:`~bot.protocol.outgoing.FileMessage`: one message with the files attached, the caption its content.
- :class:`~bot.protocol.outgoing.TableList` (»Meine Tische«): its lines, each with the jump link to its table
  message, and the page buttons; the answer to the interaction that asked (:meth:`Delivery.listed`), else a
  message in his DM channel.
- :class:`~bot.protocol.outgoing.OpenTopic`: a public thread in the channel (a tournament's match), reported with
  ``topic_opened`` so the table moves there; what the table would show in the channel meanwhile waits and goes
  to the thread (:class:`~adapters.common.topics.TopicWait`); where Discord refuses threads, to the channel.

A :class:`~bot.protocol.outgoing.ChatRef` naming a ``thread`` is posted to the thread (a channel of its own).
"""

from __future__ import annotations

import asyncio
import io
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import NamedTuple

import discord

from adapters.common.bounded import Bounded
from adapters.common.once import nonce
from adapters.common.onweb import OnWeb, WebHolds
from adapters.common.refs import MessageRef, Refs, fingerprint
from adapters.common.slots import not_queued, table_may_wait
from adapters.common.topics import TopicWait
from bot.protocol.outgoing import (Button, FileMessage, HandMessage, ListedTable, Notice, OpenTopic, Outgoing,
                                   PrivateText, TableList, TableMessage, Toast, UserRef, version_of)
from bot.protocol.unavailable import UNAVAILABLE
from bot.words import t

from . import markup
from .outbox import AT_ONCE, BEHIND, Job, Outbox
from .translate import channel_of
from .tuning import Tuning

__all__ = ["Delivery", "TABLE_REF", "hand_ref", "attached"]

log = logging.getLogger(__name__)

TABLE_REF = "dc:table"
_UNKNOWN_MESSAGE, _TOO_OLD, _DMS_CLOSED = 10008, 30046, 50007
_MAX_TEXT = 2000
"""Discord's longest message."""
_THREAD_NAME_MAX = 100
_THREAD_ARCHIVE_MIN = 10080
"""A match's thread is archived after a week without messages (a tournament round may last days)."""


def hand_ref(user: UserRef) -> str:
    """The refs key of a player's hand message of a table."""
    return f"dc:hand:{user.user_id}"


def _closed_ref(user: UserRef) -> str:
    return f"dc:closed:{user.user_id}"


class _Ephemeral(NamedTuple):
    """A hand shown as an ephemeral answer: the interaction that can edit it, since when, what it shows."""

    interaction: discord.Interaction
    since: float
    shows: str


def _replaceable(exc: discord.HTTPException) -> bool:
    """Whether a refused edit means: post the message anew (too old to edit, or deleted)."""
    return exc.code in (_UNKNOWN_MESSAGE, _TOO_OLD)


class Delivery:
    """Turns outgoing effects into outbox jobs.

    Args:
        client: the discord.py client that makes the calls.
        refs: the store's refs for message ids.
        outbox: the per-channel senders.
        tuning: how long an ephemeral hand may be edited, how long a table or hand may wait for a newer one.
        topic_opened: the service's :meth:`~bot.service.Service.topic_opened` (``None``: tables get no threads).
        watch_row: the row under a table message that opens it on the web table to watch (``None``: none).
        on_web: whose own seat's web page is open (the service; ``None``: no web table): his hand's edits wait
            meanwhile (:mod:`adapters.common.onweb`).
    """

    def __init__(self, client: discord.Client, refs: Refs, outbox: Outbox, tuning: Tuning,
                 link: Callable[[HandMessage], Button] | None = None,
                 topic_opened: Callable[[str, str], Awaitable[list[Outgoing]]] | None = None,
                 watch_row: Callable[[TableMessage], tuple[tuple[Button, ...], ...]] | None = None,
                 on_web: OnWeb | None = None) -> None:
        self.client = client
        self.web = WebHolds(on_web)
        """Which hands wait while their owner's web page is open."""
        self.watch_row = watch_row
        self.topic_opened = topic_opened
        self._flat: Bounded[int, bool] = Bounded()  # channels where Discord refused a thread
        self._topics = TopicWait()
        self.link = link
        """The button that opens a hand on the web table (``None``: no web table is configured)."""
        self.refs = refs
        self.outbox = outbox
        self.tuning = tuning
        self.langs: Bounded[str, str] = Bounded()
        self._dm: Bounded[int, int] = Bounded()
        self._closed: Bounded[tuple[str, str], bool] = Bounded()
        self._ephemeral: Bounded[tuple[str, str], _Ephemeral] = Bounded(2000)
        self._reposts: Bounded[str, bool] = Bounded()
        self._posts = itertools.count()

    def carry_out(self, outs: list[Outgoing], version: int | None = None, of: list[Outgoing] | None = None) -> None:
        """Queue every effect (``version``: the table version they show, if not read from each table's buttons;
        ``of``: all the effects of the change, if ``outs`` leaves out those an interaction's answer showed)."""
        every = outs if of is None else of
        versions = {tid: version_of(every, tid) if version is None else version
                    for tid in {getattr(out, "table_id", "") for out in outs}}
        if self.topic_opened is not None:
            self._topics.expect([o for o in outs if isinstance(o, OpenTopic) and channel_of(o.chat) not in self._flat])
        for each in outs:
            out = self._topics.route(each)
            if out is None:
                continue  # its table waits for its thread
            shown = versions[getattr(out, "table_id", "")]
            if isinstance(out, TableMessage):
                self.table(out, shown, table_may_wait(out, every, behind_results=True),
                           any(isinstance(o, Notice) and o.result and o.chat == out.chat for o in every))
            elif isinstance(out, HandMessage):
                self.hand(out, shown)
            elif isinstance(out, Notice):
                self.post(channel_of(out.chat), markup.mentions(out.text, out.mentions), out.mentions)
            elif isinstance(out, Toast) and out.secret:
                self.secret(out)
            elif isinstance(out, PrivateText):
                self.secret(Toast(out.user, out.chat, out.text, secret=True, table_id=out.table_id))
            elif isinstance(out, Toast):
                self.post(channel_of(out.chat), markup.mentions(out.text, [out.user]), [out.user])
            elif isinstance(out, FileMessage):
                self.files(out)
            elif isinstance(out, OpenTopic):
                self.thread(out)
            elif isinstance(out, TableList):
                self.post_list(out)

    async def listed(self, out: TableList) -> tuple[str, tuple[tuple[Button, ...], ...]]:
        """The text of a page of »Meine Tische« (each line with its table message's jump link, within Discord's
        2,000 characters) and its page buttons."""
        lines = [out.head]
        for row in out.rows:
            link = await self._jump(row)
            line = f"{row.text} · [{row.go}]({link})" if link else row.text
            if sum(len(x) + 1 for x in lines) + len(line) > _MAX_TEXT:
                break
            lines.append(line)
        return "\n".join(lines), (out.pages,) if out.pages else ()

    async def _jump(self, row: ListedTable) -> str | None:
        """The jump link to the row's table message (``discord.com/channels/<server or @me>/<channel>/<message>``)."""
        ref = MessageRef.parse(await self.refs.get_ref(row.table_id, TABLE_REF))
        if ref is None:
            return None
        guild = getattr(self.client.get_channel(int(row.chat.chat_id)), "guild", None)
        return f"https://discord.com/channels/{guild.id if guild else '@me'}/{ref.chat_id}/{ref.message_id}"

    def post_list(self, out: TableList) -> None:
        """Post a page of »Meine Tische« in his DM channel (when no interaction's answer showed it)."""
        async def send() -> None:
            text, rows = await self.listed(out)
            try:
                await self.client.get_partial_messageable(channel_id).send(text, view=markup.view(rows), nonce=nonce())
            except discord.Forbidden as exc:
                log.info("cannot post the tables in channel %s: %s", channel_id, exc)

        channel_id = channel_of(out.chat)
        self.outbox.put(Job(channel_id, f"post:{next(self._posts)}", send))

    def thread(self, out: OpenTopic) -> None:
        """Open a public thread for the table that asked for one and move the table there (a channel that
        has no threads, or where the bot may not open one: nothing, the table stays)."""
        channel_id = channel_of(out.chat)
        if self.topic_opened is None or out.chat.thread or channel_id in self._flat:
            return

        async def send() -> None:
            channel = self.client.get_channel(channel_id)
            opened = None
            if isinstance(channel, discord.TextChannel):
                try:
                    opened = await channel.create_thread(name=out.name[:_THREAD_NAME_MAX],
                                                         type=discord.ChannelType.public_thread,
                                                         auto_archive_duration=_THREAD_ARCHIVE_MIN)
                except discord.HTTPException as exc:
                    log.info("no thread for table %s in %s: %s", out.table_id, channel_id, exc)
            if opened is None:
                self._flat[channel_id] = True
                self.carry_out(self._topics.failed(out.table_id))
                return
            thread = str(opened.id)
            self.carry_out(self._topics.opened(out.table_id, thread) + await self.topic_opened(out.table_id, thread))

        self.outbox.put(Job(channel_id, f"thread:{out.table_id}", send))

    # ------------------------------------------------------------------ the table message
    def table(self, out: TableMessage, version: int | None, lazy: bool = False, results: bool = False) -> None:
        """Show the table in its channel, edited in place (``lazy``: it may wait for the next card; with
        ``results``, its deal's result posted with it, it waits behind that post for the next deal's first move,
        from now: the post shows the deal's last cards, which an edit still waiting was to show)."""
        out = self.look(out)
        if out.repost:
            self._reposts[out.table_id] = True
        channel_id = channel_of(out.chat)

        async def send() -> None:
            ref = MessageRef.parse(await self.refs.get_ref(out.table_id, TABLE_REF))
            repost = self._reposts.pop(out.table_id, False)
            if ref and ref.chat_id == channel_id:
                if version is not None and version < ref.version:
                    return
                if not repost and await self._edit(ref, out.table_id, TABLE_REF, out.text, out.buttons, version):
                    return
            message = await self.client.get_partial_messageable(channel_id).send(out.text, nonce=nonce(),
                                                                                 **_view(out.buttons))
            await self.refs.set_ref(out.table_id, TABLE_REF, str(MessageRef(channel_id, message.id, version or 0,
                                                                            fingerprint(out.text, out.buttons))))
            if ref:
                self._delete(ref)

        behind = lazy and results
        self.outbox.put(Job(*_slot(out), send, version, self.tuning.table_lazy_s if lazy else 0.0,
                            rank=BEHIND if behind else AT_ONCE, restart=behind))

    async def _edit(self, ref: MessageRef, table_id: str, key: str, text: str, buttons, version: int | None) -> bool:
        """Edit a message in place (not at all if it shows this already); false if it must be posted anew."""
        shows = fingerprint(text, buttons)
        if shows != ref.shows:
            try:
                await self.client.get_partial_messageable(ref.chat_id).get_partial_message(ref.message_id).edit(
                    content=text, view=markup.view(buttons) if buttons else None)
            except discord.HTTPException as exc:
                if _replaceable(exc):
                    return False
                raise
        now = ref._replace(version=ref.version if version is None else version, shows=shows)
        if now != ref:
            await self.refs.set_ref(table_id, key, str(now))
        return True

    def _delete(self, ref: MessageRef) -> None:
        async def send() -> None:
            try:
                await self.client.get_partial_messageable(ref.chat_id).get_partial_message(ref.message_id).delete()
            except (discord.NotFound, discord.Forbidden):
                pass
        self.outbox.put(Job(ref.chat_id, f"delete:{ref.message_id}", send))

    # ------------------------------------------------------------------ hands
    def hand(self, out: HandMessage, version: int | None) -> None:
        """Show a player his hand: his DM edited in place, or his ephemeral hand if his DMs are closed.

        With a web table, the hand's last button opens it (:attr:`link`), where the buttons leave room. The copy of
        a hand that the answer to its owner's press showed already is not queued: it would change nothing, and his
        next hand could linger no longer than it (one that only lost a choice, or a new deal's first cards); a later
        copy of that version (a refusal's fresh hand) is queued.
        """
        if not out.notify and version is not None and self.outbox.answered(*_slot(out), version):
            not_queued()
            return
        out = self.look(out)
        user_id = int(out.user.user_id)
        key = (out.user.key, out.table_id)

        async def send() -> None:
            if self._closed.get(key) or await self.refs.get_ref(out.table_id, _closed_ref(out.user)):
                self._closed[key] = True
                await self._ephemeral_hand(out)
                return
            ref = MessageRef.parse(await self.refs.get_ref(out.table_id, hand_ref(out.user)))
            if ref:
                if version is not None and version < ref.version:
                    return
                if not out.notify and await self._edit(ref, out.table_id, hand_ref(out.user), out.text,
                                                       out.buttons, version):
                    return
            try:
                channel_id = await self._dm_channel(user_id)
                message = await self.client.get_partial_messageable(channel_id).send(out.text, nonce=nonce(),
                                                                                   **_view(out.buttons))
            except discord.Forbidden as exc:
                if exc.code != _DMS_CLOSED:
                    raise
                await self._dms_closed(out)
                return
            await self.refs.set_ref(out.table_id, hand_ref(out.user), str(MessageRef(
                channel_id, message.id, version or 0, fingerprint(out.text, out.buttons))))
            if ref:  # one hand message per player and table: the old one (and its buttons) goes
                self._delete(ref)

        linger = (0.0 if out.notify else self.tuning.partial_s if out.partial or out.fading
                  else 0.0 if out.to_act else self.tuning.lazy_s)
        self.outbox.put(Job(*_slot(out), send, version, linger,
                            None if out.notify else self.web.hold(out)))

    async def _dm_channel(self, user_id: int) -> int:
        channel_id = self._dm.get(user_id)
        if channel_id is None:
            user = discord.Object(user_id)
            channel_id = (await self.client.http.start_private_message(user.id))["id"]
            self._dm[user_id] = channel_id = int(channel_id)
        return channel_id

    async def _dms_closed(self, out: HandMessage) -> None:
        """His DMs are closed: tell the channel once; from now on his hand is ephemeral."""
        self._closed[(out.user.key, out.table_id)] = True
        if await self.refs.get_ref(out.table_id, _closed_ref(out.user)):
            return
        await self.refs.set_ref(out.table_id, _closed_ref(out.user), "1")
        lang = self.langs.get(out.user.user_id, "de")
        text = t(lang, "dc.dms_closed", mention=f"<@{out.user.user_id}>")
        self.post(channel_of(out.chat), text, [out.user])
        await self._ephemeral_hand(out)

    def closed(self, user: UserRef, table_id: str) -> bool:
        """Whether his DMs are known closed at this table (his hand is ephemeral)."""
        return bool(self._closed.get((user.key, table_id)))

    def keep(self, interaction: discord.Interaction, out: HandMessage) -> None:
        """``interaction`` answered with his hand as an ephemeral message: keep it up to date for a while."""
        self._ephemeral[(out.user.key, out.table_id)] = _Ephemeral(interaction, time.monotonic(),
                                                                   fingerprint(out.text, out.buttons))

    async def _ephemeral_hand(self, out: HandMessage) -> None:
        key = (out.user.key, out.table_id)
        held = self._ephemeral.get(key)
        if held is None or time.monotonic() - held.since > self.tuning.ephemeral_s:
            self._ephemeral.pop(key, None)
            return
        shows = fingerprint(out.text, out.buttons)
        if shows == held.shows:
            return
        try:
            await held.interaction.edit_original_response(content=out.text, view=markup.view(out.buttons)
                                                          if out.buttons else None)
        except discord.HTTPException as exc:
            log.info("the ephemeral hand of %s is gone: %s", out.user.key, exc)
            self._ephemeral.pop(key, None)
            return
        self._ephemeral[key] = held._replace(shows=shows)

    @staticmethod
    def pressed_key(user: UserRef, in_dm: bool) -> str:
        """The ref a pressed message may be: his hand (a DM) or the table message (a channel)."""
        return hand_ref(user) if in_dm else TABLE_REF

    async def ref_at(self, table_id: str, key: str) -> MessageRef | None:
        """Where the table's message ``key`` is and what it shows."""
        return MessageRef.parse(await self.refs.get_ref(table_id, key))

    @staticmethod
    async def settled(looked_up: asyncio.Future | None) -> MessageRef | None:
        """The ref a :meth:`ref_at` task found; ``None`` if there was none, or Redis failed (the
        service has answered that already)."""
        if looked_up is None:
            return None
        try:
            return await looked_up
        except UNAVAILABLE:
            return None

    @staticmethod
    def new_look(outs: list[Outgoing], table_id: str, key: str, ref: MessageRef | None,
                 version: int | None) -> HandMessage | TableMessage | None:
        """What the message ``ref`` (under ``key``) is to show now, if it is among ``outs``, may be
        edited in place and is not older than what it shows."""
        if ref is None or version is not None and version < ref.version:
            return None
        return next((o for o in outs if isinstance(o, HandMessage) and not o.notify and hand_ref(o.user) == key
                     and o.table_id == table_id or isinstance(o, TableMessage) and not o.repost and key == TABLE_REF
                     and o.table_id == table_id), None)

    def look(self, out: HandMessage | TableMessage) -> HandMessage | TableMessage:
        """The message as shown: a table message with the row that opens it to watch on the web table, a hand with
        the button that opens it there (:attr:`link`), where there is a web table."""
        if isinstance(out, TableMessage):
            return out if self.watch_row is None else replace(out, buttons=out.buttons + self.watch_row(out))
        return out if self.link is None else replace(out, buttons=out.buttons + ((self.link(out),),))

    async def shown(self, out: HandMessage | TableMessage, ref: MessageRef, version: int | None) -> None:
        """The answer to a press updated the message ``ref`` to show ``out``: record what it shows."""
        self.outbox.shown(*_slot(out), version)
        now = ref._replace(version=ref.version if version is None else version,
                           shows=fingerprint(out.text, out.buttons))
        key = hand_ref(out.user) if isinstance(out, HandMessage) else TABLE_REF
        try:
            await self.refs.set_ref(out.table_id, key, str(now))
        except UNAVAILABLE as exc:  # its next edit is sent even if it changes nothing
            log.warning("what the answer showed in %s is not recorded: %s", ref.chat_id, exc)

    # ------------------------------------------------------------------ notices
    def files(self, out: FileMessage) -> None:
        """Post one message in the channel with the files attached, the caption as its text."""
        channel_id = channel_of(out.chat)

        async def send() -> None:
            try:
                await self.client.get_partial_messageable(channel_id).send(
                    out.caption or None, files=attached(out), allowed_mentions=discord.AllowedMentions.none(),
                    nonce=nonce())
            except discord.Forbidden as exc:
                log.warning("cannot post files in channel %s: %s", channel_id, exc)

        self.outbox.put(Job(channel_id, f"post:{next(self._posts)}", send))

    def secret(self, out: Toast) -> None:
        """An answer for its user alone (:attr:`~bot.protocol.outgoing.Toast.secret`) outside his interaction: a DM,
        or nothing if his DMs are closed; never the channel."""
        user_id = int(out.user.user_id)

        async def send() -> None:
            try:
                channel_id = await self._dm_channel(user_id)
                await self.client.get_partial_messageable(channel_id).send(out.text, nonce=nonce())
            except discord.Forbidden as exc:
                log.info("an answer for %s alone is not sent: %s", out.user.key, exc)

        self.outbox.put(Job(user_id, f"secret:{next(self._posts)}", send))

    def post(self, channel_id: int, text: str, users: list[UserRef] | tuple[UserRef, ...] = ()) -> None:
        """Post a new message in a channel, mentioning (and notifying) ``users`` only."""
        mentions = discord.AllowedMentions(everyone=False, roles=False,
                                           users=[discord.Object(int(u.user_id)) for u in users])

        async def send() -> None:
            try:
                await self.client.get_partial_messageable(channel_id).send(text, allowed_mentions=mentions,
                                                                           nonce=nonce())
            except discord.Forbidden as exc:
                log.warning("cannot post in channel %s: %s", channel_id, exc)

        self.outbox.put(Job(channel_id, f"post:{next(self._posts)}", send))


def attached(out: FileMessage) -> list[discord.File]:
    """The files of ``out`` as discord.py's attachments (a new list for every send: a sent file is used up)."""
    return [discord.File(io.BytesIO(f.data), filename=f.filename) for f in out.files]


def _slot(out: HandMessage | TableMessage) -> tuple[int, str]:
    """The outbox queue and slot of a table's message: the channel's, or the player's for his hand."""
    if isinstance(out, HandMessage):
        return int(out.user.user_id), f"hand:{out.table_id}"
    return channel_of(out.chat), f"table:{out.table_id}"


def _view(buttons) -> dict:
    return {"view": markup.view(buttons)} if buttons else {}
