"""The pace of a table and the quiet hours of a chat.

A table's pace is one of the presets players think in: *schnell* (minutes per move), *normal*
(the bot's configured timers) and *Fernspiel* (a day per move). The reminder and the automatic
move follow from it. Quiet hours are per chat, by default 23:00-07:00 in Europe/Berlin
(``STAMMTISCH_QUIET_HOURS``, ``STAMMTISCH_TIMEZONE``), unless the chat sets others
(``/ruhezeit 22-8``, ``/ruhezeit aus``, ``/zeitzone Europe/Zurich``): during them no reminder
is sent and no timer runs out; a timer due then waits for their end.
"""

from __future__ import annotations

from bot.ops.clock import hhmm, quiet_end, quiet_from_text, zone_from_text
from bot.ops.settings import Settings
from bot.protocol.outgoing import ChatRef
from bot.store.tables import Store
from bot.table.record import Table
from bot.table.refused import Refused

__all__ = ["PACES", "DEFAULT_PACE", "pace_of", "set_pace", "next_pace", "chat_quiet_end", "chat_zone", "set_quiet",
           "set_zone"]

PACES: dict[str, tuple[int, int] | None] = {
    "schnell": (3 * 60, 10 * 60),
    "normal": None,
    "fernspiel": (24 * 3600, 72 * 3600),
}
"""Each preset's (reminder, automatic move) in seconds; ``None``: the bot's configured timers."""
DEFAULT_PACE = "normal"
_PACE_WORDS = {"schnell": ("schnell", "fast", "quick", "blitz"), "normal": ("normal", "standard"),
               "fernspiel": ("fernspiel", "fern", "langsam", "slow", "remote", "correspondence", "daily")}
_PACE = {w: p for p, words in _PACE_WORDS.items() for w in words}


def pace_of(word: str) -> str | None:
    """The preset ``word`` names (``schnell``, ``fast``, ``Fernspiel`` ...), else ``None``."""
    return _PACE.get(word.lower().strip()[:30])


def set_pace(table: Table, pace: str, default_remind: int | None, default_auto: int | None) -> None:
    """Give ``table`` the preset ``pace`` and the timers that follow from it (lobby only)."""
    if table.status != "lobby":
        raise Refused("game_running" if table.status == "playing" else "table_closed")
    timers = PACES[pace]
    table.pace = pace
    table.remind, table.auto = timers if timers is not None else (default_remind, default_auto)


def next_pace(table: Table) -> str:
    """The preset after the table's, for a button that cycles through them."""
    names = list(PACES)
    return names[(names.index(table.pace or DEFAULT_PACE) + 1) % len(names)]


async def _chat_quiet(store: Store, chat_key: str, default: str) -> tuple[int, int] | None:
    return quiet_from_text(await store.get_chat_setting(chat_key, "quiet") or default)


async def _chat_zone(store: Store, chat_key: str, default: str) -> str:
    return await store.get_chat_setting(chat_key, "tz") or default


async def chat_zone(store: Store, chat_key: str, settings: Settings) -> str:
    """The time zone the chat chose with ``zeitzone``, else the bot's (``STAMMTISCH_TIMEZONE``)."""
    return await _chat_zone(store, chat_key, settings.timezone)


async def chat_quiet_end(store: Store, chat_key: str, now: float, settings: Settings) -> float | None:
    """When the chat's quiet hours end if ``now`` lies in them, else ``None``."""
    quiet = await _chat_quiet(store, chat_key, settings.quiet_hours)
    return quiet_end(now, quiet, await _chat_zone(store, chat_key, settings.timezone))


async def set_quiet(store: Store, chat: ChatRef, args: tuple[str, ...],
                    settings: Settings) -> tuple[tuple[int, int] | None, str]:
    """Set the chat's quiet hours from the command's words (none: only show them); the hours and zone in force."""
    if args:
        try:
            quiet = quiet_from_text(" ".join(args))
        except ValueError:
            raise Refused("quiet_unknown") from None
        await store.set_chat_setting(chat.key, "quiet", hhmm(quiet))
    return await _chat_quiet(store, chat.key, settings.quiet_hours), await _chat_zone(store, chat.key, settings.timezone)


async def set_zone(store: Store, chat: ChatRef, args: tuple[str, ...], settings: Settings) -> str:
    """Set the chat's time zone from an IANA name (none: only show it); the zone in force."""
    if args:
        try:
            zone = zone_from_text(" ".join(args))
        except ValueError:
            raise Refused("tz_unknown") from None
        await store.set_chat_setting(chat.key, "tz", zone)
    return await _chat_zone(store, chat.key, settings.timezone)
