"""End to end on the fake Discord: a tournament in a channel, from ``/tournament new`` to the final ranking.

The organizer opens it with the typed slash command's parameters (home and away); four members register
(one names his partner, who confirms by the button; two alone, paired by lot); the draw and then its seed
are posted; round 1's match moves into a thread of its own and is played there by pressing buttons, round 2's is decided at its deadline, the
standings message is edited in place and the final ranking is posted. A channel where the bot may not
open threads keeps the match's table.
"""

from __future__ import annotations

import time

from bot.protocol import tokens
from bot.store.tourneys import TourneyStore
from bot.table.record import Table
from bot.table.tourney_record import Tourney
from tests.fakes.discord.harness import FAST, Players, fake_for, press, running_bot, table_message
from tests.fakes.telegram.harness import until, watching

GUILD = 82_000_000_000_000_000
CHANNEL = 82_000_000_000_000_100


def tourney_id(fake) -> str | None:
    for m in fake.seen_by(0, CHANNEL):
        for custom_id in m.custom_ids():
            tok = tokens.parse(custom_id)
            if tok and tok.verb == "tn_join":
                return tok.table
    return None


def texts(fake) -> list[str]:
    return [content for m in fake.seen_by(0, CHANNEL) for content, _ in m.history]


async def stored(store, tid: str) -> Tourney:
    return Tourney.load((await TourneyStore(store).fetch(tid)).data)


async def press_verb(fake, member, tid: str, verb: str) -> dict:
    def button():
        message = table_message(fake, CHANNEL, tid)
        found = [c for c in (message.custom_ids() if message else []) if f":{verb}:" in c]
        return (message, found[0]) if found else None
    message, custom_id = await fake.wait_for(button, what=f"a {verb} button")
    return await press(fake, member, message, custom_id)


async def open_and_draw(fake, store, people) -> str:
    """Flieger opens a round robin (twice, to 1 Partie), Flieger+Kai register as a team, Helmut and Dieter
    alone; Flieger starts it: the tournament's id once the seed is out."""
    flieger, kai, helmut, dieter = people
    answer = await fake.answer(flieger.slash(CHANNEL, "tournament", action="new", game="bauernstoss",
                                             format="round-robin", round="1h", rule="forfeit",
                                             twice=True, options="target=1"))
    assert "Turnier eröffnet" in answer["data"]["content"], answer
    tid = await fake.wait_for(lambda: tourney_id(fake), what="the tournament message")
    await fake.answer(flieger.slash(CHANNEL, "tournament", action="join", partner="Kai"))
    await fake.wait_for(lambda: any("Flieger lädt Kai ein" in x for x in texts(fake)), what="the invitation")
    await press_verb(fake, kai, tid, "tn_ok")
    for alone in (helmut, dieter):
        await press_verb(fake, alone, tid, "tn_join")

    async def registered() -> bool:
        return len((await stored(store, tid)).entries) == 3
    await until(registered, "three entries")
    await press_verb(fake, flieger, tid, "tn_start")
    await fake.wait_for(lambda: any("Startwert" in x for x in texts(fake)), what="the seed")
    return tid


async def test_a_tournament_in_a_channel(store, redis, key_prefix):
    offset = [0.0]
    async with fake_for(FAST) as fake:
        fake.guild(GUILD, "Stammtisch Erfweiler", {CHANNEL: "turnier"})
        names = ["Flieger", "Kai", "Helmut", "Dieter"]
        people = [fake.member(2000 + i, n) for i, n in enumerate(names)]
        async with running_bot(fake, store, redis, key_prefix, clock=lambda: time.time() + offset[0]):
            tid = await open_and_draw(fake, store, people)
            shown = texts(fake)
            assert next(i for i, x in enumerate(shown) if "Auslosung" in x) < next(
                i for i, x in enumerate(shown) if "Startwert" in x)

            tourney = await stored(store, tid)
            assert tourney.twice and tourney.options == {"target": 1}
            (table_id,) = tourney.tables.values()
            (thread,) = await fake.wait_for(lambda: fake.threads_of(CHANNEL), what="the match's thread")
            assert thread["name"].startswith("🏆 1.1")
            thread_id = int(thread["id"])
            await fake.wait_for(lambda: table_message(fake, thread_id, table_id), what="the table in its thread")
            table = Table.load((await store.load(table_id))[1])
            assert (table.chat.chat_id, table.chat.thread) == (str(CHANNEL), str(thread_id))
            await fake.wait_for(lambda: table_message(fake, CHANNEL, table_id) is None,
                                what="the channel's table message gone with the move")
            assert not [m for m in fake.messages.values() if m.channel_id == CHANNEL  # never posted there
                        and any(table_id in cid for cid in m.custom_ids())]
            seated = {seat.user for seat in table.seats}
            at_table = [p for p in people if f"discord:{p.id}" in seated]
            players = Players(fake, at_table, thread_id, table_id, store, careful=True, sensible=True)
            async with watching(store, table_id) as latest:
                await players.play(lambda: bool(latest()) and latest().status == "finished")

            async def round_two() -> bool:
                return (await stored(store, tid)).round == 2
            await until(round_two, "round 2")
            offset[0] += 2 * 3600 + 1

            async def over() -> bool:
                return (await stored(store, tid)).status == "finished"
            await until(over, "round 2 decided at its deadline")
            tourney = await stored(store, tid)
            assert tourney.core["results"]["2.1"]["forfeit"]  # nobody played: both lose, 0:0
            assert len(tourney.core["results"]) == 2  # Helmut and Dieter paired by lot: two teams, twice
            await fake.wait_for(lambda: any("die Endwertung" in x for x in texts(fake)), what="the final ranking")
            standings = await fake.wait_for(lambda: [m for m in fake.seen_by(0, CHANNEL)
                                                     if any("Runde 2 von 2," in c for c, _ in m.history)],
                                            what="the standings of round 2")  # an edit: it may follow the ranking
            assert len(standings) == 1  # one message, edited in place from registration to the final standings
            await fake.wait_for(lambda: "Endstand" in standings[0].content, what="the final standings")


async def test_a_channel_without_threads_keeps_its_tables(store, redis, key_prefix):
    async with fake_for(FAST) as fake:
        fake.guild(GUILD, "Stammtisch Erfweiler", {CHANNEL: "turnier"})
        fake.no_threads.add(CHANNEL)
        people = [fake.member(2000 + i, n) for i, n in enumerate(["Flieger", "Kai", "Helmut", "Dieter"])]
        async with running_bot(fake, store, redis, key_prefix):
            tid = await open_and_draw(fake, store, people)
            (table_id,) = (await stored(store, tid)).tables.values()
            await fake.wait_for(lambda: any(c.route == "/channels/{channel}/threads" and c.status == 403
                                            for c in fake.calls), what="the refused thread")
            await fake.wait_for(lambda: table_message(fake, CHANNEL, table_id), what="the table in the channel")
            assert Table.load((await store.load(table_id))[1]).chat.thread == ""
            assert not fake.threads_of(CHANNEL)
