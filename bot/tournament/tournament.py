"""A tournament: its draw, its rounds and results, and the operations on it (all pure, all JSON round-trip).

The chat side keeps a :class:`Tournament` as JSON (``model_dump_json`` / ``model_validate_json``),
calls :func:`draw` once registration closes, then for every round: plays each pairing of
:meth:`Tournament.pairings_of` at a table, feeds each finished table's :class:`MatchResult` to
:meth:`Tournament.record` (a second report of a pairing is ignored), decides what is left at the
deadline with :meth:`Tournament.forfeit`, and calls :meth:`Tournament.next_round` until
:attr:`Tournament.is_over`.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

import engine

from . import knockout, roundrobin, swiss, tables
from .entrants import Entrant
from .formats import FIELD_MAX, FIELD_MIN, KNOCKOUT_SIZES, RAMS_TABLE, Format, FormatOptions
from .ranking import RANKING, Standing, figures, rank
from .refusal import TournamentError
from .results import MatchResult, Outcome, SideResult
from .rounds import Pairing, Stage

__all__ = ["Tournament", "draw", "SEED_MAX", "forfeit_points", "check_game", "check_field_size"]

SEED_MAX = 2**63 - 1
"""The largest seed (seeds are whole numbers from 0)."""


def forfeit_points(game: str, table_options: dict[str, Any]) -> int:
    """The points a side is credited for a match won by forfeit or a Swiss bye (the loser gets 0).

    The least a won match scores: the Partie's target in Striche (Bauernstoß 20, Alter Schafkopf 15
    by default), two rounds of 12 points per Stein in Bauerchen, the Brote to win in Bauer; in Rams
    no tricks (the places are given, see :meth:`Tournament.forfeit`).
    """
    options = engine.parse_options(game, table_options)
    if game in ("bauernstoss", "alter_schafkopf"):
        return options.target
    if game == "bauerchen":
        return 24 * options.target_steine
    if game == "bauer":
        return options.target_brote
    return 0


class Tournament(BaseModel):
    """A tournament from its draw to its final ranking.

    Attributes:
        game: the game's id (``engine.game_ids()``).
        format: the format.
        options: the format's options.
        table_options: every match's table options (checked like any table's).
        seed: the seed of the draw, published after it: the same seed gives the same draw.
        entrants: the teams (Rams: players).
        lot: the entrant ids in the order the draw gave them (also the last tie-breaker).
        groups: groups-ko: each group's letter and entrant ids.
        pairings: every pairing made so far, round by round.
        results: each decided pairing's result by the pairing's key.
        round: the round being played (0 before the draw).
        state: ``running`` or ``over``.
    """

    model_config = ConfigDict(extra="forbid")

    game: str
    format: Format
    options: FormatOptions = Field(default_factory=FormatOptions)
    table_options: dict[str, Any] = Field(default_factory=dict)
    seed: int = Field(ge=0, le=SEED_MAX)
    entrants: list[Entrant]
    lot: list[str] = Field(default_factory=list)
    groups: dict[str, list[str]] = Field(default_factory=dict)
    pairings: list[Pairing] = Field(default_factory=list)
    results: dict[str, MatchResult] = Field(default_factory=dict)
    round: int = 0
    state: Literal["running", "over"] = "running"

    @property
    def rams(self) -> bool:
        """Whether this is a Rams tournament (players at tables, not teams in pairs)."""
        return self.game == "rams"

    @property
    def is_over(self) -> bool:
        """Whether the last round is played and the final ranking stands."""
        return self.state == "over"

    @property
    def planned_rounds(self) -> int:
        """How many rounds the format plays ("round 3 of 5"); withdrawals may end a Swiss or a Rams one sooner."""
        n = len(self.lot)
        if self.format == Format.ROUND_ROBIN:
            return self.options.legs if self.rams else len(roundrobin.circle(self.lot, self.options.legs))
        if self.format == Format.SWISS:
            return self.options.swiss_rounds(n, self.rams)
        knockout_rounds = 1 if self.rams else self.options.knockout_size(n).bit_length() - 1
        return _group_rounds(self) + knockout_rounds

    def entrant(self, entrant_id: str) -> Entrant:
        """The entrant with ``entrant_id``; ``TournamentError`` ``unknown_entrant`` if there is none."""
        for e in self.entrants:
            if e.id == entrant_id:
                return e
        raise TournamentError("unknown_entrant", f"no entrant {entrant_id[:40]!r}")

    def pairing(self, key: str) -> Pairing:
        """The pairing with ``key`` (``"round.slot"``); ``TournamentError`` ``unknown_pairing`` if there is none."""
        round_no, _, slot = key.partition(".")
        for p in reversed(self.pairings):  # the pairings asked for are mostly the current round's, at the end
            if str(p.round) == round_no and str(p.slot) == slot:
                return p
        raise TournamentError("unknown_pairing", f"no pairing {key[:20]!r}")

    def pairings_of(self, round_no: int) -> list[Pairing]:
        """The pairings of round ``round_no`` in slot order (none for a round not made yet)."""
        return [p for p in self.pairings if p.round == round_no]

    def open_pairings(self) -> list[Pairing]:
        """The current round's pairings still waiting for a result (byes never wait)."""
        return [p for p in self.pairings_of(self.round) if not p.bye and p.key not in self.results]

    def record(self, result: MatchResult) -> bool:
        """Count a finished match's result; ``False`` (nothing changes) if the pairing has one already.

        Raises:
            TournamentError: ``unknown_pairing``; ``result_mismatch`` when the sides are not the
                pairing's in its order, or the outcomes or places do not make a result.
        """
        pairing = self.pairing(result.pairing)
        if result.pairing in self.results:
            return False
        if pairing.bye or [s.entrant for s in result.sides] != pairing.sides:
            raise TournamentError("result_mismatch", f"the result's sides are not those of pairing {pairing.key}")
        if self.rams:
            if sorted(s.place or 0 for s in result.sides) != list(range(1, len(result.sides) + 1)):
                raise TournamentError("result_mismatch", "a Rams result needs every place from 1 once")
        else:
            outcomes = sorted(str(s.outcome) for s in result.sides)
            double_forfeit = result.forfeit and outcomes == ["lost", "lost"]
            if outcomes not in (["lost", "won"], ["drawn", "drawn"]) and not double_forfeit:
                raise TournamentError("result_mismatch", "a result needs a winner and a loser, or a draw")
        self.results[result.pairing] = result
        return True

    def forfeit(self, key: str, absent: list[str]) -> MatchResult | None:
        """Decide pairing ``key`` without play, the ``absent`` entrants losing; ``None`` if it is decided already.

        The documented forfeit score: in the team games the side present wins with
        :func:`forfeit_points` to 0; with both sides absent both lose, 0 to 0. In Rams the players
        present take the first places and the absent ones the last, each in the order of the lot,
        with no tricks.

        Raises:
            TournamentError: ``unknown_pairing``; ``result_mismatch`` when ``absent`` is empty or names
                someone not in the pairing.
        """
        pairing = self.pairing(key)
        if key in self.results:
            return None
        if not absent or not set(absent) <= set(pairing.sides) or pairing.bye:
            raise TournamentError("result_mismatch", f"name who is absent from pairing {key}")
        result = _forfeited(self, pairing, set(absent))
        self.results[key] = result
        return result

    def withdraw(self, entrant_id: str) -> list[Pairing]:
        """Withdraw an entrant: he is paired no more, and a pairing made with him later is his forfeit.

        His results so far stand. Returns the current round's pairings he still sits in undecided,
        for the caller to decide by its rule at the deadline (a computer player, or
        :meth:`forfeit`); calling it again changes nothing.
        """
        self.entrant(entrant_id).withdrawn = True
        return [p for p in self.open_pairings() if entrant_id in p.sides]

    def next_round(self) -> list[Pairing]:
        """Make the next round's pairings and return them; none when the tournament is over (it then is).

        Byes and pairings with a withdrawn entrant are decided at once (see :meth:`forfeit`).

        Raises:
            TournamentError: ``not_running`` once it is over; ``round_open`` while a pairing of the
                current round has no result.
        """
        if self.is_over:
            raise TournamentError("not_running", "the tournament is over")
        if self.open_pairings():
            raise TournamentError("round_open", f"round {self.round} still has matches without a result")
        games = _games(self, self.round + 1)
        if not games:
            self.state = "over"
            return []
        self.round += 1
        made = [Pairing(round=self.round, slot=i + 1, sides=sides, stage=stage) for i, (sides, stage) in enumerate(games)]
        self.pairings += made
        withdrawn = {e.id for e in self.entrants if e.withdrawn}
        for p in made:
            if p.bye and self.format == Format.SWISS:
                self.results[p.key] = MatchResult(pairing=p.key, forfeit=True, sides=[SideResult(
                    entrant=p.sides[0], outcome=Outcome.WON,
                    points_for=forfeit_points(self.game, self.table_options))])
            elif not p.bye and withdrawn & set(p.sides):
                self.forfeit(p.key, [s for s in p.sides if s in withdrawn])
        return made

    def standings(self) -> list[Standing]:
        """The standings now, by the game's criteria (:data:`ranking.RANKING`).

        In groups-ko: the group tables (``group`` set, ranks within each group) until the knockout
        ends, then the final ranking.
        """
        if self.format == Format.GROUPS_KO:
            return self.final_ranking() if self.is_over else self.group_tables()
        return self._rows(self.lot, list(self.results.values()))

    def group_tables(self) -> list[Standing]:
        """groups-ko: every group's table over its group games, group after group (ranks within each group)."""
        rows = []
        for letter, members in self.groups.items():
            rows += self._rows(members, self._results(group=letter), group=letter)
        return rows

    def final_ranking(self) -> list[Standing]:
        """Every entrant's final place, 1 first, with his figures over the whole tournament.

        Raises:
            TournamentError: ``not_over`` before the tournament is over.
        """
        if not self.is_over:
            raise TournamentError("not_over", "the tournament is not over yet")
        if self.format != Format.GROUPS_KO:
            return self.standings()
        counted = figures(self.lot, self.results.values())
        by_lot = {p.stage.places[1] for p in self.pairings  # the worse place of a level game for two places
                  if p.stage.places and p.stage.places[1] == p.stage.places[0] + 1 and self.level(p.key)}
        return [Standing(rank=place, entrant=e, name=self.entrant(e).name, withdrawn=self.entrant(e).withdrawn,
                         decided_by=("knockout_lot" if place in by_lot else "knockout") if place > 1 else None,
                         **counted[e]) for place, e in enumerate(_places(self), start=1)]

    def level(self, key: str) -> bool:
        """Whether the decided knockout game ``key`` ended level (a draw, or both sides lost by forfeit): the lot of
        the draw then sends on the side it lists first (:meth:`advancing`)."""
        pairing = self.pairing(key)
        return (not self.rams and not pairing.bye and pairing.stage.places is not None and key in self.results
                and len(self.results[key].winners()) != 1)

    def advancing(self, key: str) -> str:
        """The side the decided knockout game ``key`` sends on (or gives the better place)."""
        return _advancing(self, self.pairing(key))[0]

    def _results(self, group: str | None = None) -> list[MatchResult]:
        """The results of the pairings of ``group`` (a letter), in the order they were made."""
        keys = [p.key for p in self.pairings if p.stage.group == group]
        return [self.results[k] for k in keys if k in self.results]

    def _lots(self) -> dict[str, int]:
        """Each entrant's position in the lot."""
        return {e: i for i, e in enumerate(self.lot)}

    def _rows(self, ids: list[str], results: list[MatchResult], group: str | None = None) -> list[Standing]:
        """Standings rows of ``ids`` over ``results``."""
        counted = figures(ids, results)
        ordered = rank(ids, RANKING[self.game], results, self._lots())
        return [Standing(rank=i, entrant=e, name=self.entrant(e).name, decided_by=why, group=group,
                         withdrawn=self.entrant(e).withdrawn, **counted[e])
                for i, (e, why) in enumerate(ordered, start=1)]

    def ranked_active(self) -> list[str]:
        """The entrants not withdrawn, in standings order (the lot before any result)."""
        return [r.entrant for r in self._rows(self.lot, list(self.results.values())) if not r.withdrawn]


