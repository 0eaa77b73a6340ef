"""Export: the history as CSV and JSON, read back to what the history says."""

from __future__ import annotations

import asyncio
import csv
import importlib
import io
import json

from datetime import UTC, datetime

from bot.memory import absorb, export, forget, history
from bot.memory.export import COLUMNS
from bot.memory.history import CHUNK
from bot.words.stats import seat_namer
from tests.bot.memory.kit import GROUP, people, played, save_all, write_history

G = GROUP.group
EXPORT = importlib.import_module("bot.memory.export")  # the module: bot.memory.export names its function
NAME_OF = seat_namer("de")


async def test_csv_and_json_name_the_seats_as_the_table_did_with_iso_times(store, book):
    seats = people(5)
    await save_all(store, book, played("rams", seats, seed=0, table_id="X0"))
    await save_all(store, book, played("bauer", people(1), seed=1, table_id="X1"))
    await forget(book, G, "test:u1")
    kept = await history(book, G)
    rows = list(csv.reader(io.StringIO((await export(book, G, NAME_OF)).csv.decode())))
    assert tuple(rows[0]) == COLUMNS and len(rows) == 3
    bauer, rams = (dict(zip(COLUMNS, row)) for row in rows[1:])
    assert bauer["players"] == "Anna|Computer 2 (leicht)|Computer 3 (leicht)|Computer 4 (leicht)"
    assert bauer["who"].split("|") == [kept[0].seats[0].who] + ["cpu-leicht"] * 3
    side = kept[0].winners[0]
    assert bauer["winners"] == "|".join(bauer["players"].split("|")[s] for s in kept[0].sides[side])
    assert rams["players"] == "Anna|jemand|Cleo|Dora|Emil"
    assert rams["finished_utc"] == datetime.fromtimestamp(kept[1].at, UTC).isoformat(timespec="seconds")
    assert [int(x) for x in rams["score"].split(":")] == kept[1].score
    assert sorted(rams["places"].split("|")) == sorted(rams["players"].split("|"))
    newest, oldest = json.loads((await export(book, G, NAME_OF)).json)
    assert newest["finished_utc"] == bauer["finished_utc"] and oldest["finished_utc"] == rams["finished_utc"]
    assert [p["name"] for p in newest["players"]] == bauer["players"].split("|")
    assert newest["winners"] == [bauer["winners"].split("|")]
    assert oldest["places"] == rams["places"].split("|") and oldest["paid_cents"] == kept[1].money
    assert "figures" not in json.dumps([newest, oldest]) and '"at"' not in json.dumps([newest, oldest])


async def test_an_empty_history_exports_empty_files(book):
    assert json.loads((await export(book, G, NAME_OF)).json) == []
    assert (await export(book, G, NAME_OF)).csv.decode().splitlines() == [",".join(COLUMNS)]


async def test_a_long_history_is_exported_in_pieces_and_read_no_further_than_the_files_hold(store, book,
                                                                                          monkeypatch):
    """1,000 matches, files of 100 kB: the newest that fit, the event loop run between the chunks read, and the
    reading stopped once a file was full (the oldest record, broken, is never reached)."""
    await save_all(store, book, played("rams", people(5), seed=0, table_id="X0"))
    await absorb(book, G)
    (record,) = [json.loads(text) for text in await book.redis.lrange(book.key(G, "h"), 0, -1)]
    await book.redis.delete(book.key(G, "h"))
    await write_history(book, G, [record], 1000, 1_750_000_000.0)
    await book.redis.lset(book.key(G, "h"), 0, "{broken")
    monkeypatch.setattr(EXPORT, "MAX_BYTES", 100_000)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0)
            ticks += 1
    ticker = asyncio.create_task(tick())
    files = await export(book, G, NAME_OF)
    ticker.cancel()
    rows = list(csv.reader(io.StringIO(files.csv.decode())))
    entries = json.loads(files.json)
    assert 2 * CHUNK < files.matches < 1000 and len(rows) == files.matches + 1 and len(entries) == files.matches
    assert len(files.csv) <= 100_000 and len(files.json) <= 100_000
    assert [e["no"] for e in entries] == list(range(1000, 1000 - files.matches, -1))
    assert ticks >= files.matches // CHUNK  # the loop ran between the chunks
