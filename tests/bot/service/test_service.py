"""The table service against a real Redis: whole matches, lobby, refusals, restart, rematch, languages."""

from __future__ import annotations

from dataclasses import replace

import pytest
import redis.asyncio as aioredis

import engine
from bot.protocol import actarg, tokens
from bot.protocol.outgoing import HandMessage, JoinLink, Notice, TableMessage, Toast
from bot.service import join_payload
from bot.store.tables import Store
from bot.table.record import Table
from bot.words.i18n import t
from engine.cards import card_str, cards_in
from tests.servicekit import (
    GROUP,
    Players,
    act_buttons,
    audit,
    button,
    of,
    press,
    private,
    say,
    service,
    table_msg,
    user,
)

GAMES = ["bauernstoss", "alter_schafkopf", "bauerchen", "bauer", "rams"]


async def open_group_table(svc, game: str, humans: int, extra: str = "") -> tuple[Players, str]:
    """Anna opens ``game`` in the group, ``humans - 1`` others join by button, computers fill up, start."""
    users = [user(i) for i in range(humans)]
    players = Players(svc, GROUP, users, seed=humans)
    effects = await players.send(say(GROUP, users[0], f"neu {game} {extra}".strip()))
    table_id = tokens.parse(table_msg(effects).buttons[0][0].token).table
    for u in users[1:]:
        await players.send(press(GROUP, u, button(players.table, "join").token))
    await players.send(press(GROUP, users[0], button(players.table, "start").token))
    return players, table_id


@pytest.mark.parametrize("game", GAMES)
async def test_whole_match_through_the_service(store, game):
    svc = service(store, seed=7)
    players, table_id = await open_group_table(svc, game, humans=2)
    players.typing = 0.3
    final = await players.play_out()
    assert final.text.startswith("Letztes Spiel:\nLetzter Stich: ") and "\n\n🏆 " in final.text
    counts = await audit(store, table_id)
    table = counts["table"]
    assert table.status == "finished" and engine.match_over(engine.from_json(table.state))
    assert counts["deals"] >= 1 and counts["moves"] > 10
    assert [b.label for b in final.buttons[0]] == ["Revanche", "Neuer Tisch"]
    if game == "rams":
        assert "Abrechnung" in final.text and "Rangliste" in final.text
    # the chat is free again for a new table
    assert await store.table_for_chat(GROUP.key) is None


async def test_private_chat_gives_a_solo_table_against_the_computer(store):
    svc = service(store, seed=3)
    anna = user(0)
    chat = private(anna)
    players = Players(svc, chat, [anna], seed=1, typing=0.5)
    effects = await players.send(say(chat, anna, "neu bauerchen"))
    assert of(effects, TableMessage) and of(effects, HandMessage)
    await players.play_out()
    counts = await audit(store, table_msg(players.effects[-3:] if False else [players.table]).table_id)
    assert counts["table"].status == "finished"


async def test_lobby_seats_computers_and_options(store):
    svc = service(store)
    anna, ben, cleo = user(0), user(1), user(2)
    table = table_msg(await svc.handle(say(GROUP, anna, "neu bauerchen")))
    assert "Tisch von Anna" in table.text and "1 Anna" in table.text
    table = table_msg(await svc.handle(say(GROUP, ben, "platz 3")))
    assert "3 Ben" in table.text
    table = table_msg(await svc.handle(say(GROUP, cleo, "mitspielen")))
    assert "2 Cleo" in table.text
    table = table_msg(await svc.handle(say(GROUP, cleo, "aufstehen")))
    assert "2 –" in table.text
    table = table_msg(await svc.handle(say(GROUP, anna, "computer")))
    assert "2 Computer 2" in table.text
    table = table_msg(await svc.handle(say(GROUP, anna, "computer weg 2")))
    assert "2 –" in table.text
    # options: only the opener, by button or typed
    refused = await svc.handle(press(GROUP, ben, button(table, "opts").token))
    assert of(refused, Toast)[0].text == "Nur wer den Tisch eröffnet hat (Anna), darf das."
    table = table_msg(await svc.handle(press(GROUP, anna, button(table, "opts").token)))
    assert "Die Letzte: an" in str([b.label for row in table.buttons for b in row])
    table = table_msg(await svc.handle(press(GROUP, anna, button(table, "opt").token)))
    assert "Trumpf nach Karten 5" in table.text
    table = table_msg(await svc.handle(say(GROUP, anna, "option target_steine 2")))
    assert "Steine zum Sieg 2" in table.text
    bad = await svc.handle(say(GROUP, anna, "option target_steine 0"))
    assert of(bad, Toast)[0].text == "Option Steine zum Sieg (target_steine): erlaubt ist eine ganze Zahl von 1 bis 10."
    table = table_msg(await svc.handle(say(GROUP, anna, "option autoplay_after off")))
    version, data = await store.load(table.table_id)
    assert Table.load(data).auto is None


