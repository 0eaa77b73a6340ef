"""The web table's server against real Redis: credentials on every request and connection, each viewer's
own view, taps as button presses, live pushes from any process, catch-up on reconnecting, and the limits."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from urllib.parse import quote

import aiohttp
import pytest
from prometheus_client import REGISTRY

import engine
from adapters.common.webauth import LINK_TTL_S
from adapters.web import Tuning
from bot.table.record import Table
from bot.words.i18n import t
from bot.words.webview import web_text
from tests.adapters.web.webkit import Clock, init_data, link, person, started, table_of_four
from tests.servicekit import service

WAIT_S = 20.0


@pytest.fixture
async def setup(store):
    svc = service(store, seed=5, reminder_after="off", autoplay_after="off")
    table = await table_of_four(svc)
    clock = Clock()
    server = await started(svc, Tuning(messages_per_second=2, message_bytes=512, connections_per_user=3,
                                       connections=8), clock)
    async with aiohttp.ClientSession() as http:
        yield svc, table, server, http, clock
    await server.stop()


def socket_url(url: str) -> str:
    return url.replace("http://", "ws://").replace("/api/view?", "/ws?")


async def closed_with(http: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    """The close code and reason of a live feed that is refused: it opens, sends nothing and closes."""
    async with http.ws_connect(url) as ws:
        message = await asyncio.wait_for(ws.receive(), WAIT_S)
        assert message.type == aiohttp.WSMsgType.CLOSE, message
        return ws.close_code, message.extra or ""


async def next_view(ws, newer_than: int = -1) -> dict:
    """The next view the socket is sent that is newer than ``newer_than`` (notices in between are skipped)."""
    while True:
        message = await asyncio.wait_for(ws.receive_json(), WAIT_S)
        if message["type"] == "view" and message["view"]["version"] > newer_than:
            return message["view"]


async def next_notice(ws, whole: bool = False) -> str | dict:
    """The next notice's text on the feed (``whole``: the message, its ``kind`` too)."""
    while True:
        message = await asyncio.wait_for(ws.receive_json(), WAIT_S)
        if message["type"] == "notice":
            return message if whole else message["text"]


def tap_of(view: dict) -> dict | None:
    """A tap the viewer may make now: »Weiter« while his window before the first lead is open (his card waits
    for the others' windows), else a legal card, else an offer (a bid, trump)."""
    cards = [c for c in view["hand"] if c["legal"]]
    passing = [o for o in view["offers"] if o["verb"] == "let_pass"]
    choice = (passing or cards or view["offers"] or [None])[0]
    return None if choice is None else {"verb": choice["verb"], "arg": choice["arg"], "v": view["hand_version"]}


async def state_of(svc, table: str) -> tuple[int, engine.State]:
    version, data = await svc.store.load(table)
    return version, engine.from_json(Table.load(data).state)


# ----------------------------------------------------------------- credentials
async def test_a_seated_person_gets_his_view_with_a_link_or_init_data(setup):
    svc, table, server, http, _ = setup
    async with http.get(link(server, table, person(2))) as r:
        assert r.status == 200
        assert (await r.json())["seat"] == 2
    data = quote(init_data(1002, start_param=table))
    async with http.get(f"http://127.0.0.1:{server.port}/api/view?tg={data}") as r:
        assert r.status == 200 and (await r.json())["seat"] == 1
    data = quote(init_data(1004))  # a web_app button: the page's URL names the table
    async with http.get(f"http://127.0.0.1:{server.port}/api/view?tg={data}&table={table}") as r:
        assert r.status == 200 and (await r.json())["seat"] == 3


