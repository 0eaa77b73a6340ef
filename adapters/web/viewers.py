"""The open connections of the web table, and each one's fresh view the moment its table is saved.

One :class:`Viewers` per process: it admits connections within the limits (per person, per process),
listens to the feed of saved tables (Redis pub/sub, so a save in any process counts) and pushes
every connection of a table that moved its seat's new view, once per version: a connection is only
sent a view newer than the one it shows. A seat's view is read and made text once for all of its
connections; the players' connections are sent it before the watchers'. While a push of a table runs, newer saves wait for it and
are pushed together after it (a burst of moves costs one view per seat). After a break of the feed
every table is pushed again (what was missed is caught up from the stored table).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter
from typing import Any

from aiohttp import web

from adapters.common.webauth import SEAT, WATCH
from bot.ops import metrics
from bot.protocol.outgoing import UserRef
from bot.words import web_text

from .bucket import Bucket
from .tuning import Tuning

__all__ = ["Viewers", "Connection", "close", "as_text", "view_text", "CLOSE_AUTH", "CLOSE_GONE", "CLOSE_POLICY", "CLOSE_CODES"]

log = logging.getLogger(__name__)

CLOSE_AUTH = 4401
"""The close code of a connection whose link or init data expired."""
CLOSE_GONE = 4404
"""The close code of a connection whose table is gone or which holds no seat there any more."""
CLOSE_POLICY = 1008
"""The close code of a connection that broke the rules (a message that is not one)."""
CLOSE_CODES = {"denied": CLOSE_AUTH, "expired": CLOSE_AUTH, "not_seated": 4403, "no_table": CLOSE_GONE}
"""The close code of each refusal (a ``web.*`` text key): like HTTP's 401, 403 and 404."""
PUBLIC = ""
"""The view key of every watch link's connection: they share the table's public view."""
_REASON_BYTES = 123
"""The longest close reason WebSocket allows."""


def as_text(message: dict[str, Any]) -> str:
    """A message of the feed as the text it is sent as (compact JSON, UTF-8 as it is)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def view_text(view: dict[str, Any]) -> str:
    """The feed's message of ``view``, made text once for every connection of its seat."""
    return as_text({"type": "view", "view": view})


async def close(ws: web.WebSocketResponse, refusal: str, lang: str) -> None:
    """Close ``ws`` with the code of ``refusal`` and its text (cut to what a close frame holds) as the reason."""
    reason = web_text(lang, refusal).encode()
    if len(reason) > _REASON_BYTES:
        reason = reason[:_REASON_BYTES].decode(errors="ignore").encode()
    await ws.close(code=CLOSE_CODES[refusal], message=reason)


class Connection:
    """One open WebSocket of one viewer at one table.

    Args:
        ws: the prepared (or about to be prepared) WebSocket.
        user: who looks (the seat is his).
        table: the table he looks at.
        expires: when his credential runs out (epoch seconds).
        rate: taps allowed per second (twice as many in a burst).
        lang: the language of its refusals (the table's, once its first view is shown).
        linked: whether it came with a link token (else with Telegram's init data).
        access: what its credential shows (:data:`adapters.common.webauth.SEAT`, ``ANY``, ``WATCH``).
    """

    def __init__(self, ws: web.WebSocketResponse, user: UserRef, table: str, expires: float, rate: float,
                 lang: str = "de", linked: bool = False, access: str = SEAT) -> None:
        self.ws = ws
        self.linked = linked
        self.access = access
        self.watcher = access == WATCH
        """Whether it is counted as a watcher (its first view was the public one)."""
        self.watching = self.watcher
        """Whether the view it was sent last is the public one (its taps are refused)."""
        self.lang = lang
        self.user = user
        self.table = table
        self.expires = expires
        self.version = -1
        self.ready = False
        self._taps = Bucket(rate)

    @property
    def view_key(self) -> str:
        """Whose view it shows: its person's, or :data:`PUBLIC` (one view for every watch link)."""
        return PUBLIC if self.access == WATCH else self.user.key

    def allowed(self) -> bool:
        """Whether one more tap fits the rate (a token bucket of ``2 * rate``)."""
        return self._taps.allowed()

    async def send(self, message: dict[str, Any], timeout_s: float) -> bool:
        """Send one message; a client too slow to take it within ``timeout_s`` is closed. Whether it went."""
        return await self.send_text(as_text(message), timeout_s)

    async def send_text(self, text: str, timeout_s: float) -> bool:
        """Send one message already made text (:func:`as_text`), as :meth:`send` does."""
        if self.ws.closed:
            return False
        try:
            async with asyncio.timeout(timeout_s):  # no task of its own per message, as wait_for would make
                await self.ws.send_str(text)
            return True
        except (asyncio.TimeoutError, ConnectionError, RuntimeError):
            with contextlib.suppress(Exception):
                await self.ws.close(code=CLOSE_POLICY, message=b"too slow")
            return False

    async def show(self, view: dict[str, Any], timeout_s: float, text: str | None = None) -> None:
        """Send ``view`` if it is newer than what the connection shows; close it if he may see the table no more.

        ``text`` is its message made text already (:func:`view_text`), shared by the connections of one seat.
        """
        if "refused" in view:
            await close(self.ws, view["refused"], view.get("lang") or self.lang)
            return
        self.lang = view["lang"]
        self.watching = bool(view.get("watching"))
        if view["version"] <= self.version:
            return
        if await self.send_text(text or view_text(view), timeout_s):
            self.version = view["version"]


