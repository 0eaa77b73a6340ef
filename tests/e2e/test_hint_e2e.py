"""End to end: the hint (»Tipp«) on both fakes, through the real clients: his alone, never in the group.

Anna plays with computers only (where hints are on by default) in a group or channel; at her turn
she presses »Tipp« on her hand and types it in the group. The hint names one of her choices and reaches
her alone: the press's own answer (Telegram), an ephemeral answer (Discord), her private chat for the
typed one; the group sees none of it. Asked twice at the same turn, it says the very same.
"""

from __future__ import annotations

import asyncio

import engine
from bot.protocol import tokens
from bot.table.record import Table
from bot.words.buttons import action_label
from tests.fakes.discord.harness import FAST as DISCORD_FAST
from tests.fakes.discord.harness import fake_for as discord_fake
from tests.fakes.discord.harness import hand_of, press, table_tokens
from tests.fakes.discord.harness import open_table as discord_table
from tests.fakes.discord.harness import running_bot as discord_bot
from tests.fakes.telegram.harness import FAST, card_to_play, fake_for, open_table, running_bot, until
from tests.fakes.telegram.harness import table_tokens as tg_tokens
from tests.servicekit import TurnWatch

GROUP = -100777
GUILD = 82_000_000_000_000_000
CHANNEL = 82_000_000_000_000_100
CHEAP = {"tipp_samples": 4}
SAME = {"tipp_samples": 12, "tipp_seconds": 5.0}
"""Enough sampled deals that fresh ones would tell other counts, and time for all of them (the seed is the position)."""


async def her_choices(store, table_id: str) -> set[str]:
    """The labels of what the person to act may decide now."""
    table = Table.load((await store.load(table_id))[1])
    state = engine.from_json(table.state)
    view = engine.view(state, state.to_act)
    return {action_label(table.lang, engine.Action.from_dict(a), table.game, view) for a in view["legal"]}


def named(text: str) -> str:
    """The choice a hint names: ``💡 A♥ – …`` → ``A♥``."""
    assert text.startswith("💡 "), text
    return text.removeprefix("💡 ").partition(" – ")[0]


async def test_telegram_a_hint_pressed_or_typed_reaches_her_alone_and_says_the_same_twice(store, redis, key_prefix):
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch")
        anna = tg.user(11, "Anna", started=True)
        async with running_bot(tg, store, redis, key_prefix, **SAME):
            tid = await open_table(tg, GROUP, anna, [], "bauernstoss")
            watch = TurnWatch(store, tid)

            async def hers() -> bool:
                await watch.look()
                return watch.turn_of(anna.id)
            _, hand, token = await card_to_play(tg, store, [anna], tid)
            while len(await her_choices(store, tid)) < 2:  # a forced move weighs nothing: on to a real choice
                await tg.wait_answer(anna.press(hand, data=token))
                await until(hers, "her next turn")
                _, hand, token = await card_to_play(tg, store, [anna], tid)
            (tipp,) = [t for t in tg_tokens(hand, tid) if t.verb == "tipp"]
            answer = await tg.wait_answer(anna.press(hand, data=str(tipp)))
            assert named(answer["text"]) in await her_choices(store, tid)
            before = len(tg.chat(anna.id))
            anna.send(GROUP, "/tipp")
            told = await tg.wait_for(lambda: next((m for m in tg.chat(anna.id)[before:] if "💡" in m.text), None),
                                     what="the typed hint in her private chat")
            assert told.text.removeprefix("Stammtisch: ") == answer["text"]  # the same position, the same counts
            assert not [m for m in tg.chat(GROUP) for text, _ in m.history if "💡" in text]
            assert Table.load((await store.load(tid))[1]).hinted == [f"telegram:{anna.id}"]


async def test_telegram_a_hint_later_than_the_press_answer_comes_in_her_private_chat(store, redis, key_prefix):
    hasty = FAST.model_copy(update={"ack_deadline_s": 0.001})  # every verdict comes after the press is answered
    async with fake_for(hasty) as tg:
        tg.group(GROUP, "Stammtisch")
        anna = tg.user(11, "Anna", started=True)
        async with running_bot(tg, store, redis, key_prefix, tuning=hasty, **CHEAP):
            tid = await open_table(tg, GROUP, anna, [], "bauernstoss")
            watch = TurnWatch(store, tid)

            async def hers() -> bool:
                await watch.look()
                return watch.turn_of(anna.id)
            await until(hers, "her turn")  # the start's press was answered before the computers played
            _, hand, _ = await card_to_play(tg, store, [anna], tid)
            (tipp,) = [t for t in tg_tokens(hand, tid) if t.verb == "tipp"]
            answer = await tg.wait_answer(anna.press(hand, data=str(tipp)))
            assert not answer.get("text")
            told = await tg.wait_for(lambda: next((m for m in tg.chat(anna.id) if m.text.startswith("💡")), None),
                                     what="the hint in her private chat")
            assert named(told.text) in await her_choices(store, tid)
            assert not [m for m in tg.chat(GROUP) for text, _ in m.history if "💡" in text]


async def test_discord_a_hint_is_an_ephemeral_answer_for_her_alone(store, redis, key_prefix):
    async with discord_fake(DISCORD_FAST) as fake:
        fake.guild(GUILD, "Stammtisch Lautern", {CHANNEL: "karten"})
        anna = fake.member(2000, "Anna")
        async with discord_bot(fake, store, redis, key_prefix, **CHEAP):
            tid = await discord_table(fake, CHANNEL, anna, [], "bauernstoss")
            watch = TurnWatch(store, tid)

            def her_turn():  # her hand once it is current at her turn
                hand = hand_of(fake, anna, CHANNEL, tid)
                acts = [t for t in table_tokens(hand, tid) if t.verb == "act" and t.version >= watch.since]
                return hand if watch.turn_of(anna.id) and acts else None
            looking = asyncio.ensure_future(watch.run(changed=fake.touch))
            try:
                hand = await fake.wait_for(her_turn, what="her turn")
            finally:
                looking.cancel()
                await asyncio.gather(looking, return_exceptions=True)
            (tipp,) = [t for t in table_tokens(hand, tid) if t.verb == "tipp"]
            answer = await press(fake, anna, hand, str(tipp))
            assert answer["type"] == 4 and answer["data"]["flags"] & 64, answer
            assert named(answer["data"]["content"]) in await her_choices(store, tid)
        public = [m for m in fake.messages.values() if m.for_user is None and m.channel_id == CHANNEL]
        assert not [m for m in public for text, _ in m.history if "💡" in text]
        assert not [t for m in public for t in map(tokens.parse, m.custom_ids()) if t and t.verb == "tipp"]
