"""Discord interactions to the bot layer's :class:`~bot.protocol.outgoing.Command`.

Only platform-neutral ids leave this module: the channel (a thread names its parent channel and
itself as ``thread``, as a Telegram forum topic does: each thread holds its own table, and the
channel's memory counts them all), the user with his display name, his client locale, whether he
manages the server, and the interaction id for de-duplication. A button's ``custom_id`` is passed on untouched as the token:
it is client-controlled and the bot layer validates it.
"""

from __future__ import annotations

import discord

from bot.protocol.outgoing import ChatRef, Command, UserRef

__all__ = ["PLATFORM", "chat_ref", "channel_of", "user_ref", "command_of", "lang_of", "admin_of"]

PLATFORM = "discord"


def chat_ref(interaction: discord.Interaction) -> ChatRef:
    """The channel (or thread in its parent channel, or DM) the interaction happened in, titled "server · #channel"."""
    channel = interaction.channel
    name = getattr(channel, "name", None) or ""
    guild = interaction.guild
    title = " · ".join(p for p in (guild.name if guild else "", f"#{name}" if name else "") if p)
    if isinstance(channel, discord.Thread) and channel.parent_id:
        return ChatRef(PLATFORM, str(channel.parent_id), str(channel.id), title)
    return ChatRef(PLATFORM, str(interaction.channel_id), "", title, private=interaction.guild_id is None)


def channel_of(chat: ChatRef) -> int:
    """The Discord channel id a :class:`ChatRef` is posted to: its thread's, if it names one."""
    return int(chat.thread or chat.chat_id)


def user_ref(user: discord.abc.User) -> UserRef:
    """The :class:`UserRef` of ``user`` with the name the server shows."""
    return UserRef(PLATFORM, str(user.id), user.display_name)


def lang_of(interaction: discord.Interaction) -> str:
    """The user's client language ("de", "en", ...)."""
    return str(interaction.locale.value if interaction.locale else "")[:2].lower()


def command_of(interaction: discord.Interaction, verb: str = "", args: tuple[str, ...] = (),
               token: str = "") -> Command:
    """The command of a slash command (``verb``, ``args``) or a button press (``token``)."""
    return Command(chat_ref(interaction), user_ref(interaction.user), verb=verb, args=args, token=token,
                   lang=lang_of(interaction), update_id=str(interaction.id), bot=str(interaction.application_id or ""),
                   admin=admin_of(interaction))


def admin_of(interaction: discord.Interaction) -> bool:
    """Whether the member manages the server (the permissions come with the interaction; no DM counts)."""
    perms = interaction.permissions
    return interaction.guild_id is not None and (perms.administrator or perms.manage_guild)
