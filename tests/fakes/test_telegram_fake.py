"""The fake Bot API server answers the real python-telegram-bot as Telegram does."""

from __future__ import annotations

import asyncio

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter

from tests.fakes.telegram import FakeTelegram

GROUP = -1001


@pytest.fixture
async def tg():
    async with FakeTelegram(group_limit=(3, 0.5), chat_limit=(1, 0.1)) as server:
        server.group(GROUP, "Stammtisch Lautern")
        yield server


@pytest.fixture
async def bot(tg):
    async with Bot(tg.token, base_url=tg.base_url) as b:
        yield b


async def test_get_me_names_the_bot(tg, bot):
    me = await bot.get_me()
    assert me.username == tg.username and me.is_bot


async def test_messages_edits_and_not_modified(tg, bot):
    kb = InlineKeyboardMarkup([[InlineKeyboardButton("Mitspielen", callback_data="st1:t1:1:join:")]])
    m = await bot.send_message(GROUP, "Tisch", reply_markup=kb)
    assert tg.last(GROUP).button("Mitspielen")["callback_data"] == "st1:t1:1:join:"
    await asyncio.sleep(0.11)
    await bot.edit_message_text("Tisch 2", chat_id=GROUP, message_id=m.message_id, reply_markup=kb)
    assert tg.last(GROUP).text == "Tisch 2" and len(tg.last(GROUP).history) == 2
    with pytest.raises(BadRequest, match="not modified"):
        await bot.edit_message_text("Tisch 2", chat_id=GROUP, message_id=m.message_id, reply_markup=kb)
    with pytest.raises(BadRequest, match="not found"):
        await bot.edit_message_text("x", chat_id=GROUP, message_id=999)


async def test_message_ids_run_per_supergroup_and_per_bot_elsewhere(tg, bot):
    """A supergroup numbers its messages itself; private chats and basic groups share the bot's sequence, the
    users' messages too (which the bot cannot edit), and an id of another chat is not found in this one."""
    supergroup, basic = tg.group(-1002001, "Stammtisch Pfalz"), tg.group(-4001, "Skatrunde")
    anna, ben = tg.user(11, "Anna"), tg.user(12, "Ben")
    anna.start()
    ben.start()
    ids = [(await bot.send_message(chat, "Hallo")).message_id for chat in (supergroup, anna.id, basic, ben.id)]
    assert ids == [1, 3, 4, 5], "Anna's /start took 1, Ben's 2"
    with pytest.raises(BadRequest, match="can't be edited"):
        await bot.edit_message_text("Hallo", chat_id=anna.id, message_id=1)
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await bot.edit_message_text("Hallo", chat_id=anna.id, message_id=5)


async def test_private_chat_needs_start_and_block_is_forbidden(tg, bot):
    anna = tg.user(11, "Anna")
    with pytest.raises(Forbidden, match="initiate conversation"):
        await bot.send_message(anna.id, "Deine Karten")
    anna.start()
    await bot.send_chat_action(anna.id, "typing")
    await bot.send_message(anna.id, "Deine Karten")
    anna.block()
    with pytest.raises(Forbidden, match="blocked"):
        await bot.send_message(anna.id, "Deine Karten")


async def test_flood_limits_answer_429_and_are_recorded(tg, bot):
    await bot.send_message(GROUP, "1")
    with pytest.raises(RetryAfter):
        await bot.send_message(GROUP, "2")
    assert [v.rule for v in tg.violations] == ["chat"]
    for i in range(2):
        await asyncio.sleep(0.11)
        await bot.send_message(GROUP, str(i))
    await asyncio.sleep(0.11)
    with pytest.raises(RetryAfter):
        await bot.send_message(GROUP, "4")
    assert tg.violations[-1].rule == "group"


async def test_migrated_group_answers_with_the_new_id(tg, bot):
    tg.migrate(GROUP, -100777)
    with pytest.raises(ChatMigrated) as err:
        await bot.send_message(GROUP, "Tisch")
    assert err.value.new_chat_id == -100777
    await bot.send_message(-100777, "Tisch")


