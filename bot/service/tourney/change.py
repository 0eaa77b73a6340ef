"""The change cycle of a chat's tournament: load it, let a step change it, save it with a compare-and-set.

Like a table's (:mod:`bot.service.change`) but lighter: a tournament changes a few times a round. A
step raises :class:`~bot.table.refused.Refused` to refuse (nothing is saved) and appends what it
shows to ``out``; a lost compare-and-set tries again from the stored record, in the retry loop a
table's change runs in too (:func:`bot.service.change.until_saved`). A tournament's keys live as
long as its round's deadline and :data:`MARGIN` more, refreshed by every save.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.protocol.outgoing import Command, Outgoing
from bot.service.change import SAVED, Again, Tables, until_saved
from bot.store.tourneys import TourneyStore
from bot.table.refused import Refused
from bot.table.tourney_record import Tourney

__all__ = ["Step", "change", "create", "lifetime", "MARGIN", "POLL_S", "MAX_PER_CHAT"]

MARGIN = 7 * 86400
"""How long a tournament's keys outlive its round's deadline (a finished one: its final ranking)."""
POLL_S = 120.0
"""How often a running tournament's timer looks at its tables even if none told it of its end."""
MAX_PER_CHAT = 3
"""How many tournaments may be open in one chat with all its topics."""


@dataclass
class Step:
    """One attempt at a change of a tournament: the loaded record, its version, what it shows."""

    cmd: Command | None
    tourney: Tourney
    version: int
    now: float
    out: list[Outgoing] = field(default_factory=list)
    quiet: bool = False
    """Nothing to save: answer with ``out`` only."""


def lifetime(tourney: Tourney, now: float) -> int:
    """Seconds the tournament's keys live from ``now``: its round's deadline and :data:`MARGIN`."""
    end = tourney.round_end if tourney.status == "running" else now + tourney.round_s
    return int(max(end, now) - now + MARGIN)


async def create(tables: Tables, tourney: Tourney) -> None:
    """Store a new tournament as its chat's (or topic's); refused if that one holds another or the chat is full."""
    store = TourneyStore(tables.store)
    ttl = lifetime(tourney, tables.clock())
    noted = await store.index(tourney.chat.key, tourney.chat.group, tourney.id, True, ttl, MAX_PER_CHAT)
    if noted == 0:
        raise Refused("tn.exists")
    if noted < 0:
        raise Refused("tn.too_many", most=MAX_PER_CHAT)
    if not await store.save(tourney.id, 0, tourney.dump(), ttl):
        raise Refused("busy")


async def change(tables: Tables, tourney_id: str, cmd: Command | None,
                 fn: Callable[[Step], Awaitable[None] | None]) -> tuple[list[Outgoing], Tourney | None]:
    """Let ``fn`` change the tournament for ``cmd`` (``None``: its timer), save it; its effects and the saved record.

    ``fn`` may be a coroutine function (a step that asks the store). The record returned is ``None``
    when nothing was saved (a quiet step).
    """
    store = TourneyStore(tables.store)

    async def attempt(_record: None, _fresh: bool) -> tuple[list[Outgoing], Tourney | None] | Again:
        loaded = await store.fetch(tourney_id)
        if loaded is None:
            raise Refused("tn.none")
        step = Step(cmd, Tourney.load(loaded.data), loaded.version, tables.clock())
        was = step.tourney.status
        done = fn(step)
        if done is not None:
            await done
        if step.quiet:
            return step.out, None
        tourney = step.tourney
        if await store.save(tourney_id, loaded.version, tourney.dump(), lifetime(tourney, step.now)):
            SAVED.set(True)
            if tourney.open or tourney.status != was:  # the index lives as long as the tournament
                await store.index(tourney.chat.key, tourney.chat.group, tourney_id, tourney.open,
                                  lifetime(tourney, step.now), MAX_PER_CHAT)
            if tourney.status == "finished" and was != "finished":  # its final standings are shown while kept
                await store.keep_finished(tourney.chat.key, tourney_id, lifetime(tourney, step.now))
            return step.out, tourney
        return Again()
    return await until_saved(attempt)
