"""``stammtisch run`` started while Telegram or Discord cannot be reached (a real process; the fake
server comes up on that port later): one log line per try and no traceback, tries again with a
growing wait, serves once the platform answers; SIGTERM while it waits exits 0. A token the
platform refuses ends the start with one line (never the token) and status 2."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fakes.discord.server import FakeDiscord
from tests.fakes.telegram.harness import FAST, PATIENCE, alive, fake_for, terminate, tuning_env

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A port nothing listens on now (the fake takes it later)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(redis_url: str, **env: str) -> subprocess.Popen:
    """``stammtisch run`` with ``env`` besides the test's own, its log on a pipe."""
    full = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_", "STAMMTISCH_"))}
    full.update(env, REDIS_URL=redis_url, STAMMTISCH_LOG_LEVEL="INFO", PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "bot.run.cli", "run"], cwd=ROOT, env=full,
                            stderr=subprocess.PIPE, text=True)


async def read_until(proc: subprocess.Popen, text: str) -> list[str]:
    """The lines the process logs up to the first that holds ``text`` (fails if it ends before)."""
    lines: list[str] = []

    async def read() -> list[str]:
        while line := await asyncio.to_thread(proc.stderr.readline):
            lines.append(line)
            if text in line:
                return lines
        raise AssertionError(f"the process ended before logging {text!r}: {''.join(lines)[-3000:]}")
    return await asyncio.wait_for(read(), PATIENCE)


def one_line_per_try(lines: list[str], platform: str) -> int:
    """How many tries ``lines`` tell of; each in one line, no traceback."""
    assert not any("Traceback" in line for line in lines), "".join(lines)
    tries = [line for line in lines if f"cannot reach {platform} (" in line]
    assert all("trying again in" in line for line in tries)
    return len(tries)


async def test_telegram_unreachable_at_start_is_tried_again_until_it_answers(redis_url):
    port = free_port()
    tg = fake_for(FAST, patience=PATIENCE, port=port)
    proc = start(redis_url, TELEGRAM_TOKEN=tg.token, TELEGRAM_API_BASE_URL=tg.base_url, **tuning_env(FAST))
    try:
        waited = await read_until(proc, "trying again in 2 s")  # the second try, the wait doubled
        assert one_line_per_try(waited, "Telegram") == 2
        async with tg:
            served = await read_until(proc, "serving Telegram as @stammtisch_test_bot (long polling)")
            assert one_line_per_try(served, "Telegram") <= 1  # the try under way when the server came up
            await tg.wait_for(alive([proc], lambda: len(tg.commands) == 2), what="the command menus")
            assert await terminate(proc) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "Traceback" not in proc.stderr.read()


async def test_discord_unreachable_at_start_is_tried_again_until_it_answers(redis_url):
    port = free_port()
    dc = FakeDiscord(port=port)
    proc = start(redis_url, DISCORD_TOKEN=dc.token, DISCORD_API_BASE_URL=dc.base_url,
                 DISCORD_GATEWAY_URL=dc.gateway_url)
    try:
        waited = await read_until(proc, "trying again in 2 s")
        assert one_line_per_try(waited, "Discord") == 2
        async with dc:
            served = await read_until(proc, "serving Discord as stammtisch")
            assert one_line_per_try(served, "Discord") <= 1
            assert await terminate(proc) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "Traceback" not in proc.stderr.read()


@pytest.mark.parametrize("platform", ["Telegram", "Discord"])
async def test_sigterm_while_waiting_to_try_again_exits_0(redis_url, platform):
    closed = f"http://127.0.0.1:{free_port()}"
    env = ({"TELEGRAM_TOKEN": "123456:TEST-TOKEN", "TELEGRAM_API_BASE_URL": closed + "/bot"} if platform == "Telegram"
           else {"DISCORD_TOKEN": "fake.0123", "DISCORD_API_BASE_URL": closed + "/api/v10"})
    proc = start(redis_url, **env)
    try:
        assert one_line_per_try(await read_until(proc, f"cannot reach {platform}"), platform) == 1
        assert await terminate(proc) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "Traceback" not in proc.stderr.read()


@pytest.mark.parametrize("platform", ["Telegram", "Discord"])
async def test_a_rejected_token_ends_the_start_with_one_line(redis_url, platform):
    fake = fake_for(FAST, patience=PATIENCE) if platform == "Telegram" else FakeDiscord()
    async with fake:
        wrong = "999:WRONG-TOKEN-abc" if platform == "Telegram" else "fake.WRONG-TOKEN-abc"
        env = ({"TELEGRAM_TOKEN": wrong, "TELEGRAM_API_BASE_URL": fake.base_url} if platform == "Telegram"
               else {"DISCORD_TOKEN": wrong, "DISCORD_API_BASE_URL": fake.base_url,
                     "DISCORD_GATEWAY_URL": fake.gateway_url})
        proc = start(redis_url, **env)
        try:
            code = await asyncio.wait_for(asyncio.to_thread(proc.wait), PATIENCE)
        finally:
            if proc.poll() is None:
                proc.kill()
    err = proc.stderr.read()
    assert code == 2, err
    assert err.strip().splitlines()[-1] == f"stammtisch: {platform} rejected the bot token: check {platform.upper()}_TOKEN"
    assert "Traceback" not in err and "WRONG-TOKEN" not in err, err
