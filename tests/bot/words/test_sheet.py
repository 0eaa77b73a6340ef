"""A sheet that adds up over a whole match: every row's changes give its running total, and the final
summary agrees with the engine's match state, for every game played through the service."""

from __future__ import annotations

import re

import pytest

import engine
from bot.protocol.outgoing import Notice
from bot.table.record import Table
from bot.words import story
from bot.words.i18n import game_name
from tests.servicekit import Players, private, say, service, user

_PAIR = re.compile(r"(?:^|\s)([+−–][0-9]*) : ([+−–][0-9]*)$")
_TOTAL = re.compile(r"^(−?[0-9]+) : (−?[0-9]+)$")
_SEAT = re.compile(r"^([+−–][0-9]*) → ([0-9]+)(?: 🥔)?(?: Platz ([0-9]+))?$")
_START = {"bauernstoss": [0, 0], "bauerchen": [0, 0], "bauer": [8, 8]}


def _n(text: str) -> int:
    """A figure of the sheet: ``+2``, ``−1``, ``–`` (none), ``−3``."""
    return 0 if text == "–" else int(text.replace("−", "-"))


def team_rows(sheet: str, game: str) -> list[dict]:
    """The rows of a team game's sheet, each checked to add up: its changes, total, marks."""
    rows, start = [], list(_START[game])
    for line in sheet.splitlines()[2:]:
        body = line.split(". ", 1)[1]
        if body == "eingeworfen, neu geben":
            continue
        changes, _, rest = body.partition(" → ")
        parts = [_PAIR.search(p) for p in changes.split(" · ")]
        assert all(parts), line
        total, *marks = rest.split(" · ")
        ta, tb = map(_n, _TOTAL.fullmatch(total).groups())
        da, db = sum(_n(p.group(1)) for p in parts), sum(_n(p.group(2)) for p in parts)
        assert [start[0] + da, start[1] + db] == [ta, tb], f"{line!r} does not add up from {start}"
        new = [m for m in marks if m.startswith("neu ")]
        start = [*map(_n, new[0][4:].split(" : "))] if new else [ta, tb]
        rows.append({"line": line, "total": [ta, tb], "marks": marks, "start": start})
    return rows


async def finished(store, game: str, seed: int, **options) -> tuple[Players, Table, str]:
    """A whole match of ``game`` by Anna and three computers in her private chat, its table and its sheet."""
    svc = service(store, seed=seed)
    anna = user(0)
    chat = private(anna)
    players = Players(svc, chat, [anna], seed=seed)
    await players.send(say(chat, anna, " ".join([f"neu {game}", *(f"{k}={v}" for k, v in options.items())])))
    await players.play_out()
    table = Table.load((await store.load(players.table.table_id))[1])
    assert table.status == "finished"
    (sheet,) = await svc.handle(say(chat, anna, "zettel"))  # the finished table's sheet is still there
    assert isinstance(sheet, Notice) and sheet.text.startswith("📋 Zettel")
    (rules,) = await svc.handle(say(chat, anna, "regeln"))  # and the rules of the match just played
    assert rules.text.startswith(game_name(game, "de") + ": ")
    return players, table, sheet.text


def _summary_pair(text: str, word: str) -> list[int]:
    m = re.search(word + r": .*? ([0-9]+) : ([0-9]+) ", text)
    return [int(m.group(1)), int(m.group(2))]


async def test_bauernstoss_sheet_adds_up_with_the_first_deals_kreuz_bube(store):
    players, table, sheet = await finished(store, "bauernstoss", seed=5)
    rows = team_rows(sheet, "bauernstoss")
    assert "Kreuz-Bube +1" in rows[0]["line"] or "Kreuz-Bube – : +1" in rows[0]["line"]
    match = engine.view(engine.from_json(table.state), None)["match"]
    assert rows[-1]["total"] == match["striche"] == _summary_pair(players.table.text, "Striche")


async def test_bauerchen_sheet_adds_up_with_melds_and_the_round_summary_agrees(store):
    players, table, sheet = await finished(store, "bauerchen", seed=3, target_steine=2)
    rows = team_rows(sheet, "bauerchen")
    assert any("gemeldet" in r["line"] for r in rows), sheet
    match = engine.view(engine.from_json(table.state), None)["match"]
    winner = story.team_name(table, match["winner"])
    assert rows[-1]["marks"][-2:] == [f"Stein für {winner} (Steine {match['steine'][0]} : {match['steine'][1]})",
                                      f"Partie für {winner}"], "the last row decided the Stein and the match"
    rounds = [r["total"] for r in rows if any(m.startswith("Runde für") for m in r["marks"])]
    told = re.search(r"Runden: (.*)", players.table.text).group(1)
    assert [[int(x) for x in item.split(" ")[0].split(":")] for item in told.split(" · ")] == rounds
    assert rounds and all(max(r) == 12 for r in rounds)  # a Ledig, too, wins its round with 12
    assert _summary_pair(players.table.text, "Steine") == match["steine"]


async def test_bauer_sheet_adds_up_with_the_brot_climbing(store):
    players, table, sheet = await finished(store, "bauer", seed=1, target_brote=2)
    rows = team_rows(sheet, "bauer")
    climbs = [r for r in rows if re.match(r"^[0-9]+\. (\+[0-9]+ : −|−[0-9]+ : \+)", r["line"])]
    assert climbs, sheet
    match = engine.view(engine.from_json(table.state), None)["match"]
    assert rows[-1]["marks"][-1] == f"Partie für {story.team_name(table, match['winner'])}"
    brote = [m for m in rows[-1]["marks"] if "Brote" in m][0]
    assert brote.endswith(f"(Brote {match['brote'][0]} : {match['brote'][1]})")
    assert _summary_pair(players.table.text, "Brote") == match["brote"]


async def test_rams_sheet_adds_up_and_the_settlement_pays_what_the_engine_says(store):
    players, table, sheet = await finished(store, "rams", seed=4, target=7)
    totals, potatoes = [0] * table.n, [0] * table.n
    assert sheet.splitlines()[1] == "Anna · Computer 2 · Computer 3 · Computer 4"
    for line in sheet.splitlines()[2:]:
        for s, item in enumerate(line.split(". ", 1)[1].split(" · ")):
            delta, total, _ = _SEAT.fullmatch(item).groups()
            assert totals[s] + _n(delta) == int(total), line
            totals[s] = int(total)
            potatoes[s] += "🥔" in item
    match = engine.view(engine.from_json(table.state), None)["match"]
    assert totals == match["tricks"] and potatoes == match["kartoffeln"]
    text = players.table.text
    pays = re.findall(r"zahlt ([0-9]+,[0-9]{2}) Fr\. \((.*)\)", text)
    assert sorted(float(p.replace(",", ".")) for p, _ in pays) == sorted(x for x in match["settlement"] if x)
    for amount, why in pays:  # place and Kartoffeln add up to what he pays
        assert sum(float(a.replace(",", ".")) for a in re.findall(r": ([0-9]+,[0-9]{2}) Fr\.", why)) == \
            pytest.approx(float(amount.replace(",", ".")))
    total = re.search(r"Zusammen in der Kasse: ([0-9]+,[0-9]{2}) Fr\.", text).group(1)
    assert float(total.replace(",", ".")) == pytest.approx(sum(match["settlement"]))
