"""The final standings of ``stammtisch tournament`` as a text table a person reads in his terminal.

One column per figure its game ranks by (Striche, points or Brote as ``for:against``; Rams: first places,
place points, tricks, Kartoffeln and what each paid by the settlement), the tie-breaker that placed each row
in the game's own words, numbers as the language writes them.
"""

from __future__ import annotations

from typing import Any

from bot.words.figures import money
from bot.words.i18n import game_name, has, t

__all__ = ["tournament_table"]

_TEAM = ("played", "won", "drawn", "lost", "points")
_RAMS = ("played", "won", "place_points", "tricks", "kartoffeln", "paid")


def _by(lang: str, game: str, criterion: str | None) -> str:
    """The tie-breaker in the game's words (``nach Strichen``); empty for the first row."""
    if not criterion:
        return ""
    own = f"tn.by.{criterion}.{game}"
    return t(lang, own if has(own) else f"tn.by.{criterion}")


def _cell(lang: str, row: dict[str, Any], column: str) -> str:
    if column == "points":
        return f"{row['points_for']}:{row['points_against']}"
    if column == "paid":
        return money(lang, row["paid"])
    return str(row[column])


def tournament_table(lang: str, out: dict[str, Any]) -> str:
    """The tournament ``out`` (what :func:`bot.tools.computer_tournament.play_tournament` returns) as a headline
    and an aligned table, one row per entrant, best first."""
    game, rams = out["game"], out["game"] == "rams"
    columns = [c for c in (_RAMS if rams else _TEAM) if c != "drawn" or any(r["drawn"] for r in out["standings"])]
    heads = [t(lang, "tn.col.rank"), t(lang, "tn.col.player" if rams else "tn.col.team")]
    for column in columns:
        own = f"tn.col.{column}.{game}"
        heads.append(t(lang, own if has(own) else f"tn.col.{column}"))
    heads.append(t(lang, "tn.col.decided_by"))
    rows = [[f"{r['rank']}.", r["team"], *(_cell(lang, r, c) for c in columns), _by(lang, game, r["decided_by"])]
            for r in out["standings"]]
    widths = [max(len(line[i]) for line in [heads, *rows]) for i in range(len(heads))]

    def line(cells: list[str]) -> str:
        text = [cell.ljust(w) if i in (1, len(cells) - 1) else cell.rjust(w) for i, (cell, w) in
                enumerate(zip(cells, widths))]
        return "  ".join(text).rstrip()
    head = [t(lang, "tn.offline_head", game=game_name(game, lang), format=t(lang, f"tn.format.{out['format']}"),
              n=out["entrants"], seed=out["seed"], level=t(lang, level if has(level := f"level.{out['kind']}")
                                                            else f"tn.kind.{out['kind']}")),
            t(lang, "tn.offline_played", rounds=out["rounds"], matches=out["matches"])]
    return "\n".join([*head, "", line(heads), *(line(r) for r in rows)])
