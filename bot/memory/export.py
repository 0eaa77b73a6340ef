"""A chat's history as files: CSV (one row per match) and JSON (the matches as the history gives them).

Newest match first; at most the matches the history keeps and at most :data:`MAX_BYTES` (the oldest
are left out beyond). Column names and values are data, not words: game ids, ``cpu-<level>`` for the
computers, an empty name for nobody (opted out, forgotten); times in UTC, money in cents.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
from collections.abc import Callable
from datetime import UTC, datetime

from bot.memory.absorb import absorb
from bot.memory.book import Book
from bot.memory.history import outcome_of, records
from bot.memory.people import names
from bot.memory.outcome import MatchOutcome

__all__ = ["export_csv", "export_json", "COLUMNS", "MAX_BYTES", "seat_name"]

MAX_BYTES = 8_000_000
"""The most bytes an export holds (Discord's and Telegram's document limits are higher)."""
COLUMNS = ("no", "finished_utc", "game", "table", "deals", "players", "score", "winners", "places", "paid_cents",
           "currency")
"""The CSV's columns; ``players``, ``places`` and ``paid_cents`` list the seats in order, separated by ``|``;
``score`` the sides' scores by ``:``; ``winners`` the winning sides' players by ``|``."""


def seat_name(match: MatchOutcome, seat: int) -> str:
    """What the export writes for ``seat``: the person's name, ``cpu-<level>``, or empty (nobody)."""
    s = match.seats[seat]
    return f"cpu-{s.level}" if s.level else s.name


def _row(match: MatchOutcome) -> list[str]:
    """One match as a CSV row."""
    winners = [seat_name(match, s) for side in match.winners for s in match.sides[side]]
    return [str(match.no), datetime.fromtimestamp(match.at, UTC).isoformat(timespec="seconds"), match.game,
            match.table, str(match.deals), "|".join(seat_name(match, s) for s in range(len(match.seats))),
            ":".join(map(str, match.score)), "|".join(winners), "|".join(seat_name(match, s) for s in match.places),
            "|".join(map(str, match.money)), match.currency]


async def _export(book: Book, group: str, build: Callable[[list[MatchOutcome]], bytes]) -> bytes:
    """Read the chat's whole kept history (newest first) and let ``build`` make the file of it in a thread:
    thousands of matches are CPU work the event loop must not wait for."""
    await absorb(book, group)
    found = [rec async for rec in records(book, group)]
    people = await names(book, group, (w for rec in found for w in rec["w"]))
    return await asyncio.to_thread(lambda: build([outcome_of(rec, people, group) for rec in found]))


def _bounded(parts: list[str], head: str, sep: str, tail: str) -> bytes:
    """``head``, the ``parts`` that fit in :data:`MAX_BYTES` joined by ``sep``, and ``tail``, as UTF-8."""
    size, kept = len(head) + len(tail), []
    for part in parts:
        size += len(part.encode()) + len(sep)
        if size > MAX_BYTES:
            break
        kept.append(part)
    return (head + sep.join(kept) + tail).encode()


def _csv(matches: list[MatchOutcome]) -> bytes:
    """The CSV file of ``matches``."""
    rows = []
    for match in matches:
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerow(_row(match))
        rows.append(out.getvalue())
    head = io.StringIO()
    csv.writer(head, lineterminator="\n").writerow(COLUMNS)
    return _bounded(rows, head.getvalue(), "", "")


def _json(matches: list[MatchOutcome]) -> bytes:
    """The JSON file of ``matches``."""
    return _bounded([json.dumps(m.model_dump(mode="json", exclude={"sheet", "chat"}), ensure_ascii=False,
                                separators=(",", ":")) for m in matches], "[", ",", "]")


async def export_csv(book: Book, group: str) -> bytes:
    """The chat's history as CSV bytes (UTF-8, a header row, newest match first)."""
    return await _export(book, group, _csv)


async def export_json(book: Book, group: str) -> bytes:
    """The chat's history as JSON bytes: a list of matches (:class:`MatchOutcome` fields), newest first."""
    return await _export(book, group, _json)
