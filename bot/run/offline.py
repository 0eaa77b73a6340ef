"""The offline tools of the ``stammtisch`` command: ``replay``, ``review``, ``simulate``, ``arena`` and
``tournament``, each reading its arguments and printing JSON (or a table), without a store or a chat."""

from __future__ import annotations

import argparse
import json

from bot.run.arguments import fail, json_options, language, read_file, settings, whole

__all__ = ["replay", "review", "simulate", "arena", "tournament"]


def replay(args: argparse.Namespace) -> int:
    """``stammtisch replay FILE``: the replay's outcome as JSON (replay-format.md); a bad file in one line."""
    from engine.replay import run

    try:
        out = run(read_file(args.file))
    except ValueError as exc:  # ReplayError is one
        return fail(str(exc))
    print(json.dumps(out, ensure_ascii=False))
    return 0


def review(args: argparse.Namespace) -> int:
    """``stammtisch review FILE``: every decision of the replay's seats beside the strong player's (``--json``: one
    object); files refused as ``replay`` refuses them."""
    import random

    from bot.ops.settings import SettingsError
    from bot.words.review import review_lines
    from engine.review import report, review_replay

    try:
        text = read_file(args.file)
        seed = whole(args.seed, "--seed")
        seat = None if args.seat is None else whole(args.seat, "--seat")
        samples = None if args.samples is None else max(1, whole(args.samples, "--samples"))
        lang = None if args.json else (language(args.lang) or settings().lang)
        found = review_replay(text, lambda index: random.Random(f"{seed}:{index}"),
                             None if seat is None else {seat}, samples)
    except (ValueError, SettingsError) as exc:  # ReplayError is a ValueError
        return fail(str(exc))
    players = found.state.n
    if seat is not None and seat >= players:
        return fail(f"--seat must be a seat of the replay, 0 to {players - 1}, not {seat}")
    if lang is None:
        print(json.dumps(report(found), ensure_ascii=False))
    else:
        print("\n".join(review_lines(lang, found, list(range(players)) if seat is None else [seat])))
    return 0


def simulate(args: argparse.Namespace) -> int:
    """``stammtisch simulate``: deals or matches of computer players, their figures as JSON."""
    from bot.tools.simulate import simulate as play_deals

    try:
        options = json_options(args.options)
    except ValueError as exc:
        return fail(str(exc))
    if args.deals is not None and args.deals < 1 or args.matches is not None and args.matches < 1:
        return fail("--deals and --matches must be at least 1")
    deals = args.deals if args.deals is not None or args.matches is not None else 100
    try:
        out = play_deals(args.game, args.players, deals, args.matches, args.seed, options, args.kind)
    except ValueError as exc:
        return fail(str(exc))
    print(json.dumps(out, ensure_ascii=False))
    return 0


def arena(args: argparse.Namespace) -> int:
    """``stammtisch arena``: computer players of given levels against each other, their figures as JSON."""
    from bot.tools.arena import arena as play_arena

    try:
        options = json_options(args.options)
        out = play_arena(args.game, args.deals, args.seed, args.seats.split(","), args.players, options, args.samples,
                         args.jobs)
    except ValueError as exc:
        return fail(str(exc))
    print(json.dumps(out, ensure_ascii=False))
    return 0


def tournament(args: argparse.Namespace) -> int:
    """``stammtisch tournament``: the final standings as a table (``--json``: one JSON object)."""
    from bot.ops.settings import SettingsError
    from bot.tools.computer_tournament import play_tournament
    from bot.words.tourney_table import tournament_table

    try:
        lang = None if args.json else (language(args.lang) or settings().lang)
        count = whole(args.teams, "--teams")
        seed = whole(args.seed, "--seed")
        out = play_tournament(args.game, args.format, count, seed, json_options(args.options),
                              json_options(args.format_options, flag="--format-options"), args.kind)
    except (ValueError, SettingsError) as exc:
        return fail(str(exc))
    print(json.dumps(out, ensure_ascii=False) if lang is None else tournament_table(lang, out))
    return 0
