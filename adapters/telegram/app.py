"""The running Telegram bot: the PTB application, its update handler, the timers and the outbox.

Updates come by long polling, or by webhook when ``TELEGRAM_WEBHOOK_URL`` is set (our
:mod:`.webhook` server checks the secret token header of every request before reading its
bounded body; run several processes behind a load balancer that way). Each update becomes a
:class:`~bot.protocol.outgoing.Command` for the service; the returned effects go through the Telegram outbox in
Redis (:meth:`~bot.service.Service.show`), and the process that reads the chat's shard carries them out with
:class:`~adapters.telegram.deliver.Delivery` (:meth:`TelegramBot.carry_out`).

A button press is answered exactly once and at once: the answer is the first call made for it,
and it waits for the service's verdict at most ``ack_deadline_s`` (the service takes
milliseconds), so a refusal's toast or a deep link can ride on it; a press the service has not
decided by then is answered empty, and an answer for its presser alone that comes later (a hint,
which searches for up to a second) goes to his private chat. In webhook mode the answer rides on
the HTTP response to the press's update instead of costing a call (:mod:`.replies`); one decided
later than the webhook server holds that response, or a press whose handling failed before it was
answered, is answered as in polling mode (the latter with the empty answer, on the response if it
is still held).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable
from dataclasses import replace
from urllib.parse import urlsplit

from telegram import BotCommand, CallbackQuery, Update
from telegram.error import BadRequest, InvalidToken, NetworkError
from telegram.ext import Application, ApplicationBuilder, ContextTypes, TypeHandler

from adapters.common.gate import SharedLimit
from adapters.common.onweb import in_chat
from adapters.common.running import Ticker, delivering, run_until_stopped
from bot.ops import metrics
from bot.ops.settings import Settings
from bot.protocol import tokens
from bot.protocol.outgoing import ChatRef, Command, HandMessage, JoinLink, Outgoing, TableList, Toast, UserRef
from bot.words import languages, parse_typed

from . import commands, markup
from .deliver import Delivery, Refs
from .metered import MeteredRequest
from .outbox import Outbox, Pacer
from .replies import Replies, answer_method
from .translate import PLATFORM, command_of, migration_of
from .tuning import Tuning
from .webhook import WebhookServer

__all__ = ["TelegramBot", "serve", "JOIN_VERB", "ALLOWED_UPDATES"]

log = logging.getLogger(__name__)

JOIN_VERB = "join"
"""The command and button verb that seats a player: the bot must be able to write to him first."""

ALLOWED_UPDATES = [Update.MESSAGE, Update.CALLBACK_QUERY]


class TelegramBot:
    """The adapter while it runs.

    Args:
        settings: the token, webhook and API base URL settings.
        service: the bot layer: ``handle(cmd)``, ``tick()``, ``join_payload(table_id)``.
        refs: where message ids are kept per table (the store).
        tuning: flood limits and timings.
        shared: the flood limit shared by every process (a Redis limiter); ``None`` for one process.
    """

    def __init__(self, settings: Settings, service, refs: Refs, tuning: Tuning | None = None,
                 shared: SharedLimit | None = None):
        self.settings = settings
        self.service = service
        self.refs = refs
        self.tuning = tuning or Tuning()
        if settings.telegram_token is None:
            raise ValueError("TELEGRAM_TOKEN is not set")
        builder = (ApplicationBuilder().token(settings.telegram_token.get_secret_value()).concurrent_updates(True)
                   .request(MeteredRequest(connection_pool_size=256))
                   .get_updates_request(MeteredRequest(connection_pool_size=1)))
        if settings.telegram_api_base_url:
            builder = builder.base_url(settings.telegram_api_base_url)
        self.app: Application = builder.build()
        self.app.add_handler(TypeHandler(Update, self.on_update))
        self.app.add_error_handler(self._error)
        bot_id = settings.telegram_token.get_secret_value().partition(":")[0]
        self.outbox = Outbox(Pacer(self.tuning, shared, bot_id), self._migrated)
        self.delivery: Delivery | None = None
        self.replies = Replies()
        self._ticker: Ticker | None = None
        self._webhook: WebhookServer | None = None
        self._stopping = False

    @property
    def webhook_port(self) -> int | None:
        """The port the webhook server listens on (once started in webhook mode), else ``None``."""
        return self._webhook.port if self._webhook else None

    @property
    def username(self) -> str:
        """The bot's username (known once started)."""
        return self.app.bot.username

    def carry_out(self, outs: list[Outgoing]) -> None:
        """Show a batch of effects the outbox reader took (any process's presses, taps and timers), once started."""
        if self.delivery is not None:
            self.delivery.carry_out(outs)

    async def start(self) -> None:
        """Connect, register the command menus, start receiving updates and the timer loop."""
        await self.app.initialize()
        settings = self.settings
        web_row = None
        if settings.telegram_webapp and settings.web_url:  # the Mini App at the web table
            web_row = functools.partial(markup.web_table_row, lang=settings.lang, username=self.username,
                                        app_name=settings.telegram_webapp, base_url=settings.web_url)
        self.delivery = Delivery(self.app.bot, self.refs, self.outbox, self.service.join_payload, self.username,
                                 self.tuning.lazy_s, self.tuning.table_lazy_s, web_row, self.service.topic_opened,
                                 self.service, self.tuning.hand_wait_s, self.service if settings.web_url else None,
                                 self.tuning.table_trick_s)
        for lang in languages():  # English is the menu of every language without its own
            if lang == "en" or len(lang) == 2 and lang.isalpha():  # Telegram takes ISO 639-1 codes only
                await self.app.bot.set_my_commands([BotCommand(n, d) for n, d in commands.menu(lang)],
                                                   language_code=None if lang == "en" else lang)
        await self.app.start()
        url = self.settings.telegram_webhook_url
        if url:
            listen, secret = self.settings.telegram_webhook_listen, self.settings.telegram_webhook_secret
            self._webhook = WebhookServer(listen.host, listen.port, urlsplit(url).path, self.app.bot,
                                          self.app.update_queue, secret.get_secret_value(), self.replies,
                                          self.tuning.ack_deadline_s)
            self._webhook.start()
            await self.app.bot.set_webhook(url, secret_token=secret.get_secret_value(),
                                           allowed_updates=ALLOWED_UPDATES)
        else:
            await self.app.updater.start_polling(timeout=self.tuning.poll_timeout_s, allowed_updates=ALLOWED_UPDATES)
        self._ticker = Ticker(self.service, self.delivery.carry_out, self.tuning.tick_interval_s)
        self._ticker.start()

    async def stop(self, flush_s: float = 5.0) -> None:
        """Stop receiving and the timers at once (no new update or timer is taken), finish the updates and the
        timer tick in flight, send what is still queued at once, lingering or not (for at most ``flush_s``), disconnect."""
        self._stopping = True
        await asyncio.gather(*(part.stop() for part in (self._webhook, self._ticker) if part))
        if self.app.updater and self.app.updater.running:
            await self.app.updater.stop()
        if self.app.running:
            await self.app.stop()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.outbox.flush(), flush_s)
        dropped = await self.outbox.close()
        if dropped:  # the chats' next change shows them right (an outbox entry's are taken over)
            log.warning("stopping: %d queued calls not made within %g s, dropped", dropped, flush_s)
        await self.app.shutdown()

    async def on_update(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Handle one update: a press, a text command, a group's migration."""
        moved = migration_of(update)
        if moved is not None:
            await self._move(*moved)
            return
        query = update.callback_query
        try:
            cmd = command_of(update, self.username, str(self.app.bot.id))
            if cmd is None:
                if query is not None:
                    await self._answer(query)
                return
            if cmd.lang:
                self.delivery.langs[cmd.user.user_id] = cmd.lang
            if query is not None:
                await self._press(query, cmd)
            else:
                await self._text(cmd)
        finally:
            if query is not None:  # a press whose handling failed before its answer: the empty one, if still held
                self.replies.give(answer_method(query.id))

    async def _press(self, query: CallbackQuery, cmd: Command) -> None:
        token = tokens.parse(cmd.token)
        joining = token is not None and token.verb == JOIN_VERB and not cmd.chat.private
        if joining:
            if not await self.delivery.reachable(cmd.user):
                await self._answer(query, url=markup.deep_link(self.username, self.service.join_payload(token.table)))
                return
            cmd = replace(cmd, reachable=True)
        if not cmd.chat.private and await self.service.needs_admin(cmd):  # the same powers as typed
            cmd = replace(cmd, admin=await self.delivery.chat_admin(cmd.chat, cmd.user))
        task = asyncio.ensure_future(self._handle(cmd, token))
        outs: list[Outgoing] = []
        try:
            done, _ = await asyncio.wait({task}, timeout=self.tuning.ack_deadline_s)
            if done:
                outs = task.result()
        finally:
            answer = next((o for o in outs if isinstance(o, (Toast, JoinLink)) and o.user.key == cmd.user.key
                           and not (joining and isinstance(o, JoinLink))), None)
            if isinstance(answer, JoinLink):
                await self._answer(query, url=markup.deep_link(self.username, answer.payload))
            else:
                await self._answer(query, text=answer.text if answer else None)
        resend = cmd.user if token and token.verb == "hand" else None
        page = query.message.message_id if query.message is not None else None  # a page of his tables: in its place
        mine = (Toast, JoinLink)
        await self._show([o for o in outs if o is not answer and not (isinstance(o, mine) and o.user.key ==
                                                                        cmd.user.key)], resend, page)
        if not done:  # the press is answered: a late answer for him alone (a hint) goes to his private chat
            late = await task
            await self._show([o for o in late if not isinstance(o, mine) or isinstance(o, Toast) and o.secret
                              and o.user.key == cmd.user.key], resend, page, cmd.user)

    async def _handle(self, cmd: Command, token: tokens.Token | None) -> list[Outgoing]:
        """The service's answer to a press; pressed in his private chat, his hands say he plays there (not on his
        web page: they are not held for it)."""
        outs = await self.service.handle(cmd)
        return in_chat(outs, cmd.user, token.table) if token is not None and cmd.chat.private else outs

    async def _text(self, cmd: Command) -> None:
        parsed = parse_typed(cmd.verb, cmd.args) if cmd.verb and not cmd.chat.private else None
        if parsed is not None and parsed.name == JOIN_VERB:  # like the button: the link first if need be
            cmd = replace(cmd, reachable=await self.delivery.reachable(cmd.user))
        if not cmd.chat.private and await self.service.needs_admin(cmd):  # only then is Telegram asked
            cmd = replace(cmd, admin=await self.delivery.chat_admin(cmd.chat, cmd.user))
        await self._show(await self.service.handle(cmd), cmd.user if cmd.verb == "hand" else None)

    async def _move(self, old: ChatRef, new_chat_id: str) -> None:
        """The group became a supergroup: its table moves to the new chat id and is posted there."""
        outs = await self.service.migrate(old, new_chat_id)
        await self._show([o for o in outs if not isinstance(o, (Toast, JoinLink))])

    async def _show(self, outs: list[Outgoing], resend_hand_of: UserRef | None = None, page: int | None = None,
                    presser: UserRef | None = None) -> None:
        """Show what an update changed: through the service's outbox (:meth:`~bot.service.Service.show`), whichever
        process reads this chat's shard, like a timer's effects, so that one chat's effects keep one order; the hand
        of ``resend_hand_of`` (he asked for it again) posted anew. What is bound to the update is shown here at once:
        a join link (it asks Telegram whether he can be written to now), a page of his tables in place of message
        ``page`` (the page pressed on), a late answer to the ``presser`` alone. Without an outbox all is shown here,
        and so is what the updates still in flight change while the bot stops (its outbox reader reads no more)."""
        if resend_hand_of is not None:
            outs = [replace(o, notify=True) if isinstance(o, HandMessage) and o.user.key == resend_hand_of.key else o
                    for o in outs]
        here = [o for o in outs if isinstance(o, JoinLink) or page is not None and isinstance(o, TableList)
                or isinstance(o, Toast) and presser is not None and o.user.key == presser.key]
        rest = [o for o in outs if not any(o is h for h in here)]
        rest = await self.service.show(rest, here=self._stopping)
        self.delivery.carry_out([o for o in outs if any(o is h for h in [*here, *rest])], page)

    async def _migrated(self, old: int, new: int) -> None:
        await self._move(ChatRef(PLATFORM, str(old)), str(new))

    async def _answer(self, query: CallbackQuery, text: str | None = None, url: str | None = None) -> None:
        """Answer a press: on the held webhook response if there is one, else by an API call."""
        text = markup.toast(text)
        if self.replies.give(answer_method(query.id, text, url)):
            return
        try:
            await query.answer(text=text, url=url)
        except BadRequest as exc:  # a redelivered update: its query was answered the first time
            log.info("callback query %s not answered: %s", query.id, exc.message)

    @staticmethod
    async def _error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        metrics.failed("update", context.error)
        log.error("update %s failed", getattr(update, "update_id", "?"), exc_info=context.error)


async def serve(settings: Settings, service, refs: Refs, shared: SharedLimit | None = None,
                tuning: Tuning | None = None, stop: asyncio.Event | None = None,
                deliveries: dict[str, Callable[[list[Outgoing]], None]] | None = None) -> None:
    """Serve Telegram until ``stop`` is set (default: until SIGINT or SIGTERM).

    While Telegram cannot be reached the start is tried again; a token it refuses raises
    :class:`~bot.protocol.rejected.TokenRejected` (see :func:`~adapters.common.running.run_until_stopped`).

    Args:
        settings: needs ``telegram_token``; ``telegram_webhook_*`` for webhook mode,
            ``telegram_api_base_url`` for a local Bot API server or a test server.
        service: the bot layer's service.
        refs: the store (``get_ref``/``set_ref``) that keeps message ids per table.
        shared: the Redis limiter shared by every process (``acquire(key, limit, window_s)``).
        tuning: flood limits and timings (default: from ``TELEGRAM_*`` variables).
        stop: set it to stop serving.
        deliveries: where the running bot's delivery is put under its platform's name (see
            :func:`~adapters.common.running.delivering`).
    """
    mode = "webhook" if settings.telegram_webhook_url else "long polling"
    make = delivering(lambda: TelegramBot(settings, service, refs, tuning, shared), deliveries, PLATFORM)
    await run_until_stopped(make, stop,
                            lambda bot: f"Telegram as @{bot.username} ({mode})", unreachable,
                            lambda exc: isinstance(exc, InvalidToken), "Telegram")


def unreachable(exc: BaseException) -> bool:
    """Whether a failed start means Telegram could not be reached (a network error or timeout, not a refusal)."""
    return isinstance(exc, NetworkError) and not isinstance(exc, BadRequest)
