"""Checks of a finished game's move log, shared by the end-to-end tests of every adapter."""

from __future__ import annotations

import json

from bot.table import Table

__all__ = ["assert_log_sound"]


async def assert_log_sound(store, table: Table, platform: str) -> None:
    """Every change was applied once, in version order, and every person's move by the seat's owner."""
    entries = [json.loads(e) for e in await store.log(table.id)]
    versions = [e["v"] for e in entries]
    assert versions == list(range(versions[0], versions[0] + len(versions))), versions
    for e in entries:
        for move in e["moves"]:
            if str(move.get("by", "")).startswith(f"{platform}:"):
                assert table.seats[move["s"]].user == move["by"] == e["by"], e
