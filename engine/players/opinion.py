"""A second opinion on one decision: what the strong player's search saw for every choice a seat has.

Pure, like :mod:`~engine.players.strong`, whose search it runs (:func:`~engine.players.strong.search`):
from a seat's view only, the same sampled deals for every choice (a paired comparison), each
played to the deal's end by the heuristic for all seats. The API the hint and the review code against::

    opinion(view, options, rng, samples=None, stop=None, settle=True) -> Opinion

    Opinion(best, options: tuple[ActionStats, ...], samples)
        best      the strong player's choice: strong.choose's, stake rule included (with
                  ``settle`` True and the same ``rng`` and ``samples``, exactly the action
                  strong.choose returns); ``None``: let every out-of-turn offer pass
        options   one ActionStats per choice the seat has, in the view's ``legal`` order; for a
                  seat not on turn the first is ``None`` (letting the offers pass)
        samples   how many sampled deals the search played out (0 for a forced decision)
        stats(action) -> ActionStats      the entry of one choice

    ActionStats(action, worth, trick, won, gained, samples, values)
        worth     mean net worth of the deal in the game's units, strong.net: the seat's side's
                  Striche (Bauernstoß, Alter Schafkopf), points (Bauerchen, Bauer: a Brot is 8) or
                  tricks less a Kartoffel (Rams), less the opponents' (Rams: their average)
        trick     share of the samples in which the seat itself takes the trick being played
                  (the next one if none is) with this choice
        won       share of the samples in which the seat's side wins the deal (net worth > 0)
        gained    mean eyes of the seat's side (Bauer, Rams: its tricks)
        samples   how many samples these figures are over (the same deals for every choice)
        values    the net worth in each sample, paired with every other choice's values

    paired(a, b) -> (mean, standard error) of a's net worth less b's over the same samples
    sharpen(view, options, rng, found, actions, samples) -> tuple[ActionStats, ...]
        the figures of a few of found's choices over found's samples and ``samples`` more deals
        in which only those are played out (a close call made clearer for less)

Cards equal in every trick (same suit, nothing between them still out, same eyes) are played out
once and share their figures. ``settle`` False plays the whole sample budget instead of ending
the search once its choice is settled (the review's steadier figures); ``best`` then follows the
same rules over those samples.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..actions import Action
from ..state import State
from . import strong
from .worlds import Worlds

__all__ = ["ActionStats", "Opinion", "opinion", "paired", "sharpen"]


@dataclass(frozen=True)
class ActionStats:
    """What the search saw for one choice (see the module's docstring)."""

    action: Action | None
    worth: float
    trick: float
    won: float
    gained: float
    samples: int
    values: tuple[float, ...]


@dataclass(frozen=True)
class Opinion:
    """The strong player's choice and the figures of every choice, over the same sampled deals."""

    best: Action | None
    options: tuple[ActionStats, ...]
    samples: int

    def stats(self, action: Action | None) -> ActionStats:
        """The figures of ``action`` (``KeyError`` if the seat had no such choice)."""
        for s in self.options:
            if s.action == action:
                return s
        raise KeyError(action)


def paired(a: ActionStats, b: ActionStats) -> tuple[float, float]:
    """The mean of ``a``'s net worth less ``b``'s over their shared samples, and its standard error."""
    diffs = [x - y for x, y in zip(a.values, b.values)]
    done = len(diffs)
    if not done:
        return 0.0, 0.0
    mean = sum(diffs) / done
    if done == 1:
        return mean, math.inf if mean else 0.0
    return mean, math.sqrt(sum((d - mean) ** 2 for d in diffs) / (done - 1) / done)


class _Observed(strong.Tally):
    """The strong search's tally that also keeps, per candidate and sample, the figures of the outcome."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.seen: list[list[tuple[float, bool, bool, int]]] = [[] for _ in self.candidates]
        self.trick_no = len(self.worlds.base.tricks)

    def score(self, k: int, st: State) -> float:
        value = super().score(k, st)
        seat = self.seat
        done = st.to_act is None
        worth = strong.net(st, seat) if done else 0.0
        took = len(st.tricks) > self.trick_no and st.tricks[self.trick_no][2] == seat
        others = strong.opponents(st, seat)
        gained = st.won if st.GAME in ("bauer", "rams") else st.eyes
        side = sum(gained[s] for s in range(st.n) if s not in others)
        self.seen[k].append((worth, took, worth > 0, side))
        return value

    def stats(self, k: int) -> ActionStats:
        """The figures of candidate ``k``."""
        seen = self.seen[k]
        done = len(seen) or 1
        return ActionStats(self.candidates[k], sum(s[0] for s in seen) / done, sum(s[1] for s in seen) / done,
                           sum(s[2] for s in seen) / done, sum(s[3] for s in seen) / done, len(seen),
                           tuple(s[0] for s in seen))


def _unsearched(action: Action | None) -> ActionStats:
    return ActionStats(action, 0.0, 0.0, 0.0, 0.0, 0, ())


def opinion(view: dict[str, Any], options: Any, rng, samples: int | None = None,
            stop: Callable[[], bool] | None = None, settle: bool = True) -> Opinion:
    """The strong player's choice from ``view`` and what its search saw for every choice.

    Args:
        view: ``engine.view(state, seat)`` (a plain JSON copy is enough).
        options: the table's options (dict or options model).
        rng: a seeded ``random.Random`` for sampling.
        samples: sampled deals at most (``None``: the game's default, :func:`strong.samples_for`).
        stop: asked before each sample after the first; True ends the search (a deadline).
        settle: False samples the whole budget (see the module's docstring).
    """
    best, tally = strong.search(view, options, rng, samples, stop, _Observed, settle)
    choices = strong.candidates_of(view)
    if tally is None:
        return Opinion(best, tuple(_unsearched(a) for a in choices), 0)
    figures = [tally.stats(k) for k in range(len(tally.candidates))]
    found = tuple(replace(figures[k], action=a) for a, k in zip(tally.choices, tally.played_as))
    return Opinion(best, found, tally.done)


def _pooled(a: ActionStats, b: ActionStats) -> ActionStats:
    """The figures of one choice over ``a``'s samples and ``b``'s."""
    done = a.samples + b.samples or 1

    def mean(x: float, y: float) -> float:
        return (x * a.samples + y * b.samples) / done

    return ActionStats(a.action, mean(a.worth, b.worth), mean(a.trick, b.trick), mean(a.won, b.won),
                       mean(a.gained, b.gained), a.samples + b.samples, a.values + b.values)


def sharpen(view: dict[str, Any], options: Any, rng, found: Opinion, actions: tuple[Action | None, ...],
            samples: int) -> tuple[ActionStats, ...]:
    """The figures of ``actions`` (choices of ``found``, the opinion on ``view``, none two equal cards) over
    ``found``'s samples and ``samples`` more sampled deals, in which only ``actions`` are played out."""
    tally = _Observed(Worlds(view, options), list(actions), view["seat"], view["to_act"] == view["seat"])
    tally.run(rng, samples, None, settle=False)
    return tuple(_pooled(found.stats(a), tally.stats(tally.played_as[k])) for k, a in enumerate(actions))
