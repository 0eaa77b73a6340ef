"""Where the texts' gettext catalogs are: the bot's own and those of ``STAMMTISCH_LOCALE_DIR``, by language.

Only the files: :mod:`bot.words.catalogs` reads them with Babel, the settings check ``STAMMTISCH_LANG``
against the languages found here. A catalog is ``<dir>/<lang>/LC_MESSAGES/stammtisch.po``.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["DEFAULT", "DOMAIN", "ENV", "LOCALE_DIR", "found"]

DEFAULT = "de"
"""The language every chat starts in, and the one a missing text falls back to."""
DOMAIN = "stammtisch"
"""The catalogs' file name (without ``.po``)."""
LOCALE_DIR = Path(__file__).resolve().parents[1] / "words" / "locale"
"""The catalogs that ship with the bot."""
ENV = "STAMMTISCH_LOCALE_DIR"
"""The environment variable naming a directory of further catalogs."""


def _in(directory: Path) -> dict[str, Path]:
    if not directory.is_dir():
        return {}
    return {po.parent.parent.name: po for po in sorted(directory.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))}


def found() -> dict[str, Path]:
    """Each language's catalog, German first: the bot's own and ``STAMMTISCH_LOCALE_DIR``'s, which replaces
    the bot's own catalog of the same language."""
    paths = _in(LOCALE_DIR)
    extra = os.environ.get(ENV, "")
    if extra:
        paths.update(_in(Path(extra)))
    return dict(sorted(paths.items(), key=lambda item: (item[0] != DEFAULT, item[0])))
