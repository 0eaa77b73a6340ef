"""The hint (»Tipp«) on the web table: an offer of his view; its tap answers that page alone, with one of his
choices, and his view holds nothing of it."""

from __future__ import annotations

import aiohttp

from bot.protocol.outgoing import ChatRef
from tests.adapters.web.test_server import next_notice, next_view, socket_url
from tests.adapters.web.webkit import link, person, started
from tests.servicekit import say, service


async def test_a_hint_tapped_on_the_web_table_answers_his_page_alone(store):
    anna = person(0)
    svc = service(store, seed=4, tipp_samples=4, reminder_after="off", autoplay_after="off")
    own = ChatRef(anna.platform, anna.user_id, title=anna.name, private=True)
    await svc.handle(say(own, anna, "neu bauernstoss"))
    table = await store.table_for_chat(own.key)
    server = await started(svc)
    try:
        async with aiohttp.ClientSession() as http, http.ws_connect(socket_url(link(server, table, anna))) as ws:
            view = await next_view(ws)
            (tipp,) = [o for o in view["offers"] if o["verb"] == "tipp"]
            assert tipp["label"] == "Tipp"  # the page draws no emoji
            choices = {c["label"] for c in view["hand"] if c["legal"]} | {o["label"] for o in view["offers"]}
            await ws.send_json({"verb": "tipp", "arg": tipp["arg"], "v": view["hand_version"]})
            notice = await next_notice(ws, whole=True)
            text = notice["text"]
            assert notice["kind"] == "tipp" and text.partition(" – ")[0] in choices - {"Tipp"}, notice
            async with http.get(link(server, table, anna)) as r:
                assert text not in await r.text()  # his view after it holds nothing of it
    finally:
        await server.stop()
