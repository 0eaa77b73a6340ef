"""How a Rams field is split into tables of 3 to 7 players."""

from __future__ import annotations

import math

from .formats import RAMS_TABLE

__all__ = ["table_sizes", "seat"]


def table_sizes(players: int, preferred: int) -> list[int]:
    """Table sizes for ``players`` (at least 3): as near ``preferred`` as the bounds allow, as equal as can be, larger first."""
    lo, hi = RAMS_TABLE
    if players < lo:
        raise ValueError(f"a Rams table needs at least {lo} players")
    tables = min(max(round(players / preferred), math.ceil(players / hi)), players // lo)
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def seat(order: list[str], preferred: int) -> list[list[str]]:
    """``order`` cut into consecutive tables (the first table takes the first players)."""
    tables, start = [], 0
    for size in table_sizes(len(order), preferred):
        tables.append(order[start:start + size])
        start += size
    return tables
