"""Computer player for Bauerchen: simple card-counting heuristics, deterministic, own view only.

It reads only what ``seat`` may know: its visible hand, the played tricks, the trick on the
table, trump, the public announcements and the match. It remembers which seat showed out of
a suit (a void) to judge whether a trick it or its partner wins can still be taken away.
"""

from __future__ import annotations

from functools import cached_property

from engine.actions import PLAY, Action
from engine.bauerchen import LEDIG, MELD_PARTNER, NAME_PHASE, SPRITZ, BauerchenState, meld_value
from engine.cards import DECK20, EYES, JACKS, SUITS, card, cards_in, rank_of, suit_of
from engine.order import TRUMP

__all__ = ["choose", "offer", "pick_card", "hand_value", "trump_for"]

_TRUMP_WEIGHT = {"JC": 4.0, "JS": 3.5, "JH": 3.0, "JD": 2.6, "A": 2.3, "T": 2.0, "K": 1.6, "Q": 1.3}
_PLAIN_ACE = 1.0
_ACE = 0
_SPRITZ_BASE = 45
_SPRITZ_STEP = 20


def _weight(c: int, trump: int) -> float:
    """How much card ``c`` is worth to a hand with ``trump`` (trumps by rank, plain aces a little)."""
    if JACKS >> c & 1:
        return _TRUMP_WEIGHT["J" + SUITS[suit_of(c)]]
    if suit_of(c) == trump:
        return _TRUMP_WEIGHT["ATKQ"[rank_of(c)]]
    return _PLAIN_ACE if rank_of(c) == _ACE else 0.0


def hand_value(hand: int, trump: int) -> float:
    """A rough strength of ``hand`` with ``trump``: weighted trumps, plain aces, a 40 in trumps."""
    value = sum(_weight(c, trump) for c in cards_in(hand))
    k = card("K", SUITS[trump])
    if hand >> k & 1 and hand >> MELD_PARTNER[k] & 1:
        value += 1.5
    return value


def _name(state: BauerchenState, seat: int) -> Action:
    """Say die Letzte with two jacks, else name the suit that makes the visible hand strongest."""
    acts = state.legal()
    if acts[-1].kind == "die_letzte":
        return acts[-1]
    return Action("name_trump", suit=trump_for(state.visible_hand(seat)))


def trump_for(hand: int) -> int:
    """The suit that makes ``hand`` strongest (the lowest suit index of equals), which the forehand names."""
    return max(range(4), key=lambda s: (hand_value(hand, s), -s))


