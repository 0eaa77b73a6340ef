"""The running Discord bot: the discord.py client, its slash commands and buttons, the timers.

Every interaction is answered once and in time: the service's verdict takes milliseconds, so
the answer waits for it (at most ``ack_deadline_s``, then it defers) and carries it in the same
call: a refusal as an ephemeral message; a card pressed on a hand as the edit of that hand
(Discord's "update message" response); "My hand" as an ephemeral message with the cards as
buttons. Everything else (the table message, other players' hands, notices) goes through the
Discord outbox in Redis to the process that reads the channel's shard, whose delivery paces it. Gateway intents:
``guilds`` only (no privileged intent, no message content).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import replace

import aiohttp
import discord
import yarl
from discord import app_commands

from adapters.common.gate import SharedLimit
from adapters.common.onweb import in_chat
from adapters.common.refs import Refs
from adapters.common.running import Ticker, delivering, run_until_stopped
from adapters.common.webauth import WATCH, link_url
from bot.ops.settings import Settings
from bot.protocol import tokens
from bot.protocol.outgoing import (
    Before,
    Button,
    Command,
    FileMessage,
    HandMessage,
    JoinLink,
    Notice,
    Outgoing,
    TableList,
    PrivateText,
    TableMessage,
    Toast,
    version_of,
)
from bot.words import t, web_text

from . import commands, markup, metered, translate
from .deliver import Delivery, attached
from .translate import PLATFORM, channel_of
from .outbox import Outbox
from .tuning import Tuning

__all__ = ["DiscordBot", "serve", "INTENTS", "point_at"]

log = logging.getLogger(__name__)

INTENTS = discord.Intents(guilds=True)
"""The gateway intents the bot asks for: guilds (names for the hand's label); nothing privileged."""


def point_at(api_base_url: str | None, gateway_url: str | None) -> None:
    """Point discord.py's REST calls and gateway at another server (a test server); process-wide."""
    if api_base_url:
        discord.http.Route.BASE = api_base_url.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


class _Client(discord.AutoShardedClient):
    """discord.py's client with the bot's commands, buttons and interaction handling."""

    def __init__(self, bot: "DiscordBot", **kwargs) -> None:
        super().__init__(intents=INTENTS, http_trace=metered.trace_config(), **kwargs)
        self.bot = bot
        self.tree = app_commands.CommandTree(self)

    async def setup_hook(self) -> None:
        """Register the persistent buttons and the commands; sync the commands."""
        self.add_dynamic_items(markup.TokenButton)
        await self.tree.set_translator(commands.Translator())
        commands.build(self.tree, self.bot.slash)
        await self.bot.sync(self.tree)

    async def pressed(self, interaction: discord.Interaction, token: str) -> None:
        """A button press (from :class:`~adapters.discord.markup.TokenButton`)."""
        await self.bot.press(interaction, token)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A press that no button of its message explains is forged: the bot layer refuses it."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = (interaction.data or {}).get("custom_id", "")
        message = interaction.message
        ids = {getattr(c, "custom_id", None) for row in (message.components if message else [])
               for c in getattr(row, "children", [])}
        if custom_id not in ids:
            await self.bot.press(interaction, str(custom_id)[:200])


class DiscordBot:
    """The adapter while it runs.

    Args:
        settings: the token, the API and gateway URLs, the guilds to sync to, the shards.
        service: the bot layer: ``handle(cmd)``, ``tick()``.
        refs: where message ids are kept per table (the store).
        tuning: pacing and timings.
        shared: the rate limit shared by every process (a Redis limiter); ``None`` for one process.
    """

    def __init__(self, settings: Settings, service, refs: Refs, tuning: Tuning | None = None,
                 shared: SharedLimit | None = None) -> None:
        if settings.discord_token is None:
            raise ValueError("DISCORD_TOKEN is not set")
        point_at(settings.discord_api_base_url, settings.discord_gateway_url)
        self.settings = settings
        self.service = service
        self.tuning = tuning or Tuning()
        shards = {}
        if settings.discord_shard_count:
            shards = {"shard_count": settings.discord_shard_count,
                      "shard_ids": list(settings.discord_shard_ids) or None}
        self.client = _Client(self, **shards)
        bot_id = settings.discord_token.get_secret_value().partition(".")[0]
        self.outbox = Outbox(self.tuning, shared, bot_id)
        self.delivery = Delivery(self.client, refs, self.outbox, self.tuning, _web_link(settings), service.topic_opened,
                                 _watch_row(settings), service if settings.web_url else None)
        self._runner: asyncio.Task | None = None
        self._ticker: Ticker | None = None
        self._handling: set[asyncio.Task] = set()
        self._stopping = False

    def carry_out(self, outs: list[Outgoing]) -> None:
        """Show a batch of effects the outbox reader took (any process's interactions, taps and timers)."""
        self.delivery.carry_out(outs)

    async def start(self) -> None:
        """Log in, sync the commands, connect the shards, start the timer loop."""
        try:
            await self.client.login(self.settings.discord_token.get_secret_value())
            self._runner = asyncio.get_running_loop().create_task(self.client.connect())
            ready = asyncio.ensure_future(self.client.wait_until_ready())
            await asyncio.wait({ready, self._runner}, return_when=asyncio.FIRST_COMPLETED)
            if self._runner.done():
                ready.cancel()
                self._runner.result()
                raise RuntimeError("the Discord gateway closed before the bot was ready")
        except BaseException:
            await self.client.close()
            raise
        self._ticker = Ticker(self.service, self.delivery.carry_out, self.tuning.tick_interval_s)
        self._ticker.start()

    async def stop(self, flush_s: float = 5.0) -> None:
        """Stop the timers, finish the interactions under way and send what is queued at once, lingering or not
        (for at most ``flush_s``), disconnect."""
        self._stopping = True
        if self._ticker:
            await self._ticker.stop()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.idle(flush=True), flush_s)
        await self.outbox.close()
        await self.client.close()
        if self._runner:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self._runner

    async def idle(self, flush: bool = False) -> None:
        """Wait until every interaction under way is handled and everything queued is sent (``flush``: at once,
        lingering or not, see :meth:`~.outbox.Outbox.flush`)."""
        while busy := self._handling - {asyncio.current_task()}:
            await asyncio.wait(busy)
        await (self.outbox.flush() if flush else self.outbox.idle())

    @contextlib.contextmanager
    def _busy(self):
        """While an interaction is handled (for :meth:`idle`)."""
        task = asyncio.current_task()
        self._handling.add(task)
        try:
            yield
        finally:
            self._handling.discard(task)

    async def sync(self, tree: app_commands.CommandTree) -> None:
        """Sync the commands globally and, at once, to the guilds in ``DISCORD_GUILD_IDS``.

        Only the process that runs shard 0 (or all shards) syncs, so many processes do it once.
        """
        ids = self.settings.discord_shard_ids
        if ids and 0 not in ids:
            return
        await tree.sync()
        for guild_id in self.settings.discord_guild_ids:
            guild = discord.Object(guild_id)
            tree.copy_global_to(guild=guild)
            await tree.sync(guild=guild)

    # ------------------------------------------------------------------ interactions
    async def _verdict(self, interaction: discord.Interaction, cmd: Command) -> list[Outgoing] | None:
        """The service's answer; the interaction is deferred first if it does not come in time. ``None``: it was
        carried out before, by another process that received it too (a shard's two sessions while it restarts),
        whose answer stands: this one gives none."""
        if cmd.lang:
            self.delivery.langs[cmd.user.user_id] = cmd.lang
        task = asyncio.ensure_future(self.service.handle(cmd))
        done, _ = await asyncio.wait({task}, timeout=self.tuning.ack_deadline_s)
        if not done:
            with contextlib.suppress(discord.HTTPException):
                if interaction.type is discord.InteractionType.component:
                    await interaction.response.defer()
                else:
                    await interaction.response.defer(ephemeral=True, thinking=True)
        outs = await task
        if isinstance(outs, Before):
            log.debug("interaction %s was carried out before: no answer of this process", interaction.id)
            return None
        return [o for o in outs if not isinstance(o, JoinLink)]

    async def slash(self, interaction: discord.Interaction, verb: str, args: tuple[str, ...]) -> None:
        """A slash command: its answer is a refusal, a hand, a notice or files, or a short confirmation."""
        with self._busy():
            cmd = translate.command_of(interaction, verb=verb, args=args)
            outs = await self._verdict(interaction, cmd)
            if outs is None:
                return
            me = cmd.user.key
            answer = next((o for o in outs if isinstance(o, (Toast, PrivateText)) and o.user.key == me), None) \
                or next((o for o in outs if isinstance(o, TableList)), None) \
                or next((o for o in outs if isinstance(o, HandMessage) and o.user.key == me and verb == "hand"), None) \
                or next((o for o in outs if isinstance(o, (Notice, FileMessage)) and o.chat == cmd.chat), None)
            posted = isinstance(answer, (Notice, FileMessage))  # in the channel: its table goes too, at once
            rest = [replace(o, at_once=True) if posted and isinstance(o, TableMessage) and o.chat == cmd.chat else o
                    for o in outs if o is not answer]
            try:
                if isinstance(answer, Notice):
                    await self._reply(interaction, markup.mentions(answer.text, answer.mentions), ephemeral=False)
                elif isinstance(answer, FileMessage):
                    await self._reply(interaction, answer.caption, ephemeral=False, files=attached(answer))
                elif isinstance(answer, HandMessage):
                    await self._reply(interaction, answer.text, answer.buttons)
                    self.delivery.keep(interaction, answer)
                elif isinstance(answer, TableList):
                    await self._reply(interaction, *await self.delivery.listed(answer))
                else:
                    await self._reply(interaction, answer.text if answer else t(cmd.lang, "dc.done"))
            except discord.HTTPException as exc:
                log.info("interaction %s not answered: %s", interaction.id, exc)
            await self._show(rest, outs)

    async def press(self, interaction: discord.Interaction, token: str) -> None:
        """A button press, answered with the refusal, the new look of the message pressed on (his
        hand, or the table), or a silent acknowledgement.

        Each press costs this one answer; what the pressed message is to show rides on it, with no
        edit of it besides. Which message it is (his hand DM, the table message) is looked up while
        the service decides, so the answer waits for no Redis call.
        """
        with self._busy():
            cmd = translate.command_of(interaction, token=token)
            parsed, message = tokens.parse(token), interaction.message
            key = looked_up = None
            if parsed is not None and message is not None and not message.flags.ephemeral:
                key = self.delivery.pressed_key(cmd.user, in_dm=interaction.guild_id is None)
                looked_up = asyncio.ensure_future(self.delivery.ref_at(parsed.table, key))
            outs = await self._verdict(interaction, cmd)
            if outs is None:
                if looked_up is not None:
                    looked_up.cancel()
                return
            if parsed is not None and interaction.guild_id is None:  # he plays in his DM: his hand is not held
                outs = in_chat(outs, cmd.user, parsed.table)
            version = version_of(outs, parsed.table if parsed else "")
            me = cmd.user.key
            toast = next((o for o in outs if isinstance(o, (Toast, PrivateText)) and o.user.key == me), None)
            hand = next((o for o in outs if isinstance(o, HandMessage) and o.user.key == me), None)
            listing = next((o for o in outs if isinstance(o, TableList)), None)
            pressed = await self.delivery.settled(looked_up)
            if pressed is not None and pressed.message_id != message.id:
                pressed = None
            new_look = self.delivery.new_look(outs, parsed.table, key, pressed, version) if pressed else None
            rest = [o for o in outs if o is not toast]
            try:
                if toast is not None:
                    await self._reply(interaction, toast.text)
                elif listing is not None and message is not None:  # a page button: that page in its place
                    text, rows = await self.delivery.listed(listing)
                    await self._edit(interaction, text, rows)
                    rest.remove(listing)
                elif hand is not None and message is not None and message.flags.ephemeral:
                    await self._update(interaction, hand)
                    self.delivery.keep(interaction, hand)
                    if self.delivery.closed(cmd.user, hand.table_id):
                        rest.remove(hand)
                elif hand is not None and parsed is not None and parsed.verb == "hand":
                    await self._reply(interaction, hand.text, hand.buttons)
                    self.delivery.keep(interaction, hand)
                    rest.remove(hand)
                elif new_look is not None:  # it stays among the rest: its ref tells every process it is shown
                    await self._update(interaction, self.delivery.look(new_look))
                    await self.delivery.shown(self.delivery.look(new_look), pressed, version)
                elif not interaction.response.is_done():
                    await interaction.response.defer()
            except discord.HTTPException as exc:  # too late (10062) or answered before: all goes the usual way
                log.info("interaction %s not answered: %s", interaction.id, exc)
                rest = [o for o in outs if o is not toast]
            await self._show(rest, outs)

    async def _show(self, rest: list[Outgoing], outs: list[Outgoing]) -> None:
        """Show what an interaction changed beyond its answer (``rest`` of all it changed, ``outs``) through the
        service's outbox (:meth:`~bot.service.Service.show`), whichever process reads this channel's shard, like a
        timer's effects: one channel's effects keep one order. Without an outbox they are shown here, and so are
        those of the interactions still in flight while the bot stops (its outbox reader reads no more)."""
        self.delivery.carry_out(await self.service.show(rest, here=self._stopping), None, outs)

    @staticmethod
    async def _reply(interaction: discord.Interaction, text: str, buttons=(), ephemeral: bool = True,
                     files: list[discord.File] | None = None) -> None:
        view = {"view": markup.view(buttons)} if buttons else {}
        if files:
            view["files"] = files
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=ephemeral, **view)
        else:
            await interaction.response.send_message(text, ephemeral=ephemeral, **view)

    @classmethod
    async def _update(cls, interaction: discord.Interaction, out: HandMessage | TableMessage) -> None:
        await cls._edit(interaction, out.text, out.buttons)

    @staticmethod
    async def _edit(interaction: discord.Interaction, text: str, buttons) -> None:
        """Show ``text`` and ``buttons`` in place of the message pressed on."""
        view = markup.view(buttons) if buttons else None
        if interaction.response.is_done():
            await interaction.edit_original_response(content=text, view=view)
        else:
            await interaction.response.edit_message(content=text, view=view)


