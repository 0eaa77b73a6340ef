"""The moment before the first lead: every person who may play alone declares it or lets it pass,
and a computer never leads (nor declares) over a person's open window."""

from __future__ import annotations

import pytest

import engine
from bot.protocol.outgoing import HandMessage, Toast
from bot.table import window
from bot.table.record import Table
from tests.servicekit import GROUP, act_buttons, button, of, playable, press, private, say, service, table_msg, user

T0 = 1_800_000_000.0


async def stored(store, table_id: str) -> tuple[Table, engine.State]:
    """The stored table and its engine state."""
    table = Table.load((await store.load(table_id))[1])
    return table, engine.from_json(table.state)


async def waiting_alone(store, game: str):
    """A private table of ``game`` whose computer named trump and is to lead while Anna's window is open."""
    anna = user(0)
    for seed in range(60):
        now = [T0]
        svc = service(store, seed=seed, clock=lambda: now[0])
        effects = await svc.handle(say(private(anna), anna, f"neu {game}"))
        while True:  # Anna names trump or bids when it is hers: the computers play on until the play begins
            (hand,) = of(effects, HandMessage) or [None]
            table, state = await stored(store, table_msg(effects).table_id if hand is None else hand.table_id)
            if state.phase == "play" or state.to_act is None or table.seats[state.to_act].computer:
                break
            allowed = playable(table)[1]  # her first choice now (her hand shows her cards all the time)
            effects = await svc.handle(press(private(anna), anna, act_buttons(hand, allowed)[0].token))
        if table.declare and table.seats[state.to_act].computer:
            return svc, now, table.id, effects
        await svc.handle(say(private(anna), anna, "abbrechen"))
    raise AssertionError("no seed lets a computer lead")


@pytest.mark.parametrize(("game", "word"), [("bauer", "Karten weg"), ("bauerchen", "Ledig")])
async def test_a_computer_waits_for_the_persons_window_until_he_lets_it_pass(store, game, word):
    anna = user(0)
    svc, now, table_id, effects = await waiting_alone(store, game)
    table, state = await stored(store, table_id)
    assert not state.trick and not state.tricks  # nothing is led yet
    assert table.declare == [0] and table.declare_end == T0 + 20
    (hand,) = [h for h in of(effects, HandMessage) if h.buttons]
    assert f"Vor dem ersten Ausspielen: {word} oder »Weiter«?" in hand.text
    rows = [[b.label for b in row] for row in hand.buttons]
    assert word in [label for row in rows[:rows.index(["Weiter"])] for label in row]  # among his choices, then »Weiter«
    assert [kind for tid, _, kind in await store.due(T0 + 20) if tid == table_id] == ["declare"]
    assert f"⏳ Vor dem ersten Ausspielen ist noch {word} möglich für Anna." in table_msg(effects).text
    assert not await svc.tick(T0 + 19)  # the wait has not run out: nothing moves
    answer = await svc.handle(press(private(anna), anna, button(hand, "let_pass").token))
    table, state = await stored(store, table_id)
    assert table.declare == [] and (state.trick or state.tricks)  # the computer led at once
    (again,) = of(await svc.handle(press(private(anna), anna, button(hand, "let_pass").token)), Toast)
    assert again.text == "»Weiter« gilt nur vor dem ersten Ausspielen, solange du noch allein spielen kannst."
    assert not of(answer, Toast)


async def test_the_wait_runs_out_in_another_process_and_the_computer_leads(store):
    svc, now, table_id, _ = await waiting_alone(store, "bauer")
    assert not await svc.tick(T0 + 10)
    other = service(store, seed=1)  # another process: it knows the window from the stored table only
    await other.tick(T0 + 21)
    table, state = await stored(store, table_id)
    assert table.declare == [] and (state.trick or state.tricks)


async def test_the_person_declares_in_his_window(store):
    anna = user(0)
    svc, now, table_id, effects = await waiting_alone(store, "bauer")
    (hand,) = [h for h in of(effects, HandMessage) if h.buttons]
    (alone,) = [b for row in hand.buttons for b in row if b.label == "Karten weg"]
    now[0] = T0 + 5  # a later table version: the declaration's words never change, so the button counts
    assert not of(await svc.handle(press(private(anna), anna, alone.token)), Toast)
    table, state = await stored(store, table_id)
    assert table.declare == [] and table.story[-1] == {"type": "karten_weg", "seat": 0}
    assert state.to_act == 0 and not state.trick  # Karten weg: he leads


