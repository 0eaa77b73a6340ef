"""Turn notifications that fit the pace: who gets a notifying hand message, and who wants one.

A platform sends no notification for an edited message, so in slow play the player whose turn
it is would learn of it only from the reminder, hours later (and a hand is not even edited for
another player's card). The rule: when a change passes the turn to a person who has not acted at
this table for :data:`IDLE_AFTER` seconds, his hand is sent marked
:attr:`~bot.protocol.outgoing.HandMessage.notify` (posted anew, notifying), once per turn; in fast play
(everyone acting within that time) nothing is sent to him: the group's table shows whose turn it is.

Each player chooses per chat (``/benachrichtigung`` / ``/notify``): every turn (the default, also
``sofort``), only reminders, nothing, or once a day (``täglich 19:00``, :mod:`bot.table.digest`). A choice made in his private chat with the bot is his default for
every chat where he made none.
"""

from __future__ import annotations

from bot.protocol.outgoing import ChatRef, UserRef
from bot.store.tables import Store
from bot.table.record import Table
from bot.table.refused import Refused

__all__ = ["IDLE_AFTER", "MODES", "EVERY", "REMINDERS", "OFF", "mode_of", "idle_turn", "wants_every_turn",
           "choose", "current"]

IDLE_AFTER = 120.0
"""A player who has not acted at the table for this many seconds is playing slowly: notify him."""

EVERY, REMINDERS, OFF, DAILY = "every", "reminders", "off", "daily"
MODES = (EVERY, REMINDERS, OFF, DAILY)
_WORDS = {
    EVERY: ("jeder", "jederzug", "immer", "alle", "every", "everyturn", "turn", "always", "an", "on", "sofort", "now",
            "immediately"),
    DAILY: ("täglich", "taeglich", "daily", "digest"),
    REMINDERS: ("erinnerung", "erinnerungen", "nurerinnerungen", "reminders", "reminder", "onlyreminders"),
    OFF: ("aus", "nichts", "nie", "off", "nothing", "never", "none"),
}
_MODE = {w: mode for mode, words in _WORDS.items() for w in words}
_SETTING = "notify"


def mode_of(args: tuple[str, ...]) -> str | None:
    """The mode the words ``args`` name (``jeder Zug``, ``nur Erinnerungen``, ``aus`` ...), else ``None``."""
    word = "".join("".join(args).lower().split())
    return _MODE.get(word[:40])


def idle_turn(table: Table, turn_before: int | None, turn_after: int | None, moved: bool, now: float) -> int | None:
    """The seat of the person who just got the turn after a while away (slow play), else ``None``.

    His hand is not edited for another player's card, so the service posts it anew for him,
    marked to notify (once per turn: the turn passed with this change).

    Args:
        table: the table as saved (``seen`` holds when each person last acted here).
        turn_before: the seat to act before the change.
        turn_after: the seat to act after it.
        moved: whether the change applied engine moves or dealt (a turn can only pass then).
        now: the change's clock reading.
    """
    if not moved or turn_after is None or turn_after == turn_before:
        return None
    seat = table.seats[turn_after]
    if not seat.human or seat.computer or now - table.seen.get(seat.user, 0.0) < IDLE_AFTER:
        return None
    return turn_after


async def current(store: Store, chat: ChatRef, user: UserRef) -> str:
    """The mode ``user`` chose for ``chat``, else his own default, else every turn."""
    for key, name in ((chat.key, f"{_SETTING}:{user.key}"), (user.key, _SETTING)):
        value = await store.get_chat_setting(key, name)
        if value in MODES:
            return value
    return EVERY


async def wants_every_turn(store: Store, chat: ChatRef, user: UserRef) -> bool:
    """Whether ``user`` wants a notifying message for every turn at ``chat``'s table (else: silence)."""
    return await current(store, chat, user) == EVERY


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
