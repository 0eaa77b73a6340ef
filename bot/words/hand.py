"""A player's hand as text plus buttons, built from ``engine.view(state, seat)`` only.

Every card is a button all the time, and the hand changes only with its owner's own cards and
choices (:func:`hand_signature`), so another player's card never edits it.
"""

from __future__ import annotations

import engine
from bot.protocol.outgoing import Button, HandMessage
from bot.table import window
from bot.table.record import Table
from bot.words.buttons import act_button, button_token, declare_label, in_rows, parsed_action
from bot.words.cards import cards_label, suit_label
from bot.words.i18n import game_name, hint, t
from bot.words.story import seat_name
from engine.actions import PLAY, Action
from engine.bauerchen import MELD_PARTNER
from engine.cards import RANKS, SUITS, parse_card
from engine.state import PLAY_PHASE, State

__all__ = ["hand_message", "hand_signature", "sorted_cards"]

_JACK_GAMES = ("bauernstoss", "alter_schafkopf", "bauerchen")
_SUIT_ORDER = {suit: i for i, suit in enumerate(SUITS)}
_RANK_ORDER = {rank: i for i, rank in enumerate(RANKS)}


def sorted_cards(cards: list[str], game: str, trump: str | None) -> list[str]:
    """Cards grouped for reading: once trump is known, the engine's order (trumps strongest first, then
    each suit); before, the jacks first where they are always trump, then the suits."""
    if trump is not None:
        return cards
    jacks = game in _JACK_GAMES

    def key(c: str) -> tuple[int, int, int]:
        if jacks and c[0] == "J":
            return 0, _SUIT_ORDER[c[1]], 0
        return 1, _SUIT_ORDER[c[1]], _RANK_ORDER[c[0]]
    return sorted(cards, key=key)


def _partner_line(table: Table, seat: int, active: list[bool]) -> str:
    """Who plays with and against ``seat``; a partner or opponent who sits out this deal is left out."""
    others = [seat_name(table, s) for s in ((seat + 1) % 4, (seat + 3) % 4) if active[s]]
    partner = (seat + 2) % 4
    if not active[partner]:
        return t(table.lang, "alone_against", others=t(table.lang, "and").join(others))
    if len(others) == 1:
        return t(table.lang, "with_partner_one", partner=seat_name(table, partner), a=others[0])
    return t(table.lang, "with_partner", partner=seat_name(table, partner), a=others[0], b=others[1])


def hand_signature(state: State | None, seat: int, status: str, declaring: bool = False) -> tuple:
    """Everything a hand message shows: it is re-sent, with its buttons renewed, exactly when this changes.

    That is the seat's own cards and who sits out, never the trick or whose turn it is, so another
    player's card or decision leaves the hand as it is; nor the trump named or the phase begun (the
    hand's cards stay buttons through them; its next edit sorts them by the trump). A seat yet to
    speak in a bidding round is shown every bid he may have (:meth:`~engine.state.State.bids`) from
    the deal to his bid, so the bids before his leave it as it is too. A seat that must decide
    otherwise before the play is shown his choices instead, so his turn and his choices belong to it.
    ``declaring``: his window before the first lead is open (:mod:`bot.table.window`), so its choices are shown.
    """
    if state is None:
        return (status,)
    own = (status, state.visible_hand(seat), tuple(state.active), declaring)
    bids = state.bids(seat)
    if bids:
        return own + (tuple(bids),)
    if state.phase == PLAY_PHASE or state.to_act != seat:
        return own
    return own + (state.phase, state.trump, tuple(state.legal()))


def _card_actions(hand: list[str], game: str) -> list[Action]:
    """A play for every card of ``hand`` (sorted), and for Bauerchen a meld for each K and Q whose pair it holds.

    They stay the same while the hand does; a press that is not allowed now is refused with the reason.
    """
    cards = [parse_card(c) for c in hand]
    out = [Action(PLAY, c) for c in cards]
    if game == "bauerchen":
        out += [Action(PLAY, c, meld=True) for c in cards if MELD_PARTNER[c] in cards]
    return out


def hand_message(table: Table, state: State, seat: int, version: int, turn: bool = False) -> HandMessage:
    """Seat ``seat``'s private hand: his cards and his decisions as buttons.

    Every card is a button all the time (but in a bidding round until he has spoken: then every bid
    he may have is; and while he decides otherwise before the play: then his choices are), and the
    hand shows nothing of the trick, the bids or whose turn it is (the table message does): it
    changes only with the seat's own hand (see
    :func:`hand_signature`). Its buttons carry the version at which it last changed
    (``Table.hand_at``), so they stay valid while it stays the same. ``turn`` adds "your turn", for a
    hand posted anew to tell its owner that he is to act.
    """
    lang, game = table.lang, table.game
    version = table.hand_version(seat, version)
    view = engine.view(state, seat)
    title_key = "hand_title_private" if table.chat.private else "hand_title"
    title = t(lang, title_key, game=game_name(game, lang), chat=table.chat.title or table.chat.chat_id)
    if view.get("trump"):
        title += " · " + t(lang, "trump", suit=suit_label(view["trump"]))
    lines = [title]
    if table.status != "playing":
        lines.append(t(lang, "match_over"))
        return HandMessage(table.user(seat), table.chat, table.id, "\n".join(lines))
    active = view["active"][seat]
    if game != "rams" and table.n == 4 and active:
        lines.append(_partner_line(table, seat, view["active"]))
    if not active:
        lines.append(t(lang, "sitting_out"))
    if view.get("committed") and not view.get("trump"):
        lines.append(t(lang, "committed", suit=suit_label(view["committed"])))
    hand = sorted_cards(view["hand"], game, view.get("trump"))
    mine = view["to_act"] == seat
    bids = [parsed_action(tuple(a.items())) for a in view.get("bids", [])]
    deciding = mine and view["phase"] != PLAY_PHASE and not bids
    if deciding or (mine and turn):
        restriction = view.get("restriction")
        lines.append(hint(lang, restriction) if restriction else t(lang, "your_turn"))
    elif hand:
        lines.append(t(lang, "bid_when_your_turn" if bids else "play_when_your_turn"))
    lines.append(t(lang, "your_cards", cards=cards_label(hand, lang)) if hand else t(lang, "no_cards"))
    if bids or deciding:
        choices = bids or [parsed_action(tuple(a.items())) for a in view.get("legal", [])]
        rows = in_rows([act_button(table, version, a, view) for a in choices], 3)
    else:
        rows = in_rows([act_button(table, version, a, view) for a in _card_actions(hand, game)])
    if seat in window.waiting_for(table):
        declare = window.declarable(state, seat)
        lines.append(t(lang, "declare_now", what=declare_label(lang, {a.kind for a in declare})))
        rows += (tuple(act_button(table, version, a, view) for a in declare)
                 + (Button(t(lang, "act.let_pass"), button_token(table, version, "let_pass")),),)
    return HandMessage(table.user(seat), table.chat, table.id, "\n".join(lines), rows, emptied=not rows,
                       to_act=mine, partial=view["to_come"] > 0 and not mine)
