"""The web table's HTTP server: the page, its files, one seat's view and the live feed (WebSocket).

Routes: ``GET /`` the page, ``GET /static/…`` its script, style and card pictures (public: nothing
secret is in them), ``GET /api/view`` the viewer's view as JSON, ``GET /api/tables`` his »Meine Tische«
(``page``; each row with the query of the page at that table; not for a watch link), ``GET /api/review`` his
review of a finished deal (``no``, else the last) trick by trick as JSON, ``GET /ws`` the live feed. The four
last check the viewer's credential on every request and connection, from the query: ``t`` a link
token (:func:`adapters.common.webauth.read`), or ``tg`` Telegram's Mini App init data
(:func:`adapters.common.webauth.init_data`) with ``table`` where Telegram names none. Refusals, with
a short text in the table's language (else the client's: Telegram's ``language_code``, the browser's
``Accept-Language``, else the server's): HTTP 401 for a forged, tampered or expired credential,
403 for a viewer who holds no seat at the table and may not watch it, 404 for a table that is gone;
the live feed opens and closes at once with 4401, 4403 or 4404 and that text as the reason (a
page's script sees a close code, never an HTTP status). A person or a process over its connections
gets 429 or 503 before the feed opens; a person over his rate of ``/api/view``
(``views_per_second``) gets 429.

On the feed the server sends ``{"type": "view", "view": …}`` (the viewer's fresh view, once per
version, the current one at once on connecting), ``{"type": "notice", "text": …, "kind": "refusal"|"tipp"}`` (a refusal with
its reason, "not so fast"), ``{"type": "follow", "query": …}`` (the match goes on at a rematch or a
new table of the chat: the query string of the page at it, with a credential for it) and
``{"type": "watchers", "count", "text"}`` (how many watch: :mod:`.watchers`). A watcher (a watch
token, or Telegram's init data from the group's link of someone without a seat) is sent the table's
public view and may not tap. The page sends ``{"verb", "arg", "v"}``, a tap on a card or an
offer, which goes to the service as the button press ``st1:<table>:<v>:<verb>:<arg>`` of the
viewer, with his identity: the service checks it as any press (a stale one is "already played").
Close codes later: 4401 the moment the credential runs out (the reason says how to get a new link),
4403 or 4404 when the seat or the table is gone, 1008 for a message that is not a tap, 1009 for one
too large.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from aiohttp import WSMsgType, web

from adapters.common.slowclients import Door
from adapters.common.webauth import ANY, LINK_TTL_S, SEAT, WATCH, Viewer, init_data, read, sign
from bot.ops.settings import HostPort
from bot.protocol import tokens
from bot.protocol.outgoing import ChatRef, Command, Outgoing, Toast, UserRef
from bot.words import t, web_text

from .bucket import Buckets
from .files import Files
from .language import client_lang
from .tuning import Tuning
from .viewers import CLOSE_POLICY, Connection, close
from .watchers import Watched

__all__ = ["WebServer", "STATIC", "VERBS"]

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
"""The page's files: ``index.html``, ``table.js``, ``table.css`` and ``cards/<card>.svg``."""
VERBS = frozenset({"act", "let_pass", "tipp", "rematch", "new"})
HINT_SIGN = "💡 "
"""How a hint's words begin in the chats (``tipp.*`` texts)."""
"""What a tap may do: the buttons of a hand (a card or an offer, and »Weiter« before the first lead), and an
ended table's »Revanche« and »Neuer Tisch« (the service takes them only in the table's own chat)."""
_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; "
                               "form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
_REFUSED = {"no_table": 404, "not_seated": 403}
_PEOPLE_KEPT = 10_000
"""How many people's ``/api/view`` rates are kept (one left out starts afresh)."""
_EXPIRY_CHECK_S = 60.0
"""How often an open live feed's credential is held to the clock, at least."""


