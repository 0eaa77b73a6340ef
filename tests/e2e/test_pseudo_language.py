"""End to end in a pseudo language: every text the bot sends comes from the catalogs and fits the platforms.

A pseudo catalog is made from the German one (:mod:`tests.pseudo`: every text between ``⟦ ⟧`` and a third
longer, what it is given between ``⟪ ⟫``) and given to the bot as a further language
(``STAMMTISCH_LOCALE_DIR``). On the fake Telegram and the fake Discord, with the real adapters, each chat
chooses it (``sprache``, ``/language``), and in each a person plays a deal of one game against computer
players (Bauernstoß and Rams to the match's end), and asks for the sheet (Telegram's ``zettel``; Discord
shows a match's sheet in ``/history``); in the chats of the finished matches he asks the memory everything
it answers. Then every message the fakes received, every version of it, every button and every toast is
checked, and Telegram's command menu in the language: no call was refused (too long, too many buttons, a
label over 80 ...), and no word stands where a catalog text should have stood
(:func:`tests.pseudo.fallbacks`).
"""

from __future__ import annotations

import asyncio

import pytest

from bot.words import GAME_WORDS
from tests.fakes.discord import FakeDiscord
from tests.fakes.discord import harness as discord_kit
from tests.fakes.telegram import FakeTelegram
from tests.fakes.telegram import harness as telegram_kit
from tests.pseudo import fallbacks, loaded

GAMES = {"bauernstoss": ("target=1",), "alter_schafkopf": (), "bauerchen": (), "bauer": ("short_deck=1",),
         "rams": ("target=1",)}
"""Each game with the options of its table."""
FINISHED = ("bauernstoss", "rams")
"""The games played to the match's end (a target of one: after a deal or two), which the memory then holds."""
NAMES = ["Anna", "Ben", "Cleo", "Dora", "Emil"]
STRANGER = "Zed"
"""A name asked for that nobody at the table has (its answer repeats it)."""
GROUP_TITLE = "Stammtisch Lautern"
CHANNEL = "karten"
ALLOWED = frozenset(NAMES) | {STRANGER} | frozenset(GROUP_TITLE.split()) | {CHANNEL, "Fr"} | frozenset(GAME_WORDS)
"""The words no catalog owns: the players' and the chat's names, the table's currency (``Fr.``, a setting of
the group) and the games' words a player types (the help lists them)."""
SETTINGS = {"answers_per_minute": 100}
"""The memory is asked everything in a minute: the answers' budget must not hold any back."""
TELEGRAM_SENDS = {"sendMessage", "editMessageText", "editMessageReplyMarkup", "answerCallbackQuery", "sendDocument",
                  "sendPhoto", "editMessageCaption", "setMyCommands"}


@pytest.fixture
def pseudo():
    """The pseudo language, a further language of the bot while the test runs."""
    with loaded() as lang:
        yield lang


async def test_every_game_and_the_memory_on_telegram(store, redis, key_prefix, pseudo):
    async with telegram_kit.fake_for(telegram_kit.FAST) as tg:
        users = [tg.user(11 + i, name, started=True) for i, name in enumerate(NAMES)]
        groups = [-100700 - i for i in range(len(GAMES))]
        for group in groups:
            tg.group(group, GROUP_TITLE)
        async with telegram_kit.running_bot(tg, store, redis, key_prefix, **SETTINGS) as bot:
            await asyncio.gather(*(_telegram_game(tg, store, group, user, game, pseudo)
                                   for group, user, game in zip(groups, users, GAMES)))
            await telegram_kit.settled(tg, bot)
            await bot.service.tables.counted()
            for group, user, game in zip(groups, users, GAMES):
                if game in FINISHED:
                    await _telegram_memory(tg, group, user, game)
            await telegram_kit.settled(tg, bot)
        refused = [(m, p) for _, m, p, status in tg.calls if m in TELEGRAM_SENDS and status in (400, 413)]
        assert refused == [], refused[:3]
        found = {text: bad for text in _telegram_texts(tg) if (bad := fallbacks(text, ALLOWED))}
        assert found == {}, list(found.items())[:5]
        menu = [c["description"] for c in tg.commands[pseudo]]
        assert menu and {text: bad for text in menu if (bad := fallbacks(text, ALLOWED))} == {}


async def _telegram_game(tg: FakeTelegram, store, group: int, user, game: str, lang: str) -> None:
    """In ``group`` the chat chooses ``lang``, ``user`` plays a deal of ``game`` (its match if it is
    :data:`FINISHED`) against computers, and asks for the sheet and the table."""
    user.send(group, f"/sprache {lang}")
    await tg.wait_for(lambda: tg.chat(group), what="the language set")
    tid = await telegram_kit.open_table(tg, group, user, [], game, *GAMES[game])
    players = telegram_kit.Players(tg, [user], tid, store, careful=True, sensible=True)
    async with telegram_kit.watching(store, tid) as latest:
        await players.play(lambda: _done(latest(), game))
    before = len(tg.chat(group))
    user.send(group, "/zettel")
    await tg.wait_for(lambda: len(tg.chat(group)) > before, what="the sheet")


def _done(table, game: str) -> bool:
    """Whether ``table`` has played what the test needs of ``game``: a deal, or the match."""
    return table is not None and (table.status == "finished" or (game not in FINISHED and bool(table.sheet)))


