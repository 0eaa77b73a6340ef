"""The moment before the first lead: every person who may play alone declares it or lets it pass.

Ledig (Bauerchen) and Karten weg (Bauer) may be declared after the deal and before the first card
is led. The engine keeps them legal until then; the table gives every seated person (not a
computer, not a person the timer plays for) whom the engine offers one a *window*: the computers
do not lead, nor declare, until each such person has declared, let it pass (``weiter``) or the
wait ran out. The wait is ``Table.declare_wait`` seconds (20 unless the table sets another), at a
*Fernspiel* table the automatic move's time (``Table.auto``); none: the table waits for the people.
A person who is to lead while another's window is open is told who may still declare.

The window lives in the table record (``Table.declare``, ``Table.declare_end``), so a crash loses
nothing; its end is the table's turn timer of kind ``declare``.
"""

from __future__ import annotations

from bot.table.record import Table
from engine.actions import Action
from engine.state import PLAY_PHASE, State

__all__ = ["DECLARE_KINDS", "TIMER", "declarable", "update", "let_pass", "close", "waiting_for",
           "wait_of"]

DECLARE_KINDS = frozenset({"ledig", "karten_weg"})
"""The engine's offers a person gets a window for: playing alone, declared before the first lead."""
TIMER = "declare"
"""The kind of the turn timer that ends the window."""


def declarable(state: State | None, seat: int) -> list[Action]:
    """What ``seat`` may declare now of :data:`DECLARE_KINDS` (the engine's offers)."""
    if state is None or state.to_act is None:
        return []
    return [a for a in state.offers_for(seat) if a.kind in DECLARE_KINDS]


def wait_of(table: Table) -> int:
    """The seconds the window stays open (0: until the people decide)."""
    if table.pace == "fernspiel":
        return table.auto or 0
    return table.declare_wait or 0


def update(table: Table, state: State | None, now: float) -> None:
    """Open the window once per deal when the play begins; keep only the seats that still may declare.

    ``Table.declare`` is ``None`` until the play of the deal begins, then the open windows' seats.
    When the last one closes, the seat to act gets its full turn from ``now``.
    """
    if state is None or table.status != "playing" or state.phase != PLAY_PHASE:
        return
    if table.declare is None:
        seats = [s for s in table.humans()
                 if s != state.to_act and not table.seats[s].computer and declarable(state, s)]
        table.declare = seats
        wait = wait_of(table) if seats else 0
        table.declare_end = now + wait if wait else 0.0
        return
    if table.declare:
        keep = [s for s in table.declare if not table.seats[s].computer and declarable(state, s)]
        if keep != table.declare:
            table.declare = keep
            if not keep:
                close(table, now)


def close(table: Table, now: float) -> None:
    """Close every window: the play goes on, the seat to act gets its full turn from ``now``."""
    table.declare = []
    table.declare_end = 0.0
    table.since = now


def let_pass(table: Table, seat: int, now: float) -> bool:
    """``seat`` lets his window pass; return whether every window is closed now."""
    table.declare = [s for s in table.declare or () if s != seat]
    if table.declare:
        return False
    close(table, now)
    return True


def waiting_for(table: Table) -> list[int]:
    """The seats whose window is open."""
    return list(table.declare or ())
