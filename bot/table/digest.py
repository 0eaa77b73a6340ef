"""The daily digest's hour: ``benachrichtigung täglich 19:00`` in a person's private chat with the bot.

Instead of a notifying message per turn he gets one message a day at that hour, in that chat's time zone,
listing the tables that await him (:mod:`bot.service.digest`). The choice is his default for every chat
(:mod:`bot.table.notify`, mode ``daily``) and is kept with his settings as ``<HH:MM> <zone> <chat id> <lang>``
(``digest``); his ``digest`` timer (:mod:`bot.store.personal`) comes due at the next such hour.

Decided: it is chosen in the private chat, where it arrives (a group cannot name his private chat on every
platform); an hour inside that chat's quiet hours is refused, naming them, so that it never comes at night.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import NamedTuple
from zoneinfo import ZoneInfo

from bot.ops.clock import quiet_end
from bot.ops.settings import Settings
from bot.protocol.outgoing import ChatRef, UserRef
from bot.store.personal import DIGEST
from bot.store.tables import Store
from bot.table import notify, pace
from bot.table.refused import Refused

__all__ = ["Digest", "hour_of", "next_at", "choose", "of"]

_HOUR = re.compile(r"([0-9]{1,2})(?:[:.h]([0-9]{2}))?(?:uhr|h)?")
_SETTING = "digest"


class Digest(NamedTuple):
    """A person's digest: at ``minute`` after midnight in ``zone``, to his private chat ``chat`` in ``lang``."""

    minute: int
    zone: str
    chat: ChatRef
    lang: str

    @property
    def hhmm(self) -> str:
        """Its hour as ``19:00``."""
        return f"{self.minute // 60:02d}:{self.minute % 60:02d}"


def hour_of(args: tuple[str, ...]) -> int | None:
    """The time of day ``19:00``, ``19``, ``7.30 Uhr`` names, in minutes after midnight; else ``None``."""
    m = _HOUR.fullmatch("".join(args).lower()[:12])
    if m is None:
        return None
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    return hour * 60 + minute if hour < 24 and minute < 60 else None


def next_at(minute: int, zone: str, now: float) -> float:
    """The first moment after ``now`` (epoch seconds) when the clock in ``zone`` shows ``minute`` after midnight."""
    tz = ZoneInfo(zone)
    day = datetime.fromtimestamp(now, tz).date()
    while True:
        at = datetime(day.year, day.month, day.day, minute // 60, minute % 60, tzinfo=tz).timestamp()
        if at > now:
            return at
        day += timedelta(days=1)


async def choose(store: Store, chat: ChatRef, user: UserRef, args: tuple[str, ...], lang: str,
                 settings: Settings, now: float) -> Digest:
    """Choose the daily digest at the hour ``args`` name, from ``user``'s private chat ``chat``; it is set for
    its next hour. Raises :class:`Refused` in a group, for no hour, or for one in the chat's quiet hours."""
    if not chat.private:
        raise Refused("digest_private")
    minute = hour_of(args)
    if minute is None:
        raise Refused("digest_unknown")
    zone = await pace.chat_zone(store, chat.key, settings)
    digest = Digest(minute, zone, chat, lang)
    at = next_at(minute, zone, now)
    quiet, _ = await pace.set_quiet(store, chat, (), settings)
    if quiet_end(at, quiet, zone) is not None:
        start, end = (f"{m // 60:02d}:{m % 60:02d}" for m in quiet)
        raise Refused("digest_quiet", start=start, end=end)
    await store.set_chat_setting(user.key, _SETTING, f"{digest.hhmm} {zone} {chat.chat_id} {lang}")
    await notify.choose(store, chat, user, (notify.DAILY,))
    await store.personal.schedule(DIGEST, user.key, at)
    return digest


async def of(store: Store, user_key: str) -> Digest | None:
    """The digest ``user_key`` chose, while daily is his mode (``None``: he went back, or it expired)."""
    if await store.get_chat_setting(user_key, "notify") != notify.DAILY:
        return None
    words = (await store.get_chat_setting(user_key, _SETTING) or "").split()
    minute = hour_of(words[:1]) if len(words) == 4 else None
    if minute is None:
        return None
    platform, _, user_id = user_key.partition(":")
    return Digest(minute, words[1], ChatRef(platform, words[2], private=True), words[3])
