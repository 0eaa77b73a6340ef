"""Run a bench of ``bench/`` as a user does: ``python bench/NAME --quick``, in a process group of its own.

``REDIS_URL`` is passed on when set; else the bench starts an embedded Redis of its own, as it does
for a user. A bench that hangs is killed with every process it started.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

__all__ = ["BENCH", "run_quick"]

BENCH = Path(__file__).resolve().parents[1] / "bench"


def run_quick(name: str, timeout: float, *args: str) -> str:
    """What ``bench/NAME --quick ARGS`` printed; fails the test if it fails (showing what it printed: a quick run still
    going after :data:`bench.quick.LIMIT_S` prints where it waits, and ends) or still runs after ``timeout`` seconds.

    Its temporary files (an embedded Redis's data directory ...) go to a directory of its own, removed
    afterwards, directly in the system's temporary directory: under a pytest-xdist worker's ``tmp_path``
    the embedded Redis's unix socket path would be longer than the 107 bytes a socket path may have.
    """
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        return _run(name, timeout, tmp, args)


def _run(name: str, timeout: float, tmp: str, args: tuple[str, ...] = ()) -> str:
    proc = subprocess.Popen([sys.executable, str(BENCH / name), "--quick", *args], cwd=BENCH.parent, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            env={**os.environ, "TMPDIR": tmp})
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f"bench/{name} --quick did not end in {timeout:.0f} s (killed); it printed:\n{out}\n{err[-4000:]}")
    if proc.returncode != 0:  # one that hung said where it waited (bench/quick.py): all of it is shown
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # an embedded Redis it started, if it is still there
        except ProcessLookupError:
            pass
        pytest.fail(f"bench/{name} --quick failed (exit {proc.returncode}):\n{out}\n{err[-40000:]}")
    return out
