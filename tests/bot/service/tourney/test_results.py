"""A tournament's play in a group, against a real Redis: the draw, results read from the tables exactly once, a
round's deadline, withdrawals, the final ranking in the memory, the standings of 64 teams paged."""

from __future__ import annotations

import json
import re
from dataclasses import replace

from redis.asyncio import Redis

from bot import memory
from bot.protocol import tokens
from bot.protocol.outgoing import Notice
from bot.service.tourney.draw import core_of
from bot.service.tourney.message import message
from bot.service.tourney.results import poll
from bot.store.tourneys import TourneyStore
from bot.table.record import Table
from bot.words import buttons as memory_buttons
from bot.words.fit import TEXT_MAX
from bot.words.tourney_messages import final_text
from tests.bot.service.test_service_timers import tick_in_two_processes
from tests.bot.service.tourney.kit import T0, finish_table, load, opened, person, token, tourney_msg, two_teams_drawn
from tests.servicekit import GROUP, of, press, say, service


async def test_a_finished_tournament_match_offers_no_rematch(store):
    now = [T0]
    svc, tid, table_id = await two_teams_drawn(store, now)
    final = await finish_table(svc, store, table_id, now, only=True)
    verbs = [tokens.parse(b.token).verb for row in final.buttons for b in row]
    assert verbs == [*memory_buttons.MEMORY_BUTTONS, "review"]  # the memory's and the review's: no Revanche, no Neuer Tisch
    assert "»turnier stand«" in final.text
    forged = tokens.make(table_id, tokens.parse(final.buttons[0][0].token).version, "rematch")
    (refused,) = await svc.handle(press(GROUP, person(0), forged))  # a button shown before this release
    assert "keine Revanche" in refused.text
    assert Table.load((await store.load(table_id))[1]).rematched is False


async def test_draw_round_results_once_deadline_and_final(store):
    now = [T0]
    svc = service(store, clock=lambda: now[0])
    tid = await opened(svc, store, 3, "bauernstoss target=3 runde=1h")
    out = await svc.handle(say(GROUP, person(0), "turnier los"))
    notices = [o.text for o in of(out, Notice)]
    assert any("Auslosung" in n for n in notices) and any("Startwert" in n for n in notices)
    seed_at = next(i for i, n in enumerate(notices) if "Startwert" in n)
    assert seed_at > next(i for i, n in enumerate(notices) if "Auslosung" in n)  # the seed after the draw
    tourney = await load(store, tid)
    assert tourney.status == "running" and tourney.seed is not None and tourney.round == 1
    tables = list(tourney.tables.values())
    assert len(tables) == 1  # 3 teams: one match and a bye
    table = Table.load((await store.load(tables[0]))[1])
    assert table.status == "playing" and table.tourney.startswith(tid)
    await finish_table(svc, store, tables[0], now)
    now[0] += 1
    await svc.tick(now[0])
    tourney = await load(store, tid)
    key = table.tourney.partition(":")[2]
    assert list(tourney.core["results"]) == [key]
    (told,) = await memory.history(svc.tables.book, table.chat.group)  # the match is in the chat's memory
    assert told.id == f"{tables[0]}:m"
    # a replayed finishing report and a second visit count nothing twice
    kept = await TourneyStore(store).results(tid)
    assert not await TourneyStore(store).report(tid, key, kept[key])
    await poll(svc.tables, tid, now[0])
    tourney = await load(store, tid)
    assert len(tourney.core["results"]) == 1 and tourney.round == 2
    # round 2: nobody plays; at the deadline the computers take over and finish it
    now[0] = tourney.round_end + 1
    await svc.tick(now[0])
    for _ in range(600):
        tourney = await load(store, tid)
        if tourney.round > 2 or tourney.status == "finished":
            break
        now[0] += 5
        await svc.tick(now[0])
    (played,) = [k for k in tourney.tables if k.startswith("2.")]
    assert played in tourney.core["results"] and not tourney.core["results"][played].get("forfeit")
    for _ in range(2000):
        tourney = await load(store, tid)
        if tourney.status == "finished":
            break
        now[0] = max(now[0] + 5, tourney.round_end + 1)
        await svc.tick(now[0])
    assert tourney.status == "finished"
    assert len(tourney.core["results"]) == 3
    shown = message(tourney, 1, now[0])
    assert "Endstand" in shown.text and shown.text.count("Partien") == 3


