"""A tournament's messages: the registration, the draw, a round's pairings, the standings and the final ranking.

The registration and the standings are one message per tournament, edited in place (a
:class:`~bot.protocol.outgoing.TableMessage` under the tournament's id). The standings of a large
field are paged: :data:`PAGE_ROWS` rows a page, the page stored with the tournament and switched by
buttons, so every page fits :data:`~bot.words.fit.TEXT_MAX`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.protocol import tokens
from bot.protocol.outgoing import Button, TableMessage
from bot.table.tourney_record import Tourney
from bot.words.fit import TEXT_MAX, shown_name
from bot.words.i18n import game_name, has, t
from bot.words.render import ago, options_text

__all__ = ["PAGE_ROWS", "registration", "standings_message", "standings_pages", "standing_row", "pairing_line",
           "final_text", "in_messages", "headline", "team_name"]

PAGE_ROWS = 20
"""Rows of the standings on one page: 20 rows of at most about 80 characters fit a message."""
_INVITES_SHOWN = 5
"""Invitations that get a confirm button on the registration message (the newest)."""


def team_name(names: Sequence[str]) -> str:
    """A team as the messages show it: its members' names, each cut, joined by ``+`` (🤖: a computer)."""
    return "+".join(shown_name(n) if n else "🤖" for n in names)


def headline(tourney: Tourney) -> str:
    """The tournament's first line: its game, format and table options."""
    lang = tourney.lang
    fmt = t(lang, f"tn.format.{tourney.format}") + (t(lang, "tn.twice") if tourney.twice else "")
    opts = options_text(lang, tourney.options)
    return t(lang, "tn.headline", game=game_name(tourney.game, lang), format=fmt) + (f" · {opts}" if opts else "")


def _terms(tourney: Tourney) -> str:
    lang = tourney.lang
    return t(lang, "tn.terms", round=ago(tourney.round_s, lang), rule=t(lang, f"tn.rule.{tourney.rule}"),
             name=shown_name(tourney.organizer_name))


def registration(tourney: Tourney, version: int) -> TableMessage:
    """The registration message: the terms, who is registered, the invitations, the buttons."""
    lang = tourney.lang
    lines = [headline(tourney), _terms(tourney), t(lang, "tn.registered", n=len(tourney.entries))]
    for i, entry in enumerate(tourney.entries, 1):
        alone = len(entry.users) == 1 and tourney.team_size == 2
        lines.append(f"{i}. {team_name(entry.names)}" + (t(lang, "tn.alone") if alone else ""))
    waiting = tourney.invites[-_INVITES_SHOWN:]
    for inv in waiting:
        lines.append(t(lang, "tn.invite_line", name=shown_name(inv.name), partner=shown_name(inv.partner)))
    lines.append(t(lang, "tn.how_to_join"))
    rows = [(Button(t(lang, "tn.btn.join"), tokens.make(tourney.id, version, "tn_join")),
             Button(t(lang, "tn.btn.leave"), tokens.make(tourney.id, version, "tn_leave"))),
            *((Button(t(lang, "tn.btn.confirm", name=shown_name(inv.partner), by=shown_name(inv.name)),
                      tokens.make(tourney.id, version, "tn_ok", str(tourney.invites.index(inv)))),)
              for inv in waiting),
            (Button(t(lang, "tn.btn.start"), tokens.make(tourney.id, version, "tn_start")),)]
    return TableMessage(tourney.chat, tourney.id, _fit(lines), tuple(rows))


def _fit(lines: list[str]) -> str:
    text = "\n".join(lines)
    return text if len(text) <= TEXT_MAX else text[: TEXT_MAX - 1] + "…"


