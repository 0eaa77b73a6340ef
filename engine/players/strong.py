"""The strong computer player: determinized search over the deals a seat's view allows.

It is given only the seat's view (``engine.view(state, seat)``) and the table's options, never a
state. For a decision it samples whole deals consistent with everything public
(:class:`~engine.players.worlds.Worlds`), tries each of its legal actions in every sample, plays
the sample to the deal's end with the game's heuristic player for all seats (the fast in-place
engine path) and takes the action with the best average worth of the deal (:func:`worth`). Every
decision goes through the same search: announcing and naming trump, Spritzen, Stoß, Karten weg,
Ledig, Rams' blind, pass and exchange, and each card. A stake decision (a doubling, playing
alone, or letting such an offer pass) keeps the heuristic's choice unless the search finds
another clearly better (:data:`_SURE`).

Pure: no clock and no global random. The caller gives a seeded ``random.Random``, a sample
budget and, if it wants an earlier answer, a ``stop`` callable asked between samples (the bot
layer's deadline). Ties, and a search stopped before its first sample, go to the heuristic's
own choice. :func:`search` is the whole search and hands back its :class:`Tally` as well: the
second opinion (:mod:`~engine.players.opinion`) reads the figures of every choice from it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..actions import PLAY, Action
from ..cards import EYES, bit
from ..state import State
from .heuristic import heuristic
from .playout import play_out
from .worlds import Worlds

__all__ = ["choose", "search", "candidates_of", "Tally", "worth", "net", "opponents", "rollout", "samples_for", "SAMPLES",
           "GAME_SAMPLES"]

SAMPLES = 24
"""The number of sampled deals per decision in the games not in :data:`GAME_SAMPLES`."""
GAME_SAMPLES = {"bauernstoss": 48, "bauerchen": 96, "bauer": 96}
"""Larger budgets for the games where 24 sampled deals won less than 60% of the points against the
heuristic (Bauer, 2,000 paired deals: 0.595 with 48, 0.604 with 96); the search still stops early
once its choice is settled, so the time grows far less."""
_DOUBLINGS = frozenset({"spritz", "stoss"})
"""Offers that raise the stake: taken only when the deal is won often enough, so two strong sides
cannot double each other without end."""
_DOUBLE_WINS = 0.7
"""The share of sampled deals a doubling must win."""
_ALONE = frozenset({"karten_weg", "ledig"})
"""Offers to play alone: like doublings, they stake much on one deal."""
_CONFIRM = 2
"""A doubling or playing alone that the first samples favour is checked on this many times as many more."""
_MAX_DOUBLINGS = 3
"""No further doubling once the deal's stake was raised this often (Spritzen has no limit of its own)."""
_TRICK_GAMES = frozenset({"bauer", "rams"})
"""Games where only tricks count, not the eyes in them."""
_SHAPE = 0.25
"""At most this much of a Strich or point for the eyes (or tricks) of a deal, see ``_value``."""
_FIRST = 8
"""Samples taken before the search may end early (see ``Tally.settled``)."""
_FIRST_ASKED = 4
"""As :data:`_FIRST` for an offer out of turn: it is asked again before every card, so a chance
let pass for want of samples comes back."""
_LOOK = 2
"""After the first samples, how often the search checks whether it may end."""
_CLEAR = 2.0
"""By how many standard errors the leading card must be ahead of every other to end the search early."""
_SLACK = 0.1
"""How much worse than the leader (in standard deviations of its worth) a card may still be when the search ends."""
_HOPE = 0.5
"""A stake search ends early while no candidate is this share of :data:`_SURE` ahead of the heuristic's choice."""
_SURE = 3.0
"""By how many standard errors of the paired differences a stake decision (a doubling, playing
alone, or letting one pass out of turn) must beat the heuristic's own choice to be taken instead.
Such offers are asked again before every card, so noise in the search would take them far too
often; in the arena the search's stake decisions lost to the heuristic's rules unless held to this."""


