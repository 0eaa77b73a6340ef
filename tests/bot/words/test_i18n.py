"""Texts in German and English, typed commands in both, card labels and what players type."""

from __future__ import annotations

import random
import re

import pytest

import engine
from bot.table.refused import Refused
from bot.words import catalogs, i18n, textcmd
from bot.words.cards import card_label, parse_card_text, parse_suit_text
from engine.actions import Action
from engine.cards import ALL_CARDS, card, card_str

PLACEHOLDER = re.compile(r"{(\w+)}")


def _forms(lang, key):
    """The text ``key`` in ``lang``'s catalog, every plural form of it joined."""
    message = catalogs.language(lang).catalog.get(key)
    return " ".join(message.string) if isinstance(message.string, tuple) else message.string


@pytest.mark.parametrize("key", sorted(catalogs.language("de").ids))
def test_every_text_in_both_languages_with_the_same_placeholders(key):
    de, en = _forms("de", key), _forms("en", key)
    assert de.strip() and en.strip()
    assert set(PLACEHOLDER.findall(de)) == set(PLACEHOLDER.findall(en))


def test_unknown_language_falls_back_to_german():
    assert i18n.t("fr", "btn.hand") == "Meine Karten" and i18n.t("en", "btn.hand") == "My hand"


def test_every_restriction_the_engine_gives_has_its_own_words():
    rng = random.Random(1)
    seen = set()
    for game in engine.game_ids():
        state = engine.new_match(game, rng, 4)
        for _ in range(3000):
            if engine.is_over(state):
                state = engine.next_deal(state, rng) if not engine.match_over(state) else engine.new_match(game, rng, 4)
            if state.phase == "play":
                seen.add(state.restriction())
            state, _ = engine.apply(state, state.to_act, rng.choice(engine.legal_actions(state)))
    seen.discard("")
    assert {"must_follow", "must_trump", "must_overtrump", "must_lead_trump"} <= seen
    for key in seen | {"not_in_hand"}:
        assert i18n.hint_key(key) != "hint.other", key
    assert i18n.hint("de", "must_trump") == "Du musst stechen."
    assert i18n.hint("de", "jack_rule") == "Bube muss überstochen werden."


def test_the_games_own_words():
    texts = " ".join(catalogs.language("de").texts())
    for word in ("Kreide", "Striche", "Knoddel", "Brot", "Kartoffel", "Stein", "Trumpf", "Stich", "Spritzen",
                 "Stoßen", "Ledig", "Karten weg", "Blinden", "Abrechnung", "Gehampelter", "Augen", "Kehrer"):
        assert word in texts, word


def test_the_rules_texts_say_what_the_rules_say():
    """Bauer's Linke is the other jack of the trump's colour; Alter Schafkopf's duty to beat is on a trump lead;
    Bauerchen's and Bauer's playing alone is named."""
    bauer, bauer_en = (i18n.t(lang, "rules.bauer") for lang in ("de", "en"))
    assert "Bube der gleichen Farbe" not in bauer and "Herz ↔ Karo" in bauer and "Karten weg" in bauer
    assert "the other suit of the same colour" in bauer_en and "Karten weg" in bauer_en
    assert "wird Trumpf ausgespielt, muss man den höchsten Trumpf" in i18n.t("de", "rules.alter_schafkopf")
    assert all("Ledig" in i18n.t(lang, "rules.bauerchen") for lang in ("de", "en"))


def test_card_labels():
    assert card_label("JC") == "B♣" and card_label("JC", "en") == "J♣"
    assert card_label("TH") == "10♥" and card_label("QD") == "D♦" and card_label("QD", "en") == "Q♦"
    for c in ALL_CARDS:
        for lang in ("de", "en"):
            assert parse_card_text(card_label(card_str(c), lang)) == card_str(c)
        assert parse_card_text(card_str(c)) == card_str(c) and parse_card_text(card_str(c).lower()) == card_str(c)


@pytest.mark.parametrize(("text", "card"), [("b♣", "JC"), ("10♥", "TH"), ("dame herz", "QH"), ("As Pik", "AS"),
                                            ("7 ecken", "7D"), ("K♡", "KH"), ("jack of clubs", None), ("xx", None),
                                            ("", None), ("10", None), ("♥", None)])
def test_typed_cards(text, card):
    assert parse_card_text(text) == card


def test_typed_suits():
    assert [parse_suit_text(x) for x in ("♥", "herz", "Hearts", "h", "karo", "schaufel", "x")] == \
        ["H", "H", "H", "H", "D", "S", None]


@pytest.mark.parametrize(("de", "en"), [("neu", "new"), ("mitspielen", "join"), ("aufstehen", "leave"),
                                        ("platz", "seat"), ("computer", "bot"), ("los", "start"), ("tisch", "table"),
                                        ("abbrechen", "abort"), ("revanche", "rematch"), ("regeln", "rules"),
                                        ("hilfe", "help"), ("sprache", "language"), ("/Neu", "/new")])
