"""Unexpected failures in a command: a polite refusal, logged once, the table as it was."""

from __future__ import annotations

import json
import logging

from bot.protocol.outgoing import Toast
from bot.table.record import Table
from tests.servicekit import GROUP, Players, audit, button, of, press, say, service, table_msg, user


async def test_an_unexpected_error_is_refused_politely_logged_once_and_changes_nothing(store, caplog):
    svc = service(store, seed=1)
    anna, ben = user(0), user(1)
    table_id = table_msg(await svc.handle(say(GROUP, anna, "neu bauer"))).table_id
    await svc.handle(say(GROUP, ben, "mitspielen"))
    await svc.handle(say(GROUP, anna, "los"))
    version, data = await store.load(table_id)
    broken = json.loads(data)
    broken["state"] = {"game": "bauer"}  # an engine state that cannot be read (a KeyError, not a ValueError)
    assert await store.save(table_id, version, json.dumps(broken), user_keys=[anna.key, ben.key],
                            chat_key=GROUP.key)
    before = await store.load(table_id)
    fresh = service(store, seed=1)  # another process: no remembered copy of the table
    caplog.clear()
    with caplog.at_level(logging.ERROR, logger="bot.service"):
        effects = await fresh.handle(say(GROUP, anna, "spiel JC"))
    (toast,) = of(effects, Toast)
    assert toast.text == "Da ist etwas schiefgegangen. Bitte nochmal versuchen."
    failures = [r for r in caplog.records if r.name == "bot.service"]
    assert len(failures) == 1 and failures[0].exc_info is not None
    assert "JC" not in failures[0].getMessage(), "what was typed (a card of her hand) stays out of the log"
    assert await store.load(table_id) == before


async def test_a_refused_command_keeps_the_stored_state_equal_to_its_log(store):
    """The issue's rams unit=1e308: refused; the finished table replays and its rematch works in a fresh process."""
    svc = service(store, seed=6)
    anna = user(0)
    (toast,) = of(await svc.handle(say(GROUP, anna, "neu rams 3 unit=1e308")), Toast)
    assert toast.text == "Option Einsatz je Platz (unit): erlaubt ist eine Zahl von 0 bis 1000."
    players = Players(svc, GROUP, [anna], seed=2)
    table_id = table_msg(await players.send(say(GROUP, anna, "neu rams 3 unit=1000 kartoffel_fee=1000 target=1"))).table_id
    await players.send(say(GROUP, anna, "los"))
    final = await players.play_out()
    await svc.handle(say(GROUP, anna, "neu rams 3 unit=1e308"))
    counts = await audit(store, table_id)
    assert counts["table"].status == "finished"
    assert all(isinstance(x, (int, float)) for x in counts["table"].state["match"]["settlement"])
    fresh = service(store, seed=6)
    effects = await fresh.handle(press(GROUP, anna, button(final, "rematch").token))
    again = table_msg(effects)
    assert again.table_id != table_id and not of(effects, Toast)
    assert Table.load((await store.load(again.table_id))[1]).options == {"unit": 1000, "kartoffel_fee": 1000, "target": 1}
    await audit(store, again.table_id)


async def test_a_region_for_a_time_zone_is_refused_as_a_typo_and_is_no_redis_outage(store, caplog):
    """``zeitzone Europe`` named a directory of zones (IsADirectoryError, an OSError): it was taken for Redis down."""
    svc = service(store, seed=1)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        for region in ("Europe", "America", "Etc"):
            (toast,) = of(await svc.handle(say(GROUP, user(0), f"zeitzone {region}")), Toast)
            assert toast.text == "Zeitzone bitte als Name wie Europe/Berlin oder Europe/Zurich."
    assert not svc._outage.down and not caplog.records
    assert await store.get_chat_setting(GROUP.key, "tz") is None
