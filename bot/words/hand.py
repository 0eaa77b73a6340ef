"""A player's hand as text plus buttons, built from ``engine.view(state, seat)`` only.

Every card is a button all the time (a card he may not play now answers with the reason), and
beside them his choices: exactly what the engine lets him do now, in turn or out of it
(:func:`seat_choices`). The hand changes only with its owner's own cards and choices
(:func:`hand_signature`), so another player's card never edits it.
"""

from __future__ import annotations

import engine
from bot.protocol.outgoing import Button, HandMessage
from bot.table import tipp, window
from bot.table.record import Table
from bot.words.buttons import act_button, button_token, declare_label, in_rows, parsed_action
from bot.words.cards import cards_label, suit_label
from bot.words.i18n import game_name, hint, t
from bot.words.story import cards_played, seat_name
from engine.actions import PLAY, Action
from engine.bauerchen import MELD_PARTNER
from engine.cards import RANKS, SUITS, parse_card
from engine.state import PLAY_PHASE, State

__all__ = ["hand_message", "hand_signature", "only_lost", "seat_choices", "sorted_cards", "waits", "CARD_CHOICES"]

_JACK_GAMES = ("bauernstoss", "alter_schafkopf", "bauerchen")
_SUIT_ORDER = {suit: i for i, suit in enumerate(SUITS)}
_RANK_ORDER = {rank: i for i, rank in enumerate(RANKS)}
CARD_CHOICES = frozenset({"give", "exchange"})
"""Choices that name a card of the hand: while a seat has them, they are the buttons of those cards."""
_LEVELLED = frozenset({"spritz", "stoss"})
"""Choices whose label says how often the deal is doubled already (Retour ×4, Zurückstoßen)."""


def sorted_cards(cards: list[str], game: str, trump: str | None, giving: bool = False) -> list[str]:
    """Cards grouped for reading: once trump is known, the engine's order (trumps strongest first, then
    each suit); before, the jacks first where they are always trump, then the suits. ``giving`` (a card to
    give, »Gib mir eine«): the jacks last, strongest last, as the cards one gives come first."""
    if trump is not None:
        return cards
    jacks = game in _JACK_GAMES

    def key(c: str) -> tuple[int, int, int]:
        if jacks and c[0] == "J":
            return (2, -_SUIT_ORDER[c[1]], 0) if giving else (0, _SUIT_ORDER[c[1]], 0)
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


def seat_choices(state: State, seat: int) -> list[Action]:
    """Everything but a card play that ``seat`` may do now: his legal actions on his turn, else his
    out-of-turn offers (Spritzen, Stoß, Ledig, Karten weg), in the engine's order."""
    acts = state.legal() if state.to_act == seat else state.offers_for(seat)
    return [a for a in acts if a.kind != PLAY]


def hand_signature(state: State | None, seat: int, status: str, declaring: bool = False) -> tuple:
    """Everything a hand message shows: it is re-sent, with its buttons renewed, exactly when this changes.

    That is the seat's own cards, who sits out (:func:`_in_play`) and the seat's choices
    (:func:`seat_choices`, with how often the deal is doubled where their label says so), never the
    trick or whose turn it is as such, so another player's card leaves the hand as it is while his
    choices stay; nor the trump named (the hand's next edit sorts the cards by it). ``declaring``: his
    window before the first lead is open (:mod:`bot.table.window`), so its »let it pass« choice is shown.
    """
    if state is None:
        return (status,)
    choices = tuple(seat_choices(state, seat))
    out = (status, state.visible_hand(seat), _in_play(state, seat), choices, declaring)
    if any(a.kind in _LEVELLED for a in choices):
        public = state.public_info()
        out += (public.get("spritz"), len(public.get("stoss") or ()))
    return out


