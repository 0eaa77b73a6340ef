"""Statistics and rankings read back what was played: per person and game, partners and head to head,
ranked after a few matches, computers apart."""

from __future__ import annotations

import pytest

from bot.memory import RANKED_AFTER, UnknownGame, UnknownPerson, history, journal, pairs, ranking, stats, who_of
from bot.table.record import Seat
from tests.bot.memory.kit import GROUP, people, played, save_all

G = GROUP.group


async def test_stats_agree_with_the_history(store, book):
    for i in range(RANKED_AFTER):
        await save_all(store, book, played("bauernstoss", people(4), seed=20 + i, table_id=f"S{i}"))
    matches = await history(book, G)
    for seat in range(4):
        who = await who_of(book, G, f"test:u{seat}")
        mine = (await stats(book, G, who)).games
        assert [g.game for g in mine] == ["bauernstoss"]
        assert mine[0].matches == RANKED_AFTER
        assert mine[0].won == sum(m.won(seat) for m in matches)
        partner = await who_of(book, G, f"test:u{(seat + 2) % 4}")
        assert [(d.other.who, d.matches, d.won) for d in mine[0].partners] == [(partner, RANKED_AFTER, mine[0].won)]
        assert {d.other.who for d in mine[0].opponents} == {await who_of(book, G, f"test:u{(seat + k) % 4}")
                                                           for k in (1, 3)}
        assert 0 < mine[0].share < 1 and mine[0].place is not None


async def test_the_ranking_lists_people_after_a_few_matches_and_computers_apart(store, book):
    seats = people(2) + [Seat(bot=True, level="normal"), Seat(bot=True, level="leicht")]
    for i in range(RANKED_AFTER):
        ranked = await ranking(book, G, "bauer")
        assert not ranked.people and ranked.unranked == (2 if i else 0)
        await save_all(store, book, played("bauer", seats, seed=30 + i, table_id=f"R{i}"))
    ranked = await ranking(book, G, "bauer")
    assert [line.place for line in ranked.people] == [1, 2]
    assert ranked.people[0].rating >= ranked.people[1].rating
    assert {line.person.name for line in ranked.people} == {"Anna", "Ben"}
    assert {line.person.who for line in ranked.computers} == {"cpu-normal", "cpu-leicht"}
    cpu = await stats(book, G, "cpu-normal", "bauer")
    assert cpu.person.computer and cpu.games[0].matches == RANKED_AFTER and cpu.games[0].place is None


async def test_an_unknown_game_is_refused(book):
    with pytest.raises(UnknownGame):
        await ranking(book, G, "skat")
    with pytest.raises(UnknownGame):
        await stats(book, G, "1", "poker")


async def test_a_chat_sees_nothing_of_another(store, book):
    await save_all(store, book, played("bauer", people(4), seed=1))
    other = "test:g2"
    assert await who_of(book, other, "test:u0") is None
    assert not (await ranking(book, other, "bauer")).computers
    assert await history(book, other) == []


async def test_the_pairs_of_partners_best_first(store, book):
    for i in range(3):
        await save_all(store, book, played("bauerchen", people(4), seed=60 + i, table_id=f"Q{i}"))
    found = await pairs(book, G, "bauerchen")
    assert {frozenset((p.first.name, p.second.name)) for p in found} == {frozenset(("Anna", "Cleo")),
                                                                         frozenset(("Ben", "Dora"))}
    assert sum(p.won for p in found) == 3 and all(p.matches == 3 for p in found)
    assert found[0].won >= found[1].won
    assert await pairs(book, G, "rams") == []


async def test_stats_of_nobody_known_here_are_refused(store, book):
    await save_all(store, book, played("bauer", people(4), seed=1))
    with pytest.raises(UnknownPerson):
        await stats(book, G, "99")
    with pytest.raises(UnknownPerson):
        await stats(book, "test:g2", await who_of(book, G, "test:u0"))


async def test_a_running_match_is_counted_apart_until_it_ends(store, book):
    import time

    from bot.words.stats import person_text

    start = time.time() - 3600
    done = played("rams", people(3), seed=3, table_id="F1", start=start)
    await save_all(store, book, done)
    running = played("rams", people(3), seed=4, table_id="F2", start=start)
    await save_all(store, book, running[:3])  # three deals of the next match, which goes on
    who = await who_of(book, G, "test:u0")
    (rams,) = (await stats(book, G, who)).games
    finished_deals = sum(1 for step in done for ev in step.news if ev["type"] == "deal_over")
    kartoffeln = sum(0 in ev["record"]["result"].get("kartoffeln", []) for step in done for ev in step.news
                     if ev["type"] == "deal_over")
    assert (rams.matches, rams.deals, rams.figures["kartoffeln"]) == (1, finished_deals, kartoffeln)
    assert (rams.running, rams.running_deals) == (1, 3)
    text = person_text("de", await stats(book, G, who))
    assert f"1 Partie · {rams.won} gewonnen · {finished_deals} Spiele" in text and "laufende Partie: 3 Spiele" in text

    aborted = running[2].table.model_copy(deep=True)
    aborted.status = "aborted"
    assert await store.save(aborted.id, 4, aborted.dump(), status="finished", user_keys=aborted.user_keys(),
                            chat_key=aborted.chat.key, journal=journal(book, aborted, [], start + 600))
    after = (await stats(book, G, who)).games[0]
    assert (after.deals, after.running) == (finished_deals, 0)  # an aborted match's deals count nowhere
    assert (await stats(book, G, who, season=0)).games[0].deals == finished_deals
