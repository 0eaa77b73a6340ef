"""The lobby and the table's own verbs: open, join, leave, computer seats, options, pace, start, abort.

Each verb is a change of :class:`~bot.service.answer.Ctx` (run by
:meth:`~bot.service.change.Tables.change`), or an async step around it where it creates a table
or asks the store first (:func:`new`, :func:`reachable`, :func:`migrate`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import engine
from bot.ops.settings import LEAST, LONGEST, Settings, parse_duration, short
from bot.protocol.outgoing import ChatRef, Command, JoinLink, Notice, Outgoing, Toast, UserRef
from bot.service.answer import Ctx
from bot.service.change import SAVED, Tables, done_before, log_saved, seconds, update_key
from bot.store.tables import Store
from bot.table import cpu, pace, tipp
from bot.table import options as typed_options
from bot.table.computer import LEVEL_OPTION, level_from
from bot.table.record import Seat, Table
from bot.table.refused import Refused, Text
from bot.words import render, textcmd
from bot.words.i18n import game_name, t
from bot.words.rules import rules_text

__all__ = ["count_seat_change", "SEAT_CHANGES", "SEAT_CHANGES_WINDOW_S", "PAYLOAD", "join_payload", "new",
           "reachable", "migrate", "join", "join_from_link", "leave", "start", "hand", "abort", "rules",
           "rules_notice", "option", "option_button", "set_tipps", "set_pace"]

PAYLOAD = re.compile(r"join-([0-9A-Za-z]{1,16})")
"""The deep-link payload of :func:`join_payload`, with the table id as its group."""


def join_payload(table_id: str) -> str:
    """The deep-link payload that opens the private chat and joins ``table_id`` (<= 64 of ``A-Za-z0-9_-``)."""
    return f"join-{table_id}"


def _join_link(table: Table, user: UserRef) -> JoinLink:
    return JoinLink(user, table.chat, table.id, join_payload(table.id), t(table.lang, "join_link"))


async def reachable(store: Store, cmd: Command) -> bool:
    """Whether the bot may write to the sender in private (the adapter knows, or he wrote there once)."""
    if cmd.chat.private or cmd.reachable is not None:
        return cmd.chat.private or cmd.reachable
    return await store.get_chat_setting(cmd.user.key, "dm") is not None


async def new(tables: Tables, cmd: Command, lang: str, args: tuple[str, ...], seats: list[Seat] | None = None,
              game: str | None = None, options: dict | None = None, currency: str = "Fr.",
              tipps: bool | None = None) -> list[Outgoing]:
    """Open a table in the command's chat; a private chat (or a rematch, with ``seats``) starts at once.

    A rematch or a new table from a closed one keeps its game, options, ``currency`` and ``tipps``."""
    store, settings = tables.store, tables.settings
    players = len(seats) if seats else None
    if game is None:
        game, players, options = textcmd.new_args(args)
    cls = engine.game_class(game)
    lo, hi = cls.PLAYERS
    n = players or cls.DEFAULT_PLAYERS
    if not lo <= n <= hi:
        raise Refused("bad_players" if lo < hi else "bad_players_exact", game=game_name(game, lang), lo=lo, hi=hi,
                      count=t(lang, f"count.{lo}") if lo == hi else lo)
    level = _level((options or {}).get(LEVEL_OPTION))
    opts = typed_options.parse(game, {k: v for k, v in (options or {}).items() if k != LEVEL_OPTION})
    await _room_for(tables, cmd, lobby=seats is None and not cmd.chat.private)
    now = tables.clock()
    table = Table(id=store.new_id(), chat=cmd.chat, game=game, n=n,
                  options=opts.model_dump(exclude_defaults=True), lang=lang, opener=cmd.user.key,
                  seats=seats or [Seat() for _ in range(n)], remind=seconds(settings.reminder_after),
                  auto=seconds(settings.autoplay_after), created=now, since=now, level=level, currency=currency,
                  tipps=tipps)
    if seats is None:
        table.join(cmd.user)
    update = update_key(cmd)
    if not await store.create(table.id, cmd.chat.key, table.dump(), table.user_keys(), update=update):
        other = await store.table_for_chat(cmd.chat.key) if update else None
        if other and await store.applied(other, update):
            return done_before()  # its table was created: by another process, or by this one before a crash
        raise Refused("table_exists")
    SAVED.set(True)
    if tables.counts:
        await tables.counts.note(table.id, table.status, now)
    log_saved(table, 1, cmd, "")
    await store.set_chat_setting(cmd.chat.key, "last", table.id)
    if table.status == "lobby" and not cmd.chat.private:
        await store.note_in_chat(cmd.chat.group, table.id)
    if cmd.chat.private or seats is not None:
        return await tables.change(table.id, replace(cmd, update_id=""), start)  # create marked it
    out: list[Outgoing] = [render.table_message(table, None, 1, now)]
    if not await reachable(store, cmd):
        out.append(_join_link(table, cmd.user))
    return out


def _level(value) -> str:
    """The computer players' level given with a new table (``level=stark``), ``normal`` if none."""
    if value is None:
        return "normal"
    return level_from(value if isinstance(value, str) else "")


