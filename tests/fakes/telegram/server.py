"""A fake Telegram Bot API server for end-to-end tests of the real python-telegram-bot.

The server listens on 127.0.0.1 (a random port) and answers the Bot API methods the bot uses
with Telegram's response shapes: ``{"ok": true, "result": ...}`` or ``{"ok": false,
"error_code": ..., "description": ..., "parameters": ...}``. It simulates the world around
the bot: users (who may never have started the bot, or have blocked it), groups and forum
topics (a group may be migrated to a supergroup), and the flood limits (about 20 messages a
minute in a group, one a second in any chat, about 30 a second per bot token in all),
answering 429 with ``retry_after`` and recording every violation; and the size limits, answering
400 as Telegram does: a text over 4,096 UTF-16 code units after entity parsing ("message is too
long"), a callback answer over 200 ("MESSAGE_TOO_LONG"), callback data outside 1-64 bytes
("BUTTON_DATA_INVALID"), a file above its size (documents 50 MB, photos 10 MB, 413 as Telegram's
gateway answers), a caption over 1,024 ("message caption is too long"), a photo that is no picture
("IMAGE_PROCESS_FAILED"), a command menu of more than 100 commands ("BOT_COMMANDS_TOO_MUCH") or with a name
outside 1-32 lowercase letters, digits and underscores or a description outside 1-256 characters (the Bot API's
current limits; older versions said 3-256). Updates are delivered by long polling (``getUpdates``) or, after
``setWebhook``, by POSTing them to the webhook (or to the test's workers, round robin); a
method the webhook returns in its response (JSON with ``method``) is carried out like a call,
validated the same way, and recorded with :data:`VIA_REPLY` among its parameters.

Message ids are numbered as Telegram does: a supergroup's messages one after another in the chat; those of
private chats and basic groups in one sequence of the bot account (a message in one such chat takes an id
after every message of any other). Users' messages take their ids too, and an edit of one is refused
("message can't be edited"), of an id not in the chat ("message to edit not found"), of the very content a
message of the bot's shows already ("message is not modified").

Everything the bot did is kept in a transcript: every message per chat with its text, entities
and inline keyboard, its edits, and the answered callback queries. Simulated users act through
:class:`FakeUser`: send text, press a button the bot sent, follow a deep link.
"""

from __future__ import annotations

import asyncio
import html
import itertools
import json
import math
import re
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlparse

import aiohttp
from aiohttp import web

from tests.fakes.changes import Changes

__all__ = ["FakeTelegram", "FakeUser", "Sent", "Upload", "Violation", "ApiError", "VIA_REPLY", "TEXT_MAX",
           "ANSWER_MAX", "CAPTION_MAX", "DOCUMENT_MAX", "PHOTO_MAX"]

VIA_REPLY = "_via_webhook_reply"
"""The parameter that marks a recorded call as carried out from a webhook reply (not an HTTP call of the bot)."""

TEXT_MAX = 4096
"""The most UTF-16 code units of a message's text after entity parsing."""
ANSWER_MAX = 200
"""The most characters of the text answering a callback query."""
CAPTION_MAX = 1024
"""The most characters of a document's or photo's caption."""
DOCUMENT_MAX, PHOTO_MAX = 50 * 1024 * 1024, 10 * 1024 * 1024
"""The most bytes a bot may upload as a document, as a photo."""
_PNG = b"\x89PNG\r\n\x1a\n"

# Parameters PTB sends as plain strings (every other value arrives JSON-encoded).
_STRING_PARAMS = {"text", "caption", "parse_mode", "callback_query_id", "url", "action", "secret_token",
                  "description", "short_description", "language_code"}


class ApiError(Exception):
    """A Bot API error answer: HTTP status, description and optional parameters."""

    def __init__(self, code: int, description: str, parameters: dict | None = None):
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters


@dataclass(frozen=True)
class Upload:
    """A file the bot sent: ``kind`` "document" or "photo", the file's name and bytes."""

    kind: str
    filename: str
    data: bytes


