"""The hint (»Tipp«) in the terminal: typed ``tipp`` at his turn, or its numbered choice, names one of his choices."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys


def test_tipp_typed_in_the_terminal_names_one_of_his_numbered_choices(redis_url):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "STAMMTISCH_"))}
    env.update(REDIS_URL=redis_url, USER=f"test{secrets.token_hex(4)}", LOGNAME="", PYTHONUNBUFFERED="1",
               STAMMTISCH_TIPP_SAMPLES="4")
    run = subprocess.run([sys.executable, "-m", "bot.run.cli", "play", "bauernstoss"], input="tipp\nabbrechen\nquit\n",
                         capture_output=True, text=True, env=env, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    before, _, after = run.stdout.partition("Deine Wahl> » 💡 ")
    numbered = [line for line in before.splitlines() if line.startswith("[1] ")][-1]
    choices = [c[1:-1] if c.startswith("(") else c for c in re.split(r"\s*\[\d+\] ", numbered)[1:]]  # (K♣): not now
    assert choices[-1] == "💡 Tipp", choices  # the hint is one of his numbered choices too
    assert after.partition(" – ")[0] in choices[:-1], (after, choices)