@pytest.mark.parametrize("query", [
    "", "t=", "t=forged.test.1.zzzz.AAAAAAAAAAAAAAAAAAAAAA", "tg=user%3D1&hash=00",
])
async def test_no_or_a_forged_credential_is_refused_with_401(setup, query):
    _, _, server, http, _ = setup
    async with http.get(f"http://127.0.0.1:{server.port}/api/view?{query}") as r:
        assert r.status == 401
        assert (await r.text()).strip() == web_text("de", "denied")
    assert await closed_with(http, f"ws://127.0.0.1:{server.port}/ws?{query}") == (4401, web_text("de", "denied"))


async def test_tampered_expired_and_foreign_credentials_are_refused(setup):
    svc, table, server, http, clock = setup
    url = link(server, table, person(0))
    tampered = url.replace(".1001.", ".1002.")
    expired = link(server, table, person(0), now=time.time() - 13 * 3600)
    other_table = link(server, "Other123", person(0))
    stranger = link(server, table, person(5))
    base = f"http://127.0.0.1:{server.port}/api/view"
    old = f"{base}?tg={quote(init_data(1001, time.time() - 2 * 86400, start_param=table))}"
    hash_changed = f"{base}?tg={quote(init_data(1001, start_param=table).replace('1001', '1002'))}"
    others = f"{base}?tg={quote(init_data(1009))}&table={table}"  # valid, no seat here, not from the group's link
    for url, status, why in ((tampered, 401, "denied"), (expired, 401, "denied"), (old, 401, "denied"),
                             (hash_changed, 401, "denied"), (other_table, 404, "no_table"),
                             (stranger, 403, "not_seated"), (others, 403, "not_seated")):
        async with http.get(url) as r:
            assert r.status == status and (await r.text()).strip() == web_text("de", why), url
        assert await closed_with(http, socket_url(url)) == (4000 + status, web_text("de", why)), url


async def test_a_connection_whose_link_ran_out_is_closed_with_4401(setup):
    svc, table, server, http, clock = setup
    version, state = await state_of(svc, table)
    async with http.ws_connect(socket_url(link(server, table, person(state.to_act)))) as ws:
        view = await next_view(ws)
        clock.now += 13 * 3600
        await ws.send_json(tap_of(view))  # a tap he could make, but his link ran out
        message = await asyncio.wait_for(ws.receive(), WAIT_S)
        assert message.type == aiohttp.WSMsgType.CLOSE and ws.close_code == 4401
        assert message.extra == web_text("de", "expired")
    assert (await state_of(svc, table))[0] == version


async def test_an_open_connection_is_closed_with_4401_the_moment_its_link_runs_out(setup):
    """No tap needed: the feed stops pushing his seat's views when his link expires (here a second or two
    after it opens, on the wall clock), and says how to get a new one."""
    svc, table, _, http, _ = setup
    server = await started(svc)
    signed = time.time() - (LINK_TTL_S - 2)  # 12 hours less two seconds ago
    try:
        async with http.ws_connect(socket_url(link(server, table, person(0), now=signed))) as ws:
            await next_view(ws)
            message = await asyncio.wait_for(ws.receive(), WAIT_S)
            assert message.type == aiohttp.WSMsgType.CLOSE and ws.close_code == 4401, message
            assert message.extra == web_text("de", "expired")
            assert time.time() >= int(signed + LINK_TTL_S)  # not before it ran out
    finally:
        await server.stop()


# ----------------------------------------------------------------- views
async def test_each_view_holds_only_its_viewers_hand(setup):
    svc, table, server, http, _ = setup
    _, state = await state_of(svc, table)
    views = []
    for i in range(4):
        async with http.get(link(server, table, person(i))) as r:
            views.append(await r.text())
    for seat, text in enumerate(views):
        view = json.loads(text)
        assert sorted(c["card"] for c in view["hand"]) == sorted(engine.view(state, seat)["hand"])
        others = {c for s in range(4) if s != seat for c in engine.view(state, s)["hand"]}
        assert others and not {c for c in others if f'"{c}"' in text}


