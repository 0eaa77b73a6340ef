"""A tournament's registration in a group, against a real Redis: the partner's confirmation, the organizer's and
the admins' rights, aborting, the tournaments a chat may hold."""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.protocol import tokens
from bot.protocol.outgoing import Notice
from bot.service.tourney.change import MAX_PER_CHAT
from bot.store.tourneys import TourneyStore
from bot.table.record import Table
from tests.bot.service.tourney.kit import T0, load, opened, person, token, tourney_msg
from tests.servicekit import GROUP, of, press, say, service


async def test_registration_partner_confirms_and_refusals(store):
    svc = service(store, clock=lambda: T0)
    anna, ben, cleo = person(0), person(1), person(2)
    msg = tourney_msg(await svc.handle(say(GROUP, anna, "turnier neu bauernstoss gruppen target=20 runde=2d")))
    tourney = await load(store, msg.table_id)
    assert (tourney.format, tourney.options, tourney.round_s, tourney.organizer) == (
        "groups-ko", {"target": 20}, 2 * 86400, anna.key)
    await svc.handle(say(GROUP, anna, "turnier anmelden Spieler1"))
    msg = tourney_msg(await svc.handle(say(GROUP, anna, "turnier")))
    assert "Spieler1" in msg.text
    out = await svc.handle(press(GROUP, anna, token(msg, "tn_ok")))  # his own invitation: refused, unchanged
    assert of(out, type(out[0])) and "Partner" in out[0].text
    await svc.handle(press(GROUP, ben, token(msg, "tn_ok")))
    tourney = await load(store, msg.table_id)
    assert [e.users for e in tourney.entries] == [[anna.key, ben.key]] and not tourney.invites
    again = await svc.handle(say(GROUP, ben, "turnier anmelden"))
    assert "schon angemeldet" in again[0].text
    await svc.handle(say(GROUP, cleo, "turnier anmelden"))
    refused = await svc.handle(say(GROUP, cleo, "turnier los"))
    assert "Veranstalter" in refused[0].text
    assert (await load(store, msg.table_id)).status == "open"
    await svc.handle(say(GROUP, cleo, "turnier abmelden"))
    assert len((await load(store, msg.table_id)).entries) == 1
    second = await svc.handle(say(GROUP, cleo, "turnier neu rams"))
    assert "schon ein Turnier" in second[0].text


async def test_the_organizer_aborts_and_the_round_closes(store):
    now = [T0]
    svc = service(store, clock=lambda: now[0])
    tid = await opened(svc, store, 2, "bauernstoss target=1 runde=1h")
    await svc.handle(say(GROUP, person(0), "turnier los"))
    refused = await svc.handle(say(GROUP, person(3), "turnier abbrechen"))
    assert "Veranstalter" in refused[0].text
    out = await svc.handle(say(GROUP, person(0), "turnier abbrechen"))
    assert any("abgebrochen" in n.text for n in of(out, Notice))
    (table_id,) = (await load(store, tid)).tables.values()
    assert Table.load((await store.load(table_id))[1]).status == "aborted"
    assert not [d for d in await store.due(now[0] + 10**7) if d[0] == tid]
    again = await svc.handle(say(GROUP, person(0), "turnier neu bauer"))  # the chat is free again
    assert tourney_msg(again).table_id != tid


async def test_a_chat_admin_may_start_and_abort_a_tournament_he_did_not_open(store):
    svc = service(store, clock=lambda: T0)
    tid = await opened(svc, store, 2, "bauernstoss target=1 runde=1h")
    organizer, member = person(0), person(3)
    start, stand = say(GROUP, member, "turnier los"), say(GROUP, member, "turnier stand")
    assert await svc.needs_admin(start) and await svc.needs_admin(say(GROUP, member, "turnier abbrechen"))
    assert not await svc.needs_admin(say(GROUP, organizer, "turnier los")) and not await svc.needs_admin(stand)
    assert "Veranstalter" in (await svc.handle(start))[0].text  # not an admin: refused, still open
    assert (await load(store, tid)).status == "open"
    await svc.handle(replace(start, admin=True))
    assert (await load(store, tid)).status == "running"
    await svc.handle(replace(say(GROUP, member, "turnier abbrechen"), admin=True))
    assert (await load(store, tid)).status == "aborted"


async def test_a_chat_holds_a_bounded_number_of_tournaments_one_per_topic(store):
    svc = service(store, clock=lambda: T0)
    topics = [replace(GROUP, thread=str(n)) for n in range(MAX_PER_CHAT + 1)]
    for topic in topics[:MAX_PER_CHAT]:
        tourney_msg(await svc.handle(say(topic, person(0), "turnier neu bauer")))
    refused = await svc.handle(say(topics[-1], person(0), "turnier neu bauer"))
    assert f"schon {MAX_PER_CHAT} Turniere" in refused[0].text
    for key in [k async for k in store.redis.scan_iter(match=f"{store.prefix}:*")]:
        assert await store.redis.ttl(key) > 0 or ":{deadlines}:" in key, key


async def test_forged_tournament_buttons_are_refused_as_forged_without_an_error(store, caplog):
    """Issue 30, item 8: a table's verb on a real tournament's id, and a tournament's verb on an id that is no
    tournament's, are refused as any forged press: a short answer, nothing changed, no error logged."""
    svc = service(store, clock=lambda: T0)
    tid = await opened(svc, store, 1)
    before = await TourneyStore(store).fetch(tid)
    forged = [tokens.make(tid, before.version, verb, arg) for verb, arg in
              (("act", "pl.JC"), ("join", ""), ("start", ""), ("hand", ""), ("opt", "target"), ("rematch", ""),
               ("tn_nope", ""), ("bot", ""))]
    forged += [tokens.make(other, 0, verb) for other in ("A1b2C3d4", "a", "A1b2C3d4E5f6", "Zz9Zz9Zz9Z")
               for verb in ("tn_start", "tn_join", "tn_page")]
    for token in forged:
        out = await svc.handle(press(GROUP, person(3), token))
        assert [type(o).__name__ for o in out] == ["Toast"], (token, out)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert await TourneyStore(store).fetch(tid) == before
