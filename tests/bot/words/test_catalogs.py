"""The gettext catalogs: every text in every language with the same placeholders and plural-ness, every key
the code names in the catalogs, no text for players built outside them, and a third language that needs
nothing but its catalog."""

from __future__ import annotations

import ast
import functools
import io
import logging
import re
from datetime import datetime
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from bot.ops.settings import load_settings
from bot.words import catalogs, figures
from bot.words.i18n import supported, t, tn

ROOT = Path(__file__).resolve().parents[3]
PLACEHOLDER = re.compile(r"{(\w+)}")
GERMAN = catalogs.language("de")


def _forms(message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


def _placeholders(message) -> set[str]:
    return {p for form in _forms(message) for p in PLACEHOLDER.findall(form)}


def test_the_catalogs_are_german_first_and_english():
    assert catalogs.languages()[:1] == ("de",) and "en" in catalogs.languages()
    assert sorted(p.parent.parent.name for p in catalogs.LOCALE_DIR.glob("*/LC_MESSAGES/stammtisch.po")) == ["de", "en"]


@pytest.mark.parametrize("lang", [lang for lang in catalogs.languages() if lang != "de"])
def test_every_id_in_every_catalog_with_the_same_placeholders_and_plural_forms(lang):
    other = catalogs.language(lang)
    german = {m.id if isinstance(m.id, str) else m.id[0]: m for m in GERMAN.catalog if m.id}
    theirs = {m.id if isinstance(m.id, str) else m.id[0]: m for m in other.catalog if m.id}
    assert sorted(set(german) - set(theirs)) == [] and sorted(set(theirs) - set(german)) == []
    assert set(german) == GERMAN.ids and set(theirs) == other.ids, "an empty or fuzzy text"
    for key, message in german.items():
        mine = theirs[key]
        assert mine.pluralizable == message.pluralizable, key
        assert _placeholders(mine) == _placeholders(message), key
        if mine.pluralizable:
            assert len(_forms(mine)) == other.catalog.num_plurals, key
            assert all(set(PLACEHOLDER.findall(form)) <= _placeholders(message) for form in _forms(mine)), key


def test_the_german_catalog_has_its_plural_rule():
    assert GERMAN.catalog.num_plurals == 2 and GERMAN.plurals >= {"web.cards_left", "mem.matches", "st.striche"}
    assert [tn("de", "web.cards_left", n) for n in (0, 1, 2)] == ["0 Karten", "1 Karte", "2 Karten"]
    assert [tn("en", "mem.matches", n) for n in (1, 12)] == ["1 match", "12 matches"]


@functools.cache
def _sources() -> tuple[tuple[str, ast.AST], ...]:
    """Every module of bot/ and adapters/, parsed: (its path from the repository's root, its tree)."""
    paths = sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "adapters").rglob("*.py")])
    return tuple((str(path.relative_to(ROOT)), ast.parse(path.read_text())) for path in paths)


def _named_keys() -> set[tuple[str, int, str, bool]]:
    """Every text key the code names as a literal: ``t(lang, "key")``, ``tn(lang, "key", n)``, ``Refused("key")``,
    ``Text("key")``, ``web_text(lang, "key")``; and whether it is asked for in a plural form (``tn``)."""
    found = set()
    for where, tree in _sources():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            at, prefix = {"t": (1, ""), "tn": (1, ""), "Refused": (0, ""), "Text": (0, ""), "web_text": (1, "web.")
                          }.get(name, (-1, ""))
            if 0 <= at < len(node.args) and isinstance(node.args[at], ast.Constant) and isinstance(node.args[at].value,
                                                                                                     str):
                found.add((where, node.lineno, prefix + node.args[at].value, name == "tn"))
    return found


def test_every_key_the_code_names_is_in_the_catalogs_as_plural_as_it_is_asked_for():
    named = _named_keys()
    assert len(named) > 300 and any(plural for *_, plural in named)
    assert sorted((where, line, key) for where, line, key, _ in named if key not in GERMAN.ids) == []
    assert sorted((where, line, key) for where, line, key, plural in named if plural != (key in GERMAN.plurals)) == []


