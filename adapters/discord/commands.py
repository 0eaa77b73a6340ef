"""The slash commands, localized with discord.py's :class:`~discord.app_commands.Translator`.

Each command is one of the bot layer's verbs (``/new``, German ``/neu``). ``/new`` takes the game
as a choice, the number of players and every game's table options as optional typed parameters
(:func:`bot.words.choices.table_options`), with autocomplete where the value is free; the engine
refuses an option the chosen game does not have. A command becomes the same
``Command(verb, args)`` a typed Telegram command does (``new bauerchen 4 die_letzte=false``).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Literal, Optional

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.words import GAME_WORDS, TableOption, game_name, has, languages, player_range, table_options, t

__all__ = ["Translator", "Handler", "build", "new_args", "tournament_args"]

Handler = Callable[[discord.Interaction, str, tuple[str, ...]], Awaitable[None]]
"""Runs a command: (the interaction, the verb, its arguments)."""

class Translator(app_commands.Translator):
    """The names and descriptions of the commands, their parameters and choices in every language with a
    catalog (``dc.name.*``, ``dc.desc.*``, ``dc.choice.*``); English is the commands' own."""

    async def translate(self, string: locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        """The text for ``locale``, ``None`` where the default (English) applies."""
        kind, word = string.extras.get("key", ("", ""))
        lang = str(locale.value).split("-")[0].lower()
        if lang == "en":
            return string.message
        if lang not in languages():
            return None
        if kind == "game":
            return game_name(word, lang)
        key = f"dc.{kind}.{word}"
        return t(lang, key) if has(key) else None


def _name(word: str) -> locale_str:
    return locale_str(word, key=("name", word))


def _desc(word: str) -> locale_str:
    return locale_str(t("en", f"dc.desc.{word}"), key=("desc", word))


def _choice(word: str, value: str) -> Choice:
    return Choice(name=locale_str(t("en", f"dc.choice.{word}"), key=("choice", word)), value=value)


def new_args(game: str, players: int | None, options: dict[str, object]) -> tuple[str, ...]:
    """The arguments of the typed ``new`` command for these parameters (options given only)."""
    def word(value: object) -> str:
        return ("true" if value else "false") if isinstance(value, bool) else str(value)
    given = [f"{k}={word(v)}" for k, v in options.items() if v is not None]
    return (game, *([str(players)] if players else []), *given)


_KINDS = {"whole": int, "number": float}


def _annotation(option: TableOption):
    spec = option.spec
    if spec.kind == "choice":
        return Optional[Literal[spec.choices]]  # noqa: UP007
    if spec.kind == "bool":
        return Optional[bool]  # noqa: UP007
    return Optional[app_commands.Range[_KINDS[spec.kind], spec.lo, spec.hi]]  # noqa: UP007


def _suggest(option: TableOption):
    """Autocomplete for a free value: what is typed if allowed, then each game's default."""
    kind = _KINDS[option.spec.kind]

    async def suggest(interaction: discord.Interaction, current: str) -> list[Choice]:
        typed = current.strip()[:12]
        out = [Choice(name=f"{v:g} ({', '.join(g for g, d in option.defaults.items() if d == v)})", value=v)
               for v in sorted(set(option.defaults.values())) if f"{v:g}".startswith(typed)]
        try:
            own = kind(typed) if typed else None
        except ValueError:
            own = None
        if own is not None and option.spec.accepts(own) and own not in option.defaults.values():
            out.insert(0, Choice(name=f"{own:g}", value=own))
        return out[:25]
    return suggest


def _game_choices() -> list[Choice]:
    return [Choice(name=locale_str(game_name(g, "en"), key=("game", g)), value=g) for g in GAME_WORDS]


def _new(handler: Handler) -> app_commands.Command:
    specs = table_options()
    lo, hi = player_range()
    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                annotation=discord.Interaction),
              inspect.Parameter("game", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=str),
              inspect.Parameter("players", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None,
                                annotation=Optional[app_commands.Range[int, lo, hi]])]  # noqa: UP007
    params += [inspect.Parameter(s.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None,
                                 annotation=_annotation(s)) for s in specs]

    async def new(interaction: discord.Interaction, **values) -> None:
        game, players = values.pop("game"), values.pop("players", None)
        await handler(interaction, "new", new_args(game, players, values))

    new.__signature__ = inspect.Signature(params)
    new.__discord_app_commands_param_description__ = {
        "game": _desc("game"), "players": _desc("players"),
        **{s.name: _desc("option") for s in specs}}
    new.__discord_app_commands_param_rename__ = {"game": _name("game"), "players": _name("players")}
    new.__discord_app_commands_param_choices__ = {"game": _game_choices()}
    cmd = app_commands.Command(name=_name("new"), description=_desc("new"), callback=new)
    for option in specs:
        if option.spec.kind in _KINDS:
            cmd.autocomplete(option.name)(_suggest(option))
    return cmd


