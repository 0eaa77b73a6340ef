"""The review of a deal in words: marked decisions first, in the game's words and the reader's language, and no
card the table never showed to that seat (a Rams blind, a hand that passed, the cards a deal ended without)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from bot.tools.simulate import played_replay
from bot.words.cards import card_label
from bot.words.review import review_lines, review_text
from engine.cards import card_str
from engine.replay import load
from engine.review import Review, review

GAMES = ["bauernstoss", "alter_schafkopf", "bauerchen", "bauer", "rams"]
CARD = re.compile(r"^[AKQJT9876][CSHD]$")


def strings(value: Any):
    """Every string inside a view's part."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def shown(replay: dict, seat: int) -> set[str]:
    """The cards the table showed ``seat`` in the deal: its hand at any time, every card played, every public card."""
    state, actions = load(json.dumps(replay))
    seen: set[str] = set()
    for step in range(len(actions) + 1):
        view = state.view(seat)
        seen |= set(view["hand"]) | {t["card"] for t in view["trick"]}
        seen |= {c for t in view["tricks"] for c in t["cards"]}
        seen |= {s for s in strings(view["public"]) if CARD.match(s)}
        if step < len(actions):
            state.do(*actions[step])
    return seen


def deals(game: str, count: int):
    """``count`` replays of ``game`` played by slipping computers; in Rams only deals with a pass and a blind taken."""
    found = 0
    for k in range(200):
        replay = played_replay(game, random.Random(f"{game}:{k}"))
        kinds = {a["action"] for a in replay["actions"]}
        if game != "rams" or {"pass", "take_blind"} <= kinds:
            yield replay
            found += 1
            if found == count:
                return
    raise AssertionError(f"no {game} deal with a pass and the blind taken")


def reviewed(replay: dict) -> Review:
    state, actions = load(json.dumps(replay))
    return review(state, actions, lambda i: random.Random(i), samples=2)


@pytest.mark.parametrize("game", GAMES)
def test_no_review_names_a_card_the_table_never_showed_that_seat(game):
    for replay in deals(game, 2):
        found = reviewed(replay)
        everything = {card_str(c) for c in range(36)}
        for seat in range(replay["players"]):
            hidden = everything - shown(replay, seat)
            assert hidden, "every card was shown: nothing to hide"
            for lang in ("de", "en"):
                text = review_text(lang, found, seat) + "\n".join(review_lines(lang, found, [seat]))
                named = [c for c in hidden if card_label(c, lang) in text]
                assert not named, (seat, lang, named, text)


def test_the_marked_decisions_come_first_then_the_other_choices():
    for k in range(20):  # random players: a deal with a clear mistake comes soon
        state, actions = load(json.dumps(played_replay("rams", random.Random(k), "random")))
        found = review(state, actions, lambda i: random.Random(i), samples=16)
        if any(d.mark for d in found.decisions):
            break
    seat = next(d.seat for d in found.decisions if d.mark)
    mine = [d for d in found.decisions if d.seat == seat]
    marked = [d for d in mine if d.mark]
    other = [d for d in mine if not d.mark and d.best != d.choice and d.cost >= 0.05]
    same = len(mine) - len(marked) - len(other)
    text = review_text("de", found, seat).splitlines()
    assert text[0] == (f"Nachbesprechung (Rams): {len(mine)} Entscheidungen, "
                       + ("1 klarer Fehler" if len(marked) == 1 else f"{len(marked)} klare Fehler"))
    assert [line[:2] for line in text[1:-1 if same else None]] == ["✗ "] * len(marked) + ["· "] * len(other)
    assert all("Stiche" in line for line in text[1:1 + len(marked) + len(other)])
    if same:
        assert text[-1] in (f"{same} Entscheidungen wie der starke Spieler", "1 Entscheidung wie der starke Spieler")


def test_a_seat_without_decisions_is_told_so():
    replay = next(deals("bauer", 1))
    replay["actions"] = replay["actions"][:1]
    found = reviewed(replay)
    other = (replay["actions"][0]["seat"] + 1) % 4
    assert review_text("en", found, other) == "You had nothing to decide in this deal."
