"""What the memory keeps of a finished deal and a finished match, built from the table at its end.

A :class:`DealOutcome` is made from the ``deal_over`` news of :class:`bot.table.match.Match` (the deal's
score-sheet record), a :class:`MatchOutcome` from the finished :class:`~bot.table.record.Table`. Both are
plain data: who sat where (a person's user key and shown name, a computer's level), the sides (teams in
the team games, each seat alone in Rams), each side's score in the game's own unit, the winning sides,
and per seat the game's own figures (:data:`FIGURES`).

The units: Striche in Bauernstoß and Alter Schafkopf, points of the round in Bauerchen (Steine for the
match), tricks in Bauer (Brote for the match) and in Rams (Rams' match: tricks, places and money).
Money is in cents of the table's currency, what each seat pays by the Rams settlement.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.table.record import Level, Table

__all__ = ["seat_of_each", "SeatOutcome", "DealOutcome", "MatchOutcome", "AbortedOutcome", "TourneyOutcome", "Outcome", "FIGURES", "TEAM_GAMES", "GAMES",
           "sides_of", "deal_outcome", "match_outcome", "outcomes"]

TEAM_GAMES = frozenset({"bauernstoss", "alter_schafkopf", "bauerchen", "bauer"})
"""The partnership games: seats 0 and 2 against 1 and 3."""
GAMES = ("bauernstoss", "alter_schafkopf", "bauerchen", "bauer", "rams")
"""Every game the memory keeps, in the order lists show them."""

FIGURES: dict[str, tuple[str, ...]] = {
    "bauernstoss": ("solo", "solo_won", "kreide", "striche"),
    "alter_schafkopf": ("solo", "solo_won", "kreide", "striche"),
    "bauerchen": ("spritzen", "ledig", "ledig_won", "knoddel", "steine"),
    "bauer": ("stoss", "karten_weg", "karten_weg_won", "brote"),
    "rams": ("kartoffeln", "tricks", "place", "paid", "won_money"),
}
"""Per game, the figures kept per seat (summed over deals and matches in the statistics):

- ``solo``/``solo_won``: solos (Bauernstoß: small and grand; Alter Schafkopf: Lechdich) played and won;
- ``kreide``: deals after which his team holds the Kreide; ``striche``: Striche his team wrote;
- ``spritzen``: Spritzen he called; ``ledig``/``ledig_won``: Ledig played and won; ``knoddel``: Knoddel
  his team got; ``steine``: Steine his team won;
- ``stoss``: Stoß and Stoß back he gave; ``karten_weg``/``karten_weg_won``: Karten weg played and won;
  ``brote``: Brote his team won;
- ``kartoffeln``: Kartoffeln he got; ``tricks``: tricks he took; ``place``: his place (a match's, 1 =
  winner); ``paid``: cents he paid by the settlement; ``won_money``: cents the others paid in a match he won.
"""


def sides_of(game: str, n: int) -> list[list[int]]:
    """The seats of each side: two teams (0+2 and 1+3) in the team games, each seat alone in Rams."""
    if game in TEAM_GAMES:
        return [[0, 2], [1, 3]]
    return [[s] for s in range(n)]


class SeatOutcome(BaseModel):
    """Who held a seat: a person (``user`` key and ``name`` shown) or a computer player (``level``).

    In what the memory gives back (history, export) ``user`` is empty and ``who`` names the seat in the
    chat's memory: a person's number (``"7"``), a computer's identity (``"cpu-normal"``), or ``""`` for a
    person who is not recorded (he opted out, or was forgotten: then ``name`` is empty too).
    """

    model_config = ConfigDict(extra="forbid")
    user: str = ""
    name: str = ""
    level: Level | None = None
    who: str = ""
    hinted: bool = False
    """A person who took a hint (»Tipp«) in the match: it is marked for him, and not rated for him."""
    figures: dict[str, int] = Field(default_factory=dict)
    """This seat's figures of the deal or match (keys of :data:`FIGURES`; zeros left out)."""

    @property
    def computer(self) -> bool:
        """Whether a computer player held the seat."""
        return self.level is not None


