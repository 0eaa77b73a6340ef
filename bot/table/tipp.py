"""A hint (»Tipp«): whether a table allows one, and the strong player's choice for a seat with its figures.

A table allows hints when its option ``tipps`` says so; unset, where one person plays with computers
only. A tournament's table never does. The hint is the strong search's own opinion from the seat's
view (:func:`advise`), with how each choice fared over the sampled deals: the words are
:mod:`bot.words.tipp`'s. The search is CPU work: the service runs it in a worker thread.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import engine
from bot.table.computer import Deadline
from bot.table.record import Table
from bot.table.refused import Refused
from engine.actions import Action
from engine.players import strong
from engine.players.worlds import Worlds
from engine.state import State

__all__ = ["VERB", "OPTION", "SAMPLES", "SECONDS", "Weighed", "Advice", "allows", "check", "choices", "advise"]

VERB = "tipp"
"""The verb of a hint, typed and on its button."""
OPTION = "tipps"
"""The table option (``option tipps an``) that allows or forbids hints."""
SAMPLES = 24
"""The sampled deals a hint weighs its choices over, unless the settings say otherwise."""
SECONDS = 0.7
"""The longest a hint's search may take (below the chats' one second for a button's answer)."""


@dataclass(frozen=True)
class Weighed:
    """One choice over the sampled deals: its mean worth, and in how many deals it wins the trick or the deal.

    ``action`` ``None`` is letting an out-of-turn offer pass. ``tricks`` is ``None`` where no trick is
    at stake (a decision before the play).
    """

    action: Action | None
    worth: float
    deals: int
    tricks: int | None = None


@dataclass(frozen=True)
class Advice:
    """The strong player's choice (``best``) among ``weighed``, over ``samples`` sampled deals."""

    best: Action | None
    weighed: tuple[Weighed, ...]
    samples: int

    def of(self, action: Action | None) -> Weighed:
        """The figures of ``action``."""
        return next(w for w in self.weighed if w.action == action)


def allows(table: Table) -> bool:
    """Whether people at ``table`` may ask for a hint now: never at a tournament's, else as its option says,
    unset where one person plays with computers only."""
    if table.tourney:
        return False
    if table.tipps is not None:
        return table.tipps
    return len(table.humans()) == 1


def check(table: Table, state: State | None, seat: int) -> dict[str, Any]:
    """``seat``'s view for a hint, or a refusal with the reason: hints not allowed here, no deal running,
    nothing for him to decide."""
    if table.tourney:
        raise Refused("tipp.tourney")
    if not allows(table):
        raise Refused("tipp.off")
    if table.status != "playing" or state is None or engine.is_over(state):
        raise Refused("not_started" if table.status == "lobby" else "deal_over")
    view = engine.view(state, seat)
    if not view["legal"]:
        raise Refused("tipp.not_your_turn")
    return view


def choices(view: dict[str, Any]) -> list[Action | None]:
    """What the seat of ``view`` may decide now: his legal actions on his turn, else letting an offer pass
    (``None``) or taking it."""
    legal = [Action.from_dict(a) for a in view["legal"]]
    return legal if view["to_act"] == view["seat"] else [None, *legal]


def advise(view: dict[str, Any], options: Any, rng: random.Random, samples: int = SAMPLES,
           seconds: float | None = SECONDS) -> Advice:
    """The strong player's choice for the seat of ``view`` (his view only), with each choice's figures.

    At most ``samples`` sampled deals, fewer if ``seconds`` run out first (at least one is played).
    """
    seat = view["seat"]
    candidates = choices(view)
    tally = strong._Tally(Worlds(view, options), candidates, seat, view["to_act"] == seat)
    stop = Deadline(seconds) if seconds is not None else None
    tally.run(rng, samples, stop, settle=False)
    best = tally.best(view["public"])
    done = tally.done
    weighed = tuple(Weighed(a, sum(v) / done, sum(x > 0 for x in v)) for a, v in zip(candidates, tally.values))
    return Advice(best, weighed, done)
