"""A hint (»Tipp«): whether a table allows one, and the strong player's choice for a seat with its figures.

A table allows hints when its option ``tipps`` says so; unset, where one person plays with computers
only. A tournament's table never does. The hint is the strong search's own opinion from the seat's
view (:func:`advise`, :mod:`engine.players.opinion`), with how each choice fared over the sampled deals:
the words are :mod:`bot.words.tipp`'s. The search is CPU work: the service runs it in a worker thread.

Its samples are drawn from a source seeded by the position (:func:`sampler`): the same question, asked again or
in another process, gets the same answer (as long as the search is not cut short by its time).

Decided: the position is the table, the seat and the seat's view, not the table's version: the hint's own save
(marking the match as hinted) moves the version, and what the seat sees is what it asks about; nothing hidden
from it goes into the seed.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import engine
from bot.table.computer import Deadline
from bot.table.record import Table
from bot.table.refused import Refused
from engine.players.opinion import Opinion, opinion
from engine.state import State

__all__ = ["VERB", "OPTION", "allows", "check", "sampler", "advise"]

VERB = "tipp"
"""The verb of a hint, typed and on its button."""
OPTION = "tipps"
"""The table option (``option tipps an``) that allows or forbids hints."""


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
        raise Refused("not_started" if table.status == "lobby" else "deal_over" if table.open else "table_closed")
    view = engine.view(state, seat)
    if not view["legal"]:
        raise Refused("tipp.not_your_turn")
    return view


def sampler(table_id: str, seat: int, view: dict[str, Any]) -> random.Random:
    """The random source of a hint's sampled deals, seeded by the position: ``table_id``, ``seat`` and its ``view``."""
    position = json.dumps([table_id, seat, view], sort_keys=True, separators=(",", ":"), default=str)
    return random.Random(hashlib.sha256(position.encode()).digest())


def advise(view: dict[str, Any], options: Any, rng: random.Random, samples: int, seconds: float | None) -> Opinion:
    """The strong player's choice for the seat of ``view`` (his view only), with every choice's figures.

    The whole budget of ``samples`` sampled deals is played (steadier figures than a search that ends once
    its choice is settled), fewer if ``seconds`` run out first (at least one is played).
    """
    return opinion(view, options, rng, samples, Deadline(seconds) if seconds is not None else None, settle=False)
