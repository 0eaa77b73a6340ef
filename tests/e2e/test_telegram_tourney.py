"""End to end on the fake Bot API: a tournament in a group, from ``/turnier neu`` to the final ranking, and in a
forum group a topic of its own for each match.

Six people register (two teams naming a partner who confirms by a button, two alone, paired by
lot), the organizer draws; round 1's match is played by pressing the buttons, round 2's is decided
at its deadline (the service's clock is moved past it), and round 3's too; the standings message is
edited in place and the final ranking is posted. In a forum group each match is shown in a topic of its own.
"""

from __future__ import annotations

import time

from bot.store.tourneys import TourneyStore
from bot.table.record import Table
from bot.table.tourney_record import Tourney
from tests.fakes.telegram.harness import FAST, Players, fake_for, press_verb, running_bot, until, watching

GROUP = -100777


def tourney_id(tg) -> str | None:
    for m in tg.chat(GROUP):
        for b in m.buttons:
            data = b.get("callback_data", "")
            if ":tn_join:" in data:
                return data.split(":")[1]
    return None


def texts(tg) -> list[str]:
    return [text for m in tg.chat(GROUP) for text, _ in m.history]


async def stored(store, tid: str) -> Tourney:
    return Tourney.load((await TourneyStore(store).fetch(tid)).data)


async def test_a_tournament_in_a_group(store, redis, key_prefix):
    offset = [0.0]
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch Erfweiler")
        names = ["Flieger", "Kai", "Werner", "Pitie", "Helmut", "Dieter"]
        people = [tg.user(40 + i, n, started=True) for i, n in enumerate(names)]
        flieger, kai, werner, pitie, helmut, dieter = people
        async with running_bot(tg, store, redis, key_prefix, clock=lambda: time.time() + offset[0]):
            flieger.send(GROUP, "/turnier neu bauernstoss target=1 runde=1h regel=wertung")
            tid = await tg.wait_for(lambda: tourney_id(tg), what="the tournament message")
            flieger.send(GROUP, "/turnier anmelden Kai")
            await tg.wait_for(lambda: any("Flieger lädt Kai ein" in x for x in texts(tg)), what="the invitation")
            assert not (await press_verb(tg, kai, GROUP, tid, "tn_ok")).get("text")
            werner.send(GROUP, "/turnier anmelden Pitie")
            await tg.wait_for(lambda: any("Werner lädt Pitie ein" in x for x in texts(tg)), what="the invitation")
            refused = await press_verb(tg, helmut, GROUP, tid, "tn_ok")  # not his invitation
            assert "Pitie" in refused.get("text", "")
            assert not (await press_verb(tg, pitie, GROUP, tid, "tn_ok")).get("text")
            for alone in (helmut, dieter):
                assert not (await press_verb(tg, alone, GROUP, tid, "tn_join")).get("text")

            async def registered() -> bool:
                return len((await stored(store, tid)).entries) == 4
            await until(registered, "four entries")
            assert not (await press_verb(tg, flieger, GROUP, tid, "tn_start")).get("text")
            await tg.wait_for(lambda: any("Startwert" in x for x in texts(tg)), what="the seed")
            shown = texts(tg)
            draw_at = next(i for i, x in enumerate(shown) if "Auslosung" in x)
            assert draw_at < next(i for i, x in enumerate(shown) if "Startwert" in x)

            tourney = await stored(store, tid)
            assert [len(e.users) for e in tourney.entries] == [2, 2, 2]  # Helmut and Dieter paired by lot
            (table_id,) = tourney.tables.values()
            seated = {s.user for s in Table.load((await store.load(table_id))[1]).seats}
            table_people = [p for p in people if f"telegram:{p.id}" in seated]
            assert len(table_people) == 4
            async with watching(store, table_id) as latest:
                players = Players(tg, table_people, table_id, store, careful=True, sensible=True)
                await players.play(lambda: bool(latest()) and latest().status == "finished")

            async def round_two() -> bool:
                return (await stored(store, tid)).round == 2
            await until(round_two, "round 2")
            for expected in (3, None):  # rounds 2 and 3 run out: decided at the deadline
                offset[0] += 3601 + (await stored(store, tid)).round * 3600

                async def moved_on(expected=expected) -> bool:
                    t = await stored(store, tid)
                    return t.status == "finished" if expected is None else t.round == expected
                await until(moved_on, f"the deadline of round {expected}")
            tourney = await stored(store, tid)
            assert len(tourney.core["results"]) == 3
            await tg.wait_for(lambda: any("die Endwertung" in x for x in texts(tg)), what="the final ranking")
            standings = [m for m in tg.chat(GROUP) if any("Endstand" in text for text, _ in m.history)]
            assert len(standings) == 1 and len(standings[0].history) > 3  # one message, edited in place
            assert any("gewertet" in x for x in texts(tg))  # a match decided at its deadline


def shows_table(m, table_id: str) -> bool:
    """Whether the message ever carried the table's buttons or named its match."""
    return any(table_id in str(markup) or "Turnierspiel" in text for text, markup in m.history)


