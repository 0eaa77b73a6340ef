"""A fake Discord: the REST API and the gateway WebSocket the real discord.py client talks to.

It keeps guilds, channels, members, direct messages and every message with its edit history,
answers with Discord's payload shapes and errors, and lets tests act as members: run a slash
command, press a button on a message they see. What it enforces, as Discord does:

- an interaction is answered once, within ``ack_window_s`` (else 10062 Unknown interaction;
  twice is 40060), and its token edits the original response afterwards;
- a member with closed DMs cannot be written to (403, 50007);
- at most ``channel_limit`` messages and edits per channel per window (429 with ``retry_after``);
- an edit of a message marked ``too_old`` fails with 30046, of a deleted one with 10008;
- only the member an ephemeral message was made for sees it;
- a message's size limits (a post, an edit, an interaction's answer or follow-up, ephemeral or
  not): content of at most 2,000 characters, at most 5 rows of at most 5 buttons, a label of at
  most 80 characters, a custom id of 1-100; else 400 with code 50035 (Invalid Form Body) and the
  field's error, as Discord answers;
- a message's files (multipart ``files[n]``): at most 10 (50035), at most 10 MB together, the limit
  of a bot without boosts (413, 40005 Request entity too large);
- the slash commands' limits (:mod:`.commands`: names, descriptions, options, choices, at most 100), 50035;
- a message posted with a ``nonce`` (at most 25 characters, else 50035) and ``enforce_nonce``: if the bot made a
  message with that nonce in the channel within ``nonce_window_s`` (Discord: "the past few minutes"), that
  message is the answer and none is made (the request counts against the channel's limit all the same);
- a thread (``POST /channels/{id}/threads``) opens only in a guild's text channel (else 400, 50024) not
  listed in :attr:`FakeDiscord.no_threads` (403, 50001 Missing Access); it is a channel of type 11
  with its ``parent_id``, where messages are posted and interactions happen as in any channel;
- a guild's events go to every ready session of its shard (``(guild_id >> 22) % shard_count``; a direct message's to
  shard 0's), so two sessions identified as one shard both receive them; an interaction while no session of its shard
  is connected is lost (recorded in :attr:`FakeDiscord.lost`; the member sees "This interaction failed" once the
  answer's window has passed, and it is never sent again).

Every REST call is recorded in :attr:`FakeDiscord.calls` for the benchmarks and tests.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakes.changes import Changes
from . import commands

__all__ = ["FakeDiscord", "Member", "Msg", "Call", "CONTENT_MAX", "LABEL_MAX", "CUSTOM_ID_MAX", "FILES_MAX",
           "UPLOAD_MAX"]

EPHEMERAL = 64
NONCE_MAX = 25
_EPOCH_MS = 1420070400000
_MEMBER_PERMISSIONS = 2248473465835073
"""What an ordinary member may in the fake's channels."""
_MANAGE_GUILD = 1 << 5


def _snowflake(counter=itertools.count(1)) -> int:
    return ((int(time.time() * 1000) - _EPOCH_MS) << 22) | (next(counter) & 0x3FFFFF)


def _json(data: Any, status: int = 200, headers: dict | None = None) -> web.Response:
    """A JSON response with Discord's exact content type (discord.py compares it as is)."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"code": code, "message": message}, status=status)


CONTENT_MAX, LABEL_MAX, CUSTOM_ID_MAX, ROWS_MAX, ROW_MAX = 2000, 80, 100, 5, 5
"""A message's limits: characters of content, of a button label and custom id; rows, buttons per row."""


FILES_MAX, UPLOAD_MAX = 10, 10 * 1024 * 1024
"""A message's most files, and their most bytes together (a bot in a server without boosts)."""


