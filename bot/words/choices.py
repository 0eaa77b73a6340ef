"""Every game's table options as one list, for adapters that offer them as typed parameters.

A chat platform with typed command parameters (Discord's slash commands) shows each option
once, with its type, bounds and, where the value is one of a few, its choices; the engine
refuses an option the chosen game does not have, as for typed commands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import engine
from engine import OptionSpec

__all__ = ["TableOption", "table_options", "player_range"]


@dataclass(frozen=True)
class TableOption:
    """One option name: its spec (as the first game that has it declares it) and each game's default."""

    spec: OptionSpec
    defaults: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The option's name."""
        return self.spec.name


def table_options() -> list[TableOption]:
    """Every game's options by name, in the games' order (a name shared by games appears once)."""
    out: dict[str, TableOption] = {}
    for game in engine.game_ids():
        for name, spec in engine.option_specs(game).items():
            option = out.setdefault(name, TableOption(spec))
            if spec.default is not None:
                option.defaults[game] = spec.default
    return list(out.values())


def player_range() -> tuple[int, int]:
    """The fewest and most players any game seats."""
    ranges = [engine.game_class(g).PLAYERS for g in engine.game_ids()]
    return min(lo for lo, _ in ranges), max(hi for _, hi in ranges)
