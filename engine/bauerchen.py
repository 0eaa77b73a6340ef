"""Bauerchen (Pfalz, around Kaiserslautern): four players in two teams, 20 cards, jacks always trump.

Source: ``rules/bauerchen.md`` (from seed ``001_c1574496d7b59cdb.txt``, a draft German Wikipedia
article). Decisions the rules file leaves to the code:

- The deal is stored whole; before trump is named (``trump_after_cards`` 2) each seat's
  :meth:`~BauerchenState.visible_hand` is only its first packet of two cards.
- A meld is a second ``play`` entry of the led K or Q (``meld`` true). It stays legal when it
  would score nothing (no melding out): the table still hears "20"/"40", the match does not
  move. The meld makes the other card of the pair public (:meth:`known_cards`), as does
  die Letzte for the fifth card. ``forty_at_ten`` means two points below the round's end,
  so 29 with ``weiterschreiben``.
- Spritzen is an out-of-turn offer in the play phase: the away team calls first, then the
  teams alternate; it stops once the last card is played or a team holds enough eyes in its
  tricks (home 66, away 65). No Spritzen after a Ledig.
- Only one Ledig per deal. A Ledig deal ends as soon as the opponents take a trick; its
  ``eyes`` are those taken so far (the last trick's 10 only after five tricks). Melds stay
  allowed in a Ledig deal (they cannot change its outcome, the round ends anyway).
- ``match`` during a deal already holds the melds credited so far; after a round, Knoddel and
  Stein it shows the next round's start.
- ``weiterschreiben``: the carried points are capped at 30, so that a new round is never won
  before a card of it is played (players would not write a round that is over already).
- A replay's ``match`` must not name a ``winner``: a decided match has no further deal.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from .actions import PLAY, Action
from .cards import DECK20, JACKS, SUITS, bit, card, card_str, card_strs, cards_in, mask_of, suit_of
from .order import TRUMP, TrumpOrder
from .registry import register
from .state import PLAY_PHASE, State

__all__ = [
    "BauerchenOptions", "BauerchenState", "NAME_PHASE", "SPRITZ", "LEDIG", "DIE_LETZTE", "MELD_PARTNER",
    "deal_points", "meld_value", "round_end",
]

NAME_PHASE = "name"
HOME_WINS_AT = 66
AWAY_WINS_AT = 65
LAST_TRICK = 10
TRICKS = 5

SPRITZ = Action("spritz")
LEDIG = Action("ledig")
DIE_LETZTE = Action("die_letzte")
NAME_ACTIONS = tuple(Action("name_trump", suit=s) for s in range(4))

_JACKS_HIGH_TO_LOW = [card("J", s) for s in SUITS]
_ORDERS = tuple(TrumpOrder(s, _JACKS_HIGH_TO_LOW + [card(r, SUITS[s]) for r in "ATKQ"], "ATKQ", DECK20)
                for s in range(4))
"""The card order of each trump suit, built once."""


def _meld_partners() -> tuple[int, ...]:
    """The table of :data:`MELD_PARTNER`."""
    partner = [-1] * 36
    for s in SUITS:
        k, q = card("K", s), card("Q", s)
        partner[k], partner[q] = q, k
    return tuple(partner)


MELD_PARTNER = _meld_partners()
"""For a king or queen the other card of its pair, else -1."""


class BauerchenOptions(BaseModel):
    """Table options of Bauerchen (defaults as in the rules file)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    trump_after_cards: Literal[2, 5] = 2
    die_letzte: bool = True
    overtrump_on_trump_lead_only: bool = False
    forty_at_ten: bool = False
    weiterschreiben: bool = False
    ledig_in_decider: bool = True
    target_steine: int = Field(default=1, ge=1, le=10)


def round_end(options: BauerchenOptions) -> int:
    """The points that end a round: 12, or 31 with ``weiterschreiben``."""
    return 31 if options.weiterschreiben else 12


def meld_value(options: BauerchenOptions, score: int, trump_meld: bool) -> int:
    """The points a 20 (``trump_meld`` False) or 40 credits to a team that has ``score``.

    A meld that would reach the round's end scores nothing; with ``forty_at_ten`` a 40 two
    points below the end scores 1.
    """
    value = 2 if trump_meld else 1
    end = round_end(options)
    if score + value < end:
        return value
    if trump_meld and options.forty_at_ten and score == end - 2:
        return 1
    return 0


