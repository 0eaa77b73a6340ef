"""The hint (»Tipp«) a person asks for at his table: checked, one at a time, searched off the event loop, his alone.

The ask is checked on the table as it is now (:func:`bot.table.tipp.check`: allowed here, his to decide)
and marks the match as hinted for him (``Table.hinted``: the memory marks it and does not rate it for
him), in one change of the table; the search then runs in a worker thread on his view at that moment, its
samples seeded by the position (:func:`bot.table.tipp.sampler`: asked twice, the same answer),
and its words go to him alone (a ``secret`` :class:`~bot.protocol.outgoing.Toast`). A person has one
hint searched at a time, across processes: a second ask meanwhile is refused kindly.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from bot.protocol.outgoing import Command, Outgoing, Toast
from bot.service.answer import Ctx
from bot.service.change import Tables
from bot.table import tipp
from bot.table.refused import Refused
from bot.words.tipp import tipp_text

__all__ = ["ask", "VERB", "HOLD_S", "GAP_S"]

VERB = tipp.VERB
"""The verb of a hint, typed and on its button."""
HOLD_S = 10.0
"""The longest one hint counts as running, should its process die before it ends."""
GAP_S = 1e-6
"""How long after a hint ended the next one may start: the limiter's shortest window, which keeps hints one at a
time and no further apart."""


async def ask(tables: Tables, cmd: Command, table_id: str,
              before: Callable[[Ctx], None] | None = None) -> list[Outgoing]:
    """A hint for the sender at ``table_id`` (``before`` checks a pressed button's chat first)."""
    limiter, settings = tables.store.limiter, tables.settings
    key = f"{VERB}:{cmd.user.key}"
    wait, member = await limiter.begin(key, 1, GAP_S, HOLD_S)
    if wait > 0:
        raise Refused("tipp.busy")
    try:
        asked: list[tuple[dict[str, Any], int, Any, str, str]] = []

        def mark(ctx: Ctx) -> None:
            asked.clear()  # only the attempt that counts
            if before is not None:
                before(ctx)
            table = ctx.table
            seat = ctx.seat()
            view = tipp.check(table, ctx.match.state if ctx.match.running else None, seat)
            if ctx.user.key in table.hinted:
                ctx.keep_table()
            else:
                table.hinted.append(ctx.user.key)
                ctx.show_table = False
            asked.append((view, seat, ctx.match.state.options, table.game, table.lang))

        out = await tables.change(table_id, cmd, mark)
        if not asked:  # refused, with the reason
            return out
        view, seat, options, game, lang = asked[-1]
        rng = tipp.sampler(table_id, seat, view)  # the same position, the same samples: the same answer
        advice = await asyncio.to_thread(tipp.advise, view, options, rng, settings.tipp_samples, settings.tipp_seconds)
        return [*out, Toast(cmd.user, cmd.chat, tipp_text(lang, game, view, advice), secret=True, table_id=table_id)]
    finally:
        await limiter.end(key, member)
