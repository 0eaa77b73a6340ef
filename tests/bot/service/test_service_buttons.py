"""Buttons count only where their table is: group verbs in the table's chat, hand verbs also in a private chat."""

from __future__ import annotations

import pytest

from bot.protocol import tokens
from bot.protocol.outgoing import ChatRef, HandMessage, TableMessage, Toast
from bot.table.record import Table
from tests.servicekit import GROUP, Players, button, of, press, private, say, service, table_msg, user

OTHER = ChatRef("test", "g2", title="Anderer Stammtisch")


async def lobby(svc):
    anna, ben = user(0), user(1)
    table = table_msg(await svc.handle(say(GROUP, anna, "neu bauerchen")))
    table = table_msg(await svc.handle(press(GROUP, ben, button(table, "join").token)))
    return table


@pytest.mark.parametrize("verb", ["join", "leave", "start", "bot", "botx", "opts", "opt", "rules"])
@pytest.mark.parametrize("where", ["private", "other group"])
async def test_group_buttons_pressed_elsewhere_are_refused(store, verb, where):
    svc = service(store)
    table = await lobby(svc)
    emil = user(4) if verb == "join" else user(1)
    chat = private(emil) if where == "private" else OTHER
    if verb in ("opts", "opt"):
        emil = user(0)
        chat = private(emil) if where == "private" else OTHER
    token = tokens.make(table.table_id, (await store.load(table.table_id))[0], verb, "0" if verb == "opt" else "")
    before = await store.load(table.table_id)
    effects = await svc.handle(press(chat, emil, token))
    assert [e.text for e in of(effects, Toast)] == ["Dieser Knopf gilt nicht."]
    assert not of(effects, TableMessage)
    assert await store.load(table.table_id) == before


async def test_rematch_and_new_only_in_the_tables_chat(store):
    svc = service(store, seed=3)
    anna, ben = user(0), user(1)
    players = Players(svc, GROUP, [anna, ben], seed=1)
    table = table_msg(await players.send(say(GROUP, anna, "neu rams 3 target=1")))
    await players.send(press(GROUP, ben, button(table, "join").token))
    await players.send(say(GROUP, anna, "los"))
    final = await players.play_out()
    for verb in ("rematch", "new"):
        for chat, who in ((private(ben), ben), (OTHER, ben), (private(anna), anna)):
            effects = await svc.handle(press(chat, who, button(final, verb).token))
            assert [e.text for e in of(effects, Toast)] == ["Dieser Knopf gilt nicht."], (verb, chat)
            assert await store.table_for_chat(chat.key) is None
    assert not Table.load((await store.load(final.table_id))[1]).rematched
    effects = await svc.handle(press(GROUP, ben, button(final, "rematch").token))
    assert not of(effects, Toast) and await store.table_for_chat(GROUP.key) is not None


async def test_hand_buttons_work_in_the_tables_chat_and_the_pressers_private_chat(store):
    svc = service(store, seed=2)
    table = await lobby(svc)
    anna = user(0)
    await svc.handle(press(GROUP, anna, button(table, "start").token))
    version = (await store.load(table.table_id))[0]
    token = tokens.make(table.table_id, version, "hand")
    for chat in (GROUP, private(anna)):
        assert of(await svc.handle(press(chat, anna, token)), HandMessage)
    assert of(await svc.handle(press(OTHER, anna, token)), Toast)[0].text == "Dieser Knopf gilt nicht."
    hands = [(who, of(await svc.handle(press(private(who), who, token)), HandMessage)) for who in map(user, range(4))]
    who, (hand,) = next((w, h) for w, h in hands if h and "Du bist dran" in h[0].text)
    acts = [b for row in hand.buttons for b in row if ":act:" in b.token and ":act:pl." not in b.token]  # his choices
    before = await store.load(table.table_id)  # whoever decides: it counts from his private chat, not another group
    assert of(await svc.handle(press(OTHER, who, acts[0].token)), Toast)
    assert await store.load(table.table_id) == before
    effects = await svc.handle(press(private(who), who, acts[0].token))
    assert not of(effects, Toast) and (await store.load(table.table_id))[0] > before[0]


@pytest.mark.parametrize("text", [
    "st1:abcd:1:join:\n", "st1:abcd:1:join:", "st1:abcd:\u0661:join:", "st1:abcd:1:join:\u0661",
    " st1:abcd:1:join:", "st1:abcd:1:join: ", "st1:abcd:1:Join:", "st1:abcd:-1:join:", "st1:abcd:1:join:a:b",
])
def test_tokens_parse_strictly(text):
    expected = tokens.Token("abcd", 1, "join") if text == "st1:abcd:1:join:" else None
    assert tokens.parse(text) == expected


async def test_who_left_has_no_opener_powers(store):
    svc = service(store, seed=2)
    anna, ben = user(0), user(1)
    table = await lobby(svc)
    await svc.handle(say(GROUP, anna, "aufstehen"))
    (toast,) = of(await svc.handle(say(GROUP, anna, "option target_steine 2")), Toast)
    assert toast.text == "Du sitzt nicht an diesem Tisch."
    (toast,) = of(await svc.handle(say(GROUP, anna, "los")), Toast)
    assert toast.text == "Du sitzt nicht an diesem Tisch."
    await svc.handle(say(GROUP, anna, "mitspielen"))
    await svc.handle(say(GROUP, anna, "los"))
    await svc.handle(say(GROUP, anna, "aufstehen"))
    (toast,) = of(await svc.handle(say(GROUP, anna, "abbrechen")), Toast)
    assert toast.text == "Du sitzt nicht an diesem Tisch."
    assert Table.load((await store.load(table.table_id))[1]).status == "playing"
    effects = await svc.handle(say(GROUP, ben, "abbrechen"))
    assert Table.load((await store.load(table.table_id))[1]).status == "aborted", effects