def _too_long(limit: int) -> dict:
    return {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {limit} or fewer in length."}]}


def _form_errors(body: dict) -> dict:
    """What Discord finds wrong with a message body's sizes, by field (empty: nothing)."""
    errors: dict[str, Any] = {}
    if len(body.get("content") or "") > CONTENT_MAX:
        errors["content"] = _too_long(CONTENT_MAX)
    if len(str(body.get("nonce") or "")) > NONCE_MAX:
        errors["nonce"] = _too_long(NONCE_MAX)
    rows = body.get("components") or []
    if len(rows) > ROWS_MAX:
        errors["components"] = _too_long(ROWS_MAX)
    for r, row in enumerate(rows[:ROWS_MAX]):
        items = row.get("components") or []
        found: dict[str, Any] = {}
        if len(items) > ROW_MAX:
            found["components"] = _too_long(ROW_MAX)
        for i, item in enumerate(items):
            bad = {}
            if len(item.get("label") or "") > LABEL_MAX:
                bad["label"] = _too_long(LABEL_MAX)
            if "custom_id" in item and not 1 <= len(item["custom_id"]) <= CUSTOM_ID_MAX:
                bad["custom_id"] = {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH",
                                                 "message": f"Must be between 1 and {CUSTOM_ID_MAX} in length."}]}
            if bad:
                found.setdefault("components", {})[str(i)] = bad
        if found:
            errors.setdefault("components", {})[str(r)] = found
    return errors


def _files_refused(body: dict) -> web.Response | None:
    """Discord's answer to a message's files beyond its limits (``None``: they fit)."""
    if body.get("_uploads", 0) > FILES_MAX:
        return _invalid({"files": _too_long(FILES_MAX)})
    if sum(len(d) for d in body.get("_files", {}).values()) > UPLOAD_MAX:
        return _error(413, 40005, "Request entity too large")
    return None


def _invalid(errors: dict) -> web.Response:
    return _json({"code": 50035, "errors": errors, "message": "Invalid Form Body"}, status=400)


@dataclass
class Call:
    """One REST call: method, route pattern, channel (if any), HTTP status, when; its body as read (``body``) and
    the interaction it answered or followed up (``interaction``), for a trace."""

    method: str
    route: str
    channel: int | None
    status: int
    at: float
    body: dict = field(default_factory=dict, repr=False, compare=False)
    interaction: int | None = field(default=None, compare=False)


@dataclass
class Msg:
    """A message as Discord keeps it; ``history`` holds (content, components) of every version, ``times``
    when each version appeared (``time.monotonic()``)."""

    id: int
    channel_id: int
    content: str
    components: list
    author_id: int
    flags: int = 0
    for_user: int | None = None
    """Who sees it (an ephemeral message); ``None``: everyone in the channel."""
    history: list = field(default_factory=list)
    times: list = field(default_factory=list)
    too_old: bool = False
    deleted: bool = False
    files: dict = field(default_factory=dict)
    """Its attachments: file name to bytes."""
    nonce: str | None = None

    @property
    def buttons(self) -> list[dict]:
        """Every button of the message, row by row."""
        return [b for row in self.components for b in row.get("components", [])]

    def custom_ids(self) -> list[str]:
        """The custom ids of its buttons."""
        return [b["custom_id"] for b in self.buttons if "custom_id" in b]

    def payload(self, bot: dict) -> dict:
        """The message as the API returns it."""
        return {"id": str(self.id), "channel_id": str(self.channel_id), "author": bot, "content": self.content,
                "timestamp": "2026-01-01T00:00:00+00:00", "edited_timestamp": None, "tts": False,
                "mention_everyone": False, "mentions": [], "mention_roles": [], "embeds": [],
                "attachments": [{"id": str(i + 1), "filename": name, "size": len(data),
                                 "url": f"https://cdn.invalid/{self.id}/{name}",
                                 "proxy_url": f"https://media.invalid/{self.id}/{name}"}
                                for i, (name, data) in enumerate(self.files.items())],
                "pinned": False, "type": 0, "flags": self.flags, "components": self.components,
                **({"nonce": self.nonce} if self.nonce is not None else {})}


@dataclass
class Member:
    """A simulated person: a user in the fake's guilds."""

    fake: "FakeDiscord"
    id: int
    name: str
    locale: str = "de"
    dms_open: bool = True
    admin: bool = False
    """He manages the guild: his interactions carry the Manage Server permission."""

    @property
    def user(self) -> dict:
        """The user object."""
        return {"id": str(self.id), "username": self.name.lower(), "global_name": self.name, "discriminator": "0",
                "avatar": None, "bot": False}

    def slash(self, channel_id: int, name: str, **options: Any) -> str:
        """Run ``/name`` with ``options`` in a channel; the interaction id."""
        return self.fake.slash(self, channel_id, name, options)

    def press(self, message: Msg, custom_id: str) -> str:
        """Press the button ``custom_id`` on ``message``; the interaction id."""
        return self.fake.press(self, message, custom_id)


