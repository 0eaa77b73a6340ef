"""Rendered buttons and mentions to Telegram's inline keyboards, message entities and deep links."""

from __future__ import annotations

from collections.abc import Iterable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, MessageEntity, User, WebAppInfo

from adapters.common.webauth import mini_app_link, page_url
from bot.protocol import tokens
from bot.protocol.outgoing import Button, TableMessage, UserRef
from bot.words import web_text

__all__ = ["keyboard", "mentions", "deep_link", "utf16_len", "toast", "web_table_row", "ANSWER_MAX", "WEB_APP"]

ANSWER_MAX = 200
"""The most characters (UTF-16 units) of the text answering a button press; Telegram refuses more."""


WEB_APP = "web_app:"
"""A button URL after this prefix opens as a Mini App (a ``web_app`` button, private chats only), not as a link."""


def _button(b: Button) -> InlineKeyboardButton:
    if b.url.startswith(WEB_APP):
        return InlineKeyboardButton(b.label, web_app=WebAppInfo(b.url.removeprefix(WEB_APP)))
    if b.url:
        return InlineKeyboardButton(b.label, url=b.url)
    return InlineKeyboardButton(b.label, callback_data=b.token)


def keyboard(rows: Iterable[Iterable[Button]]) -> InlineKeyboardMarkup | None:
    """An inline keyboard of the button rows (token buttons send callback data, others open a URL or a Mini App)."""
    out = [[_button(b) for b in row] for row in rows]
    out = [row for row in out if row]
    return InlineKeyboardMarkup(out) if out else None


def web_table_row(out: TableMessage, lang: str, username: str, app_name: str,
                  base_url: str) -> tuple[tuple[Button, ...], ...]:
    """The »Am Tisch ansehen« row under the message of a running table (none under a lobby or an ended one).

    In a group it is a direct link to the Mini App ``app_name`` with the table as its start parameter
    (groups allow no ``web_app`` button); in a private chat a ``web_app`` button on the page at ``base_url``.
    """
    if not any((tok := tokens.parse(b.token)) and tok.verb == "hand" for row in out.buttons for b in row):
        return ()
    url = WEB_APP + page_url(base_url, out.table_id) if out.chat.private else \
        mini_app_link(username, app_name, out.table_id)
    return ((Button(web_text(lang, "open"), url=url),),)


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
    """The link that opens the private chat with the bot and sends ``/start <payload>`` (no payload: ``/start``)."""
    return f"https://t.me/{bot_username}" + (f"?start={payload}" if payload else "")
