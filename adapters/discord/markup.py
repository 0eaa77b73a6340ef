"""Rendered buttons and mentions to Discord components and message content.

Every button is a :class:`TokenButton`, a persistent :class:`~discord.ui.DynamicItem` whose
``custom_id`` is the bot layer's token: any process, also after a restart, turns a press back
into the token without remembering the message. Its template matches every custom id, so a
forged one reaches the bot layer and is refused there instead of being ignored.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import discord

from bot.protocol import tokens
from bot.protocol.outgoing import Button, UserRef

__all__ = ["TokenButton", "view", "mentions", "MAX_CUSTOM_ID"]

log = logging.getLogger(__name__)

MAX_CUSTOM_ID = 100
_ROW, _ROWS = 5, 5

class TokenButton(discord.ui.DynamicItem[discord.ui.Button], template=r"(?P<token>.{1,100})"):
    """A button whose custom id is a token; pressing it hands the token to the running bot."""

    def __init__(self, token: str, label: str = "·", dimmed: bool = False, row: int | None = None) -> None:
        style = discord.ButtonStyle.secondary if dimmed else discord.ButtonStyle.primary
        super().__init__(discord.ui.Button(label=label[:80] or "·", custom_id=token, style=style, row=row))
        self.token = token

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match) -> "TokenButton":
        """Rebuild the button of a press from its custom id alone."""
        return cls(match["token"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """A press: hand the token to the bot."""
        await interaction.client.pressed(interaction, self.token)


def view(rows: Iterable[Iterable[Button]]) -> discord.ui.View:
    """The buttons as a persistent view: at most 5 per row and 5 rows (longer rows wrap).

    Link buttons (a URL, no token) come last and only where there is room: they never push a token
    button out.
    """
    out = discord.ui.View(timeout=None)
    lines: list[list[Button]] = []
    rows = [tuple(row) for row in rows]
    links = [b for row in rows for b in row if b.url and not b.token]
    for row in rows:
        row = [b for b in row if b.token and len(b.token) <= MAX_CUSTOM_ID]
        lines += [row[i:i + _ROW] for i in range(0, len(row), _ROW)]
    if len(lines) > _ROWS:
        log.error("%d rows of buttons do not fit in a message; the last are left out", len(lines))
    for r, line in enumerate(lines[:_ROWS]):
        for b in line:
            parsed = tokens.parse(b.token)
            out.add_item(TokenButton(b.token, b.label, dimmed=bool(parsed and parsed.verb == "why"), row=r))
    for b in links:
        r = len(lines) - 1 if lines and len(lines[-1]) < _ROW else len(lines)
        if r >= _ROWS:
            break
        out.add_item(discord.ui.Button(label=b.label[:80] or "·", url=b.url, row=r))
        lines[r:] = [[*(lines[r] if r < len(lines) else []), b]]
    return out


def mentions(text: str, users: Iterable[UserRef]) -> str:
    """``text`` with each user's name turned into a mention (appended where the text lacks it)."""
    for user in users:
        tag = f"<@{user.user_id}>"
        name = user.name or user.user_id
        text = text.replace(name, tag, 1) if name in text else f"{text} {tag}"
    return text