def draw(game: str, format: str, entrants: list[Entrant], seed: int, options: dict | None = None,
         table_options: dict | None = None) -> Tournament:
    """Check everything, draw the lot (and the groups) from ``seed`` and make the first round.

    Args:
        game: the game's id.
        format: ``round-robin``, ``groups-ko`` or ``swiss``.
        entrants: the teams (Rams: players), ids unique.
        seed: 0 to :data:`SEED_MAX`; the chat side makes one with ``secrets`` and publishes it after the draw.
        options: the format's options (:class:`FormatOptions` fields).
        table_options: the game's table options for every match.

    Raises:
        TournamentError: ``unknown_game``, ``unknown_format``, ``table_options``, ``format_options``,
            ``entrants`` (duplicate ids, members) or ``field_size`` (too few or many for the format).
    """
    check_game(game)
    if format not in {f.value for f in Format}:
        raise TournamentError("unknown_format", f"unknown format {format[:40]!r}; the formats: {', '.join(Format)}")
    try:
        engine.parse_options(game, table_options or {})
    except ValueError as exc:
        raise TournamentError("table_options", str(exc)) from None
    try:
        opts = FormatOptions.model_validate(options or {})
    except ValidationError as exc:
        error = exc.errors()[0]
        raise TournamentError("format_options",
                              f"format option {'.'.join(map(str, error['loc']))}: {error['msg']}") from None
    if not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        raise TournamentError("format_options", f"the seed must be a whole number from 0 to {SEED_MAX}")
    t = Tournament(game=game, format=Format(format), options=opts, table_options=dict(table_options or {}),
                   seed=seed, entrants=[e.model_copy(deep=True) for e in entrants])
    _check_field(t)
    t.lot = [e.id for e in t.entrants]
    random.Random(seed).shuffle(t.lot)
    if t.format == Format.GROUPS_KO:
        count = opts.group_count(len(t.lot), t.rams)
        t.groups = {chr(ord("A") + g): t.lot[g::count] for g in range(count)}
    t.next_round()
    return t


