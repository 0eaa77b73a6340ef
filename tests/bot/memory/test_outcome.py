"""The outcome of finished deals and matches, checked against the tables the engine played."""

from __future__ import annotations

from bot.memory.outcome import deal_outcome, match_outcome, outcomes
from bot.table.record import Seat
from tests.bot.memory.kit import people, played


def _deals(steps):
    return [d for s in steps for d in outcomes(s.table, s.news, s.at) if d.kind == "deal"]


def test_bauernstoss_striche_and_solos_add_up_to_the_match():
    for seed in range(4):
        steps = played("bauernstoss", people(4), seed=seed)
        deals, final = _deals(steps), match_outcome(steps[-1].table, steps[-1].at)
        assert [sum(d.score[t] for d in deals) for t in (0, 1)] == final.score
        assert sum(d.seats[0].figures.get("striche", 0) for d in deals) == final.score[0]
        assert all(len(d.winners) == 1 for d in deals)
        assert final.winners == [steps[-1].table.state["match"]["winner"]]
        for d in deals:
            for seat in d.seats:
                assert seat.figures.get("solo_won", 0) <= seat.figures.get("solo", 0)


def test_a_thrown_in_deal_is_not_an_outcome():
    news = {"type": "deal_over", "record": {"result": {"thrown_in": True}}, "no": 1}
    assert deal_outcome(played("bauernstoss", people(4), seed=0)[0].table, news, 0.0) is None


def test_bauerchen_steine_and_knoddel_follow_the_rounds():
    steps = played("bauerchen", people(4), seed=7)
    deals, final = _deals(steps), match_outcome(steps[-1].table, steps[-1].at)
    assert [sum(d.seats[t].figures.get("steine", 0) for d in deals) for t in (0, 1)] == final.score
    rounds = [d for d in deals if d.seats[0].figures.get("knoddel") or d.seats[1].figures.get("knoddel")]
    assert len(rounds) == len(steps[-1].table.marks)


def test_bauer_brote_count_to_the_match():
    steps = played("bauer", people(4), seed=3)
    deals, final = _deals(steps), match_outcome(steps[-1].table, steps[-1].at)
    assert [sum(d.seats[t].figures.get("brote", 0) for d in deals) for t in (0, 1)] == final.score
    assert sum(d.seats[0].figures.get("stoss", 0) + d.seats[2].figures.get("stoss", 0) for d in deals) >= 0


def test_rams_places_money_and_kartoffeln():
    seats = people(3) + [Seat(bot=True, level="normal"), Seat(bot=True, level="leicht")]
    steps = played("rams", seats, seed=5, options={"unit": 1.0, "kartoffel_fee": 0.5}, currency="€")
    deals, final = _deals(steps), match_outcome(steps[-1].table, steps[-1].at)
    match = steps[-1].table.state["match"]
    assert final.places == match["ranking"] and final.currency == "€"
    assert final.money == [round(x * 100) for x in match["settlement"]]
    assert [sum(d.seats[s].figures.get("kartoffeln", 0) for d in deals) for s in range(5)] == match["kartoffeln"]
    assert [sum(d.seats[s].figures.get("tricks", 0) for d in deals) for s in range(5)] == match["tricks"]
    winner = final.places[0]
    assert final.seats[winner].figures["place"] == 1 and final.seats[winner].figures["won_money"] == (
        sum(final.money) - final.money[winner])
    assert [s.level for s in final.seats[3:]] == ["normal", "leicht"]
    assert [s.name for s in final.seats[:3]] == ["Anna", "Ben", "Cleo"]


def test_the_match_keeps_its_score_sheet():
    steps = played("alter_schafkopf", people(4), seed=2)
    final = match_outcome(steps[-1].table, steps[-1].at)
    assert len(final.sheet) == len(steps[-1].table.sheet)
    assert all(set(row) <= {"result", "before", "after", "alone"} for row in final.sheet)
