"""The ``stammtisch`` command: the composition root that wires settings, store and adapters."""

from __future__ import annotations

import argparse
import json
import sys

__all__ = ["main"]


def _fail(message: str) -> int:
    print(f"stammtisch: {message}", file=sys.stderr)
    return 2


def _replay(args: argparse.Namespace) -> int:
    from engine.replay import ReplayError, run

    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
    except OSError as exc:
        return _fail(f"cannot read {args.file}: {exc.strerror}")
    except UnicodeDecodeError:
        return _fail(f"{args.file} is not UTF-8 text")
    try:
        out = run(text)
    except ReplayError as exc:
        return _fail(str(exc))
    print(json.dumps(out, ensure_ascii=False))
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from .simulate import simulate

    try:
        options = json.loads(args.options) if args.options else {}
    except json.JSONDecodeError as exc:
        return _fail(f"--options is not JSON: {exc.msg}")
    if not isinstance(options, dict):
        return _fail("--options must be a JSON object")
    if args.deals is not None and args.deals < 1 or args.matches is not None and args.matches < 1:
        return _fail("--deals and --matches must be at least 1")
    deals = args.deals if args.deals is not None or args.matches is not None else 100
    try:
        out = simulate(args.game, args.players, deals, args.matches, args.seed, options)
    except ValueError as exc:
        return _fail(str(exc))
    print(json.dumps(out, ensure_ascii=False))
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    p = argparse.ArgumentParser(prog="stammtisch", description="Regional card games in group chats.")
    sub = p.add_subparsers(dest="command")
    r = sub.add_parser("replay", help="replay one deal from a JSON file (- for stdin) and print the state")
    r.add_argument("file")
    r.set_defaults(func=_replay)
    s = sub.add_parser("simulate", help="computer players play deals or matches; prints statistics as JSON")
    s.add_argument("--game", required=True)
    s.add_argument("--players", type=int)
    s.add_argument("--deals", type=int, help="how many deals (default 100)")
    s.add_argument("--matches", type=int, help="play whole matches instead of a number of deals")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--options", help="the game's options as a JSON object")
    s.set_defaults(func=_simulate)
    return p


def main(argv: list[str] | None = None) -> int:
    """Run ``stammtisch`` with ``argv`` (default: the process arguments); return the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
