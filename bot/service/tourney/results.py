"""A tournament's results and deadlines: its timer reads the tables' results, decides at the deadline, goes on.

Results are never typed in: when a tournament's table ends, its save nudges the tournament's timer
(:mod:`bot.service.change`), and the timer also comes every :data:`~bot.service.tourney.change.POLL_S`
seconds; it reads every unreported table of the round from the store and keeps its result with a
set-if-absent per pairing (:meth:`~bot.store.tourneys.TourneyStore.report`). The standings are
then computed from the kept results by the tournament room's idempotent ``record``: a crash
anywhere between a table's end and the tournament's save is healed by the next timer, and a
result can never count twice. The tournament's timer is one member of the store's deadlines
(kind ``tourney``, version 0, moved on every visit), leased like a table's.

At a round's deadline every unfinished match is decided by the organizer's rule: ``computer``
lets computer players take the people's seats and play the match to its end (a person who comes
back takes his seat again by playing); ``forfeit`` closes its table and scores it: a side none of
whose people played at the table is absent and loses by the tournament's documented forfeit score
(the side present wins with the Partie's target, Bauerchen 24 a Stein, Bauer's Brote to win, to 0;
both absent: both lose 0:0); if every side played, it is scored as it stands (the side ahead wins
with the points it has; level, both lose). A table its people closed (a vote to abort, everybody
gone) is scored as it stands at once. A team that withdraws loses its open match and every later
one by forfeit. Three quarters into a round the players of unfinished matches are reminded
(mentioned) in the chat.
"""

from __future__ import annotations

from bot.protocol.outgoing import Notice, Outgoing
from bot.service.change import Tables
from bot.service.tourney import remember
from bot.service.tourney.change import POLL_S, Step, change
from bot.service.tourney.draw import begin_round, core_of, entrant_id
from bot.service.tourney.message import message
from bot.service.tourney.tables import close, computers_take_over, open_tables
from bot.store.tourneys import KIND, TourneyStore
from bot.table import pace
from bot.table.record import Table
from bot.table.tourney_record import Tourney
from bot.tournament import MatchResult, Outcome, SideResult, Tournament, result_of
from bot.tournament.results import deal_points
from bot.words.i18n import t
from bot.words.render import ago
from bot.words.tourney_messages import final_text, team_name

__all__ = ["after_save", "poll", "REMIND_AT"]

REMIND_AT = 0.75
"""How far into a round (its share of the round's time) the players of unfinished matches are reminded."""


async def after_save(tables: Tables, tourney: Tourney, out: list[Outgoing]) -> list[Outgoing]:
    """What follows a saved change: the round's tables opened (if not yet), the message, the timer set."""
    now = tables.clock()
    loaded = await TourneyStore(tables.store).fetch(tourney.id)
    version = loaded.version if loaded else 0
    shown: list[Outgoing] = [message(tourney, version, now), *out]
    if tourney.status == "running":
        shown += await open_tables(tables, tourney)
        await tables.store.schedule(tourney.id, 0, KIND, _next_visit(tourney, now))
    elif tourney.status in ("finished", "aborted"):
        if tourney.status == "aborted" and tourney.core:  # the round's tables close with it
            for pairing in core_of(tourney).open_pairings():
                if table_id := tourney.tables.get(pairing.key):
                    shown += await close(tables, table_id)
        if tourney.status == "aborted" or await _remember(tables, tourney):
            await tables.store.cancel(tourney.id)  # after the tables and the memory: the timer heals a crash before
    return shown


async def _remember(tables: Tables, tourney: Tourney) -> bool:
    """Record the finished tournament's final ranking in its group's memory (once); false if that failed."""
    entries = {entrant_id(i): entry for i, entry in enumerate(tourney.entries)}
    return await remember.remember(tables, tourney, [entries[row.entrant]
                                                     for row in core_of(tourney).final_ranking()])


