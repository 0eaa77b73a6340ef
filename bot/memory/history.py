"""A chat's history: its last matches, newest first, as :class:`~bot.memory.outcome.MatchOutcome` with names.

The history keeps one compact record per match (the last :attr:`~bot.memory.book.Book.cap`), and the
whole score sheet of the last :data:`~bot.memory.book.SHEETS` matches.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from bot.memory.absorb import HISTORY, SHEET_LIST, absorb
from bot.memory.book import Book
from bot.memory.outcome import MatchOutcome, SeatOutcome, sides_of
from bot.memory.people import COMPUTER, names

__all__ = ["history", "records", "named", "matches_since", "outcome_of", "CHUNK", "MAX_LIMIT"]

CHUNK = 100
"""Records read per step when going back through the history."""
MAX_LIMIT = 100
"""The most matches :func:`history` gives at once."""


def outcome_of(record: dict[str, Any], people: dict, group: str) -> MatchOutcome:
    """A stored history record as the :class:`MatchOutcome` it keeps, names from ``people`` (who -> Person)."""
    seats = []
    for who in record["w"]:
        found = people.get(who)
        if who.startswith(COMPUTER):
            seats.append(SeatOutcome(level=who.removeprefix(COMPUTER), who=who))
        else:
            seats.append(SeatOutcome(who=who if found and found.name else "", name=found.name if found else ""))
    return MatchOutcome(kind="match", table=record["t"], chat=group, game=record["g"], at=record["at"], seats=seats,
                        sides=sides_of(record["g"], len(seats)), score=record["sc"], winners=record["win"],
                        no=record["no"], deals=record["d"], started=record.get("st", 0), places=record.get("pl", []),
                        money=record.get("mo", []), currency=record.get("cu", ""))


async def records(book: Book, group: str) -> AsyncIterator[dict[str, Any]]:
    """The chat's stored history records, newest first (read in chunks)."""
    key, end = book.key(group, HISTORY), -1
    while True:
        chunk = await book.redis.lrange(key, end - CHUNK + 1, end)
        for text in reversed(chunk):
            yield json.loads(text)
        if len(chunk) < CHUNK:
            return
        end -= CHUNK


async def named(book: Book, group: str, found: list[dict[str, Any]]) -> list[MatchOutcome]:
    """The records as outcomes with the names of their people."""
    people = await names(book, group, (w for rec in found for w in rec["w"]))
    return [outcome_of(rec, people, group) for rec in found]


async def history(book: Book, group: str, limit: int = 10, game: str | None = None,
                  sheets: bool = False) -> list[MatchOutcome]:
    """The chat's last ``limit`` matches (at most :data:`MAX_LIMIT`; of ``game`` only, if given), newest first.

    ``sheets``: with the score sheets of those among the last :data:`~bot.memory.book.SHEETS` matches.
    """
    await absorb(book, group)
    limit = max(0, min(limit, MAX_LIMIT))
    found: list[dict[str, Any]] = []
    if limit:
        async for rec in records(book, group):
            if game is None or rec["g"] == game:
                found.append(rec)
                if len(found) >= limit:
                    break
    out = await named(book, group, found)
    if sheets and out:
        kept = {}
        for text in await book.redis.lrange(book.key(group, SHEET_LIST), 0, -1):
            item = json.loads(text)
            kept[item["no"]] = item["sheet"]
        for match in out:
            match.sheet = kept.get(match.no, [])
    return out


async def matches_since(book: Book, group: str, since: float) -> list[MatchOutcome]:
    """The chat's matches that finished at or after ``since`` (epoch seconds), oldest first."""
    await absorb(book, group)
    found: list[dict[str, Any]] = []
    async for rec in records(book, group):
        if rec["at"] < since:
            break
        found.append(rec)
    return await named(book, group, found[::-1])
