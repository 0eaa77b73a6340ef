"""The memory's commands through the real service and a real Redis: matches played to the end by scripted
people, then ``statistik``, ``rangliste``, ``bild``, ``verlauf``, ``abend``, ``export``, ``saison`` and
``vergessen`` checked against those matches, in their own chat only."""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import replace

import pytest

import engine
from bot import memory
from bot.protocol.outgoing import ChatRef, FileMessage, Notice, TableMessage, Toast
from bot.table.record import Table
from bot.words.fit import TEXT_MAX
from bot.words.i18n import t
from bot.words.textcmd import games_text
from tests.bot.memory.kit import people, played, save_all
from tests.servicekit import GROUP, Players, button, of, press, private, say, service, table_msg, user

OTHER = ChatRef("test", "g2", title="Skatrunde Bonn")
FORGED = t("de", "forged")
SHORT = {"bauer": "short_deck=1 target_brote=1", "rams": "target=6", "bauernstoss": "target=2"}


async def play(svc, chat: ChatRef, game: str, n: int, seed: int) -> tuple[Table, TableMessage]:
    """A whole short match of ``game`` in ``chat`` by test users 0..n-1: the finished table and its last message."""
    who = [user(i) for i in range(n)]
    players = Players(svc, chat, who, seed=seed)
    table = table_msg(await players.send(say(chat, who[0], f"neu {game} {n} {SHORT.get(game, '')}")))
    for u in who[1:]:
        table = table_msg(await players.send(press(chat, u, button(table, "join").token)))
    await players.send(press(chat, who[0], button(table, "start").token))
    final = await players.play_out()
    return Table.load((await svc.store.load(final.table_id))[1]), final


def said(effects: list) -> str:
    """The one answer posted in the chat (a refusal fails the test with its text)."""
    assert not of(effects, Toast), [t.text for t in of(effects, Toast)]
    (notice,) = of(effects, Notice)
    assert len(notice.text) <= TEXT_MAX
    return notice.text


def refused(effects: list) -> str:
    """The refusal's text; nothing else was answered."""
    (toast,) = effects
    assert isinstance(toast, Toast)
    return toast.text


def winners(table: Table) -> str:
    """The winning team of a finished team game's table as the chat names it: ``Anna+Cleo``."""
    win = engine.view(engine.from_json(table.state), None)["match"]["winner"]
    return "+".join(table.seats[s].name for s in range(win, table.n, 2))


@pytest.fixture
async def evening(store):
    """Four matches of Bauer and two of Rams in the group: the service, the finished tables, the last table message."""
    svc = service(store, seed=1, answers_per_minute=1000)
    played = [await play(svc, GROUP, "bauer", 4, seed) for seed in range(4)]
    played += [await play(svc, GROUP, "rams", 4, 10 + seed) for seed in range(2)]
    await svc.tables.counted()
    return svc, [table for table, _ in played], played[-1][1]


async def test_statistik_counts_the_matches_played_and_won(evening):
    svc, tables, _ = evening
    bauer = [tb for tb in tables if tb.game == "bauer"]
    for i, name in enumerate(["Anna", "Ben"]):
        text = said(await svc.handle(say(GROUP, user(i), "statistik")))
        won = sum(name in winners(tb) for tb in bauer)
        assert text.startswith(f"📊 {name} · Saison 1"), text
        assert f"Bauer: 4 Partien · {won} gewonnen · " in text, text
        assert "Rams: 2 Partien" in text and "Brote " in text and "Stiche " in text
        assert text == said(await svc.handle(say(GROUP, user(3), f"statistik {name.lower()}")))


async def test_rangliste_orders_by_rating_and_lists_each_player_once(evening):
    svc, _, _ = evening
    text = said(await svc.handle(say(GROUP, user(0), "rangliste bauer")))
    rows = re.findall(r"^(\d+)\. (\w+) (−?\d+,\d) \((\d+) Partien\)$", text, re.M)
    assert [r[0] for r in rows] == ["1", "2", "3", "4"] and sorted(r[1] for r in rows) == ["Anna", "Ben", "Cleo", "Dora"]
    ratings = [float(r[2].replace(",", ".").replace("−", "-")) for r in rows]
    assert ratings == sorted(ratings, reverse=True) and {r[3] for r in rows} == {"4"}
    assert text.startswith("🏆 Rangliste Bauer · Saison 1")
    # without a game: the game of the last match (Rams: nobody has three matches yet)
    assert "Rangliste Rams" in said(await svc.handle(say(GROUP, user(0), "rangliste")))


