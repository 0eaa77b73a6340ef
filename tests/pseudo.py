"""A pseudo language for the tests: the German catalog with every text wrapped in markers and made longer.

:func:`write_catalog` reads the German catalog with Babel and writes, under a directory in the catalogs'
layout, a catalog for :data:`CODE` where every text is ``⟦`` + the German text + padding + ``⟧``: a third
longer, its plural forms kept, and each placeholder kept between ``⟪ ⟫`` (``{name}`` → ``⟪{name}⟫``).
Rendered with it, every word the catalogs own lies inside ``⟦ ⟧``, and what a text was given (a name, a
number, another text with its own markers) inside ``⟪ ⟫``. :func:`fallbacks` finds the words that lie
outside every text, or in what a text was given, that the catalogs should have given: a text left out of
the catalog, a text built outside it, a fallback to another language (given to a text too).

:data:`CODE` is Esperanto's: Babel accepts only the languages CLDR knows (``xx`` or ``qps`` raise
``UnknownLocaleError`` in its plural rules and number formats), and the bot has no Esperanto.
:func:`loaded` gives the bot the pseudo catalog as a further language while a block runs
(``STAMMTISCH_LOCALE_DIR``, :func:`bot.words.catalogs.reload`).
"""

from __future__ import annotations

import math
import os
import re
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from string import Formatter

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from bot.words import catalogs

__all__ = ["CODE", "OPEN", "CLOSE", "PAD", "ARG_OPEN", "ARG_CLOSE", "GERMAN", "catalog_path", "pseudo_text",
           "write_catalog", "loaded", "outside", "fallbacks", "babel_words"]

CODE = "eo"
"""The pseudo language's code: one Babel knows (plural rules, numbers, dates) and the bot does not speak."""
OPEN, CLOSE, PAD = "⟦", "⟧", "~"
"""A catalog text's markers and padding."""
ARG_OPEN, ARG_CLOSE = "⟪", "⟫"
"""The markers of what a text was given for a placeholder."""
_CARD = re.compile(r"(?:10|[2-9AKDBQJ])[♣♠♥♦]")
"""A card label (``B♣``, ``10♥``): the cards' own notation, which no catalog holds."""
_POINTED = re.compile(r"\d+\.\d+")
"""A number written with a decimal point: by hand, not by Babel (:data:`CODE` writes a decimal comma)."""


def catalog_path(directory: Path, lang: str) -> Path:
    """Where the catalog of ``lang`` lies under ``directory`` (the catalogs' layout)."""
    return Path(directory) / lang / "LC_MESSAGES" / f"{catalogs.DOMAIN}.po"


GERMAN = catalog_path(catalogs.LOCALE_DIR, catalogs.DEFAULT)
"""The German catalog, which the pseudo one is made from."""


def pseudo_text(text: str) -> str:
    """``text`` between the markers, a third longer (padding before the closing marker), each placeholder
    between its own markers (braces that stand for themselves stay doubled)."""
    if not text:
        return text
    parts = []
    for literal, field, spec, conversion in Formatter().parse(text):
        parts.append(literal.replace("{", "{{").replace("}", "}}"))
        if field is not None:
            parts.append(f"{ARG_OPEN}{{{field}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}}"
                         f"{ARG_CLOSE}")
    return f"{OPEN}{''.join(parts)}{PAD * math.ceil(len(text) / 3)}{CLOSE}"


def write_catalog(directory: Path, leave_out: frozenset[str] = frozenset(), german: Path = GERMAN) -> Path:
    """Write the pseudo catalog made from the German catalog file ``german`` under ``directory`` (ids in
    ``leave_out`` are left out, to test the check); its path."""
    with open(german, "rb") as f:
        source = read_po(f, locale="de")
    out = Catalog(locale=CODE, domain=catalogs.DOMAIN, project="stammtisch-pseudo", fuzzy=False)
    for message in source:
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        if not message.id or key in leave_out:
            continue
        if isinstance(message.string, tuple):  # plural: each of the pseudo language's forms from a German one
            forms = [pseudo_text(s) for s in message.string]
            string = tuple(forms[min(i, len(forms) - 1)] for i in range(out.num_plurals))
        else:
            string = pseudo_text(message.string)
        out.add(message.id, string, context=message.context, flags=message.flags - {"fuzzy"})
    path = catalog_path(directory, CODE)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        write_po(f, out)
    return path


@contextmanager
def loaded(leave_out: frozenset[str] = frozenset()) -> Iterator[str]:
    """While the block runs the bot reads the pseudo catalog (without the ids in ``leave_out``) as the
    language :data:`CODE` (yielded); afterwards the catalogs as before."""
    before = os.environ.get(catalogs.ENV)
    with tempfile.TemporaryDirectory() as directory:
        write_catalog(Path(directory), leave_out)
        os.environ[catalogs.ENV] = directory
        try:
            assert CODE in catalogs.reload()
            yield CODE
        finally:
            if before is None:
                del os.environ[catalogs.ENV]
            else:
                os.environ[catalogs.ENV] = before
            catalogs.reload()


_MATE = {CLOSE: OPEN, ARG_CLOSE: ARG_OPEN}


def outside(text: str) -> tuple[str, bool]:
    """What of ``text`` no catalog text holds: what lies outside every text, or in what a text was given
    (and not in a text given to it), each text's own words replaced by a space; and whether the markers
    pair up (``False``: one without its mate, or crossed)."""
    out, stack, paired = [], [], True
    for ch in text:
        if ch in (OPEN, ARG_OPEN):
            stack.append(ch)
            out.append(" ")
        elif ch in _MATE:
            paired = paired and bool(stack) and stack[-1] == _MATE[ch]
            if stack:
                stack.pop()
            out.append(" ")
        elif not stack or stack[-1] == ARG_OPEN:
            out.append(ch)
    return "".join(out), paired and not stack


@lru_cache(maxsize=None)
def babel_words(lang: str = CODE) -> frozenset[str]:
    """The words Babel's CLDR data writes for ``lang`` (months, days, eras, currency symbols): the catalog
    does not own them."""
    loc = Locale.parse(lang)
    return frozenset(w for text in _leaves([loc.months, loc.days, loc.eras, loc.periods, loc.currency_symbols])
                     for w in re.findall(r"\w{2,}", text))


def _leaves(data: object) -> list[str]:
    """The strings at the ends of Babel's nested locale data."""
    if isinstance(data, str):
        return [data]
    values = data.values() if isinstance(data, Mapping) else data
    return [leaf for value in values for leaf in _leaves(value)]


def fallbacks(text: str, names: frozenset[str]) -> list[str]:
    """What of ``text`` neither a catalog nor Babel gave: every word with a letter that lies outside every
    catalog text or in what a text was given (:func:`outside`) and is neither one of ``names`` (players,
    chats, what a player typed), nor a card label, nor one of Babel's words (:func:`babel_words`); a number
    there with a decimal point (Babel writes :data:`CODE`'s decimal comma); and a marker without its mate
    (a catalog text cut in two). Other numbers, emoji, punctuation, symbols and separators may stand there."""
    rest, paired = outside(text)
    allowed = names | babel_words()
    found = [w for w in re.findall(r"[^\W\d_]\w*", _CARD.sub(" ", rest)) if w not in allowed]
    found += [f"number {n} not in the language's format" for n in _POINTED.findall(rest)]
    return found + ([] if paired else [f"unbalanced markers in {text[:80]!r}"])
