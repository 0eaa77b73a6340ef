"""Every bench's quick mode: ``--quick`` runs the same code with tiny counts, in a few seconds.

The test suite runs each bench so (``tests/test_bench.py``), so a change that breaks a bench fails a
test; its figures say nothing then, only that the bench still runs to its end. One that still runs after
:data:`LIMIT_S` prints where it waits (every asyncio task's stack, every thread's) and exits, so a bench that hangs
once in many runs says why in the failing test's output.
"""

from __future__ import annotations

import argparse
import asyncio
import faulthandler
import os
import signal
import sys

__all__ = ["parse", "LIMIT_S"]

LIMIT_S = 250
"""How long a quick run may take before it tells where it waits and ends (below the suite's 270 s for a bench)."""


def parse(parser: argparse.ArgumentParser, argv: list[str] | None = None, **small) -> argparse.Namespace:
    """The parsed command line; with ``--quick`` the ``small`` values replace the defaults (flags given win)."""
    tiny = ", ".join(f"{k}={v}" for k, v in small.items())
    parser.add_argument("--quick", action="store_true", help=f"tiny counts, a few seconds, the same code ({tiny})")
    args = parser.parse_args(argv)
    if args.quick:
        parser.set_defaults(**small)
        args = parser.parse_args(argv)
        signal.signal(signal.SIGALRM, _hung)
        signal.alarm(LIMIT_S)
    return args


def _hung(_signum, _frame) -> None:
    """The quick run took too long: print the stack of every task of the running event loop and of every thread,
    then end with status 3."""
    print(f"{sys.argv[0]} --quick still runs after {LIMIT_S} s; where it waits:", file=sys.stderr)
    try:
        tasks = asyncio.all_tasks()
    except RuntimeError:  # no event loop runs in this thread now
        tasks = set()
    for task in tasks:
        task.print_stack(limit=12, file=sys.stderr)
    faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
    sys.stderr.flush()
    os._exit(3)
