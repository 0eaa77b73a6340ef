"""What ``stammtisch run`` reads from the environment, as its ``--help`` lists it."""

from __future__ import annotations

import textwrap

from bot.ops import locales
from bot.ops.settings import Settings

__all__ = ["COMMAND", "MEANINGS", "describe"]

COMMAND = "STAMMTISCH_COMMAND"
"""How the user starts ``stammtisch`` in his shell, set by ``scripts/run`` (``./scripts/run``): the
console's "go on with" hint names it."""

MEANINGS = {
    "REDIS_URL": "the Redis server: redis://, rediss://, unix://, redis+cluster:// (unset: an embedded one)",
    "STAMMTISCH_DATA_DIR": "where the embedded Redis keeps its files (default ./data)",
    "STAMMTISCH_ABANDONED_DAYS": "a table nobody touched for this many days is removed (default 14)",
    "STAMMTISCH_REMINDER_AFTER": "remind the player to act after 15m, 12h, 2d (1m to 30d) or off (default 12h)",
    "STAMMTISCH_AUTOPLAY_AFTER": "the computer plays for him after this long (2m to 30d), or off (default 48h)",
    "STAMMTISCH_REDIS_TIMEOUT_S": "seconds a Redis call may take before it counts as failed (default 0.8)",
    "STAMMTISCH_LANG": "the language of a new chat: de, en or one of STAMMTISCH_LOCALE_DIR's (default de)",
    "STAMMTISCH_QUIET_HOURS": "no reminder and no timer then: 23-7, 22:30-06:30 (16 h at most) or off (default 23:00-07:00)",
    "STAMMTISCH_TIMEZONE": "the IANA time zone of the quiet hours (default Europe/Berlin)",
    "STAMMTISCH_VACATION_DAYS": "days of vacation (urlaub) a person may take per calendar year (default 30)",
    "STAMMTISCH_MAX_TABLES_PER_USER": "a person at this many open tables cannot open another (default 10)",
    "STAMMTISCH_MAX_LOBBIES_PER_CHAT": "tables waiting for players in one chat before no other opens (default 10)",
    "STAMMTISCH_ANSWERS_PER_MINUTE": "answers a person gets per minute in a group to commands that change no table, "
                                     "then one 'not so fast' and silence (default 5)",
    "STAMMTISCH_TIPP_SAMPLES": "sampled deals a hint (Tipp) weighs the choices over (4 to 200, default 24)",
    "STAMMTISCH_TIPP_SECONDS": "the longest a hint's search may take (0.05 to 5, default 0.7)",
    "TELEGRAM_TOKEN": "serve Telegram with this bot token (from @BotFather)",
    "TELEGRAM_WEBHOOK_URL": "serve Telegram by webhook at this public HTTPS URL (unset: long polling)",
    "TELEGRAM_WEBHOOK_SECRET": "the webhook's secret token, 16 to 256 of A-Z a-z 0-9 _ - (required with a URL)",
    "TELEGRAM_WEBHOOK_LISTEN": "HOST:PORT the webhook server listens on (default 127.0.0.1:8443)",
    "TELEGRAM_API_BASE_URL": "a local Bot API server or a test server instead of Telegram's",
    "STAMMTISCH_METRICS_LISTEN": "HOST:PORT of the /metrics and /healthz server (unset: none)",
    "STAMMTISCH_WEB_LISTEN": "HOST:PORT the web table listens on, behind a TLS proxy (unset: no web table)",
    "STAMMTISCH_WEB_URL": "the web table's public HTTPS URL: the Mini App's URL, where Discord's links point",
    "STAMMTISCH_WEB_SECRET": "32 to 256 of A-Z a-z 0-9 _ - signing the web table's links (unset: no Discord links)",
    "TELEGRAM_WEBAPP_NAME": "the Mini App's short name from BotFather's /newapp (set: an 'Am Tisch ansehen' button)",
    "STAMMTISCH_LOG_FORMAT": "text or json (default text)",
    "STAMMTISCH_LOG_LEVEL": "DEBUG, INFO, WARNING or ERROR (default INFO)",
    "STAMMTISCH_MEMORY_DAYS": "a chat's history, statistics and ratings are kept this many days after its last match "
                              "(default 365)",
    "STAMMTISCH_MEMORY_MATCHES": "matches a chat's history keeps; its statistics count older ones too (default 10000)",
    "STAMMTISCH_REVIEW_SAMPLES": "deals a review samples at most per decision (default: the strong player's budget)",
    "DISCORD_TOKEN": "serve Discord with this bot token (Discord Developer Portal)",
    "DISCORD_API_BASE_URL": "a test server's REST base instead of Discord's",
    "DISCORD_GATEWAY_URL": "a test server's gateway WebSocket URL instead of Discord's",
    "DISCORD_GUILD_IDS": "comma-separated server ids whose slash commands are synced at once",
    "DISCORD_SHARD_COUNT": "the total number of gateway shards over all processes (unset: Discord's choice)",
    "DISCORD_SHARD_IDS": "comma-separated shard ids this process runs (needs DISCORD_SHARD_COUNT)",
}
"""One line on each setting, by its variable."""


def describe(tunings: dict[str, type]) -> str:
    """The variables ``stammtisch run`` reads, one a line, for ``--help``.

    Args:
        tunings: each chat adapter's pydantic-settings class of its pacing and timings, by
            platform name (loaded by the caller: the bot layer imports no adapter).
    """
    lines = ["environment (docs/operating.md: Settings reference; with neither token, a table in this terminal):"]
    for field in Settings.model_fields.values():
        lines.append(_entry(field.validation_alias, MEANINGS[field.validation_alias]))
    lines.append(_entry(COMMAND, "how you start stammtisch, named in the console's hints (scripts/run sets it)"))
    lines.append(_entry(locales.ENV, "a directory of further text catalogs, <lang>/LC_MESSAGES/stammtisch.po: each adds "
                                     "(or replaces) a language"))
    for platform, tuning in tunings.items():
        lines.append(f"{platform} pacing and timings:")
        prefix = tuning.model_config["env_prefix"]
        for name, field in tuning.model_fields.items():
            lines.append(_entry(prefix + name.upper(), f"{field.description} (default {field.default:g})"))
    return "\n".join(lines)


def _entry(variable: str, meaning: str) -> str:
    """One variable and its meaning, wrapped to 100 columns."""
    return textwrap.fill(meaning, 100, initial_indent=f"  {variable:<28} ", subsequent_indent=" " * 31)
