"""Watchers (Kiebitze) at the web table against real Redis: a group member without a seat watches from the
group's Mini App link and is never sent a card of any hand, a player watching another table sees only its
public view, the players are told how many watch (counted across processes), and every page follows the
match to the chat's next table."""

from __future__ import annotations

import asyncio
import json
import time
from urllib.parse import parse_qs, quote

import aiohttp
import pytest

from adapters.common.webauth import WATCH, sign
from adapters.web import Tuning
from bot.protocol.outgoing import ChatRef
from bot.table.record import Table
from bot.words import watchers_text, web_text
from engine.cards import card_str, cards_in
from tests.adapters.web.test_server import WAIT_S, next_notice, next_view
from tests.adapters.web.webkit import GROUP, SECRET, init_data, person, started, table_of_four
from tests.servicekit import Players, labels, say, secrets_of, service

TUNING = Tuning(watchers_renew_s=0.2)
STRANGER = 1009
"""A member of the group who holds no seat (Telegram id)."""


@pytest.fixture
async def http():
    async with aiohttp.ClientSession() as session:
        yield session


def watching(server, table: str, user_id: int = STRANGER) -> str:
    """The live feed as the group's Mini App link opens it for ``user_id``: his init data names the table."""
    return f"ws://127.0.0.1:{server.port}/ws?tg={quote(init_data(user_id, start_param=table))}"


def feed(server, table: str, user, access: str = "seat") -> str:
    """The live feed with a link token of ``user`` at ``table``."""
    token = sign(SECRET, table, user.platform, user.user_id, time.time(), access=access)
    return f"ws://127.0.0.1:{server.port}/ws?t={token}"


async def next_of(ws, kind: str) -> dict:
    """The next message of ``kind`` the socket is sent (others in between are skipped)."""
    while True:
        message = await asyncio.wait_for(ws.receive_json(), WAIT_S)
        if message["type"] == kind:
            return message


async def count_told(ws, count: int) -> dict:
    """Wait until the socket is told ``count`` watchers; that message."""
    while (told := await next_of(ws, "watchers"))["count"] != count:
        pass
    return told


def hidden(data: Table) -> tuple[set[str], set[str]]:
    """The codes and the labels of the cards in hands (or set aside) that nobody has seen."""
    state, known, secret_hands, _ = secrets_of(data)
    mask = (sum(secret_hands) | state.set_aside()) & ~known
    return {card_str(c) for c in cards_in(mask)}, labels(mask)


@pytest.mark.parametrize("game", ["bauernstoss", "bauerchen", "bauer", "rams"])
async def test_a_watcher_is_sent_no_card_of_any_hand_during_a_whole_deal(store, http, game):
    svc = service(store, seed=11, reminder_after="off", autoplay_after="off")
    players = Players(svc, GROUP, [person(i) for i in range(4)], seed=4)
    table = await table_of_four(svc, game, players)
    server = await started(svc, TUNING)
    try:
        async with http.ws_connect(watching(server, table)) as ws:
            view, scanned = await next_view(ws), 0
            assert view["watching"] and view["seat"] is None and view["hand"] == [] and view["offers"] == []
            while True:
                version, data = await store.load(table)
                data = Table.load(data)
                over = data.deals > 0
                codes, names = hidden(data)
                while view["version"] < version:
                    view = await next_view(ws, view["version"])
                shown = {k: v for k, v in view.items() if not over or k not in ("last_trick", "story", "result")}
                text = json.dumps(shown, ensure_ascii=False)  # the deal's last cards were played in the open
                assert not {c for c in codes if f'"{c}"' in text} and not {n for n in names if n in text}, version
                scanned += 1
                if over:
                    break
                await players.step()
        assert scanned > 12  # every version of a whole deal: a Rams deal without its last trick has 17
    finally:
        await server.stop()


