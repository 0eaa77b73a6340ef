"""A tournament's one message: its registration, then its standings (paged), edited in place."""

from __future__ import annotations

from dataclasses import replace

from bot.protocol.outgoing import TableMessage
from bot.service.tourney.draw import core_of
from bot.table.tourney_record import Tourney
from bot.words.tourney_messages import registration, standings_message

__all__ = ["message"]


def message(tourney: Tourney, version: int, now: float, repost: bool = False) -> TableMessage:
    """The tournament's one message: the registration, then the standings (paged)."""
    if tourney.status == "open":
        shown = registration(tourney, version)
    else:
        core = core_of(tourney) if tourney.core else None
        rows = (core.final_ranking() if core.is_over else core.standings()) if core else []
        shown = standings_message(tourney, rows, version, tourney.page, now, final=tourney.status == "finished",
                                  rounds=core.planned_rounds if core else 0)
    return replace(shown, repost=True) if repost else shown
