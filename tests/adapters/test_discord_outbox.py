"""The Discord outbox's channel senders: no job is left behind in a queue whose sender ends."""

from __future__ import annotations

import asyncio

from adapters.discord.outbox import Job, Outbox
from bot.store.ratelimit import Limiter
from tests.fakes.discord.harness import FAST

CHANNEL = 4711


class _Meanwhile(Limiter):
    """Redis's shared limits, with what happens in the channel while the sender waits on them: an interaction's
    answer shows the pending table (its job is dropped) while the sender waits for the channel's window, and
    the next table comes while it hands the bot-wide turn back."""

    def __init__(self, redis, prefix: str, outbox: list[Outbox], sent: list[str]) -> None:
        super().__init__(redis, prefix)
        self.outbox, self.sent, self.steps = outbox, sent, 0

    async def wait_time(self, key: str, limit: int, window_s: float) -> float:
        wait = await super().wait_time(key, limit, window_s)
        if self.steps == 0:
            self.steps = 1
            self.outbox[0].shown(CHANNEL, "table", 1)  # the answer showed version 1: its queued edit is dropped
        return wait

    async def end(self, key: str, ticket: str) -> None:
        await super().end(key, ticket)
        if self.steps == 1:
            self.steps = 2
            self.outbox[0].put(_job(2, self.sent))


def _job(version: int, sent: list[str]) -> Job:
    async def send() -> None:
        sent.append(f"table v{version}")
    return Job(CHANNEL, "table", send, version)


async def test_a_job_queued_while_the_sender_gives_its_turn_back_is_sent(redis, key_prefix):
    sent: list[str] = []
    outboxes: list[Outbox] = []
    outbox = Outbox(FAST, _Meanwhile(redis, key_prefix, outboxes, sent), bot_id="1")
    outboxes.append(outbox)
    outbox.put(_job(1, sent))
    await asyncio.wait_for(outbox.idle(), 10)
    assert outbox.shared.steps == 2, "the answer came while the sender waited, the next table while it gave back"
    assert sent == ["table v2"], "the table's next version went out (it waited in a queue nobody sent from)"