async def _room_for(tables: Tables, cmd: Command, lobby: bool) -> None:
    """Refuse a new table to a person at too many open tables, and a new ``lobby`` in a chat with too many."""
    store, settings = tables.store, tables.settings
    if len(await store.tables_for_user(cmd.user.key)) >= settings.max_tables_per_user:
        raise Refused("too_many_tables", most=settings.max_tables_per_user)
    if not lobby:
        return
    chat = cmd.chat.group
    waiting, started = [], []
    for table_id in await store.tables_in_chat(chat):
        loaded = await store.load(table_id)
        (waiting if loaded and Table.load(loaded[1]).status == "lobby" else started).append(table_id)
    await store.forget_in_chat(chat, started)
    if len(waiting) >= settings.max_lobbies_per_chat:
        raise Refused("too_many_lobbies", most=settings.max_lobbies_per_chat)


async def migrate(tables: Tables, old: ChatRef, new_chat_id: str) -> list[Outgoing]:
    """A group got a new chat id (Telegram's upgrade to a supergroup): its table and language move along."""
    store = tables.store
    moved = replace(old, chat_id=new_chat_id)
    lang = await store.get_chat_setting(old.key, "lang")
    if lang is not None:
        await store.set_chat_setting(moved.key, "lang", lang)
    table_id = await store.table_for_chat(old.key)
    if table_id is None:
        return []

    def move(ctx: Ctx) -> None:
        ctx.table.chat = replace(ctx.table.chat, chat_id=new_chat_id)
        ctx.repost = True

    mover = UserRef(old.platform, "migration")
    out = await tables.change(table_id, Command(moved, mover, verb="migrate", args=(new_chat_id,)), move)
    await store.release_chat(old.key, table_id)
    return out


# ---------------------------------------------------------------------- seats
SEAT_CHANGES = 10
"""How often one person may join or leave one table within :data:`SEAT_CHANGES_WINDOW_S` (each is a save
and an entry of its move log, and the table message's edit in the group)."""
SEAT_CHANGES_WINDOW_S = 600.0


async def count_seat_change(store: Store, cmd: Command, table_id: str) -> None:
    """Count a join or leave by the sender at the table, typed or pressed; refused beyond :data:`SEAT_CHANGES`
    in the window (a sliding window in Redis, per person and table, shared by every process)."""
    key = f"seats:{table_id}:{cmd.user.key}"
    if await store.limiter.wait_time(key, SEAT_CHANGES, SEAT_CHANGES_WINDOW_S) > 0:
        raise Refused("seat_changes")


