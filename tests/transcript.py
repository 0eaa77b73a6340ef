"""Checks of a finished game's move log, shared by the end-to-end tests of every adapter."""

from __future__ import annotations

import json
import re

import engine
from bot.table.match import STORY_EVENTS, trick_event
from bot.table.record import Table
from bot.words import story
from bot.words.i18n import game_name, t
from engine.actions import Action

__all__ = ["assert_log_sound", "story_lines", "assert_told", "assert_results_told", "results_posted"]


async def assert_log_sound(store, table: Table, platform: str) -> None:
    """Every change was applied once, in version order, and every person's move by the seat's owner."""
    entries = [json.loads(e) for e in await store.log(table.id)]
    versions = [e["v"] for e in entries]
    assert versions == list(range(versions[0], versions[0] + len(versions))), versions
    for e in entries:
        for move in e["moves"]:
            if str(move.get("by", "")).startswith(f"{platform}:"):
                assert table.seats[move["s"]].user == move["by"] == e["by"], e


async def story_lines(store, table: Table) -> tuple[list[str], int]:
    """What the story must tell of a table, replayed from its move log: every public event and every
    trick as a line, in order, and how many deals ended."""
    lines, ended, state = [], 0, None
    for entry in [json.loads(e) for e in await store.log(table.id)]:
        for m in entry["moves"]:
            if "deal" in m:
                state = engine.from_json(m["deal"])
                continue
            state, events = engine.apply(state, m["s"], Action.from_dict(m["a"]))
            for ev in events:
                if ev["type"] in STORY_EVENTS:
                    lines.append(story.event_line(table, ev))
                elif ev["type"] == "trick":
                    lines.append(story.trick_line(table, trick_event(state, ev)))
                elif ev["type"] == "deal_over":
                    ended += 1
    return lines, ended


def assert_told(expected: list[str], told: str | list[str]) -> None:
    """Every expected line was told, in order (other lines may come between)."""
    told_lines = told.splitlines() if isinstance(told, str) else told
    it = iter(line.removeprefix("· ") for line in told_lines)
    missing = [line for line in expected if line not in it]
    assert not missing, missing[:3]


def results_posted(texts: list[str]) -> list[str]:
    """Each deal's result among the messages ``texts``: results that waited together were posted as one
    message (Telegram merges them, a blank line between), so each is split off at its heading."""
    parts = [part for text in texts for part in re.split(r"\n\n(?=🃏 )", text)]
    return [p for p in parts if " ist aus\n" in p or " is over\n" in p]


def assert_results_told(results: list[str], table: Table, ended: int) -> None:
    """Each deal's result was posted (alone, or with those that waited beside it), in order: its last trick,
    who won and why."""
    assert len(results) == ended == table.sheet_dropped + len(table.sheet), results[-2:]
    for no, text in enumerate(results, 1):
        lines = text.splitlines()
        assert lines[0] == f"🃏 {game_name(table.game, table.lang)} · " + ("Spiel" if table.lang == "de" else "deal") \
            + f" {no} " + ("ist aus" if table.lang == "de" else "is over"), lines
        if lines[1] == t(table.lang, "thrown_in"):
            continue
        assert lines[1].startswith(("Letzter Stich: ", "Last trick: ")), lines
        assert lines[2].startswith(("Augen: ", "Stiche: ", "Eyes: ", "Tricks: ")), lines
    if table.sheet:
        assert results[-1].splitlines()[2:] == story.result_lines(table, table.sheet[-1])
