"""A save's show guard came due: its effects never reached the outbox, so the chat is shown the change again.

Every save of a table whose chat's effects go through the outbox arms a guard (kind
:data:`~bot.store.tables.SHOW`, the new version) that the outbox write of its effects disarms
(:meth:`~bot.store.outbox.Outbox.put`). One that fires found no write: the process that saved died before it
(or is slower than :data:`~bot.service.change.SHOW_GUARD_S`). It rebuilds what the chat should show after
that change: the notices that led to it, the table message and every hand at the saved version (as a change
renders them; not if the table moved on since, whose own change shows them), and the result notices of the
deals it ended (those notices the save kept, :meth:`~bot.store.tables.Store.notes`). They are written like a
change's effects, marking the version written: a late write of the original finds it marked and adds nothing.
"""

from __future__ import annotations

import engine
from bot.protocol import wire
from bot.protocol.outgoing import Notice, Outgoing
from bot.service.change import Tables
from bot.table.record import Table
from bot.words import hand, render

__all__ = ["came_due"]


async def came_due(tables: Tables, table_id: str, version: int, now: float) -> list[Outgoing]:
    """What the chat should show after the save of the table's ``version``; nothing if it never landed."""
    loaded = await tables.store.fetch(table_id)
    if loaded is None or loaded.version < version:
        return []
    notes = await tables.store.notes(table_id, version)
    kept = [n for n in wire.unpack(notes) if isinstance(n, Notice)] if notes else []
    out: list[Outgoing] = [n for n in kept if not n.result]
    if loaded.version == version:
        table = Table.load(loaded.data)
        state = engine.from_json(table.state) if table.state else None
        out.append(render.table_message(table, state, version, now))
        if state is not None and table.status != "lobby":
            out += [hand.hand_message(table, state, seat, version) for seat in table.humans()]
    out += [n for n in kept if n.result]
    if out:
        tables.unwritten(table_id, version)
    return out
