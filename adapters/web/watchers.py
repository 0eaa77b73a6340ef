"""Watchers (Kiebitze) at the web table, and every page following its match to the chat's next table.

:class:`Watched` is the process's :class:`~adapters.web.viewers.Viewers` that also

- counts the watchers of each table across processes: each watcher's page is noted in Redis when it
  opens, dropped when it closes and renewed every ``Tuning.watchers_renew_s`` (a page of a process that died
  drops out within the count's time to live); every page of the table (players' and watchers') is
  sent ``{"type": "watchers", "count": n, "text": …}`` when the count changes (at once in this
  process, within ``watchers_renew_s`` in another);
- notes each player's page of his own seat in Redis the same way (:data:`~bot.store.watchers.SEATED`), so the
  chat adapters of every process hold back the edits of his private hand while it is open;
- moves every page of an ended table on to the table opened after it in its chat (a rematch, a new
  table): ``follow(connection, table)`` hands the page a credential for it. It looks when a table's
  push shows it ended, when a new table is saved anywhere (its first versions), and every ``watchers_renew_s``.

A watch link's connections (a channel's link, the second window at home) count against
``Tuning.watchers_per_link`` instead of a person's connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import Any

from adapters.common.webauth import SEAT, WATCH
from bot.protocol.outgoing import UserRef
from bot.words import watchers_text

from .tuning import Tuning
from .viewers import Connection, Viewers, as_text

__all__ = ["Watched", "NEW_VERSIONS", "TELL_EVERY_S"]

log = logging.getLogger(__name__)

NEW_VERSIONS = 2
"""A table saved at this version or lower is new (a rematch starts at 2): an ended table here may have a next."""
STOP_S = 2.0
"""How long a stopping server waits for its last notes and follows."""
TELL_EVERY_S = 0.5
"""The least time between two counts told to a table's pages."""
_ENDED = ("finished", "aborted")