def join(ctx: Ctx, can_write: bool) -> None:
    """Seat the user and offer the link to the private chat if the bot may not write there yet.

    When the adapter asked the platform and the bot cannot write to him, he only gets the link,
    which seats him (like the button): nobody sits at a table whose cards cannot reach him.
    """
    if ctx.cmd.reachable is False:
        ctx.keep_table()
        if ctx.table.seat_of(ctx.user.key) is None:
            ctx.table.model_copy(deep=True).join(ctx.user)  # a full or running table is refused first
        ctx.out.append(_join_link(ctx.table, ctx.user))
        return
    ctx.table.join(ctx.user)
    if not can_write:
        ctx.out.append(_join_link(ctx.table, ctx.user))


def join_from_link(ctx: Ctx) -> None:
    """The deep link of :func:`join_payload` was opened: seat the user, or show his hand if he sits."""
    table = ctx.table
    seat = table.seat_of(ctx.user.key)
    if seat is None:
        table.join(ctx.user)
    else:
        ctx.keep_table()
        if table.status == "playing":
            ctx.hands.add(seat)
    ctx.out.append(Toast(ctx.user, ctx.cmd.chat,
                         t(table.lang, "joined_from_link", chat=table.chat.title or table.chat.chat_id)))


def leave(ctx: Ctx) -> None:
    """The user leaves; during a match a computer takes his seat, and a table without people closes."""
    table = ctx.table
    name = table.seats[ctx.seat()].name
    table.leave(ctx.user.key)
    if table.status == "playing" and not table.humans():
        table.status = "aborted"
        ctx.out.append(Notice(table.chat, t(table.lang, "closed_no_humans", name=name), table_id=table.id))
    elif table.status == "playing":
        ctx.lead.append(Notice(table.chat, t(table.lang, "left_playing", name=name), table_id=table.id))
        cpu.play_computers(ctx.match)


# ---------------------------------------------------------------------- the match
def start(ctx: Ctx) -> None:
    """Deal the first deal (free seats get computer players); only a person at the table starts it."""
    table = ctx.table
    if table.status != "lobby":
        raise Refused("game_running" if table.status == "playing" else "table_closed")
    ctx.seat()  # only a person at the table starts it, the opener too: a table of computers never starts
    ctx.match.start()
    cpu.play_computers(ctx.match)


def hand(ctx: Ctx) -> None:
    """Send the presser his hand again."""
    seat = ctx.seat()
    if ctx.table.status != "playing":
        raise Refused("not_started")
    ctx.keep_table()
    ctx.hands.add(seat)


def abort(ctx: Ctx) -> None:
    """A vote to abort the match: a majority of the people at the table ends it."""
    table = ctx.table
    if table.vote_abort(ctx.user.key):
        ctx.out.append(Notice(table.chat, t(table.lang, "aborted"), table_id=table.id))
        return
    need = len(table.humans()) // 2 + 1
    votes = len([v for v in table.votes if table.seat_of(v) is not None])
    name = table.seats[ctx.seat()].name
    ctx.out.append(Notice(table.chat, t(table.lang, "abort_vote", name=name, votes=votes, need=need),
                          table_id=table.id))


def rules_notice(ctx: Ctx) -> None:
    """The table's rules as a notice to the chat."""
    table = ctx.table
    ctx.keep_table()
    ctx.out.append(Notice(table.chat, rules_text(table.game, table.options, table.lang, table.n, table.currency),
                          table_id=table.id))


