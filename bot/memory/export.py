"""A chat's history as files for people to read: CSV (one row per match) and JSON (one object per match).

Newest match first; at most the matches the history keeps and at most :data:`MAX_BYTES` (the oldest
are left out beyond). Made for a person opening them: seats are named as players read them at the table
(``Computer 2``, ``jemand`` for a forgotten person: the caller's words name them), the memory's identity
beside each name; times ISO 8601 UTC in both files, money in cents. Per-seat figures are not kept in the
history, so the export has none (the statistics hold them).
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from bot.memory.absorb import absorb
from bot.memory.book import Book
from bot.memory.history import outcome_of, records
from bot.memory.people import names
from bot.memory.outcome import MatchOutcome, SeatOutcome

__all__ = ["export_csv", "export_json", "COLUMNS", "MAX_BYTES", "SeatNamer"]

MAX_BYTES = 8_000_000
"""The most bytes an export holds (Discord's and Telegram's document limits are higher)."""
COLUMNS = ("no", "finished_utc", "game", "table", "deals", "players", "who", "score", "winners", "places",
           "paid_cents", "currency")
"""The CSV's columns; ``players`` (names), ``who`` (the memory's identities), ``places`` and ``paid_cents`` list
the seats in order, separated by ``|``; ``score`` the sides' scores by ``:``; ``winners`` the winning sides'
players by ``|``, sides by `` + ``."""

SeatNamer = Callable[[SeatOutcome, int], str]
"""Names a seat (its outcome and its number, 0 first) as players read it at the table (the words give it)."""


def _utc(at: float) -> str:
    """``at`` (epoch seconds) as ISO 8601 UTC, to the second."""
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds")


def _row(match: MatchOutcome, name_of: SeatNamer) -> list[str]:
    """One match as a CSV row."""
    names = [name_of(seat, i) for i, seat in enumerate(match.seats)]
    winners = " + ".join("|".join(names[s] for s in match.sides[side]) for side in match.winners)
    return [str(match.no), _utc(match.at), match.game, match.table, str(match.deals), "|".join(names),
            "|".join(seat.who for seat in match.seats), ":".join(map(str, match.score)), winners,
            "|".join(names[s] for s in match.places), "|".join(map(str, match.money)), match.currency]


def _entry(match: MatchOutcome, name_of: SeatNamer) -> dict[str, Any]:
    """One match as a JSON object: names, sides and winners as the table showed them, times in ISO UTC."""
    names = [name_of(seat, i) for i, seat in enumerate(match.seats)]
    entry: dict[str, Any] = {
        "no": match.no, "game": match.game, "table": match.table, "finished_utc": _utc(match.at),
        "started_utc": _utc(match.started) if match.started else None, "deals": match.deals,
        "players": [{"name": names[i], "who": seat.who, "side": match.side_of(i)} | ({"level": seat.level}
                    if seat.level else {}) for i, seat in enumerate(match.seats)],
        "score": match.score, "winners": [[names[s] for s in match.sides[side]] for side in match.winners]}
    if match.places:
        entry.update(places=[names[s] for s in match.places], paid_cents=match.money, currency=match.currency)
    return entry


async def _export(book: Book, group: str, build: Callable[[list[MatchOutcome], SeatNamer], bytes],
                  name_of: SeatNamer) -> bytes:
    """Read the chat's whole kept history (newest first) and let ``build`` make the file of it in a thread:
    thousands of matches are CPU work the event loop must not wait for."""
    await absorb(book, group)
    found = [rec async for rec in records(book, group)]
    people = await names(book, group, (w for rec in found for w in rec["w"]))
    return await asyncio.to_thread(lambda: build([outcome_of(rec, people, group) for rec in found], name_of))


def _bounded(parts: list[str], head: str, sep: str, tail: str) -> bytes:
    """``head``, the ``parts`` that fit in :data:`MAX_BYTES` joined by ``sep``, and ``tail``, as UTF-8."""
    size, kept = len(head) + len(tail), []
    for part in parts:
        size += len(part.encode()) + len(sep)
        if size > MAX_BYTES:
            break
        kept.append(part)
    return (head + sep.join(kept) + tail).encode()


def _csv(matches: list[MatchOutcome], name_of: SeatNamer) -> bytes:
    """The CSV file of ``matches``."""
    rows = []
    for match in matches:
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerow(_row(match, name_of))
        rows.append(out.getvalue())
    head = io.StringIO()
    csv.writer(head, lineterminator="\n").writerow(COLUMNS)
    return _bounded(rows, head.getvalue(), "", "")


def _json(matches: list[MatchOutcome], name_of: SeatNamer) -> bytes:
    """The JSON file of ``matches``."""
    return _bounded([json.dumps(_entry(m, name_of), ensure_ascii=False, separators=(",", ":")) for m in matches],
                    "[", ",", "]")


async def export_csv(book: Book, group: str, name_of: SeatNamer) -> bytes:
    """The chat's history as CSV bytes (UTF-8, a header row, newest match first), seats named by ``name_of``."""
    return await _export(book, group, _csv, name_of)


async def export_json(book: Book, group: str, name_of: SeatNamer) -> bytes:
    """The chat's history as JSON bytes: a list of matches (see :func:`_entry`), newest first, seats named by
    ``name_of``."""
    return await _export(book, group, _json, name_of)
