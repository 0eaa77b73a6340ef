"""A Discord sender that dies after Discord made its message, before it learnt so, makes none again: the next
reader's replay of the entry sends the same nonce, enforced, and Discord answers with the message it made.

The real discord.py client and delivery against the fake Discord, two outbox readers on a real Redis.
"""

from __future__ import annotations

import asyncio

from bot.protocol.outgoing import ChatRef, Notice
from bot.store.outbox import Outbox
from bot.store.outbox_reader import OutboxReader
from tests.fakes.discord.harness import FAST, fake_for, running_bot

GUILD = 84_000_000_000_000_000
CHANNEL = 84_000_000_000_000_100


async def test_a_sender_killed_after_discord_made_its_message_makes_none_again(store, redis, key_prefix):
    outbox = Outbox(redis, key_prefix)
    stream = outbox.stream("discord", outbox.shard_of(str(CHANNEL)))
    async with fake_for(FAST) as fake:
        fake.guild(GUILD, "Stammtisch Lautern", {CHANNEL: "karten"})
        async with running_bot(fake, store, redis, key_prefix, reads=False) as bot:
            fake.withhold = asyncio.Event()
            await outbox.put([Notice(ChatRef("discord", str(CHANNEL)), "Anna ist dran")])
            first = OutboxReader(outbox, "discord", bot.delivery.carry_out, lease_s=0.5, flush_s=0.0)
            first.start()
            await fake.wait_for(lambda: fake.seen_by(0, CHANNEL), "the notice made")
            await bot.outbox.close()  # the sender dies waiting for the answer: nothing recorded
            await first.stop()  # its reader too, the entry left pending
            fake.withhold.set()
            fake.withhold = None
            second = OutboxReader(outbox, "discord", bot.delivery.carry_out, lease_s=0.5)
            second.start()
            try:
                while await redis.xlen(stream):  # the entry carried out again and acknowledged
                    await asyncio.sleep(0.01)
            finally:
                await second.stop()
        (made,) = fake.seen_by(0, CHANNEL)
        assert made.content == "Anna ist dran" and made.nonce
