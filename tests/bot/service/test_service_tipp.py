"""The hint (»Tipp«) through the service: one of the asker's choices with its reason, to him alone; refused with
the reason where the table does not allow it; one at a time per person; the match marked for him."""

from __future__ import annotations

import engine
from bot.protocol.outgoing import HandMessage, Notice, TableMessage, Toast
from bot.table.record import Table
from bot.words.buttons import action_label
from tests.servicekit import GROUP, act_buttons, button, of, playable, press, private, say, service, table_msg, user

CHEAP = {"tipp_samples": 4}
"""Hints over few sampled deals: these tests are about who hears what, not about the hint's quality."""


async def stored(store, table_id: str) -> Table:
    return Table.load((await store.load(table_id))[1])


async def on_turn(svc, store, chat, anna, effects) -> tuple[HandMessage, Table]:
    """Play Anna's choices (the first she may) until she has more than one thing to decide; her hand then."""
    hand = next(h for h in reversed(of(effects, HandMessage)) if h.user == anna)
    table = await stored(store, hand.table_id)
    while True:
        who, allowed = playable(table)
        if table.declare:
            effects = await svc.handle(say(chat, anna, "weiter"))
        elif who == anna.key and len(allowed) > 1:
            return hand, table
        elif who == anna.key:
            effects = await svc.handle(press(chat, anna, act_buttons(hand, allowed)[0].token))
        else:
            raise AssertionError("nobody to act")
        table = await stored(store, table.id)
        hand = next((h for h in of(effects, HandMessage) if h.user == anna), hand)


def labels(table: Table, seat: int) -> set[str]:
    """The labels of everything ``seat`` may decide now."""
    state = engine.from_json(table.state)
    view = engine.view(state, seat)
    return {action_label(table.lang, engine.Action.from_dict(a), table.game, view) for a in view["legal"]}


async def test_a_hint_names_one_of_his_choices_and_is_his_alone(store):
    anna = user(0)
    svc = service(store, seed=3, **CHEAP)
    effects = await svc.handle(say(private(anna), anna, "neu bauerchen"))
    hand, table = await on_turn(svc, store, private(anna), anna, effects)
    out = await svc.handle(press(private(anna), anna, button(hand, "tipp").token))
    (toast,) = out
    assert isinstance(toast, Toast) and toast.secret and toast.user == anna
    choice = toast.text.removeprefix("💡 ").partition(" – ")[0]
    assert choice in labels(table, table.seat_of(anna.key)), toast.text
    assert "von" in toast.text and "Verteilungen" in toast.text
    after = await stored(store, table.id)
    assert after.hinted == [anna.key] and after.state == table.state  # marked; nothing else changed
    again = await svc.handle(say(private(anna), anna, "tipp"))  # typed, a second time: marked once
    assert [type(o) for o in again] == [Toast] and again[0].secret
    assert (await stored(store, table.id)).hinted == [anna.key]


async def test_a_table_of_people_refuses_hints_unless_its_opener_allowed_them(store):
    anna, ben = user(0), user(1)
    svc = service(store, seed=1, **CHEAP)
    await svc.handle(say(GROUP, anna, "neu bauerchen"))
    await svc.handle(say(GROUP, ben, "mitspielen"))
    await svc.handle(say(GROUP, anna, "los"))
    (refused,) = await svc.handle(say(GROUP, anna, "tipp"))
    assert isinstance(refused, Toast) and "keine Tipps" in refused.text and "option tipps an" in refused.text
    table_id = await store.table_for_chat(GROUP.key)
    assert (await stored(store, table_id)).hinted == []
    (late,) = await svc.handle(say(GROUP, anna, "option tipps an"))  # only before the start
    assert "läuft schon" in late.text

    await svc.handle(say(GROUP, anna, "abbrechen"))
    await svc.handle(say(GROUP, anna, "neu bauerchen"))
    await svc.handle(say(GROUP, ben, "mitspielen"))
    lobby = table_msg(await svc.handle(say(GROUP, anna, "option tipps an")))
    assert "Tipps an" in lobby.text
    effects = await svc.handle(say(GROUP, anna, "los"))
    table = await stored(store, table_msg(effects).table_id)
    who = playable(table)[0]
    asker = anna if who == anna.key else ben
    out = await svc.handle(say(GROUP, asker, "tipp"))
    (toast,) = of(out, Toast)
    assert toast.secret and toast.user == asker and toast.text.startswith("💡")
    assert not of(out, Notice) and not of(out, TableMessage)  # nothing of it in the group


async def test_one_hint_at_a_time_per_person(store):
    anna = user(0)
    svc = service(store, seed=3, **CHEAP)
    effects = await svc.handle(say(private(anna), anna, "neu bauerchen"))
    hand, _ = await on_turn(svc, store, private(anna), anna, effects)
    wait, member = await store.limiter.begin(f"tipp:{anna.key}", 1, 1e-6, 10.0)  # one of his hints is running
    assert wait == 0
    (busy,) = await svc.handle(press(private(anna), anna, button(hand, "tipp").token))
    assert busy.text == "Ich überlege noch an deinem letzten Tipp."
    await store.limiter.end(f"tipp:{anna.key}", member)
    (toast,) = await svc.handle(press(private(anna), anna, button(hand, "tipp").token))
    assert toast.text.startswith("💡")


async def test_a_hint_cannot_be_asked_in_someone_elses_chat(store):
    anna, ben = user(0), user(1)
    svc = service(store, seed=3, **CHEAP)
    effects = await svc.handle(say(private(anna), anna, "neu bauerchen"))
    hand, _ = await on_turn(svc, store, private(anna), anna, effects)
    (refused,) = await svc.handle(press(GROUP, anna, button(hand, "tipp").token))
    assert not refused.text.startswith("💡")
    (stranger,) = await svc.handle(press(private(ben), ben, button(hand, "tipp").token))
    assert not stranger.text.startswith("💡")
    assert act_buttons(hand)  # her hand's own buttons are untouched by it


async def test_the_lobbys_option_button_switches_hints(store):
    anna, ben = user(0), user(1)
    svc = service(store, seed=1, **CHEAP)
    await svc.handle(say(GROUP, anna, "neu bauer"))
    lobby = table_msg(await svc.handle(say(GROUP, ben, "mitspielen")))
    panel = table_msg(await svc.handle(press(GROUP, anna, button(lobby, "opts").token)))
    assert button(panel, "tipps").label == "Tipps: aus"  # two people: off unless set
    (refused,) = await svc.handle(press(GROUP, ben, button(panel, "tipps").token))
    assert "Anna" in refused.text  # only the opener
    switched = table_msg(await svc.handle(press(GROUP, anna, button(panel, "tipps").token)))
    assert button(switched, "tipps").label == "Tipps: an" and "Tipps an" in switched.text
