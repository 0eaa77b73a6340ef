"""The web port against slow and surplus clients (raw sockets): half-sent requests are closed within their
time, connections over the counts per address and in all are refused at once, and everyone else gets in."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import pytest

from adapters.common.slowclients import client_of
from adapters.web import Tuning
from bot.words.webview import web_text
from tests.adapters.web.webkit import link, person, started, table_of_four
from tests.servicekit import service

HEADER_S, BODY_S = 0.5, 0.5
SLACK_S = 1.5
"""What a loaded machine may add to a bound before the close is seen."""
WAIT_S = 20.0
"""The longest wait for anything (the unguarded server held such connections for an hour)."""
TUNING = Tuning(header_timeout_s=HEADER_S, body_timeout_s=BODY_S, waiting_per_ip=3, waiting=5, connections_per_user=8)


@pytest.fixture
async def serving(store):
    """Start a web table with the given tuning (at most one per test); it stops afterwards."""
    servers = []

    async def start(tuning: Tuning = TUNING):
        servers.append(await started(service(store, reminder_after="off", autoplay_after="off"), tuning))
        return servers[-1]
    yield start
    for srv in servers:
        await srv.stop()


@pytest.fixture
async def server(serving):
    return await serving()


async def opened(port: int, sent: bytes = b"", source: str = "127.0.0.1"):
    """A raw connection from ``source`` that has sent ``sent``."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(sent)
    await writer.drain()
    return reader, writer


async def until_closed(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sends until it closes the connection (or resets it: a client still sending)."""
    answer = b""
    try:
        while chunk := await asyncio.wait_for(reader.read(65536), WAIT_S):
            answer += chunk
    except ConnectionResetError:
        pass
    return answer


async def trickle(writer: asyncio.StreamWriter, data: bytes) -> None:
    """Send ``data`` a byte every 0.1 s, until it is sent or the server closed the connection."""
    try:
        for i in range(len(data)):
            writer.write(data[i:i + 1])
            await writer.drain()
            await asyncio.sleep(0.1)
    except ConnectionError:
        pass


async def closed_after(reader: asyncio.StreamReader, started_at: float) -> tuple[float, bytes]:
    answer = await until_closed(reader)
    return time.monotonic() - started_at, answer


def get(path: str, extra: str = "") -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: x\r\n{extra}\r\n".encode()


async def status_of(port: int, source: str) -> int:
    """The status of a normal request from ``source``."""
    reader, writer = await opened(port, get("/static/table.js", "Connection: close\r\n"), source)
    answer = await until_closed(reader)
    writer.close()
    return int(answer.split(b" ", 2)[1]) if answer else 0


async def test_half_sent_and_trickled_requests_are_closed_within_their_time(server):
    start = time.monotonic()
    partial = await opened(server.port, b"GET / HTT")
    trickled = await opened(server.port)
    slow_body = await opened(server.port, get("/", "Content-Length: 1000\r\n"))
    feeding = [asyncio.create_task(trickle(trickled[1], get("/" + "a" * 200))),
               asyncio.create_task(trickle(slow_body[1], b"x" * 200))]
    held = await asyncio.gather(*(closed_after(reader, start) for reader, _ in (partial, trickled, slow_body)))
    await asyncio.gather(*feeding)
    assert [answer for _, answer in held[:2]] == [b"", b""]  # the request never came: closed without an answer
    assert held[2][1].startswith(b"HTTP/1.1 200")  # the page, then its body's time runs out
    assert max(seconds for seconds, _ in held[:2]) < HEADER_S + SLACK_S, held
    assert held[2][0] < HEADER_S + BODY_S + SLACK_S, held
    # a kept-alive connection's next request has the same time for its headers
    reader, writer = await opened(server.port, get("/static/table.js") + b"GET /static/tab")
    again = time.monotonic()
    answer = await until_closed(reader)
    assert answer.startswith(b"HTTP/1.1 200") and time.monotonic() - again < HEADER_S + SLACK_S
    for _, w in (partial, trickled, slow_body, (reader, writer)):
        w.close()


async def test_connections_over_the_counts_are_refused_and_others_get_in(serving):
    server = await serving(TUNING.model_copy(update={"header_timeout_s": WAIT_S}))  # none runs out meanwhile
    busy = web_text("de", "busy")
    held = [await opened(server.port, b"GET / HTT") for _ in range(3)]  # the count of 127.0.0.1
    reader, writer = await opened(server.port, b"GET / HTTP/1.1\r\n")
    refused = await until_closed(reader)
    assert refused.startswith(b"HTTP/1.1 503") and refused.decode().endswith(busy + "\n")
    assert await status_of(server.port, "127.0.0.2") == 200  # another address gets in
    held += [await opened(server.port, b"GET / HTT", "127.0.0.2") for _ in range(2)]  # now 5 in all
    assert await status_of(server.port, "127.0.0.3") == 503
    assert server.door.count == 5
    for r, w in held:
        w.close()
        await until_closed(r)
    assert await status_of(server.port, "127.0.0.1") == 200
    assert server.door.count == 0
    writer.close()


async def test_live_feeds_leave_the_count_and_outlive_the_time_for_a_request(server):
    table = await table_of_four(server._service)
    url = link(server, table, person(0), "/ws").replace("http://", "ws://")
    async with aiohttp.ClientSession() as http:
        feeds = [await http.ws_connect(url) for _ in range(4)]  # more than the 3 of one address
        for ws in feeds:
            assert (await asyncio.wait_for(ws.receive_json(), WAIT_S))["type"] == "view"
        assert server.door.count == 0 and await status_of(server.port, "127.0.0.1") == 200
        held = await opened(server.port, b"GET / HTT")
        await until_closed(held[0])  # longer than the time for a request: the feeds stay open
        assert not any(ws.closed for ws in feeds)
        await feeds[0].send_json({"verb": "x"})  # and they still talk
        assert (await asyncio.wait_for(feeds[0].receive(), WAIT_S)).type == aiohttp.WSMsgType.CLOSE
        assert feeds[0].close_code == 1008
        for ws in feeds:
            await ws.close()
        held[1].close()


def test_an_ipv6_client_counts_by_its_64_and_a_mapped_ipv4_one_by_its_address():
    one, same, other = ("2001:db8:1:2:aaaa::1", 5, 0, 0), ("2001:db8:1:2:bbbb::9", 6, 0, 0), ("2001:db8:1:3::1", 5, 0, 0)
    assert client_of(one) == client_of(same) == "2001:db8:1:2::/64" != client_of(other)
    assert client_of(("::ffff:10.0.0.1", 5, 0, 0)) == client_of(("10.0.0.1", 5)) == "10.0.0.1"
