"""Bauernstoß (Erfweiler) and Alter Schafkopf (Nieder-Hochstadt): four jacks on top, Striche and the chalk.

Rule source: ``shared/rules/bauernstoss.md`` (from seed 000_db36cf3d6db6bc94, the Erfweiler club
page and its Nieder-Hochstadt "Schofkoppordnung"). :class:`AlterSchafkopf` subclasses
:class:`Bauernstoss` and overrides only what the rules list as different.

Decisions the rules leave open (what players would expect):

- A four-jack hand in Bauernstoß: every other seat holds no jack and can only pass, so the deal
  is thrown in the moment the four-jack holder passes. In the first deal of a partie his only
  action is that pass (the deal "cannot be played"), so every thrown-in deal ends by an action.
- Small solo: the partner gives back one of his own eight cards (he has not looked at the card
  he received). The card the solo player gives, the partner's hand and the card coming back
  (unless it is a jack, which the table sees) are hidden; the partner's cards are set aside.
  The solo player may give any card, the partner any of his.
- After ``let_partner_name`` the partner's committed suit is trump at once: naming needs no
  action of his (the rules: "naming needs no action, except in the tie with the partner").
- Both teams reaching ``target`` in one deal (only possible with a tiny target and the
  first-deal Strich): the higher total wins, on equal totals the chalk team.
- A Lechdich credits the winning team ``target`` Striche on top of what it has (seed: "für den
  Lechdich: 15 Strich"), which decides the partie.
- ``grand_solo_needs_jc`` is an option of Bauernstoß only (pagat's reading of that game).
- In the first deal of Bauernstoß the chalk team (the one with ``JC``) is not shown before
  the deal's end: that would tell the table where ``JC`` is.
- A replay's ``match`` must describe a running partie: the chalk is held exactly when it is not
  the first deal (both games hand the chalk out in the first deal), and nobody has won yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from .actions import Action
from .cards import DECK32, JACKS, SUIT_MASKS, SUITS, card, card_str, cards_in, mask_of
from .order import TRUMP, TrumpOrder
from .registry import register
from .state import OVER, PLAY_PHASE, State

__all__ = ["Bauernstoss", "AlterSchafkopf", "BauernstossOptions", "AlterSchafkopfOptions",
           "jack_draw", "count", "lowest_trump", "ORDERS", "JACK_LIST"]

ANNOUNCE, GIVE, NAME = "announce", "give", "name"
PASS, SOLO, GIVE_KIND, NAME_TRUMP, LET_PARTNER = "pass", "solo", "give", "name_trump", "let_partner_name"

JACK_LIST = tuple(card("J", s) for s in SUITS)
"""The jacks, highest first: JC JS JH JD."""
PLAIN = "ATKQ987"
ORDERS = tuple(TrumpOrder(t, JACK_LIST + tuple(card(r, SUITS[t]) for r in PLAIN), PLAIN, DECK32)
               for t in range(4))
"""One card order per trump suit, shared by both games."""
_TRUMP_CARDS = tuple(JACKS | (SUIT_MASKS[t] & DECK32) for t in range(4))
_LOW_RANK = {card(r, s): i for s in SUITS for i, r in enumerate(PLAIN[::-1])}
_LOW_RANK.update({j: len(PLAIN) + 3 - i for i, j in enumerate(JACK_LIST)})
JC = JACK_LIST[0]
SOLO_STRICHE = {"small": 8, "grand": 12}


class BauernstossOptions(BaseModel):
    """Table options of Bauernstoß (defaults as in the rules)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    partners: Literal["seats", "jack_draw"] = "seats"
    grand_solo_needs_jc: bool = False
    target: int = Field(20, ge=1, le=100)


class AlterSchafkopfOptions(BaseModel):
    """Table options of Alter Schafkopf (defaults as in the rules)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    partners: Literal["seats", "jack_draw"] = "seats"
    target: int = Field(15, ge=1, le=100)


def count(hand: int, suit: int) -> int:
    """A hand's count for ``suit``: its jacks plus its non-jack cards of the suit."""
    return (hand & _TRUMP_CARDS[suit]).bit_count()


