"""The daily digest and a vacation's natural end on Discord: one DM a day at the chosen hour lists the tables
awaiting her, none on a day without; her vacation holds her Fernspiel table and lets it go at its end, and a DM
tells her so, with her turn.

The real discord.py client against the fake Discord, time driven by a test clock.
"""

from __future__ import annotations

from bot.store.personal import DIGEST
from tests.fakes.discord.harness import FAST, fake_for, open_table, running_bot, table_message
from tests.fakes.telegram.harness import until
from tests.servicekit import TurnWatch

GUILD = 83_000_000_000_000_000
CHANNEL = 83_000_000_000_000_100
T0 = 1_800_039_600.0  # a Friday, 20:00 in Berlin
DAY, HOUR = 86400.0, 3600.0
SATURDAY_19, SUNDAY_19 = T0 + 23 * HOUR, T0 + 47 * HOUR


async def test_the_digest_comes_once_at_its_hour_and_not_on_an_empty_day(store, redis, key_prefix):
    now = [T0]
    async with fake_for(FAST) as fake:
        fake.guild(GUILD, "Stammtisch Lautern", {CHANNEL: "karten"})
        anna = fake.member(3001, "Anna")
        key = f"discord:{anna.id}"
        async with running_bot(fake, store, redis, key_prefix, clock=lambda: now[0]):
            synced = {c["name"]: c for c in fake.commands[None]}  # the fake checked Discord's limits
            verbs = ("vacation", "notify")
            assert [synced[v]["name_localizations"]["de"] for v in verbs] == ["urlaub", "benachrichtigung"]
            assert [o["max_length"] for v in verbs for o in synced[v]["options"]] == [40, 40]
            tid = await open_table(fake, CHANNEL, anna, [], "bauernstoss", paces=1)
            watch = TurnWatch(store, tid)

            async def hers() -> bool:
                await watch.look()
                return watch.to_act == key
            await until(hers, "her turn")
            dm = await fake.wait_for(lambda: fake.dm_of.get(anna.id), what="her hand in a DM")

            async def say(channel: int, verb: str, words: str) -> str:
                return (await fake.answer(anna.slash(channel, verb, words=words)))["data"]["content"]

            assert "privaten Chat" in await say(CHANNEL, "notify", "täglich 19:00")
            assert "19:00 (Europe/Berlin)" in await say(dm, "notify", "täglich 19:00")
            now[0] = T0 + HOUR
            assert "bis Sa., 16.1." in await say(dm, "vacation", "1d")
            await fake.wait_for(lambda: "im Urlaub bis Sa., 16.1." in table_message(fake, CHANNEL, tid).content,
                                what="the vacation on the table")

            def digests() -> list[str]:
                return [m.content for m in fake.dms(anna.id) if m.content.startswith("☕") and "auf dich:" in m.content]
            now[0] = SATURDAY_19
            await fake.wait_for(lambda: digests(), what="the digest")
            assert digests() == ["☕ 1 Tisch wartet auf dich:\n• Bauernstoß in Stammtisch Lautern · #karten: der Computer "
                                 "spielt für dich am 19.1. 20:00"], digests()  # her turn's 72 hours, a vacation's day later
            now[0] = T0 + HOUR + DAY  # the vacation's end
            await fake.wait_for(lambda: "im Urlaub" not in table_message(fake, CHANNEL, tid).content,
                                what="the vacation's end on the table")
            back = await fake.wait_for(lambda: [m.content for m in fake.dms(anna.id) if "Urlaub ist vorbei" in m.content],
                                       what="the word that her vacation is over")
            assert back == ["👋 Willkommen zurück! Dein Urlaub ist vorbei; an 1 Tisch bist du dran:\n• Bauernstoß in "
                            "Stammtisch Lautern · #karten: der Computer spielt für dich am 19.1. 20:00"], back
            assert await store.personal.when(DIGEST, key) == SUNDAY_19

            await fake.answer(anna.slash(CHANNEL, "abort"))
            await fake.wait_for(lambda: "abgebrochen" in table_message(fake, CHANNEL, tid).content.lower(),
                                what="the table aborted")
            now[0] = SUNDAY_19

            async def fired() -> bool:
                return await store.personal.when(DIGEST, key) == SUNDAY_19 + DAY
            await until(fired, "the digest's hour on Sunday")
            assert len(digests()) == 1, digests()  # nothing on a day no table awaits her