async def test_verlauf_lists_the_matches_newest_first_and_shows_a_score_sheet(evening):
    svc, tables, _ = evening
    text = said(await svc.handle(say(GROUP, user(0), "verlauf")))
    lines = [line for line in text.splitlines() if re.match(r"\d+\. ", line)]
    assert [int(line.split(".")[0]) for line in lines] == [6, 5, 4, 3, 2, 1]
    assert [" · Rams · " in line for line in lines] == [True, True, False, False, False, False]
    assert all(f" · Bauer · {winners(tb)} gewinnen " in line for tb, line in zip(tables[:4], lines[::-1]))
    sheet = said(await svc.handle(say(GROUP, user(0), "verlauf 1")))
    assert sheet.splitlines()[1] == "📋 Zettel · Bauer" and sheet.splitlines()[0] == lines[-1]
    assert len([line for line in sheet.splitlines()[3:] if re.match(r"\d+\. ", line)]) == len(tables[0].sheet)
    assert refused(await svc.handle(say(GROUP, user(0), "verlauf x"))) == \
        f"»x« ist keine Partie-Nummer und kein Spiel (verlauf 12, verlauf bauer). Spiele: {games_text()}"


async def test_abend_settles_the_rams_matches_into_the_kasse(evening):
    svc, tables, _ = evening
    text = said(await svc.handle(say(GROUP, user(0), "abend")))
    assert text.startswith("🌙 Der Abend · ") and ": 6 Partien" in text.splitlines()[0]
    paid = {}
    for tb in tables:
        if tb.game == "rams":
            settlement = engine.view(engine.from_json(tb.state), None)["match"]["settlement"]
            for s, amount in enumerate(settlement):
                paid[tb.seats[s].name] = paid.get(tb.seats[s].name, 0) + round(amount * 100)
    for name, cents in paid.items():
        if cents:
            assert f"{name} zahlt {cents // 100},{cents % 100:02d} Fr. in die Kasse" in text, text
    total = sum(paid.values())
    assert f"Zusammen in der Kasse: {total // 100},{total % 100:02d} Fr." in text


async def test_the_buttons_of_a_finished_table_answer_for_its_game_in_its_chat_only(evening):
    svc, _, final = evening
    assert "Rangliste Rams" in said(await svc.handle(press(GROUP, user(1), button(final, "ranking").token)))
    assert said(await svc.handle(press(GROUP, user(1), button(final, "stats").token))).startswith("📊 Ben · Saison 1")
    assert "Abrechnung Rams" in said(await svc.handle(press(GROUP, user(1), button(final, "tonight").token)))
    assert refused(await svc.handle(press(OTHER, user(1), button(final, "tonight").token))) == FORGED


async def test_another_chat_reaches_nothing_of_the_group(evening):
    svc, tables, _ = evening
    assert refused(await svc.handle(say(OTHER, user(0), "statistik Anna"))).startswith("»Anna« hat hier keine Partie")
    assert refused(await svc.handle(say(OTHER, user(0), "verlauf"))) == "Hier ist noch keine Partie zu Ende gespielt."
    assert refused(await svc.handle(say(OTHER, user(0), "export"))) == "Hier ist noch keine Partie zu Ende gespielt."
    assert "noch keine Partie" in said(await svc.handle(say(OTHER, user(0), "statistik")))
    # his own figures from every chat: in his private chat only
    own = said(await svc.handle(say(private(user(0)), user(0), "statistik")))
    assert own.startswith("📊 Anna an allen Tischen") and "»Stammtisch Lautern«" in own and "Bauer: 4 Partien" in own


