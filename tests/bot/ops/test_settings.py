"""Settings: defaults, the environment, durations, and one-line errors."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.ops.settings import HostPort, Settings, SettingsError, load_settings, parse_duration

VARIABLES = [field.validation_alias for field in Settings.model_fields.values()]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def error_of(monkeypatch: pytest.MonkeyPatch, **env: str) -> str:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as info:
        load_settings()
    return str(info.value)


def test_every_variable_is_documented():
    doc = Settings.__doc__
    assert all(f"``{name}``" in doc for name in VARIABLES)


def test_defaults():
    s = load_settings()
    assert s.redis_url is None
    assert s.data_dir == Path("data") and s.db_file == Path("data/stammtisch.db")
    assert s.abandoned_days == 14 and s.abandoned_ttl == 14 * 86400
    assert s.reminder_after == timedelta(hours=12)
    assert s.autoplay_after == timedelta(hours=48)
    assert s.lang == "de"
    assert s.telegram_token is None and s.telegram_webhook_url is None
    assert s.telegram_webhook_listen == HostPort("127.0.0.1", 8443)
    assert s.telegram_api_base_url is None
    assert s.metrics_listen is None and s.log_format == "text" and s.log_level == "INFO"


def test_environment(clean_env, tmp_path):
    env = {
        "REDIS_URL": "redis://127.0.0.1:6379/2",
        "STAMMTISCH_DATA_DIR": str(tmp_path),
        "STAMMTISCH_ABANDONED_DAYS": "3",
        "STAMMTISCH_REMINDER_AFTER": "90s",
        "STAMMTISCH_AUTOPLAY_AFTER": "off",
        "STAMMTISCH_LANG": "en",
        "TELEGRAM_TOKEN": "123:abc",
        "TELEGRAM_WEBHOOK_URL": "https://bot.example.org/tg",
        "TELEGRAM_WEBHOOK_SECRET": "s3cret_-x0123456789",
        "TELEGRAM_WEBHOOK_LISTEN": "0.0.0.0:9000",
        "TELEGRAM_API_BASE_URL": "http://127.0.0.1:8081/bot",
        "STAMMTISCH_METRICS_LISTEN": "0.0.0.0:9100",
        "STAMMTISCH_LOG_FORMAT": "json",
        "STAMMTISCH_LOG_LEVEL": "WARNING",
    }
    for name, value in env.items():
        clean_env.setenv(name, value)
    s = load_settings()
    assert s.redis_url == "redis://127.0.0.1:6379/2"
    assert s.data_dir == tmp_path and s.abandoned_ttl == 3 * 86400
    assert s.reminder_after == timedelta(seconds=90) and s.autoplay_after is None
    assert s.lang == "en"
    assert s.telegram_token.get_secret_value() == "123:abc"
    assert s.telegram_webhook_url == "https://bot.example.org/tg"
    assert s.telegram_webhook_secret.get_secret_value() == "s3cret_-x0123456789"
    assert s.telegram_webhook_listen == HostPort("0.0.0.0", 9000)
    assert s.telegram_api_base_url == "http://127.0.0.1:8081/bot"
    assert s.metrics_listen == HostPort("0.0.0.0", 9100)
    assert s.log_format == "json" and s.log_level == "WARNING"
    assert "123:abc" not in repr(s) and "s3cret" not in repr(s)


def test_overrides_win_over_the_environment(clean_env):
    clean_env.setenv("STAMMTISCH_LANG", "en")
    s = load_settings(lang="de", redis_url="unix:///tmp/redis.sock", autoplay_after="15m")
    assert s.lang == "de" and s.redis_url == "unix:///tmp/redis.sock"
    assert s.autoplay_after == timedelta(minutes=15)


def test_empty_variables_count_as_unset(clean_env):
    clean_env.setenv("REDIS_URL", "")
    clean_env.setenv("STAMMTISCH_LANG", "")
    s = load_settings()
    assert s.redis_url is None and s.lang == "de"


def test_the_locale_is_not_the_language(clean_env):
    clean_env.setenv("LANG", "C.UTF-8")
    assert load_settings().lang == "de"


@pytest.mark.parametrize("text, seconds", [
    ("90s", 90), ("15m", 900), ("12h", 43200), ("2d", 172800), (" 12H ", 43200), ("off", None), ("OFF", None),
])
def test_parse_duration(text, seconds):
    expected = None if seconds is None else timedelta(seconds=seconds)
    assert parse_duration(text) == expected


@pytest.mark.parametrize("text", ["", "12", "h", "0s", "1.5h", "-1h", "12 h", "1w", "soon", "٣s", "１s", "9999999999d"])
def test_parse_duration_refuses(text):
    with pytest.raises(ValueError, match="expected a duration"):
        parse_duration(text)


@pytest.mark.parametrize("text, least", [("999999999d", "1s"), ("31d", "1s"), ("59s", "1m"), ("1m", "2m")])
def test_parse_duration_holds_its_bounds(text, least):
    with pytest.raises(ValueError, match=f"expected a duration from {least} to 30d or off"):
        parse_duration(text, parse_duration(least))


def test_the_bounds_are_inclusive():
    assert parse_duration("30d", timedelta(minutes=2)) == timedelta(days=30)
    assert parse_duration("120s", timedelta(minutes=2)) == timedelta(minutes=2)


@pytest.mark.parametrize("name, value, expected", [
    ("STAMMTISCH_AUTOPLAY_AFTER", "soon",
     "STAMMTISCH_AUTOPLAY_AFTER: expected a duration like 90s, 15m, 12h, 2d or off, got 'soon'"),
    ("STAMMTISCH_REMINDER_AFTER", "0m", "STAMMTISCH_REMINDER_AFTER: expected a duration"),
    ("STAMMTISCH_REMINDER_AFTER", "30s",
     "STAMMTISCH_REMINDER_AFTER: expected a duration from 1m to 30d or off, got '30s'"),
    ("STAMMTISCH_AUTOPLAY_AFTER", "1m", "STAMMTISCH_AUTOPLAY_AFTER: expected a duration from 2m to 30d or off, got '1m'"),
    ("STAMMTISCH_AUTOPLAY_AFTER", "999999999d", "STAMMTISCH_AUTOPLAY_AFTER: expected a duration from 2m to 30d"),
    ("STAMMTISCH_AUTOPLAY_AFTER", "１h", "STAMMTISCH_AUTOPLAY_AFTER: expected a duration like"),
    ("STAMMTISCH_ABANDONED_DAYS", "0", "STAMMTISCH_ABANDONED_DAYS: Input should be greater than or equal to 1"),
    ("STAMMTISCH_ABANDONED_DAYS", "two", "STAMMTISCH_ABANDONED_DAYS: Input should be a valid integer"),
    ("STAMMTISCH_LANG", "fr", "STAMMTISCH_LANG: Input should be 'de' or 'en'"),
    ("REDIS_URL", "localhost:6379",
     "REDIS_URL: expected a redis:// or rediss:// or unix:// or redis+cluster:// or rediss+cluster:// URL"),
    ("TELEGRAM_WEBHOOK_LISTEN", "8443", "TELEGRAM_WEBHOOK_LISTEN: expected HOST:PORT"),
    ("TELEGRAM_WEBHOOK_LISTEN", "host:70000", "TELEGRAM_WEBHOOK_LISTEN: expected HOST:PORT"),
    ("TELEGRAM_API_BASE_URL", "127.0.0.1:8081", "TELEGRAM_API_BASE_URL: expected a https:// or http:// URL"),
    ("TELEGRAM_WEBHOOK_SECRET", "has space", "TELEGRAM_WEBHOOK_SECRET: must be 16 to 256 characters"),
    ("TELEGRAM_WEBHOOK_SECRET", "x", "TELEGRAM_WEBHOOK_SECRET: must be 16 to 256 characters"),
    ("TELEGRAM_WEBHOOK_SECRET", "a" * 15, "TELEGRAM_WEBHOOK_SECRET: must be 16 to 256 characters"),
    ("STAMMTISCH_METRICS_LISTEN", "9100", "STAMMTISCH_METRICS_LISTEN: expected HOST:PORT"),
    ("STAMMTISCH_LOG_FORMAT", "xml", "STAMMTISCH_LOG_FORMAT: Input should be 'text' or 'json'"),
])
def test_bad_value_is_one_clear_line(clean_env, name, value, expected):
    message = error_of(clean_env, **{name: value})
    assert message.startswith(expected)
    assert "\n" not in message


def test_webhook_needs_a_secret(clean_env):
    message = error_of(clean_env, TELEGRAM_WEBHOOK_URL="https://bot.example.org/tg")
    assert message == "TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_WEBHOOK_URL"


def test_several_bad_values_in_one_line(clean_env):
    message = error_of(clean_env, STAMMTISCH_LANG="fr", STAMMTISCH_AUTOPLAY_AFTER="later")
    assert "STAMMTISCH_LANG" in message and "STAMMTISCH_AUTOPLAY_AFTER" in message
    assert "\n" not in message


def test_secrets_never_appear_in_errors(clean_env):
    message = error_of(clean_env, TELEGRAM_WEBHOOK_SECRET="top secret!")
    assert "top secret" not in message


def test_ipv6_listen_address(clean_env):
    clean_env.setenv("TELEGRAM_WEBHOOK_LISTEN", "[::1]:8443")
    listen = load_settings().telegram_webhook_listen
    assert listen == HostPort("::1", 8443) and str(listen) == "[::1]:8443"
