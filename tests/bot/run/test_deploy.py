"""The Dockerfile, docker-compose.yml and .env.example, checked without a Docker engine.

Both files parse; every COPY source exists and passes .dockerignore; the package installs from
exactly the files the image copies and ``stammtisch --help`` starts; the settings named in the
compose file, the image and .env.example are the settings the bot reads (derived from
``bot/settings.py`` and the adapters' tunings, so a new setting must be added to .env.example).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from adapters.discord.tuning import Tuning as DiscordTuning
from adapters.telegram.tuning import Tuning as TelegramTuning
from adapters.web.tuning import Tuning as WebTuning
from bot.ops.settings import Settings

ROOT = Path(__file__).resolve().parents[3]
RUNTIME_ENV = {"PATH", "PYTHONUNBUFFERED"}


def known_settings() -> set[str]:
    """Every environment variable the bot reads."""
    names = {field.validation_alias for field in Settings.model_fields.values()}
    for tuning in (TelegramTuning, DiscordTuning, WebTuning):
        prefix = tuning.model_config["env_prefix"]
        names |= {prefix + name.upper() for name in tuning.model_fields}
    return names


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile as (INSTRUCTION, arguments), continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, args = line.partition(" ")
            out.append((word, args.strip()))
    return out


def stages() -> list[list[tuple[str, str]]]:
    """The Dockerfile's build stages, each from its FROM on."""
    out: list[list[tuple[str, str]]] = []
    for word, args in instructions():
        if word == "FROM":
            out.append([])
        assert out, "the Dockerfile must start with FROM"
        out[-1].append((word, args))
    return out


def copied() -> list[str]:
    """The sources of the COPY lines that copy from the build context."""
    sources = []
    for word, args in instructions():
        if word == "COPY" and not args.startswith("--from"):
            sources += args.split()[:-1]
    return sources


def test_the_dockerfile_parses_and_builds_in_two_stages():
    known = {"FROM", "RUN", "COPY", "ENV", "USER", "WORKDIR", "VOLUME", "EXPOSE", "STOPSIGNAL", "HEALTHCHECK", "CMD"}
    assert {word for word, _ in instructions()} <= known
    build, final = stages()
    assert any(word == "RUN" and "gcc" in args for word, args in build), "the compiler belongs to the build stage"
    assert not any(re.search(r"\b(gcc|make|cc|build-essential|libc6-dev)\b", args) for word, args in final
                   if word == "RUN"), "no compiler in the final image"
    assert any(word == "COPY" and args.startswith("--from=") for word, args in final)
    user = [args for word, args in final if word == "USER"]
    assert user and user[-1] not in ("root", "0"), "the bot runs as an unprivileged user"
    assert any(word == "HEALTHCHECK" and "/healthz" in args for word, args in final)
    assert json.loads(next(args for word, args in final if word == "CMD")) == ["stammtisch", "run"]
    env = set(re.findall(r"(\w+)=", " ".join(args for word, args in final if word == "ENV")))
    assert env <= known_settings() | RUNTIME_ENV, env - known_settings()


def test_every_copy_source_exists_and_passes_dockerignore():
    allowed = {line[1:].strip() for line in (ROOT / ".dockerignore").read_text().splitlines() if line.startswith("!")}
    for source in copied():
        assert (ROOT / source).exists(), source
        assert source.rstrip("/") in allowed, f"{source} is excluded by .dockerignore"


