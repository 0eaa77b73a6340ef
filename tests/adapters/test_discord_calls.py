"""What a press costs on Discord: its one answer carries the presser's hand; nothing is edited to
show what a message shows already, in any process.

The real discord.py client, service and store against the fake Discord; the service is the real
one, remembering what it answered so a test can hand the same effects to the adapter again.
"""

from __future__ import annotations

import asyncio
import json
import random
from contextlib import asynccontextmanager

import pytest

import engine
from adapters.common.refs import MessageRef, fingerprint
from adapters.discord.tuning import Tuning
from bot.ops.settings import load_settings
from bot.protocol import actarg, tokens
from bot.protocol.outgoing import Button, Command, HandMessage, Notice, Outgoing, TableMessage
from bot.service import Service
from bot.table.record import Table
from engine.actions import Action
from tests.fakes.discord import FakeDiscord, Member
from tests.fakes.reading import drained
from tests.fakes.discord.harness import (
    FAST,
    fake_for,
    hand_of,
    let_windows_pass,
    open_table,
    press,
    press_verb,
    running_bot,
    settled,
    table_tokens,
)

GUILD = 83_000_000_000_000_000
CHANNEL = 83_000_000_000_000_100


class Remembering(Service):
    """The service, keeping the effects of every command it handled (newest last)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.answers: list[list[Outgoing]] = []

    async def handle(self, cmd: Command) -> list[Outgoing]:
        """Handle ``cmd`` as the service does and remember its effects."""
        out = await super().handle(cmd)
        self.answers.append(out)
        return out


def world(fake: FakeDiscord, closed: str = "") -> list[Member]:
    """A guild with one channel and four members (the one named ``closed`` has closed his DMs)."""
    fake.guild(GUILD, "Stammtisch Lautern", {CHANNEL: "karten"})
    return [fake.member(3000 + i, name, dms_open=name != closed) for i, name in enumerate(["Anna", "Ben", "Cleo", "Dora"])]


@asynccontextmanager
async def dealt(store, redis, key_prefix: str, service: Service | None = None, tuning: Tuning = FAST,
                game: str = "bauer"):
    """Four members at a table of ``game`` in a channel, their hands dealt and shown: (fake, bot, members, table id).

    The deal is shown with :data:`FAST`'s short waits and the test goes on with ``tuning``'s: a press answered late
    on a loaded machine is deferred and its table edit queued, which would wait out a test's long table wait here
    (three tests that wait 60 s took 62 s now and then in loaded suite runs)."""
    async with fake_for(tuning) as fake:
        members = world(fake)
        async with running_bot(fake, store, redis, key_prefix, FAST, service=service) as bot:
            tid = await open_table(fake, CHANNEL, members[0], members[1:], game)
            await fake.wait_for(lambda: all(hand_of(fake, m, CHANNEL, tid) for m in members), what="every hand")
            await settled(bot)
            bot.delivery.tuning = tuning
            yield fake, bot, members, tid


async def to_act(store, table_id: str, members: list[Member]) -> tuple[Member, set[str]]:
    """Who is to act, and the token arguments of what he may do."""
    _, data = await store.load(table_id)
    table = Table.load(data)
    state = engine.from_json(table.state)
    seat = state.to_act
    legal = {actarg.encode(Action.from_dict(a)) for a in engine.view(state, seat)["legal"]}
    return next(m for m in members if table.seats[seat].user == f"discord:{m.id}"), legal


async def playable(fake: FakeDiscord, store, table_id: str, members: list[Member]):
    """The player to act (once nobody may still declare before the first lead), his hand message and a token
    he may press on it."""
    await let_windows_pass(fake, store, CHANNEL, table_id, members)
    member, legal = await to_act(store, table_id, members)

    def ready():
        hand = hand_of(fake, member, CHANNEL, table_id)
        found = [t for t in table_tokens(hand, table_id) if t.verb == "act" and t.arg in legal]
        return (hand, str(found[0])) if found else None
    hand, token = await fake.wait_for(ready, what=f"a card {member.name} may play")
    return member, hand, token


async def test_a_card_pressed_on_the_hand_dm_costs_one_answer_that_shows_the_new_hand(store, redis, key_prefix):
    async with dealt(store, redis, key_prefix) as (fake, bot, members, tid):
        for _ in range(6):
            member, hand, token = await playable(fake, store, tid, members)
            first = len(fake.calls)
            answer = await press(fake, member, hand, token)
            await settled(bot)
            calls = fake.calls[first:]
            assert answer["type"] == 7, "his changed hand rides on the answer"
            assert hand.content == answer["data"]["content"], "the message he pressed on shows it"
            assert [c.route for c in calls if c.route.startswith("/interactions")] == [
                "/interactions/{interaction}/{token}/callback"], "one answer"
            assert not [c for c in calls if c.channel == fake.dm_of[member.id]], "no call to his DM besides"


async def test_the_hand_an_answer_showed_is_not_queued_again_to_hold_back_his_next_one(store, redis, key_prefix):
    """The answer to his card showed his hand; the copy among the change's effects would change nothing, and queued
    it would bound how long his next hand may wait (a hand that only lost a choice waits for its next change)."""
    async with dealt(store, redis, key_prefix) as (fake, bot, members, tid):
        for _ in range(2):  # past the first card, which takes Karten weg from the other hands
            member, hand, token = await playable(fake, store, tid, members)
            assert (await press(fake, member, hand, token))["type"] == 7
        await settled(bot)
        bot.delivery.tuning = FAST.model_copy(update={"lazy_s": 60.0})  # a queued copy would wait a minute
        member, hand, token = await playable(fake, store, tid, members)
        first = len(fake.calls)
        assert (await press(fake, member, hand, token))["type"] == 7
        await asyncio.wait_for(settled(bot), 10)
        assert not [c for c in fake.calls[first:] if c.channel == fake.dm_of[member.id]], "nothing more to his DM"


@pytest.mark.parametrize("game", ["bauernstoss", "alter_schafkopf"])
async def test_a_bid_edits_no_other_hand_than_the_next_bidders_whose_bids_come_at_his_turn(store, redis, key_prefix,
                                                                                              game):
    service = Service(store, load_settings(), rng=random.Random(2))  # dealt without four jacks in one hand
    async with dealt(store, redis, key_prefix, service, game=game) as (fake, bot, members, tid):
        bids = 0
        while True:
            _, data = await store.load(tid)
            state = engine.from_json(Table.load(data).state)
            if state.phase != "announce" or state.to_act is None:
                break
            member, hand, token = await playable(fake, store, tid, members)
            after, _ = engine.apply(state, state.to_act, actarg.decode(tokens.parse(token).arg))
            seats = Table.load(data).seats
            nxt = next((m for m in members if after.phase == "announce" and seats[after.to_act].user.endswith(f":{m.id}")),
                       None)
            others = [m for m in members if m is not member and m is not nxt]
            first = len(fake.calls)
            assert (await press(fake, member, hand, token))["type"] == 7, "his hand, his bid made, on the answer"
            await settled(bot)
            assert not [c for c in fake.calls[first:] if c.channel in {fake.dm_of[m.id] for m in others}], \
                "no other hand is edited than the next bidder's, which now shows exactly what he may bid"
            if nxt is not None:
                assert [c for c in fake.calls[first:] if c.channel == fake.dm_of[nxt.id]], \
                    "the next bidder's hand shows his bids now"
            bids += 1
        assert bids >= 2, "a bidding round was played"


async def test_a_hand_of_first_cards_waits_for_the_rest_which_come_when_trump_is_named(store, redis, key_prefix):
    lazy = FAST.model_copy(update={"partial_s": 60.0})  # longer than any test: only the naming lets them go
    async with fake_for(lazy) as fake:
        members = world(fake)
        async with running_bot(fake, store, redis, key_prefix, lazy) as bot:
            tid = await open_table(fake, CHANNEL, members[0], members[1:], "bauerchen")
            forehand, hand, token = await playable(fake, store, tid, members)  # he names trump on two cards
            others = [m for m in members if m is not forehand]
            assert not any(hand_of(fake, m, CHANNEL, tid) for m in others), "their two cards wait"
            assert (await press(fake, forehand, hand, token))["type"] == 7
            await fake.wait_for(lambda: all(hand_of(fake, m, CHANNEL, tid) for m in others), what="their hands")
            await settled(bot)
            for m in others:
                shown = hand_of(fake, m, CHANNEL, tid)
                assert len(shown.history) == 1 and len(table_tokens(shown, tid)) >= 5, "one message, all five cards"


async def test_hands_whose_window_before_the_first_lead_opens_go_out_at_once(store, redis, key_prefix):
    """Trump named, the others may declare or let it pass, and the first card waits for them: their hands do not wait
    as a hand with nothing to do does (``lazy_s``)."""
    lazy = FAST.model_copy(update={"lazy_s": 60.0})  # longer than any test
    async with dealt(store, redis, key_prefix, tuning=lazy) as (fake, bot, members, tid):
        forehand, hand, token = await playable(fake, store, tid, members)  # he names trump
        assert (await press(fake, forehand, hand, token))["type"] == 7
        await asyncio.wait_for(let_windows_pass(fake, store, CHANNEL, tid, members), 10)  # each sees his »Weiter«


async def test_during_a_deal_the_table_waits_for_the_next_card_but_not_behind_a_notice(store, redis, key_prefix):
    lazy = FAST.model_copy(update={"table_lazy_s": 60.0})  # longer than any test: only a notice lets it go
    async with dealt(store, redis, key_prefix, tuning=lazy) as (fake, bot, members, tid):
        table = next(m for m in fake.seen_by(0, CHANNEL) if table_tokens(m, tid))
        shown = len(table.history)
        for _ in range(2):
            member, hand, token = await playable(fake, store, tid, members)
            assert (await press(fake, member, hand, token))["type"] == 7
        await fake.answer(members[0].slash(CHANNEL, "abort"))  # a notice in the channel: the table goes now
        await settled(bot)
        assert len(table.history) == shown + 1, "one edit shows both cards and the vote"
        assert max(t.version for t in table_tokens(table, tid)) == (await store.load(tid))[0]


async def test_a_stopping_bot_shows_at_once_the_table_that_waits_for_the_next_card(store, redis, key_prefix):
    lazy = FAST.model_copy(update={"table_lazy_s": 60.0})  # longer than any test
    async with dealt(store, redis, key_prefix, tuning=lazy) as (fake, bot, members, tid):
        table = next(m for m in fake.seen_by(0, CHANNEL) if table_tokens(m, tid))
        member, hand, token = await playable(fake, store, tid, members)
        assert (await press(fake, member, hand, token))["type"] == 7
        await fake.wait_for(lambda: bot.outbox._pending, what="the table's edit queued")
        await asyncio.wait_for(bot.idle(flush=True), 10)  # as the bot's stop does: it goes now, not in 60 s
        assert max(t.version for t in table_tokens(table, tid)) == (await store.load(tid))[0]


async def test_at_a_deals_end_its_result_goes_first_and_the_table_waits_behind_it_for_the_next_move(store, redis,
                                                                                                      key_prefix):
    """The result shows how the deal ended; the table (the next deal's) may wait for that deal's first move."""
    lazy = FAST.model_copy(update={"table_lazy_s": 60.0})  # longer than any test: only a notice lets it go
    service = Remembering(store, load_settings())
    async with dealt(store, redis, key_prefix, service, tuning=lazy) as (fake, bot, members, tid):
        table = next(m for m in fake.seen_by(0, CHANNEL) if table_tokens(m, tid))
        shown = len(table.history)
        member, hand, token = await playable(fake, store, tid, members)
        assert (await press(fake, member, hand, token))["type"] == 7
        await asyncio.wait_for(drained(redis, key_prefix, "discord"), 10)  # its table waits in the queue
        effects = service.answers[-1]
        chat = next(o.chat for o in effects if isinstance(o, TableMessage))
        bot.delivery.carry_out(effects + [Notice(chat, "Spiel 1 ist aus", table_id=tid, result=True)])
        await fake.wait_for(lambda: any(m.content == "Spiel 1 ist aus" for m in fake.seen_by(0, CHANNEL)),
                            what="the result")
        assert len(table.history) == shown, "the table waits behind the result"
        await fake.answer(members[0].slash(CHANNEL, "abort"))  # a notice in the channel: the table goes now
        await settled(bot)
        assert len(table.history) == shown + 1, "one edit"


async def test_a_press_on_the_table_message_costs_one_answer_that_shows_the_new_table(store, redis, key_prefix):
    async with fake_for(FAST) as fake:
        anna, ben, *_ = world(fake)
        async with running_bot(fake, store, redis, key_prefix) as bot:
            await fake.answer(anna.slash(CHANNEL, "new", game="bauer"))
            await settled(bot)
            (table,) = [m for m in fake.seen_by(0, CHANNEL) if m.custom_ids()]
            join = next(c for c in table.custom_ids() if ":join:" in c)
            first = len(fake.calls)
            answer = await press(fake, ben, table, join)
            await settled(bot)
            assert answer["type"] == 7 and "2 Ben" in table.content, "the answer shows him seated"
            assert [c.route for c in fake.calls[first:]] == ["/interactions/{interaction}/{token}/callback"]
            first = len(fake.calls)
            assert (await press(fake, ben, table, join))["type"] == 4, "seated already"
            await settled(bot)
            assert [c.route for c in fake.calls[first:]] == ["/interactions/{interaction}/{token}/callback"]


async def test_a_stale_or_out_of_turn_press_is_answered_and_edits_nothing(store, redis, key_prefix):
    async with dealt(store, redis, key_prefix) as (fake, bot, members, tid):
        member, hand, token = await playable(fake, store, tid, members)
        assert (await press(fake, member, hand, token))["type"] == 7
        await settled(bot)
        version = (await store.load(tid))[0]
        other, _ = await to_act(store, tid, members)
        waiting = next(m for m in members if m is not other and m is not member)
        presses = [(member, hand, token),  # the same card again, from the same (now stale) message
                   (waiting, hand_of(fake, waiting, CHANNEL, tid), token)]  # out of turn, another's card
        for who, message, custom_id in presses:
            first = len(fake.calls)
            answer = await press(fake, who, message, custom_id)
            await settled(bot)
            assert answer["type"] == 4 and answer["data"]["flags"] & 64, answer
            assert [c.route for c in fake.calls[first:]] == ["/interactions/{interaction}/{token}/callback"], \
                [(c.method, c.route) for c in fake.calls[first:]]
        assert (await store.load(tid))[0] == version, "nothing was applied"


async def test_an_edit_that_changes_nothing_is_not_sent_by_any_process(store, redis, key_prefix):
    service = Remembering(store, load_settings())
    async with dealt(store, redis, key_prefix, service) as (fake, bot, members, tid):
        member, hand, token = await playable(fake, store, tid, members)
        await press(fake, member, hand, token)
        await settled(bot)
        shown = service.answers[-1]
        assert {type(o) for o in shown} >= {TableMessage, HandMessage}, shown
        first = len(fake.calls)
        bot.delivery.carry_out(shown)  # the table and every hand the press changed, once more
        await settled(bot)
        assert fake.calls[first:] == [], "nothing was sent again"
        async with running_bot(fake, store, redis, key_prefix) as other:  # another process: it reads the refs
            first = len(fake.calls)
            other.delivery.carry_out(shown)
            await other.idle()
            assert fake.calls[first:] == [], "the other process knows what the messages show"


async def test_an_ephemeral_hand_is_not_edited_to_show_what_it_shows(store, redis, key_prefix):
    service = Remembering(store, load_settings())
    async with fake_for(FAST) as fake:
        *_, dora = members = world(fake, closed="Dora")
        async with running_bot(fake, store, redis, key_prefix, service=service) as bot:
            tid = await open_table(fake, CHANNEL, members[0], members[1:], "bauer")
            await settled(bot)
            answer = await press_verb(fake, dora, CHANNEL, tid, "hand")
            assert answer["type"] == 4 and answer["data"]["flags"] & 64, answer
            await settled(bot)
            (hand,) = [o for o in service.answers[-1] if isinstance(o, HandMessage)]
            first = len(fake.calls)
            bot.delivery.carry_out([hand])
            await settled(bot)
            assert fake.calls[first:] == [], "her hand shows this already"


def test_a_ref_says_what_its_message_shows_and_older_refs_still_read():
    ref = MessageRef(-100, 7, 12, fingerprint("Anna ist dran", [[Button("♥K", "st1:abc:12:act:pl.KH")]]))
    assert MessageRef.parse(str(ref)) == ref
    assert MessageRef.parse("-100:7:12") == MessageRef(-100, 7, 12, ""), "a ref kept before fingerprints"
    assert MessageRef.parse("-100:7:12:ab:cd") is None
    assert fingerprint("Anna ist dran") != fingerprint("Anna ist dran", [[Button("♥K", "st1:abc:12:act:pl.KH")]])
    assert fingerprint("a", [[Button("x", "t")], [Button("y", "u")]]) != fingerprint("a", [[Button("x", "t"),
                                                                                           Button("y", "u")]])


async def test_two_sessions_of_one_shard_answer_a_press_once_with_the_new_hand(store, redis, key_prefix):
    """While a shard restarts, its old and its new process both receive each interaction: the one that carries it
    out answers; the other, finding it carried out, gives no answer (Discord would refuse it, 40060, or take it first
    and refuse the hand the press shows)."""
    async with dealt(store, redis, key_prefix) as (fake, bot, members, tid):
        async with running_bot(fake, store, redis, key_prefix) as replacement:
            assert len(fake.sessions) == 2
            for _ in range(3):
                member, hand, token = await playable(fake, store, tid, members)
                first = len(fake.calls)
                answer = await press(fake, member, hand, token)
                await settled(bot)
                await replacement.idle()
                answers = [c.status for c in fake.calls[first:] if c.route.startswith("/interactions")]
                assert answer["type"] == 7 and answers == [200], answers
        made = [(e["by"], e["cmd"]) for e in map(json.loads, await store.log(tid)) if e["by"] != "timer"]
        assert len(made) == len(set(made)), "each press made once"
