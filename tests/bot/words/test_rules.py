"""The short rules (»regeln«) say what each game's rules file says, with what the table's options change."""

from __future__ import annotations

import pytest

import engine
from bot.words.i18n import game_name
from bot.words.rules import rules_text


def test_alter_schafkopf_says_its_own_scoring_not_bauernstoss():
    text = rules_text("alter_schafkopf", {}, "de")
    assert "wie Bauernstoß, bis" not in text
    for rule in ("61 Augen", "kein Strich für den Kreuz-Buben", "Nur die Partei mit der Kreide schreibt",
                 "1 Strich, 2 ab 89 Augen, 4 für alle Stiche", "jeder darf »mit« sagen", "keine Bubenregel",
                 "Kein »Gib mir eine«", "Lechdich", "Wer zuerst 15 Striche hat"):
        assert rule in text, rule
    en = rules_text("alter_schafkopf", {"target": 9}, "en")
    assert "2 from 89 eyes, 4 for every trick" in en and "anyone may say \"mit\"" in en and "9 Striche" in en
    bs = rules_text("bauernstoss", {}, "de")
    assert "2 ab 91 Augen (Schneider), 3 für alle Stiche" in bs and "Strich extra" in bs and "Acht oder höher" in bs


def test_bauerchen_says_what_a_meld_is_in_points_and_follows_its_options():
    text = rules_text("bauerchen", {}, "de")
    assert "20 in einer Farbe bringt 1 Punkt, 40 in Trumpf 2 Punkte" in text and "20 oder 40" not in text
    assert "nach 2 Karten (mit zwei Buben auch »die Letzte«" in text and "bis 12;" in text
    assert text.endswith("Wer zuerst 1 Stein hat, gewinnt die Partie. Die letzte Karte spielt sich von selbst, sobald kein "
                         "Mensch am Tisch mehr spritzen kann.")
    varied = rules_text("bauerchen", {"trump_after_cards": 5, "weiterschreiben": True, "target_steine": 2,
                                      "ledig_in_decider": False, "overtrump_on_trump_lead_only": True}, "en")
    assert "after 5 cards and leads" in varied and "Letzte" not in varied and "goes to 31" in varied
    assert "only when trump was led" in varied and "No Ledig in the decider" in varied
    assert varied.endswith("First to 2 Steine wins the match. Your last card plays itself once no person at the "
                           "table can call Spritzen any more.")


def test_bauer_and_rams_follow_the_tables_options():
    short = rules_text("bauer", {"short_deck": True, "target_brote": 2}, "de")
    assert "20 Karten" in short and "nach 3 Karten" in short and "2 Brote" in short
    rams = rules_text("rams", {"unit": 0.5}, "de", n=5, currency="€")
    assert "Wer zuerst 15 Stiche hat" in rams and "0,50 € mehr" in rams and "weglegen) und spielt dann mit." in rams
    assert rams.endswith("dazu 0,50 € je Kartoffel. Die letzte Karte spielt sich von selbst.")


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("game", engine.game_ids())
def test_every_rules_text_is_whole(game, lang):
    text = rules_text(game, {}, lang)
    assert text.startswith(game_name(game, lang) + ":") and "{" not in text and "}" not in text