async def test_the_final_ranking_goes_into_the_memory_once_even_after_a_failed_record(store):
    now = [T0]
    svc, tid, table_id = await two_teams_drawn(store, now)
    book = svc.tables.book
    svc.tables.book = replace(book, redis=Redis(host="127.0.0.1", port=1, decode_responses=True))  # memory gone
    await finish_table(svc, store, table_id, now, only=True)
    try:
        now[0] += 1
        await svc.tick(now[0])
    finally:
        await svc.tables.book.redis.aclose()
        svc.tables.book = book
    assert (await load(store, tid)).status == "finished"
    group = GROUP.group
    assert await memory.tournaments(book, group) == []
    assert tid in [d[0] for d in await store.due(now[0] + 600)]  # its timer stays, to record it
    for _ in range(3):  # the timer's visit records it; later visits (and a replayed end) count nothing twice
        now[0] += 600
        await svc.tick(now[0])
        await poll(svc.tables, tid, now[0])
    (kept,) = await memory.tournaments(book, group)
    assert (kept.id, kept.entrants) == (tid, 2)
    winners = [p.name for p in kept.top[0]]
    shown = await svc.handle(say(GROUP, person(0), "verlauf"))
    assert f"Turnier Bauernstoß · 2 Teams · 1. {'+'.join(winners)}" in shown[0].text
    stats = (await svc.handle(say(GROUP, person(0), "statistik")))[0].text
    assert "Turniere: 1, gewonnen " + ("1" if "Spieler0" in winners else "0") in stats
    assert tid not in [d[0] for d in await store.due(now[0] + 600)]


async def test_forfeit_rule_and_withdrawal(store):
    now = [T0]
    svc = service(store, clock=lambda: now[0])
    tid = await opened(svc, store, 4, "bauernstoss target=3 runde=1h regel=wertung")
    await svc.handle(say(GROUP, person(0), "turnier los"))
    tourney = await load(store, tid)
    assert len(tourney.tables) == 2
    out = await svc.handle(say(GROUP, person(7), "turnier abmelden"))  # team 4 withdraws during round 1
    assert any("zieht zurück" in n.text for n in of(out, Notice))
    now[0] = tourney.round_end + 1
    await svc.tick(now[0])
    tourney = await load(store, tid)
    results = tourney.core["results"]
    assert {k for k in results if k.startswith("1.")} == {"1.1", "1.2"}  # 4 teams: two matches
    assert all(r["forfeit"] for k, r in results.items() if k.startswith("1."))
    for table_id in [t for k, t in tourney.tables.items() if k.startswith("1.")]:
        assert Table.load((await store.load(table_id))[1]).status in ("aborted", "finished")
    assert tourney.round == 2
    withdrawn = next(i for i, e in enumerate(tourney.entries) if e.withdrawn)
    for key, result in results.items():  # his later matches are forfeits lost
        sides = {s["entrant"]: s for s in result["sides"]}
        if f"e{withdrawn}" in sides and key.startswith("2."):
            assert sides[f"e{withdrawn}"]["outcome"] == "lost"


async def test_standings_of_64_teams_are_paged_within_limits(store):
    now = [T0]
    svc = service(store, clock=lambda: now[0])
    tid = await opened(svc, store, 64, "bauernstoss schweizer target=3")
    full = await svc.handle(say(GROUP, person(200), "turnier anmelden"))
    assert "voll" in full[0].text
    drawn = [n.text for n in of(await svc.handle(say(GROUP, person(0), "turnier los")), Notice)]
    assert all(len(text) <= TEXT_MAX for text in drawn)
    assert sum(line.startswith("1.") for text in drawn for line in text.splitlines()) == 32  # every pairing shown
    msg = tourney_msg(await svc.handle(say(GROUP, person(0), "turnier")))
    assert len(msg.text) <= TEXT_MAX and "Seite 1/4" in msg.text
    out = await svc.handle(press(GROUP, person(5), token(msg, "tn_page", "1")))
    page2 = tourney_msg(out)
    assert "Seite 2/4" in page2.text and len(page2.text) <= TEXT_MAX
    tourney = await load(store, tid)
    assert len(tourney.tables) == 32
    final = final_text(tourney, core_of(tourney).standings())
    assert len(final) > 1 and all(len(text) <= TEXT_MAX for text in final)
    ranked = [line for text in final for line in text.splitlines() if re.match(r"(🥇 |🥈 |🥉 )?\d+\. ", line)]
    assert len(ranked) == 64 and ranked[0].startswith("🥇 1. ")
    ttl = await store.redis.ttl(f"{store.prefix}:{{t:{tid}}}:rec")
    assert 0 < ttl <= tourney.round_s + 8 * 86400
    assert json.loads((await TourneyStore(store).fetch(tid)).data)["status"] == "running"


