"""The web table beside the real Discord adapter on the fake Discord: every hand in a DM carries a link to
the web table signed for its owner, which opens his seat (and only his), and a card tapped there shows in
the channel as a press there does; the channel's table message carries a link to watch, which shows anyone
in the channel the public table, and the tap too."""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlsplit

import aiohttp

from adapters.web import WebServer
from adapters.web.serve import through_outbox
from bot.ops.settings import HostPort
from tests.adapters.web.test_server import next_view, tap_of
from tests.fakes.discord.harness import FAST, fake_for, hand_of, open_table, running_bot, table_message, version

GUILD = 82_000_000_000_000_000
CHANNEL = 82_000_000_000_000_100
SECRET = "d" * 40


async def test_a_dm_hand_links_its_seat_and_a_tap_there_shows_in_the_channel(store, redis, key_prefix):
    async with fake_for(FAST) as fake:
        fake.guild(GUILD, "Stammtisch Lautern", {CHANNEL: "karten"})
        members = [fake.member(2000 + i, n) for i, n in enumerate(("Anna", "Ben", "Cleo", "Dora"))]
        now = time.time()  # the service's clock stands still: no timer moves the table but the tap
        async with running_bot(fake, store, redis, key_prefix, clock=lambda: now, web_url="https://example.org/web",
                               web_secret=SECRET) as bot:
            web = WebServer(bot.service, HostPort("127.0.0.1", 0), SECRET.encode(),
                            after=through_outbox(bot.service))
            await web.start()
            try:
                tid = await open_table(fake, CHANNEL, members[0], members[1:], "bauerchen")

                def links():
                    hands = [hand_of(fake, m, CHANNEL, tid) for m in members]
                    urls = [[b["url"] for b in h.buttons if "url" in b] if h else [] for h in hands]
                    return urls if all(urls) else None
                urls = [found[0] for found in await fake.wait_for(links, what="a web link on every hand")]
                watch_url = await fake.wait_for(lambda: next((b["url"] for b in getattr(
                    table_message(fake, CHANNEL, tid), "buttons", ()) if "url" in b), None), what="the table's link to watch")
                watch = parse_qs(urlsplit(watch_url).query)["t"][0]
                assert watch_url.startswith("https://example.org/web/?t=") and watch.split(".")[4] == "w"
                tokens = [parse_qs(urlsplit(u).query)["t"][0] for u in urls]
                assert all(u.startswith("https://example.org/web/?t=") for u in urls) and len(set(tokens)) == 4
                async with aiohttp.ClientSession() as http:
                    views = []
                    for token in tokens:
                        async with http.get(f"http://127.0.0.1:{web.port}/api/view?t={token}") as r:
                            assert r.status == 200
                            views.append(await r.json())
                    assert sorted(v["seat"] for v in views) == [0, 1, 2, 3]
                    seat = next(i for i, v in enumerate(views) if tap_of(v))
                    async with http.ws_connect(f"ws://127.0.0.1:{web.port}/ws?t={tokens[seat]}") as ws, \
                            http.ws_connect(f"ws://127.0.0.1:{web.port}/ws?t={watch}") as watcher:
                        view = await next_view(ws)
                        public = await next_view(watcher)
                        assert public["watching"] and public["hand"] == [] and public["seat"] is None
                        assert [s["name"] for s in public["seats"]] == [s["name"] for s in view["seats"]]
                        seen = version(fake, CHANNEL, tid)
                        await ws.send_json(tap_of(view))
                        await next_view(ws, view["version"])
                        assert (await next_view(watcher, view["version"]))["hand"] == []
                        await fake.wait_for(lambda: version(fake, CHANNEL, tid) > seen,
                                            what="the channel's table to show the tap")
            finally:
                await web.stop()
