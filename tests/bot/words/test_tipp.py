"""A hint in words: the choice by its label, why (the trick or the deal over the sampled deals), the next best's
cost in the game's unit; in German and English."""

from __future__ import annotations

from bot.words.tipp import stake_clause, tipp_text
from engine.actions import Action
from engine.cards import parse_card
from engine.players.opinion import ActionStats, Opinion

AH, TS = Action("play", parse_card("AH")), Action("play", parse_card("TS"))
VIEW = {"public": {}, "hand": ["AH", "TS"]}


def _stats(action, worth, trick=0.0, won=0.0) -> ActionStats:
    return ActionStats(action, worth, trick, won, 0.0, 24, ())


def test_a_card_that_takes_the_trick_and_what_the_next_best_costs():
    seen = Opinion(AH, (_stats(AH, 1.2, trick=19 / 24), _stats(TS, 0.8)), 24)
    assert tipp_text("de", "bauernstoss", VIEW, seen) == \
        "💡 A♥ – macht den Stich in 19 von 24 möglichen Verteilungen; 10♠ kostet im Schnitt 0,4 Striche"
    assert tipp_text("en", "rams", VIEW, seen) == \
        "💡 A♥ – takes the trick in 19 of 24 possible deals; 10♠ costs 0.4 tricks on average"
    one = Opinion(AH, (_stats(AH, 2.0, trick=1.0), _stats(TS, 1.0)), 24)
    assert tipp_text("de", "bauerchen", VIEW, one).endswith("; 10♠ kostet im Schnitt 1 Punkt")


def test_a_card_that_gives_the_trick_away_is_told_by_the_deal_and_an_equal_one_as_good():
    seen = Opinion(TS, (_stats(AH, 0.5, trick=1.0, won=0.5), _stats(TS, 0.52, won=15 / 24)), 24)
    assert tipp_text("de", "bauer", VIEW, seen) == \
        "💡 10♠ – gewinnt das Spiel in 15 von 24 möglichen Verteilungen; A♥ ist genauso gut"


def test_a_stake_let_pass_a_stake_taken_and_nothing_to_weigh():
    spritz = Action("spritz")
    passed = Opinion(None, (_stats(None, 0.5, won=0.5), _stats(spritz, 0.1, won=9 / 24)), 24)
    assert tipp_text("de", "bauerchen", VIEW, passed) == \
        "💡 Lieber kein »Spritzen« – gewinnt nur in 9 von 24 Verteilungen"
    taken = Opinion(spritz, (_stats(None, 0.2, won=0.5), _stats(spritz, 1.5, won=15 / 24)), 24)
    assert tipp_text("de", "bauerchen", VIEW, taken).startswith(
        "💡 Spritzen – gewinnt das Spiel in 15 von 24 möglichen Verteilungen; Verzichten kostet im Schnitt 1,3 Punkte")
    assert tipp_text("en", "bauer", VIEW, Opinion(AH, (_stats(AH, 0.0),), 0)) == "💡 A♥ – nothing to weigh here"
    assert stake_clause("de", {"k": 17, "n": 24}) == "gewinnt in 17 von 24 Verteilungen"
    assert stake_clause("en", {"kind": "ledig", "k": 1, "n": 1}) == "wins only in 1 of 1 deal"