@dataclass
class _Interaction:
    id: int
    token: str
    user: Member
    channel_id: int
    created: float
    message_id: int | None = None
    payload: dict = field(default_factory=dict)
    response: dict | None = None
    answered_at: float | None = None
    refused: int | None = None
    """The error code of a refused first answer (10062: too late)."""
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    original: int | None = None


class FakeDiscord:
    """The fake API and gateway on 127.0.0.1 (a free port), for ``async with``.

    Args:
        channel_limit: messages and edits allowed per channel per window: (count, seconds).
        ack_window_s: how long an interaction may wait for its answer.
        port: the port to listen on (0: a free one).
    """

    def __init__(self, channel_limit: tuple[int, float] = (5, 5.0), ack_window_s: float = 3.0, port: int = 0,
                 nonce_window_s: float = 180.0):
        self.channel_limit = channel_limit
        self.nonce_window_s = nonce_window_s
        self.withhold: asyncio.Event | None = None
        """While an event: each message posted is made, but its answer waits until the event is set (a test kills
        its sender meanwhile)."""
        self.ack_window_s = ack_window_s
        self.token = "fake." + secrets.token_hex(8)
        self.app_id = _snowflake()
        self.bot = {"id": str(self.app_id), "username": "stammtisch", "global_name": None, "discriminator": "0",
                    "avatar": None, "bot": True}
        self.guilds: dict[int, dict] = {}
        self.channels: dict[int, dict] = {}
        self.no_threads: set[int] = set()
        """Channels where the bot may not open threads."""
        self.members: dict[int, Member] = {}
        self.dm_of: dict[int, int] = {}
        self.messages: dict[int, Msg] = {}
        self.calls: list[Call] = []
        self.commands: dict[int | None, list[dict]] = {}
        self.interactions: dict[int, _Interaction] = {}
        self.sessions: list[_Session] = []
        self.lost: list[int] = []
        """Interactions made while no session of their shard was connected (Discord drops them)."""
        self._changes = Changes()
        self._sent: dict[int, deque[float]] = {}
        self._runner: web.AppRunner | None = None
        self.port = port

    # ------------------------------------------------------------------ the world
    def guild(self, guild_id: int, name: str, channels: dict[int, str]) -> None:
        """Add a guild with its text channels (id → name)."""
        self.guilds[guild_id] = {"id": str(guild_id), "name": name, "roles": [], "emojis": [], "stickers": [],
                                 "features": [], "member_count": len(self.members), "preferred_locale": "de",
                                 "channels": [], "threads": [], "members": [], "unavailable": False,
                                 "owner_id": str(self.app_id), "large": False}
        for cid, cname in channels.items():
            channel = {"id": str(cid), "type": 0, "guild_id": str(guild_id), "name": cname, "position": 0,
                       "permission_overwrites": [], "nsfw": False, "parent_id": None}
            self.channels[cid] = channel
            self.guilds[guild_id]["channels"].append(channel)

    def threads_of(self, channel_id: int) -> list[dict]:
        """The threads opened in a channel, oldest first."""
        return [c for c in self.channels.values() if c.get("type") == 11 and c["parent_id"] == str(channel_id)]

    def member(self, user_id: int, name: str, locale: str = "de", dms_open: bool = True) -> Member:
        """Add a person who is a member of every guild."""
        m = Member(self, user_id, name, locale, dms_open)
        self.members[user_id] = m
        return m

    @property
    def base_url(self) -> str:
        """The REST base (``DISCORD_API_BASE_URL``)."""
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        """The gateway (``DISCORD_GATEWAY_URL``)."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    def seen_by(self, user_id: int, channel_id: int) -> list[Msg]:
        """The messages of a channel ``user_id`` sees, oldest first (ephemeral ones only if made for him)."""
        return [m for m in self.messages.values() if m.channel_id == channel_id and not m.deleted
                and (m.for_user is None or m.for_user == user_id)]

    def dms(self, user_id: int) -> list[Msg]:
        """The direct messages the bot sent ``user_id``."""
        channel = self.dm_of.get(user_id)
        return self.seen_by(user_id, channel) if channel else []

    async def wait_for(self, predicate: Callable[[], Any], what: str, timeout: float = 60.0) -> Any:
        """Wait until ``predicate()`` is truthy (re-checked on every change); its value."""
        return await self._changes.until(predicate, timeout, what)

    def touch(self) -> None:
        """Wake everyone waiting in :meth:`wait_for`."""
        self._changes.touch()

    async def answer(self, interaction_id: str, timeout: float = 60.0) -> dict:
        """The response the bot gave to an interaction (its callback body); ``{"type": None, "error": code}``
        if the answer was refused (too late)."""
        rec = self.interactions[int(interaction_id)]
        await asyncio.wait_for(rec.answered.wait(), timeout)
        return rec.response or {"type": None, "error": rec.refused}

    def original(self, interaction_id: str) -> Msg | None:
        """The message an interaction's response created or updated."""
        rec = self.interactions[int(interaction_id)]
        return self.messages.get(rec.original) if rec.original else None

    def rest_calls(self, since: float = 0.0) -> list[Call]:
        """The REST calls made since ``since`` (``time.monotonic()``), excluding logging in and syncing."""
        return [c for c in self.calls if c.at >= since and not c.route.startswith(("/gateway", "/users/@me",
                                                                                    "/oauth2", "/applications"))]

    # ------------------------------------------------------------------ members act
    def _interaction(self, member: Member, channel_id: int, kind: int, data: dict, message: Msg | None) -> str:
        rec = _Interaction(_snowflake(), "itok" + secrets.token_hex(12), member, channel_id, time.monotonic(),
                           message.id if message else None)
        self.interactions[rec.id] = rec
        channel = self.channels[channel_id]
        payload: dict[str, Any] = {
            "id": str(rec.id), "application_id": str(self.app_id), "type": kind, "data": data, "token": rec.token,
            "version": 1, "channel_id": str(channel_id), "channel": channel, "locale": member.locale,
            "app_permissions": "2248473465835073", "entitlements": [], "authorizing_integration_owners": {},
            "context": 0 if channel.get("guild_id") else 1, "attachment_size_limit": 10485760}
        if channel.get("guild_id"):
            gid = channel["guild_id"]
            payload["guild_id"] = gid
            payload["guild_locale"] = self.guilds[int(gid)]["preferred_locale"]
            payload["member"] = {"user": member.user, "roles": [], "joined_at": "2026-01-01T00:00:00+00:00",
                                 "deaf": False, "mute": False, "flags": 0,
                                 "permissions": str(_MEMBER_PERMISSIONS | (_MANAGE_GUILD if member.admin else 0))}
        else:
            payload["user"] = member.user
        if message is not None:
            payload["message"] = message.payload(self.bot)
        rec.payload = payload
        self._deliver(rec)
        return str(rec.id)

    def replay(self, interaction_id: str) -> None:
        """Deliver an interaction again, as the gateway may after a reconnect."""
        self._deliver(self.interactions[int(interaction_id)])

    def _deliver(self, rec: _Interaction) -> None:
        """Send an interaction to its shard's sessions; with none connected it is lost: its member sees it fail
        once its window has passed (:meth:`answer` gives ``{"type": None, "error": None}``)."""
        if not self._dispatch("INTERACTION_CREATE", rec.payload, self._shard_of(self.channels[rec.channel_id])):
            self.lost.append(rec.id)
            asyncio.get_running_loop().call_later(self.ack_window_s, rec.answered.set)

    def slash(self, member: Member, channel_id: int, name: str, options: dict[str, Any]) -> str:
        """A member runs a slash command (options by their canonical names)."""
        scope = self.channels[channel_id].get("guild_id")
        known = self.commands.get(int(scope), []) if scope else []
        cmd = next((c for c in [*known, *self.commands.get(None, [])] if c["name"] == name), None)
        assert cmd is not None, f"no command /{name} was synced"
        types = {o["name"]: o["type"] for o in cmd.get("options", [])}
        opts = [{"name": k, "type": types[k], "value": v} for k, v in options.items() if v is not None]
        data = {"id": cmd["id"], "name": name, "type": 1, "options": opts}
        if scope:
            data["guild_id"] = scope
        return self._interaction(member, channel_id, 2, data, None)

    def press(self, member: Member, message: Msg, custom_id: str) -> str:
        """A member presses a button (the fake does not check that the message has it: a forged press)."""
        assert message.for_user in (None, member.id), "pressing a message he cannot see"
        return self._interaction(member, message.channel_id, 3, {"custom_id": custom_id, "component_type": 2},
                                 message)

    def autocomplete(self, member: Member, channel_id: int, name: str, option: str, value: str) -> str:
        """A member types ``value`` into ``option`` of ``/name``."""
        cmd = next(c for cs in self.commands.values() for c in cs if c["name"] == name)
        types = {o["name"]: o["type"] for o in cmd.get("options", [])}
        data = {"id": cmd["id"], "name": name, "type": 1,
                "options": [{"name": option, "type": types[option], "value": value, "focused": True}]}
        return self._interaction(member, channel_id, 4, data, None)

    # ------------------------------------------------------------------ gateway
    def _shard_of(self, channel: dict) -> int | None:
        gid = channel.get("guild_id")
        return None if gid is None else int(gid)

    def _dispatch(self, event: str, data: dict, guild_id: int | None) -> int:
        """Send an event to every ready session of the guild's shard (a DM's: shard 0); how many got it."""
        targets = [s for s in self.sessions if s.ready and not s.ws.closed and (guild_id is None and s.shard_id == 0
                                                             or guild_id is not None and s.owns(guild_id))]
        for s in targets:
            s.send_event(event, data)
        return len(targets)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        session = _Session(self, ws)
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 40000}, "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                if payload["op"] == 1:
                    await ws.send_json({"op": 11, "d": None, "s": None, "t": None})
                elif payload["op"] == 2:
                    await session.identify(payload["d"])
                elif payload["op"] == 6:
                    await ws.send_json({"op": 9, "d": False, "s": None, "t": None})
        finally:
            if session in self.sessions:
                self.sessions.remove(session)
        return ws

    # ------------------------------------------------------------------ REST
    def _limited(self, channel_id: int) -> float:
        count, window = self.channel_limit
        now = time.monotonic()
        sent = self._sent.setdefault(channel_id, deque())
        while sent and sent[0] <= now - window:
            sent.popleft()
        if len(sent) >= count:
            return sent[0] + window - now
        sent.append(now)
        return 0.0

    @web.middleware
    async def _record(self, request: web.Request, handler) -> web.StreamResponse:
        route = request.match_info.route.resource.canonical if request.match_info.route.resource else request.path
        route = route.removeprefix("/api/v10")
        channel = request.match_info.get("channel")
        if request.headers.get("Authorization", "") != f"Bot {self.token}" and route.startswith("/") \
                and not route.startswith(("/interactions", "/webhooks", "/gateway")):
            return _error(401, 0, "401: Unauthorized")
        response = await handler(request)
        self.calls.append(Call(request.method, route, int(channel) if channel else None, response.status,
                               time.monotonic(), request.get(_BODY, {}), self._answered(request)))
        self.touch()
        return response

    def _answered(self, request: web.Request) -> int | None:
        """The interaction a call answers (its callback) or follows up (its webhook token), if any."""
        if "interaction" in request.match_info:
            return int(request.match_info["interaction"])
        token = request.match_info.get("token")
        return next((i for i, r in self.interactions.items() if r.token == token), None) if token else None

    async def _me(self, request: web.Request) -> web.Response:
        return _json(self.bot)

    async def _app(self, request: web.Request) -> web.Response:
        return _json({"id": str(self.app_id), "name": "Stammtisch", "icon": None, "description": "",
                                  "bot_public": True, "bot_require_code_grant": False, "owner": self.bot,
                                  "verify_key": "00", "flags": 0})

    async def _gateway_bot(self, request: web.Request) -> web.Response:
        return _json({"url": self.gateway_url, "shards": 1, "session_start_limit": {
            "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}})

    async def _sync(self, request: web.Request) -> web.Response:
        guild = request.match_info.get("guild")
        body = await request.json()
        refused = commands.errors(body)
        if refused:
            return _invalid(refused)
        out = [{**c, "id": str(_snowflake()), "application_id": str(self.app_id), "version": "1",
                "guild_id": guild, "default_member_permissions": None, "type": c.get("type", 1)} for c in body]
        self.commands[int(guild) if guild else None] = out
        return _json(out)

    async def _open_dm(self, request: web.Request) -> web.Response:
        body = await request.json()
        user_id = int(body["recipient_id"])
        member = self.members.get(user_id)
        if member is None:
            return _error(400, 50033, "Invalid Recipient(s)")
        if user_id not in self.dm_of:
            cid = _snowflake()
            self.dm_of[user_id] = cid
            self.channels[cid] = {"id": str(cid), "type": 1, "recipients": [member.user], "last_message_id": None}
        return _json(self.channels[self.dm_of[user_id]])

    def _recipient(self, channel_id: int) -> Member | None:
        channel = self.channels.get(channel_id, {})
        if channel.get("type") != 1:
            return None
        return self.members[int(channel["recipients"][0]["id"])]

    async def _post(self, request: web.Request) -> web.Response:
        cid = int(request.match_info["channel"])
        if cid not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        recipient = self._recipient(cid)
        if recipient is not None and not recipient.dms_open:
            return _error(403, 50007, "Cannot send messages to this user")
        body = await _body(request)
        if errors := _form_errors(body):
            return _invalid(errors)
        if refused := _files_refused(body):
            return refused
        if wait := self._limited(cid):
            return self._slow_down(wait)
        made = self._made_with(cid, body) or self._new(cid, body, None)
        if self.withhold is not None:
            await self.withhold.wait()
        return _json(made.payload(self.bot))

    def _made_with(self, channel_id: int, body: dict) -> Msg | None:
        """The bot's message of the channel made lately with the body's enforced nonce, if any."""
        nonce = body.get("nonce")
        if nonce is None or not body.get("enforce_nonce"):
            return None
        return next((m for m in self.messages.values() if m.channel_id == channel_id and m.nonce == str(nonce)
                     and m.author_id == self.app_id and m.times[0] > time.monotonic() - self.nonce_window_s), None)

    async def _thread(self, request: web.Request) -> web.Response:
        cid = int(request.match_info["channel"])
        parent = self.channels.get(cid)
        if parent is None:
            return _error(404, 10003, "Unknown Channel")
        if parent.get("type") != 0:
            return _error(400, 50024, "Cannot execute action on this channel type")
        if cid in self.no_threads:
            return _error(403, 50001, "Missing Access")
        body = await _body(request)
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            return _invalid({"name": _too_long(100)})
        tid = _snowflake()
        self.channels[tid] = thread = {
            "id": str(tid), "type": 11, "guild_id": parent["guild_id"], "parent_id": str(cid), "name": name,
            "owner_id": str(self.app_id), "last_message_id": None, "rate_limit_per_user": 0, "message_count": 0,
            "member_count": 1, "flags": 0, "thread_metadata": {
                "archived": False, "auto_archive_duration": body.get("auto_archive_duration", 1440),
                "archive_timestamp": "2026-01-01T00:00:00+00:00", "locked": False}}
        return _json(thread, status=201)

    def _new(self, channel_id: int, body: dict, user: Member | None) -> Msg:
        """A new message from a request body; ephemeral (only for ``user``) if its flags say so."""
        msg = Msg(_snowflake(), channel_id, body.get("content") or "", body.get("components") or [], self.app_id,
                  body.get("flags", 0) or 0, files=body.get("_files", {}),
                  nonce=str(body["nonce"]) if body.get("nonce") is not None else None)
        if msg.flags & EPHEMERAL and user is not None:
            msg.for_user = user.id
        msg.history.append((msg.content, msg.components))
        msg.times.append(time.monotonic())
        self.messages[msg.id] = msg
        return msg

    def _slow_down(self, wait: float) -> web.Response:
        return _json({"message": "You are being rate limited.", "retry_after": round(wait, 3),
                                  "global": False, "code": 20028}, status=429,
                                 headers={"Retry-After": str(max(1, round(wait))), "X-RateLimit-Scope": "user",
                                          "X-RateLimit-Limit": str(self.channel_limit[0]),
                                          "X-RateLimit-Remaining": "0",
                                          "X-RateLimit-Reset-After": str(round(wait, 3)),
                                          "X-RateLimit-Bucket": "fake"})

    def _message(self, request: web.Request) -> Msg | web.Response:
        cid, mid = int(request.match_info["channel"]), int(request.match_info["message"])
        msg = self.messages.get(mid)
        if msg is None or msg.deleted or msg.channel_id != cid or msg.for_user is not None:
            return _error(404, 10008, "Unknown Message")
        return msg

    async def _edit(self, request: web.Request) -> web.Response:
        msg = self._message(request)
        if isinstance(msg, web.Response):
            return msg
        if msg.too_old:
            return _error(400, 30046, "Maximum number of edits to messages older than 1 hour reached. "
                                      "Try again later")
        body = await _body(request)
        if errors := _form_errors(body):
            return _invalid(errors)
        if wait := self._limited(msg.channel_id):
            return self._slow_down(wait)
        self._apply(msg, body)
        return _json(msg.payload(self.bot))

    @staticmethod
    def _apply(msg: Msg, body: dict) -> None:
        if "content" in body:
            msg.content = body["content"] or ""
        if "components" in body:
            msg.components = body["components"] or []
        msg.history.append((msg.content, msg.components))
        msg.times.append(time.monotonic())

    async def _delete(self, request: web.Request) -> web.Response:
        msg = self._message(request)
        if isinstance(msg, web.Response):
            return msg
        msg.deleted = True
        return web.Response(status=204)

    async def _callback(self, request: web.Request) -> web.Response:
        rec = self.interactions.get(int(request.match_info["interaction"]))
        if rec is None or rec.token != request.match_info["token"]:
            return _error(404, 10062, "Unknown interaction")
        if rec.response is None and time.monotonic() - rec.created > self.ack_window_s:
            rec.refused = 10062
            rec.answered.set()
            return _error(404, 10062, "Unknown interaction")
        if rec.response is not None:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        body = await _body(request)
        if errors := _form_errors(body.get("data") or {}):
            return _invalid({"data": errors})
        if refused := _files_refused(body):
            return refused
        if "_files" in body:
            body.setdefault("data", {})["_files"] = body.pop("_files")
        rec.response = body
        rec.answered_at = time.monotonic()
        kind, data = body["type"], body.get("data") or {}
        if kind == 4:  # a new message in the channel (ephemeral: only for him)
            rec.original = self._new(rec.channel_id, data, rec.user).id
        elif kind == 7:  # update the message the button is on
            msg = self.messages[rec.message_id]
            self._apply(msg, data)
            rec.original = msg.id
        elif kind == 6:
            rec.original = rec.message_id
        rec.answered.set()
        out = {"interaction": {"id": str(rec.id), "type": 3 if rec.message_id else 2,
                               "response_message_loading": kind == 5, "response_message_ephemeral": False}}
        if rec.original:
            out["resource"] = {"type": kind, "message": self.messages[rec.original].payload(self.bot)}
        return _json(out)

    def _webhook_rec(self, request: web.Request) -> _Interaction | web.Response:
        token = request.match_info["token"]
        rec = next((r for r in self.interactions.values() if r.token == token), None)
        if rec is None or time.monotonic() - rec.created > 900:
            return _error(401, 50027, "Invalid Webhook Token")
        if rec.response is None:
            return _error(404, 10015, "Unknown Webhook")
        return rec

    async def _edit_original(self, request: web.Request) -> web.Response:
        rec = self._webhook_rec(request)
        if isinstance(rec, web.Response):
            return rec
        msg = self.messages.get(rec.original) if rec.original else None
        if msg is None or msg.deleted:
            return _error(404, 10008, "Unknown Message")
        body = await _body(request)
        if errors := _form_errors(body):
            return _invalid(errors)
        self._apply(msg, body)
        return _json(msg.payload(self.bot))

    async def _followup(self, request: web.Request) -> web.Response:
        rec = self._webhook_rec(request)
        if isinstance(rec, web.Response):
            return rec
        body = await _body(request)
        if errors := _form_errors(body):
            return _invalid(errors)
        if refused := _files_refused(body):
            return refused
        return _json(self._new(rec.channel_id, body, rec.user).payload(self.bot))

    # ------------------------------------------------------------------ lifecycle
    async def __aenter__(self) -> "FakeDiscord":
        app = web.Application(middlewares=[self._record], client_max_size=2 * UPLOAD_MAX)
        api = "/api/v10"
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get(api + "/users/@me", self._me)
        app.router.add_get(api + "/oauth2/applications/@me", self._app)
        app.router.add_get(api + "/gateway/bot", self._gateway_bot)
        app.router.add_put(api + "/applications/{app}/commands", self._sync)
        app.router.add_put(api + "/applications/{app}/guilds/{guild}/commands", self._sync)
        app.router.add_post(api + "/users/@me/channels", self._open_dm)
        app.router.add_post(api + "/channels/{channel}/messages", self._post)
        app.router.add_post(api + "/channels/{channel}/threads", self._thread)
        app.router.add_patch(api + "/channels/{channel}/messages/{message}", self._edit)
        app.router.add_delete(api + "/channels/{channel}/messages/{message}", self._delete)
        app.router.add_post(api + "/interactions/{interaction}/{token}/callback", self._callback)
        app.router.add_patch(api + "/webhooks/{app}/{token}/messages/@original", self._edit_original)
        app.router.add_post(api + "/webhooks/{app}/{token}", self._followup)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc) -> None:
        for s in list(self.sessions):
            await s.ws.close()
        await self._runner.cleanup()


class _Session:
    """One gateway connection: a shard of the bot."""

    def __init__(self, fake: FakeDiscord, ws: web.WebSocketResponse):
        self.fake = fake
        self.ws = ws
        self.seq = 0
        self.ready = False
        self.shard_id, self.shard_count = 0, 1

    def owns(self, guild_id: int) -> bool:
        """Whether this shard receives the guild's events (Discord's sharding formula)."""
        return (guild_id >> 22) % self.shard_count == self.shard_id

    def send_event(self, event: str, data: dict) -> None:
        """Send one dispatch event."""
        self.seq += 1
        asyncio.ensure_future(self.ws.send_json({"op": 0, "t": event, "s": self.seq, "d": data}))

    async def identify(self, data: dict) -> None:
        if data.get("token") != self.fake.token:
            await self.ws.close(code=4004)
            return
        self.shard_id, self.shard_count = (data.get("shard") or [0, 1])
        intents = data.get("intents", 0)
        privileged = (1 << 1) | (1 << 8) | (1 << 15)
        if intents & privileged:
            await self.ws.close(code=4014)
            return
        mine = [g for gid, g in self.fake.guilds.items() if self.owns(gid)]
        self.fake.sessions.append(self)
        self.ready = True
        self.send_event("READY", {
            "v": 10, "user": self.fake.bot, "guilds": [{"id": g["id"], "unavailable": True} for g in mine],
            "session_id": secrets.token_hex(8), "resume_gateway_url": self.fake.gateway_url,
            "shard": [self.shard_id, self.shard_count], "application": {"id": str(self.fake.app_id), "flags": 0}})
        for g in mine:
            self.send_event("GUILD_CREATE", g)
        self.fake.touch()


_BODY = web.RequestKey("body", dict)
"""Where a request keeps its JSON body for the call's record."""


async def _body(request: web.Request) -> dict:
    """The JSON body, also from a multipart request (``payload_json``); its files under ``_files``
    (name to bytes, in the order of the ``files[n]`` fields); kept on the request for the call's record."""
    request[_BODY] = body = await _read(request)
    return body


async def _read(request: web.Request) -> dict:
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        body = json.loads(form["payload_json"])
        uploads = [(k, v) for k, v in form.items() if k.startswith("files[") and not isinstance(v, str)]
        if uploads:
            body["_files"] = {v.filename: v.file.read() for _, v in uploads}
            body["_uploads"] = len(uploads)
        return body
    if not request.can_read_body:
        return {}
    return await request.json()