def lowest_trump(hand: int, suit: int) -> int:
    """The rank (0 = a seven .. 10 = JC) of the hand's lowest trump for ``suit``; -1 if none."""
    return min((_LOW_RANK[c] for c in cards_in(hand & _TRUMP_CARDS[suit])), default=-1)


def jack_draw(order: Sequence[int], players: int = 4) -> tuple[int, int] | None:
    """The two players who become partners by the seed's jack draw, or ``None`` to draw again.

    One card of the shuffled ``order`` is turned up for each player in turn (player ``i`` gets
    ``order[i]``, ``order[i + players]`` ...); the first two different players to receive a jack
    are partners, to be seated opposite each other. ``None`` when one player receives every jack.
    """
    first = -1
    for i, c in enumerate(order):
        if c in JACK_LIST:
            p = i % players
            if first < 0:
                first = p
            elif p != first:
                return first, p
    return None


@register
class Bauernstoss(State):
    """One deal of Bauernstoß with the partie's Striche and chalk around it."""

    GAME = "bauernstoss"
    DECK = DECK32
    PACKETS = (4, 4)
    OPTIONS = BauernstossOptions
    FIELDS: ClassVar[dict[str, str]] = {
        "calls": "plain", "committed": "plain", "best": "plain", "tied": "plain", "soloist": "plain",
        "solo_kind": "plain", "namer": "plain", "returned": "card", "laid_down": "mask",
        "deal_chalk": "plain",
    }
    LISTS: ClassVar[tuple[str, ...]] = ("calls", "committed", "tied")
    PHASES: ClassVar[dict[str, frozenset[str]]] = {
        ANNOUNCE: frozenset({PASS, "announce", SOLO}),
        GIVE: frozenset({GIVE_KIND}),
        NAME: frozenset({NAME_TRUMP, LET_PARTNER}),
        PLAY_PHASE: frozenset({"play"}),
        OVER: frozenset(),
    }
    SOLO_KINDS: ClassVar[tuple[str, ...]] = ("small", "grand")
    FOUR_JACKS_ANNOUNCE: ClassVar[bool] = False
    """Whether a hand with all four jacks announces like any other (else: grand solo or throw-in)."""
    PARTNER_CHOICE: ClassVar[bool] = True
    """Whether partners tied at the top count choose which of them names (``let_partner_name``)."""
    DUTY_HINT: ClassVar[str] = "jack_rule"
    """The restriction key when :meth:`trump_duty` leaves only some trumps."""

    calls: list
    committed: list[int]
    best: int
    tied: list[int]
    soloist: int
    solo_kind: str
    namer: int
    returned: int
    laid_down: int
    deal_chalk: int | None

    # ----------------------------------------------------------- match and dealing
    @classmethod
    def new_match(cls, options: BaseModel, n: int) -> dict:
        """A partie before its first deal: no Striche, nobody holds the chalk."""
        return {"striche": [0, 0], "chalk": None, "deal_no": 1, "winner": None}

    @classmethod
    def read_match(cls, options: BaseModel, n: int, data: dict) -> dict:
        """The full match from a replay's partial one; ``ValueError`` for bad keys or values."""
        match = cls.new_match(options, n)
        unknown = set(data) - set(match)
        if unknown:
            raise ValueError(f"unknown match keys for {cls.GAME}: {', '.join(sorted(unknown))}")
        match.update(data)
        striche, chalk, deal_no = match["striche"], match["chalk"], match["deal_no"]
        if (not isinstance(striche, list) or len(striche) != 2
                or not all(_is_int(x) and x >= 0 for x in striche)):
            raise ValueError("match striche must be two numbers of Striche, e.g. [3, 5]")
        if chalk is not None and not (_is_int(chalk) and chalk in (0, 1)):
            raise ValueError("match chalk must be 0, 1 or null")
        if not _is_int(deal_no) or deal_no < 1:
            raise ValueError("match deal_no must be 1 or more")
        if match["winner"] is not None or max(striche) >= options.target:
            raise ValueError("the partie in match is already decided")
        if (chalk is None) != (deal_no == 1):
            raise ValueError("the chalk is held from the second deal on and not in the first")
        match["striche"] = list(striche)
        return match

    @classmethod
    def start(cls, options: BaseModel, n: int, dealer: int, match: dict, hands: list[list[int]],
              blind: list[int], turned: list[int]) -> "Bauernstoss":
        """The announcing round of a new deal; ``ValueError`` unless four hands of 8 share the 32 cards."""
        cls.check_dealt(options, n, match, hands, blind, turned)
        st = object.__new__(cls)
        st.init_core(options, n, dealer, match, [mask_of(h) for h in hands])
        st.phase = ANNOUNCE
        st.calls = [None] * n
        st.committed = [-1] * n
        st.best = 0
        st.tied = []
        st.soloist = -1
        st.solo_kind = ""
        st.namer = -1
        st.returned = -1
        st.laid_down = 0
        st.deal_chalk = st.opening_chalk()
        return st

    def opening_chalk(self) -> int | None:
        """The team holding the chalk in this deal: in the first deal the team with ``JC``."""
        if self.first_deal():
            return next(s for s in range(self.n) if self.hands[s] >> JC & 1) % 2
        return self.match["chalk"]

    def first_deal(self) -> bool:
        """Whether this is the first deal of the partie."""
        return self.match["deal_no"] == 1

    def make_order(self, trump: int) -> TrumpOrder:
        """The cached card order for ``trump``."""
        return ORDERS[trump]

    # ----------------------------------------------------------- announcing
    def forehand(self) -> int:
        """The seat after the dealer."""
        return (self.dealer + 1) % self.n

    def turn_actions(self) -> list[Action]:
        """The actions of the seat to act while announcing, giving or naming."""
        seat = self.to_act
        hand = self.hands[seat]
        if self.phase == GIVE:
            return [Action(GIVE_KIND, c) for c in cards_in(hand)]
        if self.phase == NAME:
            if self.soloist >= 0:
                return [Action(NAME_TRUMP, suit=s) for s in range(4)]
            return [Action(NAME_TRUMP, suit=self.committed[seat]), Action(LET_PARTNER)]
        return self.announce_actions(hand)

    def announce_actions(self, hand: int, ahead: bool = False) -> list[Action]:
        """Pass, the suits the seat may announce, and the solos open to him; ``ahead``: every bid
        the hand may have whatever is announced before it (pass, and each suit it holds two of)."""
        jacks = (hand & JACKS).bit_count()
        out = []
        if jacks and (jacks < 4 or self.FOUR_JACKS_ANNOUNCE):
            out = [Action("announce", suit=s) for s in range(4)
                   if (count(hand, s) >= 2 if ahead else self.may_announce(hand, s))]
        if ahead or not (out and self.best == 0):
            out.insert(0, Action(PASS))
        if jacks and self.solo_allowed():
            out += [Action(SOLO, size=k) for k in self.SOLO_KINDS if self.may_solo(hand, jacks, k)]
        return out

    def bids(self, seat: int) -> list[Action]:
        """While ``seat`` is yet to speak in the announcing round: pass, every suit he holds two of
        (jacks included) and the solos open to him, whatever the others announce before him."""
        if self.phase != ANNOUNCE or self.calls[seat] is not None:
            return []
        return self.announce_actions(self.hands[seat], ahead=True)

    def decision_hint(self, action: Action) -> str:
        """Passing while nobody has announced (who can, must), a count below the best, a mit not allowed."""
        if self.phase == ANNOUNCE and action.kind == PASS:
            return "must_announce"
        if self.phase == ANNOUNCE and action.kind == "announce" and action.suit >= 0:
            low = count(self.hands[self.to_act], action.suit) < max(self.best, 2)
            return "count_too_low" if low else "no_mit"
        return super().decision_hint(action)

    def may_announce(self, hand: int, suit: int) -> bool:
        """Whether the seat to act may announce ``suit``: a higher count or a permitted mit."""
        c = count(hand, suit)
        if c < 2 or c < self.best:
            return False
        return c > self.best or self.may_say_mit(hand, suit)

    def may_say_mit(self, hand: int, suit: int) -> bool:
        """Mit needs an 8 or better as lowest trump, or a partner already holding the count."""
        return lowest_trump(hand, suit) >= 1 or (self.to_act + 2) % self.n in self.tied

    def solo_allowed(self) -> bool:
        """Whether a solo may be announced in this deal (not in the first deal)."""
        return not self.first_deal()

    def may_solo(self, hand: int, jacks: int, kind: str) -> bool:
        """Small solo needs ``JC`` (and not all four jacks); grand solo ``JC`` only by option."""
        has_jc = bool(hand >> JC & 1)
        if kind == "small":
            return has_jc and jacks < 4
        return has_jc or not self.options.grand_solo_needs_jc

    def on_pass(self, seat: int, action: Action) -> None:
        """Say "weg": a four-jack hand passing throws the deal in."""
        self.calls[seat] = PASS
        self.events.append({"type": "passed", "seat": seat})
        if not self.FOUR_JACKS_ANNOUNCE and self.hands[seat] & JACKS == JACKS:
            self.events.append({"type": "thrown_in"})
            self.end_deal({"thrown_in": True}, self.match)
            return
        self.next_speaker(seat)

    def on_announce(self, seat: int, action: Action) -> None:
        """Commit to a suit; the table hears the count (a tie with the best so far is "mit")."""
        c = count(self.hands[seat], action.suit)
        mit = c == self.best
        if mit:
            self.tied.append(seat)
        else:
            self.best = c
            self.tied = [seat]
        self.calls[seat] = c
        self.committed[seat] = action.suit
        self.events.append({"type": "announced", "seat": seat, "count": c, "mit": mit})
        self.next_speaker(seat)

    def next_speaker(self, seat: int) -> None:
        """Pass the turn on, or end the announcing round once everyone has spoken."""
        if None in self.calls:
            self.to_act = (seat + 1) % self.n
            return
        win = max(self.tied, key=self.tie_key)
        if self.PARTNER_CHOICE and (win + 2) % self.n in self.tied:
            self.phase = NAME
            self.to_act = win
        else:
            self.name(win, self.committed[win])

    def tie_key(self, seat: int) -> tuple[int, int]:
        """Ranks players tied at the top count: higher lowest trump, then the earlier speaker."""
        return lowest_trump(self.hands[seat], self.committed[seat]), -((seat - self.forehand()) % self.n)

    def name(self, seat: int, suit: int) -> None:
        """``seat`` names ``suit`` as trump ("tauft"); the forehand leads."""
        self.namer = seat
        self.set_trump(suit)
        self.events.append({"type": "trump_named", "seat": seat, "suit": SUITS[suit]})
        self.start_play(self.forehand())

    def on_name_trump(self, seat: int, action: Action) -> None:
        """Name trump: the solo player any suit, the tie winner his committed suit."""
        self.name(seat, action.suit)

    def on_let_partner_name(self, seat: int, action: Action) -> None:
        """Hand the naming to the tied partner: his committed suit is trump."""
        partner = (seat + 2) % self.n
        self.events.append({"type": "let_partner_name", "seat": seat})
        self.name(partner, self.committed[partner])

    # ----------------------------------------------------------- solos
    def on_solo(self, seat: int, action: Action) -> None:
        """Announce a solo: it ends the announcing round; the partner sits out (after the exchange)."""
        self.soloist = seat
        self.solo_kind = action.size
        self.calls[seat] = action.size
        self.events.append({"type": "solo", "seat": seat, "kind": action.size})
        self.to_act = seat
        if action.size == "small":
            self.phase = GIVE
        else:
            self.sit_out((seat + 2) % self.n)
            self.phase = NAME

    def sit_out(self, seat: int) -> None:
        """``seat`` lays his cards down and takes no part in the deal."""
        self.laid_down |= self.hands[seat]
        self.hands[seat] = 0
        self.active[seat] = False

    def on_give(self, seat: int, action: Action) -> None:
        """The small solo's exchange: the solo player's card face down, then the partner's back."""
        c = action.card
        self.hands[seat] &= ~(1 << c)
        if seat == self.soloist:
            self.laid_down |= 1 << c
            self.events.append({"type": "gave", "seat": seat})
            self.to_act = (seat + 2) % self.n
            return
        self.hands[self.soloist] |= 1 << c
        self.returned = c
        event = {"type": "gave", "seat": seat}
        if 1 << c & JACKS:
            event["card"] = card_str(c)
        self.events.append(event)
        self.sit_out(seat)
        self.phase = NAME
        self.to_act = self.soloist

    # ----------------------------------------------------------- play
    def legal_cards(self) -> int:
        """Follow suit, else trump, else anything; which trumps may be played is :meth:`trump_duty`."""
        hand = self.hands[self.to_act]
        trick = self.trick
        if not trick:
            return hand
        order = self.order
        led = order.eff[trick[0]]
        follow = hand & order.suit_mask[led]
        if led != TRUMP and follow:
            return follow
        trumps = hand & order.trumps
        return self.trump_duty(trumps, led == TRUMP) if trumps else hand

    def trump_duty(self, trumps: int, trump_led: bool) -> int:
        """The jack rule: over a jack in the trick, a higher jack if held."""
        return trumps & _jacks_above(self.trick) or trumps

    def restriction(self) -> str:
        """Why the seat to act may not play every card."""
        hand = self.hands[self.to_act]
        if self.phase != PLAY_PHASE or not self.trick or self.legal_cards() == hand:
            return ""
        order = self.order
        led = order.eff[self.trick[0]]
        if led != TRUMP and hand & order.suit_mask[led]:
            return "must_follow"
        if self.legal_cards() != hand & order.trumps:
            return self.DUTY_HINT
        return "must_follow" if led == TRUMP else "must_trump"

    def after_trick(self, winner: int) -> None:
        """A solo ends at the first trick the opponents win; any deal when the cards are out."""
        if self.soloist >= 0 and winner % 2 != self.soloist % 2 or not self.hands[winner]:
            self.finish()

    # ----------------------------------------------------------- scoring
    def finish(self) -> None:
        """Score the deal in Striche, move the chalk and decide the partie."""
        eyes = [self.eyes[0] + self.eyes[2], self.eyes[1] + self.eyes[3]]
        tricks = [self.won[0] + self.won[2], self.won[1] + self.won[3]]
        if self.soloist >= 0:
            team = self.soloist % 2 if tricks[1 - self.soloist % 2] == 0 else 1 - self.soloist % 2
            gains = [0, 0]
            gains[team] = self.solo_striche()
            chalk = team
        else:
            gains, chalk = self.score(eyes, tricks)
        striche = [a + b for a, b in zip(self.match["striche"], gains)]
        reached = [t for t in (0, 1) if striche[t] >= self.options.target]
        winner = max(reached, key=lambda t: (striche[t], t == chalk)) if reached else None
        match = {"striche": striche, "chalk": chalk, "deal_no": self.match["deal_no"] + 1, "winner": winner}
        self.end_deal({"eyes": eyes, "tricks": tricks, "striche": gains, "chalk": chalk}, match)

    def solo_striche(self) -> int:
        """What a solo is worth: 8 small, 12 grand."""
        return SOLO_STRICHE[self.solo_kind]

    def score(self, eyes: list[int], tricks: list[int]) -> tuple[list[int], int]:
        """Striche gained per team and the chalk team after a normal deal (Bauernstoß's table)."""
        c = self.deal_chalk
        o = 1 - c
        gains = [0, 0]
        if tricks[o] == 8 or eyes[o] >= 79:
            gains[o] = 3 if tricks[o] == 8 else 2 if eyes[o] >= 91 else 1
            chalk = o
        else:
            gains[c] = 3 if tricks[c] == 8 else 2 if eyes[c] >= 91 else 1
            chalk = c
        if self.first_deal():
            gains[c] += 1
        return gains, chalk

    # ----------------------------------------------------------- views
    def set_aside(self) -> int:
        """The cards of a sitting-out partner and the card given to him."""
        return self.laid_down

    def known_cards(self) -> int:
        """A jack the partner gave back in a small solo: the table saw it."""
        if self.returned >= 0 and 1 << self.returned & JACKS:
            return 1 << self.returned & self.hands[self.soloist]
        return 0

    def public_info(self) -> dict:
        """Calls (counts only, never a suit), the tie, the solo, who named trump (the chalk is in ``match``)."""
        info = {
            "calls": list(self.calls),
            "best": self.best,
            "tied": list(self.tied),
            "solo": {"seat": self.soloist, "kind": self.solo_kind} if self.soloist >= 0 else None,
            "namer": self.namer if self.namer >= 0 else None,
            "first_deal": self.first_deal(),
        }
        if self.known_cards():
            info["returned_jack"] = card_str(self.returned)
        return info

    def view(self, seat: int | None) -> dict:
        """The base view; a seat also sees the suit he committed to when announcing."""
        out = super().view(seat)
        if seat is not None and self.committed[seat] >= 0:
            out["committed"] = SUITS[self.committed[seat]]
        return out


