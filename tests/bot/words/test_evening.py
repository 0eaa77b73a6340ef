"""The chat's past in words: the last matches, a recorded match's score sheet, the evening with Rams' settlement
(into the Kasse, or who pays whom), all within one message."""

from __future__ import annotations

import random

import engine
from bot.memory import KASSE, Evening, MatchOutcome, Person, SeatOutcome, Settlement, Transfer
from bot.memory.evening import Line
from bot.words.evening import export_caption, history_text, sheet_text, tonight_text, when
from bot.words.fit import TEXT_MAX

AT = 1_764_790_440.0
"""2025-12-03 19:34 UTC: 20:34 in Kaiserslautern."""
ZONE = "Europe/Berlin"


def seats(names: list[str]) -> list[SeatOutcome]:
    return [SeatOutcome(level="stark") if n == "cpu" else SeatOutcome(who=str(i + 1), name=n) if n
            else SeatOutcome() for i, n in enumerate(names)]


def bauer(no: int, names: list[str], winner: int = 1) -> MatchOutcome:
    return MatchOutcome(kind="match", table=f"T{no}", chat="telegram:-1", game="bauer", at=AT + no * 60, seats=seats(names),
                        sides=[[0, 2], [1, 3]], score=[0, 1] if winner else [1, 0], winners=[winner], deals=3, no=no)


def rams(no: int, names: list[str], money: list[int]) -> MatchOutcome:
    return MatchOutcome(kind="match", table=f"R{no}", chat="telegram:-1", game="rams", at=AT + no * 60, seats=seats(names),
                        sides=[[s] for s in range(len(names))], score=[21, 12, 9][:len(names)], winners=[0],
                        deals=9, no=no, places=list(range(len(names))), money=money, currency="€")


def test_the_last_matches_read_with_teams_computers_and_the_forgotten():
    text = history_text("de", [bauer(2, ["Anna", "Ben", "Cleo", ""]), bauer(1, ["Anna", "cpu", "Cleo", "Dora"], 0)],
                        ZONE)
    assert text.splitlines() == [
        "📜 Die letzten Partien",
        "2. 3.12. 20:36 · Bauer · Ben+jemand gewinnen 1 : 0 gegen Anna+Cleo",
        "1. 3.12. 20:35 · Bauer · Anna+Cleo gewinnen 1 : 0 gegen Computer 2 (stark)+Dora",
        "Zettel einer Partie: verlauf NR"]
    assert when("en", AT, "UTC") == "3 Dec 19:34"


def test_a_long_history_fits_and_keeps_its_newest():
    names = ["Maximilian-Alexander von Hohenzollern"] * 4
    text = history_text("en", [bauer(no, names) for no in range(100, 0, -1)], ZONE)
    assert len(text) <= TEXT_MAX and text.splitlines()[1].startswith("100. 3 Dec ") and "…" in text.splitlines()
    assert text.splitlines()[-1] == "A match's score sheet: history NO"


def test_a_recorded_match_shows_its_score_sheet():
    rng = random.Random(5)
    state = engine.new_match("rams", rng, 3, {"target": 6})
    sheet = []
    while not engine.match_over(state):
        if engine.is_over(state):
            state = engine.next_deal(state, rng)
            continue
        before = {"tricks": list(engine.view(state, None)["match"]["tricks"]), "ranking": []}
        while not engine.is_over(state):
            state = engine.apply(state, engine.to_act(state), rng.choice(engine.legal_actions(state)))[0]
        match = engine.view(state, None)["match"]
        sheet.append({"result": state.result, "before": before, "after": {"tricks": match["tricks"],
                                                                           "ranking": match.get("ranking", [])}})
    recorded = rams(7, ["Urs", "Vreni", "Walter"], [0, 100, 250]).model_copy(update={"sheet": sheet})
    text = sheet_text("de", recorded, ZONE)
    lines = text.splitlines()
    assert lines[0] == "7. 3.12. 20:41 · Rams · Urs gewinnt · Vreni, Walter" and lines[1] == "📋 Zettel · Rams"
    assert lines[2] == "Urs · Vreni · Walter" and len(lines) == 3 + len(sheet) and len(text) <= TEXT_MAX


def evening(mode: str) -> Evening:
    people = {str(i + 1): Person(who=str(i + 1), name=n) for i, n in enumerate(["Urs", "Vreni", "Walter"])}
    people[KASSE] = Person(who=KASSE)
    matches = [rams(1, ["Urs", "Vreni", "Walter"], [0, 100, 250]), rams(2, ["Urs", "Vreni", "Walter"], [150, 0, 50])]
    if mode == "kasse":
        settled = Settlement(currency="€", mode="kasse", balances={"1": -150, "2": -100, "3": -300, KASSE: 550},
                             transfers=[Transfer(payer=w, payee=KASSE, cents=c) for w, c in (("1", 150), ("2", 100),
                                                                                             ("3", 300))], matches=2)
    else:
        settled = Settlement(currency="€", mode="winner", balances={"1": 200, "2": -100, "3": -100},
                             transfers=[Transfer(payer="3", payee="1", cents=100), Transfer(payer="2", payee="1",
                                                                                             cents=100)], matches=2)
    lines = [Line(person=people["1"], matches=2, won=1, games={"rams": 2}),
             Line(person=people["2"], matches=2, won=1, games={"rams": 2}),
             Line(person=people["3"], matches=2, won=0, games={"rams": 2})]
    return Evening(day="2025-12-03", zone=ZONE, count=len(matches), matches=matches, lines=lines, settlements=[settled],
                   people=people)


def test_the_evening_settles_into_the_kasse_or_between_the_players():
    kasse = tonight_text("de", evening("kasse")).splitlines()
    assert kasse[:4] == ["🌙 Der Abend · 3.12.: 2 Partien", "Urs: 1 von 2 gewonnen", "Vreni: 1 von 2 gewonnen",
                         "Walter: 0 von 2 gewonnen"]
    assert kasse[-5:] == ["Abrechnung Rams (2 Partien):", "Urs zahlt 1,50 € in die Kasse", "Vreni zahlt 1,00 € in die Kasse",
                          "Walter zahlt 3,00 € in die Kasse", "Zusammen in der Kasse: 5,50 €"]
    winner = tonight_text("en", evening("winner")).splitlines()
    assert winner[-3:] == ["Rams settlement (2 matches):", "Walter pays 1.00 € to Urs", "Vreni pays 1.00 € to Urs"]


def test_the_exports_caption():
    assert export_caption("de", "Stammtisch Lautern", 1) == "📎 Der Verlauf von »Stammtisch Lautern«: 1 Partie, als CSV und JSON"
    assert export_caption("en", "", 12) == "📎 The history of this chat: 12 matches, as CSV and JSON"
