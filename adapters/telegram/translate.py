"""Telegram updates to the bot layer's :class:`~bot.protocol.outgoing.Command`.

Only platform-neutral ids leave this module: the chat (with the forum topic as ``thread``),
the user with his name, his client language and the update id for de-duplication. A button's
``callback_data`` is passed on untouched as the command's token: it is client-controlled and the
bot layer validates it.
"""

from __future__ import annotations

from telegram import Chat, Message, Update, User

from bot.protocol.outgoing import ChatRef, Command, UserRef

from . import commands

__all__ = ["PLATFORM", "chat_ref", "user_ref", "command_of", "migration_of"]

PLATFORM = "telegram"


def chat_ref(chat: Chat, message: Message | None = None) -> ChatRef:
    """The :class:`ChatRef` of ``chat``; a message in a forum topic names the topic as ``thread``."""
    thread = ""
    if message is not None and message.is_topic_message and message.message_thread_id:
        thread = str(message.message_thread_id)
    return ChatRef(PLATFORM, str(chat.id), thread, chat.title or chat.full_name or "",
                   private=chat.type == Chat.PRIVATE)


def user_ref(user: User) -> UserRef:
    """The :class:`UserRef` of ``user`` with his full name."""
    return UserRef(PLATFORM, str(user.id), user.full_name)


def _lang(user: User | None) -> str:
    return ((user.language_code if user else "") or "")[:2].lower()


def migration_of(update: Update) -> tuple[ChatRef, str] | None:
    """The group and its new chat id if ``update`` says the group became a supergroup, else ``None``."""
    message = update.message
    if message is not None and message.migrate_to_chat_id:
        return chat_ref(message.chat), str(message.migrate_to_chat_id)
    return None


def command_of(update: Update, bot_username: str, bot_id: str = "") -> Command | None:
    """The command an update asks for, ``None`` if it asks for nothing (chatter, other bots' commands).

    ``bot_id`` is the receiving bot's id: update ids count per bot, so it is part of the update's identity.
    """
    uid = str(update.update_id)
    query = update.callback_query
    if query is not None:
        if query.message is None:
            return None
        return Command(chat_ref(query.message.chat, query.message if isinstance(query.message, Message) else None),
                       user_ref(query.from_user), token=query.data or "", lang=_lang(query.from_user),
                       update_id=uid, bot=bot_id)
    message = update.message
    if message is None:
        return None
    if message.migrate_to_chat_id or message.from_user is None or message.from_user.is_bot:
        return None
    chat = chat_ref(message.chat, message)
    parsed = commands.parse(message.text or "", bot_username, chat.private)
    if parsed is None:
        return None
    verb, args = parsed
    return Command(chat, user_ref(message.from_user), verb=verb, args=args, lang=_lang(message.from_user),
                   update_id=uid, bot=bot_id)
