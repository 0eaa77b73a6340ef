"""A chat's history as files for people to read: CSV (one row per match) and JSON (one object per match).

Newest match first; at most the matches the history keeps and at most :data:`MAX_BYTES` per file (the
oldest are left out beyond, from both files alike). Both files are built in one reading, a chunk of records
at a time straight from the stored records (no object per match), so the event loop is free between chunks
and the reading stops once a file is full. Made for a person opening them: seats are named as players read them at the table
(``Computer 2``, ``jemand`` for a forgotten person: the caller's words name them), the memory's identity
beside each name; times ISO 8601 UTC in both files, money in cents. Per-seat figures are not kept in the
history, so the export has none (the statistics hold them).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from bot.memory.absorb import absorb
from bot.memory.book import Book
from bot.memory.history import chunks, seat_of
from bot.memory.people import names
from bot.memory.outcome import SeatOutcome, sides_of

__all__ = ["export", "Export", "COLUMNS", "MAX_BYTES", "SeatNamer"]

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


class _Match:
    """A history record as the files name it: its seats' names and identities, and its sides."""

    def __init__(self, rec: dict[str, Any], seats: dict[str, SeatOutcome], name_of: SeatNamer) -> None:
        self.rec = rec
        self.seats = [seats[w] for w in rec["w"]]
        self.names = [name_of(seat, i) for i, seat in enumerate(self.seats)]
        self.sides = sides_of(rec["g"], len(self.seats))

    def winners(self) -> list[list[str]]:
        """The winning sides' players by name."""
        return [[self.names[s] for s in self.sides[side]] for side in self.rec["win"]]

    def row(self) -> str:
        """The match as a CSV line."""
        rec, out = self.rec, io.StringIO()
        csv.writer(out, lineterminator="\n").writerow([
            str(rec["no"]), _utc(rec["at"]), rec["g"], rec["t"], str(rec["d"]), "|".join(self.names),
            "|".join(seat.who for seat in self.seats), ":".join(map(str, rec["sc"])),
            " + ".join("|".join(side) for side in self.winners()),
            "|".join(self.names[s] for s in rec.get("pl", [])), "|".join(map(str, rec.get("mo", []))),
            rec.get("cu", "")])
        return out.getvalue()

    def entry(self) -> str:
        """The match as a JSON object: names, sides and winners as the table showed them, times in ISO UTC."""
        rec = self.rec
        side_of = {s: i for i, side in enumerate(self.sides) for s in side}
        entry: dict[str, Any] = {
            "no": rec["no"], "game": rec["g"], "table": rec["t"], "finished_utc": _utc(rec["at"]),
            "started_utc": _utc(rec["st"]) if rec.get("st") else None, "deals": rec["d"],
            "players": [{"name": self.names[i], "who": seat.who, "side": side_of[i]} | ({"level": seat.level}
                        if seat.level else {}) for i, seat in enumerate(self.seats)],
            "score": rec["sc"], "winners": self.winners()}
        if rec.get("pl"):
            entry.update(places=[self.names[s] for s in rec["pl"]], paid_cents=rec.get("mo", []),
                         currency=rec.get("cu", ""))
        return json.dumps(entry, ensure_ascii=False, separators=(",", ":"))


class Export:
    """The two files of a chat's history, and how many matches they hold."""

    def __init__(self) -> None:
        head = io.StringIO()
        csv.writer(head, lineterminator="\n").writerow(COLUMNS)
        self._csv, self._json = [head.getvalue().encode()], []
        self._sizes = [len(self._csv[0]), 2]
        self.matches = 0

    def add(self, row: str, entry: str) -> bool:
        """Add one match to both files; False (and nothing added) when either would exceed :data:`MAX_BYTES`."""
        row_bytes, entry_bytes = row.encode(), entry.encode()
        sizes = [self._sizes[0] + len(row_bytes), self._sizes[1] + len(entry_bytes) + 1]
        if max(sizes) > MAX_BYTES:
            return False
        self._sizes = sizes
        self._csv.append(row_bytes)
        self._json.append(entry_bytes)
        self.matches += 1
        return True

    @property
    def csv(self) -> bytes:
        """The CSV file: UTF-8, a header row, newest match first."""
        return b"".join(self._csv)

    @property
    def json(self) -> bytes:
        """The JSON file: a list of matches (see :meth:`_Match.entry`), newest first."""
        return b"[" + b",".join(self._json) + b"]"


async def export(book: Book, group: str, name_of: SeatNamer) -> Export:
    """The chat's history as CSV and JSON, seats named by ``name_of``: built a chunk of records at a time, the
    loop free between chunks, until the history or a file's room (:data:`MAX_BYTES`) ends."""
    await absorb(book, group)
    files, seats = Export(), {}
    async for chunk in chunks(book, group):
        new = {w for rec in chunk for w in rec["w"]} - seats.keys()
        if new:
            people = await names(book, group, new)
            seats.update({w: seat_of(w, people) for w in new})
        for rec in chunk:
            match = _Match(rec, seats, name_of)
            if not files.add(match.row(), match.entry()):
                return files
    return files
