"""SIGTERM: ``stammtisch run`` finishes the commands in flight, sends what is queued, exits 0;
the next start goes on with every table (a real process, its embedded Redis, the fake Telegram)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bot.protocol import tokens
from tests.fakes.telegram.harness import FAST, PATIENCE, alive, fake_for, newest, table_tokens, terminate, tuning_env

ROOT = Path(__file__).resolve().parents[2]
GROUPS = [-100200 - i for i in range(6)]


def start(tg, data_dir: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(tuning_env(FAST))
    env.update({"TELEGRAM_TOKEN": tg.token, "TELEGRAM_API_BASE_URL": tg.base_url,
                "STAMMTISCH_DATA_DIR": str(data_dir), "STAMMTISCH_LOG_LEVEL": "WARNING"})
    return subprocess.Popen([sys.executable, "-m", "bot.run.cli", "run"], cwd=ROOT, env=env)


def table_of(tg, chat_id: int) -> str | None:
    """The table whose buttons the first message in ``chat_id`` has."""
    found = [t for m in tg.chat(chat_id)[:1] for b in m.buttons if (t := tokens.parse(b.get("callback_data", "")))]
    return found[0].table if found else None


async def test_sigterm_finishes_what_is_in_flight_and_a_restart_loses_nothing(tmp_path):
    async with fake_for(FAST, patience=PATIENCE) as tg:
        for g in GROUPS:
            tg.group(g, f"Runde {g}")
        anna, ben = tg.user(11, "Anna", started=True), tg.user(12, "Ben", started=True)
        first = start(tg, tmp_path)
        try:
            await tg.wait_for(alive([first], lambda: len(tg.commands) == 2), what="the bot to start")
            sent = {anna.send(g, "/neu bauerchen") for g in GROUPS}
            # The bot has taken every command: they are in flight when the signal comes.
            await tg.wait_for(alive([first], lambda: sent <= {u["update_id"] for u in tg.delivered}),
                              what="the commands taken")
        finally:
            assert await terminate(first) == 0
        # Before it exited, it finished each command and sent its table message.
        tables = {g: table_of(tg, g) for g in GROUPS}
        assert all(tables.values()), [m.text for g in GROUPS for m in tg.chat(g)]
        assert all(len(tg.chat(g)) == 1 for g in GROUPS)

        second = start(tg, tmp_path)
        try:
            # Pressed once the new process polls (the fake hands an update to whichever long poll
            # is waiting, even the dead process's last one, until that one's timeout).
            await tg.wait_for(alive([second], lambda: len(tg.calls_of("deleteWebhook")) == 2),
                              what="the bot to start again")
            for g in GROUPS:
                message = newest(tg, g, tables[g])
                join = next(str(t) for t in table_tokens(message, tables[g]) if t.verb == "join")
                assert not (await tg.wait_answer(ben.press(message, data=join))).get("text")
            await tg.wait_for(alive([second], lambda: all("Ben" in newest(tg, g, tables[g]).text for g in GROUPS)),
                              what="Ben at every table")
        finally:
            assert await terminate(second) == 0
        assert all(len(tg.chat(g)) == 1 for g in GROUPS), "a table was opened twice"
