"""Turn timers: a reminder and an automatic move fire once, even with two processes ticking."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import engine
from bot.protocol.outgoing import HandMessage, Notice
from bot.table.record import Table
from tests.servicekit import GROUP, audit, button, let_windows_pass, of, press, say, service, table_msg, user

T0 = 1_800_000_000.0
REMIND, AUTO = 12 * 3600, 48 * 3600


def tick_in_two_processes(redis_url: str, key_prefix: str, now: float) -> list[dict]:
    procs = [subprocess.Popen([sys.executable, "-m", "tests.service_worker", "tick", redis_url, key_prefix, str(now)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    notices = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        notices += json.loads(out)
    return notices


async def start_table(store, clock, seed: int = 3):
    svc = service(store, seed=seed, clock=clock)
    anna, ben = user(0), user(1)
    table = table_msg(await svc.handle(say(GROUP, anna, "neu bauer")))
    table = table_msg(await svc.handle(press(GROUP, ben, button(table, "join").token)))
    await svc.handle(press(GROUP, anna, button(table, "start").token))
    await let_windows_pass(svc, store, table.table_id, GROUP)  # the turn timers of the play are these tests' own
    return svc, table.table_id


async def to_act(store, table_id):
    version, data = await store.load(table_id)
    table = Table.load(data)
    return version, table, table.state["to_act"]


async def test_reminder_and_autoplay_fire_once_with_two_processes(store, redis_url, key_prefix):
    now = [T0]
    svc, table_id = await start_table(store, lambda: now[0])
    version, table, seat = await to_act(store, table_id)
    assert table.seats[seat].human
    name = table.seats[seat].name
    assert await svc.tick(T0 + REMIND - 1) == []
    notices = tick_in_two_processes(redis_url, key_prefix, T0 + REMIND + 1)
    assert notices == [{"text": f"⏰ {name}, du bist dran (Bauer).", "mentions": [table.seats[seat].user.split(":")[1]]}]
    assert (await store.load(table_id))[0] == version, "a reminder changes nothing"
    notices = tick_in_two_processes(redis_url, key_prefix, T0 + AUTO + 1)
    assert len(notices) == 1 and notices[0]["text"].startswith(f"⏱ {name} war zu lange weg")
    assert notices[0]["mentions"] == [table.seats[seat].user.split(":")[1]]
    assert tick_in_two_processes(redis_url, key_prefix, T0 + AUTO + 10) == []
    counts = await audit(store, table_id)
    after = counts["table"]
    assert after.seats[seat].auto
    timer_entries = [json.loads(e) for e in await store.log(table_id) if json.loads(e)["by"] == "timer"]
    assert len(timer_entries) == 1 and timer_entries[0]["moves"][0]["by"] == "timer"
    # he takes his seat back by acting at the table
    now[0] = T0 + AUTO + 100
    owner = user(0) if after.seats[seat].user == user(0).key else user(1)
    effects = await svc.handle(say(GROUP, owner, "hand"))
    assert of(effects, HandMessage)
    assert not (await audit(store, table_id))["table"].seats[seat].auto


async def test_the_computer_naming_trump_for_a_person_says_it_names_trump(store):
    for seed in range(20):  # a deal where a person is to name trump first
        svc, table_id = await start_table(store, lambda: T0, seed)
        _, table, seat = await to_act(store, table_id)
        if table.seats[seat].human:
            break
        await svc.handle(say(GROUP, user(0), "abbrechen"))
    assert engine.legal_actions(engine.from_json(table.state))[0].kind == "name_trump"
    await svc.tick(T0 + REMIND + 1)  # the reminder first
    notices = of(await svc.tick(T0 + AUTO + 1), Notice)
    assert len(notices) == 1 and re.search(r" den Platz und tauft [♣♠♥♦] (Kreuz|Pik|Herz|Karo)\. ", notices[0].text), \
        notices[0].text


async def test_a_timer_of_an_old_version_does_nothing(store):
    now = [T0]
    svc, table_id = await start_table(store, lambda: now[0])
    version, table, seat = await to_act(store, table_id)
    mover = user(0) if table.seats[seat].user == user(0).key else user(1)
    hand = of(await svc.handle(say(GROUP, mover, "hand")), HandMessage)[0]
    now[0] = T0 + 60
    await svc.handle(press(GROUP, mover, hand.buttons[0][0].token))
    assert (await store.load(table_id))[0] == version + 1
    # the old version's reminder is due but gone; the new version's fires if a person is to act
    assert await svc.tick(T0 + REMIND + 1) == []
    _, table, seat = await to_act(store, table_id)
    notices = of(await svc.tick(T0 + 60 + REMIND + 1), Notice)
    assert len(notices) == (1 if table.seats[seat].human else 0)


async def test_timers_off(store):
    now = [T0]
    svc = service(store, seed=3, clock=lambda: now[0], autoplay_after="off", reminder_after="off")
    anna = user(0)
    await svc.handle(say(GROUP, anna, "neu bauer"))
    table_id = table_msg(await svc.handle(say(GROUP, anna, "los"))).table_id
    await let_windows_pass(svc, store, table_id, GROUP)
    assert await store.due(T0 + 10 * AUTO) == []


async def test_a_change_by_someone_else_does_not_push_the_turn_timer(store):
    now = [T0]
    svc, table_id = await start_table(store, lambda: now[0])
    version, table, seat = await to_act(store, table_id)
    other = user(1) if table.seats[seat].user == user(0).key else user(0)
    now[0] = T0 + 3600
    await svc.handle(say(GROUP, other, "sprache en"))
    assert (await store.load(table_id))[0] == version + 1, "the language switch was saved"
    due = await store.due(T0 + REMIND + 1)
    assert [(t, k) for t, _, k in due if t == table_id] == [(table_id, "remind")], "the turn started at T0"


async def test_one_broken_table_does_not_hide_the_other_tables_timers(store):
    now = [T0]
    svc, broken = await start_table(store, lambda: now[0])
    other_chat = GROUP.__class__(GROUP.platform, "g2", title="Other")
    anna, ben = user(0), user(1)
    table = table_msg(await svc.handle(say(other_chat, anna, "neu bauer")))
    table = table_msg(await svc.handle(press(other_chat, ben, button(table, "join").token)))
    await svc.handle(press(other_chat, anna, button(table, "start").token))
    await let_windows_pass(svc, store, table.table_id, other_chat)
    version, data = await store.load(broken)
    assert await store.save(broken, version, '{"not": "a table"}', user_keys=[], chat_key=GROUP.key)
    await store.schedule(broken, version + 1, "remind", T0 + REMIND)
    fresh = service(store, seed=3, clock=lambda: now[0])  # no cached copy of the broken table
    notices = of(await fresh.tick(T0 + REMIND + 1), Notice)
    assert len(notices) == 1 and notices[0].chat == other_chat


async def test_an_automatic_move_is_told_before_the_result_it_leads_to(store):
    now = [T0]
    svc = service(store, seed=3, clock=lambda: now[0])
    anna = user(0)
    await svc.handle(say(GROUP, anna, "neu bauerchen"))
    for _ in range(3):
        await svc.handle(say(GROUP, anna, "computer"))
    table_id = table_msg(await svc.handle(say(GROUP, anna, "los"))).table_id
    await let_windows_pass(svc, store, table_id, GROUP)
    _, table, seat = await to_act(store, table_id)
    assert table.seats[seat].user == anna.key
    assert of(await svc.tick(T0 + REMIND + 1), Notice), "first the reminder"
    # the computers play for her from her first automatic move on: the deal ends in this tick
    effects = await svc.tick(T0 + AUTO + 1)
    notices = of(effects, Notice)
    assert [n.result for n in notices] == [False, True], [n.text for n in notices]
    assert notices[0].text.startswith("⏱ Anna")
    assert effects.index(notices[0]) < effects.index(table_msg(effects)) < effects.index(notices[1])
