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
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, Field

from bot.memory.book import Book
from bot.memory.history import matches_since
from bot.memory.outcome import MatchOutcome
from bot.memory.people import Person

__all__ = ["Transfer", "Settlement", "Line", "Evening", "KASSE", "Mode", "evening", "settle", "day_start"]

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
    matches: list[MatchOutcome]
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


def settle(matches: list[MatchOutcome], mode: Mode = "kasse") -> list[Settlement]:
    """The settlements of the Rams ``matches`` (their seats' ``who`` name the people), one per currency."""
    by_currency: dict[str, list[MatchOutcome]] = defaultdict(list)
    for match in matches:
        if match.game == "rams" and match.money:
            by_currency[match.currency].append(match)
    out = []
    for currency, found in sorted(by_currency.items()):
        balances: defaultdict[str, int] = defaultdict(int)
        for match in found:
            winner = match.places[0] if match.places else None
            for seat, cents in enumerate(match.money):
                who = match.seats[seat].who or NOBODY
                balances[who] -= cents
                payee = KASSE if mode == "kasse" or winner is None else (match.seats[winner].who or NOBODY)
                balances[payee] += cents
        balances = defaultdict(int, {w: b for w, b in balances.items() if b})
        transfers = ([Transfer(payer=w, payee=KASSE, cents=-b) for w, b in sorted(balances.items()) if b < 0]
                     if mode == "kasse" else _fewest(dict(balances)))
        out.append(Settlement(currency=currency, mode=mode, balances=dict(balances), transfers=transfers,
                              matches=len(found)))
    return out


async def evening(book: Book, group: str, now: float, zone: str = "UTC", mode: Mode = "kasse") -> Evening:
    """The chat's evening: its matches since midnight of ``now``'s day in ``zone``, and their settlement."""
    start, day = day_start(now, zone)
    matches = await matches_since(book, group, start)
    lines: dict[str, Line] = {}
    people: dict[str, Person] = {}
    for match in matches:
        for seat in match.seats:
            people[seat.who] = Person(who=seat.who, name=seat.name, level=seat.level or "")
        for who, i in match.seat_of_each([seat.who for seat in match.seats]).items():
            line = lines.setdefault(who, Line(person=people[who]))
            line.matches += 1
            line.won += int(match.won(i))
            line.games[match.game] = line.games.get(match.game, 0) + 1
    people[KASSE] = Person(who=KASSE)
    order = sorted(lines.values(), key=lambda line: (line.person.computer, -line.won, -line.matches, line.person.who))
    return Evening(day=day, zone=zone, matches=matches, lines=order, settlements=settle(matches, mode),
                   people=people)