def _next_visit(tourney: Tourney, now: float, quiet_end: float | None = None) -> float:
    """When the tournament's timer comes next: at the deadline or the reminder, at the latest after
    :data:`~bot.service.tourney.change.POLL_S`; in the chat's quiet hours no later than their end."""
    if quiet_end is not None:
        return min(now + POLL_S, quiet_end)
    due = min(now + POLL_S, tourney.round_end)
    remind = tourney.round_end - tourney.round_s * (1 - REMIND_AT)
    if not tourney.reminded and remind > now:
        due = min(due, remind)
    return max(due, now)


def _result_of_table(tourney: Tourney, core: Tournament, pairing, table: Table, deadline: bool) -> MatchResult | None:
    """The pairing's result read from its table: a finished match's; at the ``deadline`` (rule ``forfeit``) or
    for a table its people closed, a forfeit; ``None`` while it runs.

    A forfeit at the deadline: the sides none of whose people played at the table are absent and lose with
    the tournament's documented forfeit score (:meth:`~bot.tournament.Tournament.forfeit`); if every side
    played, the match is scored as it stands (:func:`_as_it_stands`).
    """
    match = (table.state or {}).get("match") or {}
    points = [0, 0]
    for record in table.sheet:
        points = [a + b for a, b in zip(points, deal_points(tourney.game, record.get("result")))]
    if table.status == "finished":
        return result_of(tourney.game, pairing.key, pairing.sides, match, points)
    if not deadline and table.status != "aborted":
        return None
    absent = [side for side in pairing.sides if not set(tourney.entries[int(side[1:])].users) & set(table.seen)]
    if absent and deadline:
        return core.model_copy(deep=True).forfeit(pairing.key, absent)
    return _as_it_stands(tourney, pairing, match, points)


def _as_it_stands(tourney: Tourney, pairing, match: dict, points: list[int]) -> MatchResult:
    """A forfeit scored from the match as it stands: the side ahead wins; level, both lose."""
    if tourney.game == "rams":
        tricks = list(match.get("tricks") or [0] * len(pairing.sides))
        order = sorted(range(len(pairing.sides)), key=lambda s: -tricks[s])
        return MatchResult(pairing=pairing.key, forfeit=True, sides=[
            SideResult(entrant=e, place=order.index(s) + 1, points_for=tricks[s]) for s, e in enumerate(pairing.sides)])
    if tourney.game == "bauerchen":
        scored = points
    else:
        scored = list(match.get("brote" if tourney.game == "bauer" else "striche") or [0, 0])
    scored = [max(0, int(x)) for x in scored]

    def outcome(side: int) -> Outcome:
        return Outcome.WON if scored[side] > scored[1 - side] else Outcome.LOST
    return MatchResult(pairing=pairing.key, forfeit=True, sides=[
        SideResult(entrant=e, outcome=outcome(s), points_for=scored[s], points_against=scored[1 - s])
        for s, e in enumerate(pairing.sides)])


async def poll(tables: Tables, tourney_id: str, now: float) -> list[Outgoing]:
    """The tournament's timer: read its unreported tables, decide the matches its deadline finds open,
    remind, record the results, open the next round or end it."""
    store = TourneyStore(tables.store)
    loaded = await store.fetch(tourney_id)
    if loaded is None:
        await tables.store.cancel(tourney_id)
        return []
    tourney = Tourney.load(loaded.data)
    if tourney.status != "running":  # a finished one still to be remembered: the end's visit failed, or crashed
        if tourney.status != "finished" or await _remember(tables, tourney):
            await tables.store.cancel(tourney_id)
        return []
    out: list[Outgoing] = []
    core = core_of(tourney)
    kept = await store.results(tourney_id)
    quiet_end = await pace.chat_quiet_end(tables.store, tourney.chat.key, now, tables.settings)
    late = now >= tourney.round_end and quiet_end is None  # in the chat's quiet hours the deadline waits for their end
    still_open: list[tuple] = []
    for pairing in core.pairings_of(tourney.round):
        table_id = tourney.tables.get(pairing.key)
        loaded_table = await tables.store.load(table_id) if table_id and not pairing.bye else None
        if loaded_table is None:
            continue  # a bye, or not opened yet: after_save opens it
        table = Table.load(loaded_table[1])
        if pairing.key in core.results or pairing.key in kept:
            if pairing.key in core.results and table.open:  # decided without it (a withdrawal): it closes
                out += await close(tables, table.id)
            continue
        result = _result_of_table(tourney, core, pairing, table, late and tourney.rule == "forfeit")
        if result is None:
            still_open.append((pairing, table))
            continue
        await store.report(tourney_id, pairing.key, result.model_dump_json())
        if table.open:  # a forfeit at the deadline: the table closes
            out += await close(tables, table.id)
    if late and tourney.rule == "computer":
        for pairing, table in still_open:
            if any(s.human and not s.auto for s in table.seats):
                out += await tables.change(table.id, None, computers_take_over)
    kept = await store.results(tourney_id)
    saved_out, saved = await change(tables, tourney_id, None,
                                    lambda step: _apply(step, kept, still_open, late, quiet_end is not None))
    out += saved_out
    if saved is None:
        await tables.store.schedule(tourney_id, 0, KIND, _next_visit(tourney, now, quiet_end))
        return out
    return await after_save(tables, saved, out)