def check_game(game: str) -> None:
    """``TournamentError`` ``unknown_game`` unless ``game`` is a game's id."""
    if game not in engine.game_ids():
        raise TournamentError("unknown_game", f"unknown game {game[:40]!r}; the games: {', '.join(engine.game_ids())}")


def check_field_size(game: str, n: int) -> None:
    """``TournamentError`` unless ``game`` is a game and ``n`` entrants may play a tournament of it (``field_size``).

    The offline tool asks before it makes the entrants.
    """
    check_game(game)
    low = FIELD_MIN["rams" if game == "rams" else "team"]
    if not low <= n <= FIELD_MAX:
        who = "players" if game == "rams" else "teams"
        raise TournamentError("field_size", f"a tournament takes {low} to {FIELD_MAX} {who}, not {n}")


def _check_field(t: Tournament) -> None:
    """``TournamentError`` unless the entrants fit the game and the format."""
    ids = [e.id for e in t.entrants]
    if len(set(ids)) != len(ids):
        raise TournamentError("entrants", "two entrants have the same id")
    if t.rams and any(len(e.members) > 1 for e in t.entrants):
        raise TournamentError("entrants", "in Rams everyone plays for himself")
    n = len(ids)
    check_field_size(t.game, n)
    lo, hi = RAMS_TABLE
    if t.rams and t.format == Format.ROUND_ROBIN and n > hi:
        raise TournamentError("field_size",
                              f"a Rams round robin is one table of {lo} to {hi} players; take swiss or groups-ko")
    if t.format == Format.GROUPS_KO:
        count = t.options.group_count(n, t.rams)
        smallest, largest = n // count, -(-n // count)
        if t.rams and not (lo <= smallest and largest <= hi):
            raise TournamentError("field_size", f"{count} Rams groups of {n} players are not tables of {lo} to {hi}")
        if not t.rams and smallest < 2:
            raise TournamentError("field_size", f"{count} groups of {n} teams leave a group without a match")
        knockout = t.options.knockout
        if not t.rams and knockout is not None and (knockout not in KNOCKOUT_SIZES or knockout > n):
            sizes = ", ".join(map(str, KNOCKOUT_SIZES))
            raise TournamentError("field_size", f"the knockout takes {sizes} teams, at most the field ({n})")


