"""The tables of a tournament's pairings: opened with their seats, moved into a forum topic, taken over, closed.

Each pairing of a round plays at its own table in the tournament's chat (where the chat has forum
topics, in a topic of its own), created with the tournament's table options; the tournament's timer
(:mod:`bot.service.tourney.results`) reads their results, lets the computer take over at a deadline and
closes the tables it decided without them.
"""

from __future__ import annotations

from dataclasses import replace

from bot.protocol.outgoing import Notice, OpenTopic, Outgoing
from bot.service.answer import Ctx
from bot.service.change import Tables, seconds
from bot.service.tourney.draw import core_of, pairing_names
from bot.table import cpu
from bot.table.record import Seat, Table
from bot.table.refused import Refused
from bot.table.tourney_record import Tourney
from bot.words.i18n import t

__all__ = ["open_tables", "move_to_topic", "computers_take_over", "close"]


async def open_tables(tables: Tables, tourney: Tourney) -> list[Outgoing]:
    """Open the table of every pairing of the round that has none yet (a crash before it: the timer's visit)."""
    out: list[Outgoing] = []
    core = core_of(tourney)
    for pairing in core.pairings_of(tourney.round):
        table_id = tourney.tables.get(pairing.key)
        if table_id is None or pairing.key in core.results or await tables.store.fetch(table_id) is not None:
            continue
        out += await _open_table(tables, tourney, pairing, table_id)
    return out


def _seats(tourney: Tourney, sides: list[str]) -> list[Seat]:
    """The seats of a pairing: Rams one per side; a team game side 0 in seats 0 and 2, side 1 in 1 and 3."""
    entries = [tourney.entries[int(s[1:])] for s in sides]
    order = [(e, 0) for e in entries] if tourney.team_size == 1 else [(entries[0], 0), (entries[1], 0),
                                                                       (entries[0], 1), (entries[1], 1)]
    return [Seat(user=e.users[k], name=e.names[k]) if e.users[k] else Seat(bot=True) for e, k in order]


async def _open_table(tables: Tables, tourney: Tourney, pairing, table_id: str) -> list[Outgoing]:
    """Create the pairing's table in the tournament's chat with its seats and options, and deal."""
    settings, now = tables.settings, tables.clock()
    seats = _seats(tourney, pairing.sides)
    table = Table(id=table_id, chat=tourney.chat, game=tourney.game, n=len(seats), options=tourney.options,
                  lang=tourney.lang, opener=tourney.organizer, seats=seats,
                  remind=seconds(settings.reminder_after), auto=seconds(settings.autoplay_after), created=now,
                  since=now, tourney=f"{tourney.id}:{pairing.key}")
    if not await tables.store.create(table.id, table.index_key, table.dump(), table.user_keys()):
        return []  # another process opened it
    names = t(tourney.lang, "tn.versus").join(pairing_names(tourney, pairing.sides))

    def deal(ctx: Ctx) -> None:
        ctx.lead.append(Notice(tourney.chat, t(tourney.lang, "tn.table_for", pairing=pairing.key, names=names),
                               tuple(ctx.table.user(i) for i in ctx.table.humans()), table_id))
        ctx.match.start()
        cpu.play_computers(ctx.match)
    out = await tables.change(table_id, None, deal)
    if not tourney.chat.thread:  # where the chat has forum topics, the match gets one of its own
        out.append(OpenTopic(tourney.chat, table_id, f"🏆 {pairing.key} {names}"[:128]))
    return out


async def move_to_topic(tables: Tables, table_id: str, thread: str) -> list[Outgoing]:
    """A tournament's table moves into the forum topic opened for it (once: a table in a topic stays there)."""
    moved: list[str] = []

    def move(ctx: Ctx) -> None:
        if ctx.table.chat.thread or not ctx.table.tourney or not ctx.table.open:
            ctx.keep_table()
            return
        moved.append(ctx.table.index_key)
        ctx.table.chat = replace(ctx.table.chat, thread=thread)
        ctx.repost = True
    out = await tables.change(table_id, None, move)
    if moved:
        await tables.store.release_chat(moved[0], table_id)
    return out


def computers_take_over(ctx: Ctx) -> None:
    """The deadline passed: the computer plays for every person at the table until he comes back."""
    for seat in ctx.table.seats:
        if seat.human:
            seat.auto = True
    cpu.play_computers(ctx.match)


async def close(tables: Tables, table_id: str) -> list[Outgoing]:
    """Close a table its tournament decided without it (a forfeit, a withdrawal, the tournament aborted)."""
    def closing(ctx: Ctx) -> None:
        if not ctx.table.open:
            ctx.keep_table()
            return
        ctx.table.status = "aborted"
    try:
        return await tables.change(table_id, None, closing)
    except Refused:
        return []
