"""Every shell command in README.md, docs/operating.md and docs/architecture.md works as written.

The convention (docs/architecture.md, "Writing the docs"): commands stand in fenced ```sh blocks,
one command per line, maybe a comment after ``#``; no other shell fence (bash, console, shell) and
no ``$ `` prompt. A line holds a placeholder, and is not run, when it has ``<word>`` (``<lang>``),
``…``, ``...`` or a word starting with ``YOUR_`` (``YOUR_TOKEN``); except the token slot below.

Each block runs in a fresh copy of the checkout: its files as they are in the working tree
(tracked or new, not the ignored ones), with the suite's own installed ``.venv`` linked in
(``pyproject.toml`` dated no later than that install, so the scripts install nothing; a suite run
from another environment fails at once, saying so). The cwd is the copy, HOME an empty temporary
directory, the login name ``reader``; no ``REDIS_URL``, no platform token, no ``STAMMTISCH_*``
setting (each command uses the embedded Redis in the copy's ``./data``); pip may not reach an index
and HTTP proxies point at a closed port (no network; 127.0.0.1 is exempt). Each line runs under
bash with a timeout, stdin at its end (closed) unless :data:`SCRIPTED` gives it input, and fails the
test when it exits non-zero (or misses the text :data:`SCRIPTED` expects). A line starting with
``. `` or ``cd `` sets the shell's state: it runs, and prefixes the block's later lines. The README's
length and quick start, the one shell convention and every relative link (file and heading) are
checked too.

Lines that would not end by themselves, or that would run the suite inside the suite:

- ``TELEGRAM_TOKEN=YOUR_TOKEN …`` / ``DISCORD_TOKEN=YOUR_TOKEN …``: run for real against the fake
  platform of ``tests/fakes``, with the fake's token in place of ``YOUR_TOKEN`` and its address
  added (``TELEGRAM_API_BASE_URL``; ``DISCORD_API_BASE_URL`` and ``DISCORD_GATEWAY_URL``), until the
  bot logs ``serving Telegram as`` (Discord); then SIGTERM, and it must exit 0.
- ``./scripts/run web …``: a server: run until its first line, the URL, which must answer 200;
  then SIGINT (Ctrl-C), and it must stop cleanly (status 0).
- ``./scripts/test …``: runs with ``--collect-only -q -n 0`` appended (collected in one process, not in
  several workers), not the suite itself (that would
  run this test again, inside itself): it proves the script installs nothing, starts pytest with
  its plugins and collects the tests of the paths it names. A bare ``./scripts/test`` collects this
  file only: the suite running this test has already collected all the others.
- ``docker compose …``: no Docker engine or compose plugin is assumed. The line's compose file is
  parsed; the services it names must exist; ``up --build`` needs each built service's Dockerfile
  and ``env_file`` in the copy (``.env`` from the block's ``cp .env.example .env``). Where the
  compose plugin answers, ``docker compose config --quiet`` checks the file too. Nothing is built,
  started or copied out of a container.
"""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from tests.e2e.test_start_trouble import read_until
from tests.fakes.discord.server import FakeDiscord
from tests.fakes.telegram.server import FakeTelegram

ROOT = Path(__file__).resolve().parents[1]
THIS = Path(__file__).resolve().relative_to(ROOT).as_posix()
DOCS = ("README.md", "docs/operating.md", "docs/architecture.md")
TIMEOUT_S = 180
"""The longest a line may take (a busy 2-core machine starts Python slowly; a hang still ends)."""

PLACEHOLDER = re.compile(r"<[^<>\s]+>|…|\.\.\.|\bYOUR_[A-Z_]+")
TOKEN_SLOT = re.compile(r"\b(TELEGRAM|DISCORD)_TOKEN=YOUR_TOKEN\b")
STATE = (". ", "cd ")
FENCE = re.compile(r"^(\s*)```(\S*)\s*$")


@dataclass(frozen=True)
class Scripted:
    """What a line gets on stdin, and a text its output must hold."""

    stdin: str
    expect: str = ""


SCRIPTED = {
    "./scripts/run": Scripted("bauerchen\nquit\n", expect="play --resume"),
    "STAMMTISCH_DATA_DIR=./data-ben ./scripts/run play rams --name Ben": Scripted("quit\n", expect="Rams"),
    "LOGNAME=ben ./scripts/run play rams --name Ben": Scripted("quit\n", expect="Rams"),
}
"""Lines given input; the two-tables lines must open their own Rams table beside Anna's Bauer."""


@dataclass(frozen=True)
class Block:
    """One fenced shell block: where it is and its command lines."""

    doc: str
    line: int
    commands: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.doc}:{self.line}"


