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

__all__ = ["history", "records", "chunks", "since", "named", "outcome_of", "seat_of", "CHUNK", "MAX_LIMIT", "LATE_S"]

CHUNK = 100
"""Records read per step when going back through the history."""
MAX_LIMIT = 100
"""The most matches :func:`history` gives at once."""
LATE_S = 3600
"""How much later than it finished a match may have been counted (its record placed after younger ones)."""


def seat_of(who: str, people: dict) -> SeatOutcome:
    """A history record's seat ``who`` as the :class:`SeatOutcome` it keeps, its name from ``people`` (who -> Person)."""
    if who.startswith(COMPUTER):
        return SeatOutcome(level=who.removeprefix(COMPUTER), who=who)
    found = people.get(who)
    return SeatOutcome(who=who if found and found.name else "", name=found.name if found else "")


def outcome_of(record: dict[str, Any], people: dict, group: str) -> MatchOutcome:
    """A stored history record as the :class:`MatchOutcome` it keeps, names from ``people`` (who -> Person)."""
    seats = [seat_of(who, people) for who in record["w"]]
    for i in record.get("h", ()):
        seats[i].hinted = True
    return MatchOutcome(kind="match", table=record["t"], chat=group, game=record["g"], at=record["at"], seats=seats,
                        sides=sides_of(record["g"], len(seats)), score=record["sc"], winners=record["win"],
                        no=record["no"], deals=record["d"], started=record.get("st", 0), places=record.get("pl", []),
                        money=record.get("mo", []), currency=record.get("cu", ""))


async def chunks(book: Book, group: str) -> AsyncIterator[list[dict[str, Any]]]:
    """The chat's stored history records, newest first, :data:`CHUNK` at a time (each chunk one read)."""
    key, end = book.key(group, HISTORY), -1
    while True:
        chunk = await book.redis.lrange(key, end - CHUNK + 1, end)
        if chunk:
            yield [json.loads(text) for text in reversed(chunk)]
        if len(chunk) < CHUNK:
            return
        end -= CHUNK


async def records(book: Book, group: str) -> AsyncIterator[dict[str, Any]]:
    """The chat's stored history records, newest first (read in chunks)."""
    async for chunk in chunks(book, group):
        for rec in chunk:
            yield rec


async def since(book: Book, group: str, start: float) -> AsyncIterator[list[dict[str, Any]]]:
    """The records of the matches that finished at or after ``start`` (epoch seconds), newest first, in chunks:
    the history is kept in the order the matches were counted, which is the order they finished but for one
    counted late (on Cluster, after a crash), so the reading stops at a match :data:`LATE_S` older."""
    await absorb(book, group)
    async for chunk in chunks(book, group):
        kept = [rec for rec in chunk if rec["at"] >= start]
        if kept:
            yield kept
        if any(rec["at"] < start - LATE_S for rec in chunk):
            return


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
