"""One seat's review of a finished deal: each of his decisions beside the strong player's choice from his view.

:func:`review` is the one call the bot makes into the engine's review; it runs for seconds and so off the
event loop (:mod:`bot.service.review`). Each decision is a JSON-able dict: ``index`` (its place among the
deal's actions), ``trick`` (the trick it was made in, 1 for the first; 0 before the play), ``choice`` and
``best`` (engine actions in the replay format; ``best`` ``None`` where the strong player would have let an
offer pass), ``cost`` (what the choice costs on average in the game's units, ``None`` if not known) and
``mark`` (a clear mistake).
"""

from __future__ import annotations

import random
from typing import Any

import engine
from bot.table.deal_log import Deal
from engine.players import strong
from engine.state import PLAY_PHASE, State

__all__ = ["review"]


def review(deal: Deal, seat: int, samples: int | None = None, seed: int = 0) -> list[dict[str, Any]]:
    """The decisions ``seat`` made in ``deal``, each judged from what he saw when he made it."""
    rng = random.Random(seed)
    state, out = deal.start, []
    for index, (actor, action, _) in enumerate(deal.actions):
        if actor == seat:
            best = strong.choose(engine.view(state, seat), state.options, rng, samples)
            out.append({"index": index, "trick": _trick(state), "choice": action.to_dict(),
                        "best": best.to_dict() if best is not None else None, "cost": None,
                        "mark": best != action})
        state, _ = engine.apply(state, actor, action)
    return out


def _trick(state: State) -> int:
    """The number of the trick being played in ``state`` (0 before the first card)."""
    return len(state.tricks) + 1 if state.phase == PLAY_PHASE else 0
