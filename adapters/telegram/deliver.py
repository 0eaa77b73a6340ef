"""Carrying out the bot layer's outgoing effects with Bot API calls, through the outbox.

- :class:`~bot.protocol.outgoing.TableMessage`: edit the table's message in place (its id is kept in the store's refs
  with the version it shows and a fingerprint of its text and buttons), or post it if there is none, it is gone, or
  the effect asks for a repost (then the old message loses its buttons). An edit to an older version, or to the very
  text and buttons the message shows already, is not sent: it would change nothing, and Telegram would count the call.
- :class:`~bot.protocol.outgoing.HandMessage`: the same for the player's hand in the private chat. If Telegram refuses
  (he never started the bot, or blocked it) the group is told, once, how he gets his cards: a deep link that opens the
  private chat. A hand marked ``notify`` (so is one asked for again: :mod:`adapters.telegram.app`) is posted anew,
  which notifies his phone where an edit would not, and the old hand message is deleted (or, if Telegram no longer
  allows that, loses its buttons).
- :class:`~bot.protocol.outgoing.Notice`: a new message in the chat, its users mentioned. A deal's result goes after
  everything else the chat has to send, and the results still waiting when its turn comes go as one message
  (computers playing on alone finish deal after deal faster than a group may be written to).
- :class:`~bot.protocol.outgoing.Toast` outside a button press (a refused or answered text command): only its user is
  meant to read it, so it goes to his private chat, named after the group it answers, each a message of its own (the
  service's answer budget bounds them, and at most :data:`_ANSWERS_WAITING` wait at a time); only if the bot cannot
  write to him there is it posted in the group, and a ``secret`` one (it may tell his cards) never: the group is told
  only that the bot cannot write to him, with the link that opens the private chat. On a press it answers the
  callback query instead (see :mod:`adapters.telegram.app`).
- :class:`~bot.protocol.outgoing.PrivateText` (a review): as a ``secret`` toast, also after a press.
- Whoever Telegram refused a private message (403) is not written to privately for a while: the service remembers it
  for every process (:meth:`~bot.service.Service.unreachable`) until it expires or he writes to the bot privately.
- :class:`~bot.protocol.outgoing.JoinLink` outside a press: a message in the chat with the deep link.
- :class:`~bot.protocol.outgoing.TableList` (»Meine Tische«): a message in his private chat, per row a link to the
  table message in a supergroup (``t.me/c/…``), else (no such links) a button that sends his hand again.
- :class:`~bot.protocol.outgoing.FileMessage`: each file a message of its own (``sendPhoto`` for a picture,
  ``sendDocument`` for the rest), the caption on the first.

In each chat's queue the table and the hands go first, then what is posted for people, then the
results (:data:`~adapters.telegram.outbox.FIRST` and the ranks after it).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from telegram import Bot, InlineKeyboardMarkup, InputFile, MessageEntity
from telegram.constants import ChatAction, ChatMemberStatus
from telegram.error import BadRequest, Forbidden, TelegramError

from adapters.common import once
from adapters.common.bounded import Bounded
from adapters.common.onweb import OnWeb, WebHolds
from adapters.common.refs import MessageRef, Refs, fingerprint
from adapters.common.slots import table_may_wait
from adapters.common.topics import TopicWait
from bot.protocol.outgoing import (Attachment, Button, ChatRef, FileMessage, HandMessage, JoinLink, Notice, OpenTopic,
                                   Outgoing, PrivateText, TableList, TableMessage, Toast, UserRef, version_of)
from bot.words import t

from . import markup
from .adopt import post
from .outbox import LAST, REPLY, Job, Outbox
from .tablelist import page_text, row_button

__all__ = ["Refs", "Reach", "Delivery", "not_modified"]

log = logging.getLogger(__name__)

TABLE_REF = "tg:table"
_MAX_TEXT = 4096
"""Telegram's longest message."""
_RESULTS_KEPT = 100
"""The most results of one chat that wait to be posted (older ones are dropped first)."""
_ANSWERS_WAITING = 8
"""The most answers to one person from one chat that wait to be sent (the answer budget lets 6 a minute
through): a newer one takes the place of one still waiting, so an outage's flood stays bounded."""


def not_modified(exc: BadRequest) -> bool:
    """Whether Telegram refused an edit only because nothing changed (that is success)."""
    return "not modified" in exc.message.lower()


