"""Pace presets per table and quiet hours per chat: the timers follow them."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.ops import clock
from bot.protocol.outgoing import Notice, Toast
from bot.table import pace
from bot.table.record import Table
from tests.servicekit import GROUP, button, let_windows_pass, of, press, say, service, table_msg, user

BERLIN = ZoneInfo("Europe/Berlin")


def at(text: str, zone: ZoneInfo = BERLIN) -> float:
    """Epoch seconds of a local time ``YYYY-MM-DD HH:MM``."""
    return datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=zone).timestamp()


def test_quiet_end():
    quiet = clock.quiet_from_text("23-7")
    assert clock.quiet_end(at("2027-01-15 22:59"), quiet, "Europe/Berlin") is None
    assert clock.quiet_end(at("2027-01-15 23:00"), quiet, "Europe/Berlin") == at("2027-01-16 07:00")
    assert clock.quiet_end(at("2027-01-16 03:10"), quiet, "Europe/Berlin") == at("2027-01-16 07:00")
    assert clock.quiet_end(at("2027-01-16 07:00"), quiet, "Europe/Berlin") is None
    day = clock.quiet_from_text("13:30 - 14:00")
    assert clock.quiet_end(at("2027-01-16 13:45"), day, "Europe/Berlin") == at("2027-01-16 14:00")
    assert clock.quiet_end(at("2027-03-28 01:30"), quiet, "Europe/Berlin") == at("2027-03-28 07:00"), "DST night"
    assert clock.quiet_end(at("2027-01-16 03:10"), None, "Europe/Berlin") is None


@pytest.mark.parametrize("text", ["", "25-7", "7-7", "23:60-7", "abends", "1-2-3", "x" * 5000,
                                  "00:00-23:59", "7-23:01", "22-14:01", "٢٣-7", "２3-7"])
def test_bad_quiet_hours_are_refused(text):
    with pytest.raises(ValueError):
        clock.quiet_from_text(text)


@pytest.mark.parametrize("name", ["Mars/Olympus", "../../etc/passwd", "Europe/Berlin/x/y", "", "a" * 200])
def test_bad_time_zones_are_refused(name):
    with pytest.raises(ValueError):
        clock.zone_from_text(name)


def test_quiet_hours_leave_eight_hours_a_day():
    assert clock.quiet_from_text("7-23") == (7 * 60, 23 * 60)
    assert clock.quiet_from_text("22-14") == (22 * 60, 14 * 60)


async def lobby(store, now):
    svc = service(store, seed=3, clock=lambda: now[0], quiet_hours="23-7",  # the default outside the tests
                  answers_per_minute=1000)  # settings typed in a row: no budget
    anna, ben = user(0), user(1)
    table = table_msg(await svc.handle(say(GROUP, anna, "neu bauer")))
    table = table_msg(await svc.handle(press(GROUP, ben, button(table, "join").token)))
    return svc, anna, ben, table


async def test_the_pace_is_shown_in_the_lobby_and_sets_the_timers(store):
    now = [at("2027-01-15 09:00")]
    svc, anna, ben, table = await lobby(store, now)
    assert "Tempo: normal · Erinnerung nach 12 Std. · Computer nach 2 Tg." in table.text
    assert of(await svc.handle(say(GROUP, ben, "tempo schnell")), Toast)[0].text.startswith("Nur wer den Tisch")
    table = table_msg(await svc.handle(say(GROUP, anna, "tempo schnell")))
    assert "Tempo: schnell · Erinnerung nach 3 Min. · Computer nach 10 Min." in table.text
    table = table_msg(await svc.handle(press(GROUP, anna, button(table, "opts").token)))
    table = table_msg(await svc.handle(press(GROUP, anna, button(table, "pace").token)))
    assert "Tempo: normal" in table.text and button(table, "pace").label == "Tempo: normal"
    table = table_msg(await svc.handle(press(GROUP, anna, button(table, "pace").token)))
    assert "Tempo: Fernspiel · Erinnerung nach 24 Std. · Computer nach 3 Tg." in table.text
    stored = Table.load((await store.load(table.table_id))[1])
    assert (stored.pace, stored.remind, stored.auto) == ("fernspiel", 86400, 3 * 86400)
    refused = of(await svc.handle(say(GROUP, anna, "tempo gemütlich")), Toast)
    assert refused[0].text.startswith("Tempo: schnell")
    table = table_msg(await svc.handle(say(GROUP, anna, "option pace fast")))
    assert "Tempo: schnell" in table.text


async def test_quiet_hours_hold_the_timers_until_they_end(store):
    now = [at("2027-01-15 22:40")]
    svc, anna, ben, table = await lobby(store, now)
    table_msg(await svc.handle(say(GROUP, anna, "tempo schnell")))
    table = table_msg(await svc.handle(press(GROUP, anna, button(table_msg(
        await svc.handle(say(GROUP, anna, "tisch"))), "start").token)))
    await let_windows_pass(svc, store, table.table_id, GROUP)
    stored = Table.load((await store.load(table.table_id))[1])
    assert await svc.tick(now[0] + 120) == [], "not yet due"
    assert await svc.tick(at("2027-01-15 23:30")) == [], "due, but quiet hours hold it"
    assert await svc.tick(at("2027-01-16 06:59")) == []
    version = (await store.load(table.table_id))[0]
    fired = await svc.tick(at("2027-01-16 07:00"))
    assert [n.text[:1] for n in of(fired, Notice)] == ["⏰"], "the reminder comes when the quiet hours end"
    assert (await store.load(table.table_id))[0] == version
    assert stored.status == "playing"


async def test_each_chat_sets_its_quiet_hours_and_time_zone(store):
    now = [at("2027-01-15 22:40")]
    svc, anna, ben, table = await lobby(store, now)
    shown = of(await svc.handle(say(GROUP, ben, "ruhezeit")), Notice)[0].text
    assert "23:00–07:00 (Europe/Berlin)" in shown
    assert "22:30–06:00" in of(await svc.handle(say(GROUP, ben, "ruhezeit 22:30-6")), Notice)[0].text
    assert of(await svc.handle(say(GROUP, ben, "zeitzone America/New_York")), Notice)[0].text.endswith("New_York")
    assert of(await svc.handle(say(GROUP, ben, "zeitzone Mond/Krater")), Toast)[0].text.startswith("Zeitzone")
    assert of(await svc.handle(say(GROUP, ben, "ruhezeit bald")), Toast)[0].text.startswith("Ruhezeit zum")
    end = await pace.chat_quiet_end(store, GROUP.key, at("2027-01-16 03:00", ZoneInfo("America/New_York")),
                                    svc.settings)
    assert end == at("2027-01-16 06:00", ZoneInfo("America/New_York"))
    assert "Keine Ruhezeit" in of(await svc.handle(say(GROUP, ben, "ruhezeit aus")), Notice)[0].text
    assert await pace.chat_quiet_end(store, GROUP.key, at("2027-01-16 03:00"), svc.settings) is None


async def test_during_play_only_the_players_or_an_admin_change_the_chats_settings(store):
    """The issue's attack: a member without a seat typed ``ruhezeit 00:00-23:59`` during play."""
    now = [at("2027-01-15 09:00")]
    svc, anna, ben, table = await lobby(store, now)
    cleo = user(2)
    assert of(await svc.handle(say(GROUP, cleo, "ruhezeit 22-6")), Notice), "in the lobby anyone may"
    await svc.handle(say(GROUP, anna, "los"))
    for text in ("ruhezeit aus", "zeitzone Asia/Tokyo", "sprache en"):
        (toast,) = of(await svc.handle(say(GROUP, cleo, text)), Toast)
        assert toast.text.startswith("Während des Spiels stellen nur die Mitspieler"), text
    assert "22:00–06:00" in of(await svc.handle(say(GROUP, cleo, "ruhezeit")), Notice)[0].text, "showing is free"
    assert "Tokyo" not in of(await svc.handle(say(GROUP, cleo, "zeitzone")), Notice)[0].text
    assert await svc.needs_admin(say(GROUP, cleo, "ruhezeit aus"))
    assert not await svc.needs_admin(say(GROUP, ben, "ruhezeit aus"))
    assert not await svc.needs_admin(say(GROUP, cleo, "ruhezeit"))
    admin = replace(say(GROUP, cleo, "zeitzone Europe/Zurich"), admin=True)
    assert of(await svc.handle(admin), Notice)[0].text.endswith("Zurich")
    assert "Keine Ruhezeit" in of(await svc.handle(say(GROUP, ben, "ruhezeit aus")), Notice)[0].text
    assert of(await svc.handle(say(GROUP, anna, "sprache en")), Notice)[0].text == "Language: English"
    (toast,) = of(await svc.handle(say(GROUP, cleo, "ruhezeit 0-16")), Toast)
    assert toast.text.startswith("During play only the players")
    (toast,) = of(await svc.handle(say(GROUP, ben, "ruhezeit 0-23")), Toast)
    assert toast.text.endswith("(16 hours at most)")