class _Table:
    """What ``seat`` knows in the play phase: unseen cards, voids, the trick so far."""

    def __init__(self, state: BauerchenState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.order = state.order
        self.hand = state.hands[seat]
        self.unseen = DECK20 & ~state.played() & ~self.hand
        partner = (seat + 2) % state.n
        self.partner = partner if state.active[partner] else -1
        self.trumps = self.order.suit_mask[TRUMP]

    @cached_property
    def voids(self) -> list[set[int]]:
        """Per seat, the effective suits it showed out of (worked out when first asked)."""
        state = self.state
        voids: list[set[int]] = [set() for _ in range(state.n)]
        for leader, cards, _ in state.tricks:
            self._note(leader, cards, voids)
        self._note(state.leader, state.trick, voids)
        return voids

    def _note(self, leader: int, cards, voids: list[set[int]]) -> None:
        """Record the voids shown in one trick."""
        if not cards:
            return
        order, state = self.order, self.state
        led = order.eff[cards[0]]
        s = leader
        for c in cards:
            e = order.eff[c]
            if e != led:
                voids[s].add(led)
                if e != TRUMP:
                    voids[s].add(TRUMP)
            s = state.next_active(s)

    def seats_after(self) -> list[int]:
        """The seats still to play to the current trick after ``seat``."""
        state = self.state
        count = state.active.count(True) - len(state.trick) - 1
        out, s = [], self.seat
        for _ in range(count):
            s = state.next_active(s)
            out.append(s)
        return out

    def can_beat(self, s: int, card: int, led: int) -> bool:
        """Whether seat ``s`` might beat ``card`` (the winning card of a trick led in ``led``)."""
        order, unseen, void = self.order, self.unseen, self.voids[s]
        if unseen & order.above[card] and order.eff[card] not in void:
            return True
        if order.eff[card] == TRUMP or TRUMP in void or not unseen & self.trumps:
            return False
        return led in void or not unseen & order.suit_mask[led]

    def safe(self, card: int, led: int) -> bool:
        """Whether no opponent still to play might beat ``card``."""
        return not any(self.can_beat(s, card, led) for s in self.seats_after() if s != self.partner)

    def cost(self, c: int) -> int:
        """What giving up ``c`` costs: its eyes, and for a trump its trick-taking power."""
        if self.trumps >> c & 1:
            return EYES[c] + 2 * (self.order.strength[c] - 95)
        return EYES[c]

    def top_trumps(self) -> int:
        """How many of the highest trumps still in play ``seat`` holds in an unbroken run."""
        live = self.trumps & (self.unseen | self.hand)
        count = 0
        for c in self.order.trump_list:
            if not live >> c & 1:
                continue
            if not self.hand >> c & 1:
                break
            count += 1
        return count


def _lead(t: _Table, legal: list[Action]) -> Action:
    """Meld if it scores, draw trumps with the best one, cash an ace, else lead the cheapest card."""
    state, seat = t.state, t.seat
    team = seat % 2
    score = state.match["score"][team]
    melds = [a for a in legal if a.meld and meld_value(state.options, score, suit_of(a.card) == state.trump) > 0]
    if melds:
        return min(melds, key=lambda a: (EYES[a.card], a.card))
    cards = [a.card for a in legal if not a.meld]
    my_trumps = t.hand & t.trumps
    if my_trumps and t.top_trumps() and t.unseen & t.trumps:
        return Action(PLAY, t.order.highest(my_trumps))
    for c in cards:
        if rank_of(c) == _ACE and not t.trumps >> c & 1:
            return Action(PLAY, c)
    return Action(PLAY, min(cards, key=lambda c: (t.cost(c), c)))


def _follow(t: _Table, cards: list[int]) -> Action:
    """Smear on a safe partner trick, win cheaply where it holds, else give the least."""
    state, order = t.state, t.order
    trick = state.trick
    led = order.eff[trick[0]]
    win_i = order.winner_index(trick)
    best = trick[win_i]
    winner = t.state.trick_seats()[win_i]
    cheapest = min(cards, key=lambda c: (t.cost(c), c))
    if winner == t.partner and t.safe(best, led):
        return Action(PLAY, max(cards, key=lambda c: (EYES[c] - (t.cost(c) - EYES[c]), -c)))
    winning = [c for c in cards if order.winner_index(trick + [c]) == len(trick)]
    if not winning or winner == t.partner:
        return Action(PLAY, cheapest)
    safe = [c for c in winning if t.safe(c, led)]
    if safe:
        return Action(PLAY, min(safe, key=lambda c: (t.cost(c), c)))
    eyes = sum(EYES[c] for c in trick)
    if eyes >= 10:
        return Action(PLAY, max(winning, key=lambda c: (order.strength[c], -c)))
    return Action(PLAY, cheapest)


def choose(state: BauerchenState, seat: int) -> Action:
    """The action of ``seat``, the seat to act: name trump, take an offer it wants, or play a card."""
    if state.phase == NAME_PHASE:
        return _name(state, seat)
    t = _Table(state, seat)
    wanted = _offer(t, state.offers_for(seat))
    if wanted is not None:
        return wanted
    return _play(t)


def pick_card(state: BauerchenState, seat: int) -> int:
    """The card ``seat``, the seat to act in the play phase, plays when it takes no offer (melded or not)."""
    return _play(_Table(state, seat)).card


def _play(t: _Table) -> Action:
    """The card ``t.seat`` plays: a lead or a card to the trick on the table."""
    legal = t.state.play_actions()
    if not t.state.trick:
        return _lead(t, legal)
    return _follow(t, [a.card for a in legal])


def offer(state: BauerchenState, seat: int) -> Action | None:
    """Ledig with a hand that takes every trick; Spritzen when the team looks clearly ahead."""
    acts = state.offers_for(seat)
    return _offer(_Table(state, seat), acts) if acts else None


def _offer(t: _Table, acts: list[Action]) -> Action | None:
    """The offer among ``acts`` that ``t.seat`` takes, see :func:`offer`."""
    state = t.state
    if LEDIG in acts and t.hand & t.trumps == t.hand and t.top_trumps() >= 3:
        return LEDIG
    if SPRITZ in acts and _estimate(t) >= _SPRITZ_BASE + _SPRITZ_STEP * state.spritz:
        return SPRITZ
    return None


def _estimate(t: _Table) -> int:
    """How far ``t.seat``'s team looks ahead: eye lead plus sure trumps, other trumps and aces."""
    eyes = t.state.team_eyes()
    team = t.seat % 2
    top = t.top_trumps()
    trumps = (t.hand & t.trumps).bit_count()
    aces = sum(1 for c in cards_in(t.hand & ~t.trumps) if rank_of(c) == _ACE)
    return eyes[team] - eyes[1 - team] + 14 * top + 5 * (trumps - top) + 6 * aces
