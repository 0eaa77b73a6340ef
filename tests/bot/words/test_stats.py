"""Statistics and rankings in words: the games' own figures, numbers as each language writes them, and every
text within one message however many people and however long their names."""

from __future__ import annotations

import pytest

from bot.memory import FIGURES, GAMES, Duo, GameStats, Person, PersonStats, Ranked, Ranking
from bot.memory.privacy import Own
from bot.words.fit import NAME_SHOWN, TEXT_MAX
from bot.words.figures import decimal as number
from bot.words.stats import chart_words, own_text, person_text, ranking_text

LONG = "Maximilian-Alexander von Hohenzollern-Sigmaringen"


def person(i: int, name: str = LONG) -> Person:
    return Person(who=str(i), name=f"{name} {i}")


def game_stats(game: str, others: int = 6) -> GameStats:
    """A game's figures as the memory gives them (partners only in the team games)."""
    return GameStats(game=game, matches=120, won=70, deals=900, deals_won=450, points=5000, points_total=9000,
                     figures={f: 11 for f in FIGURES[game]}, partners=[Duo(other=person(i), matches=9, won=5)
                                                                      for i in range(others if game != "rams" else 0)],
                     opponents=[Duo(other=person(i), matches=9, won=4) for i in range(others)], rating=27.44, place=2)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_person_who_played_every_game_reads_in_the_games_words_within_one_message(lang):
    stats = PersonStats(person=person(1), season=2, games=[game_stats(g) for g in GAMES])
    text = person_text(lang, stats)
    assert len(text) <= TEXT_MAX and text.startswith(f"📊 {LONG[:NAME_SHOWN - 1]}…")
    assert ("Wertung 27,4 · Platz 2 der Rangliste" if lang == "de" else "rating 27.4 · place 2 in the ranking") in text
    if lang == "de":
        for words in ("Striche 11", "Kreide 11", "Spritzen 11", "Ledig 11 (davon 11 gewonnen)", "Knoddel 11",
                      "Steine 11", "Stoß 11", "Karten weg 11 (davon 11 gewonnen)", "Brote 11", "Kartoffeln 11",
                      "Lechdich 11", "120 Partien · 70 gewonnen · 900 Spiele, 450 gewonnen · 56 % der Punkte"):
            assert words in text, words
        assert text.count("Mit: ") == 4 and text.count("Gegen: ") == 5
        assert "gezahlt 0,11 · gewonnen 0,11" in text and "im Schnitt Platz 0,1" in text
    else:  # English writes a percentage without the space German puts before %
        assert "120 matches · 70 won · 900 deals, 450 won · 56% of the points" in text


def test_a_long_ranking_keeps_its_best_and_its_closing_lines():
    ranking = Ranking(game="bauerchen", season=3, people=[Ranked(person=person(i), place=i + 1, rating=40 - i / 3,
                                                                 mu=30, sigma=2, matches=12) for i in range(300)],
                      computers=[Ranked(person=Person(who="cpu-stark", level="stark"), place=1, rating=31.26, mu=35,
                                        sigma=1.25, matches=80)], unranked=17)
    text = ranking_text("de", ranking)
    lines = text.splitlines()
    assert len(text) <= TEXT_MAX and lines[0] == "🏆 Rangliste Bauerchen · Saison 3"
    assert lines[1].startswith("1. ") and lines[1].endswith(" 40,0 (12 Partien)") and "…" in lines
    assert lines[-3:] == ["Noch ohne Platz (unter 3 Partien): 17", "Computer: stark 31,3",
                          "Bild: bild bauerchen · Statistik: statistik NAME"]


def test_an_empty_ranking_says_what_it_takes():
    text = ranking_text("en", Ranking(game="rams", season=1, people=[], computers=[], unranked=2))
    assert text.splitlines()[:2] == ["🏆 Ranking Rams · season 1", "Nobody has played 3 matches of Rams in season 1 yet."]


def test_numbers_and_the_charts_words():
    assert (number("de", -0.66), number("en", -0.66), number("de", 12.04)) == ("−0,7", "−0.7", "12,0")
    words = chart_words("de", "bauer", 0)
    assert {k: v for k, v in words.items() if k != "tick"} == {"title": "Wertung Bauer · alle Saisons",
                                                               "xlabel": "Partie", "ylabel": "Wertung",
                                                               "nobody": "jemand"}
    assert [words["tick"](v) for v in (2.5, -1.0, -1e-17, 12.25, 1e6)] == ["2,5", "−1", "0", "12,25",
                                                                         "1000000"]
    assert chart_words("en", "bauer", 1)["ylabel"] == "Rating" and chart_words("en", "bauer", 1)["tick"](-2.5) == "−2.5"


def test_his_own_figures_name_each_chat_and_fit():
    owns = [Own(chat=f"telegram:-100{i}", title=f"Stammtisch {LONG} {i}", person=person(1), season=0,
                games=[game_stats(g, others=3) for g in GAMES]) for i in range(10)]
    text = own_text("de", "Anna", owns)
    assert len(text) <= TEXT_MAX and text.startswith("📊 Anna an allen Tischen\n»Stammtisch Maximilian-Alexander…«")
    assert own_text("en", "Anna", []) == "You have not finished a match at any table yet, or no table counts you."
