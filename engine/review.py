"""The review of a deal (»Nachbesprechung«): every decision of a seat beside the strong player's, from its view then.

A replay (``rules/replay-format.md``) is run action by action; before each action of a reviewed
seat its view at that moment (``engine.view(state, seat)``, nothing more) goes to the second
opinion (:func:`~engine.players.opinion.opinion`, the whole sample budget). A decision is the action
the seat took, on its turn or out of turn (a doubling, playing alone); an offer a seat let pass
without acting is part of its next decision on turn, where the same offers are among its choices.

- ``best``: the strong player's choice; ``cost``: what the seat's choice lost against it on average
  over the same sampled deals, in the game's units (:func:`engine.players.strong.net`), at least 0.
- ``mark``: a clear mistake: the cost is above the game's :data:`THRESHOLDS` and the paired
  difference is :data:`CLEAR` standard errors above it, so that two reviews with other seeds
  mark the same decisions (measured in ``bench/review.py``).

Pure: the caller gives the random numbers, one ``random.Random`` per decision from ``rng_for(index)``,
so a decision's figures do not depend on which other seats are reviewed.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .players.opinion import Opinion, opinion, paired, sharpen
from .replay import ReplayError, load, play
from .state import State

__all__ = ["Decision", "Review", "review", "review_replay", "report", "THRESHOLDS", "CLEAR", "CLOSE", "SHARPEN", "SAMPLES",
           "MAX_ACTIONS"]

THRESHOLDS = {"bauernstoss": 0.5, "alter_schafkopf": 0.5, "bauerchen": 2.0, "bauer": 1.0, "rams": 0.5}
"""Per game, the average cost above which a decision may be marked: Striche, points, tricks."""
CLEAR = 2.0
"""How many standard errors of the paired differences the cost must lie above its threshold."""
CLOSE = 3.0
"""A cost within this many standard errors of the threshold is a close call, sharpened before it is judged."""
SHARPEN = 3
"""A close call gets this many times the decision's samples more, of the choice and the best only."""
SAMPLES = {"bauernstoss": 96, "alter_schafkopf": 96, "bauerchen": 48, "bauer": 48, "rams": 96}
"""Sampled deals per reviewed decision: one seat's deal within 3 s at p95 on one core (``bench/review.py``)."""
MAX_ACTIONS = 300
"""A replay with more actions than this is not reviewed (a deal has fewer than 100)."""


@dataclass(frozen=True)
class Decision:
    """One reviewed decision: the action a seat took, the strong player's, the cost and the mark.

    ``index`` is the action's place among the replay's actions, ``view`` the seat's view just
    before it (all a text about it may name), ``opinion`` the figures of every choice it had.
    """

    seat: int
    index: int
    choice: Action
    best: Action | None
    cost: float
    mark: bool
    view: dict[str, Any]
    opinion: Opinion


@dataclass(frozen=True)
class Review:
    """The reviewed decisions of a replay in the order taken; ``error`` the replay's first illegal action
    (``{"index", "reason"}``, as the replay output has it) or ``None``; ``state`` the deal where it stopped."""

    game: str
    decisions: tuple[Decision, ...]
    error: dict[str, Any] | None
    state: State


def judge(view: dict[str, Any], options: Any, rng, found: Opinion, choice: Action) -> tuple[float, bool]:
    """The cost of ``choice`` against ``found.best`` and whether it is marked (see the module's docstring).

    A close call (the cost within :data:`CLOSE` standard errors of the threshold) is sharpened first:
    :data:`SHARPEN` times the samples more, of these two choices only.
    """
    if found.samples == 0:
        return 0.0, False
    threshold = THRESHOLDS[view["game"]]
    best, mine = found.stats(found.best), found.stats(choice)
    mean, error = paired(best, mine)
    if mean > 0 and abs(mean - threshold) < CLOSE * error:
        best, mine = sharpen(view, options, rng, found, (found.best, choice), SHARPEN * found.samples)
        mean, error = paired(best, mine)
    cost = max(0.0, mean)
    return cost, cost > threshold and mean - threshold > CLEAR * error


def review(state: State, actions: list[tuple[int, Action]], rng_for: Callable[[int], Any],
           seats: Collection[int] | None = None, samples: int | None = None) -> Review:
    """Review the decisions of ``seats`` (``None``: every seat) among ``actions`` played from ``state``.

    Args:
        state: the dealt state (``engine.replay.load``'s); not changed.
        actions: ``(seat, action)`` in the order played; the review stops at the first illegal one.
        rng_for: a seeded ``random.Random`` for the decision at an action's index.
        seats: the seats whose decisions are reviewed.
        samples: sampled deals per decision (``None``: the game's :data:`SAMPLES`).
    """
    state = state.clone()
    budget = samples if samples is not None else SAMPLES[state.GAME]
    found: list[Decision] = []

    def judged(index: int, seat: int, action: Action) -> None:
        if seats is None or seat in seats:
            view = state.view(seat)
            rng = rng_for(index)
            seen = opinion(view, state.options, rng, budget, settle=False)
            cost, mark = judge(view, state.options, rng, seen, action)
            found.append(Decision(seat, index, action, seen.best, cost, mark, view, seen))

    error = play(state, actions, judged)
    return Review(state.GAME, tuple(found), error, state)


def review_replay(text: str, rng_for: Callable[[int], Any], seats: Collection[int] | None = None,
                  samples: int | None = None) -> Review:
    """:func:`review` of a replay file's text; :class:`~engine.replay.ReplayError` if it is not a valid
    replay or has more than :data:`MAX_ACTIONS` actions."""
    state, actions = load(text)
    if len(actions) > MAX_ACTIONS:
        raise ReplayError(f"{len(actions)} actions: a review takes at most {MAX_ACTIONS}")
    return review(state, actions, rng_for, seats, samples)


def report(review: Review) -> dict[str, Any]:
    """The review as ``stammtisch review --json`` prints it: the game, the replay's ``ok`` and ``error``, and per
    decision ``seat``, ``index``, ``choice`` and ``best`` (replay-format actions without ``seat``; ``best``
    ``null``: let every offer pass), ``cost`` (3 decimals) and ``mark``."""
    return {
        "game": review.game,
        "ok": review.error is None,
        "error": review.error,
        "decisions": [{"seat": d.seat, "index": d.index, "choice": d.choice.to_dict(),
                       "best": d.best.to_dict() if d.best is not None else None,
                       "cost": round(d.cost, 3), "mark": d.mark} for d in review.decisions],
    }
