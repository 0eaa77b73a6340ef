"""»Meine Tische« in words: one line per open table a person sits at, and the page's head.

A line says the game, the chat, the score and whose turn it is; on his own turn the time left before
the automatic move. It reads the stored record's raw deal state (the match's score, the seat to act),
never a hand.
"""

from __future__ import annotations

from bot.table import deadlines
from bot.table.record import Table
from bot.table.refused import clip
from bot.words.figures import ago
from bot.words.i18n import game_name, t
from bot.words.story import seat_name

__all__ = ["row_text", "head_text", "chat_name", "CHAT_SHOWN"]

CHAT_SHOWN = 32
"""The most characters of a chat's name in a line."""
_SCORES = ("striche", "score", "tricks")
"""Where each game's match keeps its running score (Bauernstoß's Striche, points, Rams' tricks)."""


def _score(table: Table) -> str:
    match = (table.state or {}).get("match") or {}
    score = next((match[k] for k in _SCORES if isinstance(match.get(k), list)), None)
    return ":".join(str(n) for n in score) if score else ""


def chat_name(table: Table, lang: str) -> str:
    """The table's chat as the list names it (his private chat with the bot in words)."""
    return t(lang, "mt.private") if table.chat.private else clip(table.chat.title or table.chat.chat_id, CHAT_SHOWN)


def row_text(no: int, table: Table, seat: int, lang: str, now: float) -> str:
    """``2. Bauer · Stammtisch · 8:6 · ➡️ du bist dran, noch 5 Std.`` for the person in ``seat``."""
    parts = [f"{no}. {game_name(table.game, lang)}", chat_name(table, lang)]
    if table.status == "lobby":
        seated = sum(not s.empty for s in table.seats)
        parts.append(t(lang, "mt.lobby", seated=seated, n=table.n))
        return " · ".join(parts)
    if score := _score(table):
        parts.append(score)
    to_act = (table.state or {}).get("to_act")
    if to_act == seat:
        at = deadlines.auto_at(table)
        left = None if at is None else at - now
        parts.append(t(lang, "mt.yours") if left is None else t(lang, "mt.yours_left", left=ago(max(left, 60), lang)))
    elif to_act is not None:
        parts.append(t(lang, "mt.theirs", name=seat_name(table, to_act)))
    return " · ".join(parts)


def head_text(lang: str, count: int, page: int, pages: int) -> str:
    """The page's head: how many tables, which page of how many (no page count for one page)."""
    if count == 0:
        return t(lang, "mt.none")
    head = t(lang, "mt.head", n=count)
    return head + (t(lang, "mt.page", page=page + 1, pages=pages) if pages > 1 else "")
