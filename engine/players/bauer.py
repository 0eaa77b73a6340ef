"""A computer player for Bauer: trick-counting heuristics, deterministic, own view only.

It reads only what ``seat`` may know: its (visible) hand, trump, the cards played, who named
trump and the Stoß and Karten weg calls. Every card it has not seen counts as possibly held by
any opponent (the cards a Karten weg partner laid away included).

- Trump: the suit that makes the first packet strongest (bowers, trump honours, side aces).
- Stoß / Stoß back: when its own expected tricks, a fair share for the partner and the tricks
  already won reach what the team needs, with a margin.
- Karten weg: only with a hand that cannot lose a trick: all its trumps are the top ones and at
  least as many as the trumps it has not seen, and every side card is a boss of its suit.
- Play: draw trumps with a boss trump, cash side bosses, otherwise lead low from the longest
  side suit; leave a trick the partner holds safely alone; take an opponent's trick with the
  cheapest card that beats it (a boss if it is not the last to play); else throw the cheapest card.
"""

from __future__ import annotations

from ..actions import PLAY, Action
from ..bauer import KARTEN_WEG, NAME_PHASE, STOSS, TRICKS_TO_WIN, BauerState
from ..cards import cards_in, rank_of, suit_of
from ..order import TRUMP, TrumpOrder

__all__ = ["choose", "offer", "pick_card", "naming_value", "expected_tricks"]

_STOSS_MARGIN = 0.75
"""Extra expected tricks wanted before doubling."""
_BOWER_RIGHT, _BOWER_LEFT = 3.0, 2.5
_TRUMP_RANK_VALUE = {0: 2.0, 2: 1.6, 3: 1.3}
"""Ace, king, queen of trump by rank index; other trumps are worth 1."""
_SIDE_ACE = 0.8


def naming_value(hand: int, trump: int) -> float:
    """How strong the cards ``hand`` are with ``trump``: bowers, trump honours, side aces."""
    value = 0.0
    for c in cards_in(hand):
        if rank_of(c) == 4 and suit_of(c) == trump:
            value += _BOWER_RIGHT
        elif rank_of(c) == 4 and suit_of(c) == trump ^ 1:
            value += _BOWER_LEFT
        elif suit_of(c) == trump:
            value += _TRUMP_RANK_VALUE.get(rank_of(c), 1.0)
        elif rank_of(c) == 0:
            value += _SIDE_ACE
    return value


def _top_run(order: TrumpOrder, mine: int, unseen: int) -> int:
    """How many of ``mine`` (one effective suit) beat every unseen card of that suit, played from the top."""
    if not mine:
        return 0
    rivals = unseen & order.suit_mask[order.eff[(mine & -mine).bit_length() - 1]]
    if not rivals:
        return mine.bit_count()
    return (mine & order.above[order.highest(rivals)]).bit_count()


def expected_tricks(order: TrumpOrder, hand: int, unseen: int) -> float:
    """A rough count of the tricks ``hand`` takes: sure trumps, half of the others, side bosses."""
    trumps = hand & order.trumps
    top = _top_run(order, trumps, unseen)
    value = top + 0.5 * (trumps.bit_count() - top)
    for s in range(4):
        side = _top_run(order, hand & order.suit_mask[s], unseen)
        value += 0.8 * min(side, 1) + 0.4 * max(side - 1, 0)
    return value


def _unseen(state: BauerState, seat: int) -> int:
    """The cards of the deal that ``seat`` has neither in hand nor seen played."""
    seen = state.hands[seat] | state.played()
    return state.deck(state.options, state.n, state.match) & ~seen


def _cannot_lose(order: TrumpOrder, hand: int, unseen: int) -> bool:
    """Whether ``hand`` wins every trick leading its trumps first, whatever the unseen cards' split."""
    if (hand & order.trumps).bit_count() < (unseen & order.trumps).bit_count():
        return False
    return all(_top_run(order, hand & mask, unseen) == (hand & mask).bit_count() for mask in order.suit_mask)


