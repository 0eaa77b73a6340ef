"""The group's memory: every finished deal and match of a chat, its statistics, ratings, seasons and evenings."""

from bot.memory.absorb import absorb
from bot.memory.book import CAP, SHEETS, TTL, Book
from bot.memory.chart import RatingSeries, rating_png, rating_series
from bot.memory.errors import Unknown, UnknownGame, UnknownPerson, UnknownSeason
from bot.memory.evening import KASSE, Evening, Settlement, Transfer, evening
from bot.memory.export import Export, export
from bot.memory.history import history
from bot.memory.journal import journal
from bot.memory.outcome import FIGURES, GAMES, DealOutcome, MatchOutcome, SeatOutcome, TourneyOutcome
from bot.memory.people import Person, find, who_of
from bot.memory.privacy import CONFIRM_S, Own, confirmed, forget, is_recorded, own_figures, set_recorded
from bot.memory.ratings import RANKED_AFTER
from bot.memory.seasons import Season, current, new_season, seasons
from bot.memory.tournaments import Tournament, record_tournament, tournaments
from bot.memory.stats import Duo, GameStats, Pair, PersonStats, Ranked, Ranking, pairs, ranking, stats

__all__ = [
    "Book", "CAP", "TTL", "SHEETS", "journal", "absorb",
    "DealOutcome", "MatchOutcome", "SeatOutcome", "TourneyOutcome", "FIGURES", "GAMES",
    "record_tournament", "tournaments", "Tournament",
    "Person", "who_of", "find",
    "stats", "ranking", "pairs", "Pair", "PersonStats", "GameStats", "Duo", "Ranking", "Ranked", "RANKED_AFTER",
    "history", "evening", "Evening", "Settlement", "Transfer", "KASSE",
    "Season", "seasons", "current", "new_season",
    "forget", "confirmed", "CONFIRM_S", "set_recorded", "is_recorded", "own_figures", "Own",
    "export", "Export", "rating_series", "rating_png", "RatingSeries",
    "Unknown", "UnknownGame", "UnknownPerson", "UnknownSeason",
]
