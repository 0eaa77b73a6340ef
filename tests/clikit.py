"""``stammtisch`` run in the test's own process: ``main(argv)`` with the stdin, environment and ``sys.argv``
it would have as ``python -m bot.run.cli``, its exit status and what it printed.

A process of its own costs some 0.7 CPU-s of imports; the command's process-level contracts (the exit status
``sys.exit(main())`` gives, signals, the installed script's name) keep a real process in their tests.
"""

from __future__ import annotations

import io
import os
import secrets
import sys
from dataclasses import dataclass

import pytest

import bot.run.cli as cli

__all__ = ["Done", "Stammtisch", "terminal_player"]


@dataclass(frozen=True)
class Done:
    """What a ``stammtisch`` run gave, named as :class:`subprocess.CompletedProcess` names it."""

    returncode: int
    stdout: str
    stderr: str


def terminal_player(monkeypatch: pytest.MonkeyPatch, redis_url: str) -> dict[str, str]:
    """Make this process's environment a terminal player's of his own (his login name keys his console table):
    no platform token or ``STAMMTISCH_*`` setting, the suite's Redis; the environment, for a subprocess too."""
    for name in [k for k in os.environ if k.startswith(("TELEGRAM_", "DISCORD_", "STAMMTISCH_"))]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("USER", f"test{secrets.token_hex(4)}")
    monkeypatch.setenv("LOGNAME", "")
    monkeypatch.setenv("PYTHONUNBUFFERED", "1")
    return dict(os.environ)


@dataclass
class Stammtisch:
    """Calls :func:`bot.run.cli.main` as the command runs it, stdin given, stdout and stderr captured."""

    monkeypatch: pytest.MonkeyPatch
    capsys: pytest.CaptureFixture[str]

    def __call__(self, *args: str, stdin: str = "", env: dict[str, str] | None = None,
                 argv0: str = cli.__file__) -> Done:
        """Run ``stammtisch args`` with ``stdin`` (closed at its end), ``env`` added to the environment and
        ``argv0`` as the path it was started by (default: the module's, as ``python -m bot.run.cli``)."""
        with self.monkeypatch.context() as m:
            m.setattr(sys, "stdin", io.StringIO(stdin))
            m.setattr(sys, "argv", [argv0, *args])
            for name, value in (env or {}).items():
                m.setenv(name, value)
            self.capsys.readouterr()
            code = cli.main(list(args))
            out, err = self.capsys.readouterr()
        return Done(code, out, err)