async def test_in_a_forum_each_match_is_shown_in_its_own_topic_only_and_the_end_stays_readable(store, redis,
                                                                                               key_prefix):
    """Each match's table and its players' notice go only to its topic; a level knockout game says that the lot
    decided it; after the end ``/turnier tabelle`` shows the final standings."""
    offset = [0.0]
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch Erfweiler", forum=True)
        people = [tg.user(60 + i, n, started=True) for i, n in enumerate(["Bertl", "Merk", "Äppel", "Klaus"])]
        async with running_bot(tg, store, redis, key_prefix, clock=lambda: time.time() + offset[0]):
            people[0].send(GROUP, "/turnier neu bauernstoss gruppen target=1 runde=1h regel=wertung")
            tid = await tg.wait_for(lambda: tourney_id(tg), what="the tournament message")
            for person in people:
                assert not (await press_verb(tg, person, GROUP, tid, "tn_join")).get("text")

            async def registered() -> bool:
                return len((await stored(store, tid)).entries) == 4
            await until(registered, "four registered")
            await press_verb(tg, people[0], GROUP, tid, "tn_start")
            for round_no, key in ((1, "1.1"), (2, "2.1")):  # the group's game, then the final
                async def opened(key=key) -> bool:
                    t = await stored(store, tid)
                    return key in t.tables and bool(await store.load(t.tables[key]))
                await until(opened, f"the table of {key}")
                table_id = (await stored(store, tid)).tables[key]

                async def moved(table_id=table_id) -> bool:
                    return Table.load((await store.load(table_id))[1]).chat.thread != ""
                await until(moved, "the table in its topic")
                thread = int(Table.load((await store.load(table_id))[1]).chat.thread)
                assert tg.topics[thread][0] == GROUP and key in tg.topics[thread][1]
                await tg.wait_for(lambda: any(m.thread == thread and any(table_id in b.get("callback_data", "")
                                                                         for b in m.buttons) for m in tg.chat(GROUP)),
                                  what="the table message in the topic")
                await tg.wait_for(lambda: any(m.thread == thread and f"Turnierspiel {key}" in m.text
                                              for m in tg.chat(GROUP)), what="the notice to its players")
                assert not [m.history for m in tg.chat(GROUP) if m.thread is None and shows_table(m, table_id)]
                offset[0] += 3601 * round_no  # nobody plays: the deadline scores it, both sides lose 0:0

                async def next_round(round_no=round_no) -> bool:
                    t = await stored(store, tid)
                    return t.round > round_no or t.status == "finished"
                await until(next_round, f"the deadline of round {round_no}")
            await tg.wait_for(lambda: any("die Endwertung" in x for x in texts(tg)), what="the final ranking")
            result = next(x for x in texts(tg) if x.startswith("🏆 Ergebnis 2.1"))
            assert "Gleichstand: das Los der Auslosung entscheidet für" in result
            final = next(x for x in texts(tg) if "die Endwertung" in x)
            assert "(K.-o.-Spiel, bei Gleichstand das Los)" in final.splitlines()[2]

            def standings() -> int:
                return sum(any("Endstand" in text for text, _ in m.history) for m in tg.chat(GROUP))
            assert standings() == 1
            people[1].send(GROUP, "/turnier tabelle")  # the tournament is over: its final standings again
            await tg.wait_for(lambda: standings() == 2, what="the final standings posted again")
            assert not any("kein Turnier" in m.text for p in people for m in tg.chat(p.id))


async def test_a_group_admin_aborts_a_tournament_he_did_not_open(store, redis, key_prefix):
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch Erfweiler")
        flieger, kai, bertl = (tg.user(60 + i, n, started=True) for i, n in enumerate(["Flieger", "Kai", "Bertl"]))
        tg.make_admin(GROUP, bertl)
        async with running_bot(tg, store, redis, key_prefix):
            flieger.send(GROUP, "/turnier neu bauernstoss")
            tid = await tg.wait_for(lambda: tourney_id(tg), what="the tournament message")
            kai.send(GROUP, "/turnier abbrechen")  # neither its organizer nor an admin: told, nothing changes
            await tg.wait_for(lambda: any("nur der Veranstalter" in m.text for m in tg.chat(kai.id) + tg.chat(GROUP)),
                              what="the refusal")
            assert (await stored(store, tid)).status == "open"
            bertl.send(GROUP, "/turnier abbrechen")
            await tg.wait_for(lambda: any("Das Turnier ist abgebrochen" in x for x in texts(tg)), what="the abort")
            assert (await stored(store, tid)).status == "aborted"


async def test_a_group_admin_may_press_the_start_of_a_tournament_he_did_not_open(store, redis, key_prefix):
    """Issue 30, item 7: »Auslosen und los« gives the powers of ``/turnier los``: its organizer's, and a group
    admin's (Telegram is asked who is one, as for the typed command); anyone else is refused."""
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch Erfweiler")
        flieger, kai, werner, helga = (tg.user(60 + i, n, started=True)
                                       for i, n in enumerate(["Flieger", "Kai", "Werner", "Helga"]))
        tg.make_admin(GROUP, helga)
        async with running_bot(tg, store, redis, key_prefix):
            flieger.send(GROUP, "/turnier neu rams runde=1h")
            tid = await tg.wait_for(lambda: tourney_id(tg), what="the tournament message")
            for person in (flieger, kai, werner):
                assert not (await press_verb(tg, person, GROUP, tid, "tn_join")).get("text")

            async def registered() -> bool:
                return len((await stored(store, tid)).entries) == 3
            await until(registered, "three entries")
            refused = await press_verb(tg, kai, GROUP, tid, "tn_start")  # neither its organizer nor an admin
            assert "Flieger" in refused.get("text", "") and (await stored(store, tid)).status == "open"
            assert not (await press_verb(tg, helga, GROUP, tid, "tn_start")).get("text")

            async def running() -> bool:
                return (await stored(store, tid)).status == "running"
            await until(running, "the draw")
    assert [int(p["user_id"]) for p in tg.calls_of("getChatMember")] == [kai.id, helga.id]
