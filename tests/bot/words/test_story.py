"""The story of a deal: every announcement, offer, trick and result told, with who did it, in the games' words."""

from __future__ import annotations

import pytest

from bot.protocol.outgoing import Notice, TableMessage
from bot.table.record import Seat, Table
from bot.words import story
from tests.servicekit import GROUP, Players, private, say, service, user
from tests.transcript import assert_results_told, assert_told, story_lines

GAMES = ["bauernstoss", "alter_schafkopf", "bauerchen", "bauer", "rams"]


def make_table(game: str, lang: str = "de", n: int = 4) -> Table:
    seats = [Seat(user=f"test:u{i}", name=name) for i, name in enumerate(["Anna", "Ben", "Cleo", "Dora"][:n])]
    return Table(id="T1", chat=GROUP, game=game, n=n, lang=lang, opener="test:u0", seats=seats, status="playing")


# ----------------------------------------------------------------- results in words (the cases)
def test_bauernstoss_first_deal_schneider_and_the_kreuz_bube_strich():
    record = {"result": {"eyes": [96, 24], "tricks": [7, 1], "striche": [3, 0], "chalk": 0},
              "public": {"first_deal": False}, "before": {"striche": [0, 0], "chalk": None, "deal_no": 1}}
    assert story.result_lines(make_table("bauernstoss"), record) == [
        "Augen: Anna+Cleo 96 : 24 Ben+Dora", "Anna+Cleo holen die Kreide: +2 Striche (Schneider)",
        "+1 Strich für Anna+Cleo (Kreuz-Bube im ersten Spiel)"]
    other = {**record, "result": {"eyes": [30, 90], "tricks": [2, 6], "striche": [1, 1], "chalk": 1}}
    assert story.result_lines(make_table("bauernstoss"), other)[1:] == [
        "Ben+Dora holen die Kreide: +1 Strich", "+1 Strich für Anna+Cleo (Kreuz-Bube im ersten Spiel)"]


def test_bauernstoss_the_chalk_team_wins_with_fewer_eyes_and_says_why():
    record = {"result": {"eyes": [44, 76], "tricks": [3, 5], "striche": [1, 0], "chalk": 0},
              "public": {"first_deal": False}, "before": {"striche": [4, 2], "chalk": 0}}
    assert story.result_lines(make_table("bauernstoss"), record)[1] == \
        "Anna+Cleo behalten die Kreide: +1 Strich (mit der Kreide reichen 42)"
    schwarz = {**record, "result": {"eyes": [0, 120], "tricks": [0, 8], "striche": [0, 3], "chalk": 1}}
    assert story.result_lines(make_table("bauernstoss", "en"), schwarz) == [
        "Eyes: Anna+Cleo 0 : 120 Ben+Dora", "Ben+Dora take the chalk: +3 Striche (schwarz: every trick)"]


def test_a_lost_solo_says_so():
    record = {"result": {"eyes": [17, 33], "tricks": [1, 2], "striche": [8, 0], "chalk": 0},
              "public": {"solo": {"seat": 1, "kind": "small"}}, "before": {"chalk": 1}}
    assert story.result_lines(make_table("bauernstoss"), record)[1] == \
        "Ben verliert »Gib mir eine«: 8 Striche für Anna+Cleo"
    lech = {**record, "public": {"solo": {"seat": 0, "kind": "grand"}}, "result": {**record["result"]}}
    assert story.result_lines(make_table("alter_schafkopf"), lech)[1] == \
        "Anna gewinnt den Lechdich: die Partie für Anna+Cleo"


def test_bauerchen_points_explained_base_away_and_spritzen():
    record = {"result": {"eyes": [17, 113], "points": [0, 6], "melds": [0, 1], "round_winner": None},
              "public": {"home": 0, "spritz": 1, "ledig": None}, "before": {"score": [3, 1]}}
    assert story.result_lines(make_table("bauerchen"), record) == [
        "Augen: Anna+Cleo 17 : 113 Ben+Dora", "Ben+Dora gewinnen 6 Punkte: (Schneider 2 + 1 auswärts) × 2 gespritzt",
        "Punkte aus Meldungen: Anna+Cleo 0 : 1 Ben+Dora"]
    home = {**record, "result": {"eyes": [80, 50], "points": [1, 0], "melds": [0, 0], "round_winner": 0},
            "public": {"home": 0, "spritz": 0, "ledig": None}, "before": {"score": [11, 4]}}
    assert story.result_lines(make_table("bauerchen"), home)[1:] == [
        "Anna+Cleo gewinnen 1 Punkt: Schneider frei",
        "Anna+Cleo gewinnen die Runde (Anna+Cleo 12 : 4 Ben+Dora), Knoddel für Ben+Dora"]


