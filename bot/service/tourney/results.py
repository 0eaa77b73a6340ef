"""A tournament's play in its chat: the draw, a table per pairing, results read from the tables, deadlines.

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

import secrets
from dataclasses import replace

from bot.protocol.outgoing import Notice, OpenTopic, Outgoing, TableMessage
from bot.service.answer import Ctx
from bot.service.change import Tables
from bot.service.tourney import remember
from bot.service.tourney.change import POLL_S, Step, change
from bot.store.tables import Store
from bot.store.tourneys import KIND, TourneyStore
from bot.table import cpu, pace
from bot.table.record import Seat, Table
from bot.table.refused import Refused
from bot.table.tourney_record import Entry, Tourney
from bot.tournament import (Entrant, MatchResult, Outcome, SideResult, Tournament, TournamentError, draw, result_of,
                            teams_by_lot)
from bot.tournament.results import deal_points
from bot.words.i18n import t
from bot.words.render import ago
from bot.words.tourney_messages import final_text, in_messages, pairing_line, registration, standings_message, team_name

__all__ = ["start", "withdraw", "message", "after_save", "poll", "move_to_topic", "core_of", "entrant_id",
           "REMIND_AT"]

REMIND_AT = 0.75
"""How far into a round (its share of the round's time) the players of unfinished matches are reminded."""


def entrant_id(index: int) -> str:
    """The tournament room's id of the entry at ``index`` of :attr:`Tourney.entries`."""
    return f"e{index}"


def core_of(tourney: Tourney) -> Tournament:
    """The tournament room's model of a drawn tournament."""
    return Tournament.model_validate(tourney.core)


# ---------------------------------------------------------------------- the draw
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
    _begin_round(step, core, drawn=True)
    step.out.append(Notice(tourney.chat, t(tourney.lang, "tn.seed", seed=seed), table_id=tourney.id))


def _begin_round(step: Step, core, drawn: bool = False) -> None:
    """Round ``core.round``: its deadline, a table id per pairing, the pairings posted."""
    tourney = step.tourney
    tourney.round = core.round
    tourney.round_end = step.now + tourney.round_s
    tourney.reminded = False
    lines = []
    for pairing in core.pairings_of(core.round):
        if not pairing.bye:
            tourney.tables.setdefault(pairing.key, Store.new_id())
        lines.append(f"{pairing.key} " + pairing_line(tourney.lang, _names(tourney, pairing.sides), pairing.stage))
    key = "tn.draw" if drawn else "tn.round"
    head = t(tourney.lang, key, round=core.round, of=core.planned_rounds, left=ago(tourney.round_s, tourney.lang))
    step.out += [Notice(tourney.chat, text, table_id=tourney.id) for text in in_messages([head], lines)]


def _names(tourney: Tourney, sides: list[str]) -> list[str]:
    return [team_name(tourney.entries[int(s[1:])].names) for s in sides]


# ---------------------------------------------------------------------- withdrawals
def withdraw(step: Step, user_key: str) -> None:
    """The user's team withdraws during play: it is paired no more, its remaining matches are forfeits."""
    tourney = step.tourney
    i = tourney.entry_of(user_key)
    if i is None or tourney.entries[i].withdrawn:
        raise Refused("tn.not_registered")
    tourney.entries[i].withdrawn = True
    core = core_of(tourney)
    for pairing in core.withdraw(entrant_id(i)):  # his match of this round: a forfeit now (its table closes)
        core.forfeit(pairing.key, [entrant_id(i)])
    tourney.core = core.model_dump(mode="json")
    step.out.append(Notice(tourney.chat, t(tourney.lang, "tn.withdrew", name=team_name(tourney.entries[i].names)),
                           table_id=tourney.id))


# ---------------------------------------------------------------------- showing it
def message(tourney: Tourney, version: int, now: float, repost: bool = False) -> TableMessage:
    """The tournament's one message: the registration, then the standings (paged)."""
    if tourney.status == "open":
        shown = registration(tourney, version)
    else:
        core = core_of(tourney) if tourney.core else None
        rows = (core.final_ranking() if core.is_over else core.standings()) if core else []
        shown = standings_message(tourney, rows, version, tourney.page, now, final=tourney.status == "finished",
                                  rounds=core.planned_rounds if core else 0)
    return replace(shown, repost=True) if repost else shown


async def after_save(tables: Tables, tourney: Tourney, out: list[Outgoing]) -> list[Outgoing]:
    """What follows a saved change: the round's tables opened (if not yet), the message, the timer set."""
    now = tables.clock()
    loaded = await TourneyStore(tables.store).fetch(tourney.id)
    version = loaded.version if loaded else 0
    shown: list[Outgoing] = [message(tourney, version, now), *out]
    if tourney.status == "running":
        shown += await _open_tables(tables, tourney)
        await tables.store.schedule(tourney.id, 0, KIND, _next_visit(tourney, now))
    elif tourney.status in ("finished", "aborted"):
        if tourney.status == "aborted" and tourney.core:  # the round's tables close with it
            for pairing in core_of(tourney).open_pairings():
                if table_id := tourney.tables.get(pairing.key):
                    shown += await _close(tables, table_id)
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


async def _open_tables(tables: Tables, tourney: Tourney) -> list[Outgoing]:
    """Open the table of every pairing of the round that has none yet (a crash before it: the timer's visit)."""
    out: list[Outgoing] = []
    core = core_of(tourney)
    for pairing in core.pairings_of(tourney.round):
        table_id = tourney.tables.get(pairing.key)
        if table_id is None or pairing.key in core.results or await tables.store.fetch(table_id) is not None:
            continue
        out += await _open_table(tables, tourney, pairing, table_id)
    return out


def _seats(tourney: Tourney, sides: list[str]) -> list[Seat]:
    """The seats of a pairing: Rams one per side; a team game side 0 in seats 0 and 2, side 1 in 1 and 3."""
    entries = [tourney.entries[int(s[1:])] for s in sides]
    order = [(e, 0) for e in entries] if tourney.team_size == 1 else [(entries[0], 0), (entries[1], 0),
                                                                       (entries[0], 1), (entries[1], 1)]
    return [Seat(user=e.users[k], name=e.names[k]) if e.users[k] else Seat(bot=True) for e, k in order]


async def _open_table(tables: Tables, tourney: Tourney, pairing, table_id: str) -> list[Outgoing]:
    """Create the pairing's table in the tournament's chat with its seats and options, and deal."""
    settings, now = tables.settings, tables.clock()
    seats = _seats(tourney, pairing.sides)
    table = Table(id=table_id, chat=tourney.chat, game=tourney.game, n=len(seats), options=tourney.options,
                  lang=tourney.lang, opener=tourney.organizer, seats=seats,
                  remind=_secs(settings.reminder_after), auto=_secs(settings.autoplay_after), created=now, since=now,
                  tourney=f"{tourney.id}:{pairing.key}")
    if not await tables.store.create(table.id, table.index_key, table.dump(), table.user_keys()):
        return []  # another process opened it
    names = t(tourney.lang, "tn.versus").join(_names(tourney, pairing.sides))

    def deal(ctx: Ctx) -> None:
        ctx.lead.append(Notice(tourney.chat, t(tourney.lang, "tn.table_for", pairing=pairing.key, names=names),
                               tuple(ctx.table.user(i) for i in ctx.table.humans()), table_id))
        ctx.match.start()
        cpu.play_computers(ctx.match)
    out = await tables.change(table_id, None, deal)
    if not tourney.chat.thread:  # where the chat has forum topics, the match gets one of its own
        out.append(OpenTopic(tourney.chat, table_id, f"🏆 {pairing.key} {names}"[:128]))
    return out


async def move_to_topic(tables: Tables, table_id: str, thread: str) -> list[Outgoing]:
    """A tournament's table moves into the forum topic opened for it (once: a table in a topic stays there)."""
    moved: list[str] = []

    def move(ctx: Ctx) -> None:
        if ctx.table.chat.thread or not ctx.table.tourney or not ctx.table.open:
            ctx.keep_table()
            return
        moved.append(ctx.table.index_key)
        ctx.table.chat = replace(ctx.table.chat, thread=thread)
        ctx.repost = True
    out = await tables.change(table_id, None, move)
    if moved:
        await tables.store.release_chat(moved[0], table_id)
    return out


def _secs(value) -> int | None:
    return None if value is None else int(value.total_seconds())


# ---------------------------------------------------------------------- results and deadlines
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
                out += await _close(tables, table.id)
            continue
        result = _result_of_table(tourney, core, pairing, table, late and tourney.rule == "forfeit")
        if result is None:
            still_open.append((pairing, table))
            continue
        await store.report(tourney_id, pairing.key, result.model_dump_json())
        if table.open:  # a forfeit at the deadline: the table closes
            out += await _close(tables, table.id)
    if late and tourney.rule == "computer":
        for pairing, table in still_open:
            if any(s.human and not s.auto for s in table.seats):
                out += await tables.change(table.id, None, _computers_take_over)
    kept = await store.results(tourney_id)
    saved_out, saved = await change(tables, tourney_id, None,
                                    lambda step: _apply(step, kept, still_open, late, quiet_end is not None))
    out += saved_out
    if saved is None:
        await tables.store.schedule(tourney_id, 0, KIND, _next_visit(tourney, now, quiet_end))
        return out
    return await after_save(tables, saved, out)


def _computers_take_over(ctx: Ctx) -> None:
    """The deadline passed: the computer plays for every person at the table until he comes back."""
    for seat in ctx.table.seats:
        if seat.human:
            seat.auto = True
    cpu.play_computers(ctx.match)


async def _close(tables: Tables, table_id: str) -> list[Outgoing]:
    """Close a table its tournament decided without it (a forfeit, a withdrawal, the tournament aborted)."""
    def close(ctx: Ctx) -> None:
        if not ctx.table.open:
            ctx.keep_table()
            return
        ctx.table.status = "aborted"
    try:
        return await tables.change(table_id, None, close)
    except Refused:
        return []


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
                                               outcome=_result_words(tourney, result)), table_id=tourney.id))
    while not core.open_pairings() and not core.is_over:
        if core.next_round():
            _begin_round(step, core)
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


def _result_words(tourney: Tourney, result: MatchResult) -> str:
    names = {s.entrant: team_name(tourney.entries[int(s.entrant[1:])].names) for s in result.sides}
    if tourney.game == "rams":
        return ", ".join(f"{s.place}. {names[s.entrant]}" for s in sorted(result.sides, key=lambda s: s.place or 9))
    a, b = result.sides
    mark = t(tourney.lang, "tn.forfeit_mark") if result.forfeit else ""
    return f"{names[a.entrant]} {a.points_for}:{b.points_for} {names[b.entrant]}{mark}"