PROSE = re.compile(r"[^\W\d_]{2,}[,:;]? [^\W\d_]+[,:;]? [^\W\d_]{2,}")
"""Three words in a row: a literal that reads like a sentence."""
NOT_FOR_PLAYERS = {
    "bot/run/cli.py": "the command line's own usage, help and errors, English like every --help",
    "bot/run/arguments.py": "the command line's argument errors, English like every --help",
    "bot/run/offline.py": "the offline tools' argument errors, English like every --help",
    "bot/run/environment.py": "the environment variables' descriptions, for operators (--help)",
    "bot/ops/metrics.py": "the metrics' help texts, for operators",
    "bot/store/scripts.py": "Redis Lua scripts",
    "bot/store/ratelimit.py": "Redis Lua scripts",
    "bot/store/tourneys.py": "Redis Lua scripts",
    "bot/memory/scripts.py": "Redis Lua scripts",
    "adapters/telegram/tuning.py": "the tuning knobs' descriptions, for operators",
    "adapters/discord/tuning.py": "the tuning knobs' descriptions, for operators",
    "adapters/web/tuning.py": "the tuning knobs' descriptions, for operators",
    "bot/protocol/rejected.py": "the operator's message when a platform rejects the bot token",
    "bot/tools/simulate.py": "the simulation's JSON report (stammtisch simulate), for developers",
    "adapters/telegram/deliver.py": "Telegram's own error messages, matched to tell what failed",
    "adapters/telegram/adopt.py": "Telegram's own error messages, matched to tell what failed",
    "bot/store/outbox.py": "Redis Lua scripts",
    "adapters/web/home.py": "the local web table's start error on the terminal, next to the command's usage",
}
"""Modules whose sentences nobody at a table reads, and why."""
_LOG_CALLS = {"debug", "info", "warning", "error", "exception", "critical", "log"}


def _not_shown(tree: ast.AST) -> set[int]:
    """The literals no player reads: docstrings (and the strings documenting an attribute), log calls, raised errors."""
    out = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        for statement in body if isinstance(body, list) else []:
            if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                out.add(id(statement.value))
        inner = []
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _LOG_CALLS:
            inner = [*node.args, *(k.value for k in node.keywords)]
        elif isinstance(node, ast.Raise) and node.exc is not None:
            inner = [node.exc]
        out |= {id(sub) for part in inner for sub in ast.walk(part)}
    return out


def test_no_text_for_players_is_built_outside_the_catalogs():
    found = []
    for where, tree in _sources():
        if where in NOT_FOR_PLAYERS:
            continue
        hidden = _not_shown(tree)
        found += [f"{where}:{node.lineno}: {node.value[:60]!r}" for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in hidden
                  and PROSE.search(node.value)]
    assert found == []
    assert all((ROOT / where).exists() for where in NOT_FOR_PLAYERS), "an allowed module that is gone"


PATTERNS = {"fmt.day", "fmt.when"}
"""The date patterns (LDML, not prose): a translator writes them, he does not translate them."""


def _third(directory: Path, lang: str, leave_out: str = "") -> None:
    """A catalog for ``lang`` made of the German one, every text marked ``«lang»`` (its first plural form the
    German singular, the others the German plural), without ``leave_out``."""
    catalog = Catalog(locale=lang, domain=catalogs.DOMAIN)
    for message in GERMAN.catalog:
        key = message.id if isinstance(message.id, str) else message.id[0]
        if not message.id or key == leave_out:
            continue
        if message.pluralizable:
            one, many = _forms(message)
            catalog.add(message.id, tuple(f"«{lang}» {one if i == 0 else many}" for i in range(catalog.num_plurals)))
        else:
            catalog.add(message.id, message.string if key in PATTERNS else f"«{lang}» {message.string}")
    out = directory / lang / "LC_MESSAGES"
    out.mkdir(parents=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog)
    (out / f"{catalogs.DOMAIN}.po").write_bytes(buffer.getvalue())


@pytest.fixture
def extra_dir(tmp_path, monkeypatch):
    monkeypatch.setenv(catalogs.ENV, str(tmp_path))
    yield tmp_path
    monkeypatch.delenv(catalogs.ENV)
    catalogs.reload()


def test_a_third_language_is_only_a_catalog(extra_dir, caplog):
    _third(extra_dir, "fr", leave_out="btn.rules")
    assert catalogs.reload() == ("de", "en", "fr") == catalogs.languages() and supported("fr")
    assert load_settings(lang="fr").lang == "fr", "STAMMTISCH_LANG takes it too"
    assert t("fr", "btn.hand") == "«fr» Meine Karten"
    assert [tn("fr", "web.cards_left", n) for n in (0, 1, 2)] == ["«fr» 0 Karte", "«fr» 1 Karte", "«fr» 2 Karten"], \
        "French counts 0 as one"
    assert figures.decimal("fr", 2.5) == "2,5" and figures.money("fr", 3, "Fr.") == "«fr» 3,00 Fr."
    with caplog.at_level(logging.WARNING):
        assert t("fr", "btn.rules") == t("fr", "btn.rules") == t("de", "btn.rules")
    assert len([r for r in caplog.records if "btn.rules" in r.getMessage()]) == 1, "one warning, then quiet"


def test_a_language_without_number_data_writes_numbers_as_german_does(extra_dir):
    _third(extra_dir, "qps")
    catalogs.reload()
    assert supported("qps") and figures.decimal("qps", -0.66) == "−0,7" and figures.short("qps", 2.5) == "2,5"
    assert figures.day("qps", datetime(2026, 12, 3)) == "3.12." and figures.day("en", datetime(2026, 12, 3)) == "3 Dec"
