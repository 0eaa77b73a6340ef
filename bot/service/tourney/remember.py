"""A finished tournament goes into its group's memory: its final ranking, recorded once by its id.

The tournament's last save ends it; :func:`remember` then records it (:func:`bot.memory.record_tournament`,
idempotent by the tournament's id), and only after that is the tournament's timer cancelled: a crash
between the end and the record leaves the timer, whose next visit records it (as results are healed).
"""

from __future__ import annotations

import logging

from bot import memory
from bot.service.change import Tables
from bot.table.tourney_record import Entry, Tourney

__all__ = ["remember", "outcome_of"]

log = logging.getLogger(__name__)


def outcome_of(tourney: Tourney, ranked: list[Entry], at: float) -> memory.TourneyOutcome:
    """The memory's outcome of a finished tournament: the people of its entries ``ranked`` as it ended, first first."""
    seats: list[memory.SeatOutcome] = []
    sides: list[list[int]] = []
    for entry in ranked:
        sides.append(list(range(len(seats), len(seats) + len(entry.users))))
        seats += [memory.SeatOutcome(user=user, name=name) if user else memory.SeatOutcome(level="normal")
                  for user, name in zip(entry.users, entry.names)]
    return memory.TourneyOutcome(kind="tourney", table=tourney.id, chat=tourney.chat.group, game=tourney.game,
                                 at=at, seats=seats, sides=sides, score=[], winners=[0])


async def remember(tables: Tables, tourney: Tourney, ranked: list[Entry]) -> bool:
    """Record the finished tournament (its entries ``ranked``) in its group's memory (again: nothing); false if
    that failed (its timer then stays, to try again)."""
    outcome = outcome_of(tourney, ranked, tables.clock())
    try:
        await memory.record_tournament(tables.book, outcome.chat, outcome)
    except Exception:  # noqa: BLE001  (the tournament's end stands; its timer records it later)
        log.warning("tournament %s: its final ranking is not in the memory yet", tourney.id, exc_info=True)
        return False
    return True
