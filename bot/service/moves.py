"""Engine actions at a table: apply one for a seat, let the computers answer; the window before the first lead."""

from __future__ import annotations

import engine
from bot.service.answer import Ctx
from bot.service.why import rejection
from bot.table import cpu, window
from bot.table.refused import Refused
from bot.words import render
from engine.actions import PLAY

__all__ = ["act", "let_pass"]


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
        raise rejection(rej, action, table, ctx.match.state, seat) from None
    cpu.play_computers(ctx.match)


def _still_declaring(ctx: Ctx) -> Refused:
    """The refusal of a lead while others' windows are open: who may still declare what."""
    return Refused("declare_wait", **render.declaring(ctx.table, ctx.match.state))


def let_pass(ctx: Ctx) -> None:
    """``weiter``: the presser lets his window pass; when it was the last one open, the computers play on."""
    seat = ctx.seat()
    table = ctx.table
    if seat not in window.waiting_for(table):
        raise Refused("declare_closed")
    if window.let_pass(table, seat, ctx.now):
        cpu.play_computers(ctx.match)
