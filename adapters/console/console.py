"""The terminal table: commands in, effects printed, buttons numbered."""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import json
import shlex
import signal
import sys
import threading
from pathlib import Path
from typing import TextIO

from bot.protocol import actarg, tokens
from bot.protocol.outgoing import (
    Button,
    ChatRef,
    Command,
    FileMessage,
    HandMessage,
    JoinLink,
    Notice,
    TableList,
    PrivateText,
    TableMessage,
    Toast,
    UserRef,
)
from bot.words import game_id, game_name, languages, parse_card_text, parse_typed, t

__all__ = ["Console", "play"]

PLATFORM = "console"
_QUIT = {"quit", "exit", "q", "ende", "tschüss"}
_HELP = {"help", "hilfe", "?"}


def _verb(button: Button) -> str:
    tok = tokens.parse(button.token) if button.token else None
    return tok.verb if tok is not None else ""


def _for_everyone(button: Button) -> bool:
    """A table button any seat may use here (lobby, rematch); his choices and "my hand" come with the hand, his
    review is typed (``nachbesprechung``)."""
    return _verb(button) not in ("", "act", "hand", "review")


class Console:
    """One terminal player at his private table.

    Args:
        service: the bot layer's service (``handle``, ``open_game``).
        stdin: where lines are read (default: ``sys.stdin`` as it is then).
        stdout: where the table is printed (default: ``sys.stdout`` as it is then).
        user: who plays: his table is kept under it (default: the login name; ``stammtisch play --name``
            keys it by the login and the name, so that two people at one machine keep a table each).
        lang: the language of the console's own texts and of a new table.
        name: the name the table shows (default: ``user``); the hints name it (``play --resume --name Lena``).
        command: how the player starts ``stammtisch`` in his shell, for the hints (``./scripts/run``).
        files_dir: where files the bot sends (an export, a chart) are written (default: ``./exports``).
    """

    def __init__(self, service, stdin: TextIO | None = None, stdout: TextIO | None = None, user: str | None = None,
                 lang: str = "de", name: str | None = None, command: str = "stammtisch",
                 files_dir: Path | None = None) -> None:
        self.service = service
        self.files_dir = files_dir or Path("exports")
        self.stdin = sys.stdin if stdin is None else stdin  # the streams when it plays, not at this module's import
        self.stdout = sys.stdout if stdout is None else stdout
        user = user or getpass.getuser() or "player"
        self.user = UserRef(PLATFORM, user, name or user)
        self.lang = lang if lang in languages() else "de"
        self.chat = ChatRef(PLATFORM, user, title=t(self.lang, "con.title"), private=True)
        self.command = command
        self.resume = f"{command} play --resume" + (f" --name {shlex.quote(name)}" if name else "")
        self.instead: tuple[str, ...] = ()
        """The new table asked for on the command line while another was open: dealt once that one is aborted."""
        self._interrupted = False
        self._waiting: asyncio.Future[str] | None = None
        self.hand_buttons: list[Button] = []
        self.playable: frozenset[str] = frozenset()
        self.table_buttons: list[Button] = []
        self.table_id = ""
        self.playing = False

    def say(self, key: str, **values: str) -> None:
        """Print one of the console's own texts (the catalogs' ``con.*``)."""
        print(t(self.lang, f"con.{key}", command=self.command, resume=self.resume, files=self.files_dir, **values),
              file=self.stdout, flush=True)

    async def leave(self) -> None:
        """Say how to go on with the table, if one is kept (not after it ended or was aborted)."""
        if await self.service.open_game(self.chat) is not None:
            self.say("kept")

    async def send(self, verb: str = "", args: tuple[str, ...] = (), token: str = "") -> None:
        """Hand one command to the service and print the answer.

        The computers play at most one deal per command and go on by the table's timer: the
        console has no tick loop, so it fires its own table's timers until none is due. Then the
        numbered choices are printed once, with the cards that may be played now marked as of now.
        """
        shown = self.show(await self._ask(verb, args, token))
        while self.table_id and (effects := await self.service.tick(table=self.table_id)):
            shown = self.show(effects) or shown
        if shown:
            await self._refresh()
            self._print_buttons()

    async def _refresh(self) -> None:
        """Ask for the hand as it is now: it is not re-sent when only another player's card changed
        which of its cards may be played."""
        if self.playing:
            self.show(await self._ask("hand"), quiet=True)

    async def _ask(self, verb: str = "", args: tuple[str, ...] = (), token: str = "") -> list:
        cmd = Command(self.chat, self.user, verb=verb, args=args, token=token, lang=self.lang)
        effects = await self.service.handle(cmd)
        for out in effects:
            if isinstance(out, FileMessage):
                if out.caption:
                    self._print("» " + out.caption)
                for path in await asyncio.to_thread(self._save, out):
                    self.say("saved", path=str(path))
        return effects

    def _save(self, out: FileMessage) -> list[Path]:
        """Write the files under :attr:`files_dir` (a name taken already gets a number); their paths."""
        self.files_dir.mkdir(parents=True, exist_ok=True)
        paths = []
        for file in out.files:
            name = Path(file.filename).name or "file"
            path, n = self.files_dir / name, 1
            while path.exists():
                path, n = self.files_dir / f"{Path(name).stem}-{n}{Path(name).suffix}", n + 1
            path.write_bytes(file.data)
            paths.append(path.resolve())
        return paths

    def show(self, effects: list, quiet: bool = False) -> bool:
        """Print the effects and keep this seat's choices (its hand's buttons, the table's lobby and end
        buttons) for their numbers; whether a table or hand was among them. ``quiet`` prints no hand."""
        shown = False
        for out in effects:
            if isinstance(out, TableMessage):
                self.table_id = out.table_id
                self.table_buttons = [b for row in out.buttons for b in row if _for_everyone(b)]
                self.playing = any(_verb(b) == "hand" for row in out.buttons for b in row)
                if out.story:
                    self._print(*("· " + line for line in out.story))
                self._print("═" * 40, out.text)
                shown = True
            elif isinstance(out, HandMessage) and out.user.key == self.user.key:  # his seat, whatever name he shows now
                self.hand_buttons = [b for row in out.buttons for b in row if b.token]
                self.playable = frozenset(out.playable)
                if not quiet:
                    self._print("─" * 40, out.text)
                shown = True
            elif isinstance(out, Notice) and out.result:
                continue  # its lines came with the table's story
            elif isinstance(out, Toast) and out.secret and out.user.key != self.user.key:
                continue  # another's answer for him alone
            elif isinstance(out, PrivateText):
                if out.user.key == self.user.key:  # his review
                    self._print(out.text)
            elif isinstance(out, (Toast, Notice, JoinLink)) and not quiet:
                self._print("» " + out.text)
            elif isinstance(out, TableList):
                self._print(out.head, *(row.text for row in out.rows))
        return shown

    def _print(self, *lines: str) -> None:
        print("\n".join(lines), file=self.stdout, flush=True)

    def _print_buttons(self) -> None:
        """The numbered choices; a card that may not be played now is in brackets."""
        items = [f"[{i}] {self._label(b)}" for i, b in enumerate(self.buttons, 1)]
        if items:
            self._print("  ".join(items))

    def _label(self, button: Button) -> str:
        tok = tokens.parse(button.token)
        if tok is None or tok.verb != "act" or not actarg.is_play(tok.arg) or button.token in self.playable:
            return button.label
        return f"({button.label})"

    @property
    def buttons(self) -> list[Button]:
        """The numbered choices: the hand's buttons (what this seat may do now), then the table's lobby buttons."""
        return self.hand_buttons + self.table_buttons

    async def line(self, text: str) -> bool:
        """Carry out one typed line; False when the player quits."""
        text = text.strip()
        if not text:
            return True
        word = text.split()[0].lower()
        if word in _QUIT:
            await self.leave()
            return False
        if word in _HELP:
            self.say("help")
            return True
        if text.isascii() and text.isdecimal():
            n = int(text)
            if not 1 <= n <= len(self.buttons):
                self.say("no_button", n=text)
                return True
            await self.send(token=self.buttons[n - 1].token)
            return True
        if parse_card_text(text):
            await self.send("spiel", (text,))
            return True
        verb, *args = text.split()
        parsed = parse_typed(verb, tuple(args))
        if parsed is not None and parsed.name == "abort" and self.instead:
            await self._abort_for_instead(verb, tuple(args))
            return True
        await self.send(verb, tuple(args))
        if parsed is not None and parsed.name == "language" and parsed.args and parsed.args[0].lower() in languages():
            self.lang = parsed.args[0].lower()
        return True

    async def _abort_for_instead(self, verb: str, args: tuple[str, ...]) -> None:
        """Abort the kept table and deal the one the command line asked for (:attr:`instead`) in its place."""
        self.show(await self._ask(verb, args))
        if await self.service.open_game(self.chat) is not None:  # not aborted (yet): its choices again
            await self._refresh()
            self._print_buttons()
            return
        instead, self.instead = self.instead, ()
        await self.send("neu", instead)

    async def run(self, game: str | None, players: int | None = None, options: dict | None = None,
                  resume: bool = False, level: str | None = None, lang_chosen: bool = False) -> int:
        """Open (or resume) the table and play until ``quit``, the end of input or Ctrl-C; the exit status.

        ``level`` sets the computer players' level (of a new table from its start, of an open one
        from now on); ``lang_chosen`` switches an open table to the console's language as well.
        Ctrl-C leaves as ``quit`` does (status 130). It is taken by the event loop, whichever thread
        the signal reaches, so a reader blocked on the terminal never keeps it from the loop.
        """
        loop = asyncio.get_running_loop()
        try:
            loop.add_signal_handler(signal.SIGINT, self._interrupt)
        except (NotImplementedError, RuntimeError, ValueError):  # no signals here (not the main thread, Windows)
            pass
        try:
            return await self._run(game, players, options, resume, level, lang_chosen)
        except asyncio.CancelledError:
            if not self._interrupted:
                raise
            self._print("")
            await self.leave()
            return 130
        finally:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(signal.SIGINT)

    def _interrupt(self) -> None:
        """Ctrl-C: the pending read ends at once; a command under way finishes first (nothing is cut off)."""
        self._interrupted = True
        if self._waiting is not None and not self._waiting.done():
            self._waiting.cancel()

    async def _run(self, game: str | None, players: int | None, options: dict | None, resume: bool,
                   level: str | None, lang_chosen: bool) -> int:
        if not lang_chosen:  # what »sprache« chose here before, for the console's own prompts too
            chosen = await self.service.chat_lang(self.chat)
            self.lang = chosen if chosen in languages() else self.lang
        open_game = await self.service.open_game(self.chat)
        if open_game is not None:
            if (game is not None and game_id(game) != open_game) or players or options:
                self.instead = _new_args(game or open_game, players, options, level)
                self.say("other", game=game_name(open_game, self.lang), new=game_name(game_id(self.instead[0]), self.lang))
            if lang_chosen:
                await self._ask("sprache", (self.lang,))
            if level:
                await self._ask("option", ("level", level))
            self.show([*await self._ask("tisch"), *await self._ask("hand")])
            self._print_buttons()
        elif resume:
            self.say("none")
            return 1
        else:
            if game is None:
                game = await self._which_game()
                if game is None:
                    self.say("no_choice")
                    return 1
                if not game:  # »quit«
                    return 0
            await self.send("neu", _new_args(game, players, options, level))
        while True:
            text = await self._read(t(self.lang, "con.prompt"))
            if text is None:
                await self.leave()
                return 0
            if not await self.line(text):
                return 0

    async def _which_game(self) -> str | None:
        """Ask for a game until one is named (a bare Enter asks again); ``None`` at the end of input, ``""``
        when the player quits."""
        games = ", ".join(self.service.games())
        prompt = t(self.lang, "con.which", games=games)
        while True:
            text = await self._read(prompt)
            if text is None:
                return None
            word = text.strip()
            if word.lower() in _QUIT:
                return ""
            if word and game_id(word) is not None:
                return word
            if word:
                prompt = t(self.lang, "con.no_game", word=word, games=games)

    async def _read(self, prompt: str = "") -> str | None:
        """The next line of input, read in a daemon thread so that Ctrl-C never waits for one."""
        if self._interrupted:
            raise asyncio.CancelledError
        if prompt:
            print(prompt, end="", file=self.stdout, flush=True)
        loop = asyncio.get_running_loop()
        line: asyncio.Future[str] = loop.create_future()
        self._waiting = line

        def read() -> None:
            text = self.stdin.readline()
            with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits any more
                loop.call_soon_threadsafe(lambda: line.done() or line.set_result(text))
        threading.Thread(target=read, daemon=True).start()
        text = await line
        return text if text else None


def _new_args(game: str, players: int | None, options: dict | None, level: str | None) -> tuple[str, ...]:
    """The words of ``neu`` for a new table of ``game`` as the command line asked for it."""
    options = {**(options or {}), **({"level": level} if level else {})}
    return (game, *([str(players)] if players else []), *([json.dumps(options)] if options else []))


async def play(service, game: str | None, players: int | None = None, options: dict | None = None,
               resume: bool = False, stdin: TextIO | None = None, stdout: TextIO | None = None,
               user: str | None = None, lang: str = "de", name: str | None = None, level: str | None = None,
               lang_chosen: bool = False, command: str = "stammtisch", files_dir: Path | None = None) -> int:
    """Play at the console's table (see :class:`Console` and :meth:`Console.run`); returns the exit status."""
    console = Console(service, stdin, stdout, user, lang, name, command, files_dir)
    return await console.run(game, players, options, resume, level, lang_chosen)
