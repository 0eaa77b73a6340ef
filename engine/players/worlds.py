"""Determinization: whole deals sampled from one seat's view, consistent with everything public.

:class:`Worlds` reads only a view (``engine.view(state, seat)``) and the table's options. It
rebuilds the public part of the deal (tricks, trick, trump, calls, doublings, the match) and
deals the cards the seat has not seen to the places they can be: the other hands (each of its
size), a blind, the cards laid aside. What the table has learnt limits where a card can be:

- every card played must have been legal: a hand holding card ``x`` as well would have made
  it illegal (a suit not followed, a trump not played, the jack rule, an overtrump, a lead
  rule) means ``x`` is not in that hand; this is tested with the game's own ``legal_cards``,
  so every game's rules are covered by the same code;
- cards the table has seen stay where they are (a jack given back in a small solo, the other
  card of a meld, die Letzte's fifth card, the Kehrer the dealer took, a blind taken);
- Bauernstoß announcements: each count announced must fit some suit of that hand, and the
  seat that named trump holds the best count in it (checked by rejection, a few tries);
- Bauer: the caller's first packet (a random part of his sampled hand) is one from which the
  heuristic names the trump he named (by rejection as well); Bauerchen the same for the
  forehand's first two cards (or his hand, with trump named after five);
- Bauerchen and Bauer: the opponents played the cards the heuristic would have played from their
  sampled hands (:meth:`Worlds.misplays`): of the deals tried, the one with fewest cards played
  otherwise is kept and improved by swapping cards between hands.

The sampled states are ordinary engine states: the fast in-place path plays them out.
"""

from __future__ import annotations

import copy
from typing import Any

from ..cards import EYES, JACKS, SUITS, bit, cards_in, mask_of, parse_card
from ..registry import game_class
from ..state import PLAY_PHASE, State
from .heuristic import heuristic

__all__ = ["Worlds"]

_TRIES = 20
"""Attempts at a deal that also fits the soft facts (announced counts) before one that does not is used."""
_UNFIT = 1000
"""The cost of a deal that misses a soft fact: more than any count of misplayed cards."""
_MODELLED = frozenset({"bauerchen", "bauer"})
"""Games whose samples should fit the opponents' card play, as the heuristic would have played
those hands: it won the strong player points against the heuristic (400 paired deals: Bauerchen
0.609 against 0.580, Bauer 0.600 against 0.576; fitting the partner's play as well: 0.598 and 0.575)."""
_SWAPS = 24
"""Card swaps tried on a deal whose opponents' play does not fit yet (the games of :data:`_MODELLED`)."""
_DEAL_TRIES = 8
"""Attempts at placing the unseen cards under the hard facts before the facts from play are dropped."""


def _cards(strs) -> list[int]:
    """Card ids of card strings."""
    return [parse_card(c) for c in strs]