@register
class AlterSchafkopf(Bauernstoss):
    """Alter Schafkopf: four jacks announce, free mit, Lechdich only, no jack rule, chalk game first."""

    GAME = "alter_schafkopf"
    OPTIONS = AlterSchafkopfOptions
    PHASES: ClassVar[dict[str, frozenset[str]]] = {
        **{k: v for k, v in Bauernstoss.PHASES.items() if k != GIVE}, NAME: frozenset({NAME_TRUMP}),
    }
    SOLO_KINDS = ("grand",)
    FOUR_JACKS_ANNOUNCE = True
    PARTNER_CHOICE = False
    DUTY_HINT = "must_overtrump"

    def opening_chalk(self) -> int | None:
        """Nobody holds the chalk in the first deal: it is played for."""
        return self.match["chalk"]

    def may_say_mit(self, hand: int, suit: int) -> bool:
        """Anyone may tie."""
        return True

    def solo_allowed(self) -> bool:
        """No Lechdich while no team holds the chalk."""
        return self.deal_chalk is not None

    def may_solo(self, hand: int, jacks: int, kind: str) -> bool:
        """The Lechdich needs only a jack."""
        return True

    def trump_duty(self, trumps: int, trump_led: bool) -> int:
        """On a trump lead beat the highest trump in the trick if you can; a void need not overtrump."""
        if trump_led:
            return trumps & self.order.above[self.best_in_trick()] or trumps
        return trumps

    def solo_striche(self) -> int:
        """A Lechdich decides the partie: ``target`` Striche."""
        return self.options.target

    def score(self, eyes: list[int], tricks: list[int]) -> tuple[list[int], int]:
        """The chalk game first (≥ 61, or the non-naming team at 60 : 60); then 42 keeps the chalk."""
        gains = [0, 0]
        c = self.deal_chalk
        if c is None:
            if eyes[0] == eyes[1]:
                team = 1 - self.namer % 2
                gains[team] = 1
                return gains, team
            team = 0 if eyes[0] > eyes[1] else 1
        else:
            team = c if eyes[c] >= 42 else 1 - c
        gains[team] = 4 if tricks[team] == 8 else 2 if eyes[team] >= 89 else 1
        return gains, team


def _jacks_above(trick: list[int]) -> int:
    """The jacks higher than the highest jack in ``trick`` (none if no jack lies there)."""
    lying = mask_of(trick) & JACKS
    if not lying:
        return 0
    return JACKS & ((lying & -lying) - 1)


def _is_int(x: object) -> bool:
    """Whether ``x`` is an int and not a bool."""
    return isinstance(x, int) and not isinstance(x, bool)
