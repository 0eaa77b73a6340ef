"""End to end on the fake Discord: a member's flood of slash commands that change nothing stays his own business."""

from __future__ import annotations

from tests.fakes.discord.harness import FAST, fake_for, open_table, running_bot, settled

GUILD = 82_000_000_000_000_000
CHANNEL = 82_000_000_000_000_100
FLOOD = 20
BUDGET = 5
"""The default answers per person and minute in a channel (``answers_per_minute``)."""
HELP = "Stammtisch – Kartenspiele am Tisch"


async def test_a_members_flood_of_idle_commands_gets_a_few_public_answers_and_the_rest_only_he_sees(
        store, redis, key_prefix):
    """Issue 20: a member who sits at no table asks for the help and his hand again and again; the channel sees
    his budget of help texts, every refusal and everything over the budget is ephemeral, the table plays on."""
    async with fake_for(FAST) as fake:
        fake.guild(GUILD, "Stammtisch Lautern", {CHANNEL: "karten"})
        anna, ben, zed = (fake.member(1000 + i, name) for i, name in enumerate(["Anna", "Ben", "Zed"]))
        async with running_bot(fake, store, redis, key_prefix) as bot:
            await open_table(fake, CHANNEL, anna, [ben], "rams", players=3)
            answers = [await fake.answer(zed.slash(CHANNEL, verb)) for _ in range(FLOOD) for verb in ("help", "hand")]
            await settled(bot)
    public = [m.content for m in fake.seen_by(0, CHANNEL) if m.content.startswith(HELP)]
    assert len(public) == (BUDGET + 1) // 2, len(public)  # help and hand in turn: every answer counts
    private = [a["data"] for a in answers if a["data"].get("flags", 0) & 64]
    assert len(private) == len(answers) - len(public), [a["data"]["content"][:40] for a in answers]
    assert sum("nicht so schnell" in a["content"] for a in private) == 1
