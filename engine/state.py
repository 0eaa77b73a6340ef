"""The shared trick-taking core and the validation pipeline every game state inherits.

A game's state class subclasses :class:`State`: it lists its own fields, its phases and
their actions, the legal cards of the seat to act, and how a deal ends and scores. The core
handles whose turn it is, tricks and their winner, eyes, JSON, cloning and the pipeline.
Methods named ``on_<action>`` and ``play_card`` mutate; the public API clones first.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel

from .actions import Action, PLAY
from .cards import EYES, card_str, card_strs, cards_in, mask_of, parse_card, SUITS
from .deal import check_hands, deal_rounds
from .order import TRUMP, TrumpOrder
from .rejection import Code, Rejected

__all__ = ["State", "OVER", "PLAY_PHASE"]

OVER = "over"
PLAY_PHASE = "play"

# How each field is written to JSON: plain values, a card mask, a list of masks, a card
# id (-1 = none), a list of card ids.
_ENCODE = {
    "plain": lambda v: v,
    "mask": card_strs,
    "masks": lambda v: [card_strs(m) for m in v],
    "card": lambda v: card_str(v) if v >= 0 else None,
    "cards": card_strs,
    "tricks": lambda v: [[lead, card_strs(cs), win] for lead, cs, win in v],
}
_DECODE = {
    "plain": lambda v: v,
    "mask": lambda v: mask_of(parse_card(c) for c in v),
    "masks": lambda v: [mask_of(parse_card(c) for c in m) for m in v],
    "card": lambda v: parse_card(v) if v is not None else -1,
    "cards": lambda v: [parse_card(c) for c in v],
    "tricks": lambda v: [(lead, tuple(parse_card(c) for c in cs), win) for lead, cs, win in v],
}


class State:
    """One deal of a match, with the match score before (or, once over, after) it.

    Subclasses set ``GAME``, ``OPTIONS`` (a pydantic model), ``FIELDS`` (their own fields and
    codecs), ``LISTS`` (their own flat lists, copied on clone) and ``PHASES`` (phase → the
    action kinds that exist in it), and implement ``turn_actions``, ``legal_cards``,
    ``finish`` and the ``on_<kind>`` handlers.
    """

    GAME: ClassVar[str] = ""
    OPTIONS: ClassVar[type[BaseModel]]
    FIELDS: ClassVar[dict[str, str]] = {}
    LISTS: ClassVar[tuple[str, ...]] = ()
    PHASES: ClassVar[dict[str, frozenset[str]]] = {}

    BASE_FIELDS: ClassVar[dict[str, str]] = {
        "n": "plain", "dealer": "plain", "match": "plain", "phase": "plain", "to_act": "plain",
        "hands": "masks", "active": "plain", "trump": "plain", "trick": "cards",
        "leader": "plain", "tricks": "tricks", "won": "plain", "eyes": "plain",
        "result": "plain",
    }
    BASE_LISTS: ClassVar[tuple[str, ...]] = ("hands", "active", "trick", "tricks", "won", "eyes")

    options: BaseModel
    n: int
    dealer: int
    match: dict
    phase: str
    to_act: int | None
    hands: list[int]
    active: list[bool]
    trump: int
    order: TrumpOrder | None
    trick: list[int]
    leader: int
    tricks: list[tuple[int, tuple[int, ...], int]]
    won: list[int]
    eyes: list[int]
    result: dict | None
    events: list[dict]

    def init_core(self, options: BaseModel, n: int, dealer: int, match: dict, hands: list[int]) -> None:
        """Set the shared fields for a fresh deal; the forehand acts first."""
        self.options = options
        self.n = n
        self.dealer = dealer
        self.match = match
        self.hands = list(hands)
        self.active = [True] * n
        self.trump = -1
        self.order = None
        self.trick = []
        self.leader = (dealer + 1) % n
        self.tricks = []
        self.won = [0] * n
        self.eyes = [0] * n
        self.result = None
        self.to_act = (dealer + 1) % n
        self.phase = ""
        self.events = []

    OFFERS: ClassVar[frozenset[str]] = frozenset()
    """Action kinds a seat takes out of turn (doubling, playing alone)."""
    PLAY_VARIANTS: ClassVar[bool] = False
    """True where a card can be played in more than one way (a meld), see ``play_actions``."""
    DECK: ClassVar[int] = 0
    """The cards of a deal, for games whose deck does not depend on options or players."""
    PACKETS: ClassVar[tuple[int, ...]] = ()
    """Cards per seat in each round of dealing, for games that deal the whole deck to the seats."""
    PLAYERS: ClassVar[tuple[int, int]] = (4, 4)
    DEFAULT_PLAYERS: ClassVar[int] = 4

    # ----------------------------------------------------------- dealing hooks
    @classmethod
    def new_match(cls, options: BaseModel, n: int) -> dict:
        """The match state before the first deal."""
        raise NotImplementedError

    @classmethod
    def read_match(cls, options: BaseModel, n: int, data: dict) -> dict:
        """A full match state from a replay file's (possibly partial) ``match``; ``ValueError`` if bad."""
        raise NotImplementedError

    @classmethod
    def deck(cls, options: BaseModel, n: int, match: dict) -> int:
        """The mask of the cards used in a deal (by default the class's ``DECK``)."""
        return cls.DECK

    @classmethod
    def packet_sizes(cls, options: BaseModel) -> tuple[int, ...]:
        """Cards each seat gets in each round of dealing, e.g. (2, 3); by default the class's ``PACKETS``."""
        return cls.PACKETS

    @classmethod
    def packets(cls, options: BaseModel, n: int, match: dict, dealer: int,
                order: list[int]) -> tuple[list[list[int]], list[int], list[int]]:
        """Split a shuffled deck into hands (in dealt order, seat 0 first), blind and turned cards.

        By default the whole deck goes to the seats in rounds of :meth:`packet_sizes` from the
        forehand on, with no blind and no turned card.
        """
        return deal_rounds(order, n, dealer, cls.packet_sizes(options)), [], []

    @classmethod
    def check_dealt(cls, options: BaseModel, n: int, match: dict, hands: list[list[int]], blind: list[int],
                    turned: list[int]) -> None:
        """``ValueError`` unless ``hands`` share the deck as :meth:`packets` deals it (no blind, no turned card)."""
        check_hands(cls.deck(options, n, match), hands, sum(cls.packet_sizes(options)), blind, turned)

    @classmethod
    def start(cls, options: BaseModel, n: int, dealer: int, match: dict, hands: list[list[int]],
              blind: list[int], turned: list[int]) -> "State":
        """A new deal from the dealt cards; ``ValueError`` if they do not fit the game."""
        raise NotImplementedError

    def next_dealer(self) -> int:
        """Who deals the deal after this one."""
        return (self.dealer + 1) % self.n

    def next_deal(self, order: list[int]) -> "State":
        """The following deal of the match, dealt from the shuffled ``order``."""
        dealer = self.next_dealer()
        hands, blind, turned = self.packets(self.options, self.n, self.match, dealer, order)
        return self.start(self.options, self.n, dealer, self.match, hands, blind, turned)

    # ----------------------------------------------------------- game hooks
    def make_order(self, trump: int) -> TrumpOrder:
        """The card order for ``trump`` (games precompute and cache these)."""
        raise NotImplementedError

    def turn_actions(self) -> list[Action]:
        """The actions of the seat to act in a phase other than play."""
        raise NotImplementedError

    def offers_for(self, seat: int) -> list[Action]:
        """Actions ``seat`` may take now out of turn (doubling, playing alone ...)."""
        return []

    def bids(self, seat: int) -> list[Action]:
        """Every choice ``seat`` may have when a bidding round in turn reaches him, while he is yet to speak.

        As far as his own cards decide: what others bid before him may rule some out (what he may bid
        when his turn comes is :meth:`legal`). Empty outside such a round (games without one, or once
        he has spoken).
        """
        return []

    def decision_hint(self, action: Action) -> str:
        """Why the seat to act may not take ``action``, a decision that is not legal now: a hint key."""
        return "not_now"

    def legal_cards(self) -> int:
        """The mask of cards the seat to act may play (play phase)."""
        raise NotImplementedError

    def finish(self) -> None:
        """End the deal: set ``result``, update ``match``, ``to_act`` None, phase over."""
        raise NotImplementedError

    def after_trick(self, winner: int) -> None:
        """Called after each completed trick; by default the deal ends with the cards."""
        if not self.hands[winner]:
            self.finish()

    def restriction(self) -> str:
        """Why the seat to act may not play every card: a hint key, or "" if free."""
        return ""

    def public_info(self) -> dict:
        """Game-specific public facts for views (announcements, doublings ...)."""
        return {}

    def known_cards(self) -> int:
        """Cards in hands that the whole table has seen (a turned card taken, ...)."""
        return 0

    def set_aside(self) -> int:
        """Cards of this deal in no hand and not played (blind, discards, undealt rest)."""
        return 0

    def visible_hand(self, seat: int) -> int:
        """The cards of ``seat`` that he has received so far."""
        return self.hands[seat]

    def match_over(self) -> bool:
        """Whether the match is decided."""
        return self.match.get("winner") is not None

    # ----------------------------------------------------------- trick core
    def set_trump(self, suit: int) -> None:
        """Fix the trump suit and its card order."""
        self.trump = suit
        self.order = self.make_order(suit)

    def next_active(self, seat: int) -> int:
        """The next seat after ``seat`` that takes part in this deal."""
        n, active = self.n, self.active
        s = (seat + 1) % n
        while not active[s]:
            s = (s + 1) % n
        return s

    def start_play(self, leader: int) -> None:
        """Enter the play phase with ``leader`` to lead (the next active seat if he sits out)."""
        if not self.active[leader]:
            leader = self.next_active(leader)
        self.phase = PLAY_PHASE
        self.leader = leader
        self.to_act = leader

    def best_in_trick(self) -> int:
        """The card currently winning the trick."""
        return self.trick[self.order.winner_index(self.trick)]

    def play_card(self, c: int) -> None:
        """Play card ``c`` for the seat to act (no checks: the caller has them)."""
        seat = self.to_act
        self.hands[seat] &= ~(1 << c)
        trick = self.trick
        trick.append(c)
        if len(trick) < self.active.count(True):
            self.to_act = self.next_active(seat)
            return
        win_i = self.order.winner_index(trick)
        leader = self.leader
        # the i-th card was played by the i-th active seat from the leader on
        winner = leader
        for _ in range(win_i):
            winner = self.next_active(winner)
        cards = tuple(trick)
        self.tricks.append((leader, cards, winner))
        self.won[winner] += 1
        self.eyes[winner] += sum(EYES[x] for x in cards)
        self.trick = []
        self.leader = winner
        self.to_act = winner
        self.events.append({"type": "trick", "leader": leader, "cards": card_strs(cards), "winner": winner})
        self.after_trick(winner)

    def played(self) -> int:
        """The mask of every card played in this deal, the running trick included."""
        m = mask_of(self.trick)
        for _, cards, _ in self.tricks:
            m |= mask_of(cards)
        return m

    def hand_order(self, mask: int) -> list[int]:
        """The cards of ``mask`` as a player sorts them: trumps strongest first, then each suit strongest first.

        Before trump is known, by printed suit and rank.
        """
        order = self.order
        if order is None:
            return cards_in(mask)
        eff, strength = order.eff, order.strength
        return sorted(cards_in(mask), key=lambda c: (eff[c] != TRUMP, eff[c], -strength[c]))

    def trick_seats(self) -> list[int]:
        """The seats that played the cards of the current trick, in order."""
        seats, s = [], self.leader
        for _ in self.trick:
            seats.append(s)
            s = self.next_active(s)
        return seats

    def end_deal(self, result: dict, match: dict) -> None:
        """Record the deal's result and the match after it; nobody acts any more."""
        self.result = result
        self.match = match
        self.to_act = None
        self.phase = OVER
        self.events.append({"type": "deal_over", "result": result})

    # ----------------------------------------------------------- legal actions
    def legal(self) -> list[Action]:
        """Every action the seat to act may take now (empty once the deal is over)."""
        if self.to_act is None:
            return []
        if self.phase == PLAY_PHASE:
            own = self.play_actions()
        else:
            own = self.turn_actions()
        return own + self.offers_for(self.to_act)

    def play_actions(self) -> list[Action]:
        """One ``play`` action per legal card (games add meld variants)."""
        return [Action(PLAY, c) for c in cards_in(self.legal_cards())]

    def offers(self) -> dict[int, list[Action]]:
        """Out-of-turn actions of the seats other than the one to act."""
        if self.to_act is None:
            return {}
        out = {}
        for s in range(self.n):
            if s != self.to_act:
                acts = self.offers_for(s)
                if acts:
                    out[s] = acts
        return out

    def check(self, seat: int, action: Action) -> None:
        """Raise :class:`Rejected` unless ``seat`` may take ``action`` now."""
        if self.to_act is None:
            raise Rejected(Code.DEAL_OVER, "the deal is over")
        if action.kind not in self.PHASES.get(self.phase, ()):
            raise Rejected(Code.WRONG_PHASE, f"{action.kind} is not possible in the {self.phase} phase")
        if not 0 <= seat < self.n:
            raise Rejected(Code.NOT_YOUR_TURN, f"there is no seat {seat}")
        if seat != self.to_act:
            if action in self.offers_for(seat):
                return
            if action.kind in self.OFFERS:
                raise Rejected(Code.ILLEGAL, f"seat {seat} may not {action.kind} now", "not_now")
            raise Rejected(Code.NOT_YOUR_TURN, f"not seat {seat}'s turn (seat {self.to_act} is to act)")
        if action not in self.legal():
            if action.kind != PLAY:
                raise Rejected(Code.ILLEGAL, f"{action} is not allowed now", self.decision_hint(action))
            if not self.hands[seat] >> action.card & 1:
                raise Rejected(Code.ILLEGAL, f"seat {seat} does not hold {card_str(action.card)}", "not_in_hand")
            raise Rejected(Code.ILLEGAL, f"{action} is not allowed now", self.restriction())

    def do(self, seat: int, action: Action) -> None:
        """Carry out a checked action in place."""
        getattr(self, "on_" + action.kind)(seat, action)

    def on_play(self, seat: int, action: Action) -> None:
        """Play a card (games with melds extend this)."""
        self.play_card(action.card)

    # ----------------------------------------------------------- copies and JSON
    def clone(self) -> "State":
        """A copy that shares nothing mutable with this state."""
        new = object.__new__(type(self))
        d = self.__dict__.copy()
        for name in self.BASE_LISTS:
            d[name] = d[name].copy()
        for name in self.LISTS:
            d[name] = d[name].copy()
        d["events"] = []
        new.__dict__ = d
        return new

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict from which :meth:`from_json` rebuilds an equal state."""
        out: dict[str, Any] = {"game": self.GAME, "options": self.options.model_dump()}
        for fields in (self.BASE_FIELDS, self.FIELDS):
            for name, codec in fields.items():
                out[name] = _ENCODE[codec](getattr(self, name))
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "State":
        """Rebuild a state written by :meth:`to_json`."""
        st = object.__new__(cls)
        st.options = cls.OPTIONS.model_validate(data["options"])
        lists = cls.BASE_LISTS + cls.LISTS
        for fields in (cls.BASE_FIELDS, cls.FIELDS):
            for name, codec in fields.items():
                value = _DECODE[codec](data[name])
                if codec == "plain" and name in lists:
                    value = list(value)  # the state's own list, not one of the caller's dict
                setattr(st, name, value)
        st.order = st.make_order(st.trump) if st.trump >= 0 else None
        st.events = []
        return st

    # ----------------------------------------------------------- views
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: the public): his own hand, nothing else hidden."""
        out: dict[str, Any] = {
            "game": self.GAME,
            "players": self.n,
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": self.to_act,
            "active": list(self.active),
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "trick": [{"seat": s, "card": card_str(c)} for s, c in zip(self.trick_seats(), self.trick)],
            "tricks": [{"leader": lead, "cards": card_strs(cs), "winner": win} for lead, cs, win in self.tricks],
            "won": list(self.won),
            "hand_sizes": [self.visible_hand(s).bit_count() for s in range(self.n)],
            "match": self.match,
            "result": self.result,
            "public": self.public_info(),
        }
        if seat is not None:
            out["seat"] = seat
            out["hand"] = card_strs(self.hand_order(self.visible_hand(seat)))
            if self.to_act == seat:
                out["legal"] = [a.to_dict() for a in self.legal()]
                out["restriction"] = self.restriction() if self.phase == PLAY_PHASE else ""
            else:
                out["legal"] = [a.to_dict() for a in self.offers_for(seat)]
                out["restriction"] = ""
            out["bids"] = [a.to_dict() for a in self.bids(seat)]
            out["to_come"] = (self.hands[seat] & ~self.visible_hand(seat)).bit_count()
        return out