class WebServer:
    """The web table on ``listen`` until stopped.

    Args:
        service: the bot layer's service (``handle``, ``web_view``, ``feed``).
        listen: where to listen (port 0: a free one, see :attr:`port`).
        secret: the key of the link tokens.
        bot_token: the Telegram bot token that signs Mini App init data (``None``: none is taken).
        tuning: the limits.
        lang: the language of a refusal where neither the table nor the client tells one.
        after: called with the effects of every tap (the chats' delivery, the computers' turns).
        clock: the time in epoch seconds.
    """

    def __init__(self, service, listen: HostPort, secret: bytes, bot_token: str | None = None,
                 tuning: Tuning | None = None, lang: str = "de",
                 after: Callable[[list[Outgoing]], Awaitable[None]] | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self._service = service
        self._listen = listen
        self._secret = secret
        self._bot_token = bot_token
        self.tuning = tuning or Tuning()
        self._lang = lang
        self._after = after
        self._clock = clock
        self.viewers = Watched(service, self.tuning, self._follow)
        self._views = Buckets(self.tuning.views_per_second, _PEOPLE_KEPT, clock)
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.AbstractServer | None = None
        self.door = Door(self.tuning.waiting_per_ip, self.tuning.waiting, self.tuning.header_timeout_s,
                         web_text(lang, "busy"))
        self.port = 0

    def app(self) -> web.Application:
        """The routes (also for aiohttp's test client)."""
        app = web.Application(client_max_size=self.tuning.message_bytes, middlewares=[self._arrived])
        app.router.add_get("/", self._page)
        app.router.add_get("/api/view", self._view)
        app.router.add_get("/api/tables", self._tables)
        app.router.add_get("/api/review", self._review)
        app.router.add_get("/ws", self._socket)
        app.router.add_get("/static/{name:.*}", Files(STATIC).handle)
        app.on_response_prepare.append(self._headers)
        return app

    async def start(self) -> None:
        """Subscribe to the saves, then listen: every connection through :attr:`door`.

        The door gives a new connection ``header_timeout_s`` for its first request; aiohttp gives a kept-alive
        one as long between requests (``keepalive_timeout``) and a request ``body_timeout_s`` for the rest of
        a body its answer did not need (``lingering_time``).
        """
        await self.viewers.start()
        self._runner = web.AppRunner(self.app(), access_log=None, handle_signals=False, shutdown_timeout=2.0,
                                     keepalive_timeout=self.tuning.header_timeout_s,
                                     lingering_time=self.tuning.body_timeout_s)
        await self._runner.setup()
        assert self._runner.server is not None
        self._listener = await asyncio.get_running_loop().create_server(
            self.door.protocol(self._runner.server), self._listen.host, self._listen.port)
        self.port = self._listener.sockets[0].getsockname()[1]
        log.info("web table on %s", HostPort(self._listen.host, self.port))

    async def stop(self) -> None:
        """Stop listening and close every connection."""
        if self._listener is not None:
            self._listener.close()
        await self.viewers.stop()
        if self._runner is not None:
            await self._runner.cleanup()

    @web.middleware
    async def _arrived(self, request: web.Request, handler) -> web.StreamResponse:
        """A request is in: the door's time for it no longer runs."""
        self.door.arrived(request.transport)
        return await handler(request)

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        """The page's security headers on every answer; the files may be kept a day, nothing else at all.

        A live feed that opens leaves the door's count (its own limits count it).
        """
        if isinstance(response, web.WebSocketResponse):
            self.door.opened(request.transport)
        if request.path.startswith("/static/") and response.status == 200:
            response.headers.setdefault("Cache-Control", "public, max-age=86400")
        for name, value in _HEADERS.items():
            response.headers.setdefault(name, value)

    async def _page(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    def viewer(self, request: web.Request) -> Viewer | None:
        """The checked viewer of a request, or ``None`` (no credential, or one that does not check out)."""
        query, now = request.query, self._clock()
        if "t" in query:
            return read(self._secret, query["t"], now)
        if "tg" in query and self._bot_token:
            return init_data(self._bot_token, query["tg"], now, query.get("table", ""))
        return None

    def _lang_of(self, request: web.Request) -> str:
        """The language of a refusal where the table does not tell it: the client's (:func:`.language.client_lang`)."""
        return client_lang(request.query.get("tg", ""), request.headers.get("Accept-Language", ""), self._lang)

    def _refused(self, request: web.Request, status: int, key: str, lang: str | None = None) -> web.Response:
        return web.Response(status=status, text=web_text(lang or self._lang_of(request), key) + "\n")

    def _asking(self, request: web.Request) -> tuple[Viewer, UserRef] | web.Response:
        """Who asks for data (his checked credential and who he is), or the refusal: 401 without a credential
        that checks out, 429 over his rate of views."""
        viewer = self.viewer(request)
        if viewer is None:
            return self._refused(request, 401, "denied")
        user = UserRef(viewer.platform, viewer.user_id, viewer.name)
        if not self._views.allowed(user.key):
            return self._refused(request, 429, "too_fast")
        return viewer, user

    async def _view(self, request: web.Request) -> web.Response:
        asking = self._asking(request)
        if isinstance(asking, web.Response):
            return asking
        viewer, user = asking
        view = await self._service.web_view(viewer.table, user, viewer.access)
        if "refused" in view:
            return self._refused(request, _REFUSED[view["refused"]], view["refused"], view.get("lang"))
        return _json(view)

    async def _review(self, request: web.Request) -> web.Response:
        """His review of the table's deal ``no`` (else its last finished one), step by step: for a seat's credential
        only; 403 with the reason where there is none for him (a watcher, not his deal, none yet)."""
        asking = self._asking(request)
        if isinstance(asking, web.Response):
            return asking
        viewer, user = asking
        no = request.query.get("no", "")
        review = {"refused": "rv.watcher"} if viewer.access == WATCH else await self._service.review_steps(
            viewer.table, user, int(no) if no.isdecimal() and len(no) <= 6 else None)
        if "refused" in review:
            lang = review.get("lang") or self._lang_of(request)
            return web.Response(status=403, text=t(lang, review["refused"], no=no) + "\n")
        return _json(review)

    async def _tables(self, request: web.Request) -> web.Response:
        """The viewer's open tables on his platform, one page, each row with the query of the page at it (a
        credential for it that ends with his own); a watch link (a screen others look at) lists none."""
        viewer, now = self.viewer(request), self._clock()
        if viewer is None:
            return self._refused(request, 401, "denied")
        if viewer.access == WATCH:
            return self._refused(request, 403, "not_seated")
        user = UserRef(viewer.platform, viewer.user_id, viewer.name)
        if not self._views.allowed(user.key):
            return self._refused(request, 429, "too_fast")
        page = request.query.get("page", "0")
        listing = await self._service.tables_of(user, self._lang_of(request), int(page) if page.isdigit() else 0)

        def query(table: str) -> str:
            if "tg" in request.query:  # the page keeps Telegram's init data itself
                return urlencode({"table": table})
            ttl = viewer.expires - now if viewer.expires else LINK_TTL_S
            return urlencode({"t": sign(self._secret, table, user.platform, user.user_id, now, ttl, ANY)})
        pages = [tokens.parse(b.token) for b in listing.pages]
        return web.json_response({"head": listing.head, "rows": [{"text": r.text, "query": query(r.table_id)}
                                                                 for r in listing.rows],
                                  "pages": [{"label": b.label, "page": tok.version}
                                            for b, tok in zip(listing.pages, pages)]},
                                 dumps=lambda o: json.dumps(o, ensure_ascii=False))

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        viewer = self.viewer(request)
        user = UserRef(viewer.platform, viewer.user_id, viewer.name) if viewer else None
        refusal = self.viewers.refusal(user, viewer.access) if user else None
        if refusal is not None:  # over the limits: refused before it opens
            return self._refused(request, 503 if refusal == "busy" else 429, refusal)
        ws = web.WebSocketResponse(max_msg_size=self.tuning.message_bytes, heartbeat=30.0)
        if viewer is None:
            await ws.prepare(request)
            await close(ws, "denied", self._lang_of(request))
            return ws
        conn = Connection(ws, user, viewer.table, viewer.expires, self.tuning.messages_per_second,
                          self._lang_of(request), linked="t" in request.query, access=viewer.access)
        self.viewers.add(conn)  # before the view is read: a save after it is pushed
        expiry: asyncio.Task | None = None
        try:
            view = await self._service.web_view(viewer.table, user, viewer.access)
            await ws.prepare(request)
            await conn.show(view, self.tuning.send_timeout_s)
            if ws.closed:
                return ws
            self.viewers.opened(conn, view)
            expiry = asyncio.create_task(self._expire(conn))
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    await ws.close(code=CLOSE_POLICY, message=b"text only")
                    break
                if conn.expires < self._clock():
                    await close(ws, "expired", conn.lang)
                    break
                await self._tap(conn, conn.lang, message.data)
        finally:
            self.viewers.remove(conn)
            if expiry is not None:
                expiry.cancel()
        return ws

    async def _expire(self, conn: Connection) -> None:
        """Close ``conn`` with 4401, and how to get a new link, once its credential runs out.

        It looks at the clock again at least every :data:`_EXPIRY_CHECK_S`: a clock set forward is noticed.
        """
        while (left := conn.expires - self._clock()) >= 0:
            await asyncio.sleep(min(left + 0.01, _EXPIRY_CHECK_S))
        await close(conn.ws, "expired", conn.lang)

    async def _tap(self, conn: Connection, lang: str, data: str) -> None:
        """One message of the page: a tap, carried out as the viewer's button press."""
        try:
            tap = json.loads(data)
            verb, arg, version = tap["verb"], tap.get("arg", ""), tap["v"]
            if verb not in VERBS or not isinstance(version, int) or not isinstance(arg, str):
                raise ValueError(verb)
            token = tokens.make(conn.table, version, verb, arg)
        except (ValueError, TypeError, KeyError, RecursionError):
            await conn.ws.close(code=CLOSE_POLICY, message=b"not a tap")
            return
        if not conn.allowed() or conn.watching:
            refusal = "watching" if conn.watching else "too_fast"
            await conn.send({"type": "notice", "text": web_text(lang, refusal)}, self.tuning.send_timeout_s)
            return
        user = conn.user
        cmd = Command(ChatRef(user.platform, user.user_id, private=True), user, token=token, lang=lang)
        out = await self._service.handle(cmd)
        for toast in (o for o in out if isinstance(o, Toast)):
            hint = toast.text.startswith(HINT_SIGN)  # the page marks a hint its own way: it draws no emoji
            await conn.send({"type": "notice", "text": toast.text.removeprefix(HINT_SIGN),
                             "kind": "tipp" if hint else "refusal"}, self.tuning.send_timeout_s)
        if self._after is not None:
            await self._after(out)

    async def _follow(self, conn: Connection, table: str) -> None:
        """Hand the page the query string of ``table``, the next of its chat: a credential there for its person.

        A watch link's page gets a watch token; any other a token that shows his seat where he holds
        one, else the public view; a private chat's Mini App keeps Telegram's init data (it names him).
        """
        user = conn.user
        if not conn.linked and conn.access == SEAT:
            query = f"table={table}"
        else:
            access = WATCH if conn.access == WATCH else ANY
            query = f"t={sign(self._secret, table, user.platform, user.user_id, self._clock(), access=access)}"
        await conn.send({"type": "follow", "query": query}, self.tuning.send_timeout_s)


def _json(data: dict[str, Any]) -> web.Response:
    """``data`` as a JSON answer (its words as they are, not escaped)."""
    return web.json_response(data, dumps=lambda o: json.dumps(o, ensure_ascii=False))
