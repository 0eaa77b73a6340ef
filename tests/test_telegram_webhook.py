"""The webhook server refuses strangers and oversized or slow requests before they cost anything."""

from __future__ import annotations

import asyncio
import json

import pytest
from telegram import Bot

from adapters.telegram.webhook import MAX_BODY, SECRET_HEADER, WebhookServer

SECRET = "a-webhook-secret_0123456789"
UPDATE = json.dumps({"update_id": 7, "message": {"message_id": 1, "date": 0, "text": "/neu",
                                                 "chat": {"id": 5, "type": "private"}}}).encode()


@pytest.fixture
async def server():
    queue: asyncio.Queue = asyncio.Queue()
    srv = WebhookServer("127.0.0.1", 0, "/tg", Bot("123:abc"), queue, SECRET, header_timeout_s=0.5,
                        body_timeout_s=0.5)
    srv.start()
    srv.queue = queue
    yield srv
    await srv.stop()


async def exchange(port: int, head: str, body: bytes = b"") -> bytes:
    """Send ``head`` (and ``body``), then read until the server closes the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(head.encode() + body)
    await writer.drain()
    try:
        return await asyncio.wait_for(reader.read(), 60)
    except ConnectionResetError:
        return b""
    finally:
        writer.close()


def post(length: int, secret: str | None = SECRET, extra: str = "") -> str:
    header = f"{SECRET_HEADER}: {secret}\r\n" if secret is not None else ""
    return (f"POST /tg HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n"
            f"{header}{extra}Connection: close\r\n\r\n")


async def test_an_update_with_the_secret_is_queued(server):
    reply = await exchange(server.port, post(len(UPDATE)), UPDATE)
    assert reply.startswith(b"HTTP/1.1 200")
    assert (await server.queue.get()).update_id == 7


@pytest.mark.parametrize("secret", [None, "", "wrong", SECRET[:-1], SECRET + "x"])
async def test_without_the_right_secret_403_and_nothing_queued(server, secret):
    reply = await exchange(server.port, post(len(UPDATE), secret), UPDATE)
    assert reply.startswith(b"HTTP/1.1 403")
    assert server.queue.empty()


async def test_a_declared_oversized_body_is_refused_before_it_is_sent(server):
    reply = await exchange(server.port, post(MAX_BODY + 1))
    assert reply.startswith(b"HTTP/1.1 413")
    assert server.queue.empty()


async def test_an_oversized_chunked_body_is_cut_off(server):
    head = (f"POST /tg HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{SECRET_HEADER}: {SECRET}\r\n"
            "Transfer-Encoding: chunked\r\n\r\n")
    chunk = b"%x\r\n%s\r\n" % (64 * 1024, b" " * 64 * 1024)
    reply = await exchange(server.port, head, chunk * (MAX_BODY // (64 * 1024) + 2))
    assert not reply.startswith(b"HTTP/1.1 200")
    assert server.queue.empty()


async def test_garbage_with_the_secret_is_a_bad_request(server):
    reply = await exchange(server.port, post(5), b"nope!")
    assert reply.startswith(b"HTTP/1.1 400")


async def test_slow_headers_are_cut_off(server):
    # Half a request line, then silence: the server closes the connection by itself.
    assert await exchange(server.port, "POST /tg HTT") == b""


async def test_a_slow_body_is_cut_off(server):
    assert not (await exchange(server.port, post(len(UPDATE)), UPDATE[:10])).startswith(b"HTTP/1.1 200")
    assert server.queue.empty()


async def test_other_paths_and_methods_are_refused(server):
    assert (await exchange(server.port, post(len(UPDATE)).replace("/tg", "/other"), UPDATE)).startswith(b"HTTP/1.1 404")
    get = f"GET /tg HTTP/1.1\r\nHost: x\r\n{SECRET_HEADER}: {SECRET}\r\nConnection: close\r\n\r\n"
    assert (await exchange(server.port, get)).startswith(b"HTTP/1.1 405")
