"""»Meine Tische« on Discord end to end: the real bot on the fake Discord, ``/tables`` in his DMs lists his
tables of two channels with the jump links to their table messages, a page button turns the page in place;
asked in a channel, nothing is listed."""

from __future__ import annotations

import re

from bot.protocol.outgoing import ChatRef
from bot.table.record import Seat, Table
from bot.words import t
from tests.fakes.discord.harness import (FAST, fake_for, let_windows_pass, press_verb, running_bot, settled,
                                        table_message, version)
from bot.protocol import tokens

GUILD = 82_000_000_000_000_000
CHANNELS = {82_000_000_000_000_101: "karten", 82_000_000_000_000_102: "skat"}
T0 = 1_800_000_000.0


async def _open(fake, channel_id: int, him) -> str:
    """He opens a Bauer table against three computers in the channel and starts it; its id."""
    await fake.answer(him.slash(channel_id, "new", game="bauer"))

    def opened():
        found = [tok for m in fake.seen_by(0, channel_id) for tok in map(tokens.parse, m.custom_ids()) if tok]
        return found[-1].table if found else None
    tid = await fake.wait_for(opened, what="the table message")
    for _ in range(3):
        seen = version(fake, channel_id, tid)
        await press_verb(fake, him, channel_id, tid, "bot")
        await fake.wait_for(lambda: version(fake, channel_id, tid) > seen, what="a computer seated")
    await press_verb(fake, him, channel_id, tid, "start")
    return tid


async def test_his_tables_in_two_channels_lead_to_their_table_messages_and_a_channel_lists_nothing(
        store, redis, key_prefix):
    async with fake_for(FAST) as fake:
        fake.guild(GUILD, "Stammtisch Lautern", CHANNELS)
        him = fake.member(2001, "Hans")
        async with running_bot(fake, store, redis, key_prefix, clock=lambda: T0) as bot:
            tids = {channel: await _open(fake, channel, him) for channel in CHANNELS}
            for channel, tid in tids.items():
                await let_windows_pass(fake, store, channel, tid, [him])
            dm = await fake.wait_for(lambda: fake.dm_of.get(him.id), what="his DMs")

            answer = await fake.answer(him.slash(dm, "tables"))
            text = answer["data"]["content"]
            assert text.startswith(t("de", "mt.head", n=2)), text
            links = re.findall(r"\(https://discord\.com/channels/(\d+)/(\d+)/(\d+)\)", text)
            assert sorted((int(g), int(c)) for g, c, _ in links) == [(GUILD, c) for c in sorted(CHANNELS)], text
            for _, channel, message in links:
                assert int(message) == table_message(fake, int(channel), tids[int(channel)]).id

            for i in range(8):  # ten tables in all: two pages, turned in place
                chat = ChatRef("discord", str(83_000_000_000_000_000 + i), title=f"Runde {i}")
                table = Table(id=store.new_id(), chat=chat, game="bauer", n=4, opener=f"discord:{him.id}",
                              seats=[Seat(user=f"discord:{him.id}", name="Hans")] + [Seat(bot=True)] * 3)
                await store.create(table.id, chat.key, table.dump(), table.user_keys())
            asked = him.slash(dm, "tables")
            first = (await fake.answer(asked))["data"]["content"]
            assert t("de", "mt.page", page=1, pages=2) in first and first.count("\n") == 8, first
            page = fake.original(asked)
            turn = next(c for c in page.custom_ids() if tokens.parse(c).verb == "tables")
            answer = await fake.answer(him.press(page, turn))
            assert answer["type"] == 7, answer  # the page pressed on shows the next one
            assert t("de", "mt.page", page=2, pages=2) in answer["data"]["content"]
            assert [line.split(".")[0] for line in answer["data"]["content"].split("\n")[1:]] == ["9", "10"]

            channel = next(iter(CHANNELS))
            answer = await fake.answer(him.slash(channel, "tables"))
            assert answer["data"]["flags"] & 64, "only he sees the answer"
            assert answer["data"]["content"] == t("de", "mt.only_private")
            await settled(bot)
            assert not [m for m in fake.seen_by(0, channel) if "discord.com/channels" in m.content]
