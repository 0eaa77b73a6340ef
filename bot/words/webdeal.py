"""What the web table's page shows of finished tricks and deals: the named last trick, the deal's result, the sheet.

In the story's words (:mod:`bot.words.story`): the deal's result is the chat's result notice
(:func:`bot.words.render.result_text`), line by line, the sheet the ``zettel`` command's rows. Public
facts only (the table's sheet records and the engine's public view), never a hand.
"""

from __future__ import annotations

from typing import Any

from bot.table.match import EYE_GAMES
from bot.table.record import Table
from bot.words import story
from bot.words.cards import card_label
from bot.words.i18n import game_name, t
from bot.words.story import seat_name
from engine.cards import EYES, parse_card

__all__ = ["named_trick", "deal_result", "sheet_lines", "turned_cards", "SHEET_CHARS"]

SHEET_CHARS = 16_000
"""The most characters of the sheet a view carries (its newest rows; ``…`` for the older ones)."""


def named_trick(table: Table, trick: dict[str, Any]) -> dict[str, Any]:
    """A completed trick (``seats``, ``cards``, ``winner``) for the page: each card with its player's name,
    who led (the first card's player), who took it and, where the game counts eyes, its eyes.

    Keys: ``cards`` (``seat``, ``name``, ``card``, ``label``), ``leader``, ``winner``, ``winner_name``,
    ``eyes`` (``None`` where eyes do not count), ``took`` (``Ben macht den Stich (21 Augen)``) and ``text``
    (the whole trick in one line, as the chats tell it).
    """
    lang = table.lang
    eyes = sum(EYES[parse_card(c)] for c in trick["cards"]) if table.game in EYE_GAMES else None
    took = t(lang, "st.took", name=seat_name(table, trick["winner"]))
    if eyes is not None:
        took += t(lang, "st.eyes", eyes=eyes)
    return {"cards": [{"seat": s, "name": seat_name(table, s), "card": c, "label": card_label(c, lang)}
                      for s, c in zip(trick["seats"], trick["cards"])],
            "leader": trick["seats"][0], "winner": trick["winner"], "winner_name": seat_name(table, trick["winner"]),
            "eyes": eyes, "took": took, "text": story.trick_line(table, trick, "st.last")}


def deal_result(table: Table, fresh: bool, final: list[str] | None = None) -> dict[str, Any] | None:
    """The table's last finished deal as the page shows it until the player moves on; ``None`` before the first.

    Keys: ``no`` (the deal's number on the sheet), ``title`` (``Bauerchen · Spiel 3 ist aus``), ``lines`` (its
    result in the story's words), ``trick`` (its last trick, :func:`named_trick`, or ``None``), ``fresh``
    (whether nothing of the next deal was played yet: a page opened now shows it) and ``final`` (the match's
    summary after its last deal, else empty).
    """
    if not table.sheet:
        return None
    record, no = table.sheet[-1], table.sheet_dropped + len(table.sheet)
    trick = record.get("trick")
    return {"no": no, "title": t(table.lang, "st.deal_title", game=game_name(table.game, table.lang), no=no),
            "lines": story.result_lines(table, record), "trick": named_trick(table, trick) if trick else None,
            "fresh": fresh, "final": final or []}


def sheet_lines(table: Table) -> list[str]:
    """The score sheet as the ``zettel`` command shows it, line by line: its title, the teams, a row per deal."""
    return story.sheet_text(table, SHEET_CHARS).split("\n")


def turned_cards(table: Table, public: dict[str, Any]) -> list[dict[str, str]]:
    """Rams' turned cards (``card``, ``label``, ``role``): the Kehrer that sets trump, and a Bälli turned before it."""
    turned = public.get("turned") or [] if table.game == "rams" else []
    roles = ["baelli", "kehrer"] if len(turned) == 2 else ["kehrer"] * len(turned)
    return [{"card": c, "label": card_label(c, table.lang), "role": t(table.lang, f"web.{role}")}
            for c, role in zip(turned, roles)]
