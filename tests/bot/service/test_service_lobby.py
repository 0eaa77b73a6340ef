"""Lobby and table verbs that never fight the players: old messages still work for what still makes sense,
moves typed in the private chat find the one running table, refusals speak the table's language."""

from __future__ import annotations

import pytest

import engine
from bot.protocol import actarg, tokens
from bot.protocol.outgoing import ChatRef, Command, HandMessage, Notice, TableMessage, Toast
from bot.table.computer import LEVEL_OPTION
from bot.table.options import CURRENCY, DURATIONS
from bot.table.record import Table
from bot.words.catalogs import language, languages
from bot.words.i18n import t
from tests.servicekit import (GROUP, act_buttons, button, let_windows_pass, of, playable, press, private, say, service,
                              table_msg, user)
from tests.servicekit import typed as typed_action


async def test_lobby_buttons_work_from_an_older_message(store):
    svc = service(store, seed=1)
    anna, ben = user(0), user(1)
    first = table_msg(await svc.handle(say(GROUP, anna, "neu bauer")))
    joined = await svc.handle(press(GROUP, ben, button(first, "join").token))
    assert not of(joined, Toast)
    # Anna still looks at the first message (a version behind): computer, options and start still work
    for verb in ("bot", "opts"):
        assert not of(await svc.handle(press(GROUP, anna, button(first, verb).token)), Toast), verb
    started = await svc.handle(press(GROUP, anna, button(first, "start").token))
    assert not of(started, Toast) and "Spiel 1" in table_msg(started).text
    # once the game runs, an old lobby button says why it no longer applies
    again = of(await svc.handle(press(GROUP, anna, button(first, "bot").token)), Toast)
    assert [t.text for t in again] == ["Das Spiel läuft schon."]


async def test_card_plays_still_insist_on_the_current_version(store):
    svc = service(store, seed=2)
    anna = user(0)
    chat = private(anna)
    effects = await svc.handle(say(chat, anna, "neu bauerchen"))
    effects += await let_windows_pass(svc, store, of(effects, HandMessage)[0].table_id, chat)
    hand = of(effects, HandMessage)[-1]
    allowed = playable(Table.load((await store.load(hand.table_id))[1]))[1]
    act = act_buttons(hand, allowed)[0]
    assert not of(await svc.handle(press(chat, anna, act.token)), Toast)
    assert [t.text for t in of(await svc.handle(press(chat, anna, act.token)), Toast)] == ["Schon gespielt."]


async def test_a_move_typed_in_the_private_chat_goes_to_the_one_running_table(store):
    svc = service(store, seed=3)
    anna, ben = user(0), user(1)
    table = table_msg(await svc.handle(say(GROUP, anna, "neu bauer")))
    await svc.handle(press(GROUP, ben, button(table, "join").token))
    effects = await svc.handle(say(GROUP, anna, "los"))
    effects += await let_windows_pass(svc, store, table.table_id, GROUP)
    hands = {h.user: h for h in of(effects, HandMessage)}
    mover = next(u for u, h in hands.items() if any(":act:" in b.token for row in h.buttons for b in row))
    act = next(b for row in hands[mover].buttons for b in row if ":act:" in b.token)
    typed = await svc.handle(say(private(mover), mover, typed_action(actarg.decode(tokens.parse(act.token).arg))))
    assert not of(typed, Toast), [t.text for t in of(typed, Toast)]
    assert table_msg(typed).chat == GROUP  # the group's table moved on
    # a second running table: he is asked which
    other = ChatRef("test", "g2", title="Zweiter Tisch")
    await svc.handle(say(other, mover, "neu rams 3"))
    await svc.handle(say(other, mover, "los"))
    (asked,) = of(await svc.handle(say(private(mover), mover, "weg")), Toast)
    assert asked.text.startswith("An welchem Tisch? Du spielst an: ") and "Zweiter Tisch" in asked.text


async def test_refusals_speak_the_tables_language_and_the_german_reads_right(store):
    svc = service(store, seed=4)
    anna = user(0)
    table = table_msg(await svc.handle(say(GROUP, anna, "neu bauer")))
    forged = tokens.make(table.table_id, 1, "zz")
    en_client = of(await svc.handle(Command(private(anna), anna, token=forged, lang="en")), Toast)
    assert [t.text for t in en_client] == ["Dieser Knopf gilt nicht."]
    (bad,) = of(await svc.handle(say(ChatRef("test", "g3"), anna, "neu bauer 3")), Toast)
    assert bad.text == "Bauer spielt man zu viert."
    (rams,) = of(await svc.handle(say(GROUP, anna, "regeln rams")), Notice)
    assert "21 (ab 5 Spielern 15) Stiche" in rams.text
    five = table_msg(await svc.handle(say(ChatRef("test", "g4"), anna, "neu rams 5")))
    (rules,) = of(await svc.handle(press(ChatRef("test", "g4"), anna, button(five, "rules").token)), Notice)
    assert "Wer zuerst 15 Stiche hat" in rules.text and "21/15" not in rules.text


