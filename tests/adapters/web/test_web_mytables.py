"""The web table's page lists »Meine Tische« (``/api/tables``): his tables of two groups, each row opening the
page at that table; a watch link lists nothing."""

from __future__ import annotations

from urllib.parse import parse_qs

import aiohttp

from adapters.common.webauth import WATCH, sign
from adapters.web import Tuning
from bot.protocol.outgoing import ChatRef
from bot.words.i18n import t
from tests.adapters.web.webkit import SECRET, link, person, started, table_of_four
from tests.servicekit import Players, service


async def test_the_page_lists_his_tables_each_opening_its_page_and_a_watch_link_lists_none(store):
    svc = service(store, seed=5, reminder_after="off", autoplay_after="off")
    first = await table_of_four(svc)
    other = ChatRef("telegram", "-100888", title="Skatrunde")
    second = await table_of_four(svc, players=Players(svc, other, [person(i) for i in range(4)]))
    server = await started(svc, Tuning(views_per_second=20))
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(link(server, first, person(0), "/api/tables")) as answer:
                assert answer.status == 200
                listing = await answer.json()
            assert listing["head"] == t("de", "mt.head", n=2) and listing["pages"] == []
            assert any(" · Skatrunde · " in row["text"] for row in listing["rows"])
            opened = set()
            for row in listing["rows"]:
                token = parse_qs(row["query"])["t"][0]
                async with http.get(f"http://127.0.0.1:{server.port}/api/view?t={token}") as answer:
                    assert answer.status == 200
                    view = await answer.json()
                opened.add(view["table"])
                assert view["seat"] is not None and view["hand"], "his own seat, his cards"
            assert opened == {first, second}

            watch = sign(SECRET, first, "telegram", person(0).user_id, server._clock(), access=WATCH)
            async with http.get(f"http://127.0.0.1:{server.port}/api/tables?t={watch}") as answer:
                assert answer.status == 403
    finally:
        await server.stop()