async def _telegram_memory(tg: FakeTelegram, group: int, user, game: str) -> None:
    """``user`` asks the memory everything in ``group``, where he finished a match of ``game``; he is made an
    admin and starts a season, and asks to be forgotten (and confirms); each answer awaited."""
    lines = ["/statistik", f"/statistik {user.first_name}", f"/statistik {STRANGER}", f"/rangliste {game}",
             "/rangliste bauerchen", "/verlauf", "/verlauf 1", "/abend", "/export", f"/bild {game}", "/saison neu",
             "/statistik aus", "/statistik an", "/hilfe", f"/regeln {game}"]
    for line in lines:
        await _telegram_answer(tg, group, user, line)
    tg.make_admin(group, user)
    await _telegram_answer(tg, group, user, "/saison neu")
    await _telegram_answer(tg, group, user, "/vergessen")
    await _telegram_answer(tg, group, user, "/vergessen")  # confirmed


async def _telegram_answer(tg: FakeTelegram, group: int, user, line: str) -> None:
    """``user`` types ``line`` in ``group``; wait for the answer there or in his private chat."""
    def count() -> int:
        return len(tg.chat(group)) + len(tg.chat(user.id))
    seen = count()
    user.send(group, line)
    await tg.wait_for(lambda: count() > seen, what=f"the answer to {line}")


def _telegram_texts(tg: FakeTelegram) -> list[str]:
    """Every text the fake Telegram received: each version of each message, its buttons, every toast."""
    out = []
    for chat in tg.messages.values():
        for message in chat.values():
            for text, markup in message.history or [(message.text, message.markup)]:
                out.append(text)
                out += [b["text"] for row in (markup or {}).get("inline_keyboard", []) for b in row]
    out += [a["text"] for a in tg.answers.values() if a.get("text")]
    return out


async def test_every_game_and_the_memory_on_discord(store, redis, key_prefix, pseudo):
    async with discord_kit.fake_for(discord_kit.FAST) as fake:
        channels = {900_000 + i: game for i, game in enumerate(GAMES)}
        fake.guild(800_000, GROUP_TITLE, {c: CHANNEL for c in channels})
        members = [fake.member(3000 + i, name) for i, name in enumerate(NAMES)]
        async with discord_kit.running_bot(fake, store, redis, key_prefix, **SETTINGS) as bot:
            await asyncio.gather(*(_discord_game(fake, store, channel, member, game, pseudo)
                                   for (channel, game), member in zip(channels.items(), members)))
            await discord_kit.settled(bot)
            await bot.service.tables.counted()
            for (channel, game), member in zip(channels.items(), members):
                if game in FINISHED:
                    await _discord_memory(fake, channel, member, game)
            await discord_kit.settled(bot)
        refused = [c for c in fake.calls if c.status in (400, 413)]
        assert refused == [], refused[:3]
        found = {text: bad for text in _discord_texts(fake) if (bad := fallbacks(text, ALLOWED))}
        assert found == {}, list(found.items())[:5]


async def _discord_game(fake: FakeDiscord, store, channel: int, member, game: str, lang: str) -> None:
    """As :func:`_telegram_game`, in a Discord channel with slash commands."""
    await _discord_answer(fake, channel, member, "language", lang=lang)
    tid = await discord_kit.open_table(fake, channel, member, [], game, **_options(GAMES[game]))
    players = discord_kit.Players(fake, [member], channel, tid, store, careful=True, sensible=True)
    async with telegram_kit.watching(store, tid) as latest:
        await players.play(lambda: _done(latest(), game))
    await _discord_answer(fake, channel, member, "table")


def _options(words: tuple[str, ...]) -> dict[str, int]:
    """Typed options (``name=1``) as the slash command's."""
    return {name: int(value) for name, value in (w.split("=") for w in words)}


async def _discord_memory(fake: FakeDiscord, channel: int, member, game: str) -> None:
    """As :func:`_telegram_memory`, with slash commands."""
    for command, options in [("stats", {}), ("stats", {"player": member.name}), ("stats", {"player": STRANGER}),
                             ("ranking", {"game": game}), ("ranking", {"game": "bauerchen"}), ("history", {}),
                             ("history", {"match": 1}), ("tonight", {}), ("export", {}), ("chart", {"game": game}),
                             ("season", {"action": "new"}), ("stats", {"count": "off"}), ("stats", {"count": "on"}),
                             ("help", {}), ("rules", {"game": game})]:
        await _discord_answer(fake, channel, member, command, **options)
    member.admin = True
    await _discord_answer(fake, channel, member, "season", action="new")
    await _discord_answer(fake, channel, member, "forget")
    await _discord_answer(fake, channel, member, "forget")  # confirmed


async def _discord_answer(fake: FakeDiscord, channel: int, member, command: str, **options) -> None:
    """``member`` runs ``/command``; wait for its answer, and for the message that follows a deferred one."""
    before = set(fake.messages)
    answer = await fake.answer(member.slash(channel, command, **options))
    assert answer["type"] in (4, 5), answer
    if answer["type"] == 5:
        await fake.wait_for(lambda: any(m.channel_id == channel for i, m in fake.messages.items() if i not in before),
                            what=f"the answer to /{command}")


def _discord_texts(fake: FakeDiscord) -> list[str]:
    """Every text the fake Discord received: each version of each message, its buttons' labels."""
    out = []
    for message in fake.messages.values():
        for content, components in message.history or [(message.content, message.components)]:
            out.append(content or "")
            out += [b.get("label") or "" for row in components or [] for b in row.get("components", [])]
    return [text for text in out if text]