def standing_row(lang: str, game: str, row: Any) -> str:
    """One row of the standings: rank, team, and the figures its game ranks by, with the tie-breaker written out."""
    name = row.name + (t(lang, "tn.withdrawn") if row.withdrawn else "")
    group = f"[{row.group}] " if row.group else ""
    if game == "rams":
        figures = t(lang, "tn.row_rams", place=row.place_points, pts=row.points_for, k=row.kartoffeln)
    else:
        figures = t(lang, f"tn.row.{game}", won=row.won, lost=row.lost, played=row.played,
                    pf=row.points_for, pa=row.points_against)
    why = f" ({_tie_break(lang, game, row.decided_by)})" if row.decided_by else ""
    return f"{row.rank}. {group}{name}: {figures}{why}"


def _tie_break(lang: str, game: str, criterion: str) -> str:
    """What decided between two rows, in the game's own words where it has them (Striche, Brote)."""
    own = f"tn.by.{criterion}.{game}"
    return t(lang, own if has(own) else f"tn.by.{criterion}")


def standings_pages(tourney: Tourney, rows: Sequence[Any]) -> list[list[str]]:
    """The standings' rows, :data:`PAGE_ROWS` to a page (at least one page)."""
    lines = [standing_row(tourney.lang, tourney.game, r) for r in rows]
    return [lines[i:i + PAGE_ROWS] for i in range(0, len(lines), PAGE_ROWS)] or [[]]


def standings_message(tourney: Tourney, rows: Sequence[Any], version: int, page: int, now: float,
                      final: bool = False, rounds: int = 0) -> TableMessage:
    """The standings message: the headline, the round (of ``rounds``) and its deadline, one page of rows, page
    buttons."""
    lang = tourney.lang
    pages = standings_pages(tourney, rows)
    page = min(max(page, 0), len(pages) - 1)
    head = [headline(tourney)]
    if final:
        head.append(t(lang, "tn.final_head"))
    elif tourney.status == "running":
        head.append(t(lang, "tn.round_line", round=tourney.round, of=rounds,
                      left=ago(max(tourney.round_end - now, 60), lang)))
    else:
        head.append(t(lang, "tn.closed"))
    if len(pages) > 1:
        head.append(t(lang, "tn.page", page=page + 1, pages=len(pages)))
    buttons: tuple[tuple[Button, ...], ...] = ()
    if len(pages) > 1:
        buttons = ((Button("◀", tokens.make(tourney.id, version, "tn_page", str((page - 1) % len(pages)))),
                    Button("▶", tokens.make(tourney.id, version, "tn_page", str((page + 1) % len(pages))))),)
    return TableMessage(tourney.chat, tourney.id, _fit(head + pages[page]), buttons)


def pairing_line(lang: str, names: Sequence[str], stage: Any = None) -> str:
    """One pairing of a round: the teams (Rams: the players) at its table, and the group or places at stake."""
    where = ""
    if stage is not None and stage.group:
        where = t(lang, "tn.group", group=stage.group) + ": "
    elif stage is not None and stage.places:
        where = t(lang, "tn.places", best=stage.places[0], worst=stage.places[1]) + ": "
    if len(names) == 1:
        return where + t(lang, "tn.bye", name=names[0])
    return where + t(lang, "tn.versus").join(names)


def in_messages(head: list[str], rows: Sequence[str], limit: int = TEXT_MAX) -> list[str]:
    """``head`` and ``rows`` as few messages as fit ``limit`` each (the head in the first); a row too long is cut."""
    out: list[str] = []
    lines = list(head)
    for row in rows:
        row = row if len(row) < limit else row[:limit - 2] + "…"
        if lines and len("\n".join([*lines, row])) > limit:
            out.append("\n".join(lines))
            lines = []
        lines.append(row)
    return out + (["\n".join(lines)] if lines else [])


def final_text(tourney: Tourney, rows: Sequence[Any]) -> list[str]:
    """The final ranking as messages (each within :data:`~bot.words.fit.TEXT_MAX`), the podium with medals."""
    lang = tourney.lang
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    lines = [medals[r.rank] + " " + standing_row(lang, tourney.game, r) if r.rank in medals
             else standing_row(lang, tourney.game, r) for r in rows]
    return in_messages([t(lang, "tn.final", game=game_name(tourney.game, lang))], lines)

