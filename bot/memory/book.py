"""The chat's memory book: where in Redis a chat's history, statistics and ratings live, and for how long.

Key layout (``st`` is the store's prefix, ``<g>`` a chat's key ``platform:chat id``; every key of a chat
shares the hash tag ``{m:<g>}`` and so one Redis Cluster slot):

================================  ======  ============================================================
``st:{m:<g>}:in``                 list    deals and matches recorded and not yet counted (the inbox)
``st:{m:<g>}:ids``                zset    Cluster only: the last 1,000 inbox entries delivered (dedupe)
``st:{m:<g>}:h``                  list    one compact record per match, the last :attr:`Book.cap`
``st:{m:<g>}:sh``                 list    the score sheets of the last :data:`SHEETS` matches
``st:{m:<g>}:tn``                 list    one compact record per finished tournament, the last 1,000
``st:{m:<g>}:tns``                zset    the ids of the tournaments put into the inbox (once each), the last 1,000
``st:{m:<g>}:meta``               hash    ``season`` (current number), ``s<n>`` (season n's start),
                                          ``matches`` (matches counted), ``people`` (numbers given)
``st:{m:<g>}:who``                hash    user key -> the person's number in this chat
``st:{m:<g>}:nm``                 hash    person's number -> the name last shown
``st:{m:<g>}:out``                set     user keys of people who asked not to be recorded
``st:{m:<g>}:fg:<user key>``      string  his request to be forgotten, waiting 60 s for his confirmation
``st:{m:<g>}:a:<s>:<game>:<w>``   hash    the figures of ``<w>`` (a number, ``cpu-<level>``) in season
                                          ``<s>`` (``0``: all seasons)
``st:{m:<g>}:run:<w>``            hash    the deals of ``<w>``'s running matches, per table (``<table>:<figure>``,
                                          ``<table>:g`` its game, ``<table>:at`` its last deal): moved into
                                          his figures when the match ends, dropped when it is aborted
``st:{m:<g>}:r:<s>:<game>``       hash    ratings in season ``<s>``: ``<w>`` -> ``mu sigma matches``
``st:{m:<g>}:rh:<s>:<game>``      list    the season's rating history (``no w mu sigma``), the last
                                          :data:`RATING_POINTS`
``st:mu:<user key>``              zset    the chats that recorded him (score: last time), the last 100
================================  ======  ============================================================

Every key expires :attr:`Book.ttl` after its last change (a year by default, the setting
``STAMMTISCH_MEMORY_DAYS``); the aggregates outlive the capped history.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

__all__ = ["Book", "SHEETS", "RATING_POINTS", "CHATS_PER_USER", "CAP", "TTL"]

CAP = 10_000
"""How many matches a chat's history keeps by default (the oldest go first; their counts stay)."""
TTL = 365 * 86400
"""Seconds a chat's memory is kept after its last change, by default."""
SHEETS = 20
"""How many of the last matches keep their whole score sheet."""
RATING_POINTS = 20_000
"""How many rating history points a season keeps per game (the oldest go first)."""
CHATS_PER_USER = 100
"""How many chats a person's index of chats keeps (the least recently used go first)."""

_UNSAFE = re.compile(r"[{}%\s]")
_LONGEST = 120


@dataclass(frozen=True)
class Book:
    """Where the chats' memories live: a Redis client (``decode_responses=True``), the key prefix, the cap and TTL.

    Attributes:
        redis: the store's client (:attr:`bot.store.tables.Store.redis`).
        prefix: the store's key prefix.
        cap: matches kept in a chat's history.
        ttl: seconds every key lives after its last change.
    """

    redis: Redis | RedisCluster
    prefix: str = "st"
    cap: int = CAP
    ttl: int = TTL

    def base(self, group: str) -> str:
        """The common start of ``group``'s keys, ``st:{m:<g>}:`` (``ValueError`` for an empty chat key).

        Braces, ``%`` and white space in a chat key are written ``%XX`` (a brace would break the hash tag),
        and a key longer than 120 characters is cut and completed by its digest.
        """
        if not group:
            raise ValueError("empty chat key")
        safe = _UNSAFE.sub(lambda m: f"%{ord(m.group()):02X}", group)
        if len(safe) > _LONGEST:
            safe = safe[:_LONGEST - 17] + "#" + hashlib.sha256(group.encode()).hexdigest()[:16]
        return f"{self.prefix}:{{m:{safe}}}:"

    def key(self, group: str, part: str) -> str:
        """One of ``group``'s keys (``part`` as in the module's table, e.g. ``h`` or ``r:2:bauer``)."""
        return self.base(group) + part

    def user_key(self, user: str) -> str:
        """The person's index of chats that recorded him."""
        return f"{self.prefix}:mu:{user}"
