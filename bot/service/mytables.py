"""»Meine Tische« (``tische``, ``tables``): every open table a person sits at on his platform, in his private chat.

The tables come from the store's index of his tables (:meth:`~bot.store.tables.Store.records_for_user`):
his records only, read in one round trip, never a scan. His turns come first, the automatic move due
soonest first; then the tables waiting on others, the longest waiting first; then the lobbies. At most
``max_tables_per_user`` rows, :data:`PAGE_ROWS` a page, paged by buttons (token
``st1:mine:<page>:tables:``). Asked in a group, nothing is listed there: he is told to ask privately.
"""

from __future__ import annotations

import asyncio
import math

from bot.protocol import tokens
from bot.protocol.outgoing import Button, ChatRef, Command, ListedTable, Outgoing, TableList, UserRef
from bot.service.answer import chat_lang
from bot.service.change import Tables
from bot.table import deadlines
from bot.table.record import Table
from bot.table.refused import Refused
from bot.words import mytables
from bot.words.buttons import button_token
from bot.words.i18n import t

__all__ = ["typed", "pressed", "listing", "seated", "VERB", "PAGE_ROWS"]

VERB = "tables"
"""The verb of a page button."""
PAGE_ROWS = 8
"""Rows a page: eight lines of a long chat name stay far below Discord's 2,000 characters."""
_PAGE_TABLE = "mine"
"""What a page button's token names instead of a table."""


async def typed(tables: Tables, cmd: Command) -> list[Outgoing]:
    """``tische`` typed: the first page in his private chat; in a group a refusal (nothing is listed there)."""
    if not cmd.chat.private:
        raise Refused("mt.only_private")
    return [await listing(tables, cmd.user, cmd.chat, await chat_lang(tables.store, cmd, tables.settings.lang), 0)]


async def pressed(tables: Tables, cmd: Command, tok: tokens.Token) -> list[Outgoing]:
    """A page button: that page (in his private chat only)."""
    if tok.table != _PAGE_TABLE or tok.arg or not cmd.chat.private:
        raise Refused("forged")
    return [await listing(tables, cmd.user, cmd.chat, await chat_lang(tables.store, cmd, tables.settings.lang),
                          tok.version)]


def _order(item: tuple[Table, int, int]) -> tuple:
    """His turns first, the soonest automatic move first; then others' turns, the longest waiting first; lobbies."""
    table, seat, _ = item
    if table.status == "lobby":
        return (2, table.created, table.id)
    to_act = (table.state or {}).get("to_act")
    if to_act == seat:
        at = deadlines.auto_at(table)
        return (0, math.inf if at is None else at, table.id)
    return (1, table.since, table.id)


async def listing(tables: Tables, user: UserRef, chat: ChatRef, lang: str, page: int) -> TableList:
    """Page ``page`` (0-based, held to the last) of ``user``'s open tables, for his private ``chat``; his records
    are read into tables and sorted in a worker thread, off the event loop."""
    records = await tables.store.records_for_user(user.key)
    return await asyncio.to_thread(_page, [r.data for _, r in records], [r.version for _, r in records], user, chat,
                                   lang, page, tables.clock(), tables.settings.max_tables_per_user)


def seated(data: list[str], versions: list[int], user_key: str,
           platform: str | None = None) -> list[tuple[Table, int, int]]:
    """His open tables among the records ``data`` (their ``versions``), as ``(table, his seat, version)`` in the
    list's order (:func:`_order`); only those whose chat is on ``platform`` if given. A broken record is left
    out: its table fails where it is played, his list goes on without it. CPU work: call it off the loop."""
    found = []
    for record, version in zip(data, versions):
        try:
            table = Table.load(record)
        except ValueError:
            continue
        seat = table.seat_of(user_key)
        if table.open and seat is not None and (platform is None or table.chat.platform == platform):
            found.append((table, seat, version))
    found.sort(key=_order)
    return found


def _page(data: list[str], versions: list[int], user: UserRef, chat: ChatRef, lang: str, page: int, now: float,
          cap: int) -> TableList:
    seated_here = seated(data, versions, user.key, user.platform)[:cap]
    pages = max(1, math.ceil(len(seated_here) / PAGE_ROWS))
    page = min(max(page, 0), pages - 1)
    rows = tuple(
        ListedTable(table.id, table.chat, mytables.row_text(no, table, seat, lang, now),
                    t(lang, "mt.go", no=no, chat=mytables.chat_name(table, lang)),
                    Button(t(lang, "mt.hand", no=no, chat=mytables.chat_name(table, lang)),
                           button_token(table, version, "hand"))
                    if table.status == "playing" else None)
        for no, (table, seat, version) in enumerate(seated_here[page * PAGE_ROWS:(page + 1) * PAGE_ROWS],
                                                    start=page * PAGE_ROWS + 1))
    turn = [Button(t(lang, key), tokens.make(_PAGE_TABLE, to, VERB))
            for key, to in (("mt.prev", page - 1), ("mt.next", page + 1)) if 0 <= to < pages]
    return TableList(user, chat, mytables.head_text(lang, len(seated_here), page, pages), rows, tuple(turn))
