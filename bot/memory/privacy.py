"""A person's say over his memory: forget him in a chat, keep him out of its records, his own figures everywhere.

Forgetting removes his number and name, his figures and ratings in every season and game, what others'
figures keep of him as partner or opponent, his rating history, and his number from the history's
records (his seats there read as nobody's): the history keeps the matches, not him. The lists (up to
100,000 records) are rewritten in pieces, so Redis is never held for the whole history. Opting out keeps him
out of everything recorded from then on (his seats are recorded as nobody's); he can opt in again.
A person's own figures across chats come from the index of the chats that recorded him.

Forgetting cannot be undone, so it waits for his word: :func:`confirmed` notes a first request for
:data:`CONFIRM_S` seconds, and only a second one within that time lets it happen.
"""

from __future__ import annotations

from bot.memory import scripts
from bot.memory.absorb import HISTORY, OPTED_OUT, WHO, absorb, history_key
from bot.memory.book import Book
from bot.memory.outcome import GAMES
from bot.memory.people import who_of
from bot.memory.seasons import current
from bot.memory.stats import PersonStats, stats

__all__ = ["forget", "confirmed", "set_recorded", "is_recorded", "own_figures", "Own", "CONFIRM_S", "ASKED"]

PIECE = 1000
"""List items rewritten per script when a person is forgotten (a few milliseconds of Redis's time each)."""
CONFIRM_S = 60
"""Seconds in which a request to forget someone waits for its confirmation."""
ASKED = "fg"
"""The part of the chat's keys noting a person's request to be forgotten (``fg:<user key>``)."""


async def confirmed(book: Book, group: str, user: str) -> bool:
    """Whether the person already asked to be forgotten in the chat within :data:`CONFIRM_S` seconds (the request
    is then used up); else his request is noted and False returned."""
    key = book.key(group, f"{ASKED}:{user}")
    if await book.redis.delete(key):
        return True
    await book.redis.set(key, "1", ex=CONFIRM_S)
    return False


async def forget(book: Book, group: str, user: str) -> bool:
    """Forget the person with user key ``user`` in the chat; False if he was not recorded there."""
    await absorb(book, group)  # what waits in the inbox is counted first, then forgotten with the rest
    who = await who_of(book, group, user)
    await book.redis.zrem(book.user_key(user), group)
    if who is None:
        return False
    season = (await current(book, group)).no
    await book.redis.eval(scripts.FORGET, 1, book.key(group, WHO), book.base(group), user, who, season, book.ttl,
                          *GAMES)
    for s in range(season + 1):
        for game in GAMES:
            await _rewrite(book, book.key(group, history_key(s, game)), who, "rh")
    await _rewrite(book, book.key(group, HISTORY), who, "h")
    return True


async def _rewrite(book: Book, key: str, who: str, kind: str) -> None:
    """Take ``who`` out of the list ``key`` (kind ``h``: the history, ``rh``: a rating history), :data:`PIECE` items
    per script, so Redis serves everyone else in between; again until a whole pass finds him nowhere (a match
    counted meanwhile may have moved the items under a pass)."""
    while True:
        first, changed, length = 0, 0, 1
        while first < length:
            found, removed, length = await book.redis.eval(scripts.FORGET_PIECE, 1, key, first, PIECE, who, kind)
            changed += found
            first += PIECE - removed
        if not changed:
            return


async def set_recorded(book: Book, group: str, user: str, recorded: bool) -> None:
    """Record the person in the chat from now on (``True``, the default of everybody) or not (``False``)."""
    await absorb(book, group)  # what was played before counts as it was
    key = book.key(group, OPTED_OUT)
    if recorded:
        await book.redis.srem(key, user)
        return
    async with book.redis.pipeline(transaction=False) as pipe:
        pipe.sadd(key, user)
        pipe.expire(key, book.ttl)
        await pipe.execute()


async def is_recorded(book: Book, group: str, user: str) -> bool:
    """Whether the chat records the person (he did not opt out)."""
    return not await book.redis.sismember(book.key(group, OPTED_OUT), user)


class Own(PersonStats):
    """A person's statistics in one chat, all seasons together, with the chat's key and title."""

    chat: str
    title: str = ""


async def own_figures(book: Book, user: str, game: str | None = None) -> list[Own]:
    """The person's statistics in every chat that recorded him (the last used first), for his private chat.

    A chat is in his index once its first match with him was counted (right after the match, by the service).
    """
    out = []
    for group in await book.redis.zrevrange(book.user_key(user), 0, -1):
        who = await who_of(book, group, user)
        if who is None:
            continue
        found = await stats(book, group, who, game, season=0)
        title = await book.redis.hget(book.key(group, "meta"), "title") or ""
        out.append(Own(chat=group, title=title, **found.model_dump()))
    return out