@dataclass
class Sent:
    """One message the bot sent, with its current content and its history of contents
    (a document or photo: its caption as ``text``, the file as ``upload``)."""

    chat_id: int
    message_id: int
    text: str
    markup: dict | None
    entities: list[dict]
    thread: int | None
    history: list[tuple[str, dict | None]] = field(default_factory=list)
    upload: Upload | None = None

    @property
    def buttons(self) -> list[dict]:
        """The inline buttons, row by row flattened: dicts with ``text`` and ``callback_data`` or ``url``."""
        rows = (self.markup or {}).get("inline_keyboard", [])
        return [b for row in rows for b in row]

    def button(self, label: str) -> dict:
        """The first button whose label contains ``label`` (``LookupError`` if none)."""
        for b in self.buttons:
            if label in b["text"]:
                return b
        raise LookupError(f"no button {label!r} in message {self.message_id}: {[b['text'] for b in self.buttons]}")


@dataclass(frozen=True)
class Violation:
    """A call refused because a chat exceeded a flood limit."""

    chat_id: int
    method: str
    at: float
    rule: str


@dataclass
class _Chat:
    id: int
    type: str
    title: str = ""
    forum: bool = False
    migrated_to: int | None = None
    first_name: str = ""
    admins: set[int] = field(default_factory=set)


class FakeUser:
    """A simulated Telegram user: a name, a client language, whether he started or blocked the bot."""

    def __init__(self, server: "FakeTelegram", user_id: int, first_name: str, language_code: str = "de"):
        self.server = server
        self.id = user_id
        self.first_name = first_name
        self.language_code = language_code
        self.started = False
        self.blocked = False

    def as_dict(self) -> dict:
        """The ``User`` object of this user."""
        return {"id": self.id, "is_bot": False, "first_name": self.first_name, "language_code": self.language_code}

    def send(self, chat_id: int | None, text: str, thread: int | None = None) -> int:
        """Send ``text`` to a group (``chat_id``) or, with ``chat_id=None``, privately to the bot; the update id."""
        return self.server.user_message(self, self.id if chat_id is None else chat_id, text, thread)

    def start(self, payload: str = "") -> int:
        """Open the private chat with the bot (``/start`` or ``/start payload``); the update id."""
        return self.send(None, f"/start {payload}".strip())

    def follow(self, url: str) -> int:
        """Follow a ``t.me/<bot>?start=<payload>`` deep link: opens the private chat and starts with it."""
        parsed = urlparse(url if "://" in url else f"https://{url}")
        assert parsed.netloc == "t.me" and parsed.path.strip("/") == self.server.username, url
        payload = parse_qs(parsed.query).get("start", [""])[0]
        return self.start(payload)

    def press(self, message: Sent, label: str | None = None, data: str | None = None) -> str:
        """Press a button (by label) on ``message``, or send forged ``data``; the callback query id."""
        if data is None:
            button = message.button(label or "")
            assert "callback_data" in button, button
            data = button["callback_data"]
        return self.server.callback(self, message, data)

    def block(self) -> None:
        """Block the bot: every message to him is refused with 403 until he writes to the bot again."""
        self.blocked = True


