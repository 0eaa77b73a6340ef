"""A new Telegram message made once: the Bot API has no idempotency key, so a replay looks for a message whose
answer was lost before it posts it again.

Message ids come in sequences (:func:`sequence`): a supergroup's (and a channel's) messages are numbered one
after another in the chat; those of private chats and basic groups share one sequence of the bot account. Before
a call that posts a message, its sender notes the newest id it knows in the chat's sequence (the outbox keeps the
ids the bot made lately, :class:`~bot.protocol.receipts.Journal`); right after the answer, the id made
(:mod:`adapters.common.once`). A replay that finds only the intent looks at the ids after the one noted, skipping
those known to be the bot's other messages, at most :data:`PROBES` of them, each with the edit that would show
the message's very content (a paced call of its own): "message is not modified" is the message; an edit that
goes through found a message of the bot's nobody knows of, the lost one (a replay may render newer text, such as
more results), now showing this; "message can't be edited" is someone else's message; "message to edit not
found" is none in this chat, and in a supergroup's own sequence ends the search (no message came after it, unless
one was deleted). Only if none is found is the message posted. Every probe edits in this chat only, never
deletes, and never touches a message the bot knows as another of its own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from telegram import Bot, InlineKeyboardMarkup, Message, MessageEntity
from telegram.error import BadRequest

from adapters.common import once

__all__ = ["PROBES", "BOT_SEQUENCE", "sequence", "post"]

PROBES = 5
"""The most message ids one replay looks at."""
BOT_SEQUENCE = "bot"
"""The sequence of private chats and basic groups: the bot account's own."""


_CHANNELS = -10**12
"""Supergroups' and channels' chat ids lie below (``-100`` and the channel's id): basic groups' above."""


def sequence(chat_id: int) -> str:
    """The sequence of message ids ``chat_id``'s messages take."""
    return str(chat_id) if chat_id < _CHANNELS else BOT_SEQUENCE


async def post(bot: Bot, chat_id: int, text: str, turn: Callable[[int], Awaitable[None]],
               keyboard: InlineKeyboardMarkup | None = None, entities: list[MessageEntity] | None = None,
               thread: int | None = None) -> int:
    """Post ``text`` (with ``keyboard`` and ``entities``, in forum topic ``thread``) in ``chat_id``, once for an
    outbox entry: found again if a sender before made it; the message's id. ``turn(chat_id)`` waits for the chat's
    next call between the probes and the post."""
    made = once.creation()
    if made is None:
        return (await _send(bot, chat_id, text, keyboard, entities, thread)).message_id
    seq = sequence(chat_id)
    known: set[int] = set()
    if made.journal.replayed or made.intended() is not None:  # another sender may have noted it, even meanwhile
        known = await made.journal.known(seq, 0)  # before the note: an id is known only once noted as made
        await made.refresh()
    if (found := made.made()) is None and (newest := made.intended()) is not None:
        found = await _probe(bot, chat_id, newest, known, seq == BOT_SEQUENCE, (text, keyboard, entities), turn)
        if found is None:
            await turn(chat_id)  # the post goes in a turn of its own
    if found is None:
        await made.intend(await made.journal.newest(seq))
        made.fence()
        found = (await _send(bot, chat_id, text, keyboard, entities, thread)).message_id
    if made.made() != found:
        await made.done(found)  # right after the answer: nothing comes between
    await made.journal.saw(seq, found)  # a message found again too: a later search passes over it
    return found


def _send(bot: Bot, chat_id: int, text: str, keyboard: InlineKeyboardMarkup | None,
          entities: list[MessageEntity] | None, thread: int | None) -> Awaitable[Message]:
    return bot.send_message(chat_id, text, entities=entities or None, reply_markup=keyboard, message_thread_id=thread)


async def _probe(bot: Bot, chat_id: int, newest: int, known: set[int], shared: bool,
                 shows: tuple[str, InlineKeyboardMarkup | None, list[MessageEntity] | None],
                 turn: Callable[[int], Awaitable[None]]) -> int | None:
    """The lost message after id ``newest`` (skipping the ids ``known``; ``shared``: the bot's one sequence), if
    found (see the module)."""
    text, keyboard, entities = shows
    candidate = newest
    for probe in range(PROBES):
        candidate += 1
        while candidate in known:
            candidate += 1
        if probe:
            await turn(chat_id)
        try:
            await bot.edit_message_text(text, chat_id=chat_id, message_id=candidate, reply_markup=keyboard,
                                        entities=entities or None)
            return candidate
        except BadRequest as exc:
            reason = exc.message.lower()
            if "not modified" in reason:
                return candidate
            if "message to edit not found" in reason and not shared:
                return None
            if "message to edit not found" not in reason and "can't be edited" not in reason:
                raise
    return None
