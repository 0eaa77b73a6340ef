"""End to end on the fake Telegram, which enforces the group's limit: what one member's flood of typed commands,
or computers playing a match out alone, cost the group, and that they never hold back its table or a reply."""

from __future__ import annotations

from bot.protocol import tokens
from bot.service.lobby import SEAT_CHANGES
from bot.table.record import Table
from tests.fakes.telegram.harness import (
    FAST,
    card_to_play,
    fake_for,
    open_table,
    press_verb,
    running_bot,
    settled,
    until,
    version,
)
from tests.servicekit import hurried

GROUP = -100321
FLOOD = 100
"""Typed commands of each kind a member sends in a row."""
BUDGET = 5
"""The default answers per person and minute in a group (``answers_per_minute``)."""
HELP = "Stammtisch – Kartenspiele am Tisch"


async def test_a_members_flood_of_idle_commands_costs_the_group_a_few_messages_and_never_holds_back_the_table(
        store, redis, key_prefix):
    """Issue 20: refused and answered commands of a member (200 from one who never wrote to the bot, 100 from
    one who did) make at most his budget of answers and one note in the group; refusals go privately to
    whoever can be written to; a card played meanwhile edits the table before anything of the flood."""
    tuning = FAST.model_copy(update={"table_lazy_s": 0.0})  # the table never waits for the next card here
    async with fake_for(tuning) as tg:
        tg.group(GROUP, "Stammtisch")
        players = [tg.user(11 + i, n, started=True) for i, n in enumerate(["Anna", "Ben", "Cleo", "Dora"])]
        zed, yan = tg.user(21, "Zed"), tg.user(22, "Yan", started=True)
        async with running_bot(tg, store, redis, key_prefix, tuning) as bot:
            tid = await open_table(tg, GROUP, players[0], players[1:], "bauer")
            to_act, hand, card = await card_to_play(tg, store, players, tid)
            await settled(tg, bot)
            start, before = len(tg.calls), len(tg.chat(GROUP))
            for _ in range(FLOOD):
                zed.send(GROUP, "/spiel B♣")
                zed.send(GROUP, "/hilfe")
                yan.send(GROUP, "/spiel B♣")
            await tg.wait_for(lambda: len(tg.chat(GROUP)) > before, what="the first answer to the flood")
            shown, pressed = version(tg, GROUP, tid), len(tg.calls)
            to_act.press(hand, data=card)
            await tg.wait_for(lambda: version(tg, GROUP, tid) > shown, what="the table to show the card")
            edited = next(i for i, (_, m, p, status) in enumerate(tg.calls) if i >= pressed and status == 200
                          and m == "editMessageText" and int(p["chat_id"]) == GROUP)
            await settled(tg, bot)
        between = [p for _, m, p, status in tg.calls[pressed:edited]
                   if m == "sendMessage" and status == 200 and int(p["chat_id"]) == GROUP]
        group = [p["text"] for _, m, p, status in tg.calls[start:]
                 if m == "sendMessage" and status == 200 and int(p["chat_id"]) == GROUP]
        yans = [p["text"] for _, m, p, status in tg.calls[start:]
                if m == "sendMessage" and status == 200 and int(p["chat_id"]) == yan.id]
    assert len(group) <= BUDGET + 1, (len(group), group[:8])
    assert sum("Zed" in text and "nicht so schnell" in text for text in group) == 1, group
    assert yans and len(yans) <= BUDGET + 1 and all(text.startswith("Stammtisch: ") for text in yans), yans
    assert len(between) <= 1, f"the table edit waited behind {len(between)} messages of the flood"
    assert tg.violations == [], tg.violations[:3]


async def test_a_reply_goes_before_the_results_of_computers_playing_on_alone(store, redis, key_prefix):
    """Issue 24: once the timer has handed the last person's seat to the computer, the computers play the
    match out faster than the group may be written to; a command's answer does not wait behind their
    results, and the results waiting go together as one message, every deal's result told."""
    tuning = FAST.model_copy(update={"group_window_s": 6.0, "tick_interval_s": 0.05})  # results pile up
    async with fake_for(tuning) as tg:
        tg.group(GROUP, "Stammtisch")
        anna, ben = tg.user(11, "Anna", started=True), tg.user(12, "Ben", started=True)
        async with running_bot(tg, store, redis, key_prefix, tuning, clock=hurried(), reminder_after="off",
                               autoplay_after="2m") as bot:
            tid = await open_table(tg, GROUP, anna, [], "bauernstoss", "target=10", computers=3)

            async def over() -> bool:
                loaded = await store.load(tid)
                return Table.load(loaded[1]).status == "finished"
            await until(over, "the computers to finish the match")
            asked = len(tg.calls)
            ben.send(GROUP, "/hilfe")
            await tg.wait_for(lambda: any(m.text.startswith(HELP) for m in tg.chat(GROUP)), what="the help")
            await settled(tg, bot)
            _, table = await store.load(tid)
            deals = Table.load(table).deals
        sent = [p["text"] for _, m, p, status in tg.calls[asked:]
                if m == "sendMessage" and status == 200 and int(p["chat_id"]) == GROUP]
        results = [text for _, m, p, status in tg.calls if m == "sendMessage" and status == 200
                   and int(p["chat_id"]) == GROUP and " ist aus\n" in (text := p["text"])]
    helped = next(i for i, text in enumerate(sent) if text.startswith(HELP))
    assert helped <= 1, f"the answer waited behind {helped} results"
    told = [no for no in range(1, deals + 1) if any(f"Spiel {no} ist aus\n" in text for text in results)]
    assert told == list(range(1, deals + 1)) and len(results) < deals, (deals, len(results))
    assert tg.violations == [], tg.violations[:3]


async def test_joining_and_leaving_a_table_again_and_again_is_capped(store, redis, key_prefix):
    """Issue 30, item 8: one person's join and leave presses (and typed commands) at one table count against a
    cap: beyond it they are refused, and the table's move log and its edits in the group stop growing."""
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch")
        anna, ben = tg.user(11, "Anna", started=True), tg.user(12, "Ben", started=True)
        async with running_bot(tg, store, redis, key_prefix) as bot:
            anna.send(GROUP, "/neu bauer")
            tid = await tg.wait_for(lambda: _lobby(tg), what="the table")
            answers = [await press_verb(tg, ben, GROUP, tid, verb) for verb in ("join", "leave") * SEAT_CHANGES]
            ben.send(GROUP, "/mitspielen")
            await settled(tg, bot)
            log = await store.log(tid)
    refused = [a.get("text", "") for a in answers[SEAT_CHANGES:]]
    assert not any(a.get("text") for a in answers[:SEAT_CHANGES]), answers[:SEAT_CHANGES]
    assert all("oft genug" in text for text in refused), refused
    assert "oft genug" in tg.last(ben.id).text
    assert len(log) <= SEAT_CHANGES + 1, len(log)


def _lobby(tg) -> str | None:
    """The table whose join button the group shows."""
    found = [t for m in tg.chat(GROUP) for b in m.buttons
             if (t := tokens.parse(b.get("callback_data", ""))) and t.verb == "join"]
    return found[-1].table if found else None
