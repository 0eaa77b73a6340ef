"""End to end: the real discord.py client, service and store against the fake Discord.

Simulated members run the slash command, join by button, get their hands by DM (one with closed
DMs plays through his ephemeral hand), and play whole matches by pressing the buttons the bot
sent them. The transcript is then checked against what the store holds.
"""

from __future__ import annotations

import time

import engine
from bot import render, tokens
from bot.table import Table
from tests.transcript import assert_log_sound
from tests.fake_discord import FakeDiscord, Member
from tests.fake_discord.harness import (FAST, Players, fake_for, open_table, running_bot,
                                        table_message)

GUILD = 81_000_000_000_000_000
CHANNEL = 81_000_000_000_000_100


def world(fake: FakeDiscord, n: int = 4, closed: tuple[int, ...] = ()) -> list[Member]:
    """A guild with one channel and ``n`` members (those at the indexes in ``closed`` have closed DMs)."""
    fake.guild(GUILD, "Stammtisch Lautern", {CHANNEL: "karten"})
    names = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz", "Gerda"]
    return [fake.member(1000 + i, names[i], locale="en-US" if i == 2 else "de", dms_open=i not in closed)
            for i in range(n)]


async def stored(store, table_id: str) -> tuple[int, Table]:
    v, data = await store.load(table_id)
    return v, Table.load(data)


def finished(fake: FakeDiscord, table_id: str):
    """A predicate: the table message shows the final summary (its Rematch button)."""
    return lambda: any(t.verb == "rematch" for t in _tokens(table_message(fake, CHANNEL, table_id)))


def _tokens(message) -> list[tokens.Token]:
    return [t for t in map(tokens.parse, message.custom_ids() if message else []) if t]


def assert_hands_private(fake: FakeDiscord, table: Table) -> None:
    """No card ever appeared in a public channel message; DMs went to seated players only, each his own."""
    for m in fake.messages.values():
        if m.for_user is None and m.channel_id == CHANNEL:
            for _, components in m.history:
                for row in components:
                    for b in row.get("components", []):
                        t = tokens.parse(b.get("custom_id", ""))
                        assert not (t and (t.verb == "why" or t.arg.startswith("pl."))), f"a card in public: {b}"
    seated = {int(s.user.split(":")[1]): i for i, s in enumerate(table.seats) if s.user}
    for user_id, channel in fake.dm_of.items():
        assert user_id in seated, f"{user_id} got a DM of a table he does not sit at"
        for m in fake.seen_by(user_id, channel):
            assert m.channel_id == channel
    if table.game == "rams":
        return
    for user_id, seat in seated.items():
        partner = render.seat_name(table, (seat + 2) % 4)
        hands = [text for m in fake.dms(user_id) for text, _ in m.history if "spielst mit" in text or "play with" in text]
        assert hands, f"no hand reached {user_id}"
        for text in hands:
            assert f"mit {partner} gegen" in text or f"with {partner} against" in text, (user_id, text)


async def assert_final_table(fake: FakeDiscord, store, table_id: str) -> Table:
    """The table message shows exactly what the bot layer renders for the stored final state."""
    v, table = await stored(store, table_id)
    assert table.status == "finished"
    expected = render.table_message(table, engine.from_json(table.state), v, time.time())
    await fake.wait_for(lambda: table_message(fake, CHANNEL, table_id).content == expected.text,
                        what="the final summary")
    return table


async def test_a_whole_bauerchen_match_in_a_channel(store, redis, key_prefix):
    async with fake_for(FAST) as fake:
        members = world(fake)
        async with running_bot(fake, store, redis, key_prefix):
            assert {c["name"] for c in fake.commands[None]} >= {"new", "join", "hand", "language"}
            tid = await open_table(fake, CHANNEL, members[0], members[1:], "bauerchen")
            await Players(fake, members, CHANNEL, tid, seed=3).play(finished(fake, tid))
            table = await assert_final_table(fake, store, tid)
        assert_hands_private(fake, table)
        await assert_log_sound(store, table, "discord")
        assert not [c for c in fake.calls if c.status == 429], "the pacing let a 429 through"
        table_posts = [m for m in fake.seen_by(0, CHANNEL) if _tokens(m)]
        assert len(table_posts) == 1, "one table message, edited in place"