async def test_rams_is_played_by_individuals_at_tables_of_three_to_seven(store):
    now = [T0]
    svc = service(store, clock=lambda: now[0])
    msg = tourney_msg(await svc.handle(say(GROUP, person(0), "turnier neu rams target=3 runde=1h")))
    for i in range(9):
        await svc.handle(say(GROUP, person(i), "turnier anmelden"))
    refused = await svc.handle(say(GROUP, person(0), "turnier los"))  # a round robin of 9: not one table
    assert "9 Anmeldungen passen nicht" in refused[0].text
    await svc.handle(say(GROUP, person(0), "turnier abbrechen"))
    msg = tourney_msg(await svc.handle(say(GROUP, person(0), "turnier neu rams schweizer target=3 runde=1h")))
    refused = await svc.handle(say(GROUP, person(0), "turnier anmelden Spieler1"))
    assert "jeder für sich" in refused[0].text
    for i in range(9):
        await svc.handle(say(GROUP, person(i), "turnier anmelden"))
    await svc.handle(say(GROUP, person(0), "turnier los"))
    tourney = await load(store, msg.table_id)
    seated = []
    for table_id in tourney.tables.values():
        table = Table.load((await store.load(table_id))[1])
        assert 3 <= table.n <= 7 and table.status == "playing" and all(s.human for s in table.seats)
        seated += [s.user for s in table.seats]
    assert sorted(seated) == sorted(person(i).key for i in range(9))
    for table_id in list(tourney.tables.values()):
        await finish_table(svc, store, table_id, now)
    now[0] += 1
    await svc.tick(now[0])
    tourney = await load(store, msg.table_id)
    rows = core_of(tourney).standings()
    assert sum(r.played for r in rows) == 9 and "Platzpunkte" in message(tourney, 1, now[0]).text


async def test_a_result_counts_once_when_two_processes_visit(store, redis_url, key_prefix):
    now = [T0]
    svc, tid, table_id = await two_teams_drawn(store, now)
    await finish_table(svc, store, table_id, now, only=True)  # the tournament has not looked yet
    assert not (await load(store, tid)).core["results"]
    notices = tick_in_two_processes(redis_url, key_prefix, now[0] + 1)
    notices += tick_in_two_processes(redis_url, key_prefix, now[0] + 2)
    assert sum("Ergebnis" in n["text"] for n in notices) == 1
    assert sum("Endwertung" in n["text"] for n in notices) == 1
    tourney = await load(store, tid)
    assert tourney.status == "finished" and len(tourney.core["results"]) == 1


async def test_a_deadline_in_the_chats_quiet_hours_waits_for_their_end(store):
    now = [T0]  # 08:00 UTC; the round ends at 09:00, in the quiet hours 08:30-12:00
    svc = service(store, clock=lambda: now[0])
    tid = await opened(svc, store, 2, "bauernstoss target=1 runde=1h regel=wertung")
    for words in ("zeitzone UTC", "ruhezeit 8:30-12"):
        await svc.handle(say(GROUP, person(0), words))
    await svc.handle(say(GROUP, person(0), "turnier los"))
    round_end = (await load(store, tid)).round_end
    assert round_end == T0 + 3600
    shown = []
    while now[0] + 300 < T0 + 4 * 3600:  # up to 11:55: nobody reminded, nothing decided
        now[0] += 300
        shown += [n.text for n in of(await svc.tick(now[0]), Notice)]
    assert (await load(store, tid)).status == "running" and not shown, shown
    assert [d for d in await store.due(T0 + 4 * 3600) if d[0] == tid]  # its timer comes back when they end
    now[0] = T0 + 4 * 3600 + 1
    await svc.tick(now[0])
    tourney = await load(store, tid)
    assert tourney.status == "finished" and tourney.core["results"]["1.1"]["forfeit"]