def test_the_package_installs_from_exactly_the_copied_files_and_starts(tmp_path):
    src, site = tmp_path / "src", tmp_path / "site"
    for source in copied():
        path = ROOT / source
        if path.is_dir():
            shutil.copytree(path, src / source, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            (src / source).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, src / source)
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                          "--target", str(site), str(src)], capture_output=True, text=True, check=False)
    assert pip.returncode == 0, pip.stderr[-2000:]
    assert (site / "bin" / "stammtisch").exists(), "the console script is installed"
    env = {**os.environ, "PYTHONPATH": str(site)}
    check = ("import bot.run.cli, bot.service, adapters.telegram, adapters.discord, adapters.console, engine; "
             "print(bot.run.cli.__file__)")
    imported = subprocess.run([sys.executable, "-c", check], cwd=tmp_path, env=env, capture_output=True, text=True,
                              check=False)
    assert imported.returncode == 0, imported.stderr[-2000:]
    assert imported.stdout.strip().startswith(str(site)), imported.stdout
    helped = subprocess.run([sys.executable, str(site / "bin" / "stammtisch"), "--help"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, check=False)
    assert helped.returncode == 0 and "usage: stammtisch" in helped.stdout, helped.stderr[-2000:]


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_runs_the_bot_with_redis_7_durable_and_never_evicting(compose):
    assert set(compose["services"]) == {"bot", "webhook", "redis"}
    bot, redis = compose["services"]["bot"], compose["services"]["redis"]
    assert bot["build"] == "." and bot["env_file"] == ".env"
    assert bot["depends_on"]["redis"]["condition"] == "service_healthy"
    assert bot["environment"]["REDIS_URL"] == "redis://redis:6379/0"
    assert redis["image"].startswith("redis:7")
    command = " ".join(redis["command"])
    for setting in ("--appendonly yes", "--appendfsync everysec", "--maxmemory-policy noeviction"):
        assert setting in command
    volume, _, mount = redis["volumes"][0].partition(":")
    assert volume in compose["volumes"] and mount == "/data", "Redis keeps its data in a named volume"
    assert bot["healthcheck"]["test"] and redis["healthcheck"]["test"]
    assert bot["stop_grace_period"], "the bot gets time to finish its moves on docker stop"


def test_compose_and_the_env_file_name_exactly_the_settings_the_bot_reads(compose):
    known = known_settings()
    assert set(compose["services"]["bot"]["environment"]) <= known
    listed = set(re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", (ROOT / ".env.example").read_text(), re.MULTILINE))
    assert known - listed == set(), f"add these settings to .env.example: {sorted(known - listed)}"
    assert listed - known == set(), f"not settings the bot reads: {sorted(listed - known)}"
    metrics = compose["services"]["bot"]["environment"]["STAMMTISCH_METRICS_LISTEN"].rpartition(":")[2]
    assert f"127.0.0.1:{metrics}-{int(metrics) + 9}:{metrics}" in compose["services"]["bot"]["ports"]
    assert f":{metrics}/healthz" in json.dumps(compose["services"]["bot"]["healthcheck"]["test"])


def test_metrics_and_the_webhook_are_reachable_from_this_host_only(compose):
    """The image listens on its loopback; compose opens the ports in its network and publishes them on
    127.0.0.1 of the host, never on all its interfaces."""
    env = dict(re.findall(r"(\w+)=(\S+)", " ".join(args for word, args in stages()[-1] if word == "ENV")))
    assert env["STAMMTISCH_METRICS_LISTEN"].startswith("127.0.0.1:")
    assert not [args for word, args in stages()[-1] if word == "EXPOSE"], "nothing listens outside the container"
    bot, webhook = compose["services"]["bot"], compose["services"]["webhook"]
    for name in ("STAMMTISCH_METRICS_LISTEN", "TELEGRAM_WEBHOOK_LISTEN"):
        assert bot["environment"][name].startswith("0.0.0.0:"), name
    ports = bot["ports"] + webhook["ports"]
    assert all(p.startswith("127.0.0.1:") for p in ports), ports


def test_compose_scales_the_bot_behind_one_webhook_address(compose):
    """``docker compose up --scale bot=3``: no fixed host port on the bot (its metrics take one of a range), and
    the webhook service passes each update to a bot process, to the next one when that one's port is closed."""
    bot, webhook = compose["services"]["bot"], compose["services"]["webhook"]
    port = bot["environment"]["TELEGRAM_WEBHOOK_LISTEN"].rpartition(":")[2]
    assert all(re.fullmatch(r"127\.0\.0\.1:\d+-\d+:\d+", p) for p in bot["ports"]), bot["ports"]
    assert webhook["ports"] == [f"127.0.0.1:{port}:{port}"] and port in bot["expose"]
    nginx = compose["configs"][webhook["configs"][0]["source"]]["content"]
    assert f"proxy_pass http://$$bots:{port};" in nginx and "set $$bots bot;" in nginx
    assert "proxy_next_upstream error timeout non_idempotent;" in nginx and "resolver 127.0.0.11" in nginx


def test_the_env_file_shows_each_platform_tunings_default():
    text = (ROOT / ".env.example").read_text()
    for tuning in (TelegramTuning, DiscordTuning, WebTuning):
        prefix = tuning.model_config["env_prefix"]
        for name, field in tuning.model_fields.items():
            shown = re.search(rf"^#? ?{prefix}{name.upper()}=(.*)$", text, re.MULTILINE)
            if shown and shown.group(1).strip() and not isinstance(field.default, str):
                assert float(shown.group(1)) == float(field.default), f"{prefix}{name.upper()}: default {field.default}"


@pytest.fixture
def installed(tmp_path) -> Path:
    """A checkout with an installed .venv: the scripts, pyproject.toml, and a .venv whose python runs
    this one on the sources here, refusing ``-m pip`` (nothing may be installed or fetched)."""
    shutil.copytree(ROOT / "scripts", tmp_path / "scripts")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "test_offline.py").write_text("def test_offline():\n    pass\n")
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    python = bin_dir / "python"
    python.write_text(f'#!/bin/sh\nif [ "$1" = -m ] && [ "$2" = pip ]; then echo "pip was called" >&2; exit 3; fi\n'
                      f'PYTHONPATH="{ROOT}" exec "{sys.executable}" "$@"\n')
    (bin_dir / "stammtisch").write_text(f'#!/bin/sh\nexec "{python}" -m bot.run.cli "$@"\n')
    for script in (python, bin_dir / "stammtisch"):
        script.chmod(0o755)
    for stamp in (".installed", ".installed-test"):
        (tmp_path / ".venv" / stamp).touch()
        os.utime(tmp_path / ".venv" / stamp, (100, 100))
    os.utime(tmp_path / "pyproject.toml", (10, 10))  # installed after pyproject.toml last changed
    return tmp_path


def offline(tmp_path: Path) -> dict[str, str]:
    """The environment of a machine whose package index does not answer."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_", "PIP_"))}
    env.update(PIP_INDEX_URL=f"http://127.0.0.1:{closed}/simple", PIP_RETRIES="0", PIP_TIMEOUT="1",
               HOME=str(tmp_path))
    return env


def test_scripts_run_starts_from_an_installed_venv_without_the_package_index(installed):
    env = offline(installed)
    helped = subprocess.run(["./scripts/run", "--help"], cwd=installed, env=env, capture_output=True, text=True,
                            check=False, timeout=120)
    assert helped.returncode == 0, helped.stderr[-2000:]
    assert "usage: stammtisch run" in helped.stdout and "pip" not in helped.stderr
    played = subprocess.run(["./scripts/run", "play", "--help"], cwd=installed, env=env, capture_output=True,
                            text=True, check=False, timeout=120)
    assert played.returncode == 0 and "usage: stammtisch play" in played.stdout, played.stderr[-2000:]
    tested = subprocess.run(["./scripts/test", "-p", "no:cacheprovider", "test_offline.py"], cwd=installed, env=env,
                            capture_output=True, text=True, check=False, timeout=300)
    assert tested.returncode == 0 and "1 passed" in tested.stdout, tested.stdout[-2000:] + tested.stderr[-2000:]


def test_scripts_install_again_once_pyproject_changed(installed):
    os.utime(installed / "pyproject.toml", (1000, 1000))  # changed after the install
    run = subprocess.run(["./scripts/run", "--help"], cwd=installed, env=offline(installed), capture_output=True,
                         text=True, check=False, timeout=120)
    assert run.returncode != 0 and "pip was called" in run.stderr


def test_the_local_env_file_is_never_committed():
    ignored = subprocess.run(["git", "check-ignore", "-q", ".env"], cwd=ROOT, check=False)
    assert ignored.returncode == 0, ".env holds the tokens: it belongs in .gitignore"
