"""A refusal to someone the table does not tell speaks his language: Telegram's ``language_code``, else the
browser's ``Accept-Language`` (German or English; English for any other), else the server's."""

from __future__ import annotations

import json
from urllib.parse import quote, urlencode

import aiohttp
import pytest

from adapters.web.language import HEADER_MAX, client_lang
from bot.words.webview import web_text
from tests.adapters.web.test_server import closed_with
from tests.adapters.web.webkit import started
from tests.servicekit import service


def forged(language_code: str) -> str:
    """Init data naming a language whose hash does not check out."""
    return urlencode({"user": json.dumps({"id": 7, "language_code": language_code}), "auth_date": "1", "hash": "0"})


@pytest.mark.parametrize("init_data, accept, lang", [
    (forged("en"), "de-DE,de;q=0.9", "en"),
    (forged("de"), "en", "de"),
    (forged("fr"), "de-CH", "de"),
    ("", "de-CH,de;q=0.9,en;q=0.8", "de"),
    ("", "fr-FR,en;q=0.5,de;q=0.7", "de"),
    ("", "en-GB,en;q=0.9", "en"),
    ("", "fr-FR,fr;q=0.9", "en"),
    ("", "de;q=0,en", "en"),
    ("", "", "de"),
    ("", ";;;,q=x,,", "de"),
    ("user=%7B%5B&hash=0", "", "de"),
    ("", "fr," * 8 + "de", "en"),
    ("", "x" * HEADER_MAX + ",en", "de"),
    ("", "*", "de"),
])
def test_the_language_of_a_refusal(init_data, accept, lang):
    assert client_lang(init_data, accept, "de") == lang


async def test_a_refusal_speaks_the_clients_language(store):
    server = await started(service(store))
    base = f"http://127.0.0.1:{server.port}"
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{base}/api/view?t=x", headers={"Accept-Language": "en-US,en;q=0.9"}) as r:
                assert (r.status, await r.text()) == (401, web_text("en", "denied") + "\n")
            async with http.get(f"{base}/api/view?t=x", headers={"Accept-Language": "de-AT"}) as r:
                assert (r.status, await r.text()) == (401, web_text("de", "denied") + "\n")
            async with http.get(f"{base}/api/view?tg={quote(forged('en'))}&table=abc",
                                headers={"Accept-Language": "de"}) as r:
                assert (r.status, await r.text()) == (401, web_text("en", "denied") + "\n")
            code, reason = await closed_with(http, f"ws://127.0.0.1:{server.port}/ws?t=x")
            assert (code, reason) == (4401, web_text("de", "denied"))
    finally:
        await server.stop()
