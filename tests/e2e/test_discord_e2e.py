"""End to end: the real discord.py client, service and store against the fake Discord.

Simulated members run the slash command, join by button, get their hands by DM (one with closed
DMs plays through his ephemeral hand), and play whole matches by pressing the buttons the bot
sent them. The transcript is then checked against what the store holds.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time

from prometheus_client import REGISTRY

import engine
from bot.ops.settings import load_settings
from bot.protocol import tokens
from bot.protocol.outgoing import ChatRef, TableMessage
from bot.store.connection import connect
from bot.store.tables import Store
from bot.table.record import Table
from bot.words import render
from tests.fakes.discord import FakeDiscord, Member
from tests.fakes.discord.harness import (
    FAST,
    Players,
    fake_for,
    hand_of,
    let_windows_pass,
    open_table,
    press,
    press_verb,
    running_bot,
    settled,
    table_message,
    table_tokens,
    version,
)
from tests.redis_servers import Server, skip_unless_installed
from tests.servicekit import TurnWatch, hurried
from tests.transcript import assert_log_sound

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
    return finished_in(fake, CHANNEL, table_id)


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
            await Players(fake, members, CHANNEL, tid, store, seed=3).play(finished(fake, tid))
            table = await assert_final_table(fake, store, tid)
        assert_hands_private(fake, table)
        await assert_log_sound(store, table, "discord")
        assert not [c for c in fake.calls if c.status == 429], "the pacing let a 429 through"
        edits = REGISTRY.get_sample_value("stammtisch_platform_api_calls_total",
                                          {"platform": "discord", "method": "edit_message", "outcome": "ok"})
        assert edits >= len([c for c in fake.calls if c.method == "PATCH" and c.status == 200]), "calls are counted"
        table_posts = [m for m in fake.seen_by(0, CHANNEL) if _tokens(m)]
        assert len(table_posts) == 1, "one table message, edited in place"


async def test_during_play_only_a_player_or_a_server_manager_changes_the_language(store, redis, key_prefix):
    async with fake_for(FAST) as fake:
        anna, ben, cleo, dora = world(fake)
        dora.admin = True
        async with running_bot(fake, store, redis, key_prefix):
            await open_table(fake, CHANNEL, anna, [ben], "bauer")
            answer = await fake.answer(cleo.slash(CHANNEL, "language", lang="en"))
            assert answer["data"]["content"].startswith("Während des Spiels stellen nur die Mitspieler"), answer  # the channel's language, not her client's
            assert await store.get_chat_setting(f"discord:{CHANNEL}:", "lang") is None
            await fake.answer(dora.slash(CHANNEL, "language", lang="en"))
            assert await store.get_chat_setting(f"discord:{CHANNEL}:", "lang") == "en"


async def test_a_whole_rams_game_of_five_one_of_them_with_closed_dms(store, redis, key_prefix):
    async with fake_for(FAST) as fake:
        members = world(fake, 5, closed=(4,))
        emil = members[4]
        async with running_bot(fake, store, redis, key_prefix):
            tid = await open_table(fake, CHANNEL, members[0], members[1:], "rams", players=5, target=7)
            await Players(fake, members, CHANNEL, tid, store, seed=5).play(finished(fake, tid))
            table = await assert_final_table(fake, store, tid)
        assert_hands_private(fake, table)
        await assert_log_sound(store, table, "discord")
        assert "Abrechnung" in table_message(fake, CHANNEL, tid).content
        assert not fake.dms(emil.id), "no DM reached the member whose DMs are closed"
        told = [m for m in fake.seen_by(0, CHANNEL) if f"<@{emil.id}>" in m.content]
        assert len(told) == 1 and "Direktnachricht" in told[0].content, "the channel is told once"
        hands = [m for m in fake.messages.values() if m.for_user == emil.id and any(
            f"st1:{tid}:" in json.dumps(components) for _, components in m.history)]
        assert hands and all(m.channel_id == CHANNEL for m in hands), "his hand came as ephemeral messages"
        assert any(p[0] == emil.id and p[2]["type"] == 7 for p in fake_presses(fake, emil)), "he played on them"


def fake_presses(fake: FakeDiscord, member: Member) -> list[tuple[int, str, dict]]:
    """(user id, custom id, response) of every button ``member`` pressed."""
    return [(r.user.id, r.payload["data"].get("custom_id", ""), r.response or {}) for r in fake.interactions.values()
            if r.user is member and r.payload.get("type") == 3]


async def test_presses_that_must_not_count_are_refused_privately(store, redis, key_prefix):
    async with fake_for(FAST) as fake:
        *players, emil = world(fake, 5)
        async with running_bot(fake, store, redis, key_prefix) as bot:
            cleo = players[2]  # an English client, in a channel that chose no language: the default, German
            answer = await fake.answer(cleo.slash(CHANNEL, "join"))
            assert answer["data"]["flags"] & 64 and answer["data"]["content"].startswith("Hier ist kein Tisch"), answer
            tid = await open_table(fake, CHANNEL, players[0], players[1:], "bauerchen")

            watch = TurnWatch(store, tid)

            def to_act():  # the player to act, his hand (once it is current) and a card he may play
                for m in players:
                    hand = hand_of(fake, m, CHANNEL, tid)
                    acts = [t for t in table_tokens(hand, tid) if t.verb == "act" and t.arg in watch.allowed
                            and t.version >= watch.since]
                    if watch.turn_of(m.id) and acts:
                        return m, hand, str(acts[0])
                return None
            looking = asyncio.ensure_future(watch.run(changed=fake.touch))
            who, hand, act = await fake.wait_for(to_act, what="a player to act")
            other = next(m for m in players if m is not who)
            # a hand whose owner is not to act may come a moment later (DISCORD_LAZY_S)
            await fake.wait_for(lambda: hand_of(fake, other, CHANNEL, tid), what=f"{other.name}'s hand")
            before = (await store.load(tid))[0]

            async def refused(member, message, custom_id, text=None):
                answer = await press(fake, member, message, custom_id)
                assert answer["type"] == 4 and answer["data"]["flags"] & 64, answer
                assert text is None or text in answer["data"]["content"], answer
            await refused(emil, table_message(fake, CHANNEL, tid), act)  # a bystander, a card he was never shown
            answer = await press_verb(fake, emil, CHANNEL, tid, "hand")
            assert answer["type"] == 4 and answer["data"]["flags"] & 64 and "nicht an diesem Tisch" in answer["data"]["content"]
            await refused(other, hand_of(fake, other, CHANNEL, tid), act)  # out of turn, with another's card
            for forged in ("garbage", "st1:" + "x" * 96, f"st1:{tid}:99999:act:pl.AS", f"st1:{tid}:1:act:zz"):
                await refused(who, hand, forged)
            assert (await store.load(tid))[0] == before, "nothing was applied"

            iid = who.press(hand, act)
            assert (await fake.answer(iid))["type"] == 7, "the card is answered by editing his hand"
            assert (await store.load(tid))[0] == before + 1
            fake.replay(iid)  # carried out before: this process's first answer stands, the replay gets none
            await refused(who, hand, act, "Schon gespielt")  # the same card on the same (stale) message
            await settled(bot)  # the replay, dispatched before the stale press, is handled too
            assert not [c for c in fake.calls if c.route.startswith("/interactions") and c.status != 200]
            assert (await store.load(tid))[0] == before + 1, "the duplicate and the stale press were not applied"

            await let_windows_pass(fake, store, CHANNEL, tid, players)  # trump named: nobody goes alone
            before = (await store.load(tid))[0] - 1
            fake.ack_window_s = 0.0  # every answer now comes too late: 10062
            nxt, nhand, nact = await fake.wait_for(to_act, what="the next player")
            shown = nhand.content
            iid = nxt.press(nhand, nact)
            await fake.wait_for(lambda: any(c.route.startswith("/interactions") and c.status == 404
                                            for c in fake.calls), what="the late answer refused")
            await fake.wait_for(lambda: not table_tokens(hand_of(fake, nxt, CHANNEL, tid), tid) or
                                hand_of(fake, nxt, CHANNEL, tid).content != shown,
                                what="his hand updated the usual way")
            assert (await store.load(tid))[0] == before + 2
            looking.cancel()
        assert not [m for m in fake.messages.values() if m.for_user is None and m.channel_id == CHANNEL
                    and any(t.verb in ("why",) for t in map(tokens.parse, m.custom_ids()) if t)]


async def test_a_restart_in_the_middle_keeps_old_buttons_working(store, redis, key_prefix):
    async with fake_for(FAST) as fake:
        members = world(fake)
        async with running_bot(fake, store, redis, key_prefix):
            tid = await open_table(fake, CHANNEL, members[0], members[1:], "bauerchen")
            start = version(fake, CHANNEL, tid)
            await Players(fake, members, CHANNEL, tid, store, seed=7).play(lambda: version(fake, CHANNEL, tid) >= start + 6)
        old = table_message(fake, CHANNEL, tid)
        old.too_old = True  # Discord refuses more edits of it (30046): the table is posted anew
        async with running_bot(fake, store, redis, key_prefix):  # a new client and service, the same Redis
            await Players(fake, members, CHANNEL, tid, store, seed=8).play(
                lambda: table_message(fake, CHANNEL, tid).id != old.id)
            await fake.wait_for(lambda: old.deleted, what="the old table message replaced")
            current = table_message(fake, CHANNEL, tid)
            current.deleted = True  # someone deleted it (10008): posted anew as well
            await Players(fake, members, CHANNEL, tid, store, seed=9).play(finished(fake, tid))
            table = await assert_final_table(fake, store, tid)
        assert_hands_private(fake, table)
        await assert_log_sound(store, table, "discord")
        assert len([m for m in fake.seen_by(0, CHANNEL) if table_tokens(m, tid)]) == 1


async def test_reminders_and_automatic_moves_mention_the_player_in_the_channel(store, redis, key_prefix):
    async with fake_for(FAST) as fake:
        members = world(fake)
        async with running_bot(fake, store, redis, key_prefix, clock=hurried(), reminder_after="1m",
                               autoplay_after="2m"):
            tid = await open_table(fake, CHANNEL, members[0], members[1:], "bauerchen")
            _, table = await stored(store, tid)
            seat = engine.from_json(table.state).to_act
            user_id = table.seats[seat].user.split(":")[1]
            mentioned = lambda: [m for m in fake.seen_by(0, CHANNEL) if f"<@{user_id}>" in m.content]  # noqa: E731
            await fake.wait_for(lambda: len(mentioned()) >= 2, what="a reminder and an automatic move")
        first, second = mentioned()[:2]
        assert not first.components and not second.components
        assert (await stored(store, tid))[0] > 0
        posts = [c for c in fake.calls if c.method == "POST" and c.channel == CHANNEL]
        assert posts, "notices are posted in the channel"


async def test_two_processes_split_the_shards_and_share_redis(store, redis, key_prefix):
    async with fake_for(FAST) as fake:
        guilds = [g for g in range(GUILD, GUILD + (8 << 22), 1 << 22)]
        by_shard = {(g >> 22) % 2: g for g in guilds}
        rooms = {}
        for shard, guild in sorted(by_shard.items()):
            rooms[shard] = guild + 7
            fake.guild(guild, f"Server {shard}", {guild + 7: "karten"})
        people = {shard: [fake.member(2000 + 10 * shard + i, f"{n}{shard}") for i, n in enumerate(["Anna", "Ben", "Cleo",
                                                                                              "Dora"])]
                  for shard in rooms}
        shards = dict(discord_shard_count=2)
        async with running_bot(fake, store, redis, key_prefix, discord_shard_ids="0", **shards), \
                running_bot(fake, store, redis, key_prefix, discord_shard_ids="1", **shards):
            assert sorted((s.shard_id, s.shard_count) for s in fake.sessions) == [(0, 2), (1, 2)]
            assert len([c for c in fake.calls if c.route.endswith("/commands")]) == 1, "only shard 0 syncs"
            tids = await asyncio.gather(*(open_table(fake, room, people[s][0], people[s][1:], "bauerchen")
                                          for s, room in rooms.items()))
            await asyncio.gather(*(Players(fake, people[s], room, tid, store, seed=11).play(finished_in(fake, room, tid))
                                   for (s, room), tid in zip(rooms.items(), tids)))
            for tid in tids:
                _, table = await stored(store, tid)
                assert table.status == "finished"
                await assert_log_sound(store, table, "discord")
        assert not [c for c in fake.calls if c.status == 429]


def finished_in(fake: FakeDiscord, channel_id: int, table_id: str):
    """A predicate: the table message in ``channel_id`` shows the final summary."""
    return lambda: any(t.verb == "rematch" for t in _tokens(table_message(fake, channel_id, table_id)))


async def test_a_table_message_waits_for_redis_and_goes_out_when_it_is_back(key_prefix, caplog):
    """The refs are in Redis: while it is away the table message waits in its queue, however long."""
    skip_unless_installed()
    with Server() as server:
        client = await connect(load_settings(redis_url=server.url, redis_timeout_s=0.3))
        try:
            async with fake_for(FAST) as fake:
                world(fake)
                async with running_bot(fake, Store(client, prefix=key_prefix), client, key_prefix) as bot:
                    server.stop()
                    with caplog.at_level(logging.WARNING, logger="adapters.discord.outbox"):
                        chat = ChatRef("discord", str(CHANNEL), title="Stammtisch Lautern · #karten")
                        bot.delivery.carry_out([TableMessage(chat, "T1", "Tisch")])
                        await fake.wait_for(lambda: any("needs Redis" in r.getMessage() for r in caplog.records),
                                            what="the first try failed")
                        server.start()
                        await settled(bot)
                    assert [m.content for m in fake.seen_by(0, CHANNEL)] == ["Tisch"]
        finally:
            await client.aclose()
