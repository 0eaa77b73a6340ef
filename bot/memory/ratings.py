"""Ratings with openskill's Plackett-Luce model: teams of any size, uneven sides, ranks (Rams' places).

A rating is kept as ``mu sigma matches``; lists order by the ordinal ``mu - 3 sigma`` (a cautious
estimate: a newcomer starts at 0 and climbs as the model grows sure of him). Several seats of one
identity in one match (two computer players of one level) move that identity by the mean of their
updates, once.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import NamedTuple

from openskill.models import PlackettLuce

__all__ = ["Rating", "RANKED_AFTER", "DEFAULT", "rate"]

RANKED_AFTER = 3
"""Matches a person must have played in a season to appear in its ranking."""

_MODEL = PlackettLuce()


class Rating(NamedTuple):
    """One identity's rating: skill ``mu``, uncertainty ``sigma``, and rated ``matches``."""

    mu: float
    sigma: float
    matches: int = 0

    @property
    def ordinal(self) -> float:
        """The rating lists order by: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma

    def encode(self) -> str:
        """The stored form: ``mu sigma matches``."""
        return f"{self.mu:.4f} {self.sigma:.4f} {self.matches}"

    @classmethod
    def decode(cls, text: str) -> "Rating":
        """A rating from its stored form."""
        mu, sigma, matches = text.split()
        return cls(float(mu), float(sigma), int(matches))


DEFAULT = Rating(_MODEL.mu, _MODEL.sigma, 0)
"""Where everybody starts."""


def rate(sides: list[list[str]], ranks: list[int], ratings: dict[str, Rating],
         unrated: Collection[str] = ()) -> dict[str, Rating]:
    """The new ratings after one match.

    Args:
        sides: the identities of each side's seats (``""``: a person not recorded, rated as a newcomer
            and not kept).
        ranks: each side's place (1 best; equal places tie).
        ratings: the ratings so far (identities missing start at :data:`DEFAULT`).
        unrated: identities that play at their rating but are not rated by this match (who took a hint).

    Returns:
        The new rating of every identity named in ``sides`` (not ``""``, not in ``unrated``), its ``matches``
        counted up once.
    """
    teams = [[_MODEL.rating(*ratings.get(who, DEFAULT)[:2]) for who in side] for side in sides]
    rated = _MODEL.rate(teams, ranks=list(ranks))
    moved: dict[str, list[tuple[float, float]]] = {}
    for side, after in zip(sides, rated):
        for who, r in zip(side, after):
            if who and who not in unrated:
                moved.setdefault(who, []).append((r.mu, r.sigma))
    out = {}
    for who, updates in moved.items():
        old = ratings.get(who, DEFAULT)
        mu = old.mu + sum(m - old.mu for m, _ in updates) / len(updates)
        sigma = sum(s for _, s in updates) / len(updates)
        out[who] = Rating(mu, sigma, old.matches + 1)
    return out