async def test_a_member_without_a_seat_watches_and_the_players_are_told_how_many(store, redis_url, key_prefix, http):
    svc = service(store, seed=5, reminder_after="off", autoplay_after="off")
    table = await table_of_four(svc)
    server = await started(svc, TUNING)
    other = await started(service(store, seed=5, reminder_after="off", autoplay_after="off"), TUNING)  # a 2nd process
    try:
        async with http.ws_connect(feed(server, table, person(0))) as player:
            mine = await next_view(player)
            async with http.ws_connect(watching(server, table)) as watcher:
                view = await next_view(watcher)
                assert view["watching"] and view["hand"] == [] and [s["name"] for s in view["seats"]] == \
                    [s["name"] for s in mine["seats"]] and not any(s["me"] for s in view["seats"])
                assert (await count_told(player, 1))["text"] == watchers_text("de", 1) == "1 Kiebitz schaut zu"
                assert (await count_told(watcher, 1))["count"] == 1
                tap = next(c for c in mine["hand"]) if mine["hand"] else mine["offers"][0]
                await watcher.send_json({"verb": "act", "arg": tap["arg"], "v": view["hand_version"]})
                assert await next_notice(watcher) == web_text("de", "watching")
                async with http.ws_connect(watching(other, table, STRANGER + 1)) as elsewhere:
                    await next_view(elsewhere)
                    assert (await count_told(player, 2))["text"] == "2 Kiebitze schauen zu"
                await count_told(player, 1)
            await count_told(player, 0)
            assert (await svc.web_view(table, person(0)))["version"] == mine["version"]  # the tap changed nothing
    finally:
        await other.stop()
        await server.stop()


async def test_a_player_watching_another_table_sees_only_its_public_view(store, http):
    svc = service(store, seed=5, reminder_after="off", autoplay_after="off")
    ours = await table_of_four(svc)
    elsewhere = ChatRef("telegram", "-100888", title="Stammtisch Erfweiler")
    theirs = await table_of_four(svc, "bauer", Players(svc, elsewhere, [person(i) for i in range(4, 8)]))
    server = await started(svc, TUNING)
    try:
        async with http.ws_connect(watching(server, theirs, 1001)) as there, \
                http.ws_connect(watching(server, ours, 1001)) as here:
            public, own = await next_view(there), await next_view(here)
            assert public["watching"] and public["hand"] == [] and public["table"] == theirs
            assert not own["watching"] and own["seat"] == 0 and own["hand"] and own["table"] == ours
        async with http.ws_connect(feed(server, ours, person(0), WATCH)) as second:  # his own, as a watcher
            view = await next_view(second)
            assert view["watching"] and view["hand"] == [] and view["offers"] == []
    finally:
        await server.stop()


async def test_every_page_follows_the_match_to_the_chats_next_table(store, http):
    svc = service(store, seed=5, reminder_after="off", autoplay_after="off")
    old = await table_of_four(svc)
    server = await started(svc, TUNING)
    channel = sign(SECRET, old, "telegram", "c77", time.time(), access=WATCH)  # a channel's link to watch
    try:
        async with http.ws_connect(feed(server, old, person(0))) as opener, \
                http.ws_connect(feed(server, old, person(1))) as player, \
                http.ws_connect(f"ws://127.0.0.1:{server.port}/ws?t={channel}") as watcher:
            for ws in (opener, player, watcher):
                await next_view(ws)
            await svc.handle(say(GROUP, person(0), "abbrechen"))
            await svc.handle(say(GROUP, person(0), "neu bauer"))
            follows = [parse_qs((await next_of(ws, "follow"))["query"])["t"][0] for ws in (opener, player, watcher)]
        new = follows[0].split(".")[0]
        assert new != old and all(token.split(".")[0] == new for token in follows)
        assert [token.split(".")[4] for token in follows] == ["a", "a", "w"]  # his seat if he sits there; a watcher's
        base = f"http://127.0.0.1:{server.port}/api/view?t="
        views = []
        for token in follows:
            async with http.get(base + token) as r:
                views.append(await r.json())
        assert views[0]["seat"] == 0 and not views[0]["watching"]  # he opened it: his seat
        assert views[1]["watching"] and views[2]["watching"] and views[2]["hand"] == []
        await svc.handle(say(GROUP, person(1), "mitspielen"))
        async with http.get(base + follows[1]) as r:  # he sat down: the same credential shows his seat
            assert (await r.json())["seat"] == 1
        async with http.get(base + follows[2]) as r:  # a watch link stays a watcher's
            assert (await r.json())["watching"]
    finally:
        await server.stop()
