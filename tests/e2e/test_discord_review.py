"""End to end on the fake Discord: »Nachbesprechung« after a deal, as an ephemeral answer only its asker sees."""

from __future__ import annotations

from tests.fakes.discord.harness import FAST, Players, fake_for, open_table, press_verb, running_bot
from tests.fakes.telegram.harness import watching

GUILD = 81_000_000_000_000_000
CHANNEL = 81_000_000_000_000_100
TITLE = "🔍 Spiel 1, deine Sicht\nNachbesprechung (Bauer): "


async def test_the_review_is_his_ephemeral_answer_by_button_or_slash_command(store, redis, key_prefix):
    async with fake_for(FAST) as fake:
        fake.guild(GUILD, "Stammtisch Lautern", {CHANNEL: "karten"})
        anna, ben = fake.member(1000, "Anna"), fake.member(1001, "Ben", dms_open=False)
        async with running_bot(fake, store, redis, key_prefix, review_samples=2):
            tid = await open_table(fake, CHANNEL, anna, [ben], "bauer", short_deck=True)
            async with watching(store, tid) as latest:
                await Players(fake, [anna, ben], CHANNEL, tid, store, careful=True).play(
                    lambda: (table := latest()) is not None and table.deals_over >= 1)

            def review_of(member):
                return lambda: next((m for m in fake.seen_by(member.id, CHANNEL)
                                     if m.for_user == member.id and TITLE in m.content), None)
            await press_verb(fake, anna, CHANNEL, tid, "review")
            await fake.wait_for(review_of(anna), what="Anna's review, ephemeral")
            await fake.answer(ben.slash(CHANNEL, "review"))
            await fake.wait_for(review_of(ben), what="Ben's review, ephemeral: his DMs are closed")
            assert not any(TITLE in m.content for m in fake.seen_by(0, CHANNEL)), "nobody else sees one"
            assert [m.for_user for m in fake.seen_by(anna.id, CHANNEL) if TITLE in m.content] == [anna.id]
            assert not any(TITLE in m.content for m in fake.dms(anna.id) + fake.dms(ben.id)), "no DM besides"