def choose(state: BauerState, seat: int) -> Action:
    """The action of ``seat``, the seat to act: name trump, take an offer it wants, or play a card."""
    if state.phase == NAME_PHASE:
        hand = state.visible_hand(seat)
        return Action("name_trump", suit=max(range(4), key=lambda s: (naming_value(hand, s), -s)))
    wanted = offer(state, seat)
    if wanted is not None:
        return wanted
    return Action(PLAY, pick_card(state, seat))


def offer(state: BauerState, seat: int) -> Action | None:
    """Karten weg with a hand that cannot lose, Stoß when the team's expected tricks are enough; else None."""
    acts = state.offers_for(seat)
    if not acts:
        return None
    order, hand = state.order, state.hands[seat]
    unseen = _unseen(state, seat)
    if KARTEN_WEG in acts and _cannot_lose(order, hand, unseen):
        return KARTEN_WEG
    if STOSS not in acts or state.alone >= 0:
        return None
    team = seat & 1
    need = TRICKS_TO_WIN[state.options.short_deck][team != state.caller & 1]
    won = state.won[team] + state.won[team + 2]
    mine = expected_tricks(order, hand, unseen)
    partner = max(0.0, (hand.bit_count() - mine) / 3)
    return STOSS if won + mine + partner >= need + _STOSS_MARGIN else None


class _Seat:
    """What a seat knows in the play phase: its hand, the card order and the cards it has not seen."""

    def __init__(self, state: BauerState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.order = state.order
        self.hand = state.hands[seat]
        self.unseen = _unseen(state, seat)

    def boss(self, c: int) -> bool:
        """Whether no unseen card of ``c``'s suit beats it."""
        return not self.order.above[c] & self.unseen

    def cost(self, c: int) -> tuple:
        """Lower is cheaper to give away: bosses kept, plain before trump, weak before strong."""
        return self.boss(c), self.order.eff[c] == TRUMP, self.order.strength[c], c


def pick_card(state: BauerState, seat: int) -> int:
    """The card ``seat``, the seat to act in the play phase, plays when it takes no offer."""
    cards = cards_in(state.legal_cards())
    if len(cards) == 1:
        return cards[0]
    me = _Seat(state, seat)
    order, trick = me.order, state.trick
    if not trick:
        return _lead(me, cards)
    i = order.winner_index(trick)
    best = trick[i]
    if state.trick_seats()[i] == seat ^ 2:
        return min(cards, key=me.cost)
    beaters = [c for c in cards if order.beats(c, best)]
    if not beaters:
        return min(cards, key=me.cost)
    if len(trick) + 1 < (3 if state.alone >= 0 else 4):  # somebody plays after this seat
        sure = [c for c in beaters if me.boss(c)]
        if sure:
            return min(sure, key=order.strength.__getitem__)
        return max(beaters, key=order.strength.__getitem__)
    return min(beaters, key=lambda c: (order.eff[c] == TRUMP, order.strength[c]))


def _lead(me: _Seat, cards: list[int]) -> int:
    """The card to lead: a boss trump to draw trumps, a side boss, else low from the longest side suit."""
    state, order, seat = me.state, me.order, me.seat
    trumps = [c for c in cards if order.eff[c] == TRUMP]
    attacking = state.alone == seat or seat & 1 == state.caller & 1 or len(trumps) >= 3
    if me.unseen & order.trumps and attacking:
        top = [c for c in trumps if me.boss(c)]
        if top:
            return max(top, key=order.strength.__getitem__)
    plain = [c for c in cards if order.eff[c] != TRUMP]
    side_bosses = [c for c in plain if me.boss(c)]
    if side_bosses:
        return max(side_bosses, key=order.strength.__getitem__)
    if not plain:
        return min(cards, key=me.cost)
    suit = max({order.eff[c] for c in plain}, key=lambda s: ((me.hand & order.suit_mask[s]).bit_count(), -s))
    return min((c for c in plain if order.eff[c] == suit), key=order.strength.__getitem__)
