"""Commands in and outgoing effects out: the platform-neutral language between bot and adapters.

An adapter turns a platform update into a :class:`Command`, hands it to the service, and
carries out each returned effect by its type. Nothing here is an SDK object; only
platform-neutral ids are kept (platform, chat id, thread id, user id).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.protocol import tokens

__all__ = ["ChatRef", "UserRef", "Command", "Button", "TableMessage", "HandMessage", "Toast", "PrivateText", "Notice",
           "JoinLink", "OpenTopic", "ListedTable", "TableList", "Attachment", "FileMessage", "FILES_MAX_BYTES", "FILES_MAX",
           "CAPTION_MAX", "Outgoing", "Before", "version_of"]


@dataclass(frozen=True)
class ChatRef:
    """A group chat, a forum topic in it (``thread``), or a private chat."""

    platform: str
    chat_id: str
    thread: str = ""
    title: str = ""
    private: bool = False

    @property
    def key(self) -> str:
        """The id the store indexes tables by: one open table per chat or topic."""
        return f"{self.platform}:{self.chat_id}:{self.thread}"

    @property
    def group(self) -> str:
        """The chat with all its forum topics (``platform:chat id``): what its lobbies are counted in,
        its memory and its tournaments are kept under."""
        return f"{self.platform}:{self.chat_id}"


@dataclass(frozen=True)
class UserRef:
    """A player: platform user id and the name to show."""

    platform: str
    user_id: str
    name: str = ""

    @property
    def key(self) -> str:
        """The id the store indexes a user's tables by."""
        return f"{self.platform}:{self.user_id}"


@dataclass(frozen=True)
class Command:
    """One thing a user asked for: a text command (``verb`` and ``args``) or a button ``token``.

    ``lang`` is the user's client language if the platform tells it ("de", "en", ...).
    ``update_id`` identifies the platform update so a redelivered one is applied once; ``bot`` is the
    id of the bot account that received it (update ids are per bot: two bots on one Redis must
    not take each other's updates for their own).
    ``reachable`` says whether the bot can write to the user privately, when the adapter asked
    the platform (it does so for joining); ``None``: the bot layer goes by what it has seen.
    ``admin`` says whether the user administers the chat, when the adapter knows (Discord's
    permissions come with every interaction; Telegram is asked only when it matters, see
    :meth:`~bot.service.Service.needs_admin`); ``None``: not known, taken as no.
    """

    chat: ChatRef
    user: UserRef
    verb: str = ""
    args: tuple[str, ...] = ()
    token: str = ""
    lang: str = ""
    update_id: str = ""
    bot: str = ""
    reachable: bool | None = None
    admin: bool | None = None


@dataclass(frozen=True)
class Button:
    """A button: its label and either a token to send back or a URL to open."""

    label: str
    token: str = ""
    url: str = ""


@dataclass(frozen=True)
class TableMessage:
    """Show the table in its chat: edit the table's message in place, or post it if there is none.

    ``story`` holds the lines of what happened since the last table message (announcements,
    tricks, results) for adapters that print a running story, as the console does. ``at_once``: it
    does not wait for the next card, as something of the same change was posted in its chat already
    (a slash command's public answer, made by the process that got it). ``in_trick``: a trick is under way (some
    of its cards are down, not all), so an adapter whose chat is under load may hold the table for its last card.
    """

    chat: ChatRef
    table_id: str
    text: str
    buttons: tuple[tuple[Button, ...], ...] = ()
    repost: bool = False
    story: tuple[str, ...] = ()
    at_once: bool = False
    in_trick: bool = False


