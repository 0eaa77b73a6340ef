"""Replay files (``rules/replay-format.md``): read one deal, run its actions, report the state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from . import parse_options
from .actions import Action
from .cards import SUITS, card_strs, parse_card
from .jsontext import JSONTextError, read_json
from .registry import game_class
from .rejection import Rejected
from .state import State

__all__ = ["ReplayFile", "ReplayError", "load", "play", "run"]


class ReplayError(ValueError):
    """The input is not a valid replay file; the message is one line."""


class _Deal(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    hands: list[list[str]]
    blind: list[str] = Field(default_factory=list)
    turned: list[str] = Field(default_factory=list)


class ReplayFile(BaseModel):
    """One deal: the game, its options, seats, dealer, match before it, dealt cards and actions.

    Strict: nothing is converted (``"4"`` or ``4.0`` is not the whole number 4).
    """

    model_config = ConfigDict(extra="forbid", strict=True)
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    players: int = None  # type: ignore[assignment]  # may be left out, never null: the default is not validated
    dealer: int = 0
    match: dict[str, Any] | None = None
    deal: _Deal
    actions: list[dict[str, Any]] = Field(default_factory=list)


def load(text: str) -> tuple[State, list[tuple[int, Action]]]:
    """Parse a replay file into the dealt state and its actions; :class:`ReplayError` if invalid."""
    try:
        data = read_json(text)
    except JSONTextError as exc:
        raise ReplayError(f"not JSON: {exc}") from None
    try:
        rf = ReplayFile.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"]) or "file"
        raise ReplayError(f"bad replay file at {where}: {err['msg']}") from None
    try:
        cls = game_class(rf.game)
        opts = parse_options(rf.game, rf.options)
        n = rf.players if rf.players is not None else len(rf.deal.hands)
        lo, hi = cls.PLAYERS
        if not lo <= n <= hi:
            raise ValueError(f"{rf.game} is played by {lo} to {hi} players, not {n}")
        if len(rf.deal.hands) != n:
            raise ValueError(f"{len(rf.deal.hands)} hands for {n} players")
        if not 0 <= rf.dealer < n:
            raise ValueError(f"dealer {rf.dealer} is not a seat")
        match = cls.read_match(opts, n, rf.match or {})
        hands = [[parse_card(c) for c in h] for h in rf.deal.hands]
        blind = [parse_card(c) for c in rf.deal.blind]
        turned = [parse_card(c) for c in rf.deal.turned]
        state = cls.start(opts, n, rf.dealer, match, hands, blind, turned)
        actions = []
        for i, a in enumerate(rf.actions):
            seat = a.get("seat")
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise ValueError(f"action {i} has no seat number")
            try:
                actions.append((seat, Action.from_dict(a)))
            except ValueError as exc:
                raise ValueError(f"action {i}: {exc}") from None
    except ValueError as exc:
        raise ReplayError(str(exc)) from None
    return state, actions


def play(state: State, actions: list[tuple[int, Action]],
         before: Callable[[int, int, Action], None] | None = None) -> dict[str, Any] | None:
    """Apply ``actions`` to ``state`` in place up to the first illegal one: its ``{"index", "reason"}``, else ``None``.

    ``before(index, seat, action)`` is called before each legal action is applied.
    """
    for i, (seat, action) in enumerate(actions):
        try:
            state.check(seat, action)
        except Rejected as exc:
            return {"index": i, "reason": exc.reason}
        if before is not None:
            before(i, seat, action)
        state.do(seat, action)
    return None


def run(text: str) -> dict[str, Any]:
    """Replay a file's text and return the output object of the replay format."""
    state, actions = load(text)
    error = play(state, actions)
    return report(state, error)


def report(state: State, error: dict | None = None) -> dict[str, Any]:
    """The replay output object for ``state``."""
    return {
        "ok": error is None,
        "error": error,
        "to_act": state.to_act,
        "legal": [a.to_dict() for a in state.legal()],
        "offers": {str(s): [a.to_dict() for a in acts] for s, acts in state.offers().items()},
        "trump": SUITS[state.trump] if state.trump >= 0 else None,
        "tricks": [{"leader": lead, "cards": card_strs(cs), "winner": win} for lead, cs, win in state.tricks],
        "result": state.result,
        "match": state.match,
    }

