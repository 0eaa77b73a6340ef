"""Tournaments in a group: ``turnier neu``, registration (alone or naming a partner who confirms), the start.

The typed ``turnier ...`` command (:func:`typed`) and the buttons of the tournament's message
(:func:`press`, verbs ``tn_*``) change the chat's tournament through :func:`bot.service.tourney.change.change`.
The draw is :mod:`bot.service.tourney.draw`, the results and the deadlines :mod:`bot.service.tourney.results`.
"""

from __future__ import annotations

from bot.protocol import tokens
from bot.protocol.outgoing import Command, Notice, Outgoing
from bot.service.change import Tables
from bot.service.tourney import draw, results
from bot.service.tourney.change import Step, change, create
from bot.service.tourney.draw import core_of, entrant_id
from bot.service.tourney.message import message
from bot.store.tourneys import ID_LENGTH, TourneyStore
from bot.table.record import user_ref
from bot.table.refused import Refused
from bot.table.tourney_record import Tourney
from bot.words import tourney_command
from bot.words.i18n import t
from bot.words.tourney_messages import registration, team_name

__all__ = ["typed", "press", "needs_admin", "press_needs_admin", "VERBS", "ADMIN_VERBS", "ADMIN_BUTTONS"]

VERBS = frozenset({"tn_join", "tn_leave", "tn_ok", "tn_start", "tn_page"})
"""The button verbs of a tournament's message."""


async def typed(tables: Tables, cmd: Command, args: tuple[str, ...], lang: str) -> list[Outgoing]:
    """Carry out ``turnier ARGS`` in the command's chat (``lang``: the chat's language)."""
    if cmd.chat.private:
        raise Refused("tn.group_only")
    name, rest = tourney_command.parse(args)
    if name == "new":
        return await _new(tables, cmd, rest, lang)
    store = TourneyStore(tables.store)
    tourney_id = await store.for_chat(cmd.chat.key)
    if tourney_id is None and name == "standings":  # a finished tournament's final standings, while it is kept
        tourney_id = await store.finished_for(cmd.chat.key)
    if tourney_id is None:
        raise Refused("tn.none")
    if name == "join" and rest:
        fn = lambda step: _invite(step, " ".join(rest))  # noqa: E731
    elif name == "confirm":
        fn = lambda step: _confirm(step, " ".join(rest))  # noqa: E731
    else:
        fn = {"join": _join, "leave": _leave, "start": _start, "standings": _show, "abort": _abort}[name]
    return await _run(tables, tourney_id, cmd, fn)


ADMIN_VERBS = frozenset({"start", "abort"})
"""What a chat's admins may do to its tournament besides its organizer (the sub-commands of ``turnier``)."""
ADMIN_BUTTONS = frozenset({"tn_start"})
"""The buttons of the same powers (»Auslosen und los«)."""


async def needs_admin(tables: Tables, cmd: Command, args: tuple[str, ...]) -> bool:
    """Whether ``turnier ARGS`` starts or aborts the group's tournament by someone not its organizer: he may
    if he is a chat admin, which the adapter then asks the platform (on Discord the command tells it always)."""
    try:
        name, _ = tourney_command.parse(args)
    except Refused:
        return False
    if cmd.chat.private or name not in ADMIN_VERBS:
        return False
    tourney_id = await TourneyStore(tables.store).for_chat(cmd.chat.key)
    return tourney_id is not None and await _not_organizer(tables, cmd, tourney_id)


async def press_needs_admin(tables: Tables, cmd: Command, tok: tokens.Token) -> bool:
    """Whether the press ``tok`` starts a tournament by someone not its organizer: as :func:`needs_admin`, the
    same powers for the button as for the typed command."""
    if cmd.chat.private or tok.verb not in ADMIN_BUTTONS or not _is_id(tok.table):
        return False
    return await _not_organizer(tables, cmd, tok.table)


async def _not_organizer(tables: Tables, cmd: Command, tourney_id: str) -> bool:
    """Whether the tournament exists and the sender is not its organizer."""
    loaded = await TourneyStore(tables.store).fetch(tourney_id)
    return loaded is not None and not Tourney.load(loaded.data).is_organizer(cmd.user.key)


def _is_id(text: str) -> bool:
    """Whether ``text`` can be a tournament's id (a button's may be forged)."""
    return len(text) == ID_LENGTH