class Worlds:
    """Deals consistent with ``view`` of seat ``view["seat"]``; :meth:`sample` gives one as a state.

    Args:
        view: the seat's view, as ``engine.view(state, seat)`` returns it.
        options: the table's options (a dict or the game's options model); they are public.
    """

    def __init__(self, view: dict[str, Any], options: Any) -> None:
        cls = game_class(view["game"])
        self.cls = cls
        self.view = view
        self.options = options if not isinstance(options, dict) else cls.OPTIONS.model_validate(options)
        self.me = view["seat"]
        self.public = view["public"]
        self.base = self._base()
        base = self.base
        self.n = base.n
        self.seats_of_play = self._play_seats()
        self.played_by = [0] * self.n
        for seat, c, _, _ in self.seats_of_play:
            self.played_by[seat] |= bit(c)
        self.played = mask_of(c for _, c, _, _ in self.seats_of_play)
        self.mine = mask_of(_cards(view["hand"]))
        self.deck = cls.deck(self.options, self.n, base.match)
        self.known = [0] * self.n
        """Cards known to be in each other seat's hand."""
        self.known_aside = 0
        self.sizes = list(view["hand_sizes"])
        self.my_hidden = 0
        """How many cards of my own hand I have not received yet (trump naming after a first packet)."""
        self.blind = 0
        """Size of an untaken blind to deal."""
        _HOOKS[cls.GAME][0](self)
        self.pool = self.deck & ~self.mine & ~self.played & ~self.known_aside
        for m in self.known:
            self.pool &= ~m
        self.excluded = self._exclusions()
        self.allowed = [[s for s in range(self.n) if not self.excluded[s] >> c & 1] for c in range(36)]
        """Per card, the seats that may hold it."""
        self.tight = [self.n - len(seats) for seats in self.allowed]
        """Per card, how many seats cannot hold it."""
        self.modelled = cls.GAME in _MODELLED
        """Whether samples should fit the opponents' card play (see :meth:`sample`)."""

    # ----------------------------------------------------------- the public part
    def _base(self) -> State:
        """A state with every public field of the view set and no hands."""
        view, cls = self.view, self.cls
        st = object.__new__(cls)
        n = view["players"]
        st.options = self.options
        st.n = n
        st.dealer = view["dealer"]
        st.match = copy.deepcopy(view["match"])
        st.phase = view["phase"]
        st.to_act = view["to_act"]
        st.active = list(view["active"])
        st.trump = SUITS.index(view["trump"]) if view["trump"] else -1
        st.order = st.make_order(st.trump) if st.trump >= 0 else None
        st.trick = [parse_card(t["card"]) for t in view["trick"]]
        st.tricks = [(t["leader"], tuple(_cards(t["cards"])), t["winner"]) for t in view["tricks"]]
        st.won = list(view["won"])
        st.eyes = [0] * n
        for _, cs, win in st.tricks:
            st.eyes[win] += sum(EYES[c] for c in cs)
        if view["trick"]:
            st.leader = view["trick"][0]["seat"]
        elif st.phase == PLAY_PHASE and st.to_act is not None:
            st.leader = st.to_act
        else:
            st.leader = (st.dealer + 1) % n
        st.hands = [0] * n
        st.result = None
        st.events = []
        for name in cls.LISTS:  # the game's own fields come with each sample; clone needs the lists
            setattr(st, name, [])
        return st

    def _play_seats(self) -> list[tuple[int, int, int, list[int]]]:
        """(seat, card, trick number, the cards of that trick before it) of every card played, in order."""
        st, out = self.base, []
        for k, (leader, cards, _) in enumerate(st.tricks + [(st.leader, tuple(st.trick), -1)]):
            seat = leader
            for i, c in enumerate(cards):
                out.append((seat, c, k, list(cards[:i])))
                seat = st.next_active(seat)
        return out

    def _rewind(self, probe: State, seat: int, k: int, before: list[int]) -> None:
        """Set ``probe``'s public play back to the moment ``seat`` played the card after ``before`` in trick ``k``."""
        tricks = self.base.tricks
        probe.tricks = tricks[:k]
        probe.trick = before
        probe.leader = tricks[k][0] if k < len(tricks) else self.base.leader
        probe.to_act = seat

    def _exclusions(self) -> list[int]:
        """Per seat, the unseen cards it cannot hold: each would have made one of its plays illegal."""
        st = self.base.clone()
        excluded = [0] * self.n
        pool_cards = cards_in(self.pool)
        for seat, c, k, before in self.seats_of_play:
            if seat == self.me:
                continue
            self._rewind(st, seat, k, before)
            for x in pool_cards:
                st.hands[seat] = bit(c) | bit(x)
                if not st.legal_cards() >> c & 1:
                    excluded[seat] |= bit(x)
        return excluded

    # ----------------------------------------------------------- sampling
    def _place(self, rng, strict: bool) -> tuple[list[int], int, int, int] | None:
        """Deal the pool: (hands, my hidden cards, blind, rest) or ``None`` if the facts could not be met."""
        n = self.n
        need = [0 if s == self.me else self.sizes[s] - self.known[s].bit_count() for s in range(n)]
        hands = list(self.known)
        cards = cards_in(self.pool)
        rng.shuffle(cards)
        if strict:  # the most restricted cards first, so they still find a place
            cards.sort(key=self.tight.__getitem__, reverse=True)
        seats = range(n)
        free = [self.my_hidden, self.blind, len(cards) - sum(need) - self.my_hidden - self.blind]
        extra = [0, 0, 0]
        for c in cards:
            slots = [s for s in (self.allowed[c] if strict else seats) if need[s]]
            weights = [need[s] for s in slots] + free
            total = sum(weights)
            if total == 0:
                return None
            r = rng.randrange(total)
            for i, w in enumerate(weights):
                if r < w:
                    break
                r -= w
            if i < len(slots):
                s = slots[i]
                hands[s] |= bit(c)
                need[s] -= 1
            else:
                j = i - len(slots)
                extra[j] |= bit(c)
                free[j] -= 1
        if any(need):
            return None
        return hands, extra[0], extra[1], extra[2]

    def misplays(self, st: State, orig: list[int], limit: int) -> int:
        """How many cards the opponents played that the heuristic would not have played from their
        hands in ``st`` (``orig``: each seat's cards before the first trick), counted up to ``limit``.

        The partner's plays are not counted: at a table he is often the strong player as well,
        whose cards the heuristic would not foretell (fitting to them lost points in the arena).
        """
        pick = heuristic(self.cls.GAME).pick_card
        probe = st.clone()
        gone = [0] * self.n
        count = 0
        for seat, c, k, before in self.seats_of_play:
            if seat % 2 != self.me % 2:
                self._rewind(probe, seat, k, before)
                probe.hands[seat] = orig[seat] & ~gone[seat]
                if pick(probe, seat) != c:
                    count += 1
                    if count >= limit:
                        return count
            gone[seat] |= bit(c)
        return count

    def _refine(self, st: State, orig: list[int], cost: int, rng) -> int:
        """Swap unseen cards between the other hands of ``st`` (in place) while the opponents' play fits
        no worse, :data:`_SWAPS` times at most; the cost (misplays) in the end.

        A swap keeps every hard fact and the soft ones; a card in a first packet (``st.first``,
        which the games of :data:`_MODELLED` have) is replaced there by the card it is swapped with.
        """
        fits = _HOOKS[self.cls.GAME][2]
        hands, first = st.hands, st.first
        others = [s for s in range(self.n) if s != self.me and hands[s] & ~self.known[s]]
        if len(others) < 2:
            return cost
        for _ in range(_SWAPS):
            a, b = rng.sample(others, 2)
            x = rng.choice(cards_in(hands[a] & ~self.known[a]))
            y = rng.choice(cards_in(hands[b] & ~self.known[b]))
            if self.excluded[b] >> x & 1 or self.excluded[a] >> y & 1:
                continue
            moved = bit(x) | bit(y)
            saved = hands[a], hands[b], orig[a], orig[b], first[a], first[b]
            for s in (a, b):
                hands[s] ^= moved
                orig[s] ^= moved
                if first[s] & moved:
                    first[s] ^= moved
            new = self.misplays(st, orig, cost + 1) if fits(self, st, orig) else cost + 1
            if new <= cost:
                cost = new
                if not cost:
                    break
            else:
                hands[a], hands[b], orig[a], orig[b], first[a], first[b] = saved
        return cost

    def sample(self, rng) -> State:
        """One whole deal consistent with the view, as a state ready to be played on (``rng``: a ``random.Random``).

        Of up to :data:`_TRIES` deals under the hard facts it is the first that fits the soft
        facts as well, or the one that fits best: in the games of :data:`_MODELLED`, where the
        opponents played fewest cards the heuristic would not have played from those hands,
        and then refined by swapping cards (:meth:`_refine`).
        """
        best, best_cost, best_orig = None, _UNFIT, None
        for attempt in range(_TRIES):
            placed = None
            for _ in range(_DEAL_TRIES):
                placed = self._place(rng, True)
                if placed:
                    break
            placed = placed or self._place(rng, False)
            hands, hidden, blind, rest = placed
            hands[self.me] = self.mine | hidden
            st = self.base.clone()
            st.hands = hands
            orig = [h | p for h, p in zip(hands, self.played_by)]
            _HOOKS[self.cls.GAME][1](self, st, orig, hidden, blind, rest, rng)
            cost = 0 if _HOOKS[self.cls.GAME][2](self, st, orig) else _UNFIT
            if self.modelled and cost < best_cost:
                cost += self.misplays(st, orig, best_cost - cost)
            if cost <= best_cost:
                best, best_cost, best_orig = st, cost, orig
            if cost == 0:
                break
        if self.modelled and 0 < best_cost < _UNFIT:
            self._refine(best, best_orig, best_cost, rng)
        return best


