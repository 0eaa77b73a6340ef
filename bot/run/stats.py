"""``stammtisch stats``: the terminal player's matches at his console table, as text or as one JSON object.

The console keeps its tables in the same store as the chats, under the chat ``console:<login>`` (with
``play --name NAME``: ``console:<login>/<NAME>``, see :func:`console_user`),
and its finished matches are recorded there like a chat's (:mod:`bot.memory`); this reads them back,
all seasons together.
"""

from __future__ import annotations

import getpass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from bot import memory
from bot.words.i18n import t
from bot.words.stats import person_text

__all__ = ["console_key", "console_user", "report", "RECENT"]

RECENT = 10
"""The console's last matches the report lists."""


def console_user(name: str | None) -> str:
    """Whom the terminal keeps a table and figures under: the login, and the ``--name`` unless it is the login's,
    so that two people at one machine (``--name Lena``) each keep a table of their own. The name is
    percent-encoded: a user id holds no spaces."""
    login = getpass.getuser() or "player"
    return login if name in (None, login) else f"{login}/{quote(name, safe='')}"


def console_key(login: str) -> str:
    """The key of the console table's chat of ``login`` in the memory, which is his user key there too."""
    return f"console:{login}"


async def report(book: memory.Book, login: str, game: str | None, lang: str) -> tuple[str, dict[str, Any]]:
    """The terminal player's figures: the text the console's ``statistik`` shows for his table, and the JSON object.

    The JSON object: ``player`` (his login, ``login/NAME`` for ``play --name NAME``), ``name`` (the name he
    last played under), ``game`` (the game asked for, or ``null``), ``games`` (per game: ``matches``, ``won``,
    ``deals``, ``deals_won``, ``share`` of the points his side made, the game's own ``figures``), ``recent`` (his last matches,
    newest first: ``no``, ``finished`` (UTC, ISO 8601), ``game``, ``won``, ``score``).
    """
    group = console_key(login)
    who = await memory.who_of(book, group, group)
    out: dict[str, Any] = {"player": login, "name": "", "game": game, "games": [], "recent": []}
    if who is None:
        return t(lang, "mem.no_own"), out
    found = await memory.stats(book, group, who, game, season=0)
    out["name"] = found.person.name
    out["games"] = [{"game": g.game, "matches": g.matches, "won": g.won, "deals": g.deals, "deals_won": g.deals_won,
                     "share": round(g.share, 4), "figures": g.figures} for g in found.games]
    for match in await memory.history(book, group, limit=RECENT, game=game):
        seat = next((i for i, s in enumerate(match.seats) if s.who == who), None)
        out["recent"].append({"no": match.no, "finished": datetime.fromtimestamp(match.at, UTC).isoformat(
            timespec="seconds"), "game": match.game, "won": seat is not None and match.won(seat),
            "score": match.score})
    return person_text(lang, found), out