def deal_points(loser_eyes: int, away_won: bool, calls: int) -> int:
    """The winner's points: 3/2/1 by the loser's eyes, +1 if away won, doubled per Spritzen call."""
    base = 3 if loser_eyes == 0 else 2 if loser_eyes <= 32 else 1
    return (base + away_won) << calls


def _pair(values: object, name: str, low: int, high: int) -> list[int]:
    """A [team0, team1] list of ints in low..high, or ``ValueError``."""
    if (not isinstance(values, list) or len(values) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and low <= v <= high for v in values)):
        raise ValueError(f"match.{name} must be two whole numbers from {low} to {high}")
    return list(values)


@register
class BauerchenState(State):
    """One Bauerchen deal: naming trump, Spritzen, Ledig, five tricks with melds, and the match around it."""

    GAME: ClassVar[str] = "bauerchen"
    OFFERS: ClassVar[frozenset[str]] = frozenset({"spritz", "ledig"})
    DECK: ClassVar[int] = DECK20
    PACKETS: ClassVar[tuple[int, ...]] = (2, 3)
    OPTIONS: ClassVar[type[BaseModel]] = BauerchenOptions
    PLAY_VARIANTS: ClassVar[bool] = True
    FIELDS: ClassVar[dict[str, str]] = {
        "first": "masks", "fifth": "card", "letzte": "plain", "home": "plain", "spritz": "plain",
        "ledig": "plain", "aside": "mask", "melds": "plain", "shown": "mask",
    }
    LISTS: ClassVar[tuple[str, ...]] = ("melds",)
    PHASES: ClassVar[dict[str, frozenset[str]]] = {
        NAME_PHASE: frozenset({"name_trump", "die_letzte"}),
        PLAY_PHASE: frozenset({"play", "spritz", "ledig"}),
    }

    options: BauerchenOptions
    first: list[int]
    fifth: int
    letzte: bool
    home: int
    spritz: int
    ledig: int | None
    aside: int
    melds: list[int]
    shown: int

    # ----------------------------------------------------------- match and dealing
    @classmethod
    def new_match(cls, options: BaseModel, n: int) -> dict:
        """A fresh table: no points, Knoddel or Steine."""
        return {"score": [0, 0], "knoddel": [0, 0], "steine": [0, 0], "winner": None}

    @classmethod
    def read_match(cls, options: BaseModel, n: int, data: dict) -> dict:
        """The full match from a replay's partial ``match``; ``ValueError`` for bad keys or values."""
        match = cls.new_match(options, n)
        extra = set(data) - set(match)
        if extra:
            raise ValueError(f"unknown match keys: {', '.join(sorted(extra))}")
        if data.get("winner") is not None:
            raise ValueError("match.winner is set: the match is already decided")
        limits = {"score": round_end(options) - 1, "knoddel": 1, "steine": options.target_steine - 1}
        for key, high in limits.items():
            if key in data:
                match[key] = _pair(data[key], key, 0, high)
        return match

    @classmethod
    def start(cls, options: BaseModel, n: int, dealer: int, match: dict, hands: list[list[int]],
              blind: list[int], turned: list[int]) -> "BauerchenState":
        """The deal after dealing: the forehand names trump (or, with 5 cards first, too)."""
        cls.check_dealt(options, n, match, hands, blind, turned)
        st = cls.__new__(cls)
        st.init_core(options, n, dealer, match, [mask_of(h) for h in hands])
        forehand = (dealer + 1) % n
        st.first = [mask_of(h[:2]) for h in hands]
        st.fifth = hands[forehand][4]
        st.letzte = False
        st.home = forehand % 2
        st.spritz = 0
        st.ledig = None
        st.aside = 0
        st.melds = [0, 0]
        st.shown = 0
        st.phase = NAME_PHASE
        return st

    # ----------------------------------------------------------- hooks
    def make_order(self, trump: int) -> TrumpOrder:
        """The cached card order of ``trump``."""
        return _ORDERS[trump]

    def can_say_letzte(self) -> bool:
        """Whether the forehand may say die Letzte: option on, two cards seen, both jacks."""
        opts = self.options
        if not opts.die_letzte or opts.trump_after_cards != 2:
            return False
        first = self.first[self.to_act]
        return first & JACKS == first

    def turn_actions(self) -> list[Action]:
        """Naming trump: the four suits, and die Letzte where allowed."""
        acts = list(NAME_ACTIONS)
        if self.can_say_letzte():
            acts.append(DIE_LETZTE)
        return acts

    def team_eyes(self) -> list[int]:
        """The eyes in each team's tricks (without the last trick's 10)."""
        e = self.eyes
        return [e[0] + e[2], e[1] + e[3]]

    def decided(self) -> bool:
        """Whether a team already holds enough eyes to win the deal (home 66, away 65)."""
        eyes = self.team_eyes()
        return eyes[self.home] >= HOME_WINS_AT or eyes[1 - self.home] >= AWAY_WINS_AT

    def spritz_team(self) -> int:
        """The team whose turn it is to spritz: away first, then alternating."""
        return 1 - self.home if self.spritz % 2 == 0 else self.home

    def decider(self) -> bool:
        """Whether this round is the Gehampelter (one Knoddel each)."""
        return self.match["knoddel"] == [1, 1]

    def ledig_open(self) -> bool:
        """Whether Ledig may still be declared: no Ledig yet, no card led, allowed in this round."""
        return (self.ledig is None and not self.tricks and not self.trick
                and (self.options.ledig_in_decider or not self.decider()))

    def offers_for(self, seat: int) -> list[Action]:
        """Spritzen for the team whose call it is, Ledig before the first lead."""
        if self.phase != PLAY_PHASE or self.ledig is not None:
            return []
        acts = []
        if seat % 2 == self.spritz_team() and not self.decided():
            acts.append(SPRITZ)
        if self.ledig_open():
            acts.append(LEDIG)
        return acts

    def legal_cards(self) -> int:
        """Bedienregeln 1-4: follow, else trump, else anything; a trump over a trump must beat it."""
        hand = self.hands[self.to_act]
        trick = self.trick
        if not trick:
            return hand
        order = self.order
        led = order.eff[trick[0]]
        follow = hand & order.suit_mask[led]
        if led != TRUMP:
            if follow:
                return follow
            follow = hand & order.suit_mask[TRUMP]
            if not follow or self.options.overtrump_on_trump_lead_only:
                return follow or hand
        elif not follow:
            return hand
        best = trick[order.winner_index(trick)]
        if order.eff[best] != TRUMP:
            return follow
        return follow & order.above[best] or follow

    def restriction(self) -> str:
        """The hint key for the current restriction of the seat to act."""
        if not self.trick:
            return ""
        order = self.order
        hand = self.hands[self.to_act]
        legal = self.legal_cards()
        if legal == hand:
            return ""
        trumps = hand & order.suit_mask[TRUMP]
        if legal != trumps and not legal & ~trumps:
            return "must_overtrump"
        return "must_follow" if hand & order.suit_mask[order.eff[self.trick[0]]] else "must_trump"

    def play_actions(self) -> list[Action]:
        """One ``play`` per legal card, plus a ``meld`` variant of a led K or Q whose pair is held."""
        cards = cards_in(self.legal_cards())
        if self.trick:
            return [Action(PLAY, c) for c in cards]
        hand = self.hands[self.to_act]
        out = []
        for c in cards:
            out.append(Action(PLAY, c))
            other = MELD_PARTNER[c]
            if other >= 0 and hand >> other & 1:
                out.append(Action(PLAY, c, meld=True))
        return out

    def after_trick(self, winner: int) -> None:
        """End after five tricks, or a Ledig deal as soon as the opponents take a trick."""
        if not self.hands[winner] or self.ledig is not None and winner % 2 != self.ledig % 2:
            self.finish()

    def finish(self) -> None:
        """Score the deal (or the Ledig) and move the match on."""
        eyes = self.team_eyes()
        if len(self.tricks) == TRICKS:
            eyes[self.tricks[-1][2] % 2] += LAST_TRICK
        points = [0, 0]
        score = list(self.match["score"])
        if self.ledig is not None:
            team = self.ledig % 2
            round_winner: int | None = team if self.tricks[-1][2] % 2 == team else 1 - team
        else:
            away = 1 - self.home
            winner = 0 if eyes[0] > eyes[1] else 1 if eyes[1] > eyes[0] else away
            points[winner] = deal_points(eyes[1 - winner], winner == away, self.spritz)
            score[winner] += points[winner]
            round_winner = winner if score[winner] >= round_end(self.options) else None
        match = self.next_round(score, round_winner)
        self.end_deal({"eyes": eyes, "points": points, "melds": list(self.melds),
                       "round_winner": round_winner}, match)

    def next_round(self, score: list[int], round_winner: int | None) -> dict:
        """The match after a deal: if a round was won, Knoddel, Stein and winner follow."""
        match = dict(self.match)
        if round_winner is None:
            match["score"] = score
            return match
        new_score = [0, 0]
        if self.options.weiterschreiben and self.ledig is None:
            end = round_end(self.options)
            new_score[round_winner] = min(score[round_winner] - end, end - 1)
        knoddel = list(match["knoddel"])
        steine = list(match["steine"])
        knoddel[1 - round_winner] += 1
        if knoddel[1 - round_winner] == 2:
            knoddel = [0, 0]
            steine[round_winner] += 1
            if steine[round_winner] >= self.options.target_steine:
                match["winner"] = round_winner
        match.update(score=new_score, knoddel=knoddel, steine=steine)
        return match

    def public_info(self) -> dict:
        """Home team, Spritzen calls and whose call is next, Ledig, die Letzte, the deal's melds."""
        return {
            "home": self.home,
            "spritz": self.spritz,
            "spritz_next": self.spritz_team() if self.phase == PLAY_PHASE and self.ledig is None else None,
            "ledig": self.ledig,
            "letzte": card_str(self.fifth) if self.letzte else None,
            "melds": list(self.melds),
            "shown": card_strs(self.known_cards()),
        }

    def known_cards(self) -> int:
        """Cards still in hands the table has seen: die Letzte's fifth card, the other card of a meld."""
        held = 0
        for h in self.hands:
            held |= h
        return self.shown & held

    def set_aside(self) -> int:
        """The cards of a Ledig player's partner, laid face down."""
        return self.aside

    def visible_hand(self, seat: int) -> int:
        """Before trump is named (after two cards) a seat holds only its first two cards."""
        if self.phase == NAME_PHASE and self.options.trump_after_cards == 2:
            return self.first[seat]
        return self.hands[seat]

    # ----------------------------------------------------------- actions
    def name(self, seat: int, suit: int) -> None:
        """Fix trump and start play with the forehand to lead."""
        self.set_trump(suit)
        self.events.append({"type": "trump_named", "seat": seat, "suit": SUITS[suit]})
        self.start_play(self.leader)

    def on_name_trump(self, seat: int, action: Action) -> None:
        """The forehand names a suit."""
        self.name(seat, action.suit)

    def on_die_letzte(self, seat: int, action: Action) -> None:
        """The forehand turns his fifth card: its printed suit is trump."""
        self.letzte = True
        self.shown |= bit(self.fifth)
        self.events.append({"type": "die_letzte", "seat": seat, "card": card_str(self.fifth)})
        self.name(seat, suit_of(self.fifth))

    def on_spritz(self, seat: int, action: Action) -> None:
        """Double the deal's points."""
        self.spritz += 1
        self.events.append({"type": "spritz", "seat": seat, "calls": self.spritz})

    def on_ledig(self, seat: int, action: Action) -> None:
        """Play alone: the partner lays his cards down and sits out; earlier Spritzen lapse."""
        partner = (seat + 2) % self.n
        self.ledig = seat
        self.spritz = 0
        self.aside = self.hands[partner]
        self.hands[partner] = 0
        self.active[partner] = False
        self.events.append({"type": "ledig", "seat": seat})
        self.start_play(self.leader)

    def on_play(self, seat: int, action: Action) -> None:
        """Play a card; a meld is credited at once (or not at all at the round's end)."""
        if action.meld:
            self.credit_meld(seat, action.card)
        self.play_card(action.card)

    def credit_meld(self, seat: int, c: int) -> None:
        """Credit the 20 or 40 of the led K/Q to the seat's team in the match score."""
        team = seat % 2
        trump_meld = suit_of(c) == self.trump
        score = list(self.match["score"])
        value = meld_value(self.options, score[team], trump_meld)
        score[team] += value
        self.melds[team] += value
        self.match = {**self.match, "score": score}
        self.shown |= bit(MELD_PARTNER[c])
        self.events.append({"type": "meld", "seat": seat, "cards": card_strs([c, MELD_PARTNER[c]]),
                            "meld": 40 if trump_meld else 20, "points": value})

