"""The platforms' limits on what the bot sends, and fitting a text that grows into them.

Discord allows 2,000 characters (code points) in a message, Telegram 4,096 UTF-16 code units
after entity parsing; 2,000 code points are at most 4,000 UTF-16 units, so a text of at most
:data:`TEXT_MAX` characters fits both. Names are shown cut to :data:`NAME_SHOWN` characters, so a
table of seven players with the longest names fits (tests/renderkit.py checks every message).
"""

from __future__ import annotations

from bot.table.refused import clip

__all__ = ["TEXT_MAX", "NAME_SHOWN", "shown_name", "fit_rows", "fit_head"]

TEXT_MAX = 2000
"""The most characters of a message: Discord's limit, which is within Telegram's too."""
NAME_SHOWN = 16
"""The most characters of a player's name in what the bot renders (an ellipsis marks the cut)."""
_GAP = "…"


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


def fit_head(lines: list[str], tail: list[str] | tuple[str, ...] = (), cut: bool = False, limit: int = TEXT_MAX) -> str:
    """The first of ``lines`` that fit in ``limit`` together with ``tail`` (always kept, last); ``…`` stands
    for the lines left out (also with ``cut``: more were left out before).

    What lists the best first (a ranking, a person's games) keeps its top, and its closing lines.
    """
    budget = limit - len("\n".join(tail)) - len(_GAP) - 2
    kept: list[str] = []
    for line in lines:
        budget -= len(line) + 1
        if budget < 0:
            break
        kept.append(line)
    gap = [_GAP] if cut or len(kept) < len(lines) else []
    return "\n".join(kept + gap + list(tail))
