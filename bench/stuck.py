"""A bench that cannot move a table on fails loudly, naming the state the table is stuck in.

Every loop of a bench that waits for a table to go on is bounded so: it never spins forever.
"""

from __future__ import annotations

import engine
from bot.table.record import Table

__all__ = ["STUCK_AFTER", "Stuck", "stuck_at"]

STUCK_AFTER = 3
"""Turns in a row (presses, ticks of the timers) after which a table whose version did not change is stuck."""


class Stuck(RuntimeError):
    """A table the bench cannot move on: nobody can press, or what it does changes nothing."""


def stuck_at(table_id: str, version: int, table: Table, why: str) -> Stuck:
    """The error naming the state ``table`` (at ``version``) was stuck in, and ``why``."""
    state = engine.from_json(table.state) if table.state else None
    seat = state.to_act if state else None
    who = "nobody" if seat is None else "a computer" if table.seats[seat].computer else "a person"
    return Stuck(f"table {table_id} of {table.game} stuck at version {version}: {why}; status {table.status}, "
                 f"phase {state.phase if state else None}, seat to act {seat} ({who}), windows before the first "
                 f"lead open for seats {table.declare}, deals {table.deals}")