def worth(state: State) -> list[float]:
    """What a finished deal is worth to each seat: its team's Striche or points, in Rams its tricks.

    Bauernstoß, Alter Schafkopf: the Striche; Bauerchen: the points and melds (a Ledig counts
    the round's 12 or 21 points); Bauer: the points the winners counted down plus the points the
    losers were set back, a Brot (8) per stake for Karten weg; Rams: tricks, less 1 for a Kartoffel.
    Team games give both seats of a team the team's figure.
    """
    r, n, game = state.result or {}, state.n, state.GAME
    if game == "rams":
        return [float(state.won[s] - (s in r.get("kartoffeln", ()))) for s in range(n)]
    if game in ("bauernstoss", "alter_schafkopf"):
        team = r.get("striche", [0, 0])
    elif game == "bauerchen":
        team = [p + m for p, m in zip(r["points"], r["melds"])]
        if state.ledig is not None and r["round_winner"] is not None:
            from ..bauerchen import round_end
            team[r["round_winner"]] += round_end(state.options)
    else:
        team = [0, 0]
        if state.alone >= 0:
            team[r["brot"]] = 8 * 2 ** len(state.stossed)
        else:
            winner = 0 if r["change"][0] < 0 else 1
            team[winner] = abs(r["change"][0]) + abs(r["change"][1])
    return [float(team[s % 2]) for s in range(n)]


def opponents(state: State, seat: int) -> list[int]:
    """The seats ``seat`` plays against: the other team, in Rams every other seat."""
    return [s for s in range(state.n) if s != seat and (state.GAME == "rams" or s % 2 != seat % 2)]


def net(state: State, seat: int) -> float:
    """A finished deal's :func:`worth` to ``seat`` less the average of its opponents' (:func:`opponents`)."""
    w = worth(state)
    others = opponents(state, seat)
    return w[seat] - sum(w[s] for s in others) / len(others)


def _value(state: State, seat: int) -> float:
    """:func:`net`, and a little for eyes or tricks.

    The worth moves in steps (a Strich, a point); the share of the deal's eyes (of its tricks
    where eyes do not count) adds at most :data:`_SHAPE`, so that among choices worth the same
    Striche the search prefers the one nearer the next step.
    """
    others = opponents(state, seat)
    mine = [s for s in range(state.n) if s not in others]
    gained = state.won if state.GAME in _TRICK_GAMES else state.eyes
    total = sum(gained) or 1
    shape = (sum(gained[s] for s in mine) / len(mine) - sum(gained[s] for s in others) / len(others)) / total
    return net(state, seat) + _SHAPE * shape


def samples_for(game: str) -> int:
    """The default number of sampled deals per decision in ``game``."""
    return GAME_SAMPLES.get(game, SAMPLES)


def rollout(state: State) -> bool:
    """Play ``state``'s deal to its end in place with the heuristic for every seat; False if cut off."""
    brain = heuristic(state.GAME)
    return play_out(state, brain.choose, brain.offer)


def _distinct(candidates: list[Action | None], worlds: Worlds) -> list[int]:
    """For each candidate, the index of the first candidate equal to it: a card of the same suit with no card
    between them still out (and the same eyes); itself for every other action."""
    order = worlds.base.order
    if order is None:
        return list(range(len(candidates)))
    live = worlds.deck & ~worlds.played & ~worlds.mine
    eyes_count = worlds.cls.GAME not in _TRICK_GAMES

    def twins(a: int, b: int) -> bool:
        """Whether cards ``a`` and ``b`` do the same in every trick."""
        if order.eff[a] != order.eff[b] or eyes_count and EYES[a] != EYES[b]:
            return False
        lo, hi = (a, b) if order.strength[a] < order.strength[b] else (b, a)
        return not order.above[lo] & ~order.above[hi] & ~bit(hi) & live

    def plain(action: Action | None) -> bool:
        return action is not None and action.kind == PLAY and not action.meld

    same: list[int] = []
    for i, action in enumerate(candidates):
        same.append(next((k for k in sorted(set(same)) if plain(action) and plain(candidates[k])
                          and twins(candidates[k].card, action.card)), i))
    return same


