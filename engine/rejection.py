"""Typed refusals of the engine's validation pipeline."""

from __future__ import annotations

from enum import Enum

__all__ = ["Code", "Rejected"]


class Code(str, Enum):
    """Why an action was refused, in the order the pipeline checks."""

    DEAL_OVER = "deal_over"
    WRONG_PHASE = "wrong_phase"
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL = "illegal"


class Rejected(Exception):
    """An action the engine refused; the state it was tried on is unchanged.

    ``code`` is the pipeline stage, ``reason`` a short English sentence and ``hint`` an
    optional restriction key (``must_follow``, ``must_trump``, ...) renderers translate.
    """

    def __init__(self, code: Code, reason: str, hint: str = "") -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.hint = hint
