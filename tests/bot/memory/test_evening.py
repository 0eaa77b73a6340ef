"""The evening: today's matches in the chat's time zone, and Rams' settlement that always sums to zero."""

from __future__ import annotations

import json
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.memory import KASSE, absorb, evening, who_of
from bot.memory.evening import SHOWN, day_start
from bot.table.record import Seat
from tests.bot.memory.kit import GROUP, people, played, save_all, write_history

G = GROUP.group
ZONE = "Europe/Zurich"


def at(hour: int, day: int = 31) -> float:
    return datetime(2026, 12, day, hour, 0, tzinfo=ZoneInfo(ZONE)).timestamp()


async def test_todays_rams_matches_settle_to_zero_both_ways(store, book):
    seats = people(4) + [Seat(bot=True, level="leicht")]
    await save_all(store, book, played("rams", seats, seed=1, table_id="Y1", start=at(20, 30)))  # yesterday
    for i in range(3):
        await save_all(store, book, played("rams", seats, seed=10 + i, table_id=f"E{i}", start=at(19 + i)))
    await save_all(store, book, played("bauer", people(4), seed=2, table_id="B1", start=at(18)))
    tonight = await evening(book, G, at(23, 31) + 1800, ZONE)
    assert tonight.day == "2026-12-31"
    assert sorted(m.table for m in tonight.matches) == ["B1", "E0", "E1", "E2"]
    (kasse,) = tonight.settlements
    assert kasse.matches == 3 and sum(kasse.balances.values()) == 0
    paid = sum(m.money[s] for m in tonight.matches if m.game == "rams" for s in range(5))
    assert kasse.balances[KASSE] == paid
    assert all(t.payee == KASSE for t in kasse.transfers)
    assert sum(t.cents for t in kasse.transfers) == paid
    anna = await who_of(book, G, "test:u0")
    assert next(line for line in tonight.lines if line.person.who == anna).matches == 4
    (winner,) = (await evening(book, G, at(23, 31), ZONE, mode="winner")).settlements
    assert sum(winner.balances.values()) == 0 and KASSE not in winner.balances
    left = dict(winner.balances)
    for t in winner.transfers:
        left[t.payer] += t.cents
        left[t.payee] -= t.cents
    assert not any(left.values()) and len(winner.transfers) < len(winner.balances)


async def test_the_day_begins_at_midnight_in_the_zone():
    start, day = day_start(at(0, 31) + 60, ZONE)
    assert day == "2026-12-31" and start == at(0, 31)
    assert day_start(at(0, 31) - 60, ZONE)[1] == "2026-12-30"
    assert day_start(at(0, 31) - 60, "UTC")[1] == "2026-12-30"


async def test_a_computer_level_seated_three_times_plays_one_match_per_match(store, book):
    for i in range(3):
        await save_all(store, book, played("bauer", people(1), seed=50 + i, table_id=f"C{i}", start=at(18 + i)))
    tonight = await evening(book, G, at(23), ZONE)
    assert {line.person.who: line.matches for line in tonight.lines} == {await who_of(book, G, "test:u0"): 3,
                                                                         "cpu-leicht": 3}


async def test_an_evening_of_many_matches_counts_them_all_and_gives_only_the_newest(store, book):
    """300 Rams matches today after 200 of yesterday: all 300 counted, only :data:`SHOWN` made match objects, and
    nothing before the day read (the oldest record, broken, is never reached)."""
    await save_all(store, book, played("rams", people(4), seed=4, table_id="R1", start=at(12, 30)))
    await absorb(book, G)
    (record,) = [json.loads(text) for text in await book.redis.lrange(book.key(G, "h"), 0, -1)]
    await book.redis.delete(book.key(G, "h"))
    now, spacing = at(23, 31), 276
    await write_history(book, G, [record], 500, now, spacing)
    await book.redis.lset(book.key(G, "h"), 0, "{broken")
    today = sum(round(now - 500 * spacing + n * spacing) >= day_start(now, ZONE)[0] for n in range(500))
    assert today == 300
    tonight = await evening(book, G, now, ZONE)
    assert tonight.count == today and len(tonight.matches) == SHOWN
    assert [m.no for m in tonight.matches] == list(range(501 - SHOWN, 501))  # the newest, oldest first
    assert sorted(line.matches for line in tonight.lines) == [today] * 4
    (kasse,) = tonight.settlements
    assert kasse.matches == today and sum(kasse.balances.values()) == 0
    assert kasse.balances[KASSE] == today * sum(record["mo"])


async def test_a_match_counted_late_does_not_end_the_evening_at_a_chunks_edge(store, book):
    """150 of today's matches, one of yesterday counted among them (at the end of the first chunk read): the
    evening reads on past it and counts all 150."""
    await save_all(store, book, played("bauer", people(4), seed=5, table_id="L1", start=at(12, 30)))
    await absorb(book, G)
    (record,) = [json.loads(text) for text in await book.redis.lrange(book.key(G, "h"), 0, -1)]
    await book.redis.delete(book.key(G, "h"))
    await write_history(book, G, [record], 151, at(23, 31), spacing=60)
    late = json.loads(await book.redis.lindex(book.key(G, "h"), 51)) | {"at": at(0, 31) - 120}
    await book.redis.lset(book.key(G, "h"), 51, json.dumps(late))  # the 100th read, newest first
    assert (await evening(book, G, at(23, 31), ZONE)).count == 150