async def test_updates_by_long_polling_and_callback_answers(tg, bot):
    anna = tg.user(11, "Anna", started=True)
    m = await bot.send_message(GROUP, "Tisch", reply_markup=InlineKeyboardMarkup(
        [[InlineKeyboardButton("Mitspielen", callback_data="st1:t1:1:join:")]]))
    anna.send(GROUP, "/neu bauerchen")
    qid = anna.press(tg.last(GROUP), "Mitspielen")
    updates = await bot.get_updates(timeout=1)
    assert updates[0].message.text == "/neu bauerchen" and updates[0].message.chat.id == GROUP
    assert updates[1].callback_query.data == "st1:t1:1:join:"
    assert updates[1].callback_query.message.message_id == m.message_id
    await bot.answer_callback_query(qid, url=f"t.me/{tg.username}?start=abc")
    with pytest.raises(BadRequest, match="(?i)query is too old"):
        await bot.answer_callback_query(qid, text="again")
    assert await bot.get_updates(offset=updates[-1].update_id + 1, timeout=0) == ()
    tg.replay(updates[1].update_id)
    again = await bot.get_updates(offset=updates[-1].update_id + 1, timeout=1)
    assert [u.update_id for u in again] == [updates[1].update_id]


async def test_commands_are_validated_and_kept_per_language(tg, bot):
    from telegram import BotCommand
    await bot.set_my_commands([BotCommand("neu", "Neuer Tisch")], language_code="de")
    await bot.set_my_commands([BotCommand("new", "New table")])
    assert tg.commands["de"][0]["command"] == "neu" and tg.commands[""][0]["command"] == "new"
    with pytest.raises(BadRequest):
        await bot.set_my_commands([BotCommand("Neu!", "x")])
    with pytest.raises(BadRequest, match="(?i)bot_commands_too_much"):  # at most 100 commands
        await bot.set_my_commands([BotCommand(f"c{i}", "Ein Befehl") for i in range(101)])


async def test_a_text_over_4096_utf16_units_after_entity_parsing_is_refused(tg, bot):
    await bot.send_message(GROUP, "🃏" * 2048)  # 4,096 UTF-16 units
    await asyncio.sleep(0.11)
    with pytest.raises(BadRequest, match="(?i)message is too long"):
        await bot.send_message(GROUP, "🃏" * 2048 + "x")
    await bot.send_message(GROUP, "<b>" + "x" * 4096 + "</b>", parse_mode="HTML")  # the markup does not count
    await asyncio.sleep(0.11)
    with pytest.raises(BadRequest, match="(?i)message is too long"):
        await bot.edit_message_text("x" * 4097, chat_id=GROUP, message_id=tg.last(GROUP).message_id)


async def test_a_callback_answer_over_200_characters_is_refused(tg, bot):
    anna = tg.user(12, "Anna", started=True)
    kb = InlineKeyboardMarkup([[InlineKeyboardButton("Mitspielen", callback_data="st1:t1:1:join:")]])
    await bot.send_message(GROUP, "Tisch", reply_markup=kb)
    first, second = anna.press(tg.last(GROUP), "Mitspielen"), anna.press(tg.last(GROUP), "Mitspielen")
    with pytest.raises(BadRequest, match="(?i)message_too_long"):
        await bot.answer_callback_query(first, text="x" * 201)
    await bot.answer_callback_query(second, text="x" * 200)
    assert tg.answers[second]["text"] == "x" * 200 and first not in tg.answers


async def test_callback_data_over_64_bytes_is_refused(tg, bot):
    kb = InlineKeyboardMarkup([[InlineKeyboardButton("Mitspielen", callback_data="ü" * 33)]])
    with pytest.raises(BadRequest, match="(?i)button_data_invalid"):
        await bot.send_message(GROUP, "Tisch", reply_markup=kb)
