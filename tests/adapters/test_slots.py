"""A chat's queue of slots (shared by both outboxes) and when a table message may linger in it."""

from __future__ import annotations

import asyncio

from adapters.common.slots import Slots, table_may_wait
from bot.protocol.outgoing import ChatRef, HandMessage, Notice, TableMessage, UserRef

GROUP = ChatRef("test", "-100")
OTHER = ChatRef("test", "-200")
ANNA = UserRef("test", "11", "Anna")


def table(repost: bool = False) -> TableMessage:
    return TableMessage(GROUP, "t1", "Tisch", repost=repost)


def hand() -> HandMessage:
    return HandMessage(ANNA, GROUP, "t1", "Anna: A♠")


async def test_a_newer_job_replaces_the_pending_one_of_its_slot_and_keeps_its_place():
    q: Slots[str] = Slots()
    q.put("table", "table v1")
    q.put("post:1", "result")
    q.put("table", "table v2")
    assert q.pop() == ("table", "table v2")
    assert q.pop() == ("post:1", "result")
    assert not q


async def test_a_lingering_job_goes_in_its_place_once_another_is_due():
    q: Slots[str] = Slots()
    q.put("table", "table v1", linger=60.0)
    waiting = asyncio.ensure_future(q.until_due())
    q.put("post:1", "result")  # due at once: the chat's turn is taken, the older table goes first
    await asyncio.wait_for(waiting, 10)
    assert [q.pop(), q.pop()] == [("table", "table v1"), ("post:1", "result")]


async def test_a_failed_job_goes_back_in_front_unless_a_newer_one_came():
    q: Slots[str] = Slots()
    q.put("post:1", "result")
    q.requeue("table", "table v1")
    assert q.pop() == ("table", "table v1")
    q.put("table", "table v3")
    q.requeue("table", "table v2")
    assert q.clear() == ["result", "table v3"]


async def test_a_due_job_of_a_lower_rank_goes_before_what_waits_of_higher_ranks():
    """The table goes before a backlog of answers, and answers before a backlog of results; a job that
    lingers holds back nothing that is due."""
    q: Slots[str] = Slots()
    for k in range(3):
        q.put(f"result:{k}", f"result {k}", rank=2)
        q.put(f"reply:{k}", f"reply {k}", rank=1)
    q.put("table", "table v1")
    assert q.pop() == ("table", "table v1")
    assert [q.pop()[1] for _ in range(2)] == ["reply 0", "reply 1"]
    q.put("table", "table v2", linger=60.0)
    q.requeue("reply:9", "reply 9", rank=1)
    assert [q.pop()[1] for _ in range(3)] == ["reply 9", "reply 2", "result 0"]
    q.drop("table")
    assert [q.pop()[1] for _ in range(2)] == ["result 1", "result 2"] and not q


async def test_until_due_returns_when_the_last_job_is_dropped():
    q: Slots[str] = Slots()
    q.put("table", "table v1", linger=60.0)
    waiting = asyncio.ensure_future(q.until_due())
    q.drop("table")
    await asyncio.wait_for(waiting, 10)
    assert not q


def test_a_table_waits_only_during_a_deal_and_never_behind_a_post_in_its_chat():
    assert table_may_wait(table(), [table(), hand()])
    assert table_may_wait(table(), [table(), hand(), Notice(OTHER, "elsewhere")])
    assert not table_may_wait(table(), [table(), hand(), Notice(GROUP, "Spiel 1 ist aus")])
    ended = Notice(GROUP, "Spiel 1 ist aus", result=True)
    assert not table_may_wait(table(), [table(), hand(), ended])
    assert table_may_wait(table(), [table(), hand(), ended], behind_results=True), "the result goes first (Discord)"
    assert not table_may_wait(table(), [table(), hand(), ended, Notice(GROUP, "Ben ist weg")], behind_results=True)
    assert not table_may_wait(table(), [table()]), "no hand: not a move of a deal (a join, an option)"
    assert not table_may_wait(table(repost=True), [table(repost=True), hand()])
