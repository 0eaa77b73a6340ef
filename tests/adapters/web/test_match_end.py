"""A match's end on the web table: at home the page offers »Revanche« and »Neuer Tisch«, and a tap on one
hands the page the new table (a fresh link token of its own), and his second window (a watch link) follows too;
a table in a group offers neither."""

from __future__ import annotations

import asyncio
import time
from urllib.parse import parse_qs

import aiohttp

from adapters.common.webauth import WATCH, sign
from bot.protocol.outgoing import ChatRef, UserRef
from tests.adapters.web.browser import wait_for
from tests.adapters.web.test_server import WAIT_S, next_notice, next_view
from tests.adapters.web.webkit import GROUP, SECRET, link, person, started, table_of_four
from tests.servicekit import Players, say, service

ME = UserRef("web", "anna", "Anna")
HOME = ChatRef("web", "anna", title="Anna", private=True)


async def next_follow(ws) -> str:
    """The query string the page is told to follow (views and notices in between are skipped)."""
    while True:
        message = await asyncio.wait_for(ws.receive_json(), WAIT_S)
        if message["type"] == "follow":
            return message["query"]


async def finished_at_home(svc) -> str:
    """A short match of Bauer at home, played to its end; the table's id."""
    players = Players(svc, HOME, [ME], seed=3)
    await players.send(say(HOME, ME, "neu bauer short_deck=1 target_brote=1"))
    return (await players.play_out()).table_id


async def test_at_home_a_rematch_is_offered_and_the_page_follows_it(store):
    svc = service(store, seed=3, reminder_after="off", autoplay_after="off")
    old = await finished_at_home(svc)
    server = await started(svc)
    try:
        second = sign(SECRET, old, ME.platform, ME.user_id, time.time(), access=WATCH)  # his second window
        async with aiohttp.ClientSession() as http, http.ws_connect(link(server, old, ME, "/ws")) as ws, \
                http.ws_connect(f"ws://127.0.0.1:{server.port}/ws?t={second}") as watcher:
            view = await next_view(ws)
            assert view["state"] == "finished" and (await next_view(watcher))["offers"] == []
            assert [(o["verb"], o["label"]) for o in view["offers"]] == [("rematch", "Revanche"), ("new", "Neuer Tisch")]
            await ws.send_json({"verb": "rematch", "arg": "", "v": view["hand_version"]})
            query = await next_follow(ws)
            (watching,) = parse_qs(await next_follow(watcher))["t"]
        (token,) = parse_qs(query)["t"]
        new = token.split(".")[0]
        assert new != old and watching.split(".")[0] == new and watching.split(".")[4] == "w"
        async with aiohttp.ClientSession() as http, http.get(link(server, old, ME).split("?")[0] + "?" + query) as r:
            fresh = await r.json()
        assert r.status == 200 and fresh["table"] == new and fresh["state"] == "playing" and fresh["game"] == "bauer"
        assert fresh["seats"][fresh["seat"]]["name"] == "Anna"
    finally:
        await server.stop()


async def test_a_group_tables_end_is_not_offered_and_a_forged_tap_opens_nothing(store):
    svc = service(store, seed=5, reminder_after="off", autoplay_after="off")
    table = await table_of_four(svc)
    opener = person(0)
    await svc.handle(say(GROUP, opener, "abbrechen"))
    server = await started(svc)
    try:
        async with aiohttp.ClientSession() as http, http.ws_connect(link(server, table, opener, "/ws")) as ws:
            view = await next_view(ws)
            assert view["state"] != "playing" and view["offers"] == []
            await ws.send_json({"verb": "new", "arg": "", "v": view["hand_version"]})
            assert await next_notice(ws)
        assert await svc.open_game(GROUP) is None
    finally:
        await server.stop()


async def test_in_the_browser_a_tap_on_neuer_tisch_opens_the_new_table(store, windows):
    svc = service(store, seed=3, reminder_after="off", autoplay_after="off")
    old = await finished_at_home(svc)
    server = await started(svc)
    try:
        window = windows()
        await asyncio.to_thread(window.get, link(server, old, ME, "/"))
        offer = await asyncio.to_thread(wait_for, window, lambda w: w.find_elements(
            "css selector", '#hand button.offer[data-verb="new"]'), "»Neuer Tisch« on the page")
        await asyncio.to_thread(offer[0].click)
        await asyncio.to_thread(wait_for, window, lambda w: f"t={old}." not in w.current_url
                                and w.find_elements("css selector", "#hand button.card"), "the new table's hand")
        new = parse_qs(window.current_url.split("?", 1)[1])["t"][0].split(".")[0]
        assert new != old and await svc.open_game(HOME) == "bauer"
    finally:
        await server.stop()