class Watched(Viewers):
    """:class:`Viewers` with watchers counted and pages that follow the match.

    Args:
        service: the bot layer's service (``web_views``, ``feed``, ``watched``, ``next_table``).
        tuning: the limits.
        follow: ``follow(connection, table)`` tells the connection's page to open ``table``.
    """

    def __init__(self, service, tuning: Tuning, follow: Callable[[Connection, str], Awaitable[None]]) -> None:
        super().__init__(service, tuning)
        self._follow = follow
        self._name = secrets.token_hex(4)
        self._serial = itertools.count()
        self._pages: dict[str, dict[Connection, str]] = {}
        """The watchers' pages here, by table: each connection's name in the count."""
        self._seated: dict[str, dict[Connection, tuple[str, str]]] = {}
        """The players' pages of their own seats here, by table: each connection's player and name."""
        self._added: dict[str, set[str]] = {}
        self._gone: dict[str, set[str]] = {}
        self._syncing: set[str] = set()
        self._counts: dict[str, int] = {}
        self._ended: set[str] = set()
        self._followed: set[Connection] = set()
        self._tasks: set[asyncio.Task] = set()
        self._renewing: asyncio.Task | None = None
        self._stopped = False

    async def start(self) -> None:
        """Subscribe to the saves and start renewing the watchers."""
        await super().start()
        self._renewing = asyncio.get_running_loop().create_task(self._renew())

    async def stop(self) -> None:
        """Stop renewing, then as :meth:`Viewers.stop`; the pages closed are dropped from the counts (what is
        not done within :data:`STOP_S` drops out within a minute)."""
        if self._renewing is not None:
            self._renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewing
        await super().stop()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=STOP_S)
        self._stopped = True  # connections closing from now on drop out of the counts by themselves
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def refusal(self, user: UserRef, access: str = SEAT) -> str | None:
        """As :meth:`Viewers.refusal`; a watch link's connections are bounded by ``watchers_per_link``."""
        if access != WATCH:
            return super().refusal(user)
        if self.count >= self._tuning.connections:
            return "busy"
        return "too_many" if self._users[user.key] >= self._tuning.watchers_per_link else None

    def opened(self, conn: Connection, view: dict[str, Any] | None = None) -> None:
        """The connection shows its first ``view``: a watcher is counted in, a player told the count; an ended
        table's next table is looked for."""
        super().opened(conn)
        conn.watcher = conn.watcher or bool(view and view.get("watching"))
        if conn.watcher:
            page = self._pages.setdefault(conn.table, {})[conn] = f"{self._name}:{next(self._serial)}"
            self._count(conn.table, added=[page])
        elif view and not view.get("watching"):
            page = (conn.user.key, f"{self._name}:{next(self._serial)}")
            self._seated.setdefault(conn.table, {})[conn] = page
            self._spawn(self._service.seated_pages(conn.table, [page]))
        elif conn.table not in self._counts:
            self._count(conn.table)
        elif self._counts[conn.table]:
            self._spawn(self._tell([conn], self._counts[conn.table]))
        if view and view.get("state") in _ENDED:
            self._ended.add(conn.table)
            self._spawn(self._next(conn.table))

    def remove(self, conn: Connection) -> None:
        """Count the connection out (and a watcher's page out of the table's count)."""
        super().remove(conn)
        self._followed.discard(conn)
        page = self._pages.get(conn.table, {}).pop(conn, None)
        if page is not None:
            self._count(conn.table, gone=[page])
        seated = self._seated.get(conn.table, {})
        page = seated.pop(conn, None)
        if page is not None:
            self._spawn(self._service.seated_pages(conn.table, [], [page]))
            if not seated:
                del self._seated[conn.table]
        if conn.table not in self._tables:
            self._pages.pop(conn.table, None)
            self._counts.pop(conn.table, None)
            self._ended.discard(conn.table)

    def moved(self, table: str, version: int) -> None:
        """As :meth:`Viewers.moved`; a new table elsewhere may be the next of an ended one here."""
        super().moved(table, version)
        if version <= NEW_VERSIONS and table not in self._tables:
            for ended in list(self._ended):
                self._spawn(self._next(ended))

    def pushed(self, table: str, view: dict[str, Any]) -> None:
        """A push showed ``table`` ended: look for its next table."""
        if view.get("state") in _ENDED:
            self._ended.add(table)
            self._spawn(self._next(table))

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        if self._stopped:
            coro.close()
            return
        task = asyncio.get_running_loop().create_task(self._logged(coro))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _logged(coro: Coroutine[Any, Any, None]) -> None:
        try:
            await coro
        except Exception:  # noqa: BLE001  (Redis away: the next renewal tells the count again)
            log.warning("the web table's watchers could not be counted or followed", exc_info=True)

    def _count(self, table: str, added: Iterable[str] = (), gone: Iterable[str] = ()) -> None:
        """Note pages of ``table`` that came or went (none: read its count), and tell its pages the count.

        Notes that come while one is on its way go together in the next, and a count told is followed by
        the next one :data:`TELL_EVERY_S` later at the soonest: a crowd coming at once costs a few notes
        and messages, not one each.
        """
        self._added.setdefault(table, set()).update(added)
        self._gone.setdefault(table, set()).update(gone)
        if table not in self._syncing:
            self._syncing.add(table)
            self._spawn(self._sync(table))

    async def _sync(self, table: str) -> None:
        try:
            while table in self._added:
                gone = self._gone.pop(table, set())
                added = self._added.pop(table) - gone  # a page that went after its renewal was asked for
                if await self._told(table, await self._service.watched(table, sorted(added), sorted(gone))):
                    await asyncio.sleep(TELL_EVERY_S)
        finally:
            self._syncing.discard(table)
            self._added.pop(table, None)  # what failed is noted again at the next renewal
            self._gone.pop(table, None)

    async def _told(self, table: str, count: int) -> bool:
        """Tell the table's pages here ``count``, if it changed; whether they were told."""
        if table not in self._tables:
            return False
        previous, self._counts[table] = self._counts.get(table, 0), count
        if previous == count:
            return False
        await self._tell([c for c in self._tables.get(table, ()) if c.ready], count)
        return True

    async def _tell(self, conns: list[Connection], count: int) -> None:
        texts = {lang: as_text({"type": "watchers", "count": count, "text": watchers_text(lang, count)})
                 for lang in {c.lang for c in conns}}
        timeout = self._tuning.send_timeout_s
        await asyncio.gather(*(c.send_text(texts[c.lang], timeout) for c in conns))

    async def _next(self, table: str) -> None:
        """Send every page of ended ``table`` here on to the next table of its chat, once there is one."""
        following = await self._service.next_table(table)
        if following is None:
            return
        self._ended.discard(table)
        for conn in [c for c in self._tables.get(table, ()) if c not in self._followed]:
            self._followed.add(conn)
            await self._follow(conn, following)

    async def _renew(self) -> None:
        """Every ``watchers_renew_s``: renew this process's watchers and players' pages, read every table's count,
        look for next tables."""
        while True:
            await asyncio.sleep(self._tuning.watchers_renew_s)
            for table in list(self._tables):
                self._count(table, added=self._pages.get(table, {}).values())
            for table, pages in list(self._seated.items()):
                self._spawn(self._service.seated_pages(table, list(pages.values())))
            for table in list(self._ended):
                await self._logged(self._next(table))
