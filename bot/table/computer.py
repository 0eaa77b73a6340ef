"""The kinds of computer player and how each decides: ``random``, ``leicht``, ``normal``, ``stark``.

- ``random``: a random legal action; out-of-turn offers now and then (``simulate``'s players).
- ``leicht`` (easy): the heuristic, but every fourth decision or so a random legal action.
- ``normal``: the game's heuristic (``engine.players.<game>``), the default for taken-over seats.
- ``stark`` (strong): the determinized search of :mod:`engine.players.strong`, given the
  seat's view only.

``heuristic`` and ``strong`` are accepted as other names of ``normal`` and ``stark``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import engine
from bot.table.refused import Refused
from engine.players.opinion import Opinion, opinion
from engine.players.heuristic import heuristic
from engine.state import State

__all__ = ["LEVELS", "LEVEL_OPTION", "level_from", "KINDS", "OFFER_CHANCE", "DECISION_SECONDS", "MIN_SAMPLES", "kind_of",
           "decide", "act", "offer", "Deadline"]

LEVELS = ("leicht", "normal", "stark")
"""The levels a table's computer players can have, weakest first."""
KINDS = ("random", *LEVELS)
ALIASES = {"heuristic": "normal", "strong": "stark", "easy": "leicht"}
LEVEL_OPTION = "level"
"""The table option (``option level stark``) that sets the level of all its computer players."""
OFFER_CHANCE = 0.05
"""How often a random player takes an out-of-turn offer (doubling, playing alone) when one exists."""
DECISION_SECONDS = 1.0
"""The longest a strong decision at a table may search."""
MIN_SAMPLES = 4
"""A search stopped by its deadline with fewer sampled deals than this gives way to the heuristic."""
LEICHT_RANDOM = 0.25
"""How often the easy player takes a random legal action instead of the heuristic's."""


def kind_of(name: str) -> str:
    """The kind named ``name`` (a level or an alias); ``ValueError`` if there is none."""
    kind = ALIASES.get(name, name)
    if kind not in KINDS:
        raise ValueError(f"unknown player kind: {name!r} (kinds: {', '.join(KINDS)}, heuristic, strong)")
    return kind


class Deadline:
    """A search's ``stop``: true once ``seconds`` have passed; it counts the samples it allowed."""

    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds
        self.allowed = 1  # the search always takes its first sample
        self.hit = False

    def __call__(self) -> bool:
        """Whether the time is up (asked by the search before each further sample)."""
        self.hit = time.monotonic() > self.end
        self.allowed += not self.hit
        return self.hit

    @property
    def starved(self) -> bool:
        """Whether the deadline cut the search off before :data:`MIN_SAMPLES` sampled deals."""
        return self.hit and self.allowed < MIN_SAMPLES


def _search(state: State, seat: int, rng, samples: int | None, seconds: float | None,
            fallback: Callable[[State, int], engine.Action | None]) -> tuple[engine.Action | None, Opinion | None]:
    """The strong player's decision from ``seat``'s view and what its search saw (``None`` where it searched
    nothing); the heuristic's decision, and ``None``, if a deadline starved it."""
    stop = Deadline(seconds) if seconds is not None else None
    seen = opinion(engine.view(state, seat), state.options, rng, samples, stop)
    if stop is not None and stop.starved:
        return fallback(state, seat), None
    return seen.best, seen if seen.samples else None


def level_from(word: str) -> str:
    """The level a player typed (``stark``, ``strong`` ...); :class:`Refused` ``bad_level`` if none."""
    level = ALIASES.get(word.lower(), word.lower())
    if level not in LEVELS:
        raise Refused("bad_level", levels=", ".join(LEVELS))
    return level


def decide(kind: str, state: State, seat: int, rng, samples: int | None = None,
           seconds: float | None = None) -> tuple[engine.Action | None, Opinion | None]:
    """What ``seat`` does now as a player of ``kind``: on his turn his action, else the out-of-turn offer he
    takes (``None``: none); with a strong search's figures (:mod:`engine.players.opinion`) where it searched.

    ``samples`` caps a strong search's sampled deals (``None``: the game's default), ``seconds``
    limits its time (``None``: only ``samples`` does).
    """
    turn = state.to_act == seat
    if kind == "random":
        if turn:
            return rng.choice(state.legal()), None
        acts = state.offers_for(seat)
        return (rng.choice(acts) if acts and rng.random() < OFFER_CHANCE else None), None
    if kind == "leicht" and turn and rng.random() < LEICHT_RANDOM:
        return rng.choice(state.legal()), None
    brain = heuristic(state.GAME)
    fallback = brain.choose if turn else brain.offer
    if kind == "stark":
        return _search(state, seat, rng, samples, seconds, fallback)
    return fallback(state, seat), None


def act(kind: str, state: State, seat: int, rng, samples: int | None = None,
        seconds: float | None = None) -> engine.Action:
    """The action of ``seat``, the seat to act, for a player of ``kind`` (:func:`decide`)."""
    return decide(kind, state, seat, rng, samples, seconds)[0]


def offer(kind: str, state: State, seat: int, rng, samples: int | None = None,
          seconds: float | None = None) -> engine.Action | None:
    """The out-of-turn action ``seat`` takes now for a player of ``kind``, if any (:func:`decide`)."""
    return decide(kind, state, seat, rng, samples, seconds)[0]
