"""End to end on the fake Telegram: »Nachbesprechung« after a deal, to the player privately, or only a pointer."""

from __future__ import annotations

from tests.fakes.telegram.harness import FAST, Players, fake_for, open_table, press_verb, running_bot, watching

GROUP = -100123
TITLE = "🔍 Spiel 1, deine Sicht\nNachbesprechung (Bauer): "


async def test_the_review_goes_to_him_privately_and_the_group_learns_nothing_of_it(store, redis, key_prefix):
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch Lautern")
        anna, ben = tg.user(11, "Anna", started=True), tg.user(12, "Ben", started=True)
        async with running_bot(tg, store, redis, key_prefix, review_samples=2):
            tid = await open_table(tg, GROUP, anna, [ben], "bauer", "short_deck=true", computers=2)
            async with watching(store, tid) as latest:
                await Players(tg, [anna, ben], tid, store, careful=True).play(
                    lambda: (table := latest()) is not None and table.deals_over >= 1)
            await press_verb(tg, anna, GROUP, tid, "review")
            review = await tg.wait_for(lambda: next((m for m in tg.chat(anna.id) if TITLE in m.text), None),
                                       what="Anna's review in her private chat")
            assert review.text.startswith(f"Stammtisch Lautern: {TITLE}")
            ben.block()
            ben.send(GROUP, "/nachbesprechung")
            pointer = await tg.wait_for(lambda: next((m for m in tg.chat(GROUP) if m.text.startswith("Ben, meine "
                                                      "Antwort ist nur für dich")), None), what="the pointer for Ben")
            assert pointer.buttons and "url" in pointer.buttons[0], "the link that opens his private chat"
            await tg.drained()
            assert not any("Nachbesprechung (" in m.text for m in tg.chat(GROUP)), "no review in the group"
            assert not any(TITLE in m.text for m in tg.chat(ben.id)), "none reached Ben, who blocked the bot"
