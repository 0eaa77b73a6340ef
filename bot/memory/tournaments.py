"""A chat's finished tournaments: each put into the chat's memory once by its id, and listed newest first.

:func:`record_tournament` puts the tournament's :class:`~bot.memory.outcome.TourneyOutcome` into the chat's
inbox unless its id was put before (the ids put are kept in ``st:{m:<g>}:tns``, the last
:data:`~bot.memory.absorb.TOURNEYS_KEPT`), so a tournament recorded again after a crash counts once;
:func:`~bot.memory.absorb.absorb` counts it like a match: the record in ``st:{m:<g>}:tn`` and each
person's tournaments played and won in his figures.
"""

from __future__ import annotations

import json
import time

from pydantic import BaseModel

from bot.memory import scripts
from bot.memory.absorb import TOURNEYS, TOURNEYS_KEPT, absorb
from bot.memory.book import Book
from bot.memory.journal import INBOX, encode
from bot.memory.outcome import TourneyOutcome
from bot.memory.people import Person, names

__all__ = ["record_tournament", "tournaments", "Tournament", "TOURNEY_IDS"]

TOURNEY_IDS = "tns"
"""The part of the chat's zset of the tournaments put into its inbox (score: when)."""


class Tournament(BaseModel):
    """A finished tournament as the chat's memory keeps it: its id, game, end, how many entrants, the first
    places (each entrant's people, a computer partner as a computer)."""

    id: str
    game: str
    at: float
    entrants: int
    top: list[list[Person]]


async def record_tournament(book: Book, group: str, outcome: TourneyOutcome) -> bool:
    """Record a finished tournament in the chat's memory once (false if it was recorded before), and count it."""
    put = await book.redis.eval(scripts.ENQUEUE_ONCE, 2, book.key(group, INBOX), book.key(group, TOURNEY_IDS),
                                outcome.table, encode(outcome), time.time(), TOURNEYS_KEPT, book.ttl)
    await absorb(book, group)
    return bool(put)


async def tournaments(book: Book, group: str, limit: int = 10, game: str | None = None) -> list[Tournament]:
    """The chat's last ``limit`` finished tournaments (of ``game`` only, if given), newest first."""
    await absorb(book, group)
    limit = max(0, min(limit, TOURNEYS_KEPT))
    found = []
    for text in reversed(await book.redis.lrange(book.key(group, TOURNEYS), 0, -1) if limit else []):
        record = json.loads(text)
        if game is None or record["g"] == game:
            found.append(record)
            if len(found) >= limit:
                break
    people = await names(book, group, (who for rec in found for side in rec["top"] for who in side))
    return [Tournament(id=rec["id"], game=rec["g"], at=rec["at"], entrants=rec["n"],
                       top=[[people.get(who) or Person(who="") for who in side] for side in rec["top"]])
            for rec in found]
