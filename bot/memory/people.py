"""Who is who in a chat's memory: a person's number, his name, a computer's identity, lookups by name."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel

from bot.memory.absorb import NAMES, WHO, absorb
from bot.memory.book import Book
from bot.memory.errors import UnknownPerson

__all__ = ["Person", "who_of", "names", "find", "person", "COMPUTER"]

COMPUTER = "cpu-"
"""How a computer player's identity begins (``cpu-leicht``, ``cpu-normal``, ``cpu-stark``)."""


class Person(BaseModel):
    """One identity in a chat's memory: ``who`` (a number, or ``cpu-<level>``) and the name to show.

    ``name`` is the name the person last played under; empty for a computer (its ``level`` names it)
    and for a person forgotten since.
    """

    who: str
    name: str = ""
    level: str = ""

    @property
    def computer(self) -> bool:
        """Whether this is a computer player's identity."""
        return bool(self.level)


def person(who: str, name: str | None) -> Person:
    """The :class:`Person` of ``who`` with its stored ``name``."""
    if who.startswith(COMPUTER):
        return Person(who=who, level=who.removeprefix(COMPUTER))
    return Person(who=who, name=name or "")


async def who_of(book: Book, group: str, user: str) -> str | None:
    """The number of the person with user key ``user`` in the chat, ``None`` if he is not recorded."""
    await absorb(book, group)
    return await book.redis.hget(book.key(group, WHO), user)


async def names(book: Book, group: str, whos: Iterable[str]) -> dict[str, Person]:
    """The :class:`Person` of each of ``whos``."""
    wanted = sorted({w for w in whos if w})
    people = [w for w in wanted if not w.startswith(COMPUTER)]
    stored = dict(zip(people, await book.redis.hmget(book.key(group, NAMES), people))) if people else {}
    return {w: person(w, stored.get(w)) for w in wanted}


async def find(book: Book, group: str, name: str) -> Person:
    """The person recorded in the chat under ``name`` (case and spaces ignored; a unique prefix will do).

    Raises:
        UnknownPerson: nobody, or more than one person, goes by that name here.
    """
    wanted = " ".join(name.split()).casefold()[:64]
    if not wanted:
        raise UnknownPerson(name)
    await absorb(book, group)
    stored = await book.redis.hgetall(book.key(group, NAMES))
    exact = [w for w, n in stored.items() if n.casefold() == wanted]
    close = exact or [w for w, n in stored.items() if n.casefold().startswith(wanted)]
    if len(close) != 1:
        raise UnknownPerson(name)
    return person(close[0], stored[close[0]])
