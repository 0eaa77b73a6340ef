"""The players waiting at a Fernspiel table see how long the person to act has been away and when the computer
plays for him, on the table message and on the web table; a table of another pace shows nothing of it."""

from __future__ import annotations

from bot.protocol.outgoing import ChatRef
from bot.table.record import Table
from bot.words.i18n import t
from bot.words.story import seat_name
from tests.servicekit import button, let_windows_pass, press, private, say, service, table_msg, user

T0 = 1_800_000_000.0
HOUR = 3600


async def _started(store, chat_id: str, title: str, pace: str):
    """A started table of four people at ``pace`` in chat ``chat_id``, on a clock of its own:
    (clock, service, chat, table id, table)."""
    now = [T0]
    svc = service(store, clock=lambda: now[0])
    chat = ChatRef("test", chat_id, title=title)
    users = [user(i) for i in range(4)]
    table = table_msg(await svc.handle(say(chat, users[0], "neu bauer")))
    await svc.handle(say(chat, users[0], f"tempo {pace}"))
    for u in users[1:]:
        table = table_msg(await svc.handle(press(chat, u, button(table, "join").token)))
    await svc.handle(press(chat, users[0], button(table, "start").token))
    await let_windows_pass(svc, store, table.table_id, chat)
    return now, svc, chat, table.table_id, Table.load((await store.load(table.table_id))[1])


async def test_a_fernspiel_table_tells_since_when_he_is_awaited_when_he_was_last_here_and_the_automatic_move(store):
    now, svc, chat, tid, table = await _started(store, "-100555", "Fernrunde", "fernspiel")
    seat = table.state["to_act"]
    waited, seen = now[0] - table.since, table.seen.get(table.seats[seat].user)
    now[0] += 5 * HOUR
    shown = table_msg(await svc.handle(say(chat, user(0), "tisch"))).text
    name = seat_name(table, seat)
    line = next(line for line in shown.split("\n") if line.startswith(t("de", "away.since", name=name, ago="")[:4]))
    assert t("de", "away.since", name=name, ago=f"{int((5 * HOUR + waited) // HOUR)} Std.") in line, shown
    if seen:
        assert t("de", "away.seen", ago=f"{int((now[0] - seen) // HOUR)} Std.") in line
    assert t("de", "away.auto", left="2 Tg.") in line  # 72 hours after the turn reached him, 67 left
    other = next(u for u in (user(i) for i in range(4)) if u.key != table.seats[seat].user)
    assert (await svc.web_view(tid, other))["away"] == line.removeprefix("⏳ ")

    now[0] += 67 * HOUR - 30
    shown = table_msg(await svc.handle(say(chat, user(0), "tisch"))).text
    assert t("de", "away.auto_now") in shown


async def test_a_table_of_another_pace_says_nothing_of_it(store):
    now, svc, chat, tid, table = await _started(store, "-100556", "Schnellrunde", "normal")
    now[0] += 5 * HOUR
    shown = table_msg(await svc.handle(say(chat, user(0), "tisch"))).text
    assert "⏳" not in shown and (await svc.web_view(tid, user(0)))["away"] == ""


async def test_while_he_is_on_vacation_the_line_names_no_automatic_move_and_after_it_the_later_one(store):
    now, svc, chat, tid, table = await _started(store, "-100557", "Urlaubsrunde", "fernspiel")
    seat = table.state["to_act"]
    away = next(u for u in (user(i) for i in range(4)) if u.key == table.seats[seat].user)
    now[0] += HOUR
    await svc.handle(say(private(away), away, "urlaub 2d"))
    shown = table_msg(await svc.handle(say(chat, user(0), "tisch"))).text
    assert "🏖" in shown and t("de", "away.since", name=seat_name(table, seat), ago="1 Std.") in shown, shown
    assert t("de", "away.auto", left="")[:12] not in shown, shown
    web = (await svc.web_view(tid, user(0)))["away"]
    assert "Urlaub" in web and "🏖" not in web, web  # the web table says it too, without the chat's sign
    now[0] += 2 * 24 * HOUR + HOUR  # the vacation is over: 71 of the turn's 72 hours are left
    shown = table_msg(await svc.handle(say(chat, user(0), "tisch"))).text
    assert "🏖" not in shown and t("de", "away.auto", left="2 Tg.") in shown, shown
