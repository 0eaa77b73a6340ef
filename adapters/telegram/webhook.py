"""The webhook server: Telegram's update POSTs, checked before they cost anything.

PTB's own webhook server keeps a request's headers waiting for an hour and reads bodies up to
100 MB before it looks at the secret. This one (tornado, as PTB uses) checks the method, the
path and the secret header as soon as the headers are in, refuses a declared body over
:data:`MAX_BODY` before reading it, stops reading any body at that size, keeps nothing of a
body without the right secret (it is read and dropped, so the client gets its 403), and gives a client
:data:`HEADER_TIMEOUT_S` for its headers (and between requests on a kept-alive connection) and
:data:`BODY_TIMEOUT_S` for its body (the web table's port has the same bounds:
:mod:`adapters.common.slowclients`). Accepted updates go to the application's update queue, as
with PTB's server. The response to a button press is held until the adapter has decided its
answer (at most ``hold_s``) and then carries it (see :mod:`.replies`); every other update gets
an empty 200 at once. A stopping server closes its port first (a proxy in front passes the next updates to
another process) and closes the connections once the updates it took are answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
from http import HTTPStatus

import tornado.netutil
import tornado.web
from telegram import Bot, Update
from tornado.httpserver import HTTPServer

from adapters.common.slowclients import BODY_TIMEOUT_S, HEADER_TIMEOUT_S

from .replies import Replies

__all__ = ["WebhookServer", "MAX_BODY", "HEADER_TIMEOUT_S", "BODY_TIMEOUT_S", "SECRET_HEADER"]

log = logging.getLogger(__name__)

MAX_BODY = 1024 * 1024
"""The largest request body accepted (Telegram's updates are a few kilobytes)."""
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
WRITE_S = 5.0
"""How long a stopping server gives the responses beyond a press's hold (a loaded machine's process gets little CPU
then; an idle server stops at once)."""


@tornado.web.stream_request_body
class _UpdateHandler(tornado.web.RequestHandler):
    """One POST of one update; the body is streamed so that nothing is read before the checks."""

    SUPPORTED_METHODS = ("POST",)

    def initialize(self, bot: Bot, queue, secret: str, replies: Replies, hold_s: float, flight: _InFlight) -> None:
        """Tornado's per-request setup."""
        self.bot, self.queue, self.secret = bot, queue, secret
        self.replies, self.hold_s, self.flight = replies, hold_s, flight
        self.chunks: list[bytes] = []
        self.allowed = False

    def prepare(self) -> None:
        """Runs once the headers are in: check the secret, refuse an oversized body at once."""
        given = self.request.headers.get(SECRET_HEADER, "")
        self.allowed = hmac.compare_digest(given.encode(), self.secret.encode())
        declared = self.request.headers.get("Content-Length", "0")
        if not declared.isdigit() or int(declared) > MAX_BODY:
            raise tornado.web.HTTPError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE)

    def data_received(self, chunk: bytes) -> None:
        """A part of the body (at most :data:`MAX_BODY` in all, which tornado enforces); kept only
        with the right secret."""
        if self.allowed:
            self.chunks.append(chunk)

    async def post(self) -> None:
        """Queue the update; 403 without the right secret, 400 for a body that is not an update.

        A button press's response waits for its answer, which it then carries. A stopping server lets the
        response be written before it closes the connection (see :class:`_InFlight`).
        """
        if not self.allowed:
            raise tornado.web.HTTPError(HTTPStatus.FORBIDDEN)
        update = self._update()
        if update is None:
            return
        with self.flight:
            answer = None
            if update.callback_query is None:
                await self.queue.put(update)
            else:
                with self.replies.hold(update.callback_query.id) as slot:
                    await self.queue.put(update)
                    answer = await slot.wait(self.hold_s)
            if answer is not None:
                self.set_header("Content-Type", "application/json")
            if self.flight.stopping:  # no next request on this connection: it closes
                self.set_header("Connection", "close")
            await self.finish(json.dumps(answer) if answer is not None else None)

    def _update(self) -> Update | None:
        """The body as an update; 400 (and one line in the log) for anything else."""
        try:
            body = json.loads(b"".join(self.chunks))
            if not isinstance(body, dict):
                raise TypeError(f"a JSON {type(body).__name__}, not an object")
            return Update.de_json(body, self.bot)
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
            log.info("webhook body of %d bytes is not an update: %s", sum(map(len, self.chunks)),
                     type(exc).__name__ if isinstance(exc, RecursionError) else str(exc)[:120].replace("\n", " "))
            raise tornado.web.HTTPError(HTTPStatus.BAD_REQUEST) from None

    def log_exception(self, typ, value, tb) -> None:
        """Refusals are the expected answer to strangers: not logged as errors."""
        if not isinstance(value, tornado.web.HTTPError):
            super().log_exception(typ, value, tb)


class _InFlight:
    """The updates being answered: a stopping server waits for their responses (a press's at most its hold),
    so that no update it took is cut off and delivered again by the platform."""

    def __init__(self) -> None:
        self.count = 0
        self.stopping = False
        self.idle = asyncio.Event()
        self.idle.set()

    def __enter__(self) -> None:
        self.count += 1
        self.idle.clear()

    def __exit__(self, *exc) -> None:
        self.count -= 1
        if not self.count:
            self.idle.set()


class _App(tornado.web.Application):
    def log_request(self, handler: tornado.web.RequestHandler) -> None:
        """No access log: one line per update would drown the events."""


class WebhookServer:
    """Serves ``POST <path>`` on ``host:port`` until stopped.

    Args:
        host: the address to listen on.
        port: the port.
        path: the URL path Telegram posts to (the path of ``TELEGRAM_WEBHOOK_URL``).
        bot: the PTB bot the updates are decoded for.
        queue: where accepted updates go (the application's ``update_queue``).
        secret: the secret token every request must carry in :data:`SECRET_HEADER`.
        replies: where the adapter gives the answers to button presses.
        hold_s: how long the response to a button press waits for its answer.
        header_timeout_s: how long a client may take for its headers (or idle between requests).
        body_timeout_s: how long a client may take for its body.
    """

    def __init__(self, host: str, port: int, path: str, bot: Bot, queue, secret: str, replies: Replies,
                 hold_s: float, header_timeout_s: float = HEADER_TIMEOUT_S,
                 body_timeout_s: float = BODY_TIMEOUT_S) -> None:
        self._flight = _InFlight()
        self._hold_s = hold_s
        app = _App([(rf"/{path.strip('/')}/?" if path.strip("/") else r"/", _UpdateHandler,
                     {"bot": bot, "queue": queue, "secret": secret, "replies": replies, "hold_s": hold_s,
                      "flight": self._flight})])
        self._server = HTTPServer(app, idle_connection_timeout=header_timeout_s, body_timeout=body_timeout_s,
                                  max_body_size=MAX_BODY, max_header_size=16 * 1024)
        self._host, self._port = host, port
        self.port = port

    def start(self) -> None:
        """Start listening (on a free port if ``port`` is 0: see :attr:`port`)."""
        sockets = tornado.netutil.bind_sockets(self._port, address=self._host)
        self._server.add_sockets(sockets)
        self.port = sockets[0].getsockname()[1]

    async def stop(self) -> None:
        """Stop listening (a new connection is refused: a proxy in front passes it to another process), let the
        responses to the updates taken be written (a press's at most its hold, and :data:`WRITE_S`), close the
        connections."""
        self._server.stop()
        self._flight.stopping = True
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._flight.idle.wait(), self._hold_s + WRITE_S)
        await self._server.close_all_connections()
