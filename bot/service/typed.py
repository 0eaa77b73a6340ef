"""Typed commands: ``/neu bauer``, ``/mitspielen``, ``spiel Herz Ass`` and the chats' own settings.

A command is parsed by :mod:`bot.words.textcmd`; what needs no table (help, language, notification
and quiet-hours preferences, a vacation, opening a table, the rules of a game) is answered at once, the rest
is a change of the chat's table, or in a private chat of the sender's one running table.
"""

from __future__ import annotations

import contextlib

import engine
from bot.ops.clock import hhmm
from bot.protocol import tokens
from bot.protocol.outgoing import Command, Notice, Outgoing
from bot.service import lobby, mytables, recall, review, tipp, vacation
from bot.service.tourney import registration
from bot.service.answer import Ctx, chat_lang
from bot.service.change import Tables
from bot.service.moves import act, let_pass
from bot.service.presses import again
from bot.table import digest, notify, pace
from bot.table.computer import level_from
from bot.table.record import Table
from bot.table.refused import Refused
from bot.words import story, textcmd
from bot.words.i18n import game_name, supported, t
from bot.words.rules import rules_text

__all__ = ["typed", "needs_admin"]

_CHAT_SETTINGS = ("language", "quiet", "timezone")
"""Verbs that change the whole chat's settings: during play only its players (or an admin) may."""

_PRIVATE_TABLES = 20
"""How many of a user's tables a move typed in the private chat looks at for the one running table."""


async def typed(tables: Tables, cmd: Command) -> list[Outgoing]:
    """Carry out the typed command ``cmd``."""
    store = tables.store
    if cmd.chat.private:
        await store.set_chat_setting(cmd.user.key, "dm", "1")
    verb = cmd.verb.strip()
    if cmd.chat.private and verb.lower().lstrip("/") == "start" and cmd.args:
        m = lobby.PAYLOAD.fullmatch(cmd.args[0])
        if m:
            return await tables.change(m.group(1), cmd, lobby.join_from_link)
    parsed = textcmd.parse(verb, cmd.args) if verb else None
    if parsed is None:
        raise Refused("unknown_command", verb=verb)
    lang = await chat_lang(store, cmd, tables.settings.lang)
    if not cmd.admin and parsed.name != "tournament" and await needs_admin(tables, cmd, parsed):  # it checks its own
        raise Refused("mem.admins_only" if parsed.kind == "memory" else "chat_settings_players")
    if parsed.kind == "memory":
        return await recall.typed(tables, cmd, parsed, lang)
    if parsed.kind == "table":
        if parsed.name == "help":
            return [_help(cmd, lang)]
        if parsed.name == "language":
            return await _language(tables, cmd, parsed.args)
        if parsed.name in ("notify", "quiet", "timezone"):
            return [await _chat_pref(tables, cmd, parsed, lang)]
        if parsed.name == "vacation":
            return await vacation.typed(tables, cmd, parsed.args, lang)
        if parsed.name == "tables":
            return await mytables.typed(tables, cmd)
        if parsed.name == "new":
            return await lobby.new(tables, cmd, lang, parsed.args)
        if parsed.name == "tournament":
            return await registration.typed(tables, cmd, parsed.args, lang)
        if parsed.name == "review":
            return await review.typed(tables, cmd)
        if parsed.name == "rules" and parsed.args:
            game = textcmd.game_id(parsed.args[0])
            if game is None:
                raise Refused("unknown_game", word=parsed.args[0], games=textcmd.games_text())
            return [Notice(cmd.chat, rules_text(game, {}, lang))]
    table_id = await store.table_for_chat(cmd.chat.key)
    if table_id is None and parsed.kind == "table" and parsed.name == "rematch":
        return await _typed_rematch(tables, cmd)
    if table_id is None and parsed.kind == "table" and parsed.name in ("sheet", "rules"):
        last = await _last_table(tables, cmd)
        if last is not None and parsed.name == "sheet":
            return [Notice(cmd.chat, story.sheet_text(last), table_id=last.id)]
        if last is not None:  # the rules of the match just played
            return [Notice(cmd.chat, rules_text(last.game, last.options, last.lang, last.n, last.currency))]
        if parsed.name == "sheet":
            raise Refused("no_table")
    if table_id is None and parsed.kind == "table" and parsed.name == "hand" and cmd.chat.private:
        return await _all_hands(tables, cmd)
    if table_id is None and (parsed.kind == "action" or parsed.name == tipp.VERB) and cmd.chat.private:
        table_id = await _only_running_table(tables, cmd)
    if table_id is None:
        if parsed.kind == "table" and parsed.name in ("start", "rules", "table", "hand"):
            return [_help(cmd, lang)]
        raise Refused("no_table")
    if parsed.kind == "action":
        return await tables.change(table_id, cmd, lambda ctx: _typed_action(ctx, parsed))
    if parsed.name == tipp.VERB:
        return await tipp.ask(tables, cmd, table_id)
    if parsed.name in ("join", "leave"):
        await lobby.count_seat_change(store, cmd, table_id)
    can_write = parsed.name != "join" or await lobby.reachable(store, cmd)
    return await tables.change(table_id, cmd, lambda ctx: _table_verb(ctx, parsed, can_write, tables))