def _in_play(state: State, seat: int) -> tuple[bool, ...]:
    """The seats in play as his hand shows them: all of them where it names his partners (four seats, not Rams),
    else only whether he sits out (in Rams another's Passen leaves his hand as it is)."""
    if state.GAME != "rams" and len(state.active) == 4:
        return tuple(state.active)
    return (state.active[seat],)


def waits(state: State, seat: int, declaring: bool = False) -> bool:
    """Whether ``seat``'s hand is one he cannot act on yet (:attr:`~bot.protocol.outgoing.HandMessage.partial`): it
    holds only his first cards of a new deal (the rest come when trump is named), or before the play it is neither
    his turn nor has he a choice (``declaring``: his window before the first lead is open, a choice too)."""
    if state.to_act == seat:
        return False
    if state.hands[seat] & ~state.visible_hand(seat):
        return True
    return state.phase != PLAY_PHASE and not declaring and not seat_choices(state, seat)


def only_gained(before: tuple, after: tuple) -> bool:
    """Whether a hand whose :func:`hand_signature` went from ``before`` to ``after`` only gained choices: the same
    cards, the same seats in play, every choice still there (his window too), none relabelled by the doublings, and
    none added that names a card. Every button of the hand as it was shown still does what it did (a Retour came)."""
    return _fewer_choices(after, before)


def only_lost(before: tuple, after: tuple) -> bool:
    """Whether a hand whose :func:`hand_signature` went from ``before`` to ``after`` only lost choices: the same
    cards, the same seats in play, no choice (or »let it pass«) added, none whose label counts the doublings
    relabelled, and no choice gone that named a card (then a card button would do another thing); or, where the
    hand names no partners, its own seat went out of play with the cards it had (a Rams seat that passed sits the
    deal out: every button of it is refused from now on, whatever it named).

    The buttons left of such a hand do what they did, and one gone is refused with the reason.
    """
    return _fewer_choices(before, after, out=(before[2:3], after[2:3]) == (((True,),), ((False,),)))


def _fewer_choices(more: tuple, fewer: tuple, out: bool = False) -> bool:
    """Whether the hand signature ``fewer`` is ``more`` with choices taken away and nothing else changed: the same
    cards and seats in play, no doubling counted higher, no choice of ``more`` alone that names a card, the same
    rest. With ``out`` (its own seat went out of play) the seats and the choices that named cards may differ."""
    if len(more) < 5 or len(fewer) < 5 or more[:2] != fewer[:2] or fewer[4] > more[4]:
        return False
    if more[2] != fewer[2] and not out:
        return False
    gone = set(more[3]) - set(fewer[3])
    if not set(fewer[3]) <= set(more[3]) or not out and any(a.kind in CARD_CHOICES for a in gone):
        return False
    return len(fewer) == 5 or fewer[5:] == more[5:]


def _card_actions(hand: list[str], game: str, choices: list[Action]) -> list[Action]:
    """A button for every card of ``hand`` (sorted): the card given or exchanged where that is a choice
    now, else played; for Bauerchen also a meld for each K and Q whose pair it holds.

    They stay the same while the hand and the choices do; a press that is not allowed now is refused
    with the reason.
    """
    cards = [parse_card(c) for c in hand]
    chosen = {a.card: a for a in choices if a.kind in CARD_CHOICES}
    out = [chosen.get(c, Action(PLAY, c)) for c in cards]
    if game == "bauerchen":
        out += [Action(PLAY, c, meld=True) for c in cards if MELD_PARTNER[c] in cards]
    return out


def _ruled_out(lang: str, state: State, view: dict, legal: list[Action]) -> list[str]:
    """Why bids his cards would allow are not among his choices now (a mit with a 7 as lowest trump, a count
    below the best), each reason once."""
    bids = [parsed_action(tuple(a.items())) for a in view.get("bids", [])]
    keys = dict.fromkeys(state.decision_hint(a) for a in bids if a not in legal)
    return [hint(lang, key) for key in keys if key != "not_now"]


