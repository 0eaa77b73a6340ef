"""Every rule vector (tests/data/vectors) runs through ``stammtisch replay`` and shows what it expects."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bot.run.cli import main
from tests.vectors import load_vector, mismatches, vector_files

FILES = vector_files()


def test_vectors_exist():
    assert len(FILES) >= 200, "the rule vectors were not found under tests/data/vectors"


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_vector(path, tmp_path, capsys):
    vector = load_vector(path)
    replay = tmp_path / "replay.json"
    replay.write_text(json.dumps(vector["replay"]))
    assert main(["replay", str(replay)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert mismatches(vector["expect"], out) == [], vector["why"]


def test_replay_command_reads_stdin_in_a_real_process():
    vector = load_vector(FILES[0])
    proc = subprocess.run([sys.executable, "-m", "bot.run.cli", "replay", "-"], input=json.dumps(vector["replay"]),
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert mismatches(vector["expect"], json.loads(proc.stdout)) == []