async def needs_admin(tables: Tables, cmd: Command, parsed: textcmd.Parsed | None = None) -> bool:
    """Whether ``cmd`` changes the chat's language, quiet hours or time zone while a match runs in the
    chat without the user at the table, or starts a new season of a group's memory: then only a chat admin
    may (showing them is for anyone); or starts or aborts a tournament he did not open, which its
    organizer or a chat admin may."""
    if parsed is None:
        parsed = textcmd.parse(cmd.verb.strip(), cmd.args) if cmd.verb.strip() else None
    if parsed is not None and parsed.kind == "memory":
        return recall.needs_admin(cmd, parsed)
    if parsed is not None and parsed.kind == "table" and parsed.name == "tournament":
        return await registration.needs_admin(tables, cmd, parsed.args)
    if parsed is None or parsed.kind != "table" or parsed.name not in _CHAT_SETTINGS or not parsed.args:
        return False
    table_id = await tables.store.table_for_chat(cmd.chat.key)
    loaded = await tables.store.load(table_id) if table_id else None
    if loaded is None:
        return False
    table = Table.load(loaded[1])
    return table.status == "playing" and table.seat_of(cmd.user.key) is None


async def _only_running_table(tables: Tables, cmd: Command) -> str:
    """A move typed in the private chat goes to the user's one running table; with several he is asked which."""
    running = []
    for table_id in (await tables.store.tables_for_user(cmd.user.key))[:_PRIVATE_TABLES]:
        loaded = await tables.store.load(table_id)
        if loaded is not None and Table.load(loaded[1]).status == "playing":
            running.append(Table.load(loaded[1]))
    if not running:
        raise Refused("no_hands")
    if len(running) > 1:
        raise Refused("which_table", tables=", ".join(
            f"{game_name(tb.game, tb.lang)} ({tb.chat.title or tb.chat.chat_id})" for tb in running))
    return running[0].id


async def _typed_rematch(tables: Tables, cmd: Command) -> list[Outgoing]:
    """``revanche`` typed after the match: the rematch button of the chat's last table."""
    last = await tables.store.get_chat_setting(cmd.chat.key, "last")
    loaded = await tables.store.load(last) if last else None
    if loaded is None:
        raise Refused("no_table")
    return await again(tables, cmd, tokens.Token(last, loaded[0], "rematch"))


async def _last_table(tables: Tables, cmd: Command) -> Table | None:
    """The chat's last table after its match (for ``zettel`` and ``regeln``), for as long as it is kept."""
    last = await tables.store.get_chat_setting(cmd.chat.key, "last")
    loaded = await tables.store.load(last) if last else None
    return Table.load(loaded[1]) if loaded is not None else None


async def _all_hands(tables: Tables, cmd: Command) -> list[Outgoing]:
    """``hand`` in the private chat: the user's hand at every table he sits at."""
    out: list[Outgoing] = []
    for table_id in await tables.store.tables_for_user(cmd.user.key):
        with contextlib.suppress(Refused):
            out += await tables.change(table_id, cmd, lobby.hand)
    if not out:
        raise Refused("no_hands")
    return out


def _help(cmd: Command, lang: str) -> Notice:
    return Notice(cmd.chat, t(lang, "help", games=textcmd.games_text()))


