"""The gettext catalogs of the texts players see, read with Babel once at start.

One catalog per language, ``locale/<lang>/LC_MESSAGES/stammtisch.po`` beside this module: the
message ids are the keys the code asks for (``game.bauernstoss``, ``tn.usage`` ...), the German
catalog holds the German texts. A directory named by ``STAMMTISCH_LOCALE_DIR`` (same layout) adds
its languages, or replaces a built-in one of the same name. Each ``.po`` is compiled in memory
(:func:`babel.messages.mofile.write_mo`) into :class:`babel.support.Translations`, so plurals follow
the catalog's ``Plural-Forms``. A third language needs only its catalog dropped into either place.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from bot.ops.locales import DEFAULT, DOMAIN, ENV, LOCALE_DIR, found

__all__ = ["DEFAULT", "DOMAIN", "LOCALE_DIR", "ENV", "Language", "languages", "language", "reload"]

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Language:
    """One loaded catalog: its messages (for checks), the compiled translations and its number locale."""

    code: str
    catalog: Catalog
    translations: Translations
    locale: Locale
    ids: frozenset[str]
    """The ids with a text (every plural form filled, not fuzzy)."""
    plurals: frozenset[str]
    """The ids among :attr:`ids` that have plural forms."""

    def texts(self) -> list[str]:
        """Every text of the catalog, each plural form on its own."""
        forms = (m.string if isinstance(m.string, tuple) else (m.string,) for m in self.catalog if _complete(m))
        return [text for form in forms for text in form]


def _complete(message) -> bool:
    forms = message.string if isinstance(message.string, tuple) else (message.string,)
    return bool(message.id) and not message.fuzzy and all(forms)


def _read(code: str, path: Path) -> Language:
    with path.open("rb") as po:
        catalog = read_po(po, locale=code, domain=DOMAIN)
    compiled = BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    messages = [m for m in catalog if _complete(m)]
    return Language(code=code, catalog=catalog, translations=Translations(compiled, domain=DOMAIN),
                    locale=catalog.locale or Locale.parse(DEFAULT), ids=frozenset(_key(m) for m in messages),
                    plurals=frozenset(_key(m) for m in messages if m.pluralizable))


def _key(message) -> str:
    """A message's id (the singular id of a plural message)."""
    return message.id[0] if isinstance(message.id, tuple) else message.id


_loaded: dict[str, Language] = {}


def reload() -> tuple[str, ...]:
    """Read the catalogs again (the built-in ones and ``STAMMTISCH_LOCALE_DIR``'s); the languages found."""
    read = {code: _read(code, path) for code, path in found().items()}
    if DEFAULT not in read:
        raise RuntimeError(f"no {DEFAULT} catalog under {LOCALE_DIR}")
    _loaded.clear()
    _loaded.update(read)
    _log.debug("text catalogs: %s", ", ".join(_loaded))
    return languages()


def languages() -> tuple[str, ...]:
    """The languages there are catalogs for, German first."""
    return tuple(_loaded)


def language(code: str | None) -> Language:
    """The catalog of ``code``; German's for a language without one."""
    return _loaded.get(code or DEFAULT) or _loaded[DEFAULT]


reload()