async def test_one_open_table_per_chat_and_topic_but_many_per_user(store):
    svc = service(store)
    anna = user(0)
    await svc.handle(say(GROUP, anna, "neu bauer"))
    again = await svc.handle(say(GROUP, anna, "neu rams"))
    assert of(again, Toast)[0].text == "Hier läuft schon ein Tisch. »abbrechen« beendet ihn."
    topic = GROUP.__class__(GROUP.platform, GROUP.chat_id, thread="42", title="Topic")
    other = GROUP.__class__(GROUP.platform, "g2", title="Other group")
    assert of(await svc.handle(say(topic, anna, "neu rams")), TableMessage)
    assert of(await svc.handle(say(other, anna, "neu bauerchen")), TableMessage)
    assert len(await store.tables_for_user(anna.key)) == 3


async def test_deep_link_completes_the_join(store):
    svc = service(store)
    anna, ben = user(0), user(1)
    effects = await svc.handle(say(GROUP, anna, "neu bauer"))
    table_id = table_msg(effects).table_id
    links = of(effects, JoinLink)
    assert links and links[0].payload == join_payload(table_id)
    assert len(links[0].payload) <= 64
    # Ben has never written to the bot: joining in the group seats him and offers the link
    effects = await svc.handle(press(GROUP, ben, button(table_msg(effects), "join").token))
    assert of(effects, JoinLink)[0].user == ben
    effects = await svc.handle(say(private(ben), ben, f"start {join_payload(table_id)}"))
    assert "Stammtisch Lautern" in of(effects, Toast)[0].text
    # after that he is known to be reachable, and the link joins someone not yet seated too
    cleo = user(2)
    await svc.handle(say(private(cleo), cleo, "hilfe"))
    effects = await svc.handle(say(private(cleo), cleo, f"start {join_payload(table_id)}"))
    assert "3 Cleo" in table_msg(effects).text and table_msg(effects).chat == GROUP
    effects = await svc.handle(say(GROUP, cleo, "aufstehen"))
    effects = await svc.handle(say(GROUP, cleo, "mitspielen"))
    assert not of(effects, JoinLink)


async def assert_unchanged(store, table_id, before):
    assert await store.load(table_id) == before