def test_a_round_won_by_ledig_reads_as_won_with_12_and_the_last_row_decides_stein_and_match():
    from bot.table.match import round_total
    from engine.bauerchen import BauerchenOptions

    assert round_total(BauerchenOptions(), [6, 5], [0, 0], 0, True) == [12, 5]  # the end's »Runden: 12:5«
    table = make_table("bauerchen")
    ledig = {"result": {"eyes": [50, 0], "points": [0, 0], "melds": [0, 0], "round_winner": 0},
             "public": {"home": 1, "spritz": 0, "ledig": 0}, "alone": 0,
             "before": {"score": [6, 5], "knoddel": [0, 0], "steine": [0, 0]},
             "after": {"score": [0, 0], "knoddel": [0, 1], "steine": [0, 0]}}
    assert story.result_lines(table, ledig)[1:] == [
        "Anna gewinnt ledig", "Anna+Cleo gewinnen die Runde (Anna+Cleo 12 : 5 Ben+Dora), Knoddel für Ben+Dora"]
    last = {"result": {"eyes": [40, 90], "points": [0, 2], "melds": [0, 0], "round_winner": 1},
            "public": {"home": 1, "spritz": 0, "ledig": None},
            "before": {"score": [9, 11], "knoddel": [1, 0], "steine": [0, 0]},
            "after": {"score": [0, 0], "knoddel": [0, 0], "steine": [0, 1], "winner": 1}}
    table.sheet = [ledig, last]
    assert story.sheet_text(table).splitlines()[2:] == [
        "1. +6 : – → 12 : 5 · Ledig: Anna · Runde für Anna+Cleo · neu 0 : 0",
        "2. – : +2 · verfällt – : −1 → 9 : 12 · Runde für Ben+Dora · Stein für Ben+Dora (Steine 0 : 1) · "
        "Partie für Ben+Dora"]


def test_every_spritzen_call_shows_in_order_with_who_made_it():
    table = make_table("bauerchen")
    calls = [{"type": "trump_named", "seat": 2, "suit": "D"}, {"type": "spritz", "seat": 1, "calls": 1},
             {"type": "spritz", "seat": 0, "calls": 2}]
    assert story.calls_line(table, calls) == "Cleo tauft ♦ · Ben spritzt (×2) · Anna sagt Retour (×4)"
    calls += [{"type": "spritz", "seat": 1 + n % 2 * 2, "calls": n} for n in range(3, 7)]
    assert story.calls_line(table, calls) == "Cleo tauft ♦ · Ben spritzt (×2) · … · Dora sagt Retour (×32) · " \
        "Ben sagt Retour (×64)"


def test_bauer_brot_moves_both_ways_against_trump():
    record = {"result": {"tricks": [3, 5], "change": [2, -2], "brot": None},
              "public": {"caller": 0, "stoss": [1], "karten_weg": None}, "before": {"score": [8, 8]}}
    assert story.result_lines(make_table("bauer"), record) == [
        "Stiche: Anna+Cleo 3 : 5 Ben+Dora",
        "Ben+Dora gewinnen gegen den Trumpf: Brot Anna+Cleo +2 → 10, Ben+Dora −2 → 6 (gestoßen ×2)",
        "Anna+Cleo haben getauft und verloren: ihr Brot steigt um 2"]
    alone = {"result": {"tricks": [8, 0], "change": [0, 0], "brot": 0},
             "public": {"caller": 1, "stoss": [], "karten_weg": 2}, "before": {"score": [8, 8]}}
    assert story.result_lines(make_table("bauer"), alone)[1] == "Cleo gewinnt Karten weg: 1 Brot für Anna+Cleo"


