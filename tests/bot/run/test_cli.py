"""The ``stammtisch`` command's contracts: output, determinism, exit codes, one-line errors; ``run --help``
lists what it reads; ``play``'s name, level and language, and the command it names to go on.

The command runs in this process (its ``main``, :mod:`tests.clikit`); a real process where the contract is the
process's: its exit status, a figure the same in another process (another hash seed), the installed script's name.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys

import pytest

from tests.clikit import Stammtisch, terminal_player
from tests.vectors import load_vector, vector_files


def process(*args: str, stdin: str = "", env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``python -m bot.run.cli ARGS`` in a process of its own."""
    return subprocess.run([sys.executable, "-m", "bot.run.cli", *args], input=stdin, capture_output=True, text=True,
                          env=env, timeout=120, check=False)


@pytest.fixture
def run(monkeypatch, capsys) -> Stammtisch:
    """``stammtisch ARGS`` in this process."""
    return Stammtisch(monkeypatch, capsys)


def good_replay() -> dict:
    return load_vector(vector_files()[0])["replay"]


def broken(**change) -> str:
    data = good_replay()
    for key, value in change.items():
        if key == "hands":
            data["deal"]["hands"] = value(data["deal"]["hands"])
        else:
            data[key] = value
    return json.dumps(data)


