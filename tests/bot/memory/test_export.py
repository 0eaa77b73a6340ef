"""Export: the history as CSV and JSON, read back to what the history says."""

from __future__ import annotations

import csv
import io
import json

from bot.memory import MatchOutcome, export_csv, export_json, history
from bot.memory.export import COLUMNS
from tests.bot.memory.kit import GROUP, group_of, people, played, save_all

G = group_of(GROUP)


async def test_csv_and_json_round_trip(store, book):
    for i, game in enumerate(["rams", "bauernstoss", "bauerchen"]):
        await save_all(store, book, played(game, people(5 if game == "rams" else 4), seed=i, table_id=f"X{i}"))
    kept = await history(book, G)
    rows = list(csv.reader(io.StringIO((await export_csv(book, G)).decode())))
    assert tuple(rows[0]) == COLUMNS and len(rows) == 4
    for row, match in zip(rows[1:], kept):
        line = dict(zip(COLUMNS, row))
        assert int(line["no"]) == match.no and line["game"] == match.game and line["table"] == match.table
        assert line["players"].split("|") == [s.name or f"cpu-{s.level}" for s in match.seats]
        assert [int(x) for x in line["score"].split(":")] == match.score
    back = [MatchOutcome.model_validate(m | {"chat": G}) for m in json.loads(await export_json(book, G))]
    assert back == kept


async def test_an_empty_history_exports_empty_files(book):
    assert json.loads(await export_json(book, G)) == []
    assert (await export_csv(book, G)).decode().splitlines() == [",".join(COLUMNS)]
