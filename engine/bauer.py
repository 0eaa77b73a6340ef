"""Bauer (Saarland): a four-player partnership game with right and left bower, Stoßen and Brote.

Rule source: ``rules/bauer.md`` (from seed 002, Spielwiki "Bauer (Kartenspiel)").

Decisions the rules leave open, taken here:

- The forehand may name any of the four suits as trump, whether or not his first four cards
  hold one ("bestimmt mit Hilfe dieser vier Karten eine Trumpffarbe": he decides after seeing them).
- Stoß and Stoß back are out-of-turn offers (the seat to act finds them among its legal actions)
  from the naming of trump until the deal is decided (``bauer.md``). In a Karten weg deal the
  roles stay those of the trump naming ("Stoßen applies to it as above"): the team that did not
  name trump stößt, the trump team stößt back, whichever of them plays alone (so a soloist of
  the team that did not name trump may raise his own stake). The partner who laid his cards away
  takes no part in the deal and can neither stoßen nor stoß back. A Karten weg deal is decided
  only by its end (or its first lost trick).
- Karten weg can be declared once per deal, by any seat, between the naming of trump and the
  first card; a Stoß already given stays. The partner's cards leave the deal (``set_aside``).
- A deal is always played to its last card (the seed: "Sobald alle Karten gespielt wurden"),
  except Karten weg, which ends at the soloist's first lost trick.
- ``read_match`` refuses a match that is already decided (a team holding ``target_brote``) and
  a running score below 1 (a team at 0 has won the Brot and both restarted at 8).

Speed: the four trump orders of each deck are built once at import; ``legal_cards`` is a few
bit operations and ``play_card`` is a faster equivalent of the core's for four seats.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from .actions import Action
from .cards import DECK20, DECK32, EYES, SUITS, card, card_str
from .order import TrumpOrder
from .registry import register
from .state import OVER, PLAY_PHASE, State

__all__ = ["BauerOptions", "BauerState", "ORDERS", "NAME_PHASE", "START_SCORE", "TRICKS_TO_WIN", "STOSS", "KARTEN_WEG",
           "left_bower"]

NAME_PHASE = "name"
START_SCORE = 8
"""Each team counts its Brot down from 8 points."""

STOSS = Action("stoss")
KARTEN_WEG = Action("karten_weg")
_NAME_ACTIONS = tuple(Action("name_trump", suit=s) for s in range(4))
_CARD_STRS = tuple(card_str(c) for c in range(36))
_BITS = tuple(1 << c for c in range(36))
TRICKS_TO_WIN = {False: (5, 4), True: (3, 3)}
"""Per ``short_deck``: the tricks that win the deal for the trump team and for the other team."""
_MULTIPLIER = (1, 2, 4)
"""The stake after no Stoß, a Stoß, a Stoß back."""


class BauerOptions(BaseModel):
    """Table options of Bauer (``rules/bauer.md``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    lead_trump_first: bool = True
    short_deck: bool = False
    target_brote: int = Field(3, ge=1, le=10)


def left_bower(trump: int) -> int:
    """The jack of the other suit of the trump's colour (clubs ↔ spades, hearts ↔ diamonds)."""
    return card("J", SUITS[trump ^ 1])


def _build_order(trump: int, short: bool) -> TrumpOrder:
    """Right bower, left bower, then the trump suit; plain suits with the ten below the jack."""
    ranks = "AKQT" if short else "AKQT987"
    trumps = [card("J", SUITS[trump]), left_bower(trump)] + [card(r, SUITS[trump]) for r in ranks]
    return TrumpOrder(trump, trumps, "AKQJT" if short else "AKQJT987", DECK20 if short else DECK32)


ORDERS = {short: tuple(_build_order(t, short) for t in range(4)) for short in (False, True)}
"""The card order per ``short_deck`` flag and trump suit, built once."""


@register
class BauerState(State):
    """One deal of Bauer with the running Brot score and the Brote won."""

    GAME: ClassVar[str] = "bauer"
    OFFERS: ClassVar[frozenset[str]] = frozenset({"stoss", "karten_weg"})
    OPTIONS: ClassVar[type[BaseModel]] = BauerOptions
    FIELDS: ClassVar[dict[str, str]] = {
        "first": "masks", "caller": "plain", "stossed": "plain", "alone": "plain", "out": "mask",
        "stoss_team": "plain", "may_karten_weg": "plain",
    }
    LISTS: ClassVar[tuple[str, ...]] = ("stossed",)
    PHASES: ClassVar[dict[str, frozenset[str]]] = {
        NAME_PHASE: frozenset({"name_trump"}),
        PLAY_PHASE: frozenset({"play", "stoss", "karten_weg"}),
        OVER: frozenset(),
    }

    options: BauerOptions
    first: list[int]
    """Each seat's first packet: all he has seen before trump is named."""
    caller: int
    """The seat that named trump (-1 before)."""
    stossed: list[int]
    """The seats that gave the Stoß and the Stoß back, in order."""
    alone: int
    """The seat playing Karten weg (-1 if none)."""
    out: int
    """The cards the Karten weg player's partner laid away."""
    stoss_team: int
    """The team that may give the next Stoß now; -1 before trump, after both, once the deal is decided."""
    may_karten_weg: bool
    """Whether Karten weg can be declared now (trump named, no card played, nobody alone yet)."""

    # ----------------------------------------------------------- dealing
    @classmethod
    def new_match(cls, options: BauerOptions, n: int) -> dict:
        """Both teams at 8, no Brot won."""
        return {"score": [START_SCORE, START_SCORE], "brote": [0, 0], "winner": None}

    @classmethod
    def read_match(cls, options: BauerOptions, n: int, data: dict) -> dict:
        """The match from a replay file's ``match`` (missing keys: a fresh match)."""
        extra = set(data) - {"score", "brote", "winner"}
        if extra:
            raise ValueError(f"unknown match keys for bauer: {', '.join(sorted(extra))}")
        match = cls.new_match(options, n)
        for key, low in (("score", 1), ("brote", 0)):
            if key in data:
                value = data[key]
                if not (isinstance(value, list) and len(value) == 2
                        and all(isinstance(x, int) and not isinstance(x, bool) and x >= low for x in value)):
                    raise ValueError(f"match {key} must be two whole numbers of at least {low}")
                match[key] = list(value)
        if data.get("winner") is not None or max(match["brote"]) >= options.target_brote:
            raise ValueError("the match is already decided")
        return match

    @classmethod
    def deck(cls, options: BauerOptions, n: int, match: dict) -> int:
        """32 cards, or 20 with ``short_deck``."""
        return DECK20 if options.short_deck else DECK32

    @classmethod
    def packet_sizes(cls, options: BauerOptions) -> tuple[int, ...]:
        """4 then 4 cards to each seat (3 then 2 with ``short_deck``)."""
        return (3, 2) if options.short_deck else (4, 4)

    @classmethod
    def start(cls, options: BauerOptions, n: int, dealer: int, match: dict, hands: list[list[int]],
              blind: list[int], turned: list[int]) -> "BauerState":
        """The deal before trump is named; the forehand names it."""
        cls.check_dealt(options, n, match, hands, blind, turned)
        return cls._dealt(options, n, dealer, match, hands)

    def next_deal(self, order: list[int]) -> "BauerState":
        """As the core's, without re-checking the packets of our own shuffled deck."""
        dealer = self.next_dealer()
        hands, _, _ = self.packets(self.options, self.n, self.match, dealer, order)
        return self._dealt(self.options, self.n, dealer, self.match, hands)

    @classmethod
    def _dealt(cls, options: BauerOptions, n: int, dealer: int, match: dict,
               hands: list[list[int]]) -> "BauerState":
        """The state of a deal of checked hands, before trump is named."""
        first = cls.packet_sizes(options)[0]
        st = cls()
        st.init_core(options, n, dealer, match, [sum(map(_BITS.__getitem__, h)) for h in hands])
        st.phase = NAME_PHASE
        st.first = [sum(map(_BITS.__getitem__, h[:first])) for h in hands]
        st.caller = -1
        st.stossed = []
        st.alone = -1
        st.out = 0
        st.stoss_team = -1
        st.may_karten_weg = False
        return st

    # ----------------------------------------------------------- hooks
    def make_order(self, trump: int) -> TrumpOrder:
        """The prebuilt order of ``trump`` for this deck."""
        return ORDERS[self.options.short_deck][trump]

    def turn_actions(self) -> list[Action]:
        """Naming trump: any of the four suits."""
        return list(_NAME_ACTIONS)

    def legal_cards(self) -> int:
        """Follow the led suit if possible (the left bower is a trump); the first lead must be a trump."""
        hand = self.hands[self.to_act]
        trick = self.trick
        order = self.order
        if trick:
            return hand & order.suit_mask[order.eff[trick[0]]] or hand
        if not self.tricks and self.options.lead_trump_first:
            return hand & order.trumps or hand
        return hand

    def restriction(self) -> str:
        """``must_follow`` or ``must_lead_trump`` while that rule limits the seat to act."""
        if self.phase != PLAY_PHASE or self.legal_cards() == self.hands[self.to_act]:
            return ""
        return "must_follow" if self.trick else "must_lead_trump"

    def offers_for(self, seat: int) -> list[Action]:
        """Stoß (or Stoß back) for an active seat of the team whose turn it is, Karten weg before the first card."""
        acts = [STOSS] if seat & 1 == self.stoss_team and self.active[seat] else []
        if self.may_karten_weg:
            acts.append(KARTEN_WEG)
        return acts

    def offers(self) -> dict[int, list[Action]]:
        """As the core's; fast while only Stoß can be open (it runs before every card of a simulation)."""
        team = self.stoss_team
        if self.may_karten_weg:
            return {s: acts for s in range(4) if s != self.to_act and (acts := self.offers_for(s))}
        if team < 0:
            return {}
        out = {}
        to_act, active = self.to_act, self.active
        if team != to_act and active[team]:
            out[team] = [STOSS]
        if team + 2 != to_act and active[team + 2]:
            out[team + 2] = [STOSS]
        return out

    def public_info(self) -> dict:
        """Who named trump, who gave Stoß and Stoß back, who plays Karten weg."""
        return {
            "caller": self.caller if self.caller >= 0 else None,
            "stoss": list(self.stossed),
            "karten_weg": self.alone if self.alone >= 0 else None,
        }

    def set_aside(self) -> int:
        """The cards laid away by the Karten weg player's partner."""
        return self.out

    def visible_hand(self, seat: int) -> int:
        """Before trump is named a seat has received only its first packet."""
        if self.phase == NAME_PHASE:
            return self.hands[seat] & self.first[seat]
        return self.hands[seat]

    # ----------------------------------------------------------- actions
    def on_name_trump(self, seat: int, action: Action) -> None:
        """The forehand names trump; the rest of the cards are dealt and he leads."""
        self.caller = seat
        self.stoss_team = (seat & 1) ^ 1
        self.may_karten_weg = True
        self.set_trump(action.suit)
        self.events.append({"type": "trump_named", "seat": seat, "suit": SUITS[action.suit]})
        self.start_play(seat)

    def on_stoss(self, seat: int, action: Action) -> None:
        """Stoß (doubles the deal) or Stoß back (quadruples it)."""
        self.stossed.append(seat)
        self.stoss_team = self.caller & 1 if len(self.stossed) == 1 else -1
        self.events.append({"type": "stoss", "seat": seat, "level": len(self.stossed)})

    def on_karten_weg(self, seat: int, action: Action) -> None:
        """``seat`` plays alone: his partner's cards leave the deal and he leads."""
        partner = seat ^ 2
        self.alone = seat
        self.may_karten_weg = False
        self.active[partner] = False
        self.out = self.hands[partner]
        self.hands[partner] = 0
        self.leader = self.to_act = seat
        self.events.append({"type": "karten_weg", "seat": seat})

    def play_card(self, c: int) -> None:
        """The core's ``play_card`` for four seats, without its general per-card seat search."""
        seat = self.to_act
        self.hands[seat] &= ~(1 << c)
        self.may_karten_weg = False
        trick = self.trick
        trick.append(c)
        alone = self.alone
        out_seat = alone ^ 2  # the seat laid away in Karten weg; negative (no seat) otherwise
        if len(trick) < (4 if alone < 0 else 3):
            seat = (seat + 1) & 3
            self.to_act = seat if seat != out_seat else (seat + 1) & 3
            return
        leader = self.leader
        win_i = self.order.winner_index(trick)
        if alone < 0:
            winner = (leader + win_i) & 3
        else:
            winner = leader
            for _ in range(win_i):
                winner = (winner + 1) & 3
                if winner == out_seat:
                    winner = (winner + 1) & 3
        cards = tuple(trick)
        self.tricks.append((leader, cards, winner))
        self.won[winner] += 1
        self.eyes[winner] += sum(map(EYES.__getitem__, cards))
        self.trick = []
        self.leader = self.to_act = winner
        self.events.append({"type": "trick", "leader": leader, "cards": list(map(_CARD_STRS.__getitem__, cards)),
                            "winner": winner})
        self.after_trick(winner)

    def after_trick(self, winner: int) -> None:
        """Close the Stoß once the deal is decided; end it with the cards or the Karten weg player's first loss."""
        if not self.hands[winner] or self.alone >= 0 and (winner ^ self.alone) & 1:
            self.finish()
        elif self.stoss_team >= 0 and self.alone < 0:
            won, team = self.won, self.caller & 1
            need_trump, need_other = TRICKS_TO_WIN[self.options.short_deck]
            if won[team] + won[team + 2] >= need_trump or won[team ^ 1] + won[(team ^ 1) + 2] >= need_other:
                self.stoss_team = -1

    # ----------------------------------------------------------- scoring
    def finish(self) -> None:
        """Score the deal: Brot points, or for Karten weg a whole Brot (times the Stoß)."""
        won = self.won
        tricks = [won[0] + won[2], won[1] + won[3]]
        self.stoss_team = -1
        stake = _MULTIPLIER[len(self.stossed)]
        score = list(self.match["score"])
        brote = list(self.match["brote"])
        change = [0, 0]
        if self.alone >= 0:
            team = self.alone & 1
            winner = team if tricks[team ^ 1] == 0 else team ^ 1
            brote[winner] += stake
            brot: int | None = winner
        else:
            trump_team = self.caller & 1
            winner = trump_team if tricks[trump_team] >= TRICKS_TO_WIN[self.options.short_deck][0] else trump_team ^ 1
            if tricks[winner ^ 1] == 0:
                stake *= 2
            change[winner] = -stake
            if winner != trump_team:
                change[trump_team] = stake
            score = [score[0] + change[0], score[1] + change[1]]
            brot = None
            if score[winner] <= 0:
                brot = winner
                brote[winner] += 1
                score = [START_SCORE, START_SCORE]
        champion = next((t for t in (0, 1) if brote[t] >= self.options.target_brote), None)
        self.end_deal({"tricks": tricks, "change": change, "brot": brot},
                      {"score": score, "brote": brote, "winner": champion})