def _games(t: Tournament, round_no: int) -> list[tuple[list[str], Stage]]:
    """The games of round ``round_no`` as (sides, stage); none when the format has no more rounds."""
    if t.format == Format.ROUND_ROBIN:
        if t.rams:
            return _rams_table(t, t.lot, round_no, Stage()) if round_no <= t.options.legs else []
        schedule = roundrobin.circle(t.lot, t.options.legs)
        return [(_sides(pair), Stage()) for pair in schedule[round_no - 1]] if round_no <= len(schedule) else []
    if t.format == Format.SWISS:
        active = t.ranked_active()
        if round_no > t.options.swiss_rounds(len(t.lot), t.rams) or len(active) < (RAMS_TABLE[0] if t.rams else 2):
            return []
        if t.rams:
            return [(table, Stage()) for table in tables.seat(active, t.options.table_size)]
        met = {frozenset(p.sides) for p in t.pairings if not p.bye}
        had_bye = {p.sides[0] for p in t.pairings if p.bye}
        return [(_sides(pair), Stage()) for pair in swiss.pair(active, met, had_bye)]
    return _groups_ko(t, round_no)


def _sides(pair: tuple[str, str | None]) -> list[str]:
    """A pair as a pairing's sides (one side alone is a bye)."""
    return [pair[0]] if pair[1] is None else [pair[0], pair[1]]


def _rams_table(t: Tournament, players: list[str], leg: int, stage: Stage) -> list[tuple[list[str], Stage]]:
    """One Rams table of ``players`` (withdrawn ones left out), the seats turned on by one every leg."""
    active = [p for p in players if not t.entrant(p).withdrawn]
    if len(active) < RAMS_TABLE[0]:
        return []
    turn = (leg - 1) % len(active)
    return [(active[turn:] + active[:turn], stage)]


