"""Finished deals and matches for the memory's tests: real tables played by the computer, saved by the real store.

:func:`played` plays a whole match of a game at a real :class:`~bot.table.record.Table` (people's seats
are played by the computer, as when the timer took them over), one :class:`Step` per command-sized
piece (what the service saves at once), each with its news. :func:`save_all` saves the steps with the
store, each save carrying its journal, as the service does.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from bot.memory import Book, journal
from bot.protocol.outgoing import ChatRef
from bot.store.tables import Store
from bot.table.cpu import play_computers
from bot.table.match import Match
from bot.table.record import Seat, Table

__all__ = ["Step", "played", "save_all", "write_history", "GROUP", "people"]

GROUP = ChatRef("test", "g1", title="Stammtisch Lautern")
NAMES = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz", "Gerd"]


def people(n: int, first: int = 0) -> list[Seat]:
    """``n`` people's seats (user keys ``test:u<i>``, names from :data:`NAMES`), played by the computer."""
    return [Seat(user=f"test:u{i}", name=NAMES[i % len(NAMES)], auto=True) for i in range(first, first + n)]


@dataclass
class Step:
    """One saved piece of a match: the table after it, what it told, and when."""

    table: Table
    news: list[dict]
    at: float


def played(game: str, seats: list[Seat], seed: int = 0, chat: ChatRef = GROUP, table_id: str = "T1",
           start: float = 1_750_000_000.0, options: dict | None = None, currency: str = "Fr.") -> list[Step]:
    """A whole match of ``game`` with ``seats`` (empty places: computer players), one step per deal."""
    rng = random.Random(seed)
    seats = seats + [Seat(bot=True, level="leicht") for _ in range(4 - len(seats))] if game != "rams" else seats
    table = Table(id=table_id, chat=chat, game=game, n=len(seats), opener=seats[0].user or "x", seats=seats,
                  level="leicht", options=options or {}, created=start, currency=currency, declare_wait=None)
    steps, now = [], start
    match = Match(table, rng, now)
    match.start()
    while table.status == "playing":
        now += 60
        match = Match(Table.load(table.dump()), rng, now, match.state)
        table = match.table
        table.declare = None
        play_computers(match)
        match.save()
        steps.append(Step(Table.load(table.dump()), match.news, now))
    return steps


async def save_all(store: Store, book: Book, steps: list[Step], version: int = 1) -> int:
    """Create the table of ``steps`` and save each step with its journal; return the last version."""
    first = steps[0].table
    assert await store.create(first.id, first.chat.key, first.dump(), first.user_keys())
    for step in steps:
        saved = await store.save(step.table.id, version, step.table.dump(), status="open" if step.table.open
                                 else "finished", user_keys=step.table.user_keys(), chat_key=step.table.chat.key,
                                 journal=journal(book, step.table, step.news, step.at))
        assert saved
        version += 1
    return version


async def write_history(book: Book, group: str, records: list[dict], matches: int, now: float,
                        spacing: float = 600) -> None:
    """``matches`` matches in the chat's history as the memory keeps them (its records in the order they finished,
    the count in its meta), written in pipelined pieces: copies of ``records`` (real ones), ``spacing`` seconds
    apart up to ``now``."""
    key, start = book.key(group, "h"), now - matches * spacing
    for first in range(0, matches, 5000):
        texts = [json.dumps(records[n % len(records)] | {"no": n + 1, "t": f"H{n}", "at": round(start + n * spacing)},
                            separators=(",", ":")) for n in range(first, min(matches, first + 5000))]
        async with book.redis.pipeline(transaction=False) as pipe:
            pipe.rpush(key, *texts)
            pipe.expire(key, book.ttl)
            await pipe.execute()
    await book.redis.hset(book.key(group, "meta"), "matches", str(matches))