def test_table_commands_in_both_languages(de, en):
    assert textcmd.parse(de, ()) == textcmd.parse(en, ()) and textcmd.parse(de, ()).kind == "table"


def test_typed_actions():
    legal = [Action("play", card("J", "C")), Action("karten_weg")]
    assert textcmd.action_for("play", ("B♣",), legal) == Action("play", card("J", "C"))
    assert textcmd.action_for("meld", ("K♥",), legal) == Action("play", card("K", "H"), meld=True)
    assert textcmd.action_for("meld", ("♥",), legal) == Action("announce", suit=2)
    assert textcmd.action_for("alone", (), legal) == Action("karten_weg")
    assert textcmd.action_for("alone", (), []) == Action("ledig")
    assert textcmd.action_for("play", (), [Action("play_hand")]) == Action("play_hand")
    assert textcmd.action_for("solo", ("groß",), []) == Action("solo", size="grand")
    assert textcmd.parse("gib", ("mir", "eine")) == textcmd.Parsed("action", "solo_small")
    assert textcmd.parse("karten", ("weg",)) == textcmd.Parsed("action", "alone")
    assert textcmd.parse("Karten", ("Weg",)) == textcmd.Parsed("action", "alone")
    with pytest.raises(Refused) as err:
        textcmd.action_for("play", ("Ober",), legal)
    assert err.value.key == "not_a_card"


def test_the_games_own_words_typed():
    """mit, ledig, karten weg, stoß, zurück, retour: each the action of the game where it is legal."""
    word = {w: textcmd.parse(w.split()[0], tuple(w.split()[1:])) for w in
            ("mit", "ledig", "karten weg", "stoß", "zurück", "retour", "zurückstoßen", "Zurück")}
    assert all(p is not None and p.kind == "action" for p in word.values()), word
    act = lambda w, legal, view=None: textcmd.action_for(word[w].name, word[w].args, legal, view)  # noqa: E731
    assert act("ledig", [Action("ledig")]) == Action("ledig")
    assert act("karten weg", [Action("karten_weg")]) == Action("karten_weg")
    assert act("stoß", [Action("stoss")]) == Action("stoss")
    assert act("zurück", [Action("stoss")]) == act("zurückstoßen", []) == Action("stoss")
    assert act("zurück", [Action("spritz")]) == act("Zurück", [Action("spritz")]) == act("retour", []) == \
        Action("spritz")
    assert act("mit", [Action("play_hand"), Action("pass")]) == Action("play_hand"), "Rams: playing along"
    hand = {"hand": ["JC", "JH", "AH", "TH", "9S", "8S", "KD", "7D"], "public": {"best": 4}}
    bids = [Action("announce", suit=2), Action("announce", suit=1)]  # Herz 4 (a tie), Pik 4 (a tie too)
    with pytest.raises(Refused) as err:
        act("mit", bids, hand)
    assert err.value.key == "which_suit"
    assert act("mit", bids[:1] + [Action("pass")], hand) == Action("announce", suit=2), "the one suit that ties"
    with pytest.raises(Refused) as err:
        act("mit", [Action("announce", suit=2)], {**hand, "public": {"best": 3}})
    assert err.value.key == "mit_needs_count" and "(3)" in i18n.t("de", err.value.key, **err.value.params)



def test_english_tells_the_calls_in_english():
    assert i18n.t("en", "st.spritz", name="Computer 4", times=2) == "Computer 4 doubles (Spritzen, ×2)"
    assert i18n.t("en", "st.retour", name="Computer 4", times=4) == "Computer 4 doubles back (Re, ×4)"
    assert i18n.t("en", "st.mit", name="Anna", count=4) == "Anna says me too (mit, 4)"
    assert i18n.t("en", "bc.spritz", times=4) == "doubled ×4 (Spritzen)"


def test_new_table_arguments():
    assert textcmd.new_args(("Bauernstoß", "4", "target=10")) == ("bauernstoss", 4, {"target": 10})
    assert textcmd.new_args(("schafkopf",)) == ("alter_schafkopf", None, {})
    assert textcmd.new_args(("bauerchen", "die_letzte=aus")) == ("bauerchen", None, {"die_letzte": False})
    assert textcmd.new_args(("rams", '{"sixes":', "true}")) == ("rams", None, {"sixes": True})
    for bad, key in [((), "new_needs_game"), (("skat",), "unknown_game"), (("rams", "x"), "bad_option_syntax"),
                     (("rams", "{x"), "bad_options_json")]:
        with pytest.raises(Refused) as err:
            textcmd.new_args(bad)
        assert err.value.key == key
