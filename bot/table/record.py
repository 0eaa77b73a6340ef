"""The table record stored in Redis, and the lobby rules that change it.

One :class:`Table` per table: where it is, which game with which options, who sits where,
the engine state of the running deal and what the final summary needs. It is written as
compact JSON (defaults left out). Lobby changes are pure methods that raise :class:`Refused`
with an i18n key when a command is not allowed; the service stores the result.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.protocol.outgoing import ChatRef, UserRef
from bot.table.refused import Refused, clip

__all__ = ["Seat", "Away", "Table", "Status", "Level", "user_ref"]

Status = Literal["lobby", "playing", "finished", "aborted"]
Level = Literal["leicht", "normal", "stark"]


def user_ref(key: str, name: str = "") -> UserRef:
    """The :class:`UserRef` of a stored user key (``platform:user_id``)."""
    platform, _, user_id = key.partition(":")
    return UserRef(platform, user_id, name)


class Seat(BaseModel):
    """One seat: a human (``user`` key and ``name``), a computer player (``bot``) or empty.

    ``auto`` marks a human whose turn the timer played: the computer plays for him at once
    until he acts again. ``level`` is a computer player's level (``leicht``, ``normal``, ``stark``;
    empty: the table's).
    """

    model_config = ConfigDict(extra="forbid")
    user: str = ""
    name: str = ""
    bot: bool = False
    auto: bool = False
    level: Level | None = None

    @property
    def empty(self) -> bool:
        """Whether nobody sits here."""
        return not self.user and not self.bot

    @property
    def human(self) -> bool:
        """Whether a person holds this seat."""
        return bool(self.user)

    @property
    def computer(self) -> bool:
        """Whether the computer acts for this seat now (a computer player, or a timed-out human)."""
        return self.bot or self.auto


class Away(BaseModel):
    """A person's vacation as one table knows it (:mod:`bot.table.vacation`): from ``start`` to ``until``
    (epoch seconds; ``until`` becomes the real end when it ends early), ``zone`` the time zone its end is shown
    in, ``done`` once the table has taken note of its end, ``before`` how long his earlier vacations in the same
    turn stopped its clock (seconds)."""

    model_config = ConfigDict(extra="forbid")
    start: float
    until: float
    zone: str = ""
    done: bool = False
    before: float = 0.0


class Table(BaseModel):
    """A table in one chat: lobby, running match or its final summary.

    ``state`` is the running deal as ``engine.to_json`` wrote it. ``deals`` counts finished
    deals, ``marks`` holds each finished Bauerchen round as [score0, score1, winner],
    ``best`` the best trick so far as [seat, eyes], ``last`` the last finished deal's result.
    ``story`` holds the public events of the running deal (announcements, offers, solos), ``sheet`` a
    record of each finished deal for the score sheet (at most :data:`bot.words.story.SHEET_MAX`, the last one
    with its story and last trick), ``sheet_dropped`` how many old records were dropped.
    ``remind`` and ``auto`` are the turn timers in seconds (``None``: off), ``since`` is when
    the seat to act got its turn, ``rematched`` whether the rematch was started.
    ``seen`` holds when each seated person last acted at the table (user key: epoch seconds),
    ``pace`` the chosen :mod:`bot.table.pace` preset (empty: the bot's default timers). ``hand_at`` holds
    for each seat the version at which his hand message last changed (empty: not kept yet).
    """

    model_config = ConfigDict(extra="forbid")
    id: str
    chat: ChatRef
    game: str
    n: int
    options: dict[str, Any] = Field(default_factory=dict)
    lang: str = "de"
    status: Status = "lobby"
    opener: str
    seats: list[Seat]
    state: dict[str, Any] | None = None
    deals: int = 0
    marks: list[list[int]] = Field(default_factory=list)
    best: list[int] = Field(default_factory=list)
    last: dict[str, Any] | None = None
    story: list[dict[str, Any]] = Field(default_factory=list)
    sheet: list[dict[str, Any]] = Field(default_factory=list)
    sheet_dropped: int = 0
    votes: list[str] = Field(default_factory=list)
    remind: int | None = None
    auto: int | None = None
    created: float = 0.0
    since: float = 0.0
    show_opts: bool = False
    rematched: bool = False
    level: Level = "normal"
    """The level of computer players added without one, and of the computer playing for a person."""
    seen: dict[str, float] = Field(default_factory=dict)
    pace: str = ""
    currency: str = "Fr."
    """What Rams' settlement is counted in (a table option: ``option currency €``)."""
    hand_at: list[int] = Field(default_factory=list)
    held: list[int] = Field(default_factory=list)
    """The seats whose hand went out as one they cannot act on yet (:func:`bot.words.hand.waits`): an adapter may
    hold it, so it goes out again when their turn comes (:func:`bot.service.change._hands_changed`)."""
    declare: list[int] | None = None
    """The seats of the people who may still declare Ledig or Karten weg before the first lead (their window
    is open, see :mod:`bot.table.window`); ``None`` until the play of the running deal begins."""
    declare_end: float = 0.0
    """When the open windows close by themselves (0: when the people have decided)."""
    declare_wait: int | None = 20
    """The seconds the computers wait for the people's declarations, unless the table plays by Fernspiel pace."""
    tourney: str = ""
    """``<tournament id>:<pairing>`` for a table a tournament opened for one of its pairings (empty: none)."""
    away: dict[str, Away] = Field(default_factory=dict)
    """The vacations of seated people (user key: :class:`Away`) that touch this table's turns."""
    tipps: bool | None = None
    """Whether people may ask for a hint (»Tipp«, :mod:`bot.table.tipp`); ``None``: the default, on where one
    person plays with computers only."""
    hinted: list[str] = Field(default_factory=list)
    """The people (user keys) who took a hint in this match: it is marked in the memory and not rated for them."""

    @property
    def index_key(self) -> str:
        """The key the store indexes the table under as its chat's open table: a tournament's tables each
        have their own, so they never hold the chat's one open table (nor each other's)."""
        return f"{self.chat.key}:{self.tourney}" if self.tourney else self.chat.key

    # ----------------------------------------------------------- JSON
    def dump(self) -> str:
        """The compact JSON the store keeps."""
        return self.model_dump_json(exclude_defaults=True)

    @classmethod
    def load(cls, data: str | bytes) -> "Table":
        """The table from its stored JSON."""
        return cls.model_validate_json(data)

    # ----------------------------------------------------------- who is where
    @property
    def open(self) -> bool:
        """Whether the table still takes commands (lobby or playing)."""
        return self.status in ("lobby", "playing")

    def seat_of(self, user_key: str) -> int | None:
        """The seat ``user_key`` holds, or ``None``."""
        for i, seat in enumerate(self.seats):
            if seat.user == user_key:
                return i
        return None

    def humans(self) -> list[int]:
        """The seats held by people."""
        return [i for i, s in enumerate(self.seats) if s.human]

    def user_keys(self) -> list[str]:
        """The keys of everybody seated (for the store's user index)."""
        return [s.user for s in self.seats if s.user]

    def user(self, seat: int) -> UserRef:
        """The :class:`UserRef` of the person in ``seat``."""
        s = self.seats[seat]
        return user_ref(s.user, s.name)

    @property
    def deals_over(self) -> int:
        """How many deals have ended at the table: the number of the last one's result (0 before the first)."""
        return self.sheet_dropped + len(self.sheet)

    def is_opener(self, user_key: str) -> bool:
        """Whether ``user_key`` opened this table and still sits at it (who left has no opener powers)."""
        return user_key == self.opener and self.seat_of(user_key) is not None

    # ----------------------------------------------------------- hands
    def hand_version(self, seat: int, version: int) -> int:
        """The version the buttons of ``seat``'s hand carry at table ``version``: when the hand last changed."""
        return min(self.hand_at[seat], version) if seat < len(self.hand_at) else version

    def hand_since(self, seat: int) -> int:
        """The oldest version a button of ``seat``'s hand may carry to count: older ones show another hand."""
        return self.hand_at[seat] if seat < len(self.hand_at) else 0

    def hand_changed(self, seat: int, version: int) -> None:
        """Note that ``seat``'s hand message changes at ``version`` (its older buttons are stale from now on)."""
        if len(self.hand_at) != self.n:
            self.hand_at = [0] * self.n
        self.hand_at[seat] = version

    # ----------------------------------------------------------- lobby
    def _lobby(self) -> None:
        if self.status == "playing":
            raise Refused("game_running")
        if self.status != "lobby":
            raise Refused("table_closed")

    def join(self, user: UserRef, seat: int | None = None) -> int:
        """Seat ``user`` (in ``seat``, 0-based, or the first free one); return his seat."""
        self._lobby()
        if self.seat_of(user.key) is not None:
            raise Refused("already_seated")
        free = [i for i, s in enumerate(self.seats) if s.empty]
        if seat is None:
            if not free:
                raise Refused("table_full")
            seat = free[0]
        elif seat not in free:
            raise Refused("seat_taken", seat=seat + 1)
        self.seats[seat] = Seat(user=user.key, name=clip(user.name or user.user_id))
        return seat

    def move(self, user: UserRef, seat: int) -> None:
        """Move ``user`` to the free ``seat`` (0-based), joining if he was not seated."""
        self._lobby()
        if not 0 <= seat < self.n:
            raise Refused("no_such_seat", seats=self.n)
        old = self.seat_of(user.key)
        if old == seat:
            return
        if not self.seats[seat].empty:
            raise Refused("seat_taken", seat=seat + 1)
        if old is None:
            self.join(user, seat)
            return
        self.seats[seat], self.seats[old] = self.seats[old], Seat()

    def leave(self, user_key: str) -> int:
        """Stand ``user_key`` up; during play a computer player takes the seat. Return the seat."""
        seat = self.seat_of(user_key)
        if seat is None:
            raise Refused("not_seated")
        if self.status == "lobby":
            self.seats[seat] = Seat()
        elif self.status == "playing":
            self.seats[seat] = Seat(bot=True, level=self.level)
            self.votes = [v for v in self.votes if v != user_key]
        else:
            raise Refused("table_closed")
        return seat

    def add_bot(self, level: Level | None = None) -> int:
        """Put a computer player (of ``level``, else the table's) in the first free seat; return it."""
        self._lobby()
        for i, s in enumerate(self.seats):
            if s.empty:
                self.seats[i] = Seat(bot=True, level=level or self.level)
                return i
        raise Refused("table_full")

    def remove_bot(self, seat: int | None) -> int:
        """Take the computer player out of ``seat`` (0-based; ``None``: the last one); return it."""
        self._lobby()
        bots = [i for i, s in enumerate(self.seats) if s.bot]
        if seat is None and bots:
            seat = bots[-1]
        if seat not in bots:
            raise Refused("no_computer_there")
        self.seats[seat] = Seat()
        return seat

    def fill(self) -> None:
        """Put computer players in every free seat (the start of a match)."""
        self.seats = [Seat(bot=True, level=self.level) if s.empty else s for s in self.seats]

    def set_level(self, level: Level) -> None:
        """The table option: every computer player of the table, and those to come, play at ``level``."""
        self.level = level
        self.seats = [s.model_copy(update={"level": level}) if s.bot else s for s in self.seats]

    def vote_abort(self, user_key: str) -> bool:
        """The opener aborts at once; seated people vote. Return whether the table is aborted now."""
        if not self.open:
            raise Refused("table_closed")
        if self.seat_of(user_key) is None:  # the opener too: who left has no say
            raise Refused("not_seated")
        if user_key not in self.votes:
            self.votes.append(user_key)
        humans = len(self.humans())
        if self.is_opener(user_key) or len([v for v in self.votes if self.seat_of(v) is not None]) * 2 > humans:
            self.status = "aborted"
            return True
        return False
