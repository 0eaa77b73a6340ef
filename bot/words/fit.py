"""The platforms' limits on what the bot sends, and fitting a text that grows into them.

Discord allows 2,000 characters (code points) in a message, Telegram 4,096 UTF-16 code units
after entity parsing; 2,000 code points are at most 4,000 UTF-16 units, so a text of at most
:data:`TEXT_MAX` characters fits both. A Telegram button press is answered with at most
:data:`TOAST_MAX` characters; a Discord button label holds :data:`LABEL_MAX`. Names are shown
cut to :data:`NAME_SHOWN` characters, so a table of seven players with the longest names fits.
"""

from __future__ import annotations

from bot.table.refused import clip

__all__ = ["TEXT_MAX", "TELEGRAM_MAX", "TOAST_MAX", "LABEL_MAX", "NAME_SHOWN", "fits", "shown_name", "fit_rows"]

TEXT_MAX = 2000
"""The most characters of a message: Discord's limit, which is within Telegram's too."""
TELEGRAM_MAX = 4096
"""The most UTF-16 code units of a Telegram message."""
TOAST_MAX = 200
"""The most characters of the answer to a Telegram button press (a toast)."""
LABEL_MAX = 80
"""The most characters of a Discord button label."""
NAME_SHOWN = 16
"""The most characters of a player's name in what the bot renders (an ellipsis marks the cut)."""
_GAP = "…"


def fits(text: str) -> bool:
    """Whether ``text`` fits a message on both platforms (its characters are at most twice as many UTF-16 units)."""
    return len(text) <= TEXT_MAX


def shown_name(name: str) -> str:
    """A player's name as the bot shows it: cut to :data:`NAME_SHOWN` characters."""
    return clip(name, NAME_SHOWN)


def fit_rows(head: list[str], rows: list[str], cut: bool = False, limit: int = TEXT_MAX) -> str:
    """``head`` and then as many of the last ``rows`` as fit in ``limit``; ``…`` stands for the rows left out
    (also with ``cut``: older rows were dropped before).

    What grows with a match (the score sheet's deals) keeps its newest rows, its head always.
    """
    budget = limit - len("\n".join(head)) - len(_GAP) - 2
    kept: list[str] = []
    for row in reversed(rows):
        budget -= len(row) + 1
        if budget < 0:
            break
        kept.append(row)
    gap = [_GAP] if cut or len(kept) < len(rows) else []
    return "\n".join(head + gap + kept[::-1])
