"""A tournament's draw: those registered alone paired by lot, the tournament room's draw, a round's pairings posted.

The draw closes the registration: the tournament room (:mod:`bot.tournament`) draws the pairings of round 1
from a published seed, and every round gets its deadline and a table id per pairing
(the tables themselves are opened by :mod:`bot.service.tourney.tables`).
"""

from __future__ import annotations

import secrets

from bot.protocol.outgoing import Notice
from bot.service.tourney.change import Step
from bot.store.tables import Store
from bot.table.refused import Refused
from bot.table.tourney_record import Entry, Tourney
from bot.tournament import Entrant, Tournament, TournamentError, draw, teams_by_lot
from bot.words.i18n import t
from bot.words.render import ago
from bot.words.tourney_messages import in_messages, pairing_line, team_name

__all__ = ["start", "begin_round", "core_of", "entrant_id", "pairing_names"]


def entrant_id(index: int) -> str:
    """The tournament room's id of the entry at ``index`` of :attr:`Tourney.entries`."""
    return f"e{index}"


def core_of(tourney: Tourney) -> Tournament:
    """The tournament room's model of a drawn tournament."""
    return Tournament.model_validate(tourney.core)


def _teams_by_lot(tourney: Tourney, seed: int) -> None:
    """Pair those registered alone by the tournament room's lot from ``seed``; the one left over when they are
    odd plays with a computer partner."""
    if tourney.team_size == 1:
        return
    alone = [e for e in tourney.entries if len(e.users) == 1]
    names = {e.users[0]: e.names[0] for e in alone}
    drawn, left = teams_by_lot([(e.users[0], e.names[0]) for e in alone], seed)
    tourney.entries = [e for e in tourney.entries if len(e.users) == 2] + \
        [Entry(users=list(team.members), names=[names[u] for u in team.members]) for team in drawn] + \
        ([Entry(users=[left, ""], names=[names[left], ""])] if left else [])


def start(step: Step) -> None:
    """Close the registration and draw: the pairings of round 1, their tables' ids, the draw and its seed."""
    tourney = step.tourney
    seed = secrets.randbelow(2**31)
    _teams_by_lot(tourney, seed)
    entrants = [Entrant(id=entrant_id(i), name=team_name(e.names)[:100], members=[u for u in e.users if u][:2])
                for i, e in enumerate(tourney.entries)]
    try:
        core = draw(tourney.game, tourney.format, entrants, seed=seed, options={"legs": 2 if tourney.twice else 1},
                    table_options=tourney.options)
    except TournamentError as exc:
        raise Refused("tn.field_size" if exc.code == "field_size" else "tn.cannot_draw", n=len(entrants)) from None
    tourney.core = core.model_dump(mode="json")
    tourney.seed = seed
    tourney.status = "running"
    begin_round(step, core, drawn=True)
    step.out.append(Notice(tourney.chat, t(tourney.lang, "tn.seed", seed=seed), table_id=tourney.id))


def begin_round(step: Step, core: Tournament, drawn: bool = False) -> None:
    """Round ``core.round``: its deadline, a table id per pairing, the pairings posted."""
    tourney = step.tourney
    tourney.round = core.round
    tourney.round_end = step.now + tourney.round_s
    tourney.reminded = False
    lines = []
    for pairing in core.pairings_of(core.round):
        if not pairing.bye:
            tourney.tables.setdefault(pairing.key, Store.new_id())
        names = pairing_names(tourney, pairing.sides)
        lines.append(f"{pairing.key} " + pairing_line(tourney.lang, names, pairing.stage))
    key = "tn.draw" if drawn else "tn.round"
    head = t(tourney.lang, key, round=core.round, of=core.planned_rounds, left=ago(tourney.round_s, tourney.lang))
    step.out += [Notice(tourney.chat, text, table_id=tourney.id) for text in in_messages([head], lines)]


def pairing_names(tourney: Tourney, sides: list[str]) -> list[str]:
    """The names of the teams (Rams: the players) of a pairing's ``sides``."""
    return [team_name(tourney.entries[int(s[1:])].names) for s in sides]