def _awaited(table: Table, view: dict) -> str:
    """What the hand of a seat not to act now waits for: the bids, trump being named while his hand is
    half-dealt (the rest comes then: the hand changes anyway), else his turn to play."""
    lang = table.lang
    if view.get("bids"):
        return t(lang, "bid_when_your_turn")
    if view["phase"] == "name" and view.get("to_come") and view["to_act"] is not None:
        return t(lang, "naming_then_cards", name=seat_name(table, view["to_act"]))
    return t(lang, "play_when_your_turn")


def hand_message(table: Table, state: State, seat: int, version: int, turn: bool = False) -> HandMessage:
    """Seat ``seat``'s private hand: his cards and his choices as buttons.

    Every card is a button all the time, and beside them exactly the choices he has now
    (:func:`seat_choices`); the hand shows nothing of the trick, the bids or whose turn it is (the
    table message does): it changes only with the seat's own hand and choices (see
    :func:`hand_signature`). Its buttons carry the version at which it last changed
    (``Table.hand_at``), so they stay valid while it stays the same. ``turn`` adds "your turn", for a
    hand posted anew to tell its owner that he is to act. ``playable`` names the card buttons that
    the engine takes from him right now, for a surface that marks them.
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
        lines.append(t(lang, "match_over" if table.status == "finished" else "table_aborted"))
        return HandMessage(table.user(seat), table.chat, table.id, "\n".join(lines))
    active = view["active"][seat]
    if game != "rams" and table.n == 4 and active:
        lines.append(_partner_line(table, seat, view["active"]))
    if not active:
        lines.append(t(lang, "sitting_out"))
    if view.get("committed") and not view.get("trump"):
        lines.append(t(lang, "committed", suit=suit_label(view["committed"])))
    mine = view["to_act"] == seat
    legal = [parsed_action(tuple(a.items())) for a in view.get("legal", [])]
    hand = sorted_cards(view["hand"], game, view.get("trump"), giving=any(a.kind == "give" for a in legal))
    choices = [a for a in legal if a.kind != PLAY]
    deciding = mine and view["phase"] != PLAY_PHASE
    if deciding or (mine and turn):
        lines.append(t(lang, "your_turn"))
        if view["trick"]:  # what was led, and what he must do about it
            lines.append(t(lang, "in_trick", cards=" · ".join(cards_played(table, view["trick"]))))
        if view.get("restriction"):
            lines.append(hint(lang, view["restriction"]))
        lines += _ruled_out(lang, state, view, legal)
    elif hand:
        lines.append(_awaited(table, view))
    lines.append(t(lang, "your_cards", cards=cards_label(hand, lang)) if hand else t(lang, "no_cards"))
    cards = _card_actions(hand, game, choices)
    card_buttons = [act_button(table, version, a, view) for a in cards]
    rows = in_rows(card_buttons) + in_rows(
        [act_button(table, version, a, view) for a in choices if a.kind not in CARD_CHOICES], 3)
    now = frozenset(legal) if mine else frozenset()
    playable = tuple(b.token for a, b in zip(cards, card_buttons) if a in now)
    declaring = seat in window.waiting_for(table)
    if declaring:  # his window before the first lead: declare (a choice above) or let it pass
        declare = window.declarable(state, seat)
        lines.append(t(lang, "declare_now", what=declare_label(lang, {a.kind for a in declare})))
        rows += ((Button(t(lang, "act.let_pass"), button_token(table, version, "let_pass")),),)
    if hand and tipp.allows(table):  # the hint (»Tipp«) for whatever he has to decide then: last, so the
        # choices keep their places
        rows += ((Button(t(lang, "btn.tipp"), button_token(table, version, tipp.VERB)),),)
    return HandMessage(table.user(seat), table.chat, table.id, "\n".join(lines), rows, emptied=not rows,
                       to_act=mine or declaring, partial=waits(state, seat, declaring), playable=playable)