def _group_rounds(t: Tournament) -> int:
    """How many rounds the group phase takes."""
    if t.rams:
        return t.options.legs
    return max(len(roundrobin.circle(members, t.options.legs)) for members in t.groups.values())


def _groups_ko(t: Tournament, round_no: int) -> list[tuple[list[str], Stage]]:
    """Round ``round_no`` of groups-ko: group games, then the knockout and placing games."""
    in_groups = _group_rounds(t)
    if round_no <= in_groups:
        games = []
        for letter, members in t.groups.items():
            stage = Stage(group=letter)
            if t.rams:
                games += _rams_table(t, members, round_no, stage)
            else:
                schedule = roundrobin.circle(members, t.options.legs)
                if round_no <= len(schedule):
                    games += [(_sides(pair), stage) for pair in schedule[round_no - 1]]
        return games
    if round_no == in_groups + 1:
        seeded = _seeding(t)
        if t.rams:
            active = [e for e in seeded if not t.entrant(e).withdrawn]
            games, best = [], 1
            for table in tables.seat(active, t.options.table_size) if len(active) >= RAMS_TABLE[0] else []:
                games.append((table, Stage(places=(best, best + len(table) - 1))))
                best += len(table)
            return games
        size = t.options.knockout_size(len(seeded))
        group_of = {e: letter for letter, members in t.groups.items() for e in members}
        return [(sides, Stage(places=places)) for sides, places in knockout.first_games(seeded, size, group_of)]
    if t.rams:
        return []
    decided = []
    for p in t.pairings_of(round_no - 1):
        if not p.bye:
            winner, loser = _advancing(t, p)
            decided.append((p.stage.places, winner, loser))
    return [(sides, Stage(places=places)) for sides, places in knockout.next_games(decided)]


def _seeding(t: Tournament) -> list[str]:
    """Everyone after the groups: the group winners first (best first by the game's criteria), then the seconds, ...

    Withdrawn entrants go last.
    """
    by_place: dict[int, list[str]] = {}
    for row in t.group_tables():
        by_place.setdefault(row.rank, []).append(row.entrant)
    group_results = [r for letter in t.groups for r in t._results(group=letter)]
    seeded = [e for place in sorted(by_place) for e, _ in rank(by_place[place], RANKING[t.game], group_results, t._lots())]
    withdrawn = {e.id for e in t.entrants if e.withdrawn}
    return [e for e in seeded if e not in withdrawn] + [e for e in seeded if e in withdrawn]


def _advancing(t: Tournament, pairing: Pairing) -> tuple[str, str]:
    """The winner and the loser of a knockout game; after a double forfeit the lot decides."""
    winners = t.results[pairing.key].winners()
    if len(winners) != 1:
        lots = t._lots()
        winners = [min(pairing.sides, key=lambda e: lots[e])]
    return winners[0], next(s for s in pairing.sides if s != winners[0])


def _places(t: Tournament) -> list[str]:
    """The entrants in final place order, from the games that decide one or two places (Rams: the placing tables).

    Rams players who withdrew before the placing tables follow in the order of the groups.
    """
    placed: dict[int, str] = {}
    for p in t.pairings:
        places = p.stage.places
        if places is None:
            continue
        if p.bye:
            placed[places[0]] = p.sides[0]
        elif t.rams:
            for side in t.results[p.key].sides:
                placed[places[0] + side.place - 1] = side.entrant
        elif places[1] - places[0] == 1:
            winner, loser = _advancing(t, p)
            placed[places[0]], placed[places[1]] = winner, loser
    order = [placed[i] for i in sorted(placed)]
    return order + [e for e in _seeding(t) if e not in order]


def _forfeited(t: Tournament, pairing: Pairing, absent: set[str]) -> MatchResult:
    """The forfeit result of ``pairing`` with ``absent`` missing (the score :meth:`Tournament.forfeit` documents)."""
    if t.rams:
        lots = t._lots()
        order = sorted(pairing.sides, key=lambda e: (e in absent, lots[e]))
        return MatchResult(pairing=pairing.key, forfeit=True, sides=[
            SideResult(entrant=e, place=order.index(e) + 1) for e in pairing.sides])
    points = forfeit_points(t.game, t.table_options)
    both = len(absent) == 2
    return MatchResult(pairing=pairing.key, forfeit=True, sides=[
        SideResult(entrant=e, outcome=Outcome.LOST if e in absent else Outcome.WON,
                   points_for=0 if e in absent else points, points_against=0 if both or e not in absent else points)
        for e in pairing.sides])
