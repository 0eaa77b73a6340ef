"""Every bench's quick mode: ``--quick`` runs the same code with tiny counts, in a few seconds.

The test suite runs each bench so (``tests/test_bench.py``), so a change that breaks a bench fails a
test; its figures say nothing then, only that the bench still runs to its end.
"""

from __future__ import annotations

import argparse

__all__ = ["parse"]


def parse(parser: argparse.ArgumentParser, argv: list[str] | None = None, **small) -> argparse.Namespace:
    """The parsed command line; with ``--quick`` the ``small`` values replace the defaults (flags given win)."""
    tiny = ", ".join(f"{k}={v}" for k, v in small.items())
    parser.add_argument("--quick", action="store_true", help=f"tiny counts, a few seconds, the same code ({tiny})")
    args = parser.parse_args(argv)
    if args.quick:
        parser.set_defaults(**small)
        args = parser.parse_args(argv)
    return args
