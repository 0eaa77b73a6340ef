"""Computer player for Rams: hand-strength decisions and simple trick play, deterministic, own view only.

It reads only what ``seat`` may know: its own hand, the turned cards and what the dealer took of
them, every seat's decision, the tricks played and the trick on the table. Cards it cannot see
(other hands, the blind, the undealt rest, discards) all count as possibly against it.

- Decisions: the dealer robs the Kehrer (then the Bälli) for his weakest card when that makes a
  hand worth playing; a weak hand takes the blind while it is there, else passes when allowed;
  a hand expected to take a trick plays.
- Play: win a trick as cheaply as is safe (a card nobody can beat, or the cheapest winner when
  nobody plays after it), else throw the lowest card, keeping trumps and short suits in mind.
"""

from __future__ import annotations

from engine.actions import PLAY, Action
from engine.cards import cards_in, mask_of, rank_of, suit_of
from engine.order import TRUMP
from engine.rams import DECIDE_PHASE, RamsState

__all__ = ["choose", "offer", "expected_tricks"]

PLAY_THRESHOLD = 0.6
"""Expected tricks from which a hand is played rather than passed."""
_PLAIN_CHANCE = (0.55, 0.2)
"""Chance that a plain ace or king wins a trick at a table of three; fewer with more players."""
_TRUMP_CHANCE = (0.95, 0.7, 0.45, 0.25, 0.12)
"""Chance that a trump with 0, 1, 2 ... higher trumps against it wins a trick."""


def _unknown(state: RamsState, seat: int) -> int:
    """Cards ``seat`` cannot see that may still be played: not his, not played, not a turned card left out."""
    gone = state.played()
    left_out = mask_of(state.turned[:len(state.turned) - state.robbed])
    return state.deal_deck & ~state.hands[seat] & ~gone & ~left_out


def expected_tricks(state: RamsState, hand: int, seat: int) -> float:
    """A rough count of the tricks ``hand`` takes: trumps by how many higher ones are out, plain aces and kings."""
    order = state.order
    unknown = _unknown(state, seat) & ~hand
    players = max(2, sum(c != "out" for c in state.choice))
    plain_scale = 3 / players
    total = 0.0
    for c in cards_in(hand):
        if order.eff[c] == TRUMP:
            higher = (order.above[c] & unknown).bit_count()
            total += _TRUMP_CHANCE[min(higher, len(_TRUMP_CHANCE) - 1)]
        elif rank_of(c) in (0, 2):
            suit_len = (hand & order.suit_mask[suit_of(c)]).bit_count()
            boss = not order.above[c] & unknown
            chance = _PLAIN_CHANCE[0] if boss else _PLAIN_CHANCE[1]
            total += chance * plain_scale / suit_len
    return total


def _decide(state: RamsState, seat: int) -> Action:
    """Rob, take the blind, play or pass by the expected tricks of the hand."""
    legal = state.legal()
    kinds = {a.kind for a in legal}
    hand = state.hands[seat]
    value = expected_tricks(state, hand, seat)
    if "exchange" in kinds:
        taken = state.turned[-1 - state.robbed]
        give = _shed(state, cards_in(hand), hand)
        better = hand & ~(1 << give) | 1 << taken
        if state.order.strength[give] < state.order.strength[taken] and (
                state.robbed or expected_tricks(state, better, seat) >= PLAY_THRESHOLD):
            return Action("exchange", give)
        if state.robbed:
            return Action("play_hand")
    if value >= PLAY_THRESHOLD:
        return Action("play_hand")
    if "take_blind" in kinds:
        return Action("take_blind")
    return Action("pass") if "pass" in kinds else Action("play_hand")


def _shed(state: RamsState, cards: list[int], hand: int) -> int:
    """The card of ``cards`` worth least: the weakest (plain before trump), from the shortest suit."""
    order = state.order
    return min(cards, key=lambda c: (order.strength[c], (hand & order.suit_mask[order.eff[c]]).bit_count(), c))


def _card(state: RamsState, seat: int) -> int:
    """The card to play: a safe or cheap winner, else the weakest legal card."""
    order = state.order
    hand = state.hands[seat]
    legal = cards_in(state.legal_cards())
    if len(legal) == 1:
        return legal[0]
    unknown = _unknown(state, seat)
    bosses = [c for c in legal if not order.above[c] & unknown]
    if not state.trick:
        if bosses:
            return max(bosses, key=lambda c: order.strength[c])
        plain = [c for c in legal if order.eff[c] != TRUMP]
        return _shed(state, plain or legal, hand)
    best = state.best_in_trick()
    winners = [c for c in legal if state.order.beats(c, best)]
    if not winners:
        return _shed(state, legal, hand)
    last = len(state.trick) == state.active.count(True) - 1
    cheapest = min(winners, key=lambda c: order.strength[c])
    if last:
        return cheapest
    safe = [c for c in winners if c in bosses]
    if safe:
        return min(safe, key=lambda c: order.strength[c])
    if order.eff[cheapest] == TRUMP and order.eff[state.trick[0]] != TRUMP:
        return cheapest
    return max(winners, key=lambda c: order.strength[c])


def choose(state: RamsState, seat: int) -> Action:
    """The action of ``seat``, who is to act: a decision before play, else a card."""
    if state.phase == DECIDE_PHASE:
        return _decide(state, seat)
    return Action(PLAY, _card(state, seat))


def offer(state: RamsState, seat: int) -> Action | None:
    """Rams has no out-of-turn actions."""
    return None

