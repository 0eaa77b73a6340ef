"""»Nachbesprechung«: a person asks for the review of a finished deal he played, and gets it privately.

Asked by the review button of the table message (its token names the deal) or by typing ``nachbesprechung``
(``review``), which takes the last finished deal of the chat's table (its open one, else the one that just
ended; in a private chat the one table of his with a finished deal). A deal can be reviewed as long as its
table's move log is kept (:mod:`bot.table.deal_log`): while its match runs, and a finished table's time
after it ends. The search runs off the event loop in a small pool of threads of its own, at most
:data:`WORKERS` at once and :data:`WAITING` waiting in each process, and one per person at a time across
processes (:class:`bot.store.reviews.Reviews`); a review made is kept as long as a finished table and
answers the next asking at once.
"""

from __future__ import annotations

import asyncio
import zlib
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bot.protocol.outgoing import Command, Outgoing, PrivateText
from bot.service import budget
from bot.service.change import Tables
from bot.store.tables import Store
from bot.table import deal_log, review
from bot.table.record import Table
from bot.table.refused import Refused
from bot.words.review_steps import chat_text, review_steps

__all__ = ["typed", "pressed", "steps", "VERB", "WORKERS", "WAITING"]

VERB = "review"
"""The review button's token verb; its argument is the deal's number."""
WORKERS = 1
"""How many reviews one process makes at once."""
WAITING = 4
"""How many more may wait for a worker in one process; whoever asks beyond is told to try again soon."""
_PRIVATE_TABLES = 20
"""How many of a user's tables ``nachbesprechung`` typed in his private chat looks through."""


class _Pool:
    """The threads that make reviews, and how many are asked for (under way or waiting)."""

    def __init__(self) -> None:
        self._threads: ThreadPoolExecutor | None = None
        self.asked = 0

    async def run(self, fn, *args) -> Any:
        """``fn(*args)`` in a review thread; :class:`Refused` at once when :data:`WAITING` wait already."""
        if self.asked >= WORKERS + WAITING:
            raise Refused("rv.busy")
        if self._threads is None:
            self._threads = ThreadPoolExecutor(WORKERS, thread_name_prefix="review")
        self.asked += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._threads, fn, *args)
        finally:
            self.asked -= 1


_POOL = _Pool()


async def typed(tables: Tables, cmd: Command) -> list[Outgoing]:
    """``nachbesprechung`` typed: the last finished deal of the chat's table (or, privately, of his one table).

    In a group it counts against his answers per minute before any work (:func:`bot.service.budget.charge`)."""
    if not cmd.chat.private and (held := await budget.charge(tables.store, tables.settings, cmd)) is not None:
        return held
    table = await _chat_table(tables.store, cmd)
    return await _answer(tables, cmd, table, table.deals_over)


async def pressed(tables: Tables, cmd: Command, table_id: str, arg: str) -> list[Outgoing]:
    """The review button of the table message, pressed in the table's chat: the deal it names."""
    table = await _load(tables.store, table_id)
    if table is None:
        raise Refused("rv.gone")
    if cmd.chat.key != table.chat.key or not arg.isdecimal() or len(arg) > 6:
        raise Refused("forged")
    return await _answer(tables, cmd, table, int(arg))


async def steps(tables: Tables, table_id: str, user_key: str, no: int | None = None) -> dict[str, Any]:
    """The web table's step-through of the review of deal ``no`` (``None``: the last finished one) for the
    person ``user_key`` (:func:`bot.words.review_steps.review_steps`), or ``{"refused": <text key>}``."""
    table = await _load(tables.store, table_id)
    if table is None:
        return {"refused": "rv.gone"}
    try:
        no = table.deals_over if no is None else no
        deal, seat, decisions = await _reviewed(tables, table, user_key, no)
    except Refused as r:
        return {"refused": r.key, "lang": table.lang}
    return await asyncio.to_thread(review_steps, table, deal, seat, decisions)


async def _answer(tables: Tables, cmd: Command, table: Table, no: int) -> list[Outgoing]:
    deal, seat, decisions = await _reviewed(tables, table, cmd.user.key, no)
    text = await asyncio.to_thread(chat_text, table, deal, seat, decisions)
    return [PrivateText(cmd.user, cmd.chat, text, table.id)]


async def _reviewed(tables: Tables, table: Table, user_key: str, no: int) -> tuple[deal_log.Deal, int, list[dict]]:
    """Deal ``no`` of ``table``, the seat ``user_key`` played in it, and his judged decisions (made now, or kept)."""
    store = tables.store
    if no < 1:
        raise Refused("rv.none")
    entries = await store.log(table.id)
    deal = await asyncio.to_thread(deal_log.finished_deal, entries, no)
    if deal is None:
        raise Refused("rv.none" if no > table.deals_over else "rv.gone")
    seat = deal.seat_of(user_key, table.seat_of(user_key))
    if seat is None:
        raise Refused("rv.not_player", no=no)
    kept = await store.reviews.get(table.id, no, seat)
    if kept is not None:
        return deal, seat, kept
    if not await store.reviews.claim(user_key):
        raise Refused("rv.running")
    try:
        seed = zlib.crc32(f"{table.id}:{no}:{seat}".encode())
        decisions = await _POOL.run(review.review, deal, seat, tables.settings.review_samples, seed)
        await store.reviews.put(table.id, no, seat, decisions)
    finally:
        await store.reviews.release(user_key)
    return deal, seat, decisions


async def _load(store: Store, table_id: str) -> Table | None:
    loaded = await store.load(table_id)
    return Table.load(loaded[1]) if loaded is not None else None


async def _chat_table(store: Store, cmd: Command) -> Table:
    """The table ``nachbesprechung`` asks about: the chat's open table, else its last; privately his one table
    with a finished deal."""
    table_id = await store.table_for_chat(cmd.chat.key) or await store.get_chat_setting(cmd.chat.key, "last")
    table = await _load(store, table_id) if table_id else None
    if table is not None:
        return table
    if not cmd.chat.private:
        raise Refused("rv.none")
    mine = [tb for table_id in (await store.tables_for_user(cmd.user.key))[:_PRIVATE_TABLES]
            if (tb := await _load(store, table_id)) is not None and tb.sheet]
    if not mine:
        raise Refused("rv.none")
    if len(mine) > 1:
        raise Refused("rv.which")
    return mine[0]
