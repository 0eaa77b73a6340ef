"""Every message the bot renders fits both platforms' limits, at the longest names a player may have."""

from __future__ import annotations

import random

import pytest

import engine
from bot.protocol.outgoing import ChatRef, UserRef
from bot.table.match import Match
from bot.table.record import Seat, Table
from bot.words.fit import TEXT_MAX, fit_rows
from bot.words.render import table_message
from tests.renderkit import NAMES, fixed_messages, match_messages, over_limit, sizes


@pytest.mark.parametrize("game", engine.game_ids())
def test_every_message_of_whole_matches_fits(game):
    rng = random.Random(game)
    broken = []
    for n in sizes(game):
        for lang in ("de", "en"):
            for name in NAMES.values():
                for kind, text in match_messages(game, n, lang, name, rng):
                    if over_limit(kind, text):
                        broken.append((n, lang, kind, over_limit(kind, text)))
    assert not broken, broken[:5]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_rules_and_help_fit(lang):
    assert not [(kind, over_limit(kind, text)) for kind, text in fixed_messages(lang) if over_limit(kind, text)]


def test_a_long_score_sheet_keeps_its_newest_deals():
    lines = [f"{i}. {'x' * 60}" for i in range(1, 101)]
    text = fit_rows(["Title", "Teams"], lines)
    assert len(text) <= TEXT_MAX
    assert text.startswith("Title\nTeams\n…\n") and text.endswith(lines[-1])



def test_a_rams_sheet_names_the_players_once_and_rows_carry_their_tricks():
    sheets = [text for kind, text in match_messages("rams", 7, "en", NAMES["emoji"], random.Random(5))
              if kind == "sheet"]
    title, names, *rows = sheets[-1].splitlines()
    assert title == "📋 Score sheet · Rams" and names.count("🃏" * 14 + "…") == 7
    assert rows[0].startswith("1. ") and all("🃏" not in row for row in rows)
    assert len(rows) > 10 and len(sheets[-1]) <= TEXT_MAX


def test_a_bauerchen_deal_spritzed_back_and_forth_without_end_fits():
    rng = random.Random(4)
    table = Table(id="T", chat=ChatRef("test", "g"), game="bauerchen", n=4, lang="de", status="lobby", opener="t:0",
                  seats=[Seat() for _ in range(4)])
    for i in range(4):
        table.join(UserRef("t", str(i), f"{i}{NAMES['letters'][1:]}"))
    match = Match(table, rng, 0.0)
    match.start()
    calls = 0
    while calls < 300:
        spritz = [(seat, a) for seat, acts in engine.offers(match.state).items() for a in acts if a.kind == "spritz"]
        seat, action = spritz[0] if spritz else (match.state.to_act, rng.choice(engine.legal_actions(match.state)))
        match.act(seat, action, "cpu")
        calls += bool(spritz)
    text = table_message(table, match.state, 1, 0).text
    assert len(text) <= TEXT_MAX and "×" + str(2 ** 300) in text
