"""``stammtisch web``: the URL comes first, its token opens the player's own table and no other, the second
line is a watch link for a second window (the table without his cards), Ctrl-C stops."""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from bot.protocol.outgoing import ChatRef, Command, UserRef
from bot.store.connection import client_for
from bot.store.tables import Store
from tests.clikit import Stammtisch, terminal_player
from tests.servicekit import service


@pytest.fixture
def player(redis_url) -> dict[str, str]:
    """The environment of a player of his own (his login name keys his table)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_", "STAMMTISCH_"))}
    env.update(REDIS_URL=redis_url, USER=f"test{secrets.token_hex(4)}", LOGNAME="", PYTHONUNBUFFERED="1")
    return env


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


async def test_the_first_line_is_the_url_of_his_table_and_ctrl_c_stops(player, redis_url):
    web = subprocess.Popen([sys.executable, "-m", "bot.run.cli", "web", "bauer", "--port", "0", "--name", "Anna"],
                           env=player, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = web.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and "/?t=" in url, web.stderr.read() if not url else url
        status, page = get(url)
        assert status == 200 and 'id="hand"' in page
        status, body = get(url.replace("/?t=", "/api/view?t="))
        view = json.loads(body)
        assert status == 200 and view["game"] == "bauer" and view["state"] == "playing"
        assert view["seats"][view["seat"]]["name"] == "Anna" and len(view["hand"]) > 0
        assert get(url.replace("/?t=", "/api/view?t=x"))[0] == 401
        second = web.stdout.readline().strip()  # the watch link: his table without his cards
        assert second.startswith("Zum Zuschauen") and "http://127.0.0.1:" in second, second
        status, body = get(second[second.index("http://"):].replace("/?t=", "/api/view?t="))
        watched = json.loads(body)
        assert status == 200 and watched["watching"] and watched["table"] == view["table"]
        assert watched["seat"] is None and watched["hand"] == [] and watched["offers"] == []
        assert not any(seat["me"] for seat in watched["seats"])
        web.send_signal(signal.SIGINT)
        assert web.wait(timeout=60) == 0
    finally:
        if web.poll() is None:
            web.kill()
        web.communicate()
    client = client_for(redis_url)  # the table he left stays, as at the console: he ends it here
    try:
        me = UserRef("web", player["USER"], "Anna")
        await service(Store(client)).handle(Command(ChatRef("web", me.user_id, private=True), me, verb="abbrechen"))
    finally:
        await client.aclose()


@pytest.mark.parametrize("args", [["skat"], ["bauer", "--port", "70000"], ["bauer", "--players", "9"],
                                  ["bauer", "--lang", "fr"], ["bauer", "--options", "{"], ["bauer", "--port", "x"]])
def test_bad_arguments_exit_2_with_one_line(args, redis_url, monkeypatch, capsys):
    terminal_player(monkeypatch, redis_url)
    done = Stammtisch(monkeypatch, capsys)("web", *args)  # in this process: the status main returns
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
