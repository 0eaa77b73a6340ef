"""Rendered buttons and mentions to Telegram's inline keyboards, message entities and deep links."""

from __future__ import annotations

from collections.abc import Iterable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, MessageEntity, User

from bot.protocol.outgoing import Button, UserRef

__all__ = ["keyboard", "mentions", "deep_link", "utf16_len", "toast", "ANSWER_MAX"]

ANSWER_MAX = 200
"""The most characters (UTF-16 units) of the text answering a button press; Telegram refuses more."""


def keyboard(rows: Iterable[Iterable[Button]]) -> InlineKeyboardMarkup | None:
    """An inline keyboard of the button rows (token buttons send callback data, others open a URL)."""
    out = [[InlineKeyboardButton(b.label, url=b.url) if b.url else InlineKeyboardButton(b.label, callback_data=b.token)
            for b in row] for row in rows]
    out = [row for row in out if row]
    return InlineKeyboardMarkup(out) if out else None


def utf16_len(text: str) -> int:
    """The length of ``text`` in UTF-16 code units, the unit of Telegram's entity offsets."""
    return len(text.encode("utf-16-le")) // 2


def toast(text: str | None) -> str | None:
    """``text`` as a press's answer: cut to :data:`ANSWER_MAX` UTF-16 units (an ellipsis marks the cut)."""
    if not text or utf16_len(text) <= ANSWER_MAX:
        return text
    while utf16_len(text) > ANSWER_MAX - 1:
        text = text[:-1]
    return text + "…"


def mentions(text: str, users: Iterable[UserRef]) -> tuple[str, list[MessageEntity]]:
    """``text`` with a ``text_mention`` entity on each user's name (appended where the text lacks it).

    A text mention notifies the user even without a username; it needs no parse mode, so the
    text stays exactly as the bot layer rendered it.
    """
    entities: list[MessageEntity] = []
    taken: list[tuple[int, int]] = []
    for user in users:
        name = user.name or user.user_id
        start = _free(text, name, taken)
        if start < 0:
            text = f"{text} {name}"
            start = len(text) - len(name)
        taken.append((start, start + len(name)))
        entities.append(MessageEntity(MessageEntity.TEXT_MENTION, utf16_len(text[:start]), utf16_len(name),
                                      user=User(int(user.user_id), name, is_bot=False)))
    entities.sort(key=lambda e: e.offset)
    return text, entities


def _free(text: str, name: str, taken: list[tuple[int, int]]) -> int:
    at = text.find(name)
    while at >= 0 and any(a < at + len(name) and at < b for a, b in taken):
        at = text.find(name, at + 1)
    return at


def deep_link(bot_username: str, payload: str) -> str:
    """The link that opens the private chat with the bot and sends ``/start <payload>``."""
    return f"https://t.me/{bot_username}?start={payload}"
