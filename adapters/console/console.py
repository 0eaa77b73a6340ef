"""The terminal table: commands in, effects printed, buttons numbered."""

from __future__ import annotations

import asyncio
import getpass
import json
import sys
from typing import TextIO

from bot.cardtext import parse_card_text
from bot.outgoing import Button, ChatRef, Command, HandMessage, JoinLink, Notice, TableMessage, Toast, UserRef

__all__ = ["Console", "play"]

PLATFORM = "console"
_QUIT = {"quit", "exit", "q", "ende", "tschüss"}
_HELP = {"help", "hilfe", "?"}
_TEXTS = {
    "de": {
        "help": "Karte tippen (B♣, JC, 10♥) oder die Nummer eines Knopfs; »hand«, »tisch«, »regeln«, "
                "»abbrechen«; »quit« beendet und hält den Tisch (weiter mit: stammtisch play --resume).",
        "kept": "Der Tisch bleibt stehen. Weiter mit: stammtisch play --resume",
        "which": "Welches Spiel? ({games}) ",
        "none": "Hier ist kein Tisch offen. Neuer Tisch: stammtisch play SPIEL",
        "other": "Hier läuft noch ein Tisch ({game}); es geht dort weiter (oder »abbrechen«).",
        "no_button": "Knopf {n} gibt es nicht.",
    },
    "en": {
        "help": "Type a card (J♣, JC, 10♥) or a button's number; \"hand\", \"table\", \"rules\", \"abort\"; "
                "\"quit\" leaves and keeps the table (go on with: stammtisch play --resume).",
        "kept": "The table stays. Go on with: stammtisch play --resume",
        "which": "Which game? ({games}) ",
        "none": "No table is open here. New table: stammtisch play GAME",
        "other": "A table ({game}) is still open here; it goes on (or \"abort\").",
        "no_button": "There is no button {n}.",
    },
}


class Console:
    """One terminal player at his private table.

    Args:
        service: the bot layer's service (``handle``, ``open_game``).
        stdin: where lines are read.
        stdout: where the table is printed.
        user: the player's name (default: the login name).
        lang: the language of the console's own texts.
    """

    def __init__(self, service, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout, user: str | None = None,
                 lang: str = "de") -> None:
        self.service = service
        self.stdin = stdin
        self.stdout = stdout
        name = user or getpass.getuser() or "player"
        self.user = UserRef(PLATFORM, name, name)
        self.chat = ChatRef(PLATFORM, name, title="Konsole", private=True)
        self.lang = lang if lang in _TEXTS else "de"
        self.hand_buttons: list[Button] = []
        self.table_buttons: list[Button] = []
        self.table_id = ""

    def say(self, key: str, **values: str) -> None:
        """Print one of the console's own texts."""
        print(_TEXTS[self.lang][key].format(**values), file=self.stdout, flush=True)

    async def send(self, verb: str = "", args: tuple[str, ...] = (), token: str = "") -> None:
        """Hand one command to the service and print the answer.

        The computers play at most one deal per command and go on by the table's timer: the
        console has no tick loop, so it fires its own table's timers until none is due.
        """
        cmd = Command(self.chat, self.user, verb=verb, args=args, token=token, lang=self.lang)
        self.show(await self.service.handle(cmd))
        while self.table_id and (effects := await self.service.tick(table=self.table_id)):
            self.show(effects)

    def show(self, effects: list) -> None:
        """Print the effects; the buttons of the latest table and hand get numbers."""
        shown = False
        for out in effects:
            if isinstance(out, TableMessage):
                self.table_id = out.table_id
                self.table_buttons = [b for row in out.buttons for b in row if b.token]
                if out.story:
                    self._print(*("· " + line for line in out.story))
                self._print("═" * 40, out.text)
                shown = True
            elif isinstance(out, HandMessage) and out.user == self.user:
                self.hand_buttons = [b for row in out.buttons for b in row if b.token]
                self._print("─" * 40, out.text)
                shown = True
            elif isinstance(out, Notice) and out.result:
                continue  # its lines came with the table's story
            elif isinstance(out, (Toast, Notice, JoinLink)):
                self._print("» " + out.text)
        if shown:
            self._print_buttons()

    def _print(self, *lines: str) -> None:
        print("\n".join(lines), file=self.stdout, flush=True)

    def _print_buttons(self) -> None:
        items = [f"[{i}] {b.label}" for i, b in enumerate(self.buttons, 1)]
        if items:
            self._print("  ".join(items))

    @property
    def buttons(self) -> list[Button]:
        """The numbered buttons: the hand's first, then the table's not already in the hand."""
        tokens = {b.token for b in self.hand_buttons}
        return self.hand_buttons + [b for b in self.table_buttons if b.token not in tokens]

    async def line(self, text: str) -> bool:
        """Carry out one typed line; False when the player quits."""
        text = text.strip()
        if not text:
            return True
        word = text.split()[0].lower()
        if word in _QUIT:
            self.say("kept")
            return False
        if word in _HELP:
            self.say("help")
            await self.send("hilfe")
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
        await self.send(verb, tuple(args))
        return True

    async def run(self, game: str | None, players: int | None = None, options: dict | None = None,
                  resume: bool = False) -> int:
        """Open (or resume) the table and play until ``quit`` or the end of input; the exit status."""
        open_game = await self.service.open_game(self.chat)
        if open_game is not None:
            if game is not None and game != open_game:
                self.say("other", game=open_game)
            await self.send("tisch")
            await self.send("hand")
        elif resume:
            self.say("none")
            return 1
        else:
            if game is None:
                games = ", ".join(self.service.games())
                self._print(_TEXTS[self.lang]["which"].format(games=games))
                game = (await self._read() or "").strip()
                if not game:
                    return 1
            args = [game] + ([str(players)] if players else []) + ([json.dumps(options)] if options else [])
            await self.send("neu", tuple(args))
        while True:
            text = await self._read()
            if text is None:
                self.say("kept")
                return 0
            if not await self.line(text):
                return 0

    async def _read(self) -> str | None:
        text = await asyncio.to_thread(self.stdin.readline)
        return text if text else None


async def play(service, game: str | None, players: int | None = None, options: dict | None = None,
               resume: bool = False, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout,
               user: str | None = None, lang: str = "de") -> int:
    """Play at the console's table (see :class:`Console`); returns the exit status."""
    return await Console(service, stdin, stdout, user, lang).run(game, players, options, resume)
