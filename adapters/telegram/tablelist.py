"""»Meine Tische« on Telegram: a page's text and, per row, the button that leads to its table.

A supergroup's message has a link (``t.me/c/<id without -100>[/<topic>]/<message>``); a basic group's and
a private chat's have none, so there the row's button sends his hand of that table again.
"""

from __future__ import annotations

from telegram.constants import MessageLimit

from adapters.common.refs import MessageRef
from bot.protocol.outgoing import Button, ListedTable, TableList

__all__ = ["page_text", "row_button"]


def page_text(out: TableList) -> str:
    """The head and the rows' lines."""
    return "\n".join([out.head, *(row.text for row in out.rows)])[:MessageLimit.MAX_TEXT_LENGTH]


def row_button(row: ListedTable, table_message: MessageRef | None) -> Button | None:
    """The link to the row's table message where Telegram has one, else the row's hand button."""
    if table_message is None or not str(table_message.chat_id).startswith("-100"):
        return row.hand
    topic = f"{row.chat.thread}/" if row.chat.thread else ""
    return Button(row.go, url=f"https://t.me/c/{str(table_message.chat_id)[4:]}/{topic}{table_message.message_id}")