async def test_bad_input_is_answered_in_the_chats_language(evening):
    svc, _, _ = evening
    said(await svc.handle(say(GROUP, user(0), "sprache en")))
    answers = {line: refused(await svc.handle(say(GROUP, user(0), line))) for line in
               ("statistik Zed", "rangliste schach", "rangliste bauer 7", "verlauf 99", "saison alt",
                "statistik " + "x" * 5000, "verlauf x", "verlauf -1", "verlauf " + "x" * 5000)}
    assert answers["verlauf -1"] == \
        f"\"-1\" is not a match number or a game (history 12, history bauer). Games: {games_text()}"
    assert answers["verlauf x"].startswith("\"x\" is not a match number or a game")
    assert answers["statistik Zed"] == "\"Zed\" has not played here (or the name is not unique)."
    assert answers["rangliste schach"].startswith("I don't know \"schach\".")
    assert answers["rangliste bauer 7"] == "There is no season 7 here."
    assert answers["verlauf 99"] == "There is no match 99 here (any more)."
    assert answers["saison alt"] == "A new season with: season new"
    assert all(len(a) < 200 for a in answers.values())
    assert said(await svc.handle(say(GROUP, user(0), "ranking bauer"))).startswith("🏆 Ranking Bauer · season 1")


async def test_a_new_season_restarts_the_rankings_and_keeps_the_history(evening):
    svc, _, _ = evening
    assert refused(await svc.handle(say(GROUP, user(0), "saison neu"))) == \
        "Eine neue Saison beginnen nur die Admins der Gruppe."
    admin = replace(say(GROUP, user(0), "saison neu"), admin=True)
    assert said(await svc.handle(admin)).startswith("🎉 Saison 2 beginnt")
    assert "Noch niemand hat 3 Partien Bauer in Saison 2." in said(await svc.handle(say(GROUP, user(0), "rangliste bauer")))
    assert len(re.findall(r"^\d\. ", said(await svc.handle(say(GROUP, user(0), "rangliste bauer 1"))), re.M)) == 4
    assert len(re.findall(r"^\d+\. ", said(await svc.handle(say(GROUP, user(0), "verlauf"))), re.M)) == 6
    assert said(await svc.handle(say(GROUP, user(0), "saison"))).startswith("Saison 2 läuft seit ")


async def test_export_and_chart_are_files_once_a_minute(evening):
    svc, tables, _ = evening
    (files,) = await svc.handle(say(GROUP, user(0), "export"))
    assert isinstance(files, FileMessage) and files.caption.startswith("📎 Der Verlauf von »Stammtisch Lautern«: 6 Partien")
    csv_file, json_file = files.files
    rows = list(csv.DictReader(io.StringIO(csv_file.data.decode())))
    assert [r["no"] for r in rows] == ["6", "5", "4", "3", "2", "1"]
    assert [r["game"] for r in rows] == ["rams", "rams", "bauer", "bauer", "bauer", "bauer"]
    assert {r["table"] for r in rows} == {tb.id for tb in tables}
    assert len(json.loads(json_file.data)) == 6
    assert refused(await svc.handle(say(GROUP, user(1), "export"))) == \
        "Export und Bild gibt es hier je höchstens einmal pro Minute."
    other = service(svc.store, seed=2, answers_per_minute=1000)
    await play(other, OTHER, "bauer", 4, 1)
    for seed in (2, 3):
        await play(other, OTHER, "bauer", 4, seed)
    (chart,) = await other.handle(say(OTHER, user(0), "bild bauer"))
    (png,) = chart.files
    assert png.picture and png.data.startswith(b"\x89PNG\r\n\x1a\n") and png.filename.endswith(".png")
    assert chart.caption == "📈 Die Wertungen in Bauer, Saison 1"


async def test_statistik_aus_keeps_him_out_from_then_on(evening):
    svc, _, _ = evening
    assert said(await svc.handle(say(GROUP, user(1), "statistik aus"))).startswith("Ben wird hier ab jetzt nicht mehr")
    await play(svc, GROUP, "bauer", 4, 20)
    await svc.tables.counted()
    assert "Bauer: 4 Partien" in said(await svc.handle(say(GROUP, user(1), "statistik")))
    assert said(await svc.handle(say(GROUP, user(1), "statistik an"))) == "Ben wird hier wieder mitgezählt."


async def forget(svc, chat: ChatRef, who) -> str:
    """``vergessen`` typed twice, asked and confirmed: the answer to the second."""
    assert said(await svc.handle(say(chat, who, "vergessen"))).startswith(f"{who.name}, wirklich?")
    return said(await svc.handle(say(chat, who, "vergessen")))