def fences(doc: str) -> list[tuple[int, str, list[str]]]:
    """Every fenced block of ``doc``: its first line's number, its tag and its lines."""
    found, lines = [], (ROOT / doc).read_text().splitlines()
    i = 0
    while i < len(lines):
        opened = FENCE.match(lines[i])
        if opened:
            indent, tag, body = opened.group(1), opened.group(2), []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                body.append(lines[i][len(indent):])
                i += 1
            found.append((i - len(body), tag, body))
        i += 1
    return found


def blocks() -> list[Block]:
    """The ``sh`` blocks of every doc, with their commands (blank and comment lines left out)."""
    return [Block(doc, start, tuple(c.strip() for c in body if c.strip() and not c.strip().startswith("#")))
            for doc in DOCS for start, tag, body in fences(doc) if tag == "sh"]


def test_the_docs_write_shell_commands_one_way():
    for doc in DOCS:
        for start, tag, body in fences(doc):
            assert tag not in ("bash", "console", "shell", "zsh"), f"{doc}:{start}: write ```sh"
            if tag == "sh":
                assert not [c for c in body if c.lstrip().startswith("$ ")], f"{doc}:{start}: no $ prompt"
    assert len(blocks()) >= 8, "the docs' commands were not found"


def test_the_readme_is_short_and_starts_with_the_quick_start():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) < 400, len(lines)
    assert "## Quick start" in lines[:40]
    assert any(b.doc == "README.md" and b.line <= 40 and "./scripts/run" in b.commands[0] for b in blocks())


def anchors(doc: Path) -> set[str]:
    """The anchors GitHub gives the headings of ``doc``."""
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
            for heading in re.findall(r"^#+ (.+)$", doc.read_text(), re.MULTILINE)}


def test_the_docs_links_lead_somewhere():
    for doc in DOCS:
        for target in re.findall(r"\]\(([^)\s]+)\)", (ROOT / doc).read_text()):
            if target.startswith(("http://", "https://")):
                continue
            path, _, anchor = target.partition("#")
            linked = (ROOT / doc).parent / path if path else ROOT / doc
            assert linked.exists(), f"{doc}: {target}"
            assert not anchor or anchor in anchors(linked), f"{doc}: {target}: no such heading"


def checkout(where: Path) -> Path:
    """A copy of the checkout's files as they are now (not the ignored ones), with the suite's ``.venv`` linked in."""
    venv = Path(sys.prefix)
    stamps = [venv / ".installed", venv / ".installed-test"]
    if not (venv / "bin" / "stammtisch").exists() or not all(s.exists() for s in stamps):
        pytest.fail(f"run the suite from the .venv ./scripts/test installs, not {venv}")
    listed = ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"]  # tracked and new, not ignored
    tracked = subprocess.run(listed, cwd=ROOT, capture_output=True, check=True).stdout
    copy = where / "checkout"
    for name in tracked.decode().split("\0"):
        if name and (ROOT / name).exists():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, copy / name, follow_symlinks=False)
    (copy / ".venv").symlink_to(venv)
    installed = min(s.stat().st_mtime for s in stamps)
    if (copy / "pyproject.toml").stat().st_mtime > installed:  # the suite's .venv is this install
        os.utime(copy / "pyproject.toml", (installed, installed))
    return copy