@pytest.mark.parametrize(("name", "text"), [
    ("bad json", "{not json"),
    ("not an object", "[1, 2]"),
    ("unknown game", broken(game="skat")),
    ("unknown option", broken(options={"no_such_option": True})),
    ("bad card", broken(hands=lambda h: [["XX"] + h[0][1:]] + h[1:])),
    ("duplicate card", broken(hands=lambda h: [[h[1][0]] + h[0][1:]] + h[1:])),
    ("wrong hand size", broken(hands=lambda h: [h[0][1:]] + h[1:])),
    ("bad action", broken(actions=[{"seat": 0, "action": "fly"}])),
])
def test_replay_rejects_bad_files_with_one_line_and_status_2(name, text, run):
    proc = run("replay", "-", stdin=text)
    assert proc.returncode == 2, (name, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr


def test_the_process_exits_with_the_status_and_the_one_line_main_gives():
    proc = process("replay", "-", stdin="{not json")
    assert proc.returncode == 2 and proc.stdout == "", (proc.stdout, proc.stderr)
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr, proc.stderr


def test_replay_missing_file(run):
    proc = run("replay", "/nonexistent/replay.json")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1


def test_illegal_action_is_reported_in_json_with_status_0(run):
    data = good_replay()
    data["actions"] = data["actions"][:1] + [data["actions"][0]]
    proc = run("replay", "-", stdin=json.dumps(data))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["ok"] is False and out["error"]["index"] == 1 and out["error"]["reason"]


def test_simulate_prints_one_json_object_and_is_deterministic(run):
    args = ("simulate", "--game", "bauer", "--deals", "30", "--seed", "7")
    a, b = run(*args), process(*args)  # another process: another hash seed
    assert a.returncode == 0, a.stderr
    one, two = json.loads(a.stdout), json.loads(b.stdout)
    for out in (one, two):
        assert out["deals"] == 30 and out["card_plays"] > 0
        assert out["timing"]["seconds"] >= 0 and out["timing"]["card_plays_per_second"] > 0
        del out["timing"]
    assert one == two


@pytest.mark.parametrize("args", [
    ("simulate", "--game", "skat"),
    ("simulate", "--game", "bauer", "--options", "{bad"),
    ("simulate", "--game", "bauer", "--options", '{"nope": 1}'),
    ("simulate", "--game", "bauer", "--players", "9"),
    ("simulate", "--game", "bauer", "--deals", "0"),
])
def test_simulate_rejects_bad_input(args, run):
    proc = run(*args)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


@pytest.fixture
def run_cli(run):
    """Exit status, standard output and standard error of ``stammtisch`` with ``args``."""
    def ran(*args: str) -> tuple[int, str, str]:
        done = run(*args)
        return done.returncode, done.stdout, done.stderr
    return ran


def test_simulate_names_its_players(run_cli):
    code, out, err = run_cli("simulate", "--game", "bauer", "--deals", "2")
    assert code == 0 and json.loads(out)["moves"] == "random legal moves"
    code, out, err = run_cli("simulate", "--game", "bauer", "--deals", "2", "--kind", "heuristic")
    data = json.loads(out)
    assert code == 0 and data["kind"] == "normal" and data["moves"] == "computer players (normal)"


def test_arena_prints_points_share_and_decision_times(run_cli):
    code, out, err = run_cli("arena", "--game", "bauer", "--deals", "3", "--seed", "4",
                             "--seats", "heuristic,random")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["seats"] == ["heuristic", "random", "heuristic", "random"] and data["rotations"] == 2
    kinds = data["kinds"]
    assert set(kinds) == {"heuristic", "random"}
    assert abs(kinds["heuristic"]["points_share"] + kinds["random"]["points_share"] - 1) < 1e-3
    for figures in kinds.values():
        assert 0 <= figures["ci95"] and set(figures["decision_ms"]) == {"p50", "p95", "max"}
    again = json.loads(process("arena", "--game", "bauer", "--deals", "3", "--seed", "4",  # another hash seed
                               "--seats", "heuristic,random").stdout)
    assert again["kinds"]["random"]["points"] == kinds["random"]["points"]


@pytest.mark.parametrize("game", ["bauernstoss", "rams"])
def test_arena_figures_do_not_depend_on_jobs(game, run_cli):
    """More blocks than one, spread over two processes, give the same JSON as one process, times aside."""
    args = ["arena", "--game", game, "--deals", "23" if game != "rams" else "3", "--seed", "5",
            "--seats", "heuristic,leicht"]
    outs = []
    for jobs in ("1", "2"):
        code, out, err = run_cli(*args, "--jobs", jobs)
        assert code == 0 and err == ""
        data = json.loads(out)
        for figures in data["kinds"].values():
            assert figures.pop("decision_ms")["max"] > 0
        outs.append(data)
    assert outs[0] == outs[1]


@pytest.mark.parametrize("args", [
    ["--game", "nope", "--seats", "random"],
    ["--game", "bauer", "--seats", "random", "--jobs", "0"],
    ["--game", "bauer", "--seats", "random,robot"],
    ["--game", "bauer", "--seats", "random,random,random"],
    ["--game", "bauer", "--seats", "random", "--deals", "0"],
    ["--game", "rams", "--seats", "random", "--players", "9"],
    ["--game", "bauer", "--seats", "strong", "--samples", "0"],
])
def test_arena_bad_arguments_exit_2(args, run_cli):
    code, out, err = run_cli("arena", *args)
    assert code == 2 and out == "" and err.count("\n") == 1


@pytest.mark.parametrize("args", [
    ("simulate", "--game", "bauernstoss", "--options", '{"target": 1000000000}'),
    ("simulate", "--game", "bauerchen", "--options", '{"die_letzte": "yes"}'),
    ("simulate", "--game", "rams", "--options", '{"unit": NaN}'),
    ("play", "bauernstoss", "--options", '{"target": "3"}'),
    ("play", "bauernstoß", "--options", '{"target": 3.0}'),
    ("play", "rams", "--options", '{"unit": 1e308}'),
])
def test_command_line_options_have_the_replay_formats_types_and_bounds(args, capsys):
    from bot.run.cli import main

    assert main(list(args)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ("bad option" in err or "not JSON" in err), err


def test_run_help_lists_every_variable_it_reads(run_cli):
    from adapters.discord.tuning import Tuning as DiscordTuning
    from adapters.telegram.tuning import Tuning as TelegramTuning
    from adapters.web.tuning import Tuning as WebTuning
    from bot.ops.settings import Settings

    code, out, err = run_cli("run", "--help")
    assert code == 0 and "usage: stammtisch run" in out, err
    read = {field.validation_alias for field in Settings.model_fields.values()} | {"STAMMTISCH_COMMAND"}
    for tuning in (TelegramTuning, DiscordTuning, WebTuning):
        read |= {tuning.model_config["env_prefix"] + name.upper() for name in tuning.model_fields}
    listed = set(re.findall(r"^  ([A-Z][A-Z0-9_]+) ", out, re.MULTILINE))
    assert read - listed == set(), f"run --help does not list {sorted(read - listed)}"


@pytest.fixture
def player(redis_url, monkeypatch) -> dict[str, str]:
    """The environment of a terminal player of his own (his login name keys his console table)."""
    return terminal_player(monkeypatch, redis_url)


def hint(out: str) -> list[str]:
    """The command the console's last line names to go on with the table."""
    last = out.rstrip().splitlines()[-1]
    assert "Go on with: " in last or "Weiter mit: " in last, last
    return shlex.split(last.rpartition(": ")[2])


def test_play_takes_name_level_and_lang_and_names_a_command_that_resumes(player, run):
    first = run("play", "bauer", "--name", "  Anna   Lena ", "--level", "stark", "--lang", "en", stdin="quit\n")
    assert first.returncode == 0, first.stderr
    assert "Anna Lena" in first.stdout and "Computer 2 (strong)" in first.stdout and "Your cards:" in first.stdout
    again = hint(first.stdout)
    assert again[-4:] == ["play", "--resume", "--name", "Anna Lena"], "the name keeps its own table"
    assert os.path.exists(again[0]) and again[1:3] == ["-m", "bot.run.cli"], again  # this command: run here
    resumed = run(*again[3:], "--lang", "de", stdin="abbrechen\nquit\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "Anna Lena" in resumed.stdout and "Tisch abgebrochen." in resumed.stdout
    assert "Weiter mit" not in resumed.stdout, "no table is kept after it was aborted"


def test_the_hint_names_stammtisch_when_that_is_on_the_path(player, run, tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "stammtisch"  # as pip writes a console script
    script.write_text(f"#!{sys.executable}\nimport sys\nfrom bot.run.cli import main\nsys.exit(main())\n")
    script.chmod(0o755)
    on_path = {**player, "PATH": f"{bin_dir}{os.pathsep}{player['PATH']}"}
    played = subprocess.run(["stammtisch", "play", "rams"], input="quit\n", capture_output=True, text=True,
                            env=on_path, timeout=120, check=False)
    assert hint(played.stdout) == ["stammtisch", "play", "--resume"], played.stderr
    by_path = run("play", "--resume", stdin="abbrechen\n", argv0=str(script))  # started by its path, as the shell does
    assert "abgebrochen" in by_path.stdout and "Weiter mit" not in by_path.stdout, by_path.stderr
    kept = run("play", "rams", argv0=str(script))
    assert hint(kept.stdout) == [str(script), "play", "--resume"], "not on the PATH: the path it was started by"
    from_script = run("play", "--resume", argv0=str(script), env={"STAMMTISCH_COMMAND": "./scripts/run"})
    assert hint(from_script.stdout) == ["./scripts/run", "play", "--resume"], "scripts/run says how it was called"
    run("play", "--resume", stdin="abbrechen\n", argv0=str(script))


@pytest.mark.parametrize("args", [
    ("--name", ""), ("--name", "x" * 49), ("--name", "Anna\x1b[2J"),
    ("--level", "hard"), ("--level", "random"), ("--lang", "fr"), ("--lang", ""),
])
def test_bad_play_values_exit_2_with_one_line(args, player, run):
    done = run("play", "bauer", *args, stdin="quit\n")
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"stammtisch: {args[0]} must be"), done.stderr
