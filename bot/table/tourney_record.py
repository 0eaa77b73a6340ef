"""A tournament in a chat: its organizer's choices, the registration, and the tables of its pairings.

:class:`Tourney` is what a chat's tournament adds to the pure tournament (``core``, kept as the
tournament room's model wrote it): where it is played, who organizes it, the table options and
the deadline rule, the people registered (teams of two, or alone to be paired by lot), the
invitations waiting for a partner's confirmation, and which table plays which pairing. The
registration's rules are pure methods that raise :class:`~bot.table.refused.Refused`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.protocol.outgoing import ChatRef, UserRef
from bot.table.refused import Refused, clip

__all__ = ["Entry", "Invite", "Tourney", "MAX_TEAMS", "Rule", "TStatus", "FORMATS"]

MAX_TEAMS = 64
"""The most teams (Rams: players) a tournament takes."""
FORMATS = ("round-robin", "groups-ko", "swiss")
"""The formats a tournament can be played in."""

Rule = Literal["computer", "forfeit"]
"""What decides a match its round's deadline finds unfinished: computer players take the missing
people's seats and play it to the end, or it is scored as a forfeit (see :mod:`bot.service.tourney.results`)."""
TStatus = Literal["open", "running", "finished", "aborted"]


class Entry(BaseModel):
    """A registered team (or a Rams player): its people's user keys and names; ``""`` a computer partner."""

    model_config = ConfigDict(extra="forbid")
    users: list[str]
    names: list[str]
    withdrawn: bool = False

    @property
    def label(self) -> str:
        """The team's name as shown: its members joined by ``+``."""
        return "+".join(n or "🤖" for n in self.names)


class Invite(BaseModel):
    """A player asked the person named ``partner`` to play with him; the partner confirms by a button."""

    model_config = ConfigDict(extra="forbid")
    user: str
    name: str
    partner: str

    def names(self, name: str) -> bool:
        """Whether ``name`` (a person's name on the platform) is the partner named: his whole name or its first
        word, in any case; a partner named by his ``@handle`` (which the bot cannot see) is whoever confirms."""
        if self.partner.startswith("@"):
            return True
        full = " ".join(name.split()).casefold()
        return self.partner.casefold() in (full, full.partition(" ")[0])


class Tourney(BaseModel):
    """A tournament in one chat, from registration to its final ranking.

    ``team_size`` is 2 for the team games and 1 for Rams. ``round_s`` is a round's time in seconds,
    ``rule`` what decides an unfinished match at its deadline. ``core`` is the tournament room's
    model as JSON (``None`` until the draw), ``seed`` the draw's seed (published after it),
    ``tables`` each pairing's table, ``round`` the round being played (1-based) and ``round_end``
    its deadline, ``reminded`` whether its players were reminded of it, ``page`` the standings' page shown.
    """

    model_config = ConfigDict(extra="forbid")
    id: str
    chat: ChatRef
    game: str
    lang: str = "de"
    organizer: str
    organizer_name: str = ""
    format: str = "round-robin"
    twice: bool = False
    options: dict[str, Any] = Field(default_factory=dict)
    round_s: int = 2 * 86400
    rule: Rule = "computer"
    team_size: int = 2
    status: TStatus = "open"
    entries: list[Entry] = Field(default_factory=list)
    invites: list[Invite] = Field(default_factory=list)
    seed: int | None = None
    core: dict[str, Any] | None = None
    tables: dict[str, str] = Field(default_factory=dict)
    round: int = 0
    round_end: float = 0.0
    reminded: bool = False
    page: int = 0
    created: float = 0.0

    def dump(self) -> str:
        """The compact JSON the store keeps."""
        return self.model_dump_json(exclude_defaults=True)

    @classmethod
    def load(cls, data: str | bytes) -> "Tourney":
        """The tournament stored as ``data``."""
        return cls.model_validate_json(data)

    @property
    def open(self) -> bool:
        """Whether it still counts as one of its chat's tournaments (registration or play)."""
        return self.status in ("open", "running")

    # ----------------------------------------------------------- who is in
    def entry_of(self, user_key: str) -> int | None:
        """The index of the user's entry, if he is registered."""
        for i, entry in enumerate(self.entries):
            if user_key in entry.users:
                return i
        return None

    def invite_of(self, user_key: str) -> Invite | None:
        """The invitation the user sent, if one waits."""
        return next((inv for inv in self.invites if inv.user == user_key), None)

    def is_organizer(self, user_key: str) -> bool:
        """Whether the user opened the tournament."""
        return user_key == self.organizer

    def _open(self) -> None:
        if self.status != "open":
            raise Refused("tn.registration_closed")

    def _room(self) -> None:
        if len(self.teams_expected()) >= MAX_TEAMS:
            raise Refused("tn.full", most=MAX_TEAMS)

    def _free(self, user_key: str) -> None:
        if self.entry_of(user_key) is not None:
            raise Refused("tn.already_registered")

    # ----------------------------------------------------------- registration
    def register(self, user: UserRef) -> None:
        """Register the user alone (Rams: as a player; a team game: to be paired by lot)."""
        self._open()
        self._free(user.key)
        self._room()
        self.invites = [inv for inv in self.invites if inv.user != user.key]
        self.entries.append(Entry(users=[user.key], names=[clip(user.name or user.user_id, 32)]))

    def invite(self, user: UserRef, partner: str) -> None:
        """The user names his partner; the team is registered when the partner confirms."""
        self._open()
        if self.team_size == 1:
            raise Refused("tn.no_teams")
        self._free(user.key)
        self._room()
        self.invites = [inv for inv in self.invites if inv.user != user.key][-(MAX_TEAMS - 1):]
        self.invites.append(Invite(user=user.key, name=clip(user.name or user.user_id, 32), partner=clip(partner, 32)))

    def confirm(self, user: UserRef, inviter: str) -> Entry:
        """The partner confirms the invitation of ``inviter`` (a user key): their team is registered."""
        self._open()
        invite = self.invite_of(inviter)
        if invite is None or self.entry_of(inviter) is not None:
            raise Refused("tn.no_invite")
        if user.key == inviter:
            raise Refused("tn.own_invite")
        if not invite.names(user.name):
            raise Refused("tn.not_for_you", name=invite.partner)
        self._free(user.key)
        self._room()
        self.invites = [inv for inv in self.invites if inv.user not in (inviter, user.key)]
        entry = Entry(users=[inviter, user.key], names=[invite.name, clip(user.name or user.user_id, 32)])
        self.entries.append(entry)
        return entry

    def unregister(self, user_key: str) -> Entry | None:
        """Before the draw: the user's team leaves (his invitation too). After it: see :meth:`withdraw`."""
        self._open()
        self.invites = [inv for inv in self.invites if inv.user != user_key]
        i = self.entry_of(user_key)
        return self.entries.pop(i) if i is not None else None

    def teams_expected(self) -> list[Entry]:
        """The teams the draw will see: the teams and every two registered alone (Rams: the players)."""
        if self.team_size == 1:
            return list(self.entries)
        pairs = [e for e in self.entries if len(e.users) == 2]
        alone = [e for e in self.entries if len(e.users) == 1]
        return pairs + alone[: (len(alone) + 1) // 2]
