"""Seasons of a chat: numbered from 1; a new one restarts ratings and rankings, the history stays.

The chat's ``meta`` hash holds ``season`` (the current number, missing: 1) and ``s<n>``, when season
``n`` began (season 1 began with the chat's first record). A deal or match counts in the season in
which it finished, whenever it is counted.
"""

from __future__ import annotations

from pydantic import BaseModel

from bot.memory import scripts
from bot.memory.book import Book
from bot.memory.errors import UnknownSeason

__all__ = ["Season", "season_at", "starts", "seasons", "current", "checked", "new_season", "META"]

META = "meta"
"""The part of the chat's keys of its ``meta`` hash."""


class Season(BaseModel):
    """A season: its number and when it began (epoch seconds; 0 for the first)."""

    no: int
    started: float = 0.0


def starts(meta: dict[str, str]) -> dict[int, float]:
    """Each season's start from the chat's ``meta`` hash, season 1 at 0."""
    current = int(meta.get("season") or 1)
    return {n: float(meta.get(f"s{n}") or 0.0) if n > 1 else 0.0 for n in range(1, current + 1)}


def season_at(begun: dict[int, float], at: float) -> int:
    """The season in which something finished at ``at`` (``begun`` as :func:`starts` gives it)."""
    return max(n for n, start in begun.items() if start <= at or n == 1)


async def seasons(book: Book, group: str) -> list[Season]:
    """The chat's seasons, first first."""
    meta = await book.redis.hgetall(book.key(group, META))
    return [Season(no=n, started=start) for n, start in starts(meta).items()]


async def current(book: Book, group: str) -> Season:
    """The chat's current season."""
    return (await seasons(book, group))[-1]


async def checked(book: Book, group: str, season: int | None) -> int:
    """``season`` if the chat has it (``0``: all seasons together), the current one for ``None``.

    Raises:
        UnknownSeason: there is no such season (yet).
    """
    latest = (await current(book, group)).no
    if season is None:
        return latest
    if not 0 <= season <= latest:
        raise UnknownSeason(str(season))
    return season


async def new_season(book: Book, group: str, now: float) -> Season:
    """Begin the chat's next season at ``now`` (who may do so is the service's to check)."""
    no = await book.redis.eval(scripts.NEW_SEASON, 1, book.key(group, META), repr(now), book.ttl)
    return Season(no=int(no), started=now)
