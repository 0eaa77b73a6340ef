"""Tournaments, pure: the draw, the rounds, the results and each game's standings (no store, no clock, no chat text)."""

from .entrants import Entrant, teams_by_lot
from .formats import FORMATS, FormatOptions
from .ranking import RANKING, Standing
from .refusal import TournamentError
from .results import MatchResult, Outcome, SideResult, result_of
from .rounds import Pairing, Stage
from .tournament import Tournament, draw

__all__ = [
    "Entrant", "teams_by_lot", "FORMATS", "FormatOptions", "RANKING", "Standing", "TournamentError", "MatchResult",
    "Outcome", "SideResult", "result_of", "Pairing", "Stage", "Tournament", "draw",
]