def _web_link(settings: Settings) -> Callable[[HandMessage], Button] | None:
    """The button of a hand that opens it on the web table, signed for its owner (``None``: no web table)."""
    if settings.web_url is None or settings.web_secret is None:
        return None
    secret, label = settings.web_secret.get_secret_value().encode(), web_text(settings.lang, "open")
    return lambda hand: Button(label, url=link_url(settings.web_url, secret, hand.table_id, PLATFORM,
                                                   hand.user.user_id, time.time()))


def _watch_row(settings: Settings) -> Callable[[TableMessage], tuple[tuple[Button, ...], ...]] | None:
    """The »Zuschauen« row under a running table's message: a watch link of its channel to the web table.

    Anyone who reads the channel may open it: the table's public view, never a hand. It is signed for
    the channel (as its "user") at the hour, so it holds at least 11 hours after the message last
    changed. ``None``: no web table is configured.
    """
    if settings.web_url is None or settings.web_secret is None:
        return None
    secret, label = settings.web_secret.get_secret_value().encode(), web_text(settings.lang, "watch")

    def row(out: TableMessage) -> tuple[tuple[Button, ...], ...]:
        if not any((tok := tokens.parse(b.token)) and tok.verb == "hand" for line in out.buttons for b in line):
            return ()  # a lobby or an ended table: nothing to watch
        return ((Button(label, url=link_url(settings.web_url, secret, out.table_id, PLATFORM,
                                            f"c{channel_of(out.chat)}", time.time(), access=WATCH)),),)
    return row