def seat_of_each(whos: list[str], won: Sequence[bool]) -> dict[str, int]:
    """One seat for each identity in ``whos`` (one per seat; ``""`` skipped), ``won`` telling which seats won: a
    computer level seated twice counts once, by its first winning seat, else its first seat."""
    out: dict[str, int] = {}
    for seat, who in enumerate(whos):
        if who and (who not in out or (won[seat] and not won[out[who]])):
            out[who] = seat
    return out


class _Finished(BaseModel):
    """What deals and matches share: where, which game, who, the sides, their scores and the winners."""

    model_config = ConfigDict(extra="forbid")
    table: str
    chat: str
    """The group's key (the table's ``chat.group``)."""
    game: str
    at: float
    """When it finished (epoch seconds)."""
    seats: list[SeatOutcome]
    sides: list[list[int]]
    score: list[int]
    """Each side's score in the game's unit (see the module docstring)."""
    winners: list[int]
    """The winning sides (indexes into ``sides``)."""

    def side_of(self, seat: int) -> int:
        """The side ``seat`` played on."""
        return next(i for i, side in enumerate(self.sides) if seat in side)

    def won(self, seat: int) -> bool:
        """Whether ``seat``'s side won."""
        return self.side_of(seat) in self.winners

    def seat_of_each(self, whos: list[str]) -> dict[str, int]:
        """One seat for each identity in ``whos`` (one per seat), as :func:`seat_of_each` picks it."""
        return seat_of_each(whos, [self.won(seat) for seat in range(len(whos))])


class DealOutcome(_Finished):
    """A finished deal (a thrown-in deal is not one): its number in the match, scores and figures."""

    kind: Literal["deal"]
    deal: int
    """The deal's number at its table, 1 first (thrown-in deals count in the numbering)."""

    @property
    def id(self) -> str:
        """The deal's unique id: ``<table>:<deal>``."""
        return f"{self.table}:{self.deal}"


class MatchOutcome(_Finished):
    """A finished match: final scores, winners, Rams places and money, the figures and the score sheet."""

    kind: Literal["match"]
    no: int = 0
    """The match's number in its chat's memory (1 first; 0 until recorded)."""
    deals: int
    """Deals played (thrown-in deals not counted)."""
    started: float = 0.0
    places: list[int] = Field(default_factory=list)
    """Rams: the seats in the order of their places, winner first (other games: empty)."""
    money: list[int] = Field(default_factory=list)
    """Rams: cents each seat pays by the settlement, seat order (other games: empty)."""
    currency: str = ""
    """Rams: the table's currency (``Fr.``, ``€``)."""
    title: str = ""
    """The chat's title when the match finished (for a person's figures across chats)."""
    sheet: list[Any] = Field(default_factory=list)
    """The score sheet's rows as the table kept them (``result``, ``before``, ``after``, ``alone``)."""

    @property
    def id(self) -> str:
        """The match's unique id: ``<table>:m``."""
        return f"{self.table}:m"


class AbortedOutcome(_Finished):
    """A match aborted after some deals: its deals, counted as running (:mod:`bot.memory.absorb`), are dropped
    (``score`` and ``winners`` empty)."""

    kind: Literal["aborted"]

    @property
    def id(self) -> str:
        """The abort's unique id: ``<table>:x``."""
        return f"{self.table}:x"


class TourneyOutcome(_Finished):
    """A finished tournament: ``table`` is its id, ``sides`` its entrants (their seats) in the order of the final
    ranking, winner first (``winners`` is ``[0]``, ``score`` empty); a computer partner's seat is a computer's."""

    kind: Literal["tourney"]

    @property
    def id(self) -> str:
        """The tournament's unique id in the memory: ``<tournament>:t``."""
        return f"{self.table}:t"