# ----------------------------------------------------------- per game: facts and hidden fields
def _fits(w: Worlds, st: State, orig: list[int]) -> bool:
    """No soft facts to check."""
    return True


def _stoss_prepare(w: Worlds) -> None:
    """Bauernstoß: the jack a partner gave back in a small solo is in the solo player's hand."""
    jack = w.public.get("returned_jack")
    if jack:
        w.known[w.public["solo"]["seat"]] |= bit(parse_card(jack))


def _stoss_finish(w: Worlds, st: State, orig, hidden, blind, rest, rng) -> None:
    """Bauernstoß: calls, the tie, the solo, the namer, the cards laid down, the chalk of the deal."""
    from ..bauernstoss import JC, count

    pub, n = w.public, w.n
    st.calls = list(pub["calls"])
    st.best = pub["best"]
    st.tied = list(pub["tied"])
    solo = pub["solo"]
    st.soloist = solo["seat"] if solo else -1
    st.solo_kind = solo["kind"] if solo else ""
    st.namer = pub["namer"] if pub["namer"] is not None else -1
    st.returned = parse_card(pub["returned_jack"]) if pub.get("returned_jack") else -1
    st.laid_down = rest
    committed = [-1] * n
    for s in range(n):
        if s == w.me:
            committed[s] = SUITS.index(w.view["committed"]) if w.view.get("committed") else -1
        elif isinstance(st.calls[s], int):
            fit = [x for x in range(4) if count(orig[s], x) == st.calls[s]]
            committed[s] = rng.choice(fit) if fit else rng.randrange(4)
    if st.namer >= 0 and st.soloist < 0:
        committed[st.namer] = st.trump
    st.committed = committed
    st.deal_chalk = st.match["chalk"]
    if st.GAME == "bauernstoss" and st.match["deal_no"] == 1:
        st.deal_chalk = next((s for s in range(n) if orig[s] >> JC & 1), 0) % 2


