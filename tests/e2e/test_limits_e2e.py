"""Seven players with the longest names play Rams on Telegram and on Discord: every message fits, none is
refused."""

from __future__ import annotations

from tests.fakes.discord import harness as discord
from tests.fakes.telegram.harness import FAST, Players, fake_for, open_table, running_bot, watching

GROUP = -100456
REFUSED = ("sendMessage", "editMessageText", "answerCallbackQuery")


async def test_seven_players_with_the_longest_emoji_names_get_every_message(store, redis, key_prefix):
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "🃏" * 128)
        users = [tg.user(31 + i, "🂡" * 62 + f"{i:02d}", started=True) for i in range(7)]
        async with running_bot(tg, store, redis, key_prefix):
            tid = await open_table(tg, GROUP, users[0], users[1:], "rams", "7")
            async with watching(store, tid) as latest:
                await Players(tg, users, tid, store, seed=9).play(lambda: latest() and latest().deals >= 6,
                                                                   timeout=240)
        assert [(m, p.get("text", "")[:40]) for _, m, p, status in tg.calls if m in REFUSED and status == 400] == []
        assert any("🂡" * 15 + "…" in m.text for m in tg.chat(GROUP)), "names are shown cut"


async def test_seven_players_with_the_longest_discord_names_get_every_message(store, redis, key_prefix):
    guild, channel = 85_000_000_000_000_000, 85_000_000_000_000_100
    async with discord.fake_for(discord.FAST) as fake:
        fake.guild(guild, "Stammtisch", {channel: "karten"})
        members = [fake.member(4000 + i, f"{i}" + "🂡" * 31, dms_open=i != 6) for i in range(7)]
        async with discord.running_bot(fake, store, redis, key_prefix):
            tid = await discord.open_table(fake, channel, members[0], members[1:], "rams", players=7)
            async with watching(store, tid) as latest:
                await discord.Players(fake, members, channel, tid, store, seed=9).play(
                    lambda: latest() and latest().deals >= 6, timeout=240)
        assert [c for c in fake.calls if c.status == 400] == []
        assert any(f"1{'🂡' * 14}…" in m.content for m in fake.seen_by(0, channel)), "names are shown cut"