Outcome = Annotated[DealOutcome | MatchOutcome | AbortedOutcome | TourneyOutcome, Field(discriminator="kind")]
"""A deal's, a match's, an aborted match's or a tournament's outcome (told apart by ``kind``)."""


def _seats(table: Table) -> list[SeatOutcome]:
    """The table's seats as the memory keeps them (an empty seat, never met at a started table, as a computer)."""
    return [SeatOutcome(user=s.user, name=s.name, hinted=s.user in table.hinted) if s.user
            else SeatOutcome(level=s.level or table.level) for s in table.seats]


def _count(events: list[dict], kind: str, seat: int) -> int:
    """How many of ``events`` are of ``kind`` and by ``seat``."""
    return sum(1 for ev in events if ev.get("type") == kind and ev.get("seat") == seat)


def _deal_figures(game: str, record: dict[str, Any], seat: int, side: int, won: bool) -> dict[str, int]:
    """``seat``'s figures of one deal (``side``: his side, ``won``: whether it won), zeros left out."""
    result, public, story = record.get("result") or {}, record.get("public") or {}, record.get("story") or []
    out: dict[str, int] = {}
    if game in ("bauernstoss", "alter_schafkopf"):
        solo = public.get("solo") or {}
        if solo.get("seat") == seat:
            out["solo"], out["solo_won"] = 1, int(won)
        out["kreide"] = int(result.get("chalk") == side)
        out["striche"] = (result.get("striche") or [0, 0])[side]
    elif game == "bauerchen":
        out["spritzen"] = _count(story, "spritz", seat)
        if public.get("ledig") == seat:
            out["ledig"], out["ledig_won"] = 1, int(won)
        before, after = record.get("before") or {}, record.get("after") or {}
        if result.get("round_winner") is not None:
            out["knoddel"] = int(result["round_winner"] != side)
            out["steine"] = (after.get("steine") or [0, 0])[side] - (before.get("steine") or [0, 0])[side]
    elif game == "bauer":
        out["stoss"] = list(public.get("stoss") or []).count(seat)
        if public.get("karten_weg") == seat:
            out["karten_weg"], out["karten_weg_won"] = 1, int(won)
        before, after = record.get("before") or {}, record.get("after") or {}
        out["brote"] = max(0, (after.get("brote") or [0, 0])[side] - (before.get("brote") or [0, 0])[side])
    elif game == "rams":
        out["kartoffeln"] = int(seat in (result.get("kartoffeln") or []))
        out["tricks"] = (result.get("tricks") or [])[seat] if seat < len(result.get("tricks") or []) else 0
    return {k: v for k, v in out.items() if v}


def _deal_score(game: str, result: dict[str, Any], sides: list[list[int]]) -> tuple[list[int], list[int]]:
    """Each side's score of the deal and the winning sides."""
    if game in ("bauernstoss", "alter_schafkopf"):
        score = list(result.get("striche") or [0, 0])
        if score[0] == score[1] and result.get("chalk") is not None:  # even Striche: the Kreide decides
            return score, [result["chalk"]]
    elif game == "bauerchen":
        score = list(result.get("points") or [0, 0])
        if result.get("round_winner") is not None and not any(score):  # a Ledig decides the round alone
            return score, [result["round_winner"]]
    else:
        tricks = list(result.get("tricks") or [])
        score = tricks if game == "bauer" else [tricks[s[0]] if s[0] < len(tricks) else 0 for s in sides]
        if game == "bauer":
            if result.get("brot") is not None and not any(result.get("change") or []):  # Karten weg
                return score, [result["brot"]]
            change = result.get("change") or [0, 0]
            return score, [t for t in (0, 1) if change[t] < 0]
    best = max(score) if score else 0
    return score, [i for i, x in enumerate(score) if x == best and x > 0]