def test_events_name_who_made_them():
    table = make_table("bauerchen")
    lines = [story.event_line(table, ev) for ev in [
        {"type": "announced", "seat": 3, "count": 4, "mit": False}, {"type": "announced", "seat": 0, "count": 4,
                                                                     "mit": True},
        {"type": "passed", "seat": 1}, {"type": "spritz", "seat": 1, "calls": 1},
        {"type": "spritz", "seat": 2, "calls": 2}, {"type": "stoss", "seat": 3, "level": 1},
        {"type": "stoss", "seat": 0, "level": 2}, {"type": "decision", "seat": 2, "choice": "pass"},
        {"type": "decision", "seat": 1, "choice": "blind"}, {"type": "karten_weg", "seat": 0},
        {"type": "ledig", "seat": 2}, {"type": "solo", "seat": 1, "kind": "grand"}]]
    assert lines == ["Dora meldet 4", "Anna sagt mit (4)", "Ben sagt weg", "Ben spritzt (×2)",
                     "Cleo sagt Retour (×4)", "Dora stößt (×2)", "Anna stößt zurück (×4)", "Cleo passt",
                     "Ben nimmt den Blinden", "Anna sagt Karten weg und spielt allein", "Cleo spielt ledig",
                     "Ben spielt »Leg dich«"]
    trick = {"type": "trick", "seats": [1, 2, 3, 0], "cards": ["AS", "TS", "KS", "JD"], "winner": 0}
    assert story.trick_line(table, trick) == \
        "Stich: Ben A♠ · Cleo 10♠ · Dora K♠ · Anna B♦ – Anna macht den Stich (27 Augen)"


def test_rams_settlement_says_who_pays_what_and_why_in_the_tables_currency():
    from bot.words.render import summary
    table = make_table("rams")
    match = {"tricks": [21, 18, 12, 9], "kartoffeln": [1, 0, 2, 3], "ranking": [0, 1, 2, 3], "winner": 0,
             "settlement": [0.5, 1.0, 3.0, 4.5]}
    assert summary(table, match)[2:] == [
        "Abrechnung, alles in die Kasse:", "Anna zahlt 0,50 Fr. (1 Kartoffel: 0,50 Fr.)",
        "Ben zahlt 1,00 Fr. (Platz 2: 1,00 Fr.)", "Cleo zahlt 3,00 Fr. (Platz 3: 2,00 Fr. + 2 Kartoffeln: 1,00 Fr.)",
        "Dora zahlt 4,50 Fr. (Platz 4: 3,00 Fr. + 3 Kartoffeln: 1,50 Fr.)", "Zusammen in der Kasse: 9,00 Fr."]
    table.lang, table.currency = "en", "€"
    match["kartoffeln"], match["settlement"] = [0, 0, 2, 3], [0.0, 1.0, 3.0, 4.5]
    assert summary(table, match)[2:4] == ["Settlement, everything into the kitty:", "Anna pays nothing (place 1)"]
    assert summary(table, match)[-1] == "In the kitty: 8.50 €"


def test_bauerchen_names_the_last_tricks_ten_and_why_a_tie_goes_away():
    record = {"result": {"eyes": [65, 65], "points": [0, 2], "melds": [0, 0], "round_winner": None},
              "public": {"home": 0, "spritz": 0, "ledig": None}, "before": {"score": [3, 1]},
              "trick": {"type": "trick", "seats": [0, 1, 2, 3], "cards": ["9H", "AH", "TH", "KH"], "winner": 1},
              "tricks_played": 5}
    assert story.result_lines(make_table("bauerchen"), record)[:3] == [
        "Augen: Anna+Cleo 65 : 65 Ben+Dora (mit 10 für den letzten Stich an Ben+Dora)",
        "Gleichstand: Ben+Dora sind auswärts und gewinnen, die Trumpfpartei braucht 66",
        "Ben+Dora gewinnen 2 Punkte: Schneider frei 1 + 1 auswärts"]


def test_bauer_says_why_the_trump_teams_brot_climbs():
    record = {"result": {"tricks": [4, 4], "change": [1, -1], "brot": None},
              "public": {"caller": 0, "stoss": [], "karten_weg": None}, "before": {"score": [8, 4]}}
    assert story.result_lines(make_table("bauer"), record)[1:] == [
        "Ben+Dora gewinnen gegen den Trumpf: Brot Anna+Cleo +1 → 9, Ben+Dora −1 → 3",
        "Bei Stichgleichheit verliert die Trumpfpartei: das Brot von Anna+Cleo steigt um 1"]


def test_rams_says_who_reached_the_target_and_is_out():
    record = {"result": {"tricks": [2, 1, 1, 1], "kartoffeln": []}, "public": {"choices": ["play"] * 4, "target": 21},
              "before": {"tricks": [19, 5, 6, 7], "ranking": []}, "after": {"tricks": [21, 6, 7, 8], "ranking": [0]}}
    assert story.result_lines(make_table("rams"), record)[-1] == \
        "Anna hat 21 Stiche, das Ziel 21 ist erreicht: Anna ist raus, Platz 1"


