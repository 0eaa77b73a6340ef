"""Button presses: a token parsed, checked against the table it names and carried out.

Only buttons whose effect depends on what the presser saw carry a version that must still hold:
a card or choice of a hand (offers such as doubling or playing alone included) counts if the hand
was rendered as the presser holds it now (its buttons carry the version at which it last changed,
``Table.hand_at``: a hand is not edited for another player's card, and is for every change of its
choices), the rematch only from the current version. Lobby and table verbs (start, join, leave, computer players,
options, "my hand") are checked against the table as it is now, so a press that still makes sense
works from a message one or more versions old. A forged or foreign token is refused as such.
"""

from __future__ import annotations

import engine
from bot.protocol import actarg, tokens
from bot.protocol.outgoing import Command, Outgoing
from bot.service import lobby, mytables, recall, review, tipp
from bot.service.tourney import registration
from bot.service.answer import Ctx
from bot.service.change import Tables, update_key
from bot.service.moves import act, let_pass
from bot.table import window
from bot.table.tipp import OPTION as tipp_option
from bot.table.computer import LEVELS
from bot.table.record import Seat, Table
from bot.table.refused import Refused

__all__ = ["press", "needs_admin", "again", "check_chat"]

_HAND_VERBS = frozenset({"act", "hand", "let_pass", tipp.VERB})
"""Buttons of a player's own hand: pressed in the table's chat or in the presser's private chat."""


async def press(tables: Tables, cmd: Command) -> list[Outgoing]:
    """Carry out the button token of ``cmd``."""
    tok = tokens.parse(cmd.token)
    if tok is None:
        raise Refused("forged")
    if tok.verb in ("rematch", "new"):
        return await again(tables, cmd, tok)
    if tok.verb == mytables.VERB:
        return await mytables.pressed(tables, cmd, tok)
    if tok.verb == review.VERB:
        return await review.pressed(tables, cmd, tok.table, tok.arg)
    if tok.verb in recall.BUTTONS:
        return await recall.pressed(tables, cmd, tok)
    if tok.verb in registration.VERBS:
        return await registration.press(tables, cmd, tok)
    if tok.verb == tipp.VERB:
        return await tipp.ask(tables, cmd, tok.table, lambda ctx: check_chat(ctx, tok.verb))
    if tok.verb in ("join", "leave"):
        await lobby.count_seat_change(tables.store, cmd, tok.table)
    can_write = await lobby.reachable(tables.store, cmd) if tok.verb == "join" else True
    return await tables.change(tok.table, cmd, lambda ctx: _pressed(ctx, tok, can_write, tables))


async def needs_admin(tables: Tables, cmd: Command) -> bool:
    """Whether the press of ``cmd`` is one a chat admin may make besides its owner (a tournament's start by
    someone not its organizer): the adapter then asks the platform, as for the typed command."""
    tok = tokens.parse(cmd.token)
    return tok is not None and await registration.press_needs_admin(tables, cmd, tok)


def check_chat(ctx: Ctx, verb: str) -> None:
    """A button counts only where its table is: the table's chat, or for a hand the presser's private chat."""
    chat, home = ctx.cmd.chat, ctx.table.chat
    if chat.key != home.key and not (verb in _HAND_VERBS and chat.private and chat.platform == home.platform):
        raise Refused("forged")


def _pressed(ctx: Ctx, tok: tokens.Token, can_write: bool, tables: Tables) -> None:
    table, verb = ctx.table, tok.verb
    check_chat(ctx, verb)
    if not table.open and verb != "rules":  # an old button of an ended table (a closed one's are rematch and new)
        raise Refused("table_closed")
    if verb == "act":
        seat, action = _pressed_action(ctx, tok)
        act(ctx, seat, action)
    elif verb == "let_pass":
        let_pass(ctx)
    elif verb == "hand":
        lobby.hand(ctx)
    elif verb == "join":
        lobby.join(ctx, can_write)
    elif verb == "leave":
        lobby.leave(ctx)
    elif verb == "bot":
        if tok.arg and tok.arg not in LEVELS:
            raise Refused("forged")
        table.add_bot(tok.arg or None)
    elif verb == "botx":
        table.remove_bot(None)
    elif verb == "start":
        lobby.start(ctx)
    elif verb == "rules":
        lobby.rules_notice(ctx)
    elif verb in ("opts", "opt", tipp_option):
        lobby.option_button(ctx, verb, tok.arg)
    elif verb == "pace":
        lobby.set_pace(ctx, None, tables.settings)
    else:
        raise Refused("forged")


def _pressed_action(ctx: Ctx, tok: tokens.Token) -> tuple[int, engine.Action]:
    """The presser's seat and the action of his ``act`` button, if it still shows what he holds.

    A card or choice of his hand counts from the version at which the hand last changed on (a
    second tap on the hand his card left is refused, and so is a choice that has gone since). Ledig
    and Karten weg count from any version: their words never change, and a late one is refused with
    the reason.
    """
    if tok.version > ctx.version:
        raise Refused("forged")
    action = actarg.decode(tok.arg)
    if action is None:
        raise Refused("forged")
    seat = ctx.seat()
    if action.kind in window.DECLARE_KINDS:  # its words never change: the engine says whether it still counts
        return seat, action
    if tok.version < ctx.table.hand_since(seat):
        raise Refused("already_played", fresh="hand")
    return seat, action


async def again(tables: Tables, cmd: Command, tok: tokens.Token) -> list[Outgoing]:
    """Rematch (same seats, started at once) or a new lobby for the same game, from a closed table."""
    store = tables.store
    busy = await store.table_for_chat(cmd.chat.key) is not None
    claimed: list[Table] = []

    def claim(ctx: Ctx) -> None:
        claimed.clear()  # only the attempt that counts may claim
        table = ctx.table
        check_chat(ctx, tok.verb)
        if table.open:
            raise Refused("not_finished")
        if table.tourney:  # its pairing is the tournament's to draw; an old button or a typed »revanche«
            raise Refused("tn.no_rematch")
        if tok.verb == "rematch":
            if table.status != "finished":
                raise Refused("not_finished")
            if table.rematched or tok.version != ctx.version:
                raise Refused("already_played")
            if busy:  # refused before the rematch is claimed, so it is not used up for nothing
                raise Refused("table_exists")
            ctx.seat()
            table.rematched = True
        else:
            ctx.quiet = True
        claimed.append(table)
    update = update_key(cmd)
    loaded = await store.load(tok.table) if update and await store.applied(tok.table, update) else None
    if loaded is not None:  # a redelivered press whose claim landed before a crash: open the table now
        claimed.append(Table.load(loaded[1]))
    else:
        refused = await tables.change(tok.table, cmd, claim)
        if not claimed:
            return refused
    old = claimed[-1]
    seats = ([Seat(user=s.user, name=s.name, bot=s.bot, level=s.level) for s in old.seats]
             if tok.verb == "rematch" else None)
    return await lobby.new(tables, cmd, old.lang, (), seats=seats, game=old.game, options=old.options,
                           currency=old.currency, tipps=old.tipps)