async def test_vergessen_removes_him_from_the_chats_memory(evening):
    svc, _, _ = evening
    assert await forget(svc, GROUP, user(1)) == "Ben ist hier aus Statistik, Wertung und Verlauf gelöscht."
    history = said(await svc.handle(say(GROUP, user(0), "verlauf")))
    assert "Ben" not in history and "jemand" in history
    assert "Ben" not in said(await svc.handle(say(GROUP, user(0), "rangliste bauer")))
    assert refused(await svc.handle(say(GROUP, user(0), "statistik Ben"))).startswith("»Ben« hat hier keine Partie")
    assert await forget(svc, GROUP, user(1)) == "Von Ben ist hier nichts gespeichert."
    # in his private chat: from every chat that counts him
    await play(svc, OTHER, "bauer", 4, 30)
    await svc.tables.counted()
    assert await forget(svc, private(user(2)), user(2)) == "Cleo ist aus Statistik, Wertung und Verlauf von 2 Chats gelöscht."
    assert await forget(svc, private(user(1)), user(1)) == \
        "Ben ist aus Statistik, Wertung und Verlauf eines Chats gelöscht."  # this chat forgot him before
    alone = user(4)  # at his own table against computers only, as in the terminal
    own = Players(svc, private(alone), [alone], seed=40)
    await own.send(say(private(alone), alone, f"neu bauer {SHORT['bauer']}"))
    await own.play_out()
    await svc.tables.counted()
    assert await forget(svc, private(alone), alone) == \
        f"{alone.name} ist hier aus Statistik, Wertung und Verlauf gelöscht."  # his private chat alone: here
    assert said(await svc.handle(say(private(user(2)), user(2), "statistik"))).startswith("Du hast noch an keinem Tisch")


@pytest.fixture
async def recorded(store):
    """One Bauer match of Anna, Ben, Cleo and Dora recorded in the group (the computer played it): the service."""
    svc = service(store, seed=1, answers_per_minute=1000)
    await save_all(store, svc.tables.book, played("bauer", people(4), seed=3, options={"short_deck": True,
                                                                                     "target_brote": 1}))
    return svc


async def test_ben_cannot_forget_anna_and_forgets_himself_only_when_he_confirms(recorded):
    svc, group = recorded, GROUP.group
    book = svc.tables.book
    assert refused(await svc.handle(say(GROUP, user(1), "vergessen Anna"))) == \
        "Ben, vergessen lässt sich jeder nur selbst: vergessen, ohne Namen."
    assert refused(await svc.handle(say(GROUP, user(1), "forget Anna"))).startswith("Ben, vergessen lässt sich")
    asked = said(await svc.handle(say(GROUP, user(1), "vergessen")))
    assert asked == ("Ben, wirklich? Das löscht dich für immer aus Statistik, Wertung und Verlauf dieses Chats. "
                     "Zum Bestätigen innerhalb von 60 Sekunden nochmal: vergessen")
    assert await memory.who_of(book, group, "test:u0") and await memory.who_of(book, group, "test:u1")
    assert 0 < await book.redis.ttl(book.key(group, "fg:test:u1")) <= 60  # the request waits a minute, no longer
    assert said(await svc.handle(say(GROUP, user(1), "vergessen ben"))) == \
        "Ben ist hier aus Statistik, Wertung und Verlauf gelöscht."  # his own name is his own
    assert await memory.who_of(book, group, "test:u1") is None and await memory.who_of(book, group, "test:u0")
    assert said(await svc.handle(say(GROUP, user(0), "vergessen"))).startswith("Anna, wirklich?")  # asked anew


async def test_statistik_aus_with_a_name_is_answered_with_the_usage(recorded):
    svc, book = recorded, recorded.tables.book
    usage = "So geht's: statistik, statistik NAME, statistik aus, statistik an (aus und an gelten für dich selbst)."
    assert refused(await svc.handle(say(GROUP, user(1), "statistik aus Anna"))) == usage
    assert refused(await svc.handle(say(GROUP, user(1), "statistik an Anna"))) == usage
    assert await memory.is_recorded(book, GROUP.group, "test:u0") and await memory.is_recorded(book, GROUP.group,
                                                                                               "test:u1")


async def test_a_rematch_records_the_finished_match_no_second_time(evening):
    svc, tables, final = evening
    assert not of(await svc.handle(press(GROUP, user(0), button(final, "rematch").token)), Toast)
    await svc.tables.counted()
    assert len(re.findall(r"^\d+\. ", said(await svc.handle(say(GROUP, user(0), "verlauf"))), re.M)) == len(tables)
