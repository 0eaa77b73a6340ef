"""The console's »nachbesprechung«: after a deal, the terminal player's own review, printed."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys


def test_nachbesprechung_after_a_deal_prints_his_review(redis_url):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "STAMMTISCH_"))}
    env.update(REDIS_URL=redis_url, USER=f"test{secrets.token_hex(4)}", LOGNAME="", PYTHONUNBUFFERED="1",
               STAMMTISCH_REVIEW_SAMPLES="2")
    moves = "".join(f"{n}\n" for _ in range(30) for n in (1, 2, 3, 4, 5))  # the first deal surely ends
    stdin = "nachbesprechung\nweiter\n" + moves + "nachbesprechung\nabbrechen\nquit\n"
    run = subprocess.run([sys.executable, "-m", "bot.run.cli", "play", "bauer", "--options", '{"short_deck": true}'],
                         input=stdin, capture_output=True, text=True, env=env, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    before, title, after = re.split(r"(🔍 Spiel \d+, deine Sicht)", run.stdout)
    assert "» Noch ist hier kein Spiel zu Ende, das du besprechen könntest." in before, "none before the first deal's end"
    review = after.split("Deine Wahl>")[0]
    assert review.lstrip().startswith("Nachbesprechung (Bauer): ")
    choices = [line for line in run.stdout.splitlines() if line.startswith("[1] ")]
    assert choices and not any("Nachbesprechung" in line for line in choices), "no numbered button for it: it is typed"