async def test_bad_input_gets_a_clear_message_and_changes_nothing(store):
    svc = service(store, seed=11, answers_per_minute=1000)  # refusals in a row: no budget
    players, table_id = await open_group_table(svc, "bauerchen", humans=4)
    anna, ben, cleo, dora, emil = (user(i) for i in range(5))
    # play until a human must follow suit, to have a restricted card at hand
    for _ in range(500):
        mover, b = await players.to_act()
        hand = players.hands[mover.key]
        table = Table.load((await store.load(table_id))[1])
        state = engine.from_json(table.state)
        barred = [bt for bt in act_buttons(hand) if state.phase == "play" and actarg.decode(tokens.parse(bt.token).arg)
                  not in engine.legal_actions(state)] if not table.declare else []  # not while others may declare
        if barred:
            break
        await players.step()
    before = await store.load(table_id)
    others = [u for u in (anna, ben, cleo, dora) if u.key != mover.key]
    cases = [
        (press(GROUP, emil, b.token), "Du sitzt nicht an diesem Tisch."),
        (press(GROUP, others[0], act_buttons(players.hands[others[0].key])[0].token),
         f"Du bist nicht dran, {mover.name} ist am Zug."),
        (press(GROUP, mover, "st1:nope"), "Dieser Knopf gilt nicht."),
        (press(GROUP, mover, tokens.make(table_id, before[0], "act", "zz.JC")), "Dieser Knopf gilt nicht."),
        (press(GROUP, mover, tokens.make(table_id, before[0] + 5, "act", "pl.JC")), "Dieser Knopf gilt nicht."),
        (press(GROUP, mover, tokens.make(table_id, before[0], "launch", "")), "Dieser Knopf gilt nicht."),
        (press(GROUP, mover, tokens.make("zzzzzzzz", 1, "act", "pl.JC")), "Diesen Tisch gibt es nicht mehr."),
        (say(GROUP, mover, "spiel XY"), "»XY« ist keine Karte."),
        (say(GROUP, mover, "spiel"), "Welche Karte? Zum Beispiel: spiel B♣"),
        (say(GROUP, mover, "trumpf"), "Welche Farbe? ♣ ♠ ♥ ♦"),
        (say(GROUP, mover, "platz 9"), "Plätze gibt es von 1 bis 4."),
        (say(GROUP, mover, "platz 2"), "Das Spiel läuft schon."),
        (say(GROUP, mover, "neu skat"), "»skat« kenne ich nicht. Spiele: " + ", ".join(engine.game_ids())),
        (say(GROUP, mover, "quatsch"), "»quatsch« verstehe ich nicht. »hilfe« zeigt, was geht."),
        (say(GROUP, mover, "sprache fr"), "Sprachen: de (Deutsch), en (English)"),
        (say(GROUP, emil, "abbrechen"), "Du sitzt nicht an diesem Tisch."),
        (say(GROUP, mover, "los"), "Das Spiel läuft schon."),
        (say(GROUP, mover, "revanche"), "Revanche gibt es nach der Partie."),
    ]
    cases.append((say(GROUP, mover, "trumpf H"), "Das steht jetzt nicht zur Wahl. Du kannst: eine Karte spielen, Spritzen."))
    for cmd, message in cases:
        effects = await svc.handle(cmd)
        assert of(effects, Toast) and of(effects, Toast)[0].text == message, (cmd, effects)
        assert not of(effects, TableMessage) and not of(effects, HandMessage), "a refusal sends no message anew"
        await assert_unchanged(store, table_id, before)
    # a card he may not play now is refused with the reason, and nothing is sent anew
    for bt in barred:
        effects = await svc.handle(press(GROUP, mover, bt.token))
        assert [e.text for e in effects] in (["Farbe bekennen: du musst bedienen."], ["Du musst stechen."],
                                              ["Du musst überstechen."], ["Melden geht nur, wenn du ausspielst."])
    elsewhere = next(c for c in ("JC", "JS", "JH", "JD", "AC", "AS") if f".{c}" not in str(hand.buttons))
    toast = of(await svc.handle(press(GROUP, mover, tokens.make(table_id, before[0], "act", f"pl.{elsewhere}"))), Toast)
    assert toast[0].text == "Die Karte hast du nicht."
    await assert_unchanged(store, table_id, before)
    # a stale press (the version moved on) and a double press of a card: "already played", applied once
    b = next(bt for bt in act_buttons(hand) if actarg.decode(tokens.parse(bt.token).arg) in engine.legal_actions(state))
    first = await svc.handle(press(GROUP, mover, b.token))
    assert not of(first, Toast)
    again = await svc.handle(press(GROUP, mover, b.token))
    assert of(again, Toast)[0].text == "Schon gespielt."
    assert not of(again, TableMessage), "the table message was not pressed"
    (fresh,) = of(again, HandMessage)
    assert fresh.user == mover and fresh in of(first, HandMessage), "his hand as the card left it, nothing new"
    counts = await audit(store, table_id)
    assert counts["saves"] == before[0]


async def test_new_table_refusals(store):
    svc = service(store, answers_per_minute=1000)  # refusals in a row: no budget
    anna = user(0)
    for text, message in [("neu", "Welches Spiel? neu SPIEL (" + ", ".join(engine.game_ids()) + ")"),
                          ("neu bauer 5", "Bauer spielt man zu viert."),
                          ("neu bauer foo", "»foo« verstehe ich nicht, bitte name=wert."),
                          ("neu bauer short=1", "»short« ist keine Option. Optionen: lead_trump_first, short_deck, target_brote"),
                          ("neu rams {", "Die Optionen sind kein gültiges JSON-Objekt."),
                          ("spiel JC", "Hier ist kein Tisch offen. Neuer Tisch: neu SPIEL")]:
        assert of(await svc.handle(say(GROUP, anna, text)), Toast)[0].text == message
    assert await store.table_for_chat(GROUP.key) is None


