"""A chat's statistics: one person's (or computer's) figures per game, and the ranking of a game.

Both read only aggregates kept as matches are counted (:mod:`bot.memory.absorb`): a person's figures
are one hash per game, a ranking one hash of ratings, whatever the length of the history.
"""

from __future__ import annotations

import time

from pydantic import BaseModel, Field

from bot.memory.absorb import WHO, absorb, figures_key, ratings_key, running_key, running_tables
from bot.memory.book import Book
from bot.memory.errors import UnknownGame, UnknownPerson
from bot.memory.outcome import FIGURES, GAMES
from bot.memory.people import COMPUTER, Person, names
from bot.memory.ratings import RANKED_AFTER, Rating
from bot.memory.seasons import checked

__all__ = ["Duo", "GameStats", "PersonStats", "Ranked", "Ranking", "Pair", "stats", "ranking", "pairs", "checked_game",
           "PAIRED_AFTER"]

PAIRED_AFTER = 3
"""Matches two people must have played together to appear in :func:`pairs`."""


class Duo(BaseModel):
    """Matches with another identity: as partners (``won``: together) or as opponents (``won``: by the first)."""

    other: Person
    matches: int
    won: int


class GameStats(BaseModel):
    """One identity's figures in one game and season: his finished matches and their deals.

    ``points``/``points_total``: the points (the game's unit, see :mod:`bot.memory.outcome`) his side made
    in his deals, and all sides together: ``share`` is his side's share. ``figures`` are the game's own
    (:data:`bot.memory.outcome.FIGURES`, all listed, zeros too). ``rating`` and ``place`` are the
    season's (no rating for all seasons together; ``place`` only once he is ranked).
    """

    game: str
    matches: int = 0
    won: int = 0
    deals: int = 0
    deals_won: int = 0
    points: int = 0
    points_total: int = 0
    figures: dict[str, int] = Field(default_factory=dict)
    partners: list[Duo] = Field(default_factory=list)
    opponents: list[Duo] = Field(default_factory=list)
    rating: float | None = None
    place: int | None = None
    tourneys: int = 0
    """Tournaments of this game he played to their end (a team's computer partner not counted)."""
    tourneys_won: int = 0
    running: int = 0
    """Matches of this game he is playing now (their deals count in the figures once they end)."""
    running_deals: int = 0
    """The deals played so far in those matches."""

    @property
    def share(self) -> float:
        """His side's share of the points of his deals (0 to 1; 0 before any)."""
        return self.points / self.points_total if self.points_total else 0.0


class PersonStats(BaseModel):
    """One identity's statistics in a chat: per game played, in one season (``0``: all together)."""

    person: Person
    season: int
    games: list[GameStats]


class Ranked(BaseModel):
    """A line of a ranking: who, his place, rating (the ordinal) with ``mu``/``sigma``, matches rated."""

    person: Person
    place: int
    rating: float
    mu: float
    sigma: float
    matches: int


class Ranking(BaseModel):
    """A game's ranking in a season: the people ranked, the computer players apart, how many are not yet ranked."""

    game: str
    season: int
    people: list[Ranked]
    computers: list[Ranked]
    unranked: int = 0
    """People with fewer than :data:`~bot.memory.ratings.RANKED_AFTER` matches this season."""


class Pair(BaseModel):
    """Two partners of a team game: matches played together and won."""

    first: Person
    second: Person
    matches: int
    won: int


def checked_game(game: str) -> str:
    """``game`` if the memory keeps it (raises :class:`UnknownGame`)."""
    if game not in GAMES:
        raise UnknownGame(game)
    return game


def _ranked(ratings: dict[str, Rating], people: dict[str, Person]) -> tuple[list[Ranked], list[Ranked], int]:
    """The ranked people, the computers, and how many people are not ranked yet."""
    order = sorted(ratings.items(), key=lambda item: (-item[1].ordinal, item[0]))
    humans = [(w, r) for w, r in order if not people[w].computer]
    ranked = [(w, r) for w, r in humans if r.matches >= RANKED_AFTER]
    computers = [(w, r) for w, r in order if people[w].computer]

    def line(place: int, who: str, r: Rating) -> Ranked:
        return Ranked(person=people[who], place=place, rating=round(r.ordinal, 2), mu=round(r.mu, 2),
                      sigma=round(r.sigma, 2), matches=r.matches)

    return ([line(i + 1, w, r) for i, (w, r) in enumerate(ranked)],
            [line(i + 1, w, r) for i, (w, r) in enumerate(computers)], len(humans) - len(ranked))


async def ranking(book: Book, group: str, game: str, season: int | None = None) -> Ranking:
    """The ranking of ``game`` in the chat's ``season`` (``None``: the current one; ``0`` is not one).

    Raises:
        UnknownGame, UnknownSeason: no such game, or season.
    """
    checked_game(game)
    await absorb(book, group)
    season = await checked(book, group, season)
    stored = await book.redis.hgetall(book.key(group, ratings_key(season, game)))
    ratings = {who: Rating.decode(text) for who, text in stored.items()}
    people = await names(book, group, ratings)
    ranked, computers, unranked = _ranked(ratings, people)
    return Ranking(game=game, season=season, people=ranked, computers=computers, unranked=unranked)