def _stoss_fits(w: Worlds, st: State, orig: list[int]) -> bool:
    """Every announced count fits a suit of that hand; the namer holds the best count in trump."""
    from ..bauernstoss import count

    for s in range(w.n):
        call = st.calls[s]
        if s != w.me and isinstance(call, int) and not isinstance(call, bool):
            if not any(count(orig[s], x) == call for x in range(4)):
                return False
    if st.namer >= 0 and st.soloist < 0 and st.namer != w.me:
        return count(orig[st.namer], st.trump) == st.best
    return True


def _bauerchen_prepare(w: Worlds) -> None:
    """Bauerchen: before trump every hand has 5 cards; die Letzte and melds show cards in a hand."""
    from ..bauerchen import MELD_PARTNER, NAME_PHASE

    if w.base.phase == NAME_PHASE and w.options.trump_after_cards == 2:
        w.sizes = [5] * w.n
        w.my_hidden = 5 - w.mine.bit_count()
    letzte = w.public["letzte"]
    forehand = (w.base.dealer + 1) % w.n
    for c in _cards(w.public["shown"]):
        if letzte and c == parse_card(letzte):
            holder = forehand
        else:
            holder = next((s for s, x, _, _ in w.seats_of_play if x == MELD_PARTNER[c]), forehand)
        if holder != w.me:
            w.known[holder] |= bit(c)


def _bauerchen_finish(w: Worlds, st: State, orig, hidden, blind, rest, rng) -> None:
    """Bauerchen: first packets, the fifth card, home team, Spritzen, Ledig, melds, shown cards."""
    from ..bauerchen import NAME_PHASE

    pub = w.public
    st.first = [mask_of(cards_in(orig[s])[:2]) for s in range(w.n)]
    if st.phase == NAME_PHASE and w.options.trump_after_cards == 2:
        st.first[w.me] = w.mine
    namer = (w.base.dealer + 1) % w.n
    if namer != w.me and st.phase != NAME_PHASE and st.active[namer]:  # not sitting out a Ledig
        st.first[namer] = mask_of(rng.sample(cards_in(orig[namer]), 2))
    st.letzte = pub["letzte"] is not None
    st.fifth = parse_card(pub["letzte"]) if st.letzte else (rng.choice(cards_in(hidden)) if hidden else -1)
    st.home = pub["home"]
    st.spritz = pub["spritz"]
    st.ledig = pub["ledig"]
    st.aside = rest
    st.melds = list(pub["melds"])
    st.shown = mask_of(_cards(pub["shown"]))


def _bauerchen_fits(w: Worlds, st: State, orig: list[int]) -> bool:
    """The forehand named trump from cards (his first packet, or with five first his hand) from
    which the heuristic names that suit; not from two jacks if he could have said die Letzte.
    Not checked while he sits out his partner's Ledig (his cards lie face down)."""
    from ..bauerchen import NAME_PHASE
    from .bauerchen import trump_for

    namer = (w.base.dealer + 1) % w.n
    if namer == w.me or st.phase == NAME_PHASE or st.letzte or not st.active[namer]:
        return True
    seen = st.first[namer] if w.options.trump_after_cards == 2 else orig[namer]
    if w.options.trump_after_cards == 2 and w.options.die_letzte and seen & JACKS == seen:
        return False
    return trump_for(seen) == st.trump