# ----------------------------------------------------------------- taps and pushes
async def test_a_tap_plays_and_every_window_sees_it(setup):
    svc, table, server, http, _ = setup
    sockets = [await http.ws_connect(socket_url(link(server, table, person(i)))) for i in range(4)]
    try:
        views = [await next_view(ws) for ws in sockets]
        version, _ = await state_of(svc, table)
        assert {v["version"] for v in views} == {version}
        seat, tap = next((s, tap_of(v)) for s, v in enumerate(views) if tap_of(v))
        await sockets[seat].send_json(tap)
        after = [await next_view(ws, version) for ws in sockets]
        stored, _ = await state_of(svc, table)
        assert stored > version
        assert all(v["version"] > version for v in after)
        log = await svc.store.log(table)
        assert json.loads(log[-1])["by"] == person(seat).key and f":{tap['arg']}" in json.loads(log[-1])["cmd"]
    finally:
        for ws in sockets:
            await ws.close()


async def test_a_card_he_may_not_play_is_refused_with_the_reason(setup):
    svc, table, server, http, _ = setup
    version, state = await state_of(svc, table)
    seat = next(s for s in range(4) if s != state.to_act)
    async with http.ws_connect(socket_url(link(server, table, person(seat)))) as ws:
        view = await next_view(ws)
        card = view["hand"][0]
        assert not card["legal"]
        await ws.send_json({"verb": card["verb"], "arg": card["arg"], "v": view["hand_version"]})
        name = view["seats"][state.to_act]["name"]
        assert await next_notice(ws) in (t("de", "not_your_turn", name=name), t("de", "play_not_yet"))
    assert (await state_of(svc, table))[0] == version


async def test_a_stale_tap_is_already_played(setup):
    svc, table, server, http, _ = setup
    version, state = await state_of(svc, table)
    async with http.ws_connect(socket_url(link(server, table, person(state.to_act)))) as ws:
        tap = tap_of(await next_view(ws))
        await ws.send_json(tap)
        view = await next_view(ws, version)
        await ws.send_json(tap)  # the same tap again, from the page as it was before (a double tap)
        assert await next_notice(ws) == t("de", "already_played")
    assert (await state_of(svc, table))[0] == view["version"]