def _plain(handler: Handler, verb: str) -> app_commands.Command:
    async def run(interaction: discord.Interaction) -> None:
        await handler(interaction, verb, ())
    return app_commands.Command(name=_name(verb), description=_desc(verb), callback=run)


def _worded(handler: Handler, verb: str) -> app_commands.Command:
    """A verb with free words after it (``/vacation 7d``, ``/notify daily 19:00``); none: how it stands."""
    async def worded(interaction: discord.Interaction,
                     words: Optional[app_commands.Range[str, 1, 40]] = None) -> None:  # noqa: UP007
        await handler(interaction, verb, tuple((words or "").split()))
    worded.__discord_app_commands_param_description__ = {"words": _desc("words")}
    worded.__discord_app_commands_param_rename__ = {"words": _name("words")}
    return app_commands.Command(name=_name(verb), description=_desc(verb), callback=worded)


def _language(handler: Handler) -> app_commands.Command:
    async def language(interaction: discord.Interaction, lang: str) -> None:
        await handler(interaction, "language", (lang,))
    language.__discord_app_commands_param_description__ = {"lang": _desc("lang")}
    language.__discord_app_commands_param_rename__ = {"lang": _name("lang")}
    language.__discord_app_commands_param_choices__ = {"lang": [Choice(name=code, value=code) for code in languages()]}
    return app_commands.Command(name=_name("language"),
                                description=_desc("language"), callback=language)


_NAME_MAX = 48
"""The longest name ``/stats`` takes (the chats cut names to this too)."""


def _stats(handler: Handler) -> app_commands.Command:
    async def stats(interaction: discord.Interaction, player: Optional[app_commands.Range[str, 1, _NAME_MAX]] = None,  # noqa: UP007
                    count: Optional[str] = None) -> None:  # noqa: UP007
        await handler(interaction, "stats", (count,) if count else (player,) if player else ())
    stats.__discord_app_commands_param_description__ = {"player": _desc("player"),
                                                        "count": _desc("count")}
    stats.__discord_app_commands_param_rename__ = {"player": _name("player"), "count": _name("count")}
    stats.__discord_app_commands_param_choices__ = {
        "count": [_choice(word, word) for word in ("on", "off")]}
    return app_commands.Command(name=_name("stats"), description=_desc("stats"),
                                callback=stats)


def _by_game(handler: Handler, verb: str) -> app_commands.Command:
    """``/rules``, ``/ranking`` and ``/chart``: an optional game (else the table's, or the chat's last match's)."""
    async def by_game(interaction: discord.Interaction, game: Optional[str] = None) -> None:  # noqa: UP007
        await handler(interaction, verb, (game,) if game else ())
    by_game.__discord_app_commands_param_description__ = {"game": _desc("game")}
    by_game.__discord_app_commands_param_rename__ = {"game": _name("game")}
    by_game.__discord_app_commands_param_choices__ = {"game": _game_choices()}
    return app_commands.Command(name=_name(verb), description=_desc(verb), callback=by_game)


