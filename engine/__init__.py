"""The pure rules engine of Stammtisch: five trick-taking games, no I/O, no clock, no global random.

The verbs follow OpenSpiel: :func:`legal_actions`, :func:`apply` (never mutates its input),
:func:`to_act`, :func:`is_over`, :func:`view`. A :class:`~engine.state.State` is one deal
with the match score around it; :func:`next_deal` continues the match.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from . import bauer, bauerchen, bauernstoss, rams  # noqa: F401  (each game registers itself)
from .actions import Action
from .deal import shuffled
from .options import OptionError, OptionSpec, specs
from .options import check as check_options
from .registry import game_class, game_ids
from .rejection import Code, Rejected
from .state import State

__all__ = [
    "Action", "Code", "Rejected", "State", "game_ids", "game_class", "parse_options",
    "OptionError", "OptionSpec", "option_specs",
    "new_match", "next_deal", "legal_actions", "offers", "apply", "to_act", "is_over",
    "match_over", "view", "to_json", "from_json",
]


def option_specs(game_id: str) -> dict[str, OptionSpec]:
    """The options of ``game_id`` by name: type, bounds and default (``rules/replay-format.md``)."""
    return specs(game_class(game_id).OPTIONS)


def parse_options(game_id: str, options: dict | None) -> BaseModel:
    """The typed options of ``game_id`` with defaults.

    Raises :class:`OptionError` (a ``ValueError``) for an unknown option or a value of another
    type or out of bounds; nothing is converted.
    """
    cls = game_class(game_id)
    check_options(game_id, cls.OPTIONS, options or {})
    try:
        return cls.OPTIONS.model_validate(options or {})
    except ValidationError as exc:  # a model rule the specs do not know (none today)
        raise ValueError(f"bad options for {game_id}: {exc.errors()[0]['msg']}") from None


def new_match(game_id: str, rng, players: int | None = None, options: dict | None = None,
              dealer: int = 0) -> State:
    """The first deal of a new match, shuffled by ``rng`` (``secrets.SystemRandom()`` or a seeded ``random.Random``)."""
    cls = game_class(game_id)
    n = players or cls.DEFAULT_PLAYERS
    lo, hi = cls.PLAYERS
    if not lo <= n <= hi:
        raise ValueError(f"{game_id} is played by {lo} to {hi} players, not {n}" if lo != hi
                         else f"{game_id} is played by {lo} players, not {n}")
    opts = parse_options(game_id, options)
    match = cls.new_match(opts, n)
    order = shuffled(cls.deck(opts, n, match), rng)
    hands, blind, turned = cls.packets(opts, n, match, dealer, order)
    return cls.start(opts, n, dealer, match, hands, blind, turned)


def next_deal(state: State, rng) -> State:
    """The next deal of ``state``'s match (its deal must be over, the match not)."""
    if state.to_act is not None:
        raise Rejected(Code.WRONG_PHASE, "the deal is still running")
    if state.match_over():
        raise Rejected(Code.DEAL_OVER, "the match is over")
    return state.next_deal(shuffled(state.deck(state.options, state.n, state.match), rng))


def legal_actions(state: State) -> list[Action]:
    """Every action the seat to act may take now."""
    return state.legal()


def offers(state: State) -> dict[int, list[Action]]:
    """Out-of-turn actions (doubling, playing alone) of the other seats."""
    return state.offers()


def apply(state: State, seat: int, action: Action) -> tuple[State, list[dict[str, Any]]]:
    """The state after ``seat`` takes ``action`` and the events it caused.

    Raises :class:`Rejected` (deal over, wrong phase, not your turn, illegal) and leaves
    ``state`` untouched; ``state`` is never mutated.
    """
    state.check(seat, action)
    new = state.clone()
    new.do(seat, action)
    return new, new.events


def to_act(state: State) -> int | None:
    """The seat whose turn it is, ``None`` once the deal is over."""
    return state.to_act


def is_over(state: State) -> bool:
    """Whether the deal is over."""
    return state.to_act is None


def match_over(state: State) -> bool:
    """Whether the match is decided."""
    return state.to_act is None and state.match_over()


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    """What ``seat`` sees (``None``: the public view with no hidden card)."""
    return state.view(seat)


def to_json(state: State) -> dict[str, Any]:
    """A JSON-ready dict of the whole state (hidden cards included: for storage only)."""
    return state.to_json()


def from_json(data: dict[str, Any]) -> State:
    """Rebuild a state written by :func:`to_json`."""
    return game_class(data["game"]).from_json(data)
