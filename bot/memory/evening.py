"""The evening: a chat's matches of today, and Rams' settlement over all of them.

"Today" is the chat's calendar day in the time zone the caller names (the chat's ``zeitzone``, else
the bot's ``STAMMTISCH_TIMEZONE``; UTC if none is given), from midnight to now.

Rams' settlement: in every match the k-th placed pays (k − 1) × unit plus the Kartoffel fee per
Kartoffel (``rules/rams.md``). Where the money goes the rules leave open; the Bad Bonn Altjahrsspiel
(seed 003) lets it pay for the food and drinks, so by default (``kasse``) everyone pays what he owes
into the Kasse. With ``winner`` each match's payments go to its winner, and the evening's balances are
settled with the fewest transfers the greedy rule finds (largest debtor to largest creditor). Either way
the balances of everyone (the Kasse included) sum to zero. Amounts are cents of the table's currency;
matches in different currencies are settled apart.

An evening is read from the history's records as they are stored, in chunks: only that day's (the history is
kept in the order the matches finished), counted as plain data, and only the newest :data:`SHOWN` of them
become :class:`~bot.memory.outcome.MatchOutcome` (a message shows fewer), however many matches the day had.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any, Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, Field

from bot.memory.book import Book
from bot.memory.history import named, since
from bot.memory.outcome import MatchOutcome, seat_of_each, sides_of
from bot.memory.people import Person, names

__all__ = ["Transfer", "Settlement", "Line", "Evening", "KASSE", "Mode", "SHOWN", "evening", "day_start"]

SHOWN = 100
"""The most of an evening's matches it gives one by one: the newest (a message has room for fewer)."""

KASSE = "kasse"
"""The Kasse's identity in transfers and balances."""
NOBODY = ""
"""The identity of people not recorded (opted out, forgotten): counted together."""

Mode = Literal["kasse", "winner"]


class Transfer(BaseModel):
    """``payer`` pays ``cents`` to ``payee`` (an identity, or :data:`KASSE`)."""

    payer: str
    payee: str
    cents: int


class Settlement(BaseModel):
    """The evening's Rams settlement in one currency: balances (+ receives, − pays) and the transfers."""

    currency: str
    mode: Mode
    balances: dict[str, int]
    transfers: list[Transfer]
    matches: int


class Line(BaseModel):
    """One identity's evening: matches played and won, per game."""

    person: Person
    matches: int = 0
    won: int = 0
    games: dict[str, int] = Field(default_factory=dict)


class Evening(BaseModel):
    """Today's matches of a chat (oldest first), who played how many, and Rams' settlements."""

    day: str
    """The day, ``YYYY-MM-DD`` in ``zone``."""
    zone: str
    count: int
    """How many matches finished that day."""
    matches: list[MatchOutcome]
    """The newest :data:`SHOWN` of them, oldest first."""
    lines: list[Line]
    settlements: list[Settlement]
    people: dict[str, Person]
    """Every identity named in ``settlements`` (who -> Person)."""


def day_start(now: float, zone: str) -> tuple[float, str]:
    """The start of ``now``'s day in ``zone`` (epoch seconds) and the day as ``YYYY-MM-DD``."""
    local = datetime.fromtimestamp(now, ZoneInfo(zone))
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    return midnight.timestamp(), midnight.date().isoformat()


def _fewest(balances: dict[str, int]) -> list[Transfer]:
    """Transfers that settle ``balances`` (summing to zero): the largest debtor pays the largest creditor."""
    debt = {w: -b for w, b in balances.items() if b < 0}
    credit = {w: b for w, b in balances.items() if b > 0}
    out = []
    while debt and credit:
        payer = max(debt, key=lambda w: (debt[w], w))
        payee = max(credit, key=lambda w: (credit[w], w))
        cents = min(debt[payer], credit[payee])
        out.append(Transfer(payer=payer, payee=payee, cents=cents))
        for left, who in ((debt, payer), (credit, payee)):
            left[who] -= cents
            if not left[who]:
                del left[who]
    return out


@lru_cache(maxsize=256)
def _won(game: str, seats: int, winners: tuple[int, ...]) -> tuple[bool, ...]:
    """Whether each seat of a match of ``game`` with ``seats`` seats won, its winning sides ``winners``."""
    return tuple(any(seat in side for side in (sides_of(game, seats)[w] for w in winners)) for seat in range(seats))


class _Tally:
    """An evening counted match by match from plain data: each identity's line, and the Rams balances per
    currency (a match: its game, who sat where, who won, places and money)."""

    def __init__(self, mode: Mode) -> None:
        self.mode = mode
        self.lines: dict[str, list[Any]] = {}
        self.balances: dict[str, defaultdict[str, int]] = {}
        self.rams: defaultdict[str, int] = defaultdict(int)

    def add(self, game: str, whos: list[str], won: Sequence[bool], places: Sequence[int], money: Sequence[int],
            currency: str) -> None:
        """Count one match."""
        for who, seat in seat_of_each(whos, won).items():
            line = self.lines.setdefault(who, [0, 0, defaultdict(int)])
            line[0] += 1
            line[1] += won[seat]
            line[2][game] += 1
        if game != "rams" or not money:
            return
        self.rams[currency] += 1
        balances = self.balances.setdefault(currency, defaultdict(int))
        payee = KASSE if self.mode == "kasse" or not places else (whos[places[0]] or NOBODY)
        for seat, cents in enumerate(money):
            balances[whos[seat] or NOBODY] -= cents
            balances[payee] += cents

    def record(self, rec: dict[str, Any]) -> None:
        """Count one history record."""
        self.add(rec["g"], rec["w"], _won(rec["g"], len(rec["w"]), tuple(rec["win"])), rec.get("pl", ()),
                 rec.get("mo", ()), rec.get("cu", ""))

    def settlements(self) -> list[Settlement]:
        """The settlements, one per currency."""
        out = []
        for currency, counted in sorted(self.balances.items()):
            balances = {w: b for w, b in counted.items() if b}
            transfers = ([Transfer(payer=w, payee=KASSE, cents=-b) for w, b in sorted(balances.items()) if b < 0]
                         if self.mode == "kasse" else _fewest(balances))
            out.append(Settlement(currency=currency, mode=self.mode, balances=balances, transfers=transfers,
                                  matches=self.rams[currency]))
        return out


async def evening(book: Book, group: str, now: float, zone: str = "UTC", mode: Mode = "kasse") -> Evening:
    """The chat's evening: its matches since midnight of ``now``'s day in ``zone``, and their settlement."""
    start, day = day_start(now, zone)
    tally, newest, count = _Tally(mode), [], 0
    async for chunk in since(book, group, start):  # one chunk's counting, then the loop is free again
        for rec in chunk:
            tally.record(rec)
        count += len(chunk)
        newest += chunk[:SHOWN - len(newest)]
    matches = await named(book, group, newest[::-1])
    people = await names(book, group, tally.lines)
    people[KASSE] = Person(who=KASSE)
    lines = [Line(person=people[who], matches=n, won=won, games=dict(games))
             for who, (n, won, games) in tally.lines.items()]
    order = sorted(lines, key=lambda line: (line.person.computer, -line.won, -line.matches, line.person.who))
    settlements = tally.settlements()
    for who in {w for s in settlements for w in s.balances} - people.keys():  # NOBODY
        people[who] = Person(who=who)
    return Evening(day=day, zone=zone, count=count, matches=matches, lines=order, settlements=settlements,
                   people=people)
