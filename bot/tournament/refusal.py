"""Why a tournament operation was refused: a code the chat side words, and a one-line English reason."""

from __future__ import annotations

__all__ = ["TournamentError"]


class TournamentError(ValueError):
    """A refused tournament operation; the tournament is left unchanged.

    Attributes:
        code: what was wrong, for the chat side's words (``unknown_game``, ``unknown_format``,
            ``field_size``, ``format_options``, ``table_options``, ``entrants``, ``unknown_pairing``,
            ``result_mismatch``, ``round_open``, ``not_running``, ``not_over``, ``unknown_entrant``).
    """

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