async def press(tables: Tables, cmd: Command, tok: tokens.Token) -> list[Outgoing]:
    """Carry out a press of the tournament message's button ``tok`` (a forged one is refused as such)."""
    def pressed(step: Step):
        if step.tourney.chat.key != cmd.chat.key:
            raise Refused("forged")
        if tok.verb == "tn_join":
            return _join(step)
        if tok.verb == "tn_leave":
            return _leave(step)
        if tok.verb == "tn_start":
            return _start(step)
        if tok.verb == "tn_ok":
            return _confirm_no(step, tok.arg)
        return _page(step, tok.arg)
    if tok.verb not in VERBS or not _is_id(tok.table):
        raise Refused("forged")
    return await _run(tables, tok.table, cmd, pressed)


async def _run(tables: Tables, tourney_id: str, cmd: Command, fn) -> list[Outgoing]:
    """Change the tournament, then show it (and start what its start needs: the tables of round 1)."""
    out, saved = await change(tables, tourney_id, cmd, fn)
    if saved is None:
        return out
    return await results.after_save(tables, saved, out)


async def _new(tables: Tables, cmd: Command, args: tuple[str, ...], lang: str) -> list[Outgoing]:
    """``turnier neu GAME [...]``: the sender opens a tournament in the chat and organizes it."""
    chosen = tourney_command.new_args(args)
    store = TourneyStore(tables.store)
    tourney = Tourney(id=store.new_id(), chat=cmd.chat, game=chosen.game, lang=lang, organizer=cmd.user.key,
                      organizer_name=cmd.user.name or cmd.user.user_id, format=chosen.format, twice=chosen.twice,
                      options=chosen.options, rule=chosen.rule, team_size=1 if chosen.game == "rams" else 2,
                      created=tables.clock())
    if chosen.round_s is not None:
        tourney.round_s = chosen.round_s
    await create(tables, tourney)
    return [registration(tourney, 1), Notice(cmd.chat, t(lang, "tn.opened"), table_id=tourney.id)]


# ---------------------------------------------------------------------- registration
def _join(step: Step) -> None:
    step.tourney.register(step.cmd.user)


def _invite(step: Step, partner: str) -> None:
    step.tourney.invite(step.cmd.user, partner)


def _confirm(step: Step, inviter_name: str) -> None:
    """``turnier bestätigen [NAME]``: confirm the invitation of ``NAME`` (or the one that names the sender)."""
    tourney, me = step.tourney, step.cmd.user
    wanted = inviter_name.lstrip("@").casefold()
    mine = [inv for inv in tourney.invites
            if inv.name.casefold() == wanted or not wanted and inv.partner.casefold() == (me.name or "").casefold()]
    if len(mine) != 1:
        raise Refused("tn.no_invite")
    tourney.confirm(me, mine[0].user)


def _confirm_no(step: Step, arg: str) -> None:
    """The confirm button of the invitation at ``arg`` (its index when the message was shown)."""
    invites = step.tourney.invites
    if not (arg.isascii() and arg.isdecimal()) or int(arg) >= len(invites):
        raise Refused("tn.no_invite")
    step.tourney.confirm(step.cmd.user, invites[int(arg)].user)


def _leave(step: Step) -> None:
    """Before the draw the sender's team leaves; after it, it withdraws (its remaining matches are forfeits)."""
    tourney, user = step.tourney, step.cmd.user
    if tourney.status == "running":
        _withdraw(step, user.key)
        return
    if tourney.unregister(user.key) is None and tourney.invite_of(user.key) is None:
        raise Refused("tn.not_registered")
    step.out.append(Notice(tourney.chat, t(tourney.lang, "tn.unregistered", name=user.name), table_id=tourney.id))


def _withdraw(step: Step, user_key: str) -> None:
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


def _organizer_only(step: Step) -> None:
    tourney = step.tourney
    if not tourney.is_organizer(step.cmd.user.key) and not step.cmd.admin:
        raise Refused("tn.only_organizer", name=tourney.organizer_name or user_ref(tourney.organizer).user_id)


def _start(step: Step) -> None:
    """The organizer closes the registration: the draw (:func:`bot.service.tourney.draw.start`)."""
    _organizer_only(step)
    if step.tourney.status != "open":
        raise Refused("tn.registration_closed")
    draw.start(step)


def _abort(step: Step) -> None:
    _organizer_only(step)
    if not step.tourney.open:
        raise Refused("tn.none")
    step.tourney.status = "aborted"
    step.out.append(Notice(step.tourney.chat, t(step.tourney.lang, "tn.aborted"), table_id=step.tourney.id))


def _show(step: Step) -> None:
    """``turnier tabelle``: the tournament's message again (posted anew by the answer)."""
    step.quiet = True
    step.out.append(message(step.tourney, step.version, step.now, repost=True))


def _page(step: Step, arg: str) -> None:
    """A page button of the standings: the page is kept with the tournament, so every process shows it."""
    if not (arg.isascii() and arg.isdecimal()) or step.tourney.status == "open":
        raise Refused("forged")
    step.tourney.page = int(arg)