async def test_a_typed_refusal_in_a_german_group_is_german_whatever_the_client_speaks(store):
    svc = service(store, seed=4)
    anna = user(0)
    (no_table,) = of(await svc.handle(Command(GROUP, anna, verb="zettel", lang="en")), Toast)
    assert no_table.text == "Hier ist kein Tisch offen. Neuer Tisch: neu SPIEL"
    (private_en,) = of(await svc.handle(Command(private(anna), anna, verb="zettel", lang="en")), Toast)
    assert private_en.text.startswith("No table is open here."), "in his private chat, his client's language"


async def test_options_are_named_in_the_chats_language_with_the_key_to_type(store):
    svc = service(store, seed=4)
    anna = user(0)
    table = table_msg(await svc.handle(say(GROUP, anna, "neu rams sixes=an unit=2,5")))
    assert "Regeln: Sechser an · Einsatz je Platz 2,5 · Währung Fr." in table.text
    shown = table_msg(await svc.handle(press(GROUP, anna, button(table, "opts").token)))
    assert "Sechser: an" in [b.label for row in shown.buttons for b in row]
    (bad,) = of(await svc.handle(say(GROUP, anna, "option target x")), Toast)
    assert bad.text == "Option Ziel (target): erlaubt ist eine ganze Zahl von 1 bis 100 oder »standard«."
    (unknown,) = of(await svc.handle(say(GROUP, anna, "option farbe rot")), Toast)
    assert unknown.text == "»farbe« ist keine Option. Optionen: sixes, target, unit, kartoffel_fee, " \
                           "reminder_after, autoplay_after, declare_wait, level, pace, currency, tipps", "the keys to type"
    (money,) = of(await svc.handle(say(GROUP, anna, "option currency Franken-und-Rappen")), Toast)
    assert money.text.startswith("Option Währung (currency): erlaubt ist ein kurzes Wort")
    table = table_msg(await svc.handle(say(GROUP, anna, "option currency CHF")))
    assert "Währung CHF" in table.text


async def test_the_bauer_rules_name_the_trump_lead_duty_and_why_a_brot_climbs(store):
    svc = service(store, seed=4)
    anna = user(0)
    (rules,) = of(await svc.handle(say(GROUP, anna, "regeln bauer")), Notice)
    assert "spielt zum ersten Stich Trumpf aus, wenn er einen hat" in rules.text
    assert "verliert die Trumpfpartei (auch bei Stichgleichheit), steigt ihr Brot um 1" in rules.text
    table = table_msg(await svc.handle(say(GROUP, anna, "neu bauer lead_trump_first=aus")))
    (rules,) = of(await svc.handle(press(GROUP, anna, button(table, "rules").token)), Notice)
    assert "Trumpf aus, wenn" not in rules.text


def test_every_option_has_a_label_in_every_language():
    names = {n for game in engine.game_ids() for n in engine.option_specs(game)} | {*DURATIONS, LEVEL_OPTION, "pace",
                                                                                      CURRENCY}
    assert sorted(n for n in names if not all(f"opt.{n}" in language(lang).ids for lang in languages())) == []


async def test_a_re_posted_table_message_and_the_score_sheet_in_a_group(store):
    svc = service(store, seed=5)
    anna = user(0)
    await svc.handle(say(GROUP, anna, "neu bauer"))
    await svc.handle(say(GROUP, anna, "los"))
    (again,) = of(await svc.handle(say(GROUP, anna, "tisch")), TableMessage)
    assert again.repost
    (sheet,) = of(await svc.handle(say(GROUP, anna, "zettel")), Notice)
    assert sheet.text.startswith("📋 Zettel · Bauer")


@pytest.mark.parametrize(("game", "sizes"), [("bauernstoss", [4]), ("alter_schafkopf", [4]), ("bauerchen", [4]),
                                             ("bauer", [4]), ("rams", [3, 4, 5, 6, 7])])
async def test_the_rules_of_every_game_at_every_table_size(store, game, sizes):
    """``regeln``, ``regeln SPIEL`` and the Rules button answer with the game's rules at every table size."""
    svc = service(store, seed=6)
    anna = user(0)
    for n in sizes:
        chat = ChatRef("test", f"rules-{game}-{n}")
        table = table_msg(await svc.handle(say(chat, anna, f"neu {game} {n}")))
        (typed,) = of(await svc.handle(say(chat, anna, "regeln")), Notice)
        (pressed,) = of(await svc.handle(press(chat, anna, button(table, "rules").token)), Notice)
        assert typed.text == pressed.text and typed.text.startswith(t("de", f"game.{game}"))
        assert "{" not in typed.text
        (by_name,) = of(await svc.handle(say(chat, anna, f"regeln {game}")), Notice)
        assert by_name.text.startswith(t("de", f"game.{game}")) and "{" not in by_name.text
