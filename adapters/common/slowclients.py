"""Slow and surplus clients of our HTTP ports: how long a request may take to arrive, and how many
connections may wait for one.

Both ports give a client the same times: :data:`HEADER_TIMEOUT_S` for its headers (or to stay
idle between requests) and :data:`BODY_TIMEOUT_S` for its body. Telegram's webhook server
(tornado) enforces them itself. The web table's server (aiohttp) bounds neither the first
request's headers nor the connections that wait for one; it takes every connection through a
:class:`Door`. The door counts a connection per client address (an IPv6 client by its /64
network) and in all until it becomes a live feed (a WebSocket) or closes. It closes one whose
request has not arrived in time, and answers one over a count 503 and closes it before reading
anything of it.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections import Counter
from collections.abc import Callable
from typing import Any

__all__ = ["HEADER_TIMEOUT_S", "BODY_TIMEOUT_S", "Door", "client_of"]

HEADER_TIMEOUT_S = 10.0
"""How long a client may take to send its headers, or keep an idle connection open."""
BODY_TIMEOUT_S = 10.0
"""How long a client may take to send its body."""


def client_of(peer: Any) -> str:
    """Whom a connection from ``peer`` (its ``peername``) counts for: its IPv4 address, an IPv6 one's /64."""
    host = peer[0] if isinstance(peer, tuple) and peer else str(peer)
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return str(host)
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class Door:
    """The connections of one listening port until their first request arrives or they become live feeds.

    Args:
        per_client: connections one client (:func:`client_of`) may hold that are not live feeds.
        total: such connections of all clients together.
        header_timeout_s: how long a new connection may take to bring a request.
        busy: the text of the 503 that a connection over a count gets.
    """

    def __init__(self, per_client: int, total: int, header_timeout_s: float, busy: str) -> None:
        self.per_client = per_client
        self.total = total
        self.header_timeout_s = header_timeout_s
        body = busy.encode() + b"\n"
        self.refusal = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                        b"Retry-After: 10\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(body)) + body
        self._clients: Counter[str] = Counter()
        self._waiting: dict[asyncio.BaseTransport, _Guarded] = {}

    @property
    def count(self) -> int:
        """The connections counted now."""
        return len(self._waiting)

    def protocol(self, factory: Callable[[], asyncio.Protocol]) -> Callable[[], asyncio.Protocol]:
        """A protocol factory for ``loop.create_server``: ``factory``'s protocols behind this door."""
        return lambda: _Guarded(self, factory)

    def arrived(self, transport: asyncio.BaseTransport) -> None:
        """A request of the connection on ``transport`` is in: its time for one no longer runs."""
        guard = self._waiting.get(transport)
        if guard is not None:
            guard.settle()

    def opened(self, transport: asyncio.BaseTransport) -> None:
        """The connection on ``transport`` is a live feed now: the door counts it no longer."""
        guard = self._waiting.pop(transport, None)
        if guard is not None:
            guard.settle()
            self._leave(guard.client)

    def _admit(self, guard: _Guarded, transport: asyncio.BaseTransport) -> bool:
        if len(self._waiting) >= self.total or self._clients[guard.client] >= self.per_client:
            return False
        self._clients[guard.client] += 1
        self._waiting[transport] = guard
        return True

    def _closed(self, transport: asyncio.BaseTransport) -> None:
        guard = self._waiting.pop(transport, None)
        if guard is not None:
            self._leave(guard.client)

    def _leave(self, client: str) -> None:
        self._clients[client] -= 1
        if self._clients[client] <= 0:
            del self._clients[client]


class _Guarded(asyncio.Protocol):
    """One connection at the door: admitted with a deadline for its request, or refused; then passed through."""

    def __init__(self, door: Door, factory: Callable[[], asyncio.Protocol]) -> None:
        self._door = door
        self._factory = factory
        self._inner: asyncio.Protocol | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._transport: asyncio.BaseTransport | None = None
        self.client = ""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Admit the connection (its request due in ``header_timeout_s``), or answer 503 and close it."""
        self.client = client_of(transport.get_extra_info("peername"))
        self._transport = transport
        if not self._door._admit(self, transport):
            transport.write(self._door.refusal)  # type: ignore[attr-defined]
            transport.close()
            return
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(self._door.header_timeout_s, transport.abort)  # type: ignore[attr-defined]
        self._inner = self._factory()
        self._inner.connection_made(transport)

    def settle(self) -> None:
        """Its request is in: no deadline from the door any more."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def data_received(self, data: bytes) -> None:
        """Passed through (nothing is read of a refused connection)."""
        if self._inner is not None:
            self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        """Passed through."""
        return self._inner.eof_received() if self._inner is not None else None

    def pause_writing(self) -> None:
        """Passed through."""
        if self._inner is not None:
            self._inner.pause_writing()

    def resume_writing(self) -> None:
        """Passed through."""
        if self._inner is not None:
            self._inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        """Counted out, then passed through."""
        self.settle()
        if self._transport is not None:
            self._door._closed(self._transport)
        if self._inner is not None:
            self._inner.connection_lost(exc)