def deal_outcome(table: Table, news: dict[str, Any], at: float) -> DealOutcome | None:
    """The outcome of the deal a ``deal_over`` news item of :class:`~bot.table.match.Match` tells of.

    Args:
        table: the table after the deal (its seats are who played it).
        news: ``{"type": "deal_over", "record": <score-sheet record>, "no": <deal number>}``.
        at: when it finished (epoch seconds).

    Returns:
        ``None`` for a thrown-in deal (it is not played, and not counted).
    """
    record = news["record"]
    result = record.get("result") or {}
    if result.get("thrown_in"):
        return None
    sides = sides_of(table.game, table.n)
    score, winners = _deal_score(table.game, result, sides)
    seats = _seats(table)
    outcome = DealOutcome(kind="deal", table=table.id, chat=table.chat.group, game=table.game, at=at, seats=seats,
                          sides=sides, score=score, winners=winners, deal=int(news["no"]))
    for i, seat in enumerate(seats):
        side = outcome.side_of(i)
        seat.figures = _deal_figures(table.game, record, i, side, side in winners)
    return outcome


def _sheet_row(row: dict[str, Any]) -> dict[str, Any]:
    """What the score sheet shows of a deal (the table trims every row but the last to this already)."""
    return {k: v for k, v in row.items() if k in ("result", "before", "after", "alone")}


def match_outcome(table: Table, at: float) -> MatchOutcome:
    """The outcome of the finished match of ``table`` (its engine state holds the final match score)."""
    final = (table.state or {}).get("match") or {}
    sides = sides_of(table.game, table.n)
    seats = _seats(table)
    game = table.game
    places: list[int] = []
    money: list[int] = []
    if game in ("bauernstoss", "alter_schafkopf"):
        score = list(final.get("striche") or [0, 0])
    elif game == "bauerchen":
        score = list(final.get("steine") or [0, 0])
    elif game == "bauer":
        score = list(final.get("brote") or [0, 0])
    else:
        score = list(final.get("tricks") or [0] * table.n)
        places = list(final.get("ranking") or [])
        money = [round(x * 100) for x in final.get("settlement") or []]
    winner = final.get("winner")
    winners = [] if winner is None else [next(i for i, side in enumerate(sides) if winner in side)
                                         if game == "rams" else winner]
    outcome = MatchOutcome(kind="match", table=table.id, chat=table.chat.group, game=game, at=at, seats=seats, sides=sides,
                           score=score, winners=winners, deals=table.deals, started=table.created, places=places,
                           money=money, currency=table.currency if game == "rams" else "", title=table.chat.title[:64],
                           sheet=[*table.sheet[:-1], *(_sheet_row(row) for row in table.sheet[-1:])])
    if game == "rams" and money:
        pot = sum(money)
        for i, seat in enumerate(seats):
            seat.figures = {k: v for k, v in {
                "place": places.index(i) + 1 if i in places else 0, "paid": money[i],
                "won_money": pot - money[i] if i in winners else 0}.items() if v}
    return outcome


def outcomes(table: Table, news: list[dict[str, Any]], at: float) -> list[Outcome]:
    """Every deal a change finished (from :attr:`bot.table.match.Match.news`) and, if it finished the match,
    the match: what the save of that change records. A later save of the finished table (the rematch's claim)
    finishes no deal, so it records nothing again. A table aborted after a deal records that its match will not
    finish (dropping its deals from the running ones twice drops nothing more)."""
    ended = [ev for ev in news if ev.get("type") == "deal_over"]
    out: list[Outcome] = [d for ev in ended if (d := deal_outcome(table, ev, at)) is not None]
    if table.status == "finished" and ended:
        out.append(match_outcome(table, at))
    elif table.status == "aborted" and table.deals:
        out.append(AbortedOutcome(kind="aborted", table=table.id, chat=table.chat.group, game=table.game, at=at,
                                  seats=_seats(table), sides=sides_of(table.game, table.n), score=[], winners=[]))
    return out
