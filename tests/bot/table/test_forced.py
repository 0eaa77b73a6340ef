"""Moves the rules leave no choice in are made for the person: his last card, Rams's »Mitspielen« after robbing."""

from __future__ import annotations

import random

import engine
from bot.table import forced
from bot.table.deal_log import finished_deal
from bot.table.record import Table
from engine.actions import PLAY
from engine.rams import PLAY_HAND
from engine.state import PLAY_PHASE
from tests.servicekit import GROUP, Players, say, service, user


def _walk(game: str, seed: int, deals: int):
    """Every state of ``deals`` random deals of ``game`` (the random player acts, offers now and then)."""
    rng = random.Random(seed)
    state = engine.new_match(game, rng)
    for _ in range(deals):
        while not engine.is_over(state):
            yield state
            offers = [(s, a) for s, acts in engine.offers(state).items() for a in acts]
            seat, action = (rng.choice(offers) if offers and rng.random() < 0.02
                            else (state.to_act, rng.choice(engine.legal_actions(state))))
            state, _ = engine.apply(state, seat, action)
        if engine.match_over(state):
            state = engine.new_match(game, rng)
        else:
            state = engine.next_deal(state, rng)


def _replayed(entries: list[str], deals: int):
    """Each move of a table's ``deals`` finished deals, read back from its move log (:mod:`bot.table.deal_log`), with
    the state it was made in: ``(state, seat, action, by)``."""
    for no in range(1, deals + 1):
        deal = finished_deal(entries, no)
        state = deal.start
        for seat, action, by in deal.actions:
            yield state, seat, action, by
            state, _ = engine.apply(state, seat, action)


def test_only_a_move_without_a_choice_is_forced_and_never_while_someone_may_double():
    for game in ("bauernstoss", "alter_schafkopf", "bauerchen", "bauer", "rams"):
        made = {"card": 0, "decision": 0, "offer open": 0}
        for state in _walk(game, seed=7, deals=60):
            action = forced.move(state)
            last = state.phase == PLAY_PHASE and state.hands[state.to_act].bit_count() == 1
            if action is None:
                made["offer open"] += last and any(engine.offers(state).values())
                continue
            assert engine.legal_actions(state) == [action] and not any(engine.offers(state).values()), (game, state)
            if action.kind == PLAY:
                assert last, (game, action)
                made["card"] += 1
            else:
                assert action == PLAY_HAND, (game, action)
                made["decision"] += 1
        assert made["card"] >= 60, (game, made)  # most deals end with a last trick nobody may double any more
        assert made["decision"] > 0 or game != "rams", made  # a dealer who robbed
        assert made["offer open"] > 0 or game not in ("bauerchen", "bauer"), (game, made)  # a doubling still open


async def test_a_rams_match_of_people_plays_each_last_trick_and_each_robbers_decision_itself(store):
    svc = service(store, seed=3, reminder_after="off", autoplay_after="off")
    people = [user(i) for i in range(4)]
    players = Players(svc, GROUP, people, seed=5)
    table_id = await players.sit_down("rams")
    final = await players.play_out()  # and no press of theirs was refused
    deals = Table.load((await store.load(table_id))[1]).deals
    made = {"card": 0, "decision": 0, "pressed": 0}
    for state, seat, action, by in _replayed(await store.log(table_id), deals):
        if by == forced.BY:
            assert forced.move(state) == action and seat == state.to_act
            made["card" if action.kind == PLAY else "decision"] += 1
        else:
            assert forced.move(state) is None, "a person pressed a move the rules had made for him"
            made["pressed"] += 1
        after, _ = engine.apply(state, seat, action)
        if engine.is_over(after):
            assert not any(h for s, h in enumerate(after.hands) if after.active[s]), "every card was played"
    assert made["card"] >= 2 * deals, made  # the last trick: every seat in play, at least two
    assert made["pressed"] > made["card"] and "🏆" in final.text


async def test_a_computers_doubling_does_not_hold_a_persons_last_card(store):
    svc = service(store, seed=2, reminder_after="off", autoplay_after="off")
    anna = user(0)
    players = Players(svc, GROUP, [anna], seed=2)
    await players.send(say(GROUP, anna, "neu bauerchen"))
    for _ in range(3):
        await players.send(say(GROUP, anna, "computer"))
    await players.send(say(GROUP, anna, "los"))
    table_id = (await players.play_out()).table_id
    forced_cards = open_to_computers = 0
    deals = Table.load((await store.load(table_id))[1]).deals
    for state, seat, action, by in _replayed(await store.log(table_id), deals):
        if by != forced.BY:
            continue
        assert seat == 0 and action.kind == PLAY and state.hands[0].bit_count() == 1
        forced_cards += 1
        open_to_computers += any(state.offers_for(s) for s in (1, 2, 3))
    assert open_to_computers > 0 and forced_cards > open_to_computers, (forced_cards, open_to_computers)