@dataclass(frozen=True)
class HandMessage:
    """Show one player his hand privately (edit in place where possible). Never sent to anyone else.

    ``notify`` says how: ``False`` edits the player's hand message silently (fast play, or
    nothing new for him to do); ``True`` means the turn has just passed to a player who has not
    acted at this table for a while, and he wants to hear of it: the hand is posted anew as a
    message that notifies his phone, and the previous hand message of the table loses its
    buttons or is deleted. Every adapter implements both (Telegram: ``sendMessage`` and
    ``deleteMessage``; Discord: a new DM where an edit would be silent). The bot layer sets it
    at most once per turn (see :mod:`bot.table.notify`).

    ``emptied`` marks a hand whose owner has played his last card while the match goes on: it has
    nothing to press until the next deal's cards, which usually follow within seconds, so an
    adapter may hold its edit a while for them to replace it.

    ``to_act`` says its owner is to act now (his turn to decide, the deal's first card, or his window before the
    first lead, which the first card waits for): it is shown at once, where a hand whose owner has nothing to do
    may wait a moment for a newer one.

    ``partial`` marks a hand its owner cannot act on yet (:func:`bot.words.hand.waits`): it holds only his first
    cards of a new deal (the rest come when another seat names trump), or before the play it is neither his turn
    nor has he a choice (Rams: the others decide first). He has nothing to press, so an adapter may hold it longer,
    for his choices or the whole hand to replace it; when his turn comes, the bot layer sends it again (not
    ``partial``), so it goes out then at the latest.

    ``fading`` marks a hand that only lost choices since it was last shown (a Ledig gone with the first card, a
    »Weiter« pressed, a Spritzen the partner said, a Rams seat that passed going out of play): every button left does
    what it did, and one gone is refused with the reason, so an adapter may hold its edit a while for the hand's next
    change to carry it. Such a hand of a seat that sits the deal out is ``partial`` too: nothing on it can be acted on
    until the next deal's cards replace it.

    ``in_chat`` marks a hand of the change its owner made by a press in his private chat: he plays there, so an
    adapter no longer holds his hands of the table back while his web page is open (:mod:`adapters.common.onweb`).

    ``playable`` holds the tokens of the card buttons its owner may press right now (none while it is
    not his turn). The message is not re-sent when only this changes (another player's card does that),
    so it is for a surface that asks for the hand before it shows it (the console marks them).
    """

    user: UserRef
    chat: ChatRef
    table_id: str
    text: str
    buttons: tuple[tuple[Button, ...], ...] = ()
    notify: bool = False
    emptied: bool = False
    to_act: bool = False
    partial: bool = False
    fading: bool = False
    playable: tuple[str, ...] = ()
    in_chat: bool = False


@dataclass(frozen=True)
class Toast:
    """A short answer only the user who acted sees (a refusal, "already played").

    ``secret`` marks an answer whose words may tell what only its user may know: a refusal given while
    he holds cards at ``table_id`` names his choices and so his cards ("Du kannst: K♣ weg, …"), or what
    he must do with them ("Du musst Farbe bekennen"). It goes to him alone or nowhere: an adapter that
    cannot show it to him alone (his private chat refused) posts at most that it cannot write to him,
    naming nothing of it. An answer that is not ``secret`` may go to the chat where he cannot be reached.
    """

    user: UserRef
    chat: ChatRef
    text: str
    secret: bool = False
    table_id: str = ""


@dataclass(frozen=True)
class PrivateText:
    """A longer answer for ``user`` alone, asked for in ``chat``: a message in his private chat (a deal's review).

    Like a ``secret`` :class:`Toast` it may tell what only he may know (his cards then), so it goes to him
    alone or nowhere: Discord shows it as the ephemeral answer of his interaction (else a DM); where he
    cannot be reached privately the chat is told only that the bot cannot write to him, naming nothing of it.
    """

    user: UserRef
    chat: ChatRef
    text: str
    table_id: str = ""


@dataclass(frozen=True)
class Notice:
    """A message posted in the chat: a reminder, an automatic move, a result; may mention users.

    ``result`` marks a deal's result (its lines are also in the table message's ``story``).
    """

    chat: ChatRef
    text: str
    mentions: tuple[UserRef, ...] = ()
    table_id: str = ""
    result: bool = False


