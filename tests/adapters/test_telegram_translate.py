"""Slash commands, updates to commands, keyboards and mentions of the Telegram adapter."""

from __future__ import annotations

import pytest
from telegram import Update

from adapters.telegram import commands, markup
from adapters.telegram.translate import command_of, migration_of
from bot.protocol.outgoing import Button, UserRef

BOT = "stammtisch_test_bot"
ANNA = {"id": 11, "is_bot": False, "first_name": "Anna", "last_name": "Maier", "language_code": "en-GB"}
GROUP = {"id": -1001, "type": "supergroup", "title": "Stammtisch Lautern", "is_forum": True}


def update(**body) -> Update:
    return Update.de_json({"update_id": 7, **body}, None)


def message(text: str, chat=GROUP, **extra) -> dict:
    return {"message_id": 3, "date": 0, "chat": chat, "from": ANNA, "text": text, **extra}


@pytest.mark.parametrize(("text", "private", "expected"), [
    ("/neu bauerchen", False, ("new", ("bauerchen",))),
    ("/new bauerchen 4", False, ("new", ("bauerchen", "4"))),
    (f"/mitspielen@{BOT}", False, ("join", ())),
    ("/MITSPIELEN", False, ("join", ())),
    ("/computer", False, ("bot", ())),
    ("/start abc_DEF-1", True, ("start", ("abc_DEF-1",))),
    ("/neu@other_bot bauerchen", False, None),
    ("/unknown", False, None),
    (f"/unknown@{BOT}", False, ("unknown", ())),
    ("/unknown", True, ("unknown", ())),
    (f"/migrate@{BOT} -100999", False, ("migrate", ("-100999",))),
    ("/migrate -100999", True, ("migrate", ("-100999",))),
    ("hallo", True, None),
    ("/", True, None),
])
def test_parse_commands(text, private, expected):
    assert commands.parse(text, BOT, private) == expected


def test_menus_in_both_languages_cover_the_same_verbs():
    de, en = commands.menu("de"), commands.menu("en")
    assert [n for n, _ in de][:2] == ["neu", "mitspielen"] and [n for n, _ in en][:2] == ["new", "join"]
    assert len(de) == len(en) == len(commands.ENTRIES)
    assert {commands.VERBS[n] for n, _ in de} == {commands.VERBS[n] for n, _ in en}


def test_a_command_in_a_forum_topic_names_the_topic():
    cmd = command_of(update(message=message("/neu bauerchen", message_thread_id=42, is_topic_message=True)), BOT)
    assert cmd.verb == "new" and cmd.args == ("bauerchen",)
    assert (cmd.chat.chat_id, cmd.chat.thread, cmd.chat.title, cmd.chat.private) == ("-1001", "42",
                                                                                       "Stammtisch Lautern", False)
    assert (cmd.user.user_id, cmd.user.name, cmd.lang, cmd.update_id) == ("11", "Anna Maier", "en", "7")


def test_a_private_start_with_payload():
    chat = {"id": 11, "type": "private", "first_name": "Anna"}
    cmd = command_of(update(message=message("/start pay_load", chat=chat)), BOT)
    assert cmd.verb == "start" and cmd.args == ("pay_load",) and cmd.chat.private and cmd.chat.chat_id == "11"


def test_a_press_passes_the_callback_data_untouched():
    press = {"id": "q1", "from": ANNA, "chat_instance": "x", "data": "forged:<script>",
             "message": {**message("Tisch"), "from": {"id": 1, "is_bot": True, "first_name": "B"}}}
    cmd = command_of(update(callback_query=press), BOT)
    assert cmd.token == "forged:<script>" and cmd.verb == "" and cmd.chat.chat_id == "-1001"


def test_migration_and_chatter():
    moved = update(message={"message_id": 3, "date": 0, "chat": {**GROUP, "type": "group"},
                            "migrate_to_chat_id": -100555})
    assert command_of(moved, BOT) is None
    old, new = migration_of(moved)
    assert old.chat_id == "-1001" and new == "-100555"
    assert migration_of(update(message=message("/neu"))) is None
    assert command_of(update(message=message("guten Abend")), BOT) is None
    assert command_of(update(edited_message=message("/neu")), BOT) is None


def test_keyboard_rows_tokens_and_urls():
    kb = markup.keyboard([(Button("A♠", token="st1:t1:3:play:AS"), Button("Hilfe", url="https://t.me/x")), ()])
    data = kb.to_dict()["inline_keyboard"]
    assert data == [[{"text": "A♠", "callback_data": "st1:t1:3:play:AS"}, {"text": "Hilfe", "url": "https://t.me/x"}]]
    assert markup.keyboard([]) is None


def test_mentions_mark_names_in_utf16_units_or_append_them():
    text, entities = markup.mentions("🃏 Anna ist dran, dann Ben", [UserRef("telegram", "11", "Anna"),
                                                                  UserRef("telegram", "12", "Cleo")])
    assert text == "🃏 Anna ist dran, dann Ben Cleo"
    anna, cleo = entities
    assert (anna.offset, anna.length, anna.user.id) == (3, 4, 11)
    assert (cleo.type, cleo.user.id) == ("text_mention", 12)
    assert text.encode("utf-16-le")[cleo.offset * 2:(cleo.offset + cleo.length) * 2].decode("utf-16-le") == "Cleo"


def test_deep_link():
    assert markup.deep_link(BOT, "abc") == f"https://t.me/{BOT}?start=abc"