def _gone(exc: BadRequest) -> bool:
    text = exc.message.lower()
    return "message to edit not found" in text or "message can't be edited" in text


def _hand_ref(user: UserRef) -> str:
    """The refs key of a player's hand message of a table."""
    return f"tg:hand:{user.user_id}"


def _thread(chat: ChatRef) -> int | None:
    return int(chat.thread) if chat.thread else None


def _reason(exc: Forbidden) -> str:
    """Why Telegram refused a private message: ``"blocked"`` (he blocked the bot) or ``"cannot_dm"``."""
    return "blocked" if "blocked" in exc.message.lower() else "cannot_dm"


class Reach(Protocol):
    """Who the bot cannot write to privately, remembered for every process (the service)."""

    async def cannot_reach(self, user: UserRef) -> str | None:
        """Why a private message to ``user`` was refused lately, else ``None``."""

    async def unreachable(self, user: UserRef, reason: str) -> None:
        """A private message to ``user`` was refused for ``reason``."""


class Delivery:
    """Turns outgoing effects into outbox jobs.

    Args:
        bot: the PTB bot that makes the calls.
        refs: the store's refs for message ids.
        outbox: the per-chat senders.
        join_payload: the deep-link payload that joins a table (the service's ``join_payload``).
        username: the bot's username, for deep links.
        lazy_s: how long a hand emptied by its owner's last card of a deal (``HandMessage.emptied``) may wait for the
            next deal's cards to replace it: they usually follow within the seconds the last trick takes, and one
            edit does for both; in slow play the empty hand is shown after this wait, so the card played does not
            stay on it. As long may a hand its owner cannot act on yet (``HandMessage.partial``: a new deal's first
            cards, or not his turn before the play) wait for his turn or choices, and a hand that only lost choices
            (``HandMessage.fading``: its buttons still work) for its next change.
        hand_wait_s: how long any other edit of a hand waits for a newer version of it (choices that flicker
            within this time cost one edit).
        table_lazy_s: how long a group's table message may wait for a newer one while a deal is played (the effects
            carry hands): the group allows 20 messages a minute, people play a card every few seconds, and a table
            shown a moment later shows every card since. It does not wait when a message is posted in the group
            with it (a deal's result): the table goes first, then that message.
        trick_wait_s: under load (:meth:`.outbox.Outbox.loaded`) a group's table during a trick (``in_trick``) waits
            for the trick's last card instead, up to this long: the group sees a whole trick at once (0: never).
        web_row: the buttons added under a table message that open it on the web table
            (:func:`.markup.web_table_row`); ``None`` when no Mini App is configured.
        reach: who cannot be written to privately (the service); ``None``: every private message is tried.
        on_web: whose own seat's web page is open (the service; ``None``: no web table): his hand's edits wait
            meanwhile (:mod:`adapters.common.onweb`).
    """

    def __init__(self, bot: Bot, refs: Refs, outbox: Outbox, join_payload: Callable[[str], str], username: str,
                 lazy_s: float = 0.0, table_lazy_s: float = 0.0,
                 web_row: Callable[[TableMessage], tuple[tuple[Button, ...], ...]] | None = None,
                 topic_opened: Callable[[str, str], Awaitable[list[Outgoing]]] | None = None,
                 reach: Reach | None = None, hand_wait_s: float = 0.0, on_web: OnWeb | None = None,
                 trick_wait_s: float = 0.0):
        self.bot = bot
        self.trick_wait_s = trick_wait_s
        self.web = WebHolds(on_web)
        """Which hands wait while their owner's web page is open."""
        self.hand_wait_s = hand_wait_s
        self.reach = reach
        self.web_row = web_row
        self.lazy_s = lazy_s
        self.table_lazy_s = table_lazy_s
        self.refs = refs
        self.outbox = outbox
        self.join_payload = join_payload
        self.username = username
        self.langs: Bounded[str, str] = Bounded()
        self._reposts: Bounded[tuple[str, str], bool] = Bounded()
        self._tricks: Bounded[str, bool] = Bounded()  # the tables whose edit waits for their trick's last card
        self._unreachable: Bounded[tuple[str, str], bool] = Bounded()
        self._answered: Bounded[tuple[str, str], int] = Bounded()  # (user, chat) -> answers queued so far
        self._results: Bounded[str, list[str]] = Bounded()  # chat key -> results not yet posted
        self._notices = itertools.count()
        self.topic_opened = topic_opened
        self._flat: Bounded[str, bool] = Bounded()  # chats that turned out to have no forum topics
        self._topics = TopicWait()

    def carry_out(self, outs: list[Outgoing], in_place: int | None = None) -> None:
        """Queue every effect; a page of his tables shown in place of message ``in_place`` (the page pressed on)."""
        versions = {tid: version_of(outs, tid) for tid in {getattr(out, "table_id", "") for out in outs}}
        if self.topic_opened is not None:
            self._topics.expect([o for o in outs if isinstance(o, OpenTopic) and o.chat.key not in self._flat])
        for shown in outs:
            out = self._topics.route(shown)
            if out is None:
                continue  # its table waits for its forum topic
            version = versions[getattr(out, "table_id", "")]
            if isinstance(out, TableMessage):
                self.table(out, version, table_may_wait(out, outs))
            elif isinstance(out, HandMessage):
                self.hand(out, version, repost=out.notify)
            elif isinstance(out, Notice) and out.result:
                self.result(out)
            elif isinstance(out, Notice):
                self.post(out.chat, *markup.mentions(out.text, out.mentions))
            elif isinstance(out, Toast):
                self.toast(out)
            elif isinstance(out, PrivateText):  # a secret answer, but never the answer of a press
                self.toast(Toast(out.user, out.chat, out.text, secret=True, table_id=out.table_id))
            elif isinstance(out, JoinLink):
                self.join_link(out.user, out.chat, out.payload, out.text, check=True)
            elif isinstance(out, FileMessage):
                self.files(out)
            elif isinstance(out, OpenTopic):
                self.topic(out)
            elif isinstance(out, TableList):
                self.table_list(out, in_place)

    def table_list(self, out: TableList, in_place: int | None = None) -> None:
        """Post a page of »Meine Tische« in his private chat (or show it in place of message ``in_place``, the page
        whose button was pressed), each row's button leading to its table (:mod:`.tablelist`)."""
        async def send(chat_id: int) -> None:
            refs = [MessageRef.parse(await self.refs.get_ref(row.table_id, TABLE_REF)) for row in out.rows]
            leads = [(b,) for row, ref in zip(out.rows, refs) if (b := row_button(row, ref)) is not None]
            kb = markup.keyboard([*leads, out.pages])
            with contextlib.suppress(Forbidden):  # he blocked the bot since he asked
                if in_place is None or not await self._edit(chat_id, in_place, page_text(out), kb):
                    await post(self.bot, chat_id, page_text(out), self.outbox.turn, kb)

        self.outbox.put(Job(int(out.chat.chat_id), f"post:{next(self._notices)}", send, rank=REPLY))

    def files(self, out: FileMessage) -> None:
        """Send the files to their chat, one message (and one paced call) each, a picture as a photo, the caption on
        the first."""
        thread = _thread(out.chat)
        for i, file in enumerate(out.files):
            self.outbox.put(Job(int(out.chat.chat_id), f"file:{next(self._notices)}",
                                self._file_sender(file, out.caption if i == 0 else "", thread), rank=REPLY))

    def _file_sender(self, file: Attachment, caption: str, thread: int | None) -> Callable[[int], Awaitable[None]]:
        async def send(chat_id: int) -> None:
            call = self.bot.send_photo if file.picture else self.bot.send_document
            upload = InputFile(file.data, filename=file.filename)
            try:
                await once.make(lambda: call(chat_id, upload, caption=caption or None, message_thread_id=thread))
            except Forbidden as exc:
                log.warning("cannot send a file to chat %s: %s", chat_id, exc.message)
        return send

    def topic(self, out: OpenTopic) -> None:
        """Open the forum topic a table asked for and move the table there; what the table would have shown in the
        group meanwhile was held (:class:`~adapters.common.topics.TopicWait`) and goes to the topic (else the group)."""
        if self.topic_opened is None or out.chat.key in self._flat:
            return

        async def send(chat_id: int) -> None:
            try:
                opened = await once.make(lambda: self.bot.create_forum_topic(chat_id, out.name), "message_thread_id")
            except BadRequest as exc:  # not a forum, or the bot may not manage its topics
                self._flat[out.chat.key] = True
                log.info("no forum topic for table %s in %s: %s", out.table_id, chat_id, exc.message)
                self.carry_out(self._topics.failed(out.table_id))
                return
            thread = str(opened)
            self.carry_out(self._topics.opened(out.table_id, thread) + await self.topic_opened(out.table_id, thread))
        self.outbox.put(Job(int(out.chat.chat_id), f"topic:{out.table_id}", send, rank=REPLY))

    def table(self, out: TableMessage, version: int | None, lazy: bool = False) -> None:
        """Show the table in its chat, edited in place (``version``: the table version it shows;
        ``lazy``: a group's table may wait ``table_lazy_s`` for the next card, if it waits at all under load
        ``trick_wait_s`` for the trick's last card, with which it goes)."""
        if out.repost:
            self._reposts[(out.table_id, TABLE_REF)] = True
        chat_id = int(out.chat.chat_id)
        buttons = out.buttons + self.web_row(out) if self.web_row else out.buttons
        linger = self.table_lazy_s if lazy and chat_id < 0 else 0.0
        held = self._tricks.pop(out.table_id, False)  # its edit waits for the trick's last card, which lets it go
        if linger and self.trick_wait_s > linger and out.in_trick and (held or self.outbox.loaded(chat_id)):
            linger, self._tricks[out.table_id] = self.trick_wait_s, True
        linger = 0.0 if held and not out.in_trick else linger
        self._put_in_place(chat_id, _thread(out.chat), out.table_id, TABLE_REF, out.text, buttons, version, linger=linger)

    def hand(self, out: HandMessage, version: int | None, repost: bool = False) -> None:
        """Show a player his hand in his private chat, edited in place (``version``: the table version it shows)."""
        key = _hand_ref(out.user)
        if repost:
            self._reposts[(out.table_id, key)] = True
            version = None  # it is the hand as it is now (one that only lost choices carries an older version)
        unreachable = (out.user.key, out.table_id)

        def refused(reason: str) -> None:
            if unreachable in self._unreachable:
                return
            self._unreachable[unreachable] = True
            lang = self.langs.get(out.user.user_id, "de")
            self.join_link(out.user, out.chat, self.join_payload(out.table_id),
                           t(lang, f"tg.{reason}", name=out.user.name or out.user.user_id))

        def reached() -> None:
            self._unreachable.pop(unreachable, None)

        linger = 0.0 if repost else self.lazy_s if out.emptied or out.partial or out.fading else self.hand_wait_s
        self._put_in_place(int(out.user.user_id), None, out.table_id, key, out.text, out.buttons, version,
                           reached=reached, refused=refused, to=out.user, linger=linger, retire=True,
                           restart=out.partial and not repost,
                           hold=None if repost else self.web.hold(out))

    def result(self, out: Notice) -> None:
        """Post a deal's result after all else in its chat, together with the results waiting there."""
        key = out.chat.key
        waiting = self._results.get(key, [])
        self._results[key] = [*waiting, out.text][-_RESULTS_KEPT:]
        thread = _thread(out.chat)

        async def send(chat_id: int) -> None:
            texts = self._results.get(key, [])
            taken = 1
            while taken < len(texts) and len("\n\n".join(texts[:taken + 1])) <= _MAX_TEXT:
                taken += 1
            if texts:
                try:
                    await post(self.bot, chat_id, "\n\n".join(texts[:taken]), self.outbox.turn, thread=thread)
                except Forbidden as exc:
                    log.warning("cannot post in chat %s: %s", chat_id, exc.message)
            rest = self._results.pop(key, [])[taken:]  # what came while it was sent stays
            if rest:
                self._results[key] = rest
                self.outbox.put(Job(chat_id, f"results:{key}", send, rank=LAST))

        self.outbox.put(Job(int(out.chat.chat_id), f"results:{key}", send, rank=LAST))

    def toast(self, out: Toast) -> None:
        """Tell the user alone: in his private chat (naming the group), else in the group; a secret answer
        never there (:meth:`_not_private`)."""
        if out.chat.private:
            self.post(out.chat, out.text, [])
            return
        text = f"{out.chat.title}: {out.text}" if out.chat.title else out.text

        async def send(chat_id: int) -> None:
            if await self._refused_lately(out.user):
                self._not_private(out)
                return
            try:
                await post(self.bot, chat_id, text, self.outbox.turn)
            except Forbidden as exc:  # he never started the bot, or blocked it
                await self._refused_now(out.user, exc)
                self._not_private(out)
            except BadRequest as exc:
                log.info("cannot tell user %s privately (%s): in the group", chat_id, exc.message)
                self._not_private(out)

        self.outbox.put(Job(int(out.user.user_id), f"toast:{out.chat.key}:{self._answer_slot(out)}", send, rank=REPLY))

    def _answer_slot(self, out: Toast) -> int:
        """One of :data:`_ANSWERS_WAITING` slots for an answer to its user from its chat, in turn."""
        key = (out.user.key, out.chat.key)
        n = self._answered.get(key, 0)
        self._answered[key] = n + 1
        return n % _ANSWERS_WAITING

    def _not_private(self, out: Toast) -> None:
        """The answer ``out`` could not go to its user privately: the group gets it, or for a secret one only
        that the bot cannot write to him, and the link that opens the private chat (and shows his hand)."""
        slot = f"reply:{out.user.user_id}:{self._answer_slot(out)}"
        if not out.secret:
            self.post(out.chat, out.text, [], slot=slot)
            return
        text = t(self.langs.get(out.user.user_id, "de"), "tg.answer_private", name=out.user.name or out.user.user_id)
        self.join_link(out.user, out.chat, self.join_payload(out.table_id) if out.table_id else "", text, slot=slot)

    async def _refused_lately(self, user: UserRef) -> str | None:
        """Why Telegram refused a private message to ``user`` lately (then none is tried), else ``None``."""
        return await self.reach.cannot_reach(user) if self.reach is not None else None

    async def _refused_now(self, user: UserRef, exc: Forbidden) -> str:
        """Telegram refused a private message to ``user``: remembered for every process; the reason."""
        reason = _reason(exc)
        log.info("cannot write to user %s privately: %s", user.user_id, exc.message)
        if self.reach is not None:
            await self.reach.unreachable(user, reason)
        return reason

    def join_link(self, user: UserRef, chat: ChatRef, payload: str, text: str, check: bool = False,
                  slot: str = "") -> None:
        """Post in ``chat`` a message mentioning ``user`` with a button that opens the private chat.

        With ``check``, nothing is posted if the bot can write to him after all (the bot layer
        only knows who wrote to the bot since it keeps track; Telegram knows better).
        """
        lang = self.langs.get(user.user_id, "de")
        body, entities = markup.mentions(text or t(lang, "tg.cannot_dm", name=user.name), [user])
        kb = markup.keyboard([[Button(t(lang, "tg.open"), url=markup.deep_link(self.username, payload))]])
        self.post(chat, body, entities, kb, unless_reachable=user if check else None, slot=slot)

    async def reachable(self, user: UserRef) -> bool:
        """Whether the bot may write to ``user`` privately (he started it and did not block it)."""
        if await self._refused_lately(user):
            return False
        try:
            await self.bot.send_chat_action(int(user.user_id), ChatAction.TYPING)
        except Forbidden as exc:
            await self._refused_now(user, exc)
            return False
        except BadRequest:
            return False
        return True

    async def chat_admin(self, chat: ChatRef, user: UserRef) -> bool:
        """Whether ``user`` administers the group ``chat`` (its owner or an administrator)."""
        try:
            member = await self.bot.get_chat_member(int(chat.chat_id), int(user.user_id))
        except TelegramError as exc:
            log.info("getChatMember in %s failed: %s", chat.key, exc)
            return False
        return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)

    def post(self, chat: ChatRef, text: str, entities: list[MessageEntity],
             keyboard: InlineKeyboardMarkup | None = None, unless_reachable: UserRef | None = None,
             slot: str = "") -> None:
        """Post a new message in ``chat`` (not if ``unless_reachable`` is given and the bot can write to him);
        a pending post of the same ``slot`` is replaced (by default every post has a slot of its own)."""
        thread = _thread(chat)

        async def send(chat_id: int) -> None:
            if unless_reachable is not None and await self.reachable(unless_reachable):
                return
            try:
                await post(self.bot, chat_id, text, self.outbox.turn, keyboard, entities, thread)
            except Forbidden as exc:
                log.warning("cannot post in chat %s: %s", chat_id, exc.message)

        self.outbox.put(Job(int(chat.chat_id), slot or f"post:{next(self._notices)}", send, rank=REPLY))

    def _put_in_place(self, chat_id: int, thread: int | None, table_id: str, key: str, text: str,
                      buttons: tuple[tuple[Button, ...], ...], version: int | None,
                      reached: Callable[[], None] = lambda: None,
                      refused: Callable[[str], None] = lambda reason: None, to: UserRef | None = None,
                      linger: float = 0.0, retire: bool = False, restart: bool = False,
                      hold: Callable[[], Awaitable[float]] | None = None) -> None:
        """Queue the edit (or first post) of the message kept under ``key``.

        A message private ``to`` a user is not tried while he cannot be reached (:meth:`_refused_lately`),
        and a 403 is remembered; ``reached``/``refused`` (with the reason) report whether it got to him.
        With ``retire``, a message replaced by a repost is deleted (or stripped of its buttons).
        """
        kb = markup.keyboard(buttons)
        shows = fingerprint(text, buttons)

        async def send(chat_id: int) -> None:
            if to is not None and (reason := await self._refused_lately(to)):
                refused(reason)
                return
            repost = (table_id, key) in self._reposts
            self._reposts.pop((table_id, key), None)
            ref = MessageRef.parse(await self.refs.get_ref(table_id, key))
            try:
                if ref and ref.chat_id == chat_id and not repost:
                    if version is not None and version <= ref.version:
                        reached()  # it shows this version (or a newer one) already
                        return
                    newer = ref._replace(version=ref.version if version is None else version, shows=shows)
                    if ref.shows == shows:  # the same content at a newer version: no edit, but keep older ones out
                        if newer != ref:
                            await self.refs.set_ref(table_id, key, str(newer))
                        reached()
                        return
                    if await self._edit(chat_id, ref.message_id, text, kb):
                        await self.refs.set_ref(table_id, key, str(newer))
                        reached()
                        return
                made = await post(self.bot, chat_id, text, self.outbox.turn, kb, thread=thread)
            except Forbidden as exc:
                if to is None:
                    raise
                refused(await self._refused_now(to, exc))
                return
            await self.refs.set_ref(table_id, key, str(MessageRef(chat_id, made, version or 0, shows)))
            reached()
            if ref and ref.chat_id == chat_id:
                if retire:
                    await self._retire(chat_id, ref.message_id)
                elif repost:  # a re-posted table message: the old one keeps no live buttons
                    old = ref.message_id
                    self.outbox.put(Job(chat_id, f"strip:{key}:{table_id}:{old}", lambda c: self._strip(c, old)))

        self.outbox.put(Job(chat_id, f"{key}:{table_id}", send, version, linger, restart=restart, hold=hold))

    async def _retire(self, chat_id: int, message_id: int) -> None:
        """Delete a replaced message; if it is too old to delete, take its buttons away."""
        try:
            await self.bot.delete_message(chat_id, message_id)
            return
        except BadRequest as exc:
            log.info("cannot delete message %s in %s (%s); removing its buttons", message_id, chat_id, exc.message)
        try:
            await self.bot.edit_message_reply_markup(chat_id, message_id, reply_markup=None)
        except BadRequest as exc:
            log.info("message %s in %s keeps its buttons: %s", message_id, chat_id, exc.message)

    async def _strip(self, chat_id: int, message_id: int) -> None:
        """Take the buttons off a message that was posted anew (a call of its own, paced like every call)."""
        try:
            await self.bot.edit_message_reply_markup(chat_id=chat_id, message_id=message_id, reply_markup=None)
        except BadRequest as exc:
            if not (not_modified(exc) or _gone(exc)):
                raise

    async def _edit(self, chat_id: int, message_id: int, text: str, kb: InlineKeyboardMarkup | None) -> bool:
        """Edit a message; false if it is gone (then it must be posted anew)."""
        try:
            await self.bot.edit_message_text(text, chat_id=chat_id, message_id=message_id, reply_markup=kb)
        except BadRequest as exc:
            if not_modified(exc):
                return True
            if _gone(exc):
                return False
            raise
        return True