# ---------------------------------------------------------------------- options and pace
def option(ctx: Ctx, args: tuple[str, ...], settings: Settings) -> None:
    """``option <name> <value>``: the opener sets a game option, a timer, the computers' level or the pace.

    During play only the level and Rams' currency may change, and a timer only to a longer time (or
    off): shorter timers, the pace and the game's options are set in the lobby.
    """
    table = ctx.table
    names = [*engine.option_specs(table.game), *typed_options.DURATIONS, LEVEL_OPTION, "pace"]
    if table.game == "rams":
        names.append(typed_options.CURRENCY)
    names.append(tipp.OPTION)
    if len(args) != 2:
        raise Refused("option_unknown", names=", ".join(names))
    if args[0] not in names:
        raise Refused("unknown_option", name=args[0], names=", ".join(names))
    _opener_only(ctx)
    if args[0] == "pace":
        set_pace(ctx, args[1], settings)
        return
    name, value = args
    if name == LEVEL_OPTION:
        table.set_level(level_from(value))
        return
    if name == typed_options.CURRENCY:
        table.currency = typed_options.currency(value)
        return
    if name == tipp.OPTION:
        set_tipps(table, typed_options.switch(name, value))
        return
    if name in typed_options.DURATIONS:
        _set_timer(table, name, value)
        return
    try:
        value = typed_options.parse_text(table.game, name, value)
    except engine.OptionError as exc:
        raise typed_options.refusal(exc) from None
    _set_option(table, name, value)


def _set_timer(table: Table, name: str, value: str) -> None:
    """Set a timer (reminder, automatic move, wait for declarations); during play only to a longer time (or off)."""
    try:
        secs = seconds(parse_duration(value, LEAST[name]))
    except ValueError:
        raise Refused("bad_option_value", name=typed_options.named(name), allowed=Text(
            "allowed.duration", lo=short(LEAST[name]), hi=short(LONGEST))) from None
    field = typed_options.DURATIONS[name]
    now = getattr(table, field)
    if table.status == "playing" and secs is not None and (now is None or secs < now):
        raise Refused("timers_only_longer")
    setattr(table, field, secs)


def option_button(ctx: Ctx, verb: str, arg: str) -> None:
    """The lobby's option buttons: show or hide them (``opts``), or step one option to its next value (``opt``)."""
    table = ctx.table
    if table.status != "lobby":
        raise Refused("game_running")
    _opener_only(ctx)
    if verb == "opts":
        table.show_opts = arg == "1"
        return
    if verb == tipp.OPTION:
        set_tipps(table, not tipp.allows(table))
        return
    fields = render.option_fields(table.game)
    if not (arg.isascii() and arg.isdecimal()) or int(arg) >= len(fields):
        raise Refused("forged")
    name, values = fields[int(arg)]
    current = getattr(engine.parse_options(table.game, table.options), name)
    _set_option(table, name, values[(values.index(current) + 1) % len(values)])


def set_tipps(table: Table, on: bool) -> None:
    """Allow or forbid hints (»Tipp«) at the table: in the lobby only, and never at a tournament's table."""
    if table.tourney:
        raise Refused("tipp.tourney")
    if table.status != "lobby":
        raise Refused("game_running")
    table.tipps = on


def set_pace(ctx: Ctx, word: str | None, settings: Settings) -> None:
    """The opener sets the table's pace (``word``; ``None``: the next preset, for the lobby button)."""
    table = ctx.table
    _opener_only(ctx)
    preset = pace.next_pace(table) if word is None else pace.pace_of(word)
    if preset is None:
        raise Refused("pace_unknown")
    pace.set_pace(table, preset, seconds(settings.reminder_after), seconds(settings.autoplay_after))


def _opener_only(ctx: Ctx) -> None:
    """Refuse anyone but the opener, who must still sit at the table."""
    ctx.seat()
    table = ctx.table
    if not table.is_opener(ctx.user.key):
        seat = table.seat_of(table.opener)
        raise Refused("only_opener", name=table.seats[seat].name if seat is not None
                      else table.opener.partition(":")[2])


def _set_option(table: Table, name: str, value: Any) -> None:
    if table.status != "lobby":
        raise Refused("game_running")
    opts = typed_options.parse(table.game, {**table.options, name: value})
    table.options = opts.model_dump(exclude_defaults=True)