async def test_redelivered_update_is_applied_once(store):
    svc = service(store, seed=2)
    players, table_id = await open_group_table(svc, "bauer", humans=4)
    u, b = await players.to_act()
    version = (await store.load(table_id))[0]
    assert await svc.handle(press(GROUP, u, b.token, update="777"))
    assert await svc.handle(press(GROUP, u, b.token, update="777")) == []
    assert (await store.load(table_id))[0] == version + 1


async def test_a_table_survives_a_restart_mid_deal(store, redis_url, key_prefix):
    svc = service(store, seed=4)
    players, table_id = await open_group_table(svc, "bauernstoss", humans=4)
    for _ in range(9):
        await players.step()
    # a new process: new client, store and service, nothing kept in memory
    client = aioredis.Redis.from_url(redis_url, decode_responses=True)
    try:
        store2 = Store(client, prefix=key_prefix)
        players.svc = service(store2, seed=99)
        await players.play_out()
        assert (await audit(store2, table_id))["table"].status == "finished"
    finally:
        await client.aclose()


async def test_two_processes_take_turns_at_one_table(store):
    """Each service starts from the record it saved last; a move made by the other one meanwhile is
    never hidden by that: every move is applied once, and nothing is refused for a stale memory."""
    first, second = service(store, seed=5), service(store, seed=6)
    players, table_id = await open_group_table(first, "bauer", humans=4)
    players.typing = 0.5  # typed moves carry no version: only the compare-and-set catches a stale memory
    for i in range(60):
        players.svc = (second, first)[i % 2]
        effects = await players.step()
        assert not of(effects, Toast), [t.text for t in of(effects, Toast)]
    assert (await audit(store, table_id))["saves"] >= 60


async def test_a_stale_press_gets_the_current_table_from_either_process(store):
    first, second = service(store, seed=5), service(store, seed=6)
    players, table_id = await open_group_table(first, "bauer", humans=4)
    for _ in range(200):  # a press of an offer on the table message (its words change with every call)
        u, b = await players.to_act() or (None, None)
        if b is not None and tokens.parse(b.token).arg == "st":
            break
        await players.step()
    await players.send(press(GROUP, u, b.token))
    version = (await store.load(table_id))[0]
    for svc in (first, second, first):
        effects = await svc.handle(press(GROUP, u, b.token))
        # his Stoß is made; pressed again it is refused with why (the offer went to the other side), not as stale
        assert [t.text for t in of(effects, Toast)] == ["Mit Stoßen ist jetzt die andere Partei dran."]
        assert (await store.load(table_id))[0] == version  # the same answer from both processes, nothing changed
    players.svc = second
    await players.step()  # the other process moves on ...
    u, b = await players.to_act()
    players.svc = first  # ... and the first one, whose memory is one move behind, takes the next press
    assert not of(await players.send(press(GROUP, u, b.token)), Toast)
    assert (await store.load(table_id))[0] == version + 2
    await audit(store, table_id)


async def test_abort_by_opener_and_by_vote(store):
    svc = service(store)
    anna, ben, cleo = user(0), user(1), user(2)
    await svc.handle(say(GROUP, anna, "neu bauer"))
    await svc.handle(say(GROUP, ben, "mitspielen"))
    await svc.handle(say(GROUP, cleo, "mitspielen"))
    await svc.handle(say(GROUP, anna, "los"))
    effects = await svc.handle(say(GROUP, ben, "abbrechen"))
    assert of(effects, Notice)[0].text == "Ben will abbrechen (1 von 2 Stimmen)."
    effects = await svc.handle(say(GROUP, cleo, "abbrechen"))
    assert of(effects, Notice)[0].text == "Tisch abgebrochen."
    assert "abgebrochen" in table_msg(effects).text
    assert await store.table_for_chat(GROUP.key) is None
    await svc.handle(say(GROUP, ben, "neu rams"))
    effects = await svc.handle(say(GROUP, ben, "abbrechen"))
    assert of(effects, Notice)[0].text == "Tisch abgebrochen."


