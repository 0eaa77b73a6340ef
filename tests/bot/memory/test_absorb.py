"""Counting the inbox: each entry once, whoever counts and whenever; the history capped, the aggregates not."""

from __future__ import annotations

import asyncio
import json

from bot.memory import Book, absorb, history, ranking, set_recorded, stats, who_of
from bot.memory import scripts
from bot.memory.absorb import HISTORY, _plan
from bot.memory.journal import INBOX
from tests.bot.memory.kit import GROUP, people, played, save_all

G = GROUP.group


async def _matches(store, book, game: str, count: int, seats=None) -> None:
    for i in range(count):
        await save_all(store, book, played(game, seats or people(4), seed=100 + i, table_id=f"M{i}",
                                           start=1_750_000_000.0 + 3600 * i))


async def test_the_figures_add_up_to_what_was_played(store, book):
    steps = played("bauernstoss", people(4), seed=11)
    await save_all(store, book, steps)
    await absorb(book, G)
    final = steps[-1].table
    striche = final.state["match"]["striche"]
    for seat in range(4):
        mine = (await stats(book, G, await who_of(book, G, f"test:u{seat}"), "bauernstoss")).games[0]
        assert mine.matches == 1 and mine.deals == final.deals
        assert mine.figures["striche"] == striche[seat % 2]
        assert mine.won == int(final.state["match"]["winner"] == seat % 2)
        assert len(mine.partners) == 1 and len(mine.opponents) == 2


async def test_two_counting_at_once_count_each_entry_once(store, book):
    await _matches(store, book, "bauer", 3)
    assert sum(await asyncio.gather(*(absorb(book, G) for _ in range(4)))) > 0
    who = await who_of(book, G, "test:u0")
    assert (await stats(book, G, who, "bauer")).games[0].matches == 3
    assert [m.no for m in await history(book, G)] == [3, 2, 1]


async def test_a_death_after_planning_counts_nothing_and_the_next_count_counts_all(store, book, redis):
    await _matches(store, book, "bauerchen", 1)
    inbox = book.key(G, INBOX)
    texts = await redis.lrange(inbox, 0, -1)
    await _plan(book, G, texts)  # planned, then the process died before its commit
    assert await redis.llen(inbox) == len(texts)
    assert await absorb(book, G) == len(texts)
    assert await absorb(book, G) == 0


async def test_a_plan_made_from_entries_another_counted_is_refused(store, book, redis):
    await _matches(store, book, "bauerchen", 1)
    inbox = book.key(G, INBOX)
    texts = await redis.lrange(inbox, 0, -1)
    late = await _plan(book, G, texts)
    await absorb(book, G)
    assert not await redis.eval(scripts.COMMIT, 1, inbox, texts[0], len(texts), book.ttl, book.base(G),
                                *late.plan.args())
    who = await who_of(book, G, "test:u0")
    assert (await stats(book, G, who, "bauerchen")).games[0].matches == 1


async def test_the_history_is_capped_and_the_aggregates_count_on(store, redis, key_prefix):
    small = Book(redis, key_prefix, cap=3)
    await _matches(store, small, "alter_schafkopf", 5)
    await absorb(small, G)
    assert await redis.llen(small.key(G, HISTORY)) == 3
    assert [m.no for m in await history(small, G)] == [5, 4, 3]
    who = await who_of(small, G, "test:u1")
    assert (await stats(small, G, who, "alter_schafkopf")).games[0].matches == 5
    assert (await ranking(small, G, "alter_schafkopf")).people


async def test_a_person_who_opted_out_is_recorded_as_nobody(store, book, redis):
    await set_recorded(book, G, "test:u2", False)
    await _matches(store, book, "bauer", 1)
    await absorb(book, G)
    assert await who_of(book, G, "test:u2") is None
    (match,) = await history(book, G)
    assert match.seats[2].who == "" and match.seats[2].name == ""
    assert "Cleo" not in json.dumps([await redis.hgetall(book.key(G, "nm"))])
    assert match.seats[0].name == "Anna"


async def test_every_key_of_the_memory_expires(store, book, redis, key_prefix):
    await _matches(store, book, "rams", 1, people(5))
    await absorb(book, G)
    keys = [k async for k in redis.scan_iter(match=f"{key_prefix}:{{m:*")] + [
        k async for k in redis.scan_iter(match=f"{key_prefix}:mu:*")]
    assert len(keys) > 10
    ttls = {k: await redis.ttl(k) for k in keys}
    assert all(0 < ttl <= book.ttl for ttl in ttls.values()), ttls


async def test_an_entry_that_cannot_be_read_is_dropped_and_the_others_count(store, book, redis):
    await redis.rpush(book.key(G, "in"), "{not json", '{"kind": "match"}')
    await _matches(store, book, "bauer", 1)
    assert await absorb(book, G) > 2
    assert len(await history(book, G)) == 1 and await redis.llen(book.key(G, "in")) == 0


async def test_a_computer_level_seated_three_times_counts_once_per_match(store, book):
    for i in range(2):
        await save_all(store, book, played("bauer", people(1), seed=40 + i, table_id=f"C{i}",
                                           start=1_750_000_000.0 + 3600 * i))
    mine = (await stats(book, G, await who_of(book, G, "test:u0"), "bauer")).games[0]
    assert [(d.other.who, d.matches) for d in mine.opponents] == [("cpu-leicht", 2)]
    assert [(d.other.who, d.matches) for d in mine.partners] == [("cpu-leicht", 2)]
    cpu = (await stats(book, G, "cpu-leicht", "bauer")).games[0]
    assert cpu.matches == 2