async def test_a_person_to_lead_hears_who_may_still_declare(store):
    anna, ben = user(0), user(1)
    for seed in range(60):
        svc = service(store, seed=seed, clock=lambda: T0)
        chat = GROUP.__class__(GROUP.platform, f"w{seed}", title="Tisch")
        first = table_msg(await svc.handle(say(chat, anna, "neu bauer")))
        await svc.handle(press(chat, ben, button(first, "join").token))
        await svc.handle(say(chat, anna, "los"))
        table, state = await stored(store, first.table_id)
        while state.phase != "play" and not table.seats[state.to_act].computer:
            who = anna if table.seats[state.to_act].user == anna.key else ben
            await svc.handle(say(chat, who, "trumpf herz"))
            table, state = await stored(store, first.table_id)
        if state.phase == "play" and table.seats[state.to_act].user == anna.key and table.declare:
            break
    else:
        raise AssertionError("no seed lets Anna lead")
    card = engine.legal_actions(state)[0]
    (refused,) = of(await svc.handle(say(chat, anna, f"spiel {engine.cards.card_str(card.card)}")), Toast)
    assert refused.text == "Einen Moment: vor dem ersten Ausspielen ist noch Karten weg möglich für Ben."
    assert not of(await svc.handle(say(chat, ben, "weiter")), Toast)
    assert not of(await svc.handle(say(chat, anna, f"spiel {engine.cards.card_str(card.card)}")), Toast)


async def test_a_declaration_out_of_its_moment_says_why(store):
    """The issue's case: a card is on the table, and Karten weg is refused with the reason."""
    anna = user(0)
    svc, now, table_id, effects = await waiting_alone(store, "bauer")
    (hand,) = [h for h in of(effects, HandMessage) if h.buttons]
    (alone,) = [b for row in hand.buttons for b in row if b.label == "Karten weg"]
    await svc.handle(say(private(anna), anna, "weiter"))
    (late,) = of(await svc.handle(press(private(anna), anna, alone.token)), Toast)
    assert late.text == "Karten weg geht nur vor dem ersten Ausspielen, und es ist schon ausgespielt."
    (typed,) = of(await svc.handle(say(private(anna), anna, "ledig")), Toast)  # a typed Ledig means Karten weg here
    assert typed.text == late.text


async def test_every_refused_offer_or_decision_says_why(store):
    anna = user(0)
    for seed in range(30):  # Anna names trump: the deal is still in its first phase
        svc = service(store, seed=seed, clock=lambda: T0)
        effects = await svc.handle(say(private(anna), anna, "neu bauerchen"))
        table, state = await stored(store, table_msg(effects).table_id)
        if state.phase == "name":
            break
        await svc.handle(say(private(anna), anna, "abbrechen"))
    texts = {word: [x.text for x in of(await svc.handle(say(private(anna), anna, word)), Toast)]
             for word in ("ledig", "spritzen", "weiter")}
    assert texts == {
        "ledig": ["Ledig sagst du an, wenn Trumpf genannt ist und alle Karten verteilt sind."],
        "spritzen": ["Spritzen geht erst, wenn gespielt wird."],
        "weiter": ["»Weiter« gilt nur vor dem ersten Ausspielen, solange du noch allein spielen kannst."]}
    rams = table_msg(await svc.handle(say(GROUP, anna, "neu rams 3")))
    await svc.handle(say(GROUP, anna, "los"))
    (none,) = of(await svc.handle(say(GROUP, anna, "ledig")), Toast)
    assert none.text == "Allein spielen gibt es bei Rams nicht." and rams.table_id


async def test_the_wait_is_a_table_setting_and_fernspiel_waits_the_turn_timer(store):
    anna = user(0)
    svc = service(store, seed=2, clock=lambda: T0)
    chat = GROUP.__class__(GROUP.platform, "wait", title="Tisch")
    table_id = table_msg(await svc.handle(say(chat, anna, "neu bauer"))).table_id
    assert not of(await svc.handle(say(chat, anna, "option declare_wait 45s")), Toast)
    assert (await stored_table(store, table_id)).declare_wait == 45
    assert not of(await svc.handle(say(chat, anna, "option declare_wait off")), Toast)
    assert (await stored_table(store, table_id)).declare_wait is None
    assert not of(await svc.handle(say(chat, anna, "tempo fernspiel")), Toast)
    assert window.wait_of(await stored_table(store, table_id)) == 72 * 3600


async def stored_table(store, table_id: str) -> Table:
    """The stored table record."""
    return Table.load((await store.load(table_id))[1])