def choose(view: dict[str, Any], options: Any, rng, samples: int | None = None,
           stop: Callable[[], bool] | None = None) -> Action | None:
    """The decision of the seat whose view this is.

    Args:
        view: ``engine.view(state, seat)``.
        options: the table's options (dict or options model).
        rng: a ``random.Random`` for sampling.
        samples: how many deals to sample at most (at least one is); ``None``: :func:`samples_for` the game.
        stop: asked before each sample after the first; True ends the search.

    Returns:
        For the seat to act, its action; for another seat, the out-of-turn offer it takes
        (doubling, playing alone) or ``None``. ``None`` as well when the seat has nothing to decide.
    """
    return search(view, options, rng, samples, stop)[0]


def candidates_of(view: dict[str, Any]) -> list[Action | None]:
    """What the seat of ``view`` may decide: its legal actions on its turn; else ``None`` (letting every
    offer pass) and its out-of-turn offers, or nothing if it has none."""
    legal = [Action.from_dict(a) for a in view["legal"]]
    if not legal or view["to_act"] == view["seat"]:
        return legal
    return [None, *legal]


def search(view: dict[str, Any], options: Any, rng, samples: int | None = None,
           stop: Callable[[], bool] | None = None, tally: type[Tally] | None = None,
           settle: bool = True) -> tuple[Action | None, Tally | None]:
    """The search behind :func:`choose`: its decision and the tally of what it saw.

    ``tally`` is the class that plays the samples out (a subclass of :class:`Tally` may record more of
    each); ``settle`` False samples the whole budget instead of ending once the choice is settled.
    The tally is ``None`` where nothing was searched: no choice, or a single one (up to equal cards).
    """
    candidates = candidates_of(view)
    if len(candidates) <= 1:
        return (candidates[0] if candidates else None), None
    worlds = Worlds(view, options)
    if samples is None:
        samples = samples_for(view["game"])
    found = (tally or Tally)(worlds, candidates, view["seat"], view["to_act"] == view["seat"])
    if len(found.candidates) == 1:
        return found.candidates[0], None
    cut = found.run(rng, samples, stop, settle)
    best = found.best(view["public"])
    if best is not None and best.kind in _DOUBLINGS | _ALONE and not cut:
        found.run(rng, max(samples, found.done) * _CONFIRM, stop, settle=False)
        best = found.best(view["public"])
    return best, found


def _score(a: list[float], b: list[float], slack: float = 0.0) -> float:
    """How many standard errors the mean of the paired differences ``a - b`` is above ``-slack`` (inf if
    they never differ and ``a`` leads, 0 if they never differ at all)."""
    done = len(a)
    diffs = [x - y for x, y in zip(a, b)]
    mean = sum(diffs) / done + slack
    var = sum((d - mean) ** 2 for d in diffs) / (done - 1)
    if var == 0:
        return math.inf if mean > 0 else (0.0 if mean == 0 else -math.inf)
    return mean / math.sqrt(var / done)


