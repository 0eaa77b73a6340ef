"""The page's files: each one served, every other name under ``/static/`` a 404 (never a 500), without
touching the file system."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import TestClient, TestServer

from adapters.web import WebServer
from bot.ops.settings import HostPort
from tests.adapters.web.webkit import SECRET


@pytest.fixture
async def client():
    async with TestClient(TestServer(WebServer(None, HostPort("127.0.0.1", 0), SECRET).app())) as http:
        yield http


async def test_the_pages_files_are_served_and_kept_a_day(client):
    for name, kind in (("table.js", "javascript"), ("table.css", "text/css"), ("cards/AH.svg", "image/svg+xml")):
        async with client.get(f"/static/{name}") as r:
            assert r.status == 200 and kind in r.headers["Content-Type"], name
            assert r.headers["Cache-Control"] == "public, max-age=86400"
            assert len(await r.read()) > 100


@pytest.mark.parametrize("name", [
    "a" * 5000, "cards/" + "b" * 300 + ".svg", "a/" * 3000, "cards", "cards/", "", "..%2fserver.py",
    "%2e%2e/server.py", "cards/..%2f..%2fserver.py", "%00", "table.js%00", "%C3%A4", "table.js/", "/etc/passwd",
])
async def test_any_other_name_is_404_never_500(client, name):
    async with client.get(f"/static/{name}") as r:
        assert r.status == 404, name
        assert r.headers["Cache-Control"] == "no-store"  # a missing file is not kept