def _bauer_prepare(w: Worlds) -> None:
    """Bauer: before trump is named every seat holds the whole deal, of which it has seen one packet."""
    from ..bauer import NAME_PHASE

    if w.base.phase == NAME_PHASE:
        size = sum(w.cls.packet_sizes(w.options))
        w.sizes = [size] * w.n
        w.my_hidden = size - w.mine.bit_count()


def _bauer_finish(w: Worlds, st: State, orig, hidden, blind, rest, rng) -> None:
    """Bauer: the caller, Stoß calls and whose Stoß is next, Karten weg and the cards laid away."""
    from ..bauer import NAME_PHASE, TRICKS_TO_WIN

    pub = w.public
    k = w.cls.packet_sizes(w.options)[0]
    st.alone = pub["karten_weg"] if pub["karten_weg"] is not None else -1
    dealt = [orig[s] | (rest if s == st.alone ^ 2 else 0) for s in range(w.n)]
    st.first = [mask_of(rng.sample(cards_in(h), min(k, h.bit_count()))) for h in dealt]
    st.first[w.me] = w.mine if st.phase == NAME_PHASE else st.first[w.me]
    st.caller = pub["caller"] if pub["caller"] is not None else -1
    st.stossed = list(pub["stoss"])
    st.out = rest
    started = st.phase == PLAY_PHASE
    st.may_karten_weg = started and st.alone < 0 and not st.tricks and not st.trick
    team = st.caller & 1
    st.stoss_team = -1 if not started or len(st.stossed) >= 2 else (team ^ 1 if not st.stossed else team)
    if st.stoss_team >= 0 and st.alone < 0:
        need_trump, need_other = TRICKS_TO_WIN[w.options.short_deck]
        won = st.won
        if won[team] + won[team + 2] >= need_trump or won[team ^ 1] + won[(team ^ 1) + 2] >= need_other:
            st.stoss_team = -1


def _bauer_fits(w: Worlds, st: State, orig: list[int]) -> bool:
    """The caller's first packet is one from which the heuristic would have named this trump."""
    from .bauer import naming_value

    if st.caller < 0 or st.caller == w.me:
        return True
    packet = st.first[st.caller]
    value = naming_value(packet, st.trump)
    return all(naming_value(packet, s) <= value for s in range(4))


def _rams_prepare(w: Worlds) -> None:
    """Rams: the Kehrer the dealer took is in his hand, the turned cards left lie aside; a blind to deal."""
    pub = w.public
    turned = _cards(pub["turned"])
    taken = mask_of(turned[len(turned) - pub["robbed"]:]) & ~w.played
    dealer = w.base.dealer
    if dealer != w.me:
        w.known[dealer] |= taken
    w.known_aside = mask_of(turned) & ~taken & ~w.played
    if pub["blind"] and pub["blind_taker"] is None:
        w.blind = 5


def _rams_finish(w: Worlds, st: State, orig, hidden, blind, rest, rng) -> None:
    """Rams: the deal's deck, the blind, the turned cards, the decisions, what lies aside, the draw."""
    pub = w.public
    st.deal_deck = w.deck
    taker = pub["blind_taker"]
    st.blind_taker = taker if taker is not None else -1
    st.blind = blind if taker is None else orig[taker]
    st.turned = _cards(pub["turned"])
    st.robbed = pub["robbed"]
    st.choice = list(pub["choices"])
    held = 0
    for h in st.hands:
        held |= h
    st.aside = w.deck & ~held & ~w.played
    draw = cards_in(w.deck)
    rng.shuffle(draw)
    st.draw = draw


_HOOKS = {
    "bauernstoss": (_stoss_prepare, _stoss_finish, _stoss_fits),
    "alter_schafkopf": (_stoss_prepare, _stoss_finish, _stoss_fits),
    "bauerchen": (_bauerchen_prepare, _bauerchen_finish, _bauerchen_fits),
    "bauer": (_bauer_prepare, _bauer_finish, _bauer_fits),
    "rams": (_rams_prepare, _rams_finish, _fits),
}