@dataclass(frozen=True)
class JoinLink:
    """The bot cannot write to ``user`` privately: offer a link that opens the private chat and joins."""

    user: UserRef
    chat: ChatRef
    table_id: str
    payload: str
    text: str = ""


FILES_MAX_BYTES = 8_000_000
"""The most bytes of all files of one :class:`FileMessage`: below Discord's 10 MB per message of a bot
without boosts, Telegram's 10 MB per photo and 50 MB per document."""
FILES_MAX = 10
"""The most files of one :class:`FileMessage` (Discord's most attachments of one message)."""
CAPTION_MAX = 1000
"""The most characters of a file message's caption (Telegram allows 1,024, Discord 2,000)."""


@dataclass(frozen=True)
class Attachment:
    """One file: its name (with the extension that says its type), its bytes; ``picture`` for a PNG
    that a chat shows as a picture (Telegram's photo) rather than as a file to download."""

    filename: str
    data: bytes
    picture: bool = False


@dataclass(frozen=True)
class FileMessage:
    """Files sent to a chat with a caption: an export (CSV and JSON documents) or a chart (a PNG picture).

    The files fit every platform's limits (:data:`FILES_MAX`, :data:`FILES_MAX_BYTES`,
    :data:`CAPTION_MAX`): whoever makes one keeps within them, and a bigger one is refused here.
    """

    chat: ChatRef
    files: tuple[Attachment, ...]
    caption: str = ""

    def __post_init__(self) -> None:
        if not 1 <= len(self.files) <= FILES_MAX or sum(len(f.data) for f in self.files) > FILES_MAX_BYTES \
                or len(self.caption) > CAPTION_MAX:
            raise ValueError("a file message beyond the platforms' limits")


@dataclass(frozen=True)
class OpenTopic:
    """A table would like a forum topic of its own in ``chat`` (a tournament's match), named ``name``.

    An adapter whose chat has topics opens one and reports its id with
    :meth:`~bot.service.Service.topic_opened`, which moves the table there; one whose chat has none
    ignores it (the table stays where it is).
    """

    chat: ChatRef
    table_id: str
    name: str


@dataclass(frozen=True)
class ListedTable:
    """One row of a :class:`TableList`: a table, its line and the label of a link to it (``go``); ``hand``
    presses his hand there again (none in a lobby), for a chat whose table message cannot be linked to."""

    table_id: str
    chat: ChatRef
    text: str
    go: str
    hand: Button | None = None


@dataclass(frozen=True)
class TableList:
    """One page of the open tables ``user`` sits at (»Meine Tische«), for his private ``chat`` only.

    An adapter shows ``head`` and each row's text, leads each row to its table (a link to the table
    message where the platform has one, else the row's ``hand`` button) and adds the ``pages`` buttons.
    """

    user: UserRef
    chat: ChatRef
    head: str
    rows: tuple[ListedTable, ...]
    pages: tuple[Button, ...] = ()


Outgoing = TableMessage | HandMessage | Toast | PrivateText | Notice | JoinLink | OpenTopic | FileMessage | TableList


class Before(list):
    """The answer to a platform update carried out before: by another process that received it too (a Discord
    shard's two sessions while it restarts) or before it came again. It shows nothing, and the platform is given no
    answer of this process: the first one's stands."""


def version_of(outs: list[Outgoing], table_id: str = "") -> int | None:
    """The version of ``table_id`` (any table if empty) a batch of effects shows: the newest version the
    button tokens of that table carry.

    One change of the service renders one version of a table, so the version read from the
    table message's buttons holds for the hands without buttons too, and lets a late hand
    from another process be told from a newer one. A batch may hold several tables (the timers
    of one tick, a tournament opening its round's tables): each is read by its own id.
    """
    versions = [t.version for out in outs for row in getattr(out, "buttons", ()) for b in row
                if (t := tokens.parse(b.token)) and (not table_id or t.table == table_id)]
    return max(versions) if versions else None
