"""Why the engine rejected an action: every refusal says why, in the table's words.

The engine rejects an action with a code and a hint; where that alone would only say "not now"
(an offer out of its moment, a decision of another phase), the reason is read off the public
view of the deal: who already plays alone, whose call it is, whether a card is led yet.
"""

from __future__ import annotations

import engine
from bot.table.record import Table
from bot.table.window import DECLARE_KINDS
from bot.table.refused import Refused
from bot.words import render
from bot.words.buttons import action_label, parsed_action
from bot.words.i18n import game_name, hint_key, t
from engine.actions import PLAY
from engine.state import PLAY_PHASE, State

__all__ = ["rejection"]

_REJECTED = {engine.Code.DEAL_OVER: "deal_over", engine.Code.NOT_YOUR_TURN: "not_your_turn"}
_DOUBLE = ("spritz", "stoss")


def rejection(rej: engine.Rejected, action: engine.Action, table: Table, state: State, seat: int) -> Refused:
    """The refusal of ``action`` by ``seat``, which the engine rejected, with its reason."""
    to_act = state.to_act
    if rej.code == engine.Code.WRONG_PHASE and action.kind == PLAY:  # the hand shows its cards before the play
        return Refused("play_not_yet")
    if rej.code in _REJECTED:
        return Refused(_REJECTED[rej.code], name=render.seat_name(table, to_act) if to_act is not None else "–")
    if action.meld and rej.hint != "not_in_hand":  # the hand shows its melds all the time
        return Refused("hint.meld_lead")
    if action.kind in DECLARE_KINDS:
        return _alone(table, state, action)
    if action.kind in _DOUBLE:
        return _double(table, state, seat, action)
    if rej.code == engine.Code.WRONG_PHASE or rej.hint == "not_now":
        return _choices(table, state, seat)
    return Refused(hint_key(rej.hint))


def _alone(table: Table, state: State, action: engine.Action) -> Refused:
    """Ledig or Karten weg out of its moment: before trump, after the first lead, or someone plays alone
    (a typed "ledig" at a Bauer table means its Karten weg; a game without either says so)."""
    kind = next((k for k in (action.kind, *sorted(DECLARE_KINDS)) if k in state.OFFERS), None)
    if kind is None:
        return Refused("why.alone_none", game=game_name(table.game, table.lang))
    what = t(table.lang, f"act.{kind}")
    public = engine.view(state, None)["public"]
    alone = public.get(kind)
    if state.phase != PLAY_PHASE:
        return Refused("why.alone_before", what=what)
    if alone is not None:
        return Refused("why.alone_taken", name=render.seat_name(table, alone))
    if state.tricks or state.trick:
        return Refused("why.alone_after", what=what)
    return Refused("why.alone_decider", what=what)


def _double(table: Table, state: State, seat: int, action: engine.Action) -> Refused:
    """Spritzen or Stoß out of its moment: before the play, after the last call, or not this team's call."""
    what = t(table.lang, f"act.{action.kind}")
    public = engine.view(state, None)["public"]
    if state.phase != PLAY_PHASE:
        return Refused("why.double_before", what=what)
    if not state.active[seat]:
        return Refused("why.sitting_out")
    if action.kind == "spritz" and public.get("ledig") is not None:
        return Refused("why.spritz_ledig")
    if action.kind == "stoss" and len(public.get("stoss") or ()) >= 2:
        return Refused("why.stoss_done")
    if action.kind == "spritz" and public.get("spritz_next") is None:
        return Refused("why.spritz_decided")
    return Refused("why.double_other", what=what)


def _choices(table: Table, state: State, seat: int) -> Refused:
    """A decision that is not one now: what the seat may do instead (or who is to act)."""
    view = engine.view(state, seat)
    legal = [parsed_action(tuple(a.items())) for a in view.get("legal", [])]
    choices = [action_label(table.lang, a, table.game, view) for a in legal if a.kind != PLAY]
    if state.to_act == seat and any(a.kind == PLAY for a in legal):
        choices.insert(0, t(table.lang, "why.a_card"))
    if state.to_act != seat or not choices:
        name = render.seat_name(table, state.to_act) if state.to_act is not None else "–"
        return Refused("not_your_turn", name=name)
    return Refused("why.choices", choices=", ".join(choices))
