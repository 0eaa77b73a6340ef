"""``stammtisch tournament``, a command scripts call, tells a missing or unknown argument in one line with status 2,
never argparse's usage block."""

from __future__ import annotations

import pytest

from tests.bot.run.test_tournament_cli import run  # noqa: F401 (the fixture: stammtisch tournament in this process)


@pytest.mark.parametrize("args", [
    ("--game", "bauer"),
    ("--game", "bauer", "--format", "swiss", "--teams", "4", "--bogus"),
    ("--game", "bauer", "--format", "swiss", "--teams", "4", "extra"),
    ("--game",),
])
def test_tournament_missing_or_unknown_arguments_take_one_line(args, run):  # noqa: F811
    done = run(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and done.stderr.startswith("stammtisch"), done.stderr
