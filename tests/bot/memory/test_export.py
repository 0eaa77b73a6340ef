"""Export: the history as CSV and JSON, read back to what the history says."""

from __future__ import annotations

import csv
import io
import json

from datetime import UTC, datetime

from bot.memory import export_csv, export_json, forget, history
from bot.memory.export import COLUMNS
from bot.words.stats import seat_namer
from tests.bot.memory.kit import GROUP, people, played, save_all

G = GROUP.group
NAME_OF = seat_namer("de")


async def test_csv_and_json_name_the_seats_as_the_table_did_with_iso_times(store, book):
    seats = people(5)
    await save_all(store, book, played("rams", seats, seed=0, table_id="X0"))
    await save_all(store, book, played("bauer", people(1), seed=1, table_id="X1"))
    await forget(book, G, "test:u1")
    kept = await history(book, G)
    rows = list(csv.reader(io.StringIO((await export_csv(book, G, NAME_OF)).decode())))
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
    newest, oldest = json.loads(await export_json(book, G, NAME_OF))
    assert newest["finished_utc"] == bauer["finished_utc"] and oldest["finished_utc"] == rams["finished_utc"]
    assert [p["name"] for p in newest["players"]] == bauer["players"].split("|")
    assert newest["winners"] == [bauer["winners"].split("|")]
    assert oldest["places"] == rams["places"].split("|") and oldest["paid_cents"] == kept[1].money
    assert "figures" not in json.dumps([newest, oldest]) and '"at"' not in json.dumps([newest, oldest])


async def test_an_empty_history_exports_empty_files(book):
    assert json.loads(await export_json(book, G, NAME_OF)) == []
    assert (await export_csv(book, G, NAME_OF)).decode().splitlines() == [",".join(COLUMNS)]
