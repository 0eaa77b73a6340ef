"""Turn notifications that fit the pace: who gets a notifying hand message, and who wants one.

A platform sends no notification for an edited message, so in slow play the player whose turn
it is would learn of it only from the reminder, hours later. The rule: when a change passes the
turn to a person who has not acted at this table for :data:`IDLE_AFTER` seconds, his hand is
marked :attr:`~bot.outgoing.HandMessage.notify` (posted anew, notifying), once per turn; in
fast play (everyone acting within that time) hands are edited silently.

Each player chooses per chat (``/benachrichtigung`` / ``/notify``): every turn (the default),
only reminders, or nothing. A choice made in his private chat with the bot is his default for
every chat where he made none.
"""

from __future__ import annotations

from dataclasses import replace

from .outgoing import ChatRef, HandMessage, Outgoing, UserRef
from .store import Store
from .table import Refused, Table

__all__ = ["IDLE_AFTER", "MODES", "EVERY", "REMINDERS", "OFF", "mode_of", "notify_turn", "wanted", "choose",
           "current"]

IDLE_AFTER = 120.0
"""A player who has not acted at the table for this many seconds is playing slowly: notify him."""

EVERY, REMINDERS, OFF = "every", "reminders", "off"
MODES = (EVERY, REMINDERS, OFF)
_WORDS = {
    EVERY: ("jeder", "jederzug", "immer", "alle", "every", "everyturn", "turn", "always", "an", "on"),
    REMINDERS: ("erinnerung", "erinnerungen", "nurerinnerungen", "reminders", "reminder", "onlyreminders"),
    OFF: ("aus", "nichts", "nie", "off", "nothing", "never", "none"),
}
_MODE = {w: mode for mode, words in _WORDS.items() for w in words}
_SETTING = "notify"


def mode_of(args: tuple[str, ...]) -> str | None:
    """The mode the words ``args`` name (``jeder Zug``, ``nur Erinnerungen``, ``aus`` ...), else ``None``."""
    word = "".join("".join(args).lower().split())
    return _MODE.get(word[:40])


def notify_turn(outs: list[Outgoing], table: Table, turn_before: int | None, turn_after: int | None,
                moved: bool, now: float) -> list[Outgoing]:
    """Mark the hand of the player who just got the turn as notifying if he has been idle.

    Args:
        outs: the change's effects.
        table: the table as saved (``seen`` holds when each person last acted here).
        turn_before: the seat to act before the change.
        turn_after: the seat to act after it.
        moved: whether the change applied engine moves or dealt (a turn can only pass then).
        now: the change's clock reading.
    """
    if not moved or turn_after is None or turn_after == turn_before:
        return outs
    seat = table.seats[turn_after]
    if not seat.human or seat.computer or now - table.seen.get(seat.user, 0.0) < IDLE_AFTER:
        return outs
    return [replace(o, notify=True) if isinstance(o, HandMessage) and o.user.key == seat.user else o for o in outs]


async def current(store: Store, chat: ChatRef, user: UserRef) -> str:
    """The mode ``user`` chose for ``chat``, else his own default, else every turn."""
    for key, name in ((chat.key, f"{_SETTING}:{user.key}"), (user.key, _SETTING)):
        value = await store.get_chat_setting(key, name)
        if value in MODES:
            return value
    return EVERY


async def wanted(store: Store, outs: list[Outgoing]) -> list[Outgoing]:
    """Keep the notify mark only for players who want every turn (the others get a silent edit)."""
    out: list[Outgoing] = []
    for o in outs:
        if isinstance(o, HandMessage) and o.notify and await current(store, o.chat, o.user) != EVERY:
            o = replace(o, notify=False)
        out.append(o)
    return out


async def choose(store: Store, chat: ChatRef, user: UserRef, args: tuple[str, ...]) -> str:
    """Store ``user``'s choice for ``chat`` (his default if ``chat`` is private); the mode now in force.

    Without ``args`` nothing changes. Raises :class:`Refused` for a word that names no mode.
    """
    if not args:
        return await current(store, chat, user)
    mode = mode_of(args)
    if mode is None:
        raise Refused("notify_unknown")
    if chat.private:
        await store.set_chat_setting(user.key, _SETTING, mode)
    else:
        await store.set_chat_setting(chat.key, f"{_SETTING}:{user.key}", mode)
    return mode
