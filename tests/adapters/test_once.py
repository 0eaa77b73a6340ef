"""A new message no replay can look for (a Telegram file, a forum topic) is made once its sender noted it made:
a replay of its outbox entry takes the noted message instead of making it again."""

from __future__ import annotations

from adapters.common import once
from bot.protocol.receipts import Receipt


class Notes:
    """An outbox entry's notes, in memory (the outbox keeps them in Redis)."""

    name = "entry-1"

    def __init__(self, notes: dict[str, str], replayed: bool) -> None:
        self.notes = dict(notes)
        self.replayed = replayed
        self.stored = dict(notes)

    async def note(self, creation: str, value: str) -> None:
        """Keep ``value`` for the creation."""
        self.stored[creation] = value

    async def noted(self, creation: str) -> str | None:
        """What is kept for the creation."""
        return self.stored.get(creation)


class Made:
    """What a platform answers for a new message: its id."""

    def __init__(self, message_id: int) -> None:
        self.message_id = message_id


async def make_in_entry(notes: Notes, calls: list[int]) -> int:
    """The entry's first call makes one new message (the platform's answer: message 42)."""
    async def call() -> Made:
        calls.append(42)
        return Made(42)
    receipt = Receipt(frozenset(), record=lambda key: None, settled=lambda: None, journal=notes)
    with once.flying([receipt.ticket()]):
        return await once.make(call)


async def test_a_message_noted_made_is_taken_by_a_replay_not_made_again():
    calls: list[int] = []
    first = Notes({}, replayed=False)
    assert await make_in_entry(first, calls) == 42 and calls == [42]
    replay = Notes({}, replayed=True)  # what the first sender noted, read again by the replay
    replay.stored = first.stored
    assert await make_in_entry(replay, calls) == 42 and calls == [42], "made once"


async def test_outside_an_outbox_entry_a_message_is_simply_made():
    async def call() -> Made:
        return Made(7)
    assert await once.make(call) == 7