def _history(handler: Handler) -> app_commands.Command:
    """``/history``: the last matches, or with ``match`` that match's score sheet."""
    async def history(interaction: discord.Interaction,
                      match: Optional[app_commands.Range[int, 1, 10**9]] = None) -> None:  # noqa: UP007
        await handler(interaction, "history", (str(match),) if match else ())
    history.__discord_app_commands_param_description__ = {"match": _desc("match")}
    history.__discord_app_commands_param_rename__ = {"match": _name("match")}
    return app_commands.Command(name=_name("history"), description=_desc("history"),
                                callback=history)


def _season(handler: Handler) -> app_commands.Command:
    async def season(interaction: discord.Interaction, action: str) -> None:
        await handler(interaction, "season", (action,))
    season.__discord_app_commands_param_description__ = {"action": _desc("action")}
    season.__discord_app_commands_param_rename__ = {"action": _name("action")}
    season.__discord_app_commands_param_choices__ = {
        "action": [_choice("new_season", "new")]}
    return app_commands.Command(name=_name("season"), description=_desc("season"),
                                callback=season)
def tournament_args(action: str, game: str | None = None, format: str | None = None, partner: str | None = None,
                    round: str | None = None, rule: str | None = None, twice: bool | None = None,
                    options: str | None = None) -> tuple[str, ...]:
    """The arguments of the typed ``tournament`` command for these parameters (those given only)."""
    if action == "new":
        return (action, *(w for w in (game, format) if w), *(("twice",) if twice else ()),
                *((f"round={round}",) if round else ()), *((f"rule={rule}",) if rule else ()),
                *(options or "").split()[:12])
    return (action, *((partner,) if partner and action == "join" else ()))


def _tournament(handler: Handler) -> app_commands.Command:
    async def tournament(interaction: discord.Interaction, action: str, game: Optional[str] = None,  # noqa: UP007
                         format: Optional[str] = None,  # noqa: UP007
                         partner: Optional[app_commands.Range[str, 1, 32]] = None,  # noqa: UP007
                         round: Optional[app_commands.Range[str, 1, 8]] = None,  # noqa: UP007
                         rule: Optional[str] = None, twice: Optional[bool] = None,  # noqa: UP007
                         options: Optional[app_commands.Range[str, 1, 200]] = None) -> None:  # noqa: UP007
        await handler(interaction, "tournament", tournament_args(action, game, format, partner, round, rule, twice,
                                                                 options))

    def choices(words: tuple[str, ...], prefix: str = "") -> list[Choice]:
        return [_choice(prefix + w, w) for w in words]
    words = ("action", "game", "format", "partner", "round", "rule", "twice", "options")
    tournament.__discord_app_commands_param_description__ = {
        w: _desc(w) for w in words}
    tournament.__discord_app_commands_param_rename__ = {w: _name(w) for w in words}
    tournament.__discord_app_commands_param_choices__ = {
        "action": choices(("new", "join", "leave", "start", "standings", "abort"), "tn."),
        "game": [Choice(name=locale_str(game_name(g, "en"), key=("game", g)), value=g) for g in GAME_WORDS],
        "format": choices(("round-robin", "groups-ko", "swiss")),
        "rule": choices(("computer", "forfeit"))}
    return app_commands.Command(name=_name("tournament"),
                                description=_desc("tournament"), callback=tournament)


def build(tree: app_commands.CommandTree, handler: Handler) -> None:
    """Add every slash command to ``tree``; each runs ``handler(interaction, verb, args)``."""
    tree.add_command(_new(handler))
    for verb in ("join", "start", "hand", "table", "tables", "leave", "abort", "help", "tonight", "export", "forget",
                 "review"):
        tree.add_command(_plain(handler, verb))
    tree.add_command(_by_game(handler, "rules"))
    tree.add_command(_language(handler))
    for verb in ("vacation", "notify"):
        tree.add_command(_worded(handler, verb))
    tree.add_command(_stats(handler))
    tree.add_command(_by_game(handler, "ranking"))
    tree.add_command(_by_game(handler, "chart"))
    tree.add_command(_season(handler))
    tree.add_command(_tournament(handler))
    tree.add_command(_history(handler))