async def test_after_an_abort_the_old_buttons_say_the_table_is_closed(store):
    svc = service(store, seed=3)
    players, table_id = await open_group_table(svc, "bauer", humans=2)
    anna, ben = user(0), user(1)
    hands, table = dict(players.hands), players.table
    await svc.handle(say(GROUP, anna, "abbrechen"))
    await svc.handle(say(GROUP, ben, "abbrechen"))
    before = await store.load(table_id)
    closed = t("de", "table_closed")
    for u in (anna, ben):
        for b in act_buttons(hands[u.key]):
            for chat in (GROUP, private(u)):
                assert of(await svc.handle(press(chat, u, b.token)), Toast)[0].text == closed, b
        assert of(await svc.handle(press(GROUP, u, button(table, "hand").token)), Toast)[0].text == closed
    assert await store.load(table_id) == before


async def test_rematch_keeps_the_seats_and_is_started_once(store):
    svc = service(store, seed=8)
    players, table_id = await open_group_table(svc, "bauer", humans=2, extra="short_deck=1 target_brote=1")
    final = await players.play_out()
    rematch = button(final, "rematch").token
    effects = await svc.handle(press(GROUP, user(1), rematch))
    new = table_msg(effects)
    assert new.table_id != table_id and "Spiel 1" in new.text
    assert {h.user for h in of(effects, HandMessage)} == {user(0), user(1)}
    again = await svc.handle(press(GROUP, user(0), rematch))
    assert of(again, Toast)[0].text == "Schon gespielt."
    assert await store.table_for_chat(GROUP.key) == new.table_id


async def test_language_per_chat(store):
    svc = service(store, seed=1)
    anna = user(0)
    await svc.handle(say(GROUP, anna, "neu bauerchen"))
    effects = await svc.handle(say(GROUP, anna, "language en"))
    assert of(effects, Notice)[0].text == "Language: English"
    assert "Anna's table" in table_msg(effects).text
    assert [b.label for b in table_msg(effects).buttons[0]][:2] == ["Join", "Leave"]
    effects = await svc.handle(say(GROUP, anna, "start"))
    hand = of(effects, HandMessage)[0]
    assert "Your cards" in hand.text
    other = GROUP.__class__(GROUP.platform, "g9", title="Andere")
    assert "Tisch von Anna" in table_msg(await svc.handle(say(other, anna, "neu rams"))).text


async def test_a_migrated_group_keeps_its_table_and_language(store):
    svc = service(store)
    anna, ben = user(0), user(1)
    await svc.handle(say(GROUP, anna, "neu bauerchen"))
    await svc.handle(say(GROUP, anna, "language en"))
    typed = await svc.handle(say(GROUP, anna, "migrate g-new"))
    assert of(typed, Toast) and await store.table_for_chat(GROUP.key) is not None, "only an adapter may migrate"
    moved = await svc.migrate(GROUP, "g-new")
    new = GROUP.__class__(GROUP.platform, "g-new", title=GROUP.title)
    message = table_msg(moved)
    assert message.repost and message.chat.chat_id == "g-new" and "Anna's table" in message.text
    assert await store.table_for_chat(GROUP.key) is None
    table_id = await store.table_for_chat(new.key)
    assert table_id == message.table_id
    assert "Ben" in table_msg(await svc.handle(press(new, ben, button(message, "join").token))).text
    assert await svc.migrate(GROUP, "g-new") == [], "a repeated migration changes nothing"


async def test_leaving_during_play_hands_the_seat_to_a_computer(store):
    svc = service(store, seed=6)
    players, table_id = await open_group_table(svc, "rams", humans=2)
    effects = await svc.handle(say(GROUP, user(1), "aufstehen"))
    assert of(effects, Notice)[0].text == "Ben ist aufgestanden, ein Computer übernimmt den Platz."
    table = (await audit(store, table_id))["table"]
    assert table.seat_of(user(1).key) is None and sum(s.bot for s in table.seats) == 3


async def test_hand_and_table_commands(store):
    svc = service(store, seed=6)
    players, table_id = await open_group_table(svc, "bauer", humans=2)
    before = await store.load(table_id)
    effects = await svc.handle(say(GROUP, user(1), "hand"))
    assert [h.user for h in of(effects, HandMessage)] == [user(1)] and not of(effects, TableMessage)
    effects = await svc.handle(say(GROUP, user(1), "tisch"))
    assert table_msg(effects).repost
    effects = await svc.handle(press(GROUP, user(0), button(players.table, "hand").token))
    assert [h.user for h in of(effects, HandMessage)] == [user(0)]
    await assert_unchanged(store, table_id, before)


