"""A computer player for Bauernstoß and Alter Schafkopf.

It reads only what its seat may know: its own hand, its own committed suit, and the public
facts (calls, solo, trump, the cards played). Deterministic: ties go to the lowest card id.

- Announcing: the suit with the highest count (then the strongest trumps); a solo when the hand
  has no loser (grand) or at most one to give away (small), see :func:`losers`.
- Exchange: the solo player gives his worst card; the partner gives back his best jack, else an ace.
- Play: draw trumps with the top trump, cash bosses, otherwise lead low from short side suits;
  when the partner wins, add eyes once his trick is safe, else play low; take an opponent's
  trick with the cheapest sure winner, and in a solo fight for every trick.
"""

from __future__ import annotations

from ..actions import Action
from ..bauernstoss import ORDERS, count
from ..cards import DECK32, EYES, JACKS, cards_in
from ..order import TRUMP, TrumpOrder
from ..state import PLAY_PHASE, State

__all__ = ["choose", "offer", "losers"]


def choose(state: State, seat: int) -> Action:
    """The action ``seat`` (the seat to act) takes now."""
    if state.phase == PLAY_PHASE:
        return Action("play", _play(state, seat, state.legal_cards()))
    legal = state.legal()
    hand = state.hands[seat]
    kinds = {a.kind for a in legal}
    if "give" in kinds:
        return Action("give", _give(state, seat, hand))
    if "name_trump" in kinds:
        names = [a for a in legal if a.kind == "name_trump"]
        if len(names) == 1:
            return names[0]
        return Action("name_trump", suit=_solo_suit(hand))
    return _announce(hand, legal)


def offer(state: State, seat: int) -> Action | None:
    """These games have no out-of-turn actions."""
    return None


# ----------------------------------------------------------- bidding
def losers(hand: int, trump: int) -> int:
    """Tricks a hand may lose playing alone with ``trump`` against the worst split of the rest."""
    order = ORDERS[trump]
    top = _top_run(order.trump_list, hand & order.trumps)
    outside = 11 - (hand & order.trumps).bit_count()
    lost = 0
    for s in range(4):
        side = hand & order.suit_mask[s]
        if side:
            lost += side.bit_count() - _top_run(_by_strength(order, order.suit_mask[s]), side)
    # trumps the top run cannot draw beat a lower trump or ruff a side card
    return lost + min(max(0, outside - top), hand.bit_count() - top)


def _announce(hand: int, legal: list[Action]) -> Action:
    """A solo if the hand is safe for it, else the best count, else pass."""
    solos = {a.size: a for a in legal if a.kind == "solo"}
    best_losers = min(losers(hand, t) for t in range(4))
    if "grand" in solos and best_losers == 0:
        return solos["grand"]
    if "small" in solos and best_losers <= 1:
        return solos["small"]
    announces = [a for a in legal if a.kind == "announce"]
    if not announces:
        return Action("pass")
    return max(announces, key=lambda a: (count(hand, a.suit), _trump_power(hand, a.suit), -a.suit))


def _trump_power(hand: int, trump: int) -> int:
    """The summed strength of the hand's trumps for ``trump``."""
    order = ORDERS[trump]
    return sum(order.strength[c] for c in cards_in(hand & order.trumps))


def _solo_suit(hand: int) -> int:
    """The trump suit with the fewest losers, then the most trumps."""
    return min(range(4), key=lambda t: (losers(hand, t), -count(hand, t), t))


def _give(state: State, seat: int, hand: int) -> int:
    """The solo player gives his worst card; the partner gives back his best jack, else an ace."""
    if seat == state.soloist:
        return min(cards_in(hand), key=lambda c: (min(losers(hand & ~(1 << c), t) for t in range(4)), EYES[c], c))
    jacks = hand & JACKS
    if jacks:
        return cards_in(jacks)[0]
    return min(cards_in(hand), key=lambda c: (c % 9, c))


# ----------------------------------------------------------- play
def _play(state: State, seat: int, legal: int) -> int:
    """The card to play from the ``legal`` mask."""
    order = state.order
    cards = cards_in(legal)
    if len(cards) == 1:
        return cards[0]
    outstanding = DECK32 & ~state.hands[seat] & ~state.played()
    if not state.trick:
        return _lead(order, state.hands[seat], cards, outstanding)
    best_i = order.winner_index(state.trick)
    best = state.trick[best_i]
    mine = seat % 2
    solo = state.soloist >= 0
    last = len(state.trick) == state.active.count(True) - 1
    if state.trick_seats()[best_i] % 2 == mine:
        safe = last or not order.above[best] & outstanding and order.eff[best] == TRUMP
        if safe and not solo:  # add eyes with a plain card; a trump only if it must be, the lowest
            return max(cards, key=lambda c: (order.eff[c] != TRUMP,
                                             EYES[c] if order.eff[c] != TRUMP else -order.strength[c], -c))
        return _lowest(order, cards)
    winners = [c for c in cards if order.beats(c, best)]
    if not winners:
        return _lowest(order, cards)
    sure = [c for c in winners if last or not order.above[c] & outstanding]
    if sure:
        return min(sure, key=lambda c: (order.strength[c], c))
    if solo or sum(EYES[c] for c in state.trick) >= 10:
        return max(winners, key=lambda c: (order.strength[c], -c))
    return _lowest(order, cards)


def _lead(order: TrumpOrder, hand: int, cards: list[int], outstanding: int) -> int:
    """Draw trumps with the top trump, cash a boss, else lead low from the shortest side suit."""
    trumps = hand & order.trumps
    if trumps and outstanding & order.trumps:
        top = order.highest(trumps)
        if not order.above[top] & outstanding and trumps.bit_count() >= 2:
            return top
    bosses = [c for c in cards if order.eff[c] != TRUMP and not order.above[c] & outstanding]
    if bosses:
        return max(bosses, key=lambda c: (EYES[c], -c))
    side = [c for c in cards if order.eff[c] != TRUMP]
    if not side:
        return _lowest(order, cards)
    return min(side, key=lambda c: ((hand & order.suit_mask[order.eff[c]]).bit_count(), EYES[c],
                                    order.strength[c], c))


def _lowest(order: TrumpOrder, cards: list[int]) -> int:
    """The cheapest card to give up: a plain card before a trump, few eyes, low."""
    return min(cards, key=lambda c: (order.eff[c] == TRUMP, EYES[c], order.strength[c], c))


def _by_strength(order: TrumpOrder, mask: int) -> list[int]:
    """The cards of ``mask`` (one effective suit), strongest first."""
    return sorted(cards_in(mask), key=lambda c: -order.strength[c])


def _top_run(ranked: list[int] | tuple[int, ...], mine: int) -> int:
    """How many of the strongest cards of ``ranked`` the hand holds without a gap."""
    n = 0
    for c in ranked:
        if not mine >> c & 1:
            break
        n += 1
    return n