def closed_port() -> int:
    """A port of 127.0.0.1 nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def environment(home: Path) -> dict[str, str]:
    """A newcomer's shell: his PATH without the suite's venv, an empty HOME, no settings, no network."""
    venv_bin = str(Path(sys.prefix) / "bin")
    path = os.pathsep.join(p for p in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep) if p != venv_bin)
    nowhere = f"http://127.0.0.1:{closed_port()}"
    return {"PATH": path, "HOME": str(home), "LANG": "C.UTF-8", "LOGNAME": "reader", "USER": "reader",
            "PYTHONUNBUFFERED": "1", "PIP_NO_INDEX": "1", "http_proxy": nowhere, "https_proxy": nowhere,
            "HTTP_PROXY": nowhere, "HTTPS_PROXY": nowhere, "no_proxy": "127.0.0.1,localhost",
            "NO_PROXY": "127.0.0.1,localhost"}


@dataclass
class Shell:
    """Runs a block's lines in the copy, each after the lines that set the shell's state."""

    cwd: Path
    env: dict[str, str]
    state: tuple[str, ...] = ()

    def script(self, command: str) -> list[str]:
        """``bash -c`` of ``command`` after the state lines."""
        return ["bash", "-c", "\n".join((*self.state, command))]

    async def run(self, command: str, stdin: str | None = None, env: dict[str, str] | None = None) -> str:
        """Run ``command`` to its end; its output, or a failure naming its status and output."""
        done = await asyncio.to_thread(
            subprocess.run, self.script(command), cwd=self.cwd, env={**self.env, **(env or {})},
            input=stdin if stdin is not None else "", capture_output=True, text=True, timeout=TIMEOUT_S)
        output = done.stdout + done.stderr
        assert done.returncode == 0, f"`{command}` exited {done.returncode}:\n{output[-3000:]}"
        return output

    def start(self, command: str, env: dict[str, str] | None = None) -> subprocess.Popen:
        """Start a ``command`` that serves until it is stopped (the chain of scripts execs it: one pid)."""
        return subprocess.Popen(self.script(command), cwd=self.cwd, env={**self.env, **(env or {})},
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


async def stopped(proc: subprocess.Popen, sig: signal.Signals) -> int:
    """Send ``sig`` to a started command; its exit status (killed if it outlives the timeout)."""
    proc.send_signal(sig)
    try:
        return await asyncio.to_thread(proc.wait, TIMEOUT_S)
    finally:
        if proc.poll() is None:
            proc.kill()


async def serves_a_chat(shell: Shell, command: str) -> None:
    """A token line: it serves the fake platform as written, then stops cleanly on SIGTERM."""
    platform = "Telegram" if TOKEN_SLOT.search(command).group(1) == "TELEGRAM" else "Discord"
    async with FakeTelegram() if platform == "Telegram" else FakeDiscord() as fake:
        address = ({"TELEGRAM_API_BASE_URL": fake.base_url} if platform == "Telegram" else
                   {"DISCORD_API_BASE_URL": fake.base_url, "DISCORD_GATEWAY_URL": fake.gateway_url})
        proc = shell.start(TOKEN_SLOT.sub(rf"\1_TOKEN={fake.token}", command), env=address)
        try:
            await read_until(proc, f"serving {platform} as ")
        finally:
            status = await stopped(proc, signal.SIGTERM)
        assert status == 0, f"`{command}` exited {status} on SIGTERM"


async def serves_the_web_table(shell: Shell, command: str) -> None:
    """``./scripts/run web``: its first line is a URL that answers; Ctrl-C ends it cleanly (status 0)."""
    proc = shell.start(command)
    try:
        url = (await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), TIMEOUT_S)).strip()
        assert url.startswith("http://127.0.0.1:"), f"`{command}` printed {url!r} first"
        with await asyncio.to_thread(urllib.request.urlopen, url, timeout=30) as page:
            assert page.status == 200
    finally:
        status = await stopped(proc, signal.SIGINT)
    assert status == 0, f"`{command}` exited {status} on Ctrl-C"


def composes(copy: Path, command: str) -> None:
    """A ``docker compose`` line fits the compose file: its services exist, and what ``up`` builds."""
    words = shlex.split(command.split(" #", 1)[0])[2:]
    file = copy / "docker-compose.yml"
    services = yaml.safe_load(file.read_text())["services"]
    verb, rest = words[0], [w for w in words[1:] if not w.startswith("-")]
    if verb in ("exec", "logs", "cp"):
        assert rest and rest[0].split(":", 1)[0] in services, f"`{command}`: no such service"
    if verb == "up":
        assert {"-d", "--build"} <= set(words), command
        for name, service in services.items():
            if "build" in service:
                assert (copy / service["build"] / "Dockerfile").exists(), name
            if "env_file" in service:
                assert (copy / service["env_file"]).exists(), f"{name}: {service['env_file']} (cp .env.example .env)"
    if shutil.which("docker") and subprocess.run(["docker", "compose", "version"], capture_output=True,
                                                 check=False).returncode == 0:
        checked = subprocess.run(["docker", "compose", "config", "--quiet"], cwd=copy, capture_output=True,
                                 text=True, check=False)
        assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize("block", blocks(), ids=str)
async def test_every_command_works_as_written(block: Block, tmp_path: Path):
    copy = checkout(tmp_path)
    (tmp_path / "home").mkdir()
    shell = Shell(copy, environment(tmp_path / "home"))
    for command in block.commands:
        if TOKEN_SLOT.search(command) and not PLACEHOLDER.search(TOKEN_SLOT.sub("", command)):
            await serves_a_chat(shell, command)
        elif PLACEHOLDER.search(command):
            continue
        elif command.startswith(STATE):
            await shell.run(command)
            shell.state += (command,)
        elif command.startswith("docker compose "):
            composes(copy, command)
        elif command.startswith("./scripts/test"):
            line = command.split(" #", 1)[0].strip()
            await shell.run(f"{line} --collect-only -q -n 0" + ("" if " " in line else f" {THIS}"))
        elif command.startswith("./scripts/run web"):
            await serves_the_web_table(shell, command)
        else:
            scripted = SCRIPTED.get(command.split(" #", 1)[0].strip())
            output = await shell.run(command, stdin=scripted.stdin if scripted else None)
            assert scripted is None or scripted.expect in output, f"`{command}` did not show {scripted.expect!r}"