def _apply(step: Step, kept: dict[str, str], still_open: list[tuple], late: bool, hushed: bool) -> None:
    """Record the kept results (idempotent), remind (not in the chat's quiet hours: ``hushed``), and open the
    next round or end the tournament."""
    tourney = step.tourney
    if tourney.status != "running":
        step.quiet = True
        return
    core = core_of(tourney)
    new = [MatchResult.model_validate_json(v) for k, v in sorted(kept.items()) if k not in core.results]
    reminded = not hushed and _remind(step, still_open, late)
    if not new and not reminded and not (late and still_open and not tourney.reminded):
        step.quiet = True
        return
    if late and still_open and not tourney.reminded:
        tourney.reminded = True
        names = ", ".join(pairing.key for pairing, _ in still_open)
        step.out.append(Notice(tourney.chat, t(tourney.lang, "tn.decided_cpu", names=names), table_id=tourney.id))
    for result in new:
        core.record(result)
        step.out.append(Notice(tourney.chat, t(tourney.lang, "tn.result", pairing=result.pairing,
                                               outcome=_result_words(tourney, core, result)), table_id=tourney.id))
    while not core.open_pairings() and not core.is_over:
        if core.next_round():
            begin_round(step, core)
    tourney.core = core.model_dump(mode="json")
    if core.is_over:
        tourney.status = "finished"
        for text in final_text(tourney, core.final_ranking()):
            step.out.append(Notice(tourney.chat, text, table_id=tourney.id))


def _remind(step: Step, still_open: list[tuple], late: bool) -> bool:
    """Three quarters into the round: mention the people of the unfinished matches, once."""
    tourney = step.tourney
    if late or tourney.reminded or not still_open or step.now < tourney.round_end - tourney.round_s * (1 - REMIND_AT):
        return False
    tourney.reminded = True
    people = [table.user(i) for _, table in still_open for i in table.humans()]
    names = ", ".join(pairing.key for pairing, _ in still_open)
    left = ago(max(tourney.round_end - step.now, 60), tourney.lang)
    step.out.append(Notice(tourney.chat, t(tourney.lang, "tn.remind", round=tourney.round, left=left, names=names),
                           tuple(people[:50]), tourney.id))
    return True


def _result_words(tourney: Tourney, core: Tournament, result: MatchResult) -> str:
    """A recorded match's result: the score (a forfeit marked), and for a level knockout game who goes on by lot."""
    names = {s.entrant: team_name(tourney.entries[int(s.entrant[1:])].names) for s in result.sides}
    if tourney.game == "rams":
        return ", ".join(f"{s.place}. {names[s.entrant]}" for s in sorted(result.sides, key=lambda s: s.place or 9))
    a, b = result.sides
    mark = t(tourney.lang, "tn.forfeit_mark") if result.forfeit else ""
    if core.level(result.pairing):
        mark += t(tourney.lang, "tn.level_lot", name=names[core.advancing(result.pairing)])
    return f"{names[a.entrant]} {a.points_for}:{b.points_for} {names[b.entrant]}{mark}"
