"""The kinds of computer player and how each decides: ``random``, ``leicht``, ``normal``, ``stark``.

- ``random``: a random legal action; out-of-turn offers now and then (``simulate``'s players).
- ``leicht`` (easy): the heuristic, but every fourth decision or so a random legal action.
- ``normal``: the game's heuristic (``engine.players.<game>``), the default for taken-over seats.
- ``stark`` (strong): the determinized search of :mod:`engine.players.strong`, given the
  seat's view only.

``heuristic`` and ``strong`` are accepted as other names of ``normal`` and ``stark``.
"""

from __future__ import annotations

from collections.abc import Callable

import engine
from engine.players import strong
from engine.state import State

__all__ = ["LEVELS", "KINDS", "OFFER_CHANCE", "kind_of", "act", "offer"]

LEVELS = ("leicht", "normal", "stark")
"""The levels a table's computer players can have, weakest first."""
KINDS = ("random", *LEVELS)
ALIASES = {"heuristic": "normal", "strong": "stark", "easy": "leicht"}
OFFER_CHANCE = 0.05
"""How often a random player takes an out-of-turn offer (doubling, playing alone) when one exists."""
LEICHT_RANDOM = 0.25
"""How often the easy player takes a random legal action instead of the heuristic's."""


def kind_of(name: str) -> str:
    """The kind named ``name`` (a level or an alias); ``ValueError`` if there is none."""
    kind = ALIASES.get(name, name)
    if kind not in KINDS:
        raise ValueError(f"unknown player kind: {name!r} (kinds: {', '.join(KINDS)}, heuristic, strong)")
    return kind


def act(kind: str, state: State, seat: int, rng, samples: int = strong.SAMPLES,
        stop: Callable[[], bool] | None = None) -> engine.Action:
    """The action of ``seat``, the seat to act, for a player of ``kind``."""
    if kind == "random" or kind == "leicht" and rng.random() < LEICHT_RANDOM:
        return rng.choice(state.legal())
    if kind == "stark":
        return strong.choose(engine.view(state, seat), state.options, rng, samples, stop)
    return strong.heuristic(state.GAME).choose(state, seat)


def offer(kind: str, state: State, seat: int, rng, samples: int = strong.SAMPLES,
          stop: Callable[[], bool] | None = None) -> engine.Action | None:
    """The out-of-turn action ``seat`` takes now for a player of ``kind``, if any."""
    if kind == "random":
        acts = state.offers_for(seat)
        return rng.choice(acts) if acts and rng.random() < OFFER_CHANCE else None
    if kind == "stark":
        return strong.choose(engine.view(state, seat), state.options, rng, samples, stop)
    return strong.heuristic(state.GAME).offer(state, seat)
