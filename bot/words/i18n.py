"""Every text players see, looked up in the language's gettext catalog (:mod:`bot.words.catalogs`).

``t(lang, key, **params)`` formats one text, ``tn(lang, key, n, **params)`` one with plural forms
(the catalog's ``Plural-Forms`` pick the form for ``n``); a :class:`Text` param is itself
translated, and the user's own words repeated in a text (a typed verb, a name) are cut to
``ECHO_MAX`` characters, so every message fits the platforms' limits (Telegram 4096 per message
and 200 per button answer, Discord 2000). A language without a catalog reads German; a text
missing from a language's catalog reads German too, with one warning in the log. The German
texts use the words players of these games use (Kreide, Striche, Knoddel, Brot, Kartoffel, Stein,
Trumpf, Stich ...); the English ones translate them and keep the German name where players would
(``rules/glossary.md``).
"""

from __future__ import annotations

import logging

from bot.table.refused import Text, clip
from bot.words.catalogs import DEFAULT, language, languages

__all__ = ["DEFAULT", "languages", "t", "tn", "has", "supported", "game_name", "hint", "hint_key",
           "option_label"]

_ECHOED = frozenset({"verb", "word", "item", "text", "name", "chat"})
"""The params that carry what a user typed or is called: cut to ``ECHO_MAX``."""
_HINTS = {"must_follow", "must_trump", "must_overtrump", "must_lead_trump", "trump_ace_first", "jack_rule",
          "not_in_hand", "not_now", "must_announce", "count_too_low", "no_mit"}

_log = logging.getLogger(__name__)
_warned: set[tuple[str, str]] = set()


def supported(lang: str | None) -> bool:
    """Whether ``lang`` is a language there is a catalog for."""
    return lang in languages()


def has(key: str) -> bool:
    """Whether the German catalog has the text ``key``."""
    return key in language(DEFAULT).ids


def _missing(lang: str, key: str) -> None:
    if (lang, key) not in _warned:
        _warned.add((lang, key))
        _log.warning("the %s catalog has no text %r: it reads German", lang, key)


def _lookup(lang: str, key: str, n: int | None) -> str:
    """The text ``key`` (its form for ``n`` if given) in ``lang``, else German, else the key itself."""
    for catalog in (language(lang), language(DEFAULT)):
        if n is None and key in catalog.ids and key not in catalog.plurals:
            return catalog.translations.gettext(key)
        if n is not None and key in catalog.plurals:
            return catalog.translations.ngettext(key, key, n)
        _missing(catalog.code, key)
    return key


def _param(lang: str, name: str, value: object) -> object:
    if isinstance(value, str):
        return clip(value) if name in _ECHOED else value
    if isinstance(value, Text):
        return t(lang, value.key, **value.params)
    return value


def _filled(lang: str, text: str, params: dict[str, object]) -> str:
    return text.format_map({k: _param(lang, k, v) for k, v in params.items()}) if params else text


def t(lang: str, key: str, **params: object) -> str:
    """The text ``key`` in ``lang`` (German if unknown), formatted with ``params``."""
    return _filled(lang, _lookup(lang, key, None), params)


def tn(lang: str, key: str, n: int, **params: object) -> str:
    """The plural text ``key`` in ``lang`` in its form for ``n``, formatted with ``n`` and ``params``."""
    return _filled(lang, _lookup(lang, key, n), {"n": n, **params})


def option_label(lang: str, name: str) -> str:
    """An option's name in the players' language (``sixes`` → ``Sechser``); the key itself if it has none."""
    key = f"opt.{name}"
    return t(lang, key) if has(key) else name


def game_name(game: str, lang: str) -> str:
    """The name of game ``game`` as its players say it."""
    return t(lang, f"game.{game}")


def hint_key(key: str) -> str:
    """The text key explaining an engine restriction hint (``must_follow`` ...)."""
    return f"hint.{key}" if key in _HINTS else "hint.other"


def hint(lang: str, key: str) -> str:
    """The explanation of an engine restriction hint (``must_follow`` ...)."""
    return t(lang, hint_key(key))