async def test_input_no_parser_foresaw_is_refused_without_a_crash(store):
    svc = service(store)
    anna = user(0)
    deep = "neu bauer " + '{"x":' * 1100
    for text in ("neu bauer ²", deep, "platz ²"):
        assert of(await svc.handle(say(GROUP, anna, text)), Toast), text
    await svc.handle(say(GROUP, anna, "neu bauer"))
    before = await store.load(await store.table_for_chat(GROUP.key))
    for text in ("platz ²", "option reminder_after 99999999999999999d", "computer weg ³"):
        assert of(await svc.handle(say(GROUP, anna, text)), Toast), text
    assert await store.load(await store.table_for_chat(GROUP.key)) == before


async def test_a_typed_illegal_card_in_the_group_reveals_nothing_of_the_hand(store):
    svc = service(store, seed=4)
    players, table_id = await open_group_table(svc, "bauerchen", humans=4)
    for _ in range(200):
        table = await stored_table(store, table_id)
        state = engine.from_json(table.state)
        seat = state.to_act
        legal = {a.card for a in engine.legal_actions(state) if a.kind == "play"}
        barred = [c for c in cards_in(state.hands[seat]) if c not in legal]
        if state.phase == "play" and barred:
            before = await store.load(table_id)
            who = players.users[table.seats[seat].user]
            refusal = of(await svc.handle(say(GROUP, who, f"spiel {card_str(barred[0])}")), Toast)[0].text
            assert refusal == "Das geht so nicht. Spiel deine Karten mit den Knöpfen in unserem privaten Chat."
            assert await store.load(table_id) == before
            return
        await players.step()
    raise AssertionError("no seat ever held a card it could not play")


async def stored_table(store, table_id) -> Table:
    return Table.load((await store.load(table_id))[1])


async def test_a_rematch_refused_for_an_open_table_stays_available(store):
    svc = service(store, seed=8)
    players, table_id = await open_group_table(svc, "bauer", humans=2, extra="short_deck=1 target_brote=1")
    final = await players.play_out()
    await svc.handle(say(GROUP, user(2), "neu rams"))
    refused = await svc.handle(press(GROUP, user(1), button(final, "rematch").token))
    assert of(refused, Toast)[0].text == "Hier läuft schon ein Tisch. »abbrechen« beendet ihn."
    await svc.handle(say(GROUP, user(2), "abbrechen"))
    effects = await svc.handle(press(GROUP, user(1), button(final, "rematch").token))
    assert table_msg(effects).table_id != table_id and of(effects, HandMessage)


async def test_revanche_typed_after_the_match_starts_the_rematch(store):
    svc = service(store, seed=8)
    players, table_id = await open_group_table(svc, "bauer", humans=2, extra="short_deck=1 target_brote=1")
    await players.play_out()
    effects = await svc.handle(say(GROUP, user(1), "revanche"))
    new = table_msg(effects)
    assert new.table_id != table_id and {h.user for h in of(effects, HandMessage)} == {user(0), user(1)}
    assert of(await svc.handle(say(GROUP, user(0), "revanche")), Toast)


async def test_hand_in_the_private_chat_shows_every_running_table(store):
    svc = service(store, seed=5)
    anna = user(0)
    for chat in (GROUP, GROUP.__class__(GROUP.platform, "g2", title="Other")):
        await svc.handle(say(chat, anna, "neu bauer"))
        await svc.handle(say(chat, anna, "los"))
    hands = of(await svc.handle(say(private(anna), anna, "hand")), HandMessage)
    assert len(hands) == 2 and {h.user for h in hands} == {anna}
    assert {h.chat.chat_id for h in hands} == {GROUP.chat_id, "g2"}
    assert of(await svc.handle(say(private(user(3)), user(3), "hand")), Toast)[0].text == \
        "Du sitzt an keinem laufenden Tisch."


async def test_join_typed_by_someone_the_platform_says_is_unreachable_sends_the_link_first(store):
    svc = service(store)
    anna, ben = user(0), user(1)
    table_id = table_msg(await svc.handle(say(GROUP, anna, "neu bauer"))).table_id
    effects = await svc.handle(replace(say(GROUP, ben, "mitspielen"), reachable=False))
    assert [type(e) for e in effects] == [JoinLink] and effects[0].payload == join_payload(table_id)
    assert Table.load((await store.load(table_id))[1]).seat_of(ben.key) is None
    effects = await svc.handle(say(private(ben), ben, f"start {join_payload(table_id)}"))
    assert "2 Ben" in table_msg(effects).text
