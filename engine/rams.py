"""Rams (Swiss New Year's Eve game): everyone for himself, 5 tricks a deal, first to the target wins.

Rule source: ``rules/rams.md`` (from seed 003, the Bad Bonn tournament flyer).

Decisions the rules leave open, taken here:

- Seats: a table of 3 to 7 players (the issue's "Rams for 3 to 7 players"). The setup table's
  row "2 to 5" still matters: when a player of a 3-player table has reached the target, the last
  two play on with 32 cards and a blind.
- The target defaults to the rules' 21 tricks, 15 at a table that started with 5 or more players;
  the option ``target`` sets another number for every table size.
- Out players are the seats in an unfinished ``ranking`` (they reached the target). They are
  dealt no cards and take no decision; the deck and the blind follow the setup table for the
  players still in, and the dealer is always a player still in.
- Dealing (``packets``): 5 cards to each player still in from the forehand on, then the blind,
  then the Kehrer (and after a Bälli Kehrer with 32 cards the next card). Replay files give the
  same three parts; the rest of the deck is the undealt rest.
- The dealer's ``exchange`` may discard any card of his hand, even the Kehrer he has just taken
  when he robs the Bälli too. The discarded card is set aside face down; the taken card is known.
- The drawn card of a tie: the engine has no randomness, so the cards are drawn from the bottom
  of the deal's shuffled deck (the reverse of the dealing order, so the undealt rest comes first),
  one card each for the tied players in seat order from the forehand on, the next cards for the
  next tie. Replay files do not record the order of the undealt rest: there it is taken in card
  order. Several players reaching the target in one deal are all ranked by the target rule (more
  tricks in that deal, then the draw) before the others.
- ``match``: ``tricks`` and ``kartoffeln`` per seat (totals), ``ranking`` (the winner as soon as
  he is known, the full order once second place is decided), ``winner`` (``ranking[0]`` once the
  match is decided, else null: it marks the end of the match as in the other games) and
  ``settlement`` (what each seat pays, null until the end).
"""

from __future__ import annotations

from itertools import groupby
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from .actions import Action
from .cards import DECK32, DECK36, RANKS, SUITS, card, card_str, card_strs, cards_in, mask_of, rank_of, suit_of
from .deal import check_cards
from .order import TRUMP, TrumpOrder
from .registry import register
from .state import OVER, PLAY_PHASE, State

__all__ = ["RamsOptions", "RamsState", "ORDERS", "BAELLI", "DECIDE_PHASE", "HAND_SIZE", "target_of", "settlement"]

DECIDE_PHASE = "decide"
HAND_SIZE = 5
BAELLI = card("7", "D")
"""The seven of Ecken: second trump in every deal."""

TAKE_BLIND = Action("take_blind")
PLAY_HAND = Action("play_hand")
PASS = Action("pass")
_IN = ("play", "blind")
"""The decisions that put a seat into the deal."""
_DRAW_RANKS = "AKQJT9876"
"""Rank order of a drawn card, high to low (then the suits C S H D)."""


