"""The pseudo language (:mod:`tests.pseudo`): its catalog keeps every id, placeholder and plural form; its
check finds a text the catalog lacks; every game's messages at the longest names come from the catalogs and
fit the platforms in it (the fakes' end-to-end test: ``tests/e2e/test_pseudo_language.py``)."""

from __future__ import annotations

import random
import string
from itertools import islice

import pytest
from babel.messages.pofile import read_po

import engine
from bot.words import GAME_WORDS
from tests.pseudo import ARG_CLOSE, ARG_OPEN, CLOSE, CODE, GERMAN, OPEN, fallbacks, loaded, write_catalog
from tests.renderkit import NAMES, fixed_messages, match_messages, over_limit, sizes

NAME = NAMES["emoji"]
"""The longest names (64 emoji: no letter in them, so no word of theirs is taken for a fallback)."""
OWN = frozenset("T" * n for n in range(1, 129)) | {"Fr"} | frozenset(GAME_WORDS)
"""The words no catalog owns here: the chat's title (128 ``T``, cut where it is shown), the table's currency
(``Fr.``, a setting of the group) and the games' words a player types (the help lists them)."""
SHOWN = 600
"""The messages of a match checked (a table message, a hand for each seat and the sheet after each move)."""


def _read(path):
    with open(path, "rb") as f:
        return {m.id[0] if isinstance(m.id, tuple) else m.id: m for m in read_po(f) if m.id}


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_the_pseudo_catalog_keeps_every_id_placeholder_and_plural_form(tmp_path):
    german, pseudo = _read(GERMAN), _read(write_catalog(tmp_path))
    assert pseudo.keys() == german.keys()
    plurals = {key for key, m in german.items() if isinstance(m.string, tuple)}
    assert plurals and plurals == {key for key, m in pseudo.items() if isinstance(m.string, tuple)}
    for key, message in pseudo.items():
        forms = message.string if key in plurals else (message.string,)
        sources = german[key].string if key in plurals else (german[key].string,)
        assert len(forms) == len(sources), key  # German and Esperanto: one and other
        for form, text in zip(forms, sources):
            assert form.replace(ARG_OPEN, "").replace(ARG_CLOSE, "").startswith(OPEN + text), key
            assert form.endswith(CLOSE), key
            assert len(form) - 2 >= len(text) * 4 / 3 and _fields(form) == _fields(text), key


def test_the_check_reads_nested_texts_names_cards_numbers_and_cut_markers():
    names = frozenset({"Anna"})
    assert fallbacks("🃏 Anna: ⟦spielt ⟪B♣⟫ mit ⟪⟦Herz~~⟧⟫~~~~⟧ 10♥ · 3 : 2 ×2", names) == []
    assert fallbacks("⟦Stich~~⟧ an Anna", names) == ["an"]
    assert fallbacks("⟦Tisch von ⟪Rams⟫~~~⟧", names) == ["Rams"]
    assert fallbacks("⟦Wertung ⟪2,4⟫ am ⟪⟦3.12.~~⟧⟫~~~~⟧", names) == []
    assert fallbacks("⟦Wertung ⟪2.4⟫~~~~~⟧", names) == ["number 2.4 not in the language's format"]
    assert fallbacks("⟦Stich an Ann…", names) == ["unbalanced markers in '⟦Stich an Ann…'"]
    assert fallbacks("⟦Stich ⟪Anna⟧⟫", names) == ["unbalanced markers in '⟦Stich ⟪Anna⟧⟫'"]


def _shown(game: str, lang: str) -> list[tuple[str, str]]:
    """The first :data:`SHOWN` messages of a match of ``game`` at its most players, at the longest names."""
    return list(islice(match_messages(game, max(sizes(game)), lang, NAME, random.Random(game)), SHOWN))


def test_a_text_missing_from_the_catalog_is_found():
    with loaded(leave_out=frozenset({"game.rams"})) as lang:
        lacking = _shown("rams", lang)
    found = {word for _, text in lacking for word in fallbacks(text, OWN)}
    assert found == {"Rams"}, found


@pytest.mark.parametrize("game", engine.game_ids())
def test_every_message_of_a_match_at_the_longest_names_fits_in_the_pseudo_language(game):
    with loaded() as lang:
        shown = _shown(game, lang) + (list(fixed_messages(lang)) if game == "rams" else [])
    assert lang == CODE and len(shown) > SHOWN / 2
    assert [(kind, over_limit(kind, text)) for kind, text in shown if over_limit(kind, text)] == []
    assert {text: bad for _, text in shown if (bad := fallbacks(text, OWN))} == {}
