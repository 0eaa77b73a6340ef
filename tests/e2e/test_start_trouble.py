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
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.fakes.discord.server import FakeDiscord
from tests.fakes.telegram.harness import FAST, PATIENCE, alive, fake_for, terminate, tuning_env
from tests.fakes.telegram.server import FakeTelegram

ROOT = Path(__file__).resolve().parents[2]


PLATFORMS = ["Telegram", "Discord"]


def free_port() -> int:
    """A port nothing listens on now (the fake takes it later)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fake_of(platform: str, **kw) -> FakeTelegram | FakeDiscord:
    """The platform's fake server, not started yet."""
    return fake_for(FAST, patience=PATIENCE, **kw) if platform == "Telegram" else FakeDiscord(**kw)


def pointed_at(platform: str, token: str, port: int) -> dict[str, str]:
    """The settings of a bot of ``platform`` with ``token`` whose platform is at ``port`` of 127.0.0.1."""
    if platform == "Telegram":
        return {"TELEGRAM_TOKEN": token, "TELEGRAM_API_BASE_URL": f"http://127.0.0.1:{port}/bot", **tuning_env(FAST)}
    return {"DISCORD_TOKEN": token, "DISCORD_API_BASE_URL": f"http://127.0.0.1:{port}/api/v10",
            "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{port}/gateway"}


@contextmanager
def bot_process(redis_url: str, env: dict[str, str]) -> Iterator[subprocess.Popen]:
    """``stammtisch run`` with ``env`` besides the test's own, its log on a pipe; killed if still running."""
    full = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_", "STAMMTISCH_"))}
    full.update(env, REDIS_URL=redis_url, STAMMTISCH_LOG_LEVEL="INFO", PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "bot.run.cli", "run"], cwd=ROOT, env=full,
                            stderr=subprocess.PIPE, text=True)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()


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


@pytest.mark.parametrize("platform", PLATFORMS)
async def test_a_platform_unreachable_at_start_is_tried_again_until_it_answers(redis_url, platform):
    fake = fake_of(platform, port=free_port())
    with bot_process(redis_url, pointed_at(platform, fake.token, fake.port)) as proc:
        waited = await read_until(proc, "trying again in 2 s")  # the second try, the wait doubled
        assert one_line_per_try(waited, platform) == 2
        async with fake:
            served = await read_until(proc, f"serving {platform} as ")
            assert one_line_per_try(served, platform) <= 1  # the try under way when the server came up
            if platform == "Telegram":
                await fake.wait_for(alive([proc], lambda: len(fake.commands) == 2), what="the command menus")
            assert await terminate(proc) == 0
    assert "Traceback" not in proc.stderr.read()


@pytest.mark.parametrize("platform", PLATFORMS)
async def test_sigterm_while_waiting_to_try_again_exits_0(redis_url, platform):
    with bot_process(redis_url, pointed_at(platform, "123456:TEST-TOKEN", free_port())) as proc:
        assert one_line_per_try(await read_until(proc, f"cannot reach {platform}"), platform) == 1
        assert await terminate(proc) == 0
    assert "Traceback" not in proc.stderr.read()


@pytest.mark.parametrize("platform", PLATFORMS)
async def test_a_rejected_token_ends_the_start_with_one_line(redis_url, platform):
    async with fake_of(platform) as fake:
        with bot_process(redis_url, pointed_at(platform, "999:WRONG-TOKEN-abc", fake.port)) as proc:
            code = await asyncio.wait_for(asyncio.to_thread(proc.wait), PATIENCE)
    err = proc.stderr.read()
    assert code == 2, err
    assert err.strip().splitlines()[-1] == f"stammtisch: {platform} rejected the bot token: check {platform.upper()}_TOKEN"
    assert "Traceback" not in err and "WRONG-TOKEN" not in err, err
