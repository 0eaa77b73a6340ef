"""Files as outgoing effects: each adapter sends them, the fake platforms hold them to the platforms' limits."""

from __future__ import annotations

import asyncio
import io

import discord
import pytest
from telegram import Bot, InputFile
from telegram.error import BadRequest, TelegramError

from adapters.console import Console
from adapters.telegram.deliver import Delivery
from adapters.telegram.outbox import Outbox, Pacer
from adapters.telegram.tuning import Tuning
from bot.protocol.outgoing import FILES_MAX_BYTES, Attachment, ChatRef, Command, FileMessage
from tests.fakes.discord.harness import FAST, fake_for, running_bot
from tests.fakes.telegram import FakeTelegram
from tests.servicekit import Players, service

GROUP = -1002
GUILD, CHANNEL = 84_000_000_000_000_000, 84_000_000_000_000_100
PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 64
"""The start of a PNG: the fakes look no further."""
CSV = "match,game,winner\n1,bauer,Anna\n".encode()


def export(chat: ChatRef) -> FileMessage:
    return FileMessage(chat, (Attachment("verlauf.csv", CSV), Attachment("verlauf.json", b'{"matches": []}'),
                              Attachment("rangliste.png", PNG, picture=True)), caption="Der Verlauf")


async def _migrated(old: int, new: int) -> None:
    """No group of these tests migrates."""


def test_a_file_message_beyond_the_platforms_limits_is_refused_where_it_is_made():
    chat = ChatRef("telegram", "1")
    with pytest.raises(ValueError):
        FileMessage(chat, (Attachment("big.csv", b"x" * (FILES_MAX_BYTES + 1)),))
    with pytest.raises(ValueError):
        FileMessage(chat, ())
    with pytest.raises(ValueError):
        FileMessage(chat, (Attachment("a.csv", b"x"),), caption="x" * 1001)


async def test_telegram_sends_documents_and_a_photo_with_the_caption_on_the_first(store):
    async with FakeTelegram(group_limit=(20, 2.0), chat_limit=(1, 0.05)) as tg:
        tg.group(GROUP, "Stammtisch Lautern")
        async with Bot(tg.token, base_url=tg.base_url) as bot:
            outbox = Outbox(Pacer(Tuning(chat_messages=1, chat_window_s=0.06)), _migrated)
            delivery = Delivery(bot, store, outbox, lambda table_id: table_id, tg.username)
            delivery.carry_out([export(ChatRef("telegram", str(GROUP), title="Stammtisch Lautern"))])
            await asyncio.wait_for(outbox.idle(), 10)
    sent = tg.chat(GROUP)
    assert [(m.upload.kind, m.upload.filename, m.upload.data, m.text) for m in sent] == [
        ("document", "verlauf.csv", CSV, "Der Verlauf"), ("document", "verlauf.json", b'{"matches": []}', ""),
        ("photo", "rangliste.png", PNG, "")]
    assert tg.violations == []


async def test_the_fake_telegram_refuses_what_telegram_refuses():
    async with FakeTelegram() as tg:
        tg.group(GROUP, "Stammtisch Lautern")
        async with Bot(tg.token, base_url=tg.base_url) as bot:
            with pytest.raises(BadRequest, match="caption is too long"):
                await bot.send_document(GROUP, InputFile(CSV, filename="a.csv"), caption="x" * 1025)
            with pytest.raises(BadRequest, match="(?i)image_process_failed"):
                await bot.send_photo(GROUP, InputFile(CSV, filename="a.png"))
            with pytest.raises(TelegramError):
                await bot.send_photo(GROUP, InputFile(PNG + b"\0" * (10 * 1024 * 1024), filename="big.png"))
    assert tg.chat(GROUP) == []


async def test_discord_posts_one_message_with_every_file_attached(store, redis, key_prefix):
    async with fake_for(FAST) as fake:
        fake.guild(GUILD, "Stammtisch Lautern", {CHANNEL: "karten"})
        async with running_bot(fake, store, redis, key_prefix) as bot:
            bot.delivery.carry_out([export(ChatRef("discord", str(CHANNEL)))])
            await bot.idle()
            posted = fake.seen_by(0, CHANNEL)
            assert [(m.content, m.files) for m in posted] == [
                ("Der Verlauf", {"verlauf.csv": CSV, "verlauf.json": b'{"matches": []}', "rangliste.png": PNG})]
            channel = bot.client.get_partial_messageable(CHANNEL)
            with pytest.raises(discord.HTTPException) as too_many:
                await channel.send(files=[discord.File(io.BytesIO(b"x"), filename=f"{i}.csv") for i in range(11)])
            assert too_many.value.code == 50035
            with pytest.raises(discord.HTTPException) as too_big:
                await channel.send(files=[discord.File(io.BytesIO(b"x" * (10 * 1024 * 1024 + 1)), filename="a.csv")])
            assert too_big.value.code == 40005
    assert len(fake.seen_by(0, CHANNEL)) == 1


async def test_the_console_writes_the_files_and_prints_where(store, tmp_path):
    svc = service(store, seed=3)
    printed = []
    for login in ("anna", "ben"):  # two terminal players, one folder: the second export keeps the first
        out = io.StringIO()
        console = Console(svc, stdout=out, user=login, files_dir=tmp_path / "exports")
        players = Players(svc, console.chat, [console.user], seed=3)
        players.take(await svc.handle(Command(console.chat, console.user, verb="neu",
                                              args=("bauer", "short_deck=1", "target_brote=1"))))
        await players.play_out()
        await console.line("export")
        printed.append(out.getvalue())
    assert "» 📎 Der Verlauf von »Konsole«: 1 Partie, als CSV und JSON" in printed[0]
    first, second = sorted((tmp_path / "exports").glob("*.csv"), key=lambda p: len(p.name))
    assert second.name == first.name.replace(".csv", "-1.csv")
    for path, text in ((first, printed[0]), (second, printed[1])):
        assert path.read_text().splitlines()[1].split(",")[2] == "bauer"
        assert f"Gespeichert: {path.resolve()}" in text and f"{path.resolve().with_suffix('.json')}" in text


async def test_an_english_console_names_its_chat_in_english(store, tmp_path):
    svc = service(store, seed=3)
    out = io.StringIO()
    console = Console(svc, stdout=out, user="kurt", lang="en", files_dir=tmp_path / "exports")
    players = Players(svc, console.chat, [console.user], seed=3)
    players.take(await svc.handle(Command(console.chat, console.user, verb="new",
                                          args=("bauer", "short_deck=1", "target_brote=1"))))
    await players.play_out()
    await console.line("export")
    assert "» 📎 The history of \"Console\": 1 match, as CSV and JSON" in out.getvalue(), out.getvalue()[-500:]