def _game_stats(game: str, stored: dict[str, str], people: dict[str, Person], rating: Rating | None,
                place: int | None, running: list[dict[str, int]]) -> GameStats:
    """One game's figures from the stored hash."""
    counts = {k: int(v) for k, v in stored.items()}
    duos: dict[str, list[Duo]] = {"p": [], "h": []}
    for name, n in counts.items():
        tag, _, other = name.partition(":")
        if tag in duos and other in people:
            duos[tag].append(Duo(other=people[other], matches=n, won=counts.get(f"{tag}w:{other}", 0)))
    for found in duos.values():
        found.sort(key=lambda d: (-d.matches, -d.won, d.other.who))
    return GameStats(game=game, matches=counts.get("m", 0), won=counts.get("mw", 0), deals=counts.get("d", 0),
                     deals_won=counts.get("dw", 0), points=counts.get("pf", 0), points_total=counts.get("pt", 0),
                     figures={f: counts.get(f, 0) for f in FIGURES[game]}, partners=duos["p"], opponents=duos["h"],
                     rating=None if rating is None else round(rating.ordinal, 2), place=place,
                     tourneys=counts.get("tn", 0), tourneys_won=counts.get("tnw", 0), running=len(running),
                     running_deals=sum(f.get("d", 0) for f in running))


async def stats(book: Book, group: str, who: str, game: str | None = None, season: int | None = None) -> PersonStats:
    """``who``'s statistics in the chat: every game he played (or ``game`` alone) in ``season``.

    The figures are his finished matches'; the matches he is playing now are counted apart (``running``), in the
    current season and all seasons together.

    Args:
        who: a person's number (:func:`bot.memory.people.who_of`, :func:`~bot.memory.people.find`) or a
            computer's identity (``cpu-normal``).
        game: one game, or ``None`` for all he played.
        season: a season, ``0`` for all together, ``None`` for the current one.

    Raises:
        UnknownGame, UnknownSeason, UnknownPerson: no such game, season, or person in this chat.
    """
    games = [checked_game(game)] if game else list(GAMES)
    await absorb(book, group)
    current = await checked(book, group, None)
    season = await checked(book, group, season)
    r = book.redis
    async with r.pipeline(transaction=False) as pipe:
        for g in games:
            pipe.hgetall(book.key(group, figures_key(season, g, who)))
        for g in games:
            pipe.hgetall(book.key(group, ratings_key(season, g)))
        pipe.hgetall(book.key(group, running_key(who)))
        got = await pipe.execute()
    figures, ratings = got[:len(games)], got[len(games):-1]
    running: dict[str, list[dict[str, int]]] = {}
    if season in (0, current):
        for g, counts in running_tables(got[-1], time.time()).values():
            running.setdefault(g, []).append(counts)
    others = {name.partition(":")[2] for stored in figures for name in stored if ":" in name}
    people = await names(book, group, others | {who} | {w for rated in ratings for w in rated})
    if not people[who].computer and not people[who].name:
        raise UnknownPerson(who)
    out = []
    for g, stored, rated in zip(games, figures, ratings):
        if not stored and g not in running and game is None:
            continue
        table = {w: Rating.decode(text) for w, text in rated.items()}
        mine = table.get(who) if season else None
        place = next((line.place for line in _ranked(table, people)[0] if line.person.who == who), None)
        out.append(_game_stats(g, stored, people, mine, place, running.get(g, [])))
    return PersonStats(person=people[who], season=season, games=out)


async def pairs(book: Book, group: str, game: str, season: int | None = None) -> list[Pair]:
    """The partners of ``game`` (a team game; others have none) who played :data:`PAIRED_AFTER` matches
    together in ``season`` (``0``: all), the best share of matches won first.

    Raises:
        UnknownGame, UnknownSeason: no such game, or season.
    """
    checked_game(game)
    await absorb(book, group)
    season = await checked(book, group, season)
    whos = await book.redis.hvals(book.key(group, WHO))
    async with book.redis.pipeline(transaction=False) as pipe:
        for who in whos:
            pipe.hgetall(book.key(group, figures_key(season, game, who)))
        stored = await pipe.execute()
    found = []
    for who, counts in zip(whos, stored):
        for name, n in counts.items():
            tag, _, other = name.partition(":")
            if tag == "p" and int(n) >= PAIRED_AFTER and not other.startswith(COMPUTER) and who < other:
                found.append((who, other, int(n), int(counts.get(f"pw:{other}", 0))))
    people = await names(book, group, {w for pair in found for w in pair[:2]})
    found.sort(key=lambda p: (-p[3] / p[2], -p[2], p[0], p[1]))
    return [Pair(first=people[a], second=people[b], matches=n, won=won) for a, b, n, won in found]
