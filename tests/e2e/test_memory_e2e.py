"""End to end, the group's memory: whole matches played on the fake Telegram and the fake Discord with the real
adapters, service and store, then the memory's commands typed (Telegram) and run as slash commands (Discord),
their answers checked against the finished tables: names, counts, the ranking's order, the export's rows, the
chart's PNG."""

from __future__ import annotations

import csv
import io
import json
import re

import engine
from bot.table.record import Table
from tests.fakes.discord import FakeDiscord
from tests.fakes.discord import harness as discord_kit
from tests.fakes.telegram import FakeTelegram
from tests.fakes.telegram import harness as telegram_kit

GROUP = -100456
GUILD, CHANNEL = 82_000_000_000_000_000, 82_000_000_000_000_100
BAUER = ("short_deck=1", "target_brote=1")
MATCHES = 3
"""Matches played: a person is ranked after three."""
PNG = b"\x89PNG\r\n\x1a\n"


async def finished_table(store, table_id: str) -> Table:
    """The stored table, which must have finished."""
    table = Table.load((await store.load(table_id))[1])
    assert table.status == "finished"
    return table


def winning_team(table: Table) -> list[str]:
    """The names at the winning side of a finished team game (a computer as ``None``)."""
    win = engine.view(engine.from_json(table.state), None)["match"]["winner"]
    return [table.seats[s].name or None for s in range(win, table.n, 2)]


def ranking_rows(text: str) -> list[tuple[str, float, int]]:
    """The ranked rows of a ranking: (name, rating, matches)."""
    return [(name, float(rating.replace(",", ".").replace("−", "-")), int(n)) for name, rating, n in
            re.findall(r"^\d+\. (\S+) (−?\d+[,.]\d) \((\d+) (?:Partien|matches)\)$", text, re.M)]


def check_export(csv_bytes: bytes, json_bytes: bytes, tables: list[Table]) -> None:
    """The export's rows are the matches played, newest first, with their players."""
    rows = list(csv.DictReader(io.StringIO(csv_bytes.decode())))
    assert [r["table"] for r in rows] == [tb.id for tb in reversed(tables)]
    assert all(r["game"] == "bauer" and "Anna" in r["players"].split("|") for r in rows)
    assert [m["table"] for m in json.loads(json_bytes)] == [tb.id for tb in reversed(tables)]


async def test_telegram_group_remembers_its_matches(store, redis, key_prefix):
    async with telegram_kit.fake_for(telegram_kit.FAST) as tg:
        tg.group(GROUP, "Stammtisch Lautern")
        anna, ben = tg.user(11, "Anna", started=True), tg.user(12, "Ben", started=True)
        tables = []
        async with telegram_kit.running_bot(tg, store, redis, key_prefix) as bot:
            for seed in range(MATCHES):
                tid = await telegram_kit.open_table(tg, GROUP, anna, [ben], "bauer", *BAUER, computers=2)
                players = telegram_kit.Players(tg, [anna, ben], tid, store, seed=seed, careful=True)
                async with telegram_kit.watching(store, tid) as latest:
                    await players.play(lambda: latest() is not None and latest().status == "finished", timeout=240)
                tables.append(await finished_table(store, tid))
            await telegram_kit.settled(tg, bot)
            await bot.service.tables.counted()
            before = len(tg.chat(GROUP))

            def posted(n: int) -> list:
                return tg.chat(GROUP)[before:] if len(tg.chat(GROUP)) >= before + n else None

            for user, line in [(anna, "/statistik"), (ben, "/rangliste bauer"), (anna, "/verlauf"),
                               (ben, "/abend"), (anna, "/export"), (ben, "/bild bauer")]:
                user.send(GROUP, line)
            sent = await tg.wait_for(lambda: posted(7), what="the answers (the export is two documents)")
            await telegram_kit.settled(tg, bot)
            ben.send(GROUP, "/saison neu")  # not an admin: told privately
            await tg.wait_for(lambda: any("nur die Admins" in m.text for m in tg.chat(ben.id)), what="the refusal")
            tg.make_admin(GROUP, anna)
            anna.send(GROUP, "/saison neu")
            await tg.wait_for(lambda: any(m.text.startswith("🎉 Saison 2 beginnt") for m in tg.chat(GROUP)),
                              what="the new season")
        texts = [m.text for m in sent if m.upload is None]
        stats = next(t for t in texts if t.startswith("📊 Anna"))
        won = sum("Anna" in winning_team(tb) for tb in tables)
        assert f"Bauer: {MATCHES} Partien · {won} gewonnen · " in stats, stats
        ranking = next(t for t in texts if t.startswith("🏆 Rangliste Bauer"))
        rows = ranking_rows(ranking)
        assert sorted(name for name, _, _ in rows) == ["Anna", "Ben"] and {n for _, _, n in rows} == {MATCHES}
        assert [r for _, r, _ in rows] == sorted((r for _, r, _ in rows), reverse=True)
        assert "Computer: normal " in ranking, "the computers are listed apart"
        history = next(t for t in texts if t.startswith("📜 Die letzten Partien"))
        lines = [line for line in history.splitlines() if re.match(r"\d+\. ", line)]
        assert [int(line.split(".")[0]) for line in lines] == list(range(MATCHES, 0, -1))
        tonight = next(t for t in texts if t.startswith("🌙 Der Abend"))
        assert f": {MATCHES} Partien" in tonight.splitlines()[0]
        assert f"Anna: {won} von {MATCHES} gewonnen" in tonight
        documents = [m for m in sent if m.upload and m.upload.kind == "document"]
        assert [m.upload.filename.rsplit(".", 1)[1] for m in documents] == ["csv", "json"]
        assert documents[0].text.startswith(f"📎 Der Verlauf von »Stammtisch Lautern«: {MATCHES} Partien")
        check_export(documents[0].upload.data, documents[1].upload.data, tables)
        (photo,) = [m for m in sent if m.upload and m.upload.kind == "photo"]
        assert photo.upload.data.startswith(PNG) and photo.text == "📈 Die Wertungen in Bauer, Saison 1"
        assert tg.violations == []