async def test_a_save_of_another_process_reaches_the_window(setup, redis_url, key_prefix):
    svc, table, server, http, _ = setup
    version, state = await state_of(svc, table)
    seat = state.to_act
    async with http.ws_connect(socket_url(link(server, table, person(seat)))) as ws:
        view = await next_view(ws)
        tap = tap_of(view)
        token = f"st1:{table}:{tap['v']}:{tap['verb']}:{tap['arg']}"
        code = (
            "import asyncio, sys\n"
            "from bot.store.connection import client_for\n"
            "from bot.store.tables import Store\n"
            "from bot.protocol.outgoing import ChatRef, Command, Toast\n"
            "from tests.adapters.web.webkit import person\n"
            "from tests.servicekit import service\n"
            "async def main():\n"
            "    client = client_for(sys.argv[1])\n"
            "    u = person(int(sys.argv[4]))\n"
            "    out = await service(Store(client, prefix=sys.argv[2])).handle(\n"
            "        Command(ChatRef(u.platform, u.user_id, private=True), u, token=sys.argv[3]))\n"
            "    assert not [o for o in out if isinstance(o, Toast)], out\n"
            "    await client.aclose()\n"
            "asyncio.run(main())\n")
        done = await asyncio.to_thread(subprocess.run, [sys.executable, "-c", code, redis_url, key_prefix, token,
                                                        str(seat)], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        pushed = await next_view(ws, version)
        assert pushed["version"] == (await state_of(svc, table))[0] > version


async def test_a_window_that_comes_back_catches_up_at_once(setup):
    svc, table, server, http, _ = setup
    version, state = await state_of(svc, table)
    seat = state.to_act
    url = socket_url(link(server, table, person(seat)))
    async with http.ws_connect(url) as ws:
        view = await next_view(ws)
    # while he is away his tap is made elsewhere (the chat's button, another window)
    async with http.ws_connect(url) as other:
        await next_view(other)
        await other.send_json(tap_of(view))
        await next_view(other, version)
    async with http.ws_connect(url) as ws:
        first = await asyncio.wait_for(ws.receive_json(), WAIT_S)
        assert first["type"] == "view" and first["view"]["version"] == (await state_of(svc, table))[0] > version


# ----------------------------------------------------------------- limits
async def test_a_message_over_the_size_closes_the_connection(setup):
    svc, table, server, http, _ = setup
    async with http.ws_connect(socket_url(link(server, table, person(0)))) as ws:
        await next_view(ws)
        await ws.send_str(json.dumps({"verb": "act", "arg": "x" * 600, "v": 1}))
        message = await asyncio.wait_for(ws.receive(), WAIT_S)
        assert message.type == aiohttp.WSMsgType.CLOSE and ws.close_code == 1009


@pytest.mark.parametrize("text", ["not json", "[]", '{"verb": "start", "v": 1}', '{"verb": "act", "arg": "pl.JC"}',
                                  '{"verb": "act", "arg": "a:b", "v": 1}', '{"verb": "act", "arg": "pl.JC", "v": "1"}'])
async def test_a_message_that_is_no_tap_closes_the_connection(setup, text):
    svc, table, server, http, _ = setup
    version, _ = await state_of(svc, table)
    async with http.ws_connect(socket_url(link(server, table, person(0)))) as ws:
        await next_view(ws)
        await ws.send_str(text)
        message = await asyncio.wait_for(ws.receive(), WAIT_S)
        assert message.type == aiohttp.WSMsgType.CLOSE and ws.close_code == 1008
    assert (await state_of(svc, table))[0] == version


async def test_taps_over_the_rate_are_answered_not_so_fast(setup):
    svc, table, server, http, _ = setup
    async with http.ws_connect(socket_url(link(server, table, person(0)))) as ws:
        await next_view(ws)
        for _ in range(8):  # a burst of 2 × 2 per second passes, the rest is too fast
            await ws.send_json({"verb": "act", "arg": "pl.XX", "v": 1})
        notices = [await next_notice(ws) for _ in range(8)]
        assert notices.count(web_text("de", "too_fast")) >= 3


async def test_connections_per_person_and_per_process_are_bounded(setup):
    svc, table, server, http, _ = setup
    mine = [await http.ws_connect(socket_url(link(server, table, person(0)))) for _ in range(3)]
    try:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(socket_url(link(server, table, person(0))))
        assert refused.value.status == 429
        others = [await http.ws_connect(socket_url(link(server, table, person(i)))) for i in (1, 1, 1, 2, 2)]
        assert server.viewers.count == 8 and REGISTRY.get_sample_value("stammtisch_web_connections") >= 8
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(socket_url(link(server, table, person(3))))
        assert refused.value.status == 503
        for ws in others:
            await ws.close()
    finally:
        for ws in mine:
            await ws.close()


async def test_api_view_is_bounded_per_person_with_429(store):
    svc = service(store, seed=5, reminder_after="off", autoplay_after="off")
    table = await table_of_four(svc)
    clock = Clock()
    server = await started(svc, Tuning(views_per_second=1), clock)
    try:
        async with aiohttp.ClientSession() as http:
            async def status(i: int) -> tuple[int, str]:
                async with http.get(link(server, table, person(i))) as r:
                    return r.status, await r.text()
            assert [(await status(0))[0] for _ in range(2)] == [200, 200]  # a burst of twice the rate
            assert await status(0) == (429, web_text("de", "too_fast") + "\n")
            assert (await status(1))[0] == 200  # another person has a rate of his own
            clock.now += 1.0
            assert (await status(0))[0] == 200
            assert (await status(0))[0] == 429
    finally:
        await server.stop()
