"""What a change answers: the table message, the hands that changed, results, refusals, in whose language.

A :class:`Ctx` is one attempt at a change: the loaded table, its match, and what the command
adds to the answer as it runs. :func:`answer` turns a saved (or quiet) attempt into outgoing
effects; :func:`refusal` answers a refused one. The language functions say which language an
answer speaks when no table decides it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from bot.ops import metrics
from bot.protocol import tokens
from bot.protocol.outgoing import ChatRef, Command, HandMessage, Notice, Outgoing, Toast, UserRef
from bot.store.tables import Store
from bot.store.tourneys import ID_LENGTH as TOURNEY_ID
from bot.table.match import Match
from bot.table.record import Table
from bot.table.refused import Refused
from bot.words import hand, render
from bot.words.i18n import supported, t

__all__ = ["Ctx", "answer", "results", "refusal", "notify_hand", "chosen_lang", "chat_lang", "toast_lang", "refusal_lang"]


@dataclass
class Ctx:
    """One attempt at a change: the loaded table and what the command adds to the answer."""

    cmd: Command | None
    table: Table
    match: Match
    version: int
    now: float
    out: list[Outgoing] = field(default_factory=list)
    lead: list[Outgoing] = field(default_factory=list)
    """Notices of what made the change (an automatic move, a player gone): they come before the
    table and before the result of a deal they lead to."""
    hands: set[int] = field(default_factory=set)
    quiet: bool = False
    """Nothing to save: answer with ``out`` (and the hands in ``hands``) only."""
    show_table: bool = True
    repost: bool = False

    @property
    def user(self) -> UserRef:
        """Who sent the command."""
        return self.cmd.user

    def seat(self) -> int:
        """The presser's seat, or a refusal."""
        seat = self.table.seat_of(self.user.key)
        if seat is None:
            raise Refused("not_seated")
        return seat

    def keep_table(self) -> None:
        """Save nothing and show no table message: the command only answers (a hand, a notice)."""
        self.quiet = True
        self.show_table = False


def answer(ctx: Ctx, version: int, changed: set[int], fading: set[int] = frozenset()) -> list[Outgoing]:
    """What led to the change, the table message (unless the command keeps it), the hands that changed
    or were asked for (those in ``fading`` only lost choices: marked so, unless asked for), the results, what
    the command adds."""
    table, state = ctx.table, ctx.match.state
    out: list[Outgoing] = list(ctx.lead)
    news = ctx.match.news
    if ctx.show_table:
        message = render.table_message(table, state, version, ctx.now, news)
        out.append(replace(message, repost=True) if ctx.repost else message)
    if state is not None and table.status != "lobby":
        for seat in table.humans():
            if seat in changed or seat in ctx.hands:
                shown = hand.hand_message(table, state, seat, version)
                out.append(replace(shown, fading=True, partial=not state.active[seat])
                           if seat in fading and seat not in ctx.hands  # shown as it was until its next change
                           else shown)  # (partial: his seat sits the deal out, there is nothing he can act on)
    return out + results(ctx) + ctx.out


def results(ctx: Ctx) -> list[Notice]:
    """The result notices of the deals the change ended."""
    table = ctx.table
    return [Notice(table.chat, render.result_text(table, ev["record"], ev["no"]), table_id=table.id, result=True)
            for ev in ctx.match.news if ev["type"] == "deal_over"]


def refusal(ctx: Ctx, r: Refused) -> list[Outgoing]:
    """A toast (his alone while he holds cards, :func:`_holds_cards`), and with ``r.fresh`` the message the
    stale button came from as it is now.

    That message goes alone with the toast: the versions its buttons carry tell the adapter
    whether the presser's copy is out of date (an edit that would change nothing is not made).
    """
    table = ctx.table
    metrics.refused(table.game, table.chat.platform, r.key)
    seat = table.seat_of(ctx.user.key)
    out: list[Outgoing] = [Toast(ctx.user, ctx.cmd.chat, t(table.lang, r.key, **r.params),
                                 secret=_holds_cards(ctx, seat), table_id=table.id)]
    if r.fresh == "table":
        out.append(render.table_message(table, ctx.match.state, ctx.version, ctx.now))
    elif r.fresh == "hand" and seat is not None and ctx.match.state is not None:
        out.append(hand.hand_message(table, ctx.match.state, seat, ctx.version))
    return out


def _holds_cards(ctx: Ctx, seat: int | None) -> bool:
    """Whether ``seat`` holds cards of a deal at the table: then every refusal to him is his alone
    (:attr:`~bot.protocol.outgoing.Toast.secret`), whatever refused it. His choices name his cards, and what
    he may not do tells what he holds; no text is trusted to say nothing of them."""
    return seat is not None and ctx.match.state is not None and ctx.table.status == "playing"


def notify_hand(out: list[Outgoing], ctx: Ctx, seat: int, version: int) -> list[Outgoing]:
    """``out`` with the hand of ``seat``, whose turn it is after a while away, posted anew to notify him."""
    user = ctx.table.user(seat)
    posted = hand.hand_message(ctx.table, ctx.match.state, seat, version, turn=True)
    return [o for o in out if not (isinstance(o, HandMessage) and o.user.key == user.key)] + \
        [replace(posted, notify=True)]


async def chosen_lang(store: Store, chat: ChatRef) -> str | None:
    """The language ``chat`` chose with ``sprache``, if any."""
    lang = await store.get_chat_setting(chat.key, "lang")
    return lang if supported(lang) else None


async def chat_lang(store: Store, cmd: Command, default: str) -> str:
    """The language of an answer to the chat: the chat's choice, in a private chat the client's, else ``default``."""
    if lang := await chosen_lang(store, cmd.chat):
        return lang
    if cmd.chat.private and supported(cmd.lang):
        return cmd.lang
    return default


async def toast_lang(store: Store, cmd: Command, default: str) -> str:
    """The language of an answer only the sender sees: the chat's, else his client's, else ``default``."""
    if lang := await chosen_lang(store, cmd.chat):
        return lang
    return cmd.lang if supported(cmd.lang) else default


async def refusal_lang(store: Store, cmd: Command, default: str) -> str:
    """The language of a refusal: a pressed button's table speaks its own; a group's, as the group does
    (:func:`chat_lang`: everybody reads it there, whatever one client's language); a private chat's as
    :func:`toast_lang`."""
    tok = tokens.parse(cmd.token) if cmd.token else None
    loaded = await store.load(tok.table) if tok is not None else None
    if loaded and len(tok.table) != TOURNEY_ID:  # a tournament's record is no table's
        return Table.load(loaded[1]).lang
    if cmd.chat.private or tok is not None:
        return await toast_lang(store, cmd, default)
    return await chat_lang(store, cmd, default)
