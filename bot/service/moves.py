"""Engine actions at a table: apply one for a seat, let the computers answer, explain a rejection."""

from __future__ import annotations

import engine
from bot.service.answer import Ctx
from bot.table import cpu, window
from bot.table.refused import Refused
from bot.words import render
from bot.words.buttons import declare_label
from bot.words.i18n import hint_key, t
from engine.actions import PLAY

__all__ = ["act", "rejection", "let_pass"]

_REJECTED = {engine.Code.DEAL_OVER: "deal_over", engine.Code.WRONG_PHASE: "wrong_phase",
             engine.Code.NOT_YOUR_TURN: "not_your_turn"}


def rejection(rej: engine.Rejected, action: engine.Action, to_act: str) -> Refused:
    """The refusal of an engine action the engine rejected; ``to_act`` names who is to act."""
    if rej.code == engine.Code.WRONG_PHASE and action.kind == PLAY:  # the hand shows its cards before the play
        return Refused("play_not_yet")
    if rej.code in _REJECTED:
        return Refused(_REJECTED[rej.code], name=to_act)
    if action.meld and rej.hint != "not_in_hand":  # the hand shows its melds all the time
        return Refused("hint.meld_lead")
    return Refused(hint_key(rej.hint))


def act(ctx: Ctx, seat: int, action: engine.Action) -> None:
    """Apply ``action`` for ``seat`` (a refusal if the engine rejects it), then the computers' moves.

    The seat to lead waits while another person may still declare playing alone (:mod:`bot.table.window`).
    """
    table = ctx.table
    if action.kind == PLAY and table.declare and seat == ctx.match.to_act():
        raise _still_declaring(ctx)
    try:
        ctx.match.act(seat, action, ctx.user.key)
    except engine.Rejected as rej:
        seat = ctx.match.to_act()
        raise rejection(rej, action, render.seat_name(ctx.table, seat) if seat is not None else "–") from None
    cpu.play_computers(ctx.match)


def _still_declaring(ctx: Ctx) -> Refused:
    """The refusal of a lead while others' windows are open: who may still declare what."""
    table, state = ctx.table, ctx.match.state
    seats = window.waiting_for(table)
    what = declare_label(table.lang, {a.kind for s in seats for a in window.declarable(state, s)})
    names = t(table.lang, "and").join(render.seat_name(table, s) for s in seats)
    return Refused("declare_wait", names=names, what=what)


def let_pass(ctx: Ctx) -> None:
    """``weiter``: the presser lets his window pass; when it was the last one open, the computers play on."""
    seat = ctx.seat()
    table = ctx.table
    if seat not in window.waiting_for(table):
        raise Refused("declare_closed")
    if window.let_pass(table, seat, ctx.now):
        cpu.play_computers(ctx.match)