def test_every_sheet_row_names_its_changes():
    table = make_table("bauerchen")
    table.sheet = [
        {"result": {"eyes": [17, 113], "points": [0, 6], "melds": [1, 0], "round_winner": None},
         "before": {"score": [1, 0]}, "after": {"score": [1, 6]}},
        {"result": {"eyes": [20, 110], "points": [0, 6], "melds": [0, 0], "round_winner": 1},
         "before": {"score": [1, 9]}, "after": {"score": [0, 0], "knoddel": [1, 0]}}]
    assert story.sheet_text(table).splitlines()[2:] == [
        "1. – : +6 · gemeldet +1 : – → 1 : 6",
        "2. – : +6 · verfällt – : −3 → 1 : 12 · Runde für Ben+Dora · neu 0 : 0"]
    table = make_table("bauernstoss")
    table.sheet = [{"result": {"eyes": [0, 120], "tricks": [0, 8], "striche": [1, 3], "chalk": 1},
                    "before": {"striche": [0, 0], "chalk": None, "deal_no": 1},
                    "after": {"striche": [1, 3], "chalk": 1, "deal_no": 2}}]
    assert story.sheet_text(table).splitlines()[2] == "1. – : +3 · Kreuz-Bube +1 : – → 1 : 3 · Kreide: Ben+Dora"


# ----------------------------------------------------------------- whole matches: nothing left untold
def _told(effects: list) -> tuple[list[str], list[str]]:
    lines, notices = [], []
    for e in effects:
        if isinstance(e, TableMessage):
            lines += e.story
        elif isinstance(e, Notice) and e.result:
            notices.append(e.text)
    return lines, notices


@pytest.mark.parametrize("game", GAMES)
async def test_every_event_trick_and_result_of_a_match_is_told(store, game):
    svc = service(store, seed=11)
    anna = user(0)
    chat = private(anna)
    players = Players(svc, chat, [anna], seed=2)
    await players.send(say(chat, anna, f"neu {game}"))
    await players.play_out()
    lines, notices = _told(players.effects)
    table = Table.load((await store.load(players.table.table_id))[1])
    expected, ended = await story_lines(store, table)
    assert_told(expected, lines)
    assert_results_told(notices, table, ended)
    last = notices[-1].splitlines()
    assert players.table.text.startswith("Letztes Spiel:\n" + last[1])


async def test_score_sheet_of_a_running_partie(store):
    svc = service(store, seed=4)
    anna = user(0)
    chat = private(anna)
    players = Players(svc, chat, [anna], seed=5)
    await players.send(say(chat, anna, "neu bauer"))
    (empty,) = await svc.handle(say(chat, anna, "zettel"))
    assert empty.text == "📋 Zettel · Bauer\nNoch kein Spiel fertig."
    while "Spiel 3 ist aus" not in "".join(_told(players.effects)[1]):
        await players.step()
    (sheet,) = await svc.handle(say(chat, anna, "sheet"))
    rows = sheet.text.splitlines()
    assert rows[0] == "📋 Zettel · Bauer" and rows[1] == "Anna+Computer 3 : Computer 2+Computer 4"
    assert [r[:3] for r in rows[2:5]] == ["1. ", "2. ", "3. "] and all(" → " in r for r in rows[2:5])


def test_a_solo_hand_plays_alone_and_the_partner_sits_out():
    import random

    import engine
    from bot.words.hand import hand_message
    from engine.actions import Action

    rng = random.Random(9)
    state = engine.new_match("bauernstoss", rng, 4)
    while True:  # past the first deal (no solo there), to a deal where the seat to act may play "Leg dich"
        while not engine.is_over(state):
            state, _ = engine.apply(state, state.to_act, rng.choice(engine.legal_actions(state)))
        state = engine.next_deal(state, rng)
        grand = [a for a in engine.legal_actions(state) if a.kind == "solo" and a.size == "grand"]
        if grand:
            break
    soloist = state.to_act
    state, _ = engine.apply(state, soloist, Action("solo", size="grand"))
    table = make_table("bauernstoss")
    lines = hand_message(table, state, soloist, 2).text.splitlines()
    others = [table.seats[s].name for s in ((soloist + 1) % 4, (soloist + 3) % 4)]
    assert f"Du spielst allein gegen {others[0]} und {others[1]}." in lines
    partner = hand_message(table, state, (soloist + 2) % 4, 2).text
    assert "Du setzt dieses Spiel aus." in partner and "spielst mit" not in partner
    opponent = hand_message(table, state, (soloist + 1) % 4, 2).text
    assert f"gegen {table.seats[soloist].name}." in opponent
