"""The webhook server refuses strangers and oversized or slow requests before they cost anything,
and a button press's answer rides on the HTTP reply to its update (real PTB against the fake
Bot API, which carries out a method returned in the reply as Telegram does)."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from telegram import Bot

from adapters.telegram.replies import Replies, answer_method
from adapters.telegram.webhook import MAX_BODY, SECRET_HEADER, WebhookServer
from bot.service import Service
from tests.fakes.telegram import VIA_REPLY, FakeTelegram
from tests.fakes.telegram.harness import FAST, fake_for, newest, running_bot, version

SECRET = "a-webhook-secret_0123456789"
UPDATE = json.dumps({"update_id": 7, "message": {"message_id": 1, "date": 0, "text": "/neu",
                                                 "chat": {"id": 5, "type": "private"}}}).encode()


@pytest.fixture
async def server():
    queue: asyncio.Queue = asyncio.Queue()
    srv = WebhookServer("127.0.0.1", 0, "/tg", Bot("123:abc"), queue, SECRET, Replies(), 0.1,
                        header_timeout_s=0.5, body_timeout_s=0.5)
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


@pytest.mark.parametrize("body", [b"[1, 2]", b'"update"', b"7", b"null", b"[" * 100_000 + b"]" * 100_000,
                                  b'{"a":' * 100_000 + b"1" + b"}" * 100_000, b'{"update_id": 1, "message": []}'])
async def test_a_body_that_is_no_update_is_a_bad_request_and_one_line(server, caplog, body):
    caplog.set_level(logging.INFO)
    reply = await exchange(server.port, post(len(body)), body)
    assert reply.startswith(b"HTTP/1.1 400")
    lines = [r for r in caplog.records if r.name.startswith(("adapters", "tornado"))]
    assert len(lines) == 1 and lines[0].levelname == "INFO" and not lines[0].exc_info, lines
    assert "\n" not in lines[0].getMessage() and len(lines[0].getMessage()) < 200
    assert server.queue.empty()


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


async def test_a_stopping_server_takes_no_new_connection_and_answers_the_press_it_took():
    """A rolling restart: the proxy in front finds the port closed and goes to another process, while the press
    taken gets its answer on its reply (a cut connection would have the platform deliver it again, late)."""
    queue: asyncio.Queue = asyncio.Queue()
    replies = Replies()
    srv = WebhookServer("127.0.0.1", 0, "/tg", Bot("123:abc"), queue, SECRET, replies, 600.0)
    srv.start()
    press = json.dumps({"update_id": 8, "callback_query": {"id": "q8", "chat_instance": "5", "data": "st1:x",
                                                           "from": {"id": 5, "is_bot": False, "first_name": "A"}}})
    reply = asyncio.ensure_future(exchange(srv.port, post(len(press)), press.encode()))
    taken = await queue.get()
    stopping = asyncio.ensure_future(srv.stop())
    while True:  # until the port is closed
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", srv.port)
        except (ConnectionRefusedError, ConnectionResetError):  # reset: it was waiting in the closed port's backlog
            break
        writer.close()
        await asyncio.sleep(0.01)
    assert replies.give(answer_method(taken.callback_query.id, "Gespielt"))
    answered = await reply
    assert answered.startswith(b"HTTP/1.1 200") and b'"answerCallbackQuery"' in answered, answered
    await stopping


GROUP = -100123


def table_of(tg: FakeTelegram) -> str | None:
    """The id of the table whose lobby is the newest message in the group."""
    for b in tg.last(GROUP).buttons if tg.chat(GROUP) else []:
        if ":join:" in b.get("callback_data", ""):
            return b["callback_data"].split(":")[1]
    return None


def answer_calls(tg: FakeTelegram, qid: str | None = None) -> list[tuple[dict, int]]:
    """Every ``answerCallbackQuery`` the fake carried out (for ``qid``): its parameters and status."""
    return [(p, status) for _, m, p, status in tg.calls
            if m == "answerCallbackQuery" and qid in (None, p.get("callback_query_id"))]


async def test_answers_ride_on_the_webhook_reply_and_a_redelivery_has_no_second_effect(store, redis, key_prefix):
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch")
        anna, ben, cleo = (tg.user(11 + i, n, started=True) for i, n in enumerate(["Anna", "Ben", "Cleo"]))
        dora = tg.user(14, "Dora")  # never wrote to the bot: her join is a deep link
        async with running_bot(tg, store, redis, key_prefix, webhook=True):
            anna.send(GROUP, "/neu bauerchen")
            tid = await tg.wait_for(lambda: table_of(tg), what="the lobby")
            seen = version(tg, GROUP, tid)
            joined = ben.press(newest(tg, GROUP, tid), data=f"st1:{tid}:{seen}:join:")
            assert (await tg.wait_answer(joined)) == {"callback_query_id": joined, VIA_REPLY: True}
            await tg.wait_for(lambda: "Ben" in newest(tg, GROUP, tid).text, what="Ben seated")
            refused = await tg.wait_answer(cleo.press(newest(tg, GROUP, tid), data=f"st1:{tid}:{seen}:start:"))
            assert refused.get(VIA_REPLY) and refused["text"], refused
            link = await tg.wait_answer(dora.press(newest(tg, GROUP, tid), data=f"st1:{tid}:{seen}:join:"))
            assert link.get(VIA_REPLY) and "start=" in link["url"], link
            await tg.drained()
            assert [p for p, _ in answer_calls(tg) if not p.get(VIA_REPLY)] == [], "an answer cost an API call"

            before = (await store.load(tid))[0]
            update = next(u for u in tg.delivered if u.get("callback_query", {}).get("id") == joined)
            tg.replay(update["update_id"])
            await tg.wait_for(lambda: len(answer_calls(tg, joined)) == 2, what="the redelivered press answered")
            assert answer_calls(tg, joined)[1] == ({"callback_query_id": joined, VIA_REPLY: True}, 400)
            assert tg.answers[joined] == {"callback_query_id": joined, VIA_REPLY: True}
            assert (await store.load(tid))[0] == before, "the redelivered join changed the table"


async def test_a_late_verdict_is_answered_by_a_call_and_a_failed_press_empty_on_the_reply(store, redis, key_prefix):
    verdict = asyncio.Event()

    class Held(Service):
        """Decides a join only when the test says so, and fails on every start."""

        async def handle(self, cmd):
            if cmd.token and ":join:" in cmd.token:
                await verdict.wait()
            if cmd.token and ":start:" in cmd.token:
                raise RuntimeError("a bug in handling")
            return await super().handle(cmd)

    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch")
        anna, ben = tg.user(11, "Anna", started=True), tg.user(12, "Ben", started=True)
        async with running_bot(tg, store, redis, key_prefix, FAST.model_copy(update={"ack_deadline_s": 0.2}),
                               webhook=True, service=Held):
            anna.send(GROUP, "/neu bauerchen")
            tid = await tg.wait_for(lambda: table_of(tg), what="the lobby")
            seen = version(tg, GROUP, tid)
            joined = ben.press(newest(tg, GROUP, tid), data=f"st1:{tid}:{seen}:join:")
            assert (await tg.wait_answer(joined)) == {"callback_query_id": joined}, "answered by an API call"
            update = next(u["update_id"] for u in tg.delivered if u.get("callback_query", {}).get("id") == joined)
            assert [status for uid, _, status in tg.webhook_deliveries if uid == update] == [200]
            verdict.set()
            await tg.wait_for(lambda: "Ben" in newest(tg, GROUP, tid).text, what="the late join shown")
            failed = anna.press(newest(tg, GROUP, tid), data=f"st1:{tid}:{version(tg, GROUP, tid)}:start:")
            assert (await tg.wait_answer(failed)) == {"callback_query_id": failed, VIA_REPLY: True}
            await tg.drained()
            assert [status for _, status in answer_calls(tg, joined) + answer_calls(tg, failed)] == [200, 200]