class Viewers:
    """Every open connection of this process, by table; pushes fresh views as tables are saved.

    Args:
        service: the bot layer's service (``web_view``, ``feed``).
        tuning: the limits.
    """

    def __init__(self, service, tuning: Tuning) -> None:
        self._service = service
        self._tuning = tuning
        self._tables: dict[str, set[Connection]] = {}
        self._users: Counter[str] = Counter()
        self._latest: dict[str, int] = {}
        self._pushing: dict[str, asyncio.Task] = {}
        self._again: set[str] = set()
        self._feed = None
        self.count = 0

    async def start(self) -> None:
        """Subscribe to the saves of every process (returns once subscribed)."""
        self._feed = self._service.feed(self.moved, self.gap)
        await self._feed.start()

    async def stop(self) -> None:
        """Stop listening, stop the pushes and close every connection."""
        if self._feed is not None:
            await self._feed.stop()
        for task in list(self._pushing.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for conns in list(self._tables.values()):
            for conn in list(conns):
                with contextlib.suppress(Exception):
                    await conn.ws.close(code=1001, message=b"server stops")

    def refusal(self, user: UserRef) -> str | None:
        """Why one more connection of ``user`` is not admitted now (a ``web.*`` text key), or ``None``."""
        if self.count >= self._tuning.connections:
            return "busy"
        if self._users[user.key] >= self._tuning.connections_per_user:
            return "too_many"
        return None

    def add(self, conn: Connection) -> None:
        """Count the connection in, before its first view is read: no save after that goes unheard."""
        self._tables.setdefault(conn.table, set()).add(conn)
        self._users[conn.user.key] += 1
        self.count += 1
        metrics.WEB_CONNECTIONS.inc()

    def remove(self, conn: Connection) -> None:
        """Count the connection out."""
        conns = self._tables.get(conn.table)
        if conns is None or conn not in conns:
            return
        conns.discard(conn)
        if not conns:
            del self._tables[conn.table]
            self._latest.pop(conn.table, None)
        self._users[conn.user.key] -= 1
        if self._users[conn.user.key] <= 0:
            del self._users[conn.user.key]
        self.count -= 1
        metrics.WEB_CONNECTIONS.dec()

    def opened(self, conn: Connection) -> None:
        """The connection shows its first view: from now on it is pushed (and at once if a save came meanwhile)."""
        conn.ready = True
        if self._latest.get(conn.table, -1) > conn.version:
            self._schedule(conn.table)

    def moved(self, table: str, version: int) -> None:
        """The feed's news: ``table`` is saved at ``version``; push it if someone here looks at it."""
        conns = self._tables.get(table)
        if not conns:
            return
        self._latest[table] = max(version, self._latest.get(table, -1))
        if any(conn.version < version for conn in conns):
            self._schedule(table)

    def gap(self) -> None:
        """The feed was away a while: push every table (the views say whether anything is new)."""
        for table in list(self._tables):
            self._schedule(table)

    def pushed(self, table: str, view: dict[str, Any]) -> None:
        """A push of ``table`` went out; ``view`` is one of its views (a subclass may look at it)."""

    def _schedule(self, table: str) -> None:
        if table in self._pushing:
            self._again.add(table)
            return
        self._pushing[table] = asyncio.get_running_loop().create_task(self._push(table))

    async def _push(self, table: str) -> None:
        try:
            while True:
                self._again.discard(table)
                conns = sorted((c for c in self._tables.get(table, ()) if c.ready), key=lambda c: c.watching)
                asks = {c.view_key: (c.user, c.access) for c in conns}
                views = dict(zip(asks, await self._service.web_views(table, list(asks.values()))))
                texts = {key: None if "refused" in view else view_text(view) for key, view in views.items()}
                await asyncio.gather(*(conn.show(views[conn.view_key], self._tuning.send_timeout_s,
                                                 texts[conn.view_key]) for conn in conns))
                self.pushed(table, next(iter(views.values()), {}))
                if table not in self._again:
                    return
        except Exception:  # noqa: BLE001  (a push that failed is logged; the next save pushes again)
            log.exception("the web table could not push table %s", table)
        finally:
            self._pushing.pop(table, None)
