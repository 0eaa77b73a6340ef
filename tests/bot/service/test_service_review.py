"""»Nachbesprechung«: a player's review of a finished deal, by button or typed, to him alone."""

from __future__ import annotations

import re

import pytest

import engine
from bot.protocol import tokens
from bot.protocol.outgoing import PrivateText, Toast
from bot.table.deal_log import finished_deal
from bot.table.record import Table
from bot.words.cards import card_label
from engine.cards import card_str
from tests.servicekit import GROUP, Players, button, of, press, private, say, service, table_msg, user

ANNA, BEN, DORA = user(0), user(1), user(3)
CARD = re.compile(r"(?:10|[2-9AKDBJQ])[♣♠♥♦]")


async def _after_one_deal(store, game: str = "bauer", options: str = "short_deck=true"):
    """Anna and Ben with two computers at a table in the group, its first deal played out."""
    svc = service(store, seed=3, review_samples=2)
    players = Players(svc, GROUP, [ANNA, BEN], seed=3)
    table_id = tokens.parse(button(table_msg(await players.send(say(GROUP, ANNA, f"neu {game} {options}"))),
                                   "join").token).table
    await players.send(say(GROUP, BEN, "mitspielen"))
    await players.send(say(GROUP, ANNA, "computer"))
    await players.send(say(GROUP, ANNA, "computer"))
    await players.send(say(GROUP, ANNA, "los"))
    while Table.load((await store.load(table_id))[1]).deals_over < 1:
        await players.step()
    return svc, players, table_id


async def test_each_player_gets_his_own_review_privately_by_button_or_typed(store):
    svc, players, table_id = await _after_one_deal(store)
    assert button(players.table, "review").label == "🔍 Nachbesprechung", "the table message offers it after the deal"
    token = button(players.table, "review").token
    effects = await svc.handle(press(GROUP, ANNA, token))
    (review,) = of(effects, PrivateText)
    assert review.user == ANNA and not of(effects, Toast) and len(effects) == 1, "his review, to him alone"
    assert review.text.startswith("🔍 Spiel 1, deine Sicht\nNachbesprechung (Bauer): ")
    typed = of(await svc.handle(say(GROUP, BEN, "nachbesprechung")), PrivateText)
    assert [r.user for r in typed] == [BEN] and "Spiel 1" in typed[0].text
    english = of(await svc.handle(say(private(BEN), BEN, "review")), PrivateText)
    assert [r.user for r in english] == [BEN], "the English word, in his private chat: his one table"
    again = of(await svc.handle(press(GROUP, ANNA, token)), PrivateText)
    assert again[0].text == review.text, "a review made is kept: the same again at once"


async def test_a_review_names_only_his_own_cards_and_those_the_table_saw_in_the_chat_and_on_the_web(store):
    svc, players, table_id = await _after_one_deal(store)
    (review,) = of(await svc.handle(say(GROUP, ANNA, "nachbesprechung")), PrivateText)
    deal = finished_deal(await store.log(table_id), 1)
    seat = Table.load((await store.load(table_id))[1]).seat_of(ANNA.key)
    played = {card_label(card_str(action.card), "de") for _, action, _ in deal.actions if action.card >= 0}
    states = [deal.start]
    for actor, action, _ in deal.actions:
        states.append(engine.apply(states[-1], actor, action)[0])
    own = {card_label(c, "de") for state in states for c in engine.view(state, seat)["hand"]}
    steps = await svc.review_steps(table_id, ANNA)
    every = "\n".join(d["text"] for step in steps["steps"] for d in step["decisions"])
    named = set(CARD.findall(review.text + every))
    assert named and named <= played | own, named - played - own
    assert {c["card"] for step in steps["steps"] if step["trick"] for c in step["trick"]["cards"]} <= \
        {card_str(action.card) for _, action, _ in deal.actions if action.card >= 0}, "the tricks as played, no more"


async def test_refusals_short_and_clear(store):
    svc = service(store, seed=1, review_samples=2)
    assert of(await svc.handle(say(GROUP, ANNA, "nachbesprechung")), Toast)[0].text == \
        "Noch ist hier kein Spiel zu Ende, das du besprechen könntest."
    svc, players, table_id = await _after_one_deal(store)
    token = button(players.table, "review").token
    (toast,) = of(await svc.handle(press(GROUP, DORA, token)), Toast)
    assert toast.text == "Du hast in Spiel 1 nicht mitgespielt." and toast.user == DORA
    assert await store.reviews.claim(BEN.key), "as if his review were under way in another process"
    (busy,) = of(await svc.handle(say(GROUP, BEN, "review")), Toast)
    assert busy.text == "Deine Nachbesprechung läuft schon – einen Moment."
    await store.reviews.release(BEN.key)
    forged = tokens.make(table_id, 1, "review", "x")
    assert of(await svc.handle(press(GROUP, ANNA, forged)), Toast)[0].text != ""
    later = tokens.make(table_id, 1, "review", "9")
    assert of(await svc.handle(press(GROUP, ANNA, later)), Toast)[0].text == \
        "Noch ist hier kein Spiel zu Ende, das du besprechen könntest."


@pytest.mark.parametrize("lang", ["en"])
async def test_in_english(store, lang):
    svc, players, table_id = await _after_one_deal(store)
    await svc.handle(say(GROUP, ANNA, f"sprache {lang}"))
    (review,) = of(await svc.handle(say(GROUP, ANNA, "review")), PrivateText)
    assert review.text.startswith("🔍 Deal 1, your view\nReview (Bauer): ")