async def _chat_pref(tables: Tables, cmd: Command, parsed: textcmd.Parsed, lang: str) -> Notice:
    """``benachrichtigung``, ``ruhezeit`` and ``zeitzone``: set (or with no words, show) the chat's choice."""
    store, settings = tables.store, tables.settings
    if parsed.name == "notify" and parsed.args and notify.mode_of(parsed.args[:1]) == notify.DAILY:
        chosen = await digest.choose(store, cmd.chat, cmd.user, parsed.args[1:], lang, settings, tables.clock())
        return Notice(cmd.chat, t(lang, "notify.daily_at", hour=chosen.hhmm, zone=chosen.zone))
    if parsed.name == "notify":
        mode = await notify.choose(store, cmd.chat, cmd.user, parsed.args)
        return Notice(cmd.chat, t(lang, f"notify.{mode}", name=cmd.user.name or cmd.user.user_id))
    if parsed.name == "timezone":
        zone = await pace.set_zone(store, cmd.chat, parsed.args, settings)
        return Notice(cmd.chat, t(lang, "tz_set", zone=zone))
    quiet, zone = await pace.set_quiet(store, cmd.chat, parsed.args, settings)
    if quiet is None:
        return Notice(cmd.chat, t(lang, "quiet_off"))
    start, end = hhmm(quiet).split("-")
    return Notice(cmd.chat, t(lang, "quiet_set", start=start, end=end, zone=zone))


async def _language(tables: Tables, cmd: Command, args: tuple[str, ...]) -> list[Outgoing]:
    lang = args[0].lower() if args else ""
    if not supported(lang):
        raise Refused("lang_unknown")
    await tables.store.set_chat_setting(cmd.chat.key, "lang", lang)
    notice = Notice(cmd.chat, t(lang, "lang_set"))
    table_id = await tables.store.table_for_chat(cmd.chat.key)
    if table_id is None:
        return [notice]

    def switch(ctx: Ctx) -> None:
        ctx.table.lang = lang
        ctx.hands.update(ctx.table.humans() if ctx.table.status == "playing" else ())
        ctx.out.append(notice)
    return await tables.change(table_id, cmd, switch)


def _table_verb(ctx: Ctx, parsed: textcmd.Parsed, can_write: bool, tables: Tables) -> None:
    name, args, table = parsed.name, parsed.args, ctx.table
    if name == "join":
        lobby.join(ctx, can_write)
    elif name == "leave":
        lobby.leave(ctx)
    elif name == "seat":
        table.move(ctx.user, textcmd.seat_number(args, table.n))
    elif name == "computer":
        if args and args[0].lower() in ("weg", "remove", "raus", "-", "rm"):
            table.remove_bot(textcmd.seat_number(args[1:], table.n) if args[1:] else None)
        else:
            table.add_bot(level_from(args[0]) if args else None)
    elif name == "start":
        lobby.start(ctx)
    elif name == "hand":
        lobby.hand(ctx)
    elif name == "table":
        ctx.quiet = True
        ctx.repost = True
    elif name == "abort":
        lobby.abort(ctx)
    elif name == "rematch":
        raise Refused("not_finished")
    elif name == "rules":
        lobby.rules_notice(ctx)
    elif name == "let_pass":
        let_pass(ctx)
    elif name == "sheet":
        ctx.keep_table()
        ctx.out.append(Notice(table.chat, story.sheet_text(table), table_id=table.id))
    elif name == "option":
        lobby.option(ctx, args, tables.settings)
    elif name == "pace":
        lobby.set_pace(ctx, " ".join(args), tables.settings)
    else:  # "new", "help", "language" were handled before loading a table
        raise Refused("unknown_command", verb=name)


def _typed_action(ctx: Ctx, parsed: textcmd.Parsed) -> None:
    seat = ctx.seat()
    match = ctx.match
    if not match.running:
        raise Refused("not_started" if ctx.table.status == "lobby" else "deal_over")
    state = match.state
    legal = engine.legal_actions(state) if state.to_act == seat else state.offers_for(seat)
    try:
        act(ctx, seat, textcmd.action_for(parsed.name, parsed.args, legal, engine.view(state, seat)))
    except Refused as r:
        # a refusal explains the hand ("you must follow suit", "you don't hold it"): not in a group
        if r.key.startswith("hint.") and not ctx.cmd.chat.private:
            raise Refused("use_hand_buttons") from None
        raise