class FakeTelegram:
    """The fake Bot API server. Use ``async with FakeTelegram() as tg`` and ``tg.base_url``.

    Args:
        token: the bot token the bot must use in its URLs.
        username: the bot's username.
        group_limit: (messages, seconds): at most that many messages in any window to a group.
        chat_limit: (messages, seconds): at most that many messages in any window to any chat.
        global_limit: (messages, seconds): at most that many messages in any window in all chats.
        patience: seconds the ``wait_*`` methods wait by default before they fail (a safety net
            only: they return as soon as what they wait for happens).
        port: the port to listen on (0: a free one).
    """

    def __init__(self, token: str = "123456:TEST-TOKEN", username: str = "stammtisch_test_bot",
                 group_limit: tuple[int, float] = (20, 60.0), chat_limit: tuple[int, float] = (1, 1.0),
                 global_limit: tuple[int, float] = (30, 1.0), patience: float = 60.0, port: int = 0):
        self.token = token
        self.patience = patience
        self.username = username
        self.bot_id = int(token.split(":")[0])
        self.group_limit = group_limit
        self.chat_limit = chat_limit
        self.global_limit = global_limit
        self.deleted: list[tuple[int, int]] = []
        self.fail_deletes = False
        """Refuse to delete messages (Telegram does for messages older than 48 hours)."""
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, _Chat] = {}
        self.topics: dict[int, tuple[int, str]] = {}
        """Forum topics the bot opened: thread id -> (chat id, name)."""
        self.messages: dict[int, dict[int, Sent]] = defaultdict(dict)
        self.calls: list[tuple[float, str, dict, int]] = []
        self.violations: list[Violation] = []
        self.answers: dict[str, dict] = {}
        self.commands: dict[str, list[dict]] = {}
        self.webhook: dict | None = None
        self.webhook_targets: list[str] = []
        self.webhook_deliveries: list[tuple[int, str, int]] = []
        self._sends: dict[int, deque[float]] = defaultdict(deque)
        self._all_sends: deque[float] = deque()
        self._callbacks: dict[str, dict] = {}
        self._updates: list[dict] = []
        self._taken: list[dict] = []
        self._replayed: set[int] = set()
        self._in_flight = 0
        self._polled = -1  # the highest update id a long poll handed out: confirmed once the offset passes it
        self._offset = 0
        self._update_ids = itertools.count(1000)
        self._message_ids: dict[int, itertools.count] = defaultdict(lambda: itertools.count(1))  # by sequence
        self.others: dict[int, set[int]] = defaultdict(set)
        """The ids of the users' messages, by chat."""
        self.withhold: asyncio.Event | None = None
        """While an event: each message sent is made, but its answer waits until the event is set (a test kills
        its sender meanwhile)."""
        self._callback_ids = itertools.count(1)
        self._new_update = asyncio.Condition()
        self._changes = Changes()
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None
        self._pusher: asyncio.Task | None = None
        self._closing = False
        self.port = port

    # -- lifecycle ---------------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """The Bot API base URL to give PTB's ``base_url`` (the token is appended)."""
        return f"http://127.0.0.1:{self.port}/bot"

    async def __aenter__(self) -> "FakeTelegram":
        app = web.Application(client_max_size=DOCUMENT_MAX + 1024 * 1024)  # Telegram itself says 413 above 50 MB
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        self._site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await self._site.start()
        self.port = self._site._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc) -> None:
        self._closing = True
        async with self._new_update:
            self._new_update.notify_all()
        if self._pusher:
            self._pusher.cancel()
        if self._runner:
            await self._runner.cleanup()

    # -- the world -------------------------------------------------------------------------------

    def user(self, user_id: int, first_name: str, language_code: str = "de", started: bool = False) -> FakeUser:
        """A new simulated user (``started``: he has opened the private chat with the bot before)."""
        u = FakeUser(self, user_id, first_name, language_code)
        u.started = started
        self.users[user_id] = u
        self.chats[user_id] = _Chat(user_id, "private", first_name=first_name)
        return u

    def group(self, chat_id: int, title: str, forum: bool = False) -> int:
        """A new group chat (a supergroup if ``chat_id`` starts with -100 or ``forum``); its id."""
        kind = "supergroup" if forum or str(chat_id).startswith("-100") else "group"
        self.chats[chat_id] = _Chat(chat_id, kind, title=title, forum=forum)
        return chat_id

    def make_admin(self, chat_id: int, user: FakeUser) -> None:
        """Make ``user`` an administrator of the group ``chat_id`` (``getChatMember`` tells so)."""
        self.chats[chat_id].admins.add(user.id)

    def migrate(self, chat_id: int, new_id: int) -> None:
        """Upgrade a group to a supergroup with a new id; the old id answers 400 with migrate_to_chat_id."""
        old = self.chats[chat_id]
        old.migrated_to = new_id
        self.chats[new_id] = _Chat(new_id, "supergroup", title=old.title)
        self._push({"message": {"message_id": self._next_id(old), "date": int(time.time()),
                                "chat": self._chat_dict(chat_id), "migrate_to_chat_id": new_id}})

    # -- what the users do -------------------------------------------------------------------------

    def user_message(self, user: FakeUser, chat_id: int, text: str, thread: int | None = None) -> int:
        """A text message of ``user`` in ``chat_id``, as an update; a private message means he started the bot."""
        if chat_id == user.id:
            user.started = True
            user.blocked = False
        message_id = self._next_id(self.chats[chat_id])
        self.others[chat_id].add(message_id)
        msg: dict[str, Any] = {"message_id": message_id, "date": int(time.time()),
                               "chat": self._chat_dict(chat_id), "from": user.as_dict(), "text": text}
        if text.startswith("/"):
            msg["entities"] = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
        if thread is not None:
            msg["message_thread_id"] = thread
            msg["is_topic_message"] = True
        return self._push({"message": msg})

    def callback(self, user: FakeUser, message: Sent, data: str) -> str:
        """``user`` pressed a button with ``data`` on ``message``; the callback query id."""
        qid = f"cq{next(self._callback_ids)}"
        self._callbacks[qid] = {"user": user.id, "data": data, "message": message.message_id, "chat": message.chat_id}
        self._push({"callback_query": {"id": qid, "from": user.as_dict(), "chat_instance": str(message.chat_id),
                                       "data": data, "message": self._message_dict(message)}})
        return qid

    def replay(self, update_id: int) -> None:
        """Deliver an already delivered update once more (Telegram delivers at least once)."""
        for u in self.delivered:
            if u["update_id"] == update_id:
                self._replayed.add(update_id)
                self._updates.append(u)
                self._wake()
                return
        raise LookupError(update_id)

    # -- the transcript ----------------------------------------------------------------------------

    def chat(self, chat_id: int) -> list[Sent]:
        """Every message the bot sent to ``chat_id``, oldest first."""
        return list(self.messages[chat_id].values())

    def last(self, chat_id: int) -> Sent:
        """The newest message the bot sent to ``chat_id``."""
        msgs = self.chat(chat_id)
        assert msgs, f"the bot sent nothing to {chat_id}"
        return msgs[-1]

    def pressed(self, qid: str) -> dict:
        """What callback query ``qid`` was: ``user``, ``data``, ``message``, ``chat``."""
        return self._callbacks[qid]

    def calls_of(self, method: str) -> list[dict]:
        """The parameters of every successful call of ``method`` (webhook replies included: see :data:`VIA_REPLY`)."""
        return [p for _, m, p, status in self.calls if m == method and status == 200]

    async def wait_for(self, predicate, timeout: float | None = None, what: str = "condition"):
        """Wait until ``predicate()`` is truthy and return its value (``AssertionError`` on timeout); it is
        checked again on every change of the fake (a call, an update, a delivery, :meth:`touch`)."""
        return await self._changes.until(predicate, self.patience if timeout is None else timeout, what)

    def touch(self) -> None:
        """Wake everyone waiting in :meth:`wait_for` (something it may wait for changed outside the fake)."""
        self._changes.touch()

    async def wait_answer(self, qid: str, timeout: float | None = None) -> dict:
        """Wait until callback query ``qid`` is answered; the answer's parameters."""
        return await self.wait_for(lambda: self.answers.get(qid), timeout, f"the answer to {qid}")

    async def drained(self, timeout: float | None = None) -> None:
        """Wait until every injected update was fetched and confirmed (polling) or delivered (webhook)."""
        await self.wait_for(lambda: not self._updates and not self._in_flight and self._polled < self._offset, timeout,
                            "the updates to be taken")

    @property
    def delivered(self) -> list[dict]:
        """Every update taken by the bot so far."""
        return self._taken

    # -- internals ---------------------------------------------------------------------------------

    def _push(self, update: dict) -> int:
        uid = next(self._update_ids)
        update = {"update_id": uid, **update}
        self._updates.append(update)
        self._wake()
        return uid

    def _wake(self) -> None:
        self._changes.touch()

        async def notify():
            async with self._new_update:
                self._new_update.notify_all()
        asyncio.get_running_loop().create_task(notify())

    def _chat_dict(self, chat_id: int) -> dict:
        c = self.chats[chat_id]
        out: dict[str, Any] = {"id": c.id, "type": c.type}
        if c.type == "private":
            out["first_name"] = c.first_name
        else:
            out["title"] = c.title
            if c.forum:
                out["is_forum"] = True
        return out

    def _bot_dict(self) -> dict:
        return {"id": self.bot_id, "is_bot": True, "first_name": "Stammtisch", "username": self.username}

    def _message_dict(self, m: Sent) -> dict:
        out: dict[str, Any] = {"message_id": m.message_id, "date": int(time.time()), "chat": self._chat_dict(m.chat_id),
                               "from": self._bot_dict()}
        if m.upload is None:
            out["text"] = m.text
        else:
            out["caption"] = m.text
            size = len(m.upload.data)
            if m.upload.kind == "photo":
                out["photo"] = [{"file_id": f"photo{m.message_id}", "file_unique_id": f"p{m.message_id}",
                                 "width": 1, "height": 1, "file_size": size}]
            else:
                out["document"] = {"file_id": f"doc{m.message_id}", "file_unique_id": f"d{m.message_id}",
                                   "file_name": m.upload.filename, "file_size": size}
        if m.entities:
            out["entities"] = m.entities
        if m.markup:
            out["reply_markup"] = m.markup
        if m.thread is not None:
            out["message_thread_id"] = m.thread
            out["is_topic_message"] = True
        return out

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if request.match_info["token"] != self.token:
            return web.json_response({"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401)
        status, body = await self._call(method, await self._params(request))
        if method == "getUpdates" and status == 200 and (request.transport is None or request.transport.is_closing()):
            self._untake(body["result"])  # the poll's client has gone: never confirmed, so Telegram delivers them again
        return web.json_response(body, status=status)

    async def _call(self, method: str, params: dict) -> tuple[int, dict]:
        """Carry out a method, record it in :attr:`calls`; the HTTP status and Telegram's answer."""
        handler = getattr(self, f"_m_{method}", None)
        try:
            if handler is None:
                raise ApiError(404, "Not Found: method not found")
            result = await handler(params)
        except ApiError as exc:
            self.calls.append((time.monotonic(), method, params, exc.code))
            self._changes.touch()
            body: dict[str, Any] = {"ok": False, "error_code": exc.code, "description": exc.description}
            if exc.parameters:
                body["parameters"] = exc.parameters
            return exc.code, body
        self.calls.append((time.monotonic(), method, params, 200))
        self._changes.touch()
        return 200, {"ok": True, "result": result}

    @staticmethod
    async def _params(request: web.Request) -> dict:
        if request.content_type == "application/json":
            return await request.json()
        form = await request.post()
        out: dict[str, Any] = {}
        for key, value in form.items():
            if key in _STRING_PARAMS or not isinstance(value, str):
                out[key] = value
                continue
            try:
                out[key] = json.loads(value)
            except ValueError:
                out[key] = value
        return out

    def _target(self, params: dict) -> _Chat:
        chat_id = params.get("chat_id")
        try:
            chat = self.chats[int(chat_id)]
        except (TypeError, ValueError, KeyError):
            raise ApiError(400, "Bad Request: chat not found") from None
        if chat.migrated_to is not None:
            raise ApiError(400, "Bad Request: group chat was upgraded to a supergroup chat",
                           {"migrate_to_chat_id": chat.migrated_to})
        if chat.type == "private":
            user = self.users[chat.id]
            if user.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if not user.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        return chat

    def _next_id(self, chat: _Chat) -> int:
        """The id of a new message in ``chat``: the next of the supergroup's own sequence, or of the bot's."""
        return next(self._message_ids[chat.id if chat.type in ("supergroup", "channel") else 0])

    def _flood(self, chat: _Chat, method: str) -> None:
        now = time.monotonic()
        sends = self._sends[chat.id]
        rules = [("chat", sends, *self.chat_limit), ("global", self._all_sends, *self.global_limit)]
        if chat.type != "private":
            rules.append(("group", sends, *self.group_limit))
        for rule, log, limit, window in rules:
            recent = [t for t in log if t > now - window]
            if len(recent) >= limit:
                self.violations.append(Violation(chat.id, method, now, rule))
                wait = recent[-limit] + window - now
                raise ApiError(429, f"Too Many Requests: retry after {max(1, math.ceil(wait))}",
                               {"retry_after": max(1, math.ceil(wait))})
        sends.append(now)
        horizon = max(self.chat_limit[1], self.group_limit[1])
        while sends and sends[0] < now - horizon:
            sends.popleft()
        self._all_sends.append(now)
        while self._all_sends and self._all_sends[0] < now - self.global_limit[1]:
            self._all_sends.popleft()

    @staticmethod
    def _check_text(params: dict) -> str:
        """The text of a message, refused as Telegram does: empty, or over 4,096 UTF-16 units once its
        entities are parsed (``parse_mode`` markup does not count)."""
        text = params.get("text")
        shown = _parsed(text, params.get("parse_mode")) if isinstance(text, str) else ""
        if not shown.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        if _utf16_len(shown) > TEXT_MAX:
            raise ApiError(400, "Bad Request: message is too long")
        return text

    def _check_markup(self, params: dict) -> dict | None:
        markup = params.get("reply_markup")
        if markup is None:
            return None
        for row in markup.get("inline_keyboard", []):
            for b in row:
                if not b.get("text"):
                    raise ApiError(400, "Bad Request: text buttons are unallowed in the inline keyboard")
                data = b.get("callback_data")
                if data is not None and not 1 <= len(data.encode()) <= 64:
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
                url = b.get("url")
                if url is not None and not url.startswith(("https://", "http://", "tg://")):
                    raise ApiError(400, "Bad Request: inline keyboard button URL is invalid")
                web_app = b.get("web_app")  # a Mini App: HTTPS, and in private chats only
                if web_app is not None and not (str(web_app.get("url", "")).startswith("https://")
                                                and int(params.get("chat_id", 0)) > 0):
                    raise ApiError(400, "Bad Request: BUTTON_TYPE_INVALID")
                if [data, url, web_app].count(None) != 2:
                    raise ApiError(400, "Bad Request: can't parse inline keyboard button")
        return markup

    # -- methods -----------------------------------------------------------------------------------

    async def _m_getMe(self, params: dict) -> dict:
        return {**self._bot_dict(), "can_join_groups": True, "can_read_all_group_messages": False,
                "supports_inline_queries": False}

    async def _m_getUpdates(self, params: dict) -> list[dict]:
        if self.webhook:
            raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active; "
                                "use deleteWebhook to delete the webhook first")
        offset = int(params.get("offset") or 0)
        if offset:
            self._offset = max(self._offset, offset)
        self._updates = [u for u in self._updates if u["update_id"] >= self._offset or u["update_id"] in self._replayed]
        self._changes.touch()  # the confirmed updates are gone: drained() may hold now
        limit = int(params.get("limit") or 100)
        timeout = float(params.get("timeout") or 0)
        deadline = time.monotonic() + timeout
        async with self._new_update:
            while not self._pending() and not self._closing:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                try:
                    await asyncio.wait_for(self._new_update.wait(), left)
                except asyncio.TimeoutError:
                    break
        batch = self._pending()[:limit]
        for u in batch:
            self._updates.remove(u)
            self._replayed.discard(u["update_id"])
            self._taken.append(u)
            self._polled = max(self._polled, u["update_id"])
        return batch

    def _untake(self, batch: list[dict]) -> None:
        """Put back updates handed to a long poll nobody listens to any more."""
        for u in batch:
            last = len(self._taken) - 1 - self._taken[::-1].index(u)
            del self._taken[last]
            self._updates.append(u)
            if u["update_id"] < self._offset:
                self._replayed.add(u["update_id"])
        if batch:
            self._wake()

    def _pending(self) -> list[dict]:
        return sorted(self._updates, key=lambda u: u["update_id"])

    async def _m_setMyCommands(self, params: dict) -> bool:
        cmds = params.get("commands") or []
        if len(cmds) > 100:  # the Bot API: at most 100 commands
            raise ApiError(400, "Bad Request: BOT_COMMANDS_TOO_MUCH")
        for c in cmds:
            name = c.get("command", "")
            if not (1 <= len(name) <= 32 and name == name.lower() and name.replace("_", "").isalnum()):
                raise ApiError(400, f"Bad Request: BOT_COMMAND_INVALID ({name})")
            if not 1 <= len(c.get("description", "")) <= 256:
                raise ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
        self.commands[params.get("language_code") or ""] = cmds
        return True

    async def _m_deleteWebhook(self, params: dict) -> bool:
        self.webhook = None
        if params.get("drop_pending_updates"):
            self._updates.clear()
        return True

    async def _m_setWebhook(self, params: dict) -> bool:
        url = params.get("url") or ""
        if not url:
            return await self._m_deleteWebhook(params)
        self.webhook = {"url": url, "secret_token": params.get("secret_token") or ""}
        if self._pusher is None:
            self._pusher = asyncio.get_running_loop().create_task(self._push_webhooks())
        self._wake()  # updates that waited for a webhook go now
        return True

    async def _m_createForumTopic(self, params: dict) -> dict:
        """A new forum topic: its thread id (refused in a chat that is no forum, as Telegram does)."""
        chat = self._target(params)
        if not chat.forum:
            raise ApiError(400, "Bad Request: the chat is not a forum")
        self._flood(chat, "createForumTopic")
        thread = 1000 + len(self.topics)
        self.topics[thread] = (chat.id, str(params.get("name", "")))
        return {"message_thread_id": thread, "name": self.topics[thread][1], "icon_color": 7322096}

    async def _m_sendMessage(self, params: dict) -> dict:
        chat = self._target(params)
        text = self._check_text(params)
        markup = self._check_markup(params)
        thread = params.get("message_thread_id")
        if thread is not None and not chat.forum:
            raise ApiError(400, "Bad Request: message thread not found")
        self._flood(chat, "sendMessage")
        m = Sent(chat.id, self._next_id(chat), text, markup, params.get("entities") or [],
                 int(thread) if thread is not None else None)
        m.history.append((text, markup))
        self.messages[chat.id][m.message_id] = m
        if self.withhold is not None:
            await self.withhold.wait()
        return self._message_dict(m)

    async def _m_sendDocument(self, params: dict) -> dict:
        return self._upload(params, "document", DOCUMENT_MAX)

    async def _m_sendPhoto(self, params: dict) -> dict:
        return self._upload(params, "photo", PHOTO_MAX)

    def _upload(self, params: dict, kind: str, most: int) -> dict:
        """A new message with the file uploaded as ``params[kind]`` (a multipart file field)."""
        chat = self._target(params)
        field_ = params.get(kind)
        if field_ is None or isinstance(field_, str):
            raise ApiError(400, f"Bad Request: there is no {kind} in the request")
        data = field_.file.read()
        if len(data) > most:
            raise ApiError(413, "Request Entity Too Large")
        if kind == "photo" and not data.startswith(_PNG):
            raise ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED")
        caption = params.get("caption") or ""
        if len(caption) > CAPTION_MAX:
            raise ApiError(400, "Bad Request: message caption is too long")
        thread = params.get("message_thread_id")
        if thread is not None and not chat.forum:
            raise ApiError(400, "Bad Request: message thread not found")
        self._flood(chat, f"send{kind.title()}")
        m = Sent(chat.id, self._next_id(chat), caption, None, [],
                 int(thread) if thread is not None else None, upload=Upload(kind, field_.filename or "", data))
        m.history.append((caption, None))
        self.messages[chat.id][m.message_id] = m
        return self._message_dict(m)

    async def _m_editMessageText(self, params: dict) -> dict:
        chat = self._target(params)
        text = self._check_text(params)
        markup = self._check_markup(params)
        message_id = int(params.get("message_id") or 0)
        if message_id in self.others[chat.id]:
            raise ApiError(400, "Bad Request: message can't be edited")
        m = self.messages[chat.id].get(message_id)
        if m is None:
            raise ApiError(400, "Bad Request: message to edit not found")
        if m.text == text and m.markup == markup and m.entities == (params.get("entities") or []):
            raise ApiError(400, "Bad Request: message is not modified: specified new message content and "
                                "reply markup are exactly the same as a current content and reply markup of "
                                "the message")
        self._flood(chat, "editMessageText")
        m.text, m.markup, m.entities = text, markup, params.get("entities") or []
        m.history.append((text, markup))
        return self._message_dict(m)

    async def _m_deleteMessage(self, params: dict) -> bool:
        chat = self._target(params)
        message_id = int(params.get("message_id") or 0)
        if self.fail_deletes and message_id in self.messages[chat.id]:
            raise ApiError(400, "Bad Request: message can't be deleted for everyone")
        if self.messages[chat.id].pop(message_id, None) is None:
            raise ApiError(400, "Bad Request: message to delete not found")
        self.deleted.append((chat.id, message_id))
        return True

    async def _m_editMessageReplyMarkup(self, params: dict) -> dict:
        chat = self._target(params)
        m = self.messages[chat.id].get(int(params.get("message_id") or 0))
        if m is None:
            raise ApiError(400, "Bad Request: message to edit not found")
        markup = self._check_markup(params)
        if m.markup == markup:
            raise ApiError(400, "Bad Request: message is not modified")
        m.markup = markup
        m.history.append((m.text, markup))
        return self._message_dict(m)

    async def _m_answerCallbackQuery(self, params: dict) -> bool:
        qid = params.get("callback_query_id")
        if qid not in self._callbacks or qid in self.answers:
            raise ApiError(400, "Bad Request: query is too old and response timeout expired or query ID is invalid")
        url = params.get("url")
        if url:
            parsed = urlparse(url if "://" in url else f"https://{url}")
            if parsed.netloc != "t.me" or parsed.path.strip("/") != self.username or "start=" not in parsed.query:
                raise ApiError(400, "Bad Request: URL_INVALID")
        if _utf16_len(params.get("text") or "") > ANSWER_MAX:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        self.answers[qid] = params
        return True

    async def _m_sendChatAction(self, params: dict) -> bool:
        self._target(params)
        return True

    async def _m_getChatMember(self, params: dict) -> dict:
        chat = self._target(params)
        try:
            user = self.users[int(params.get("user_id"))]
        except (TypeError, ValueError, KeyError):
            raise ApiError(400, "Bad Request: user not found") from None
        status = "administrator" if user.id in chat.admins else "member"
        extra = {"can_be_edited": False, "is_anonymous": False, "can_manage_chat": True, "can_delete_messages": True,
                 "can_manage_video_chats": True, "can_restrict_members": True, "can_promote_members": False,
                 "can_change_info": True, "can_invite_users": True, "can_post_stories": False,
                 "can_edit_stories": False, "can_delete_stories": False} if status == "administrator" else {}
        return {"status": status, "user": user.as_dict(), **extra}

    async def _m_getChat(self, params: dict) -> dict:
        chat = self._target(params)
        return self._chat_dict(chat.id)

    # -- webhook delivery --------------------------------------------------------------------------

    async def _push_webhooks(self) -> None:
        """Deliver pending updates by POST, round robin over ``webhook_targets`` (else the webhook URL)."""
        turn = itertools.count()
        async with aiohttp.ClientSession() as http:
            while not self._closing:
                async with self._new_update:  # pending updates and a webhook to post them to (or closing)
                    while not (self._pending() and self.webhook) and not self._closing:
                        await self._new_update.wait()
                if not self.webhook:  # closing
                    continue
                batch = self._pending()
                for u in batch:
                    self._updates.remove(u)
                    self._in_flight += 1
                    targets = self.webhook_targets or [self.webhook["url"]]
                    target = targets[next(turn) % len(targets)]
                    asyncio.get_running_loop().create_task(self._post(http, target, u))

    async def _post(self, http: aiohttp.ClientSession, url: str, update: dict) -> None:
        headers = {}
        if self.webhook and self.webhook["secret_token"]:
            headers["X-Telegram-Bot-Api-Secret-Token"] = self.webhook["secret_token"]
        reply = None
        try:
            async with http.post(url, json=update, headers=headers) as resp:
                status = resp.status
                if status == 200 and resp.content_type == "application/json":
                    reply = await resp.json()
        except (aiohttp.ClientError, ValueError):
            status = 0
        self.webhook_deliveries.append((update["update_id"], url, status))
        if isinstance(reply, dict) and isinstance(reply.get("method"), str):
            # Telegram carries out a method given in the reply; the bot never learns its result
            params = {k: v for k, v in reply.items() if k != "method"}
            await self._call(reply["method"], {**params, VIA_REPLY: True})
        self._in_flight -= 1
        if status == 200:
            self._taken.append(update)
            self._changes.touch()
        elif not self._closing:
            await asyncio.sleep(0.05)
            self._updates.append(update)
            self._wake()


_HTML_TAG = re.compile(r"<[^>]*>")
_MARKDOWN_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_MARKDOWN_MARK = re.compile(r"(?<!\\)[*_`~|]")
_MARKDOWN_ESCAPE = re.compile(r"\\(.)")


def _parsed(text: str, parse_mode: str | None) -> str:
    """What a message's text shows once its ``parse_mode`` markup is parsed into entities."""
    mode = (parse_mode or "").lower()
    if mode == "html":
        return html.unescape(_HTML_TAG.sub("", text))
    if mode in ("markdown", "markdownv2"):
        return _MARKDOWN_ESCAPE.sub(r"\1", _MARKDOWN_MARK.sub("", _MARKDOWN_LINK.sub(r"\1", text)))
    return text


def _utf16_len(text: str) -> int:
    """The length of ``text`` in UTF-16 code units, the unit of Telegram's limits."""
    return len(text.encode("utf-16-le")) // 2
