"""The web table's settings: where it listens, its public URL, the links' secret and the Mini App's name."""

from __future__ import annotations

import pytest

from bot.ops.settings import HostPort, SettingsError, load_settings


def test_the_web_table_is_off_until_it_is_given_an_address(monkeypatch):
    for name in ("STAMMTISCH_WEB_LISTEN", "STAMMTISCH_WEB_URL", "STAMMTISCH_WEB_SECRET", "TELEGRAM_WEBAPP_NAME"):
        monkeypatch.delenv(name, raising=False)
    s = load_settings()
    assert (s.web_listen, s.web_url, s.web_secret, s.telegram_webapp) == (None, None, None, None)
    monkeypatch.setenv("STAMMTISCH_WEB_LISTEN", "127.0.0.1:8080")
    monkeypatch.setenv("STAMMTISCH_WEB_URL", "https://cards.example.org/tisch/")
    monkeypatch.setenv("STAMMTISCH_WEB_SECRET", "A" * 32)
    monkeypatch.setenv("TELEGRAM_WEBAPP_NAME", "tisch")
    s = load_settings()
    assert s.web_listen == HostPort("127.0.0.1", 8080) and s.web_url == "https://cards.example.org/tisch/"
    assert s.web_secret.get_secret_value() == "A" * 32 and s.telegram_webapp == "tisch"
    assert "A" * 32 not in repr(s)


@pytest.mark.parametrize(("name", "value", "says"), [
    ("web_secret", "short", "STAMMTISCH_WEB_SECRET: must be 32 to 256"),
    ("web_secret", "ä" * 40, "STAMMTISCH_WEB_SECRET: must be 32 to 256"),
    ("telegram_webapp", "no spaces", "TELEGRAM_WEBAPP_NAME: must be the Mini App's short name"),
    ("telegram_webapp", "ab", "TELEGRAM_WEBAPP_NAME: must be the Mini App's short name"),
    ("web_url", "ftp://x", "STAMMTISCH_WEB_URL: expected a https:// or http:// URL"),
    ("web_listen", "8080", "STAMMTISCH_WEB_LISTEN: "),
])
def test_bad_web_settings_are_refused_in_one_line(name, value, says):
    with pytest.raises(SettingsError) as info:
        load_settings(**{name: value})
    assert str(info.value).startswith(says) and "\n" not in str(info.value)