class RamsOptions(BaseModel):
    """Table options of Rams (``rules/rams.md``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    sixes: bool = False
    target: int | None = Field(None, ge=1, le=100)
    unit: float = Field(1.0, ge=0, le=1000, allow_inf_nan=False)
    kartoffel_fee: float = Field(0.5, ge=0, le=1000, allow_inf_nan=False)


def _build_order(trump: int) -> TrumpOrder:
    """Trump ace, the Bälli, then trump K Q J T 9 8 7 6; plain suits A K Q J T 9 8 7 6."""
    s = SUITS[trump]
    trumps = [card("A", s), BAELLI] + [card(r, s) for r in "KQJT9876" if card(r, s) != BAELLI]
    return TrumpOrder(trump, trumps, "AKQJT9876", DECK36)


ORDERS = tuple(_build_order(t) for t in range(4))
"""The card order per trump suit, built once (the 36-card masks serve the 32-card deck too)."""
_TRUMP_ACE = tuple(1 << card("A", SUITS[t]) for t in range(4))


def target_of(options: RamsOptions, n: int) -> int:
    """The tricks that finish a player: ``target``, else 21 (15 at a table of 5 or more)."""
    if options.target is not None:
        return options.target
    return 15 if n >= 5 else 21


def _deal_shape(options: RamsOptions, players_in: int) -> tuple[int, bool]:
    """The deck and whether there is a blind for ``players_in`` players still in the game."""
    if players_in <= 5:
        return DECK32, True
    if players_in == 6:
        return (DECK36, True) if options.sixes else (DECK32, False)
    return DECK36, False


def _out_seats(match: dict, n: int) -> list[int]:
    """The seats that have reached the target and no longer play (none once the match is over)."""
    ranking = match["ranking"]
    return [] if len(ranking) == n else list(ranking)


def _draw_key(c: int) -> tuple[int, int]:
    """Sort key of a drawn card, best first: rank A K Q J T 9 8 7 6, then suit C S H D."""
    return _DRAW_RANKS.index(RANKS[rank_of(c)]), suit_of(c)


def settlement(options: RamsOptions, ranking: list[int], kartoffeln: list[int]) -> list[float]:
    """What each seat pays: (place − 1) × ``unit`` plus ``kartoffel_fee`` per Kartoffel."""
    pays = [0.0] * len(kartoffeln)
    for place, seat in enumerate(ranking):
        pays[seat] = round(place * options.unit + kartoffeln[seat] * options.kartoffel_fee, 2)
    return pays


def _match(options: RamsOptions, tricks: list[int], kartoffeln: list[int], ranking: list[int]) -> dict:
    """The match dict; ``winner`` and ``settlement`` follow from a complete ranking."""
    done = len(ranking) == len(tricks)
    return {"tricks": tricks, "kartoffeln": kartoffeln, "ranking": ranking,
            "winner": ranking[0] if done else None,
            "settlement": settlement(options, ranking, kartoffeln) if done else None}


def _seat_list(value: object, n: int, name: str) -> list[int]:
    """``value`` checked as ``n`` whole numbers of at least 0."""
    if not (isinstance(value, list) and len(value) == n
            and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in value)):
        raise ValueError(f"match {name} must be {n} whole numbers of at least 0")
    return list(value)


@register
class RamsState(State):
    """One deal of Rams with the running trick and Kartoffel totals and the ranking so far."""

    GAME: ClassVar[str] = "rams"
    OPTIONS: ClassVar[type[BaseModel]] = RamsOptions
    PLAYERS: ClassVar[tuple[int, int]] = (3, 7)
    DEFAULT_PLAYERS: ClassVar[int] = 4
    FIELDS: ClassVar[dict[str, str]] = {
        "deal_deck": "mask", "blind": "mask", "blind_taker": "plain", "turned": "cards", "robbed": "plain",
        "choice": "plain", "aside": "mask", "draw": "cards",
    }
    LISTS: ClassVar[tuple[str, ...]] = ("choice",)
    SEAT_LISTS: ClassVar[tuple[str, ...]] = ("kartoffeln",)
    """Result keys that list seats rather than a number per seat (for statistics)."""
    PHASES: ClassVar[dict[str, frozenset[str]]] = {
        DECIDE_PHASE: frozenset({"take_blind", "play_hand", "pass", "exchange"}),
        PLAY_PHASE: frozenset({"play"}),
        OVER: frozenset(),
    }

    options: RamsOptions
    deal_deck: int
    """The cards of this deal (32 or 36)."""
    blind: int
    """The blind's cards (0 without a blind); it stays recorded after it was taken."""
    blind_taker: int
    """The seat that took the blind, -1 if nobody (yet)."""
    turned: list[int]
    """The Kehrer, or the Bälli and then the Kehrer that sets trump."""
    robbed: int
    """How many turned cards the dealer has taken (0..2); the trump-setting one first."""
    choice: list[str]
    """Per seat: "" undecided, "play", "blind", "pass" or "out" (reached the target)."""
    aside: int
    """Cards in no hand and not played: blind, taken blind-taker's hand, discards, turned cards, rest."""
    draw: list[int]
    """The order in which tie-break cards are drawn."""

    # ----------------------------------------------------------- dealing
    @classmethod
    def new_match(cls, options: RamsOptions, n: int) -> dict:
        """No tricks, no Kartoffeln, nobody ranked."""
        return _match(options, [0] * n, [0] * n, [])

    @classmethod
    def read_match(cls, options: RamsOptions, n: int, data: dict) -> dict:
        """The match from a replay file's ``match``: consistent totals and an unfinished ranking."""
        extra = set(data) - {"tricks", "kartoffeln", "ranking", "winner", "settlement"}
        if extra:
            raise ValueError(f"unknown match keys for rams: {', '.join(sorted(extra))}")
        tricks = _seat_list(data.get("tricks", [0] * n), n, "tricks")
        kartoffeln = _seat_list(data.get("kartoffeln", [0] * n), n, "kartoffeln")
        ranking = data.get("ranking", [])
        if not (isinstance(ranking, list) and len(set(ranking)) == len(ranking)
                and all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n for s in ranking)):
            raise ValueError("match ranking must list distinct seats")
        if len(ranking) > 1 or data.get("winner") is not None or data.get("settlement") is not None:
            raise ValueError("the match is already decided (second place is known)")
        target = target_of(options, n)
        for s in range(n):
            if (s in ranking) != (tricks[s] >= target):
                raise ValueError(f"seat {s} has {tricks[s]} tricks: ranked exactly when at the target {target}")
        return _match(options, tricks, kartoffeln, list(ranking))

    @classmethod
    def deck(cls, options: RamsOptions, n: int, match: dict) -> int:
        """32 or 36 cards by the number of players still in (``rules/rams.md``, Setup)."""
        return _deal_shape(options, n - len(_out_seats(match, n)))[0]

    @classmethod
    def seats_in(cls, n: int, match: dict, dealer: int) -> list[int]:
        """The seats still in the game, from the forehand to the dealer."""
        out = _out_seats(match, n)
        return [s for s in ((dealer + 1 + i) % n for i in range(n)) if s not in out]

    @classmethod
    def packets(cls, options: RamsOptions, n: int, match: dict, dealer: int,
                order: list[int]) -> tuple[list[list[int]], list[int], list[int]]:
        """5 cards to each player still in, then the blind, then the Kehrer (after a Bälli the next card)."""
        seats = cls.seats_in(n, match, dealer)
        deck, has_blind = _deal_shape(options, len(seats))
        hands: list[list[int]] = [[] for _ in range(n)]
        pos = 0
        for s in seats:
            hands[s] = order[pos:pos + HAND_SIZE]
            pos += HAND_SIZE
        blind = order[pos:pos + HAND_SIZE] if has_blind else []
        pos += len(blind)
        turned = order[pos:pos + 2] if order[pos] == BAELLI and deck == DECK32 else order[pos:pos + 1]
        return hands, blind, turned

    @classmethod
    def start(cls, options: RamsOptions, n: int, dealer: int, match: dict, hands: list[list[int]],
              blind: list[int], turned: list[int]) -> "RamsState":
        """The deal before the decisions; the trump is the suit of the last turned card."""
        out = _out_seats(match, n)
        if dealer in out:
            raise ValueError(f"dealer {dealer} has reached the target and no longer plays")
        seats = cls.seats_in(n, match, dealer)
        deck, has_blind = _deal_shape(options, len(seats))
        two = bool(turned) and turned[0] == BAELLI and deck == DECK32
        check_cards(deck, [(f"hand of seat {s}", hands[s], 0 if s in out else HAND_SIZE) for s in range(n)]
                    + [("blind", blind, HAND_SIZE if has_blind else 0), ("turned", turned, 2 if two else 1)])
        st = cls()
        st.init_core(options, n, dealer, match, [mask_of(h) for h in hands])
        st.phase = DECIDE_PHASE
        st.active = [s not in out for s in range(n)]
        st.choice = ["out" if s in out else "" for s in range(n)]
        st.to_act = seats[0]
        st.deal_deck = deck
        st.blind = mask_of(blind)
        st.blind_taker = -1
        st.turned = list(turned)
        st.robbed = 0
        dealt = [c for s in seats for c in hands[s]] + blind + turned
        rest = cards_in(deck & ~mask_of(dealt))
        st.aside = deck & ~mask_of(c for s in seats for c in hands[s])
        st.draw = (dealt + rest)[::-1]
        st.set_trump(suit_of(turned[-1]))
        return st

    def next_deal(self, order: list[int]) -> "RamsState":
        """As the core's, drawing tie-break cards from the bottom of this shuffled deck."""
        st = super().next_deal(order)
        st.draw = order[::-1]
        return st

    def next_dealer(self) -> int:
        """The next player after the dealer who is still in the game."""
        out = _out_seats(self.match, self.n)
        s = (self.dealer + 1) % self.n
        while s in out:
            s = (s + 1) % self.n
        return s

    # ----------------------------------------------------------- hooks
    def make_order(self, trump: int) -> TrumpOrder:
        """The prebuilt order of ``trump``."""
        return ORDERS[trump]

    def may_pass(self, seat: int) -> bool:
        """Passing leaves at least two players: those in plus those still to decide after ``seat``."""
        if seat == self.dealer and self.robbed:
            return False
        choice = self.choice
        return sum(c in _IN for c in choice) + choice.count("") - 1 >= 2

    def turn_actions(self) -> list[Action]:
        """Exchange (dealer, turned cards left), take_blind (still there), play_hand, pass (if allowed)."""
        seat = self.to_act
        acts = []
        if seat == self.dealer and self.robbed < len(self.turned):
            acts += [Action("exchange", c) for c in cards_in(self.hands[seat])]
        if self.blind and self.blind_taker < 0 and not (seat == self.dealer and self.robbed):
            acts.append(TAKE_BLIND)
        acts.append(PLAY_HAND)
        if self.may_pass(seat):
            acts.append(PASS)
        return acts

    def legal_cards(self) -> int:
        """Lead rules of tricks 1 and 2; follow (no trumping then), else trump; always overtrump."""
        hand = self.hands[self.to_act]
        order = self.order
        trick = self.trick
        if not trick:
            if not self.tricks:
                return hand & _TRUMP_ACE[self.trump] or hand
            if len(self.tricks) == 1:
                return hand & order.trumps or hand
            return hand
        led = order.eff[trick[0]]
        follow = hand & order.suit_mask[led]
        if follow and led != TRUMP:
            return follow
        trumps = follow or hand & order.trumps
        if not trumps:
            return hand
        best = self.best_in_trick()
        if order.eff[best] != TRUMP:
            return trumps
        return trumps & order.above[best] or trumps

    def restriction(self) -> str:
        """The lead, follow or trump rule that limits the seat to act now, or ""."""
        if self.phase != PLAY_PHASE:
            return ""
        hand = self.hands[self.to_act]
        legal = self.legal_cards()
        if legal == hand:
            return ""
        if not self.trick:
            return "trump_ace_first" if not self.tricks else "must_lead_trump"
        order = self.order
        led = order.eff[self.trick[0]]
        if led != TRUMP and hand & order.suit_mask[led]:
            return "must_follow"
        trumps = hand & order.trumps
        return "must_overtrump" if legal != trumps else ("must_follow" if led == TRUMP else "must_trump")

    def public_info(self) -> dict:
        """Turned cards, how many the dealer took, each seat's decision, the blind, the target."""
        return {
            "turned": card_strs(self.turned),
            "robbed": self.robbed,
            "choices": list(self.choice),
            "blind": bool(self.blind),
            "blind_taker": self.blind_taker if self.blind_taker >= 0 else None,
            "target": target_of(self.options, self.n),
        }

    def known_cards(self) -> int:
        """The turned cards the dealer has taken and still holds."""
        return self.hands[self.dealer] & mask_of(self.turned)

    def set_aside(self) -> int:
        """Blind, the blind-taker's dealt hand, discards, turned cards not taken, the undealt rest."""
        return self.aside

    # ----------------------------------------------------------- decisions
    def decided(self, seat: int, what: str) -> None:
        """Record ``seat``'s decision; the next undecided seat acts, after the dealer play begins."""
        self.choice[seat] = what
        self.events.append({"type": "decision", "seat": seat, "choice": what})
        n, choice = self.n, self.choice
        for i in range(1, n):
            s = (seat + i) % n
            if not choice[s]:
                self.to_act = s
                return
        self.active = [c in _IN for c in choice]
        self.start_play((self.dealer + 1) % n)

    def on_take_blind(self, seat: int, action: Action) -> None:
        """Play the blind instead of the dealt hand (which is set aside)."""
        self.aside = self.aside & ~self.blind | self.hands[seat]
        self.hands[seat] = self.blind
        self.blind_taker = seat
        self.decided(seat, "blind")

    def on_play_hand(self, seat: int, action: Action) -> None:
        """Play the dealt hand."""
        self.decided(seat, "play")

    def on_pass(self, seat: int, action: Action) -> None:
        """Sit this deal out."""
        self.decided(seat, "pass")

    def on_exchange(self, seat: int, action: Action) -> None:
        """The dealer discards ``action.card`` and takes the Kehrer, the second time the Bälli."""
        taken = self.turned[-1 - self.robbed]
        self.robbed += 1
        self.hands[seat] = self.hands[seat] & ~(1 << action.card) | 1 << taken
        self.aside = self.aside & ~(1 << taken) | 1 << action.card
        self.events.append({"type": "robbed", "seat": seat, "card": card_str(taken)})

    # ----------------------------------------------------------- scoring
    def finish(self) -> None:
        """Tricks and Kartoffeln of the deal; rank who reached the target, and the rest once second is known."""
        n, won = self.n, list(self.won)
        kartoffeln = [s for s in range(n) if self.active[s] and not won[s]]
        totals = [a + b for a, b in zip(self.match["tricks"], won)]
        marks = list(self.match["kartoffeln"])
        for s in kartoffeln:
            marks[s] += 1
        ranking = list(self.match["ranking"])
        order = [(self.dealer + 1 + i) % n for i in range(n)]
        draw = iter(self.draw)
        target = target_of(self.options, n)
        ranking += self.ranked([s for s in order if s not in ranking and totals[s] >= target],
                               lambda s: -won[s], draw)
        if len(ranking) >= 2:
            ranking += self.ranked([s for s in order if s not in ranking],
                                   lambda s: (-totals[s], marks[s]), draw)
        self.end_deal({"tricks": won, "kartoffeln": kartoffeln}, _match(self.options, totals, marks, ranking))

    def ranked(self, seats: list[int], key, draw) -> list[int]:
        """``seats`` best first by ``key``; equal keys by a card drawn from ``draw`` for each, in seat order."""
        out = []
        for _, group in groupby(sorted(seats, key=key), key=key):
            tied = list(group)
            if len(tied) > 1:
                drawn = {s: next(draw) for s in tied}
                self.events.append({"type": "draw", "cards": {str(s): card_str(c) for s, c in drawn.items()}})
                tied.sort(key=lambda s: _draw_key(drawn[s]))
            out += tied
        return out
