"""``stammtisch tournament``: the final standings as a table the normal computer players played, with ``--json`` one
JSON object byte-identical for a seed (in another process too: another hash seed); exit 2 with one line.

The command runs in this process (its ``main``, :mod:`tests.clikit`), but where the contract is another process's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.clikit import Stammtisch


def process(*args: str, hash_seed: str | None = None) -> subprocess.CompletedProcess:
    """``stammtisch tournament ARGS`` in a process of its own (with ``PYTHONHASHSEED`` ``hash_seed``)."""
    env = dict(os.environ, STAMMTISCH_LANG="de", **({"PYTHONHASHSEED": hash_seed} if hash_seed else {}))
    return subprocess.run([sys.executable, "-m", "bot.run.cli", "tournament", *args], capture_output=True, text=True,
                          check=False, env=env)


@pytest.fixture
def run(monkeypatch, capsys):
    """``stammtisch tournament ARGS`` in this process."""
    stammtisch = Stammtisch(monkeypatch, capsys)
    return lambda *args: stammtisch("tournament", *args, env={"STAMMTISCH_LANG": "de"})


def test_prints_the_final_standings_byte_identical_for_a_seed(run):
    args = ("--game", "bauernstoss", "--format", "groups-ko", "--teams", "12", "--seed", "2012", "--kind", "leicht",
            "--json")
    one, two = run(*args), process(*args)
    assert one.returncode == 0 and one.stderr == "", one.stderr
    assert one.stdout == two.stdout and one.stdout.count("\n") == 1
    out = json.loads(one.stdout)
    assert out["kind"] == "leicht" and out["seed"] == 2012 and out["format"] == "groups-ko"
    assert [r["rank"] for r in out["standings"]] == list(range(1, 13))
    assert set(out["standings"][0]) == {"rank", "team", "played", "won", "drawn", "lost", "points_for",
                                        "points_against", "decided_by"}
    other = run("--game", "bauernstoss", "--format", "groups-ko", "--teams", "12", "--seed", "2013", "--kind", "leicht",
                "--json")
    assert json.loads(other.stdout)["standings"] != out["standings"]


def test_a_swiss_tournament_is_the_same_whatever_the_hash_seed():
    """The pairing library's matching must not depend on the order of sets of strings."""
    args = ("--game", "bauer", "--format", "swiss", "--teams", "63", "--seed", "5", "--kind", "random", "--json")
    one, two = process(*args, hash_seed="1"), process(*args, hash_seed="2")
    assert one.returncode == 0 and one.stdout == two.stdout


def test_options_and_format_options_reach_the_tournament(run):
    done = run("--game", "alter_schafkopf", "--format", "round-robin", "--teams", "3", "--options", '{"target": 5}',
               "--format-options", '{"legs": 2}', "--kind", "random", "--json")
    out = json.loads(done.stdout)
    assert done.returncode == 0 and out["options"]["target"] == 5 and out["format_options"]["legs"] == 2
    assert out["matches"] == 6 and all(r["played"] == 4 for r in out["standings"])


def test_prints_a_table_the_normal_computers_played_by_default(run):
    done = run("--game", "bauer", "--format", "round-robin", "--teams", "3", "--options", '{"target_brote": 1}')
    assert done.returncode == 0 and done.stderr == "", done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "🏆 Bauer · jeder gegen jeden · 3 Teilnehmer · Startwert 0 · Computer: normal"
    assert lines[3].split() == ["Platz", "Team", "Spiele", "Siege", "Niederlagen", "Brote", "entschieden"]
    assert [line.split()[0] for line in lines[4:]] == ["1.", "2.", "3."] and "Team" in lines[4]
    same = json.loads(run("--game", "bauer", "--format", "round-robin", "--teams", "3", "--options",
                          '{"target_brote": 1}', "--json").stdout)
    assert same["kind"] == "normal"
    assert [line.split()[1:3] for line in lines[4:]] == [r["team"].split() for r in same["standings"]]


def test_a_rams_table_shows_rams_columns(run):
    done = run("--game", "rams", "--format", "round-robin", "--teams", "3", "--options", '{"target": 3}', "--lang", "en")
    lines = done.stdout.splitlines()
    assert lines[3].split() == ["Place", "Player", "Played", "First", "Place", "points", "Tricks", "Kartoffeln", "paid",
                                "decided", "by"]
    rows = json.loads(run("--game", "rams", "--format", "round-robin", "--teams", "3", "--options", '{"target": 3}',
                          "--json").stdout)["standings"]
    assert all(set(r) == {"rank", "team", "played", "won", "place_points", "tricks", "kartoffeln", "paid", "decided_by"}
               for r in rows)
    assert [r["paid"] for r in rows] == sorted(r["paid"] for r in rows) and rows[-1]["paid"] >= 2.0  # the last pays most


@pytest.mark.parametrize("args", [
    ("--game", "skat", "--format", "swiss", "--teams", "4"),
    ("--game", "bauer", "--format", "ko", "--teams", "4"),
    ("--game", "bauer", "--format", "swiss", "--teams", "1"),
    ("--game", "bauer", "--format", "swiss", "--teams", "65"),
    ("--game", "bauer", "--format", "swiss", "--teams", "many"),
    ("--game", "bauer", "--format", "swiss", "--teams", "9999999999999999999"),
    ("--game", "bauer", "--format", "swiss", "--teams", "-3"),
    ("--game", "rams", "--format", "swiss", "--teams", "2"),
    ("--game", "rams", "--format", "round-robin", "--teams", "8"),
    ("--game", "bauer", "--format", "swiss", "--teams", "4", "--seed", "x"),
    ("--game", "bauer", "--format", "swiss", "--teams", "4", "--seed", "99999999999999999999"),
    ("--game", "bauer", "--format", "swiss", "--teams", "4", "--options", "{bad"),
    ("--game", "bauer", "--format", "swiss", "--teams", "4", "--options", "[1]"),
    ("--game", "bauer", "--format", "swiss", "--teams", "4", "--options", '{"target": 20}'),
    ("--game", "bauernstoss", "--format", "swiss", "--teams", "4", "--options", '{"target": 0}'),
    ("--game", "bauernstoss", "--format", "swiss", "--teams", "4", "--options", '{"target": "20"}'),
    ("--game", "bauer", "--format", "swiss", "--teams", "4", "--format-options", '{"rounds": 0}'),
    ("--game", "bauer", "--format", "groups-ko", "--teams", "6", "--format-options", '{"knockout": 8}'),
    ("--game", "bauer", "--format", "swiss", "--teams", "4", "--kind", "genius"),
    ("--game", "bauer", "--format", "swiss", "--teams", "4", "--lang", "fr"),
])
def test_bad_arguments_exit_2_with_one_line(args, run):
    done = run(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and done.stderr.startswith("stammtisch: ")
