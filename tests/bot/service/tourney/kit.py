"""A tournament in a group for the tests: people, its message and buttons, its record, one opened and drawn."""

from __future__ import annotations

from bot.protocol import tokens
from bot.protocol.outgoing import TableMessage, UserRef
from bot.service.tourney.tables import computers_take_over
from bot.store.tourneys import TourneyStore
from bot.table.record import Table
from bot.table.tourney_record import Tourney
from tests.servicekit import GROUP, of, press, say, service

T0 = 1_800_000_000.0
"""The tests' clock at the start (08:00 UTC)."""


def person(i: int) -> UserRef:
    """The ``i``-th person of the group (``Spieler<i>``)."""
    return UserRef("test", f"p{i}", f"Spieler{i}")


def tourney_msg(out) -> TableMessage:
    """The tournament's message among ``out`` (its id is a tournament's, 10 characters)."""
    (msg,) = [o for o in of(out, TableMessage) if len(o.table_id) == 10]
    return msg


def token(msg: TableMessage, verb: str, arg: str | None = None) -> str:
    """The token of the message's button ``verb`` (with ``arg``, if given)."""
    for row in msg.buttons:
        for b in row:
            tok = tokens.parse(b.token)
            if tok and tok.verb == verb and (arg is None or tok.arg == arg):
                return b.token
    raise AssertionError(f"no {verb} button in {msg.text!r}")


async def load(store, tourney_id: str) -> Tourney:
    """The tournament as stored."""
    return Tourney.load((await TourneyStore(store).fetch(tourney_id)).data)


async def opened(svc, store, teams: int, args: str = "bauernstoss target=5"):
    """A tournament of ``teams`` teams registered by two people each: one names the partner, who confirms."""
    organizer = person(0)
    msg = tourney_msg(await svc.handle(say(GROUP, organizer, f"turnier neu {args}")))
    for i in range(teams):
        a, b = person(2 * i), person(2 * i + 1)
        await svc.handle(say(GROUP, a, f"turnier anmelden {b.name}"))
        msg = tourney_msg(await svc.handle(say(GROUP, a, "turnier tabelle")))
        out = await svc.handle(press(GROUP, b, token(msg, "tn_ok")))
        assert not [o for o in out if type(o).__name__ == "Toast"], out
    return msg.table_id


async def finish_table(svc, store, table_id: str, now: list[float], only: bool = False) -> TableMessage:
    """Let computers play the table to its end (the people's seats are taken over as at a deadline); ``only``:
    no other timer fires meanwhile (the tournament's neither). The table's last message."""
    def takeover(ctx):
        computers_take_over(ctx)
    shown = of(await svc.tables.change(table_id, None, takeover), TableMessage)
    for _ in range(400):
        loaded = await store.load(table_id)
        if Table.load(loaded[1]).status == "finished":
            return [m for m in shown if m.table_id == table_id][-1]
        now[0] += 1
        shown += of(await svc.tick(now[0], table=table_id if only else None), TableMessage)
    raise AssertionError("the table did not finish")


async def two_teams_drawn(store, now: list[float]):
    """A service, and a tournament of two teams to one Partie, drawn: its id and its one table's."""
    svc = service(store, clock=lambda: now[0])
    tid = await opened(svc, store, 2, "bauernstoss target=1 runde=1h")
    await svc.handle(say(GROUP, person(0), "turnier los"))
    (table_id,) = (await load(store, tid)).tables.values()
    return svc, tid, table_id