class Tally:
    """The worth of each candidate in every deal sampled so far, and the heuristic's own choice.

    Of candidates equal to each other (:func:`_distinct`) only the first is played out.
    """

    def __init__(self, worlds: Worlds, choices: list[Action | None], seat: int, to_act: bool) -> None:
        self.worlds = worlds
        self.choices = choices
        """Every candidate of the decision."""
        kept = _distinct(choices, worlds)
        self.candidates = [a for i, a in enumerate(choices) if kept[i] == i]
        """The candidates played out: one of each set of equal ones."""
        self.played_as = [self.candidates.index(choices[k]) for k in kept]
        """Per choice, the index of the candidate played out for it."""
        self.seat = seat
        self.to_act = to_act
        self.values: list[list[float]] = [[] for _ in self.candidates]
        self.prior = -1
        """The index of the heuristic's choice among the candidates (-1 while unknown or not one)."""

    @property
    def done(self) -> int:
        """How many deals were sampled."""
        return len(self.values[0])

    def run(self, rng, samples: int, stop: Callable[[], bool] | None, settle: bool = True) -> bool:
        """Sample up to ``samples`` more deals (at least one in all) and play every candidate out in each.

        With ``settle`` it ends early once :meth:`settled` (checked every :data:`_LOOK` samples from
        :data:`_FIRST` or :data:`_FIRST_ASKED` on). True if ``stop`` cut it off.
        """
        seat = self.seat
        first = _FIRST if self.to_act else _FIRST_ASKED
        for i in range(max(1, samples)):
            if (i or self.done) and stop is not None and stop():
                return True
            if settle and self.done >= first and self.done % _LOOK == 0 and self.settled():
                return False
            world = self.worlds.sample(rng)
            if not self.done:
                brain = heuristic(self.worlds.cls.GAME)
                prior = brain.choose(world, seat) if self.to_act else brain.offer(world, seat)
                self.prior = next((k for k, a in enumerate(self.candidates) if a == prior), -1)
            for k, action in enumerate(self.candidates):
                st = world.clone()
                if action is not None:
                    st.do(seat, action)
                self.values[k].append(self.score(k, st))
        return False

    def score(self, k: int, st: State) -> float:
        """Play ``st`` (the sampled deal after candidate ``k``) to its end: its value to the seat, 0 if cut off."""
        return _value(st, self.seat) if rollout(st) else 0.0

    def settled(self) -> bool:
        """Whether more samples would hardly change the choice.

        Card play: the leader is tied in every sample or clearly ahead (:data:`_CLEAR` standard
        errors) of each other candidate. A stake decision, which must beat the heuristic's choice by
        :data:`_SURE` standard errors in the end: no candidate is even :data:`_HOPE` of the way there.
        """
        done, values = self.done, self.values
        totals = [sum(v) for v in values]
        lead = max(range(len(values)), key=totals.__getitem__)
        stake = not self.to_act or any(a is not None and a.kind in _DOUBLINGS | _ALONE for a in self.candidates)
        if stake:
            prior = self.prior
            return prior < 0 or all(_score(values[k], values[prior]) < _HOPE * _SURE for k in range(len(values))
                                    if k != prior)
        mean = totals[lead] / done
        slack = _SLACK * math.sqrt(sum((v - mean) ** 2 for v in values[lead]) / (done - 1))
        return all(values[k] == values[lead] or _score(values[lead], values[k], slack) >= _CLEAR
                   for k in range(len(values)) if k != lead)

    def best(self, public: dict[str, Any]) -> Action | None:
        """The candidate of the best average; the heuristic's choice on a tie, or on a stake decision unless clearly worse.

        A doubling is allowed only if it won often enough and the stake may still rise.
        """
        raised = public.get("spritz") or len(public.get("stoss") or ())
        done = self.done
        allowed = [k for k, a in enumerate(self.candidates) if a is None or a.kind not in _DOUBLINGS
                   or sum(v > 0 for v in self.values[k]) >= _DOUBLE_WINS * done and raised < _MAX_DOUBLINGS]
        prior = self.prior
        totals = [sum(v) for v in self.values]
        best = max(allowed, key=lambda k: (totals[k], k == prior))
        if prior in allowed and best != prior and done > 1:
            diffs = [a - b for a, b in zip(self.values[best], self.values[prior])]
            mean = sum(diffs) / done
            sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (done - 1))
            stake = not self.to_act or any(self.candidates[k] is not None and self.candidates[k].kind in _DOUBLINGS | _ALONE
                                            for k in (best, prior))
            if mean <= _SURE * stake * sd / math.sqrt(done):
                best = prior
        return self.candidates[best]