async def test_discord_channel_remembers_its_matches(store, redis, key_prefix):
    async with discord_kit.fake_for(discord_kit.FAST) as fake:
        fake.guild(GUILD, "Stammtisch Lautern", {CHANNEL: "karten"})
        members = [fake.member(2000 + i, name) for i, name in enumerate(["Anna", "Ben", "Cleo", "Dora"])]
        tables = []
        async with discord_kit.running_bot(fake, store, redis, key_prefix) as bot:
            for seed in range(MATCHES):
                tid = await discord_kit.open_table(fake, CHANNEL, members[0], members[1:], "bauer", short_deck=True,
                                                   target_brote=1)
                players = discord_kit.Players(fake, members, CHANNEL, tid, store, seed=seed, careful=True)
                await players.play(lambda: _finished(fake, tid), timeout=240)
                tables.append(await finished_table(store, tid))
            await discord_kit.settled(bot)
            await bot.service.tables.counted()
            anna, ben = members[0], members[1]
            stats = await _answered(fake, anna.slash(CHANNEL, "stats", player="Ben"))
            ranking = await _answered(fake, ben.slash(CHANNEL, "ranking", game="bauer"))
            english = await _answered(fake, fake.member(2009, "Emil", locale="en-US").slash(CHANNEL, "ranking",
                                                                                          game="rams"))
            unknown = await _answered(fake, ben.slash(CHANNEL, "stats", player="Zed"))
            sheet = await _answered(fake, ben.slash(CHANNEL, "history", match=2))
            export = await _files(fake, anna, "export")
            chart = await _files(fake, ben, "chart", game="bauer")
            refused = await _answered(fake, ben.slash(CHANNEL, "season", action="new"))
            boss = fake.member(2010, "Wirtin")
            boss.admin = True
            season = await _answered(fake, boss.slash(CHANNEL, "season", action="new"))
            restarted = await _answered(fake, anna.slash(CHANNEL, "ranking", game="bauer"))
            await discord_kit.settled(bot)
        won = sum("Ben" in winning_team(tb) for tb in tables)
        assert stats.startswith("📊 Ben · Saison 1") and f"Bauer: {MATCHES} Partien · {won} gewonnen" in stats, stats
        rows = ranking_rows(ranking)
        assert sorted(name for name, _, _ in rows) == ["Anna", "Ben", "Cleo", "Dora"]
        assert [r for _, r, _ in rows] == sorted((r for _, r, _ in rows), reverse=True)
        assert english.startswith("🏆 Rangliste Rams") and "Noch niemand hat 3 Partien Rams" in english
        assert unknown == "»Zed« hat hier keine Partie gespielt (oder ist nicht eindeutig)."
        assert sheet.startswith("2. ") and sheet.splitlines()[1] == "📋 Zettel · Bauer"
        assert len(re.findall(r"^\d+\. ", sheet, re.M)) == 1 + len(tables[1].sheet)
        assert export.content.startswith("📎 Der Verlauf von ")
        assert [name.rsplit(".", 1)[1] for name in export.files] == ["csv", "json"]
        csv_bytes, json_bytes = export.files.values()
        check_export(csv_bytes, json_bytes, tables)
        (png,) = chart.files.values()
        assert png.startswith(PNG)
        assert refused == "Eine neue Saison beginnen nur die Admins der Gruppe."
        assert season.startswith("🎉 Saison 2 beginnt") and "Noch niemand hat 3 Partien Bauer in Saison 2" in restarted


def _finished(fake: FakeDiscord, table_id: str) -> bool:
    message = discord_kit.table_message(fake, CHANNEL, table_id)
    return any(t.verb == "rematch" for t in discord_kit.table_tokens(message, table_id))


async def _answered(fake: FakeDiscord, interaction: str) -> str:
    """The text a slash command was answered with (its answer comes within the deadline: no deferring)."""
    answer = await fake.answer(interaction)
    assert answer["type"] == 4, answer
    return answer["data"]["content"]


async def _files(fake: FakeDiscord, member, command: str, **options):
    """The message, with its files, that ``member``'s slash command was answered with (at once, or deferred
    while the bot worked and followed up)."""
    seen = {m.id for m in fake.seen_by(0, CHANNEL)}
    answer = await fake.answer(member.slash(CHANNEL, command, **options))
    assert answer["type"] in (4, 5), answer
    message = await fake.wait_for(lambda: next((m for m in fake.seen_by(0, CHANNEL) if m.id not in seen and m.files),
                                               None), what=f"the files of /{command}")
    assert message.for_user is None, "files for the whole channel"
    return message