async def serve(settings: Settings, service, refs: Refs, shared: SharedLimit | None = None,
                tuning: Tuning | None = None, stop: asyncio.Event | None = None,
                deliveries: dict[str, Callable[[list[Outgoing]], None]] | None = None) -> None:
    """Serve Discord until ``stop`` is set (default: until SIGINT or SIGTERM).

    While Discord cannot be reached the start is tried again; a token it refuses raises
    :class:`~bot.protocol.rejected.TokenRejected` (see :func:`~adapters.common.running.run_until_stopped`).

    Args:
        settings: needs ``discord_token``; ``discord_api_base_url``/``discord_gateway_url`` for a
            test server, ``discord_guild_ids`` and ``discord_shard_*`` as described in docs/operating.md.
        service: the bot layer's service.
        refs: the store (``get_ref``/``set_ref``) that keeps message ids per table.
        shared: the Redis limiter shared by every process.
        tuning: pacing and timings (default: from ``DISCORD_*`` variables).
        stop: set it to stop serving.
        deliveries: where the running bot's delivery is put under its platform's name (see
            :func:`~adapters.common.running.delivering`).
    """
    make = delivering(lambda: DiscordBot(settings, service, refs, tuning, shared), deliveries, PLATFORM)
    await run_until_stopped(make, stop,
                            lambda bot: f"Discord as {bot.client.user}", unreachable,
                            lambda exc: isinstance(exc, discord.LoginFailure), "Discord")


def unreachable(exc: BaseException) -> bool:
    """Whether a failed start means Discord could not be reached (network, timeout, its server's trouble)."""
    return isinstance(exc, (aiohttp.ClientError, OSError, asyncio.TimeoutError, discord.DiscordServerError,
                            discord.GatewayNotFound))
