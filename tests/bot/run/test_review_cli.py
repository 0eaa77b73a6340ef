"""``stammtisch review FILE``: every decision of every seat of a vector's deal, as text in the game's words or as one
JSON object; bad files refused as ``replay`` refuses them. Small sample budgets (``--samples``) keep it cheap."""

from __future__ import annotations

import json

import pytest

from bot.run.cli import main
from tests.vectors import VECTORS, load_vector

GAME_VECTORS = {"bauernstoss": "bauernstoss-first-deal-score", "alter_schafkopf": "alter-schafkopf-chalk-game",
                "bauerchen": "bauerchen-deal-score", "bauer": "bauer-deal-score", "rams": "rams-deal-score"}
"""A whole deal of each game from the rule vectors."""


def replay_of(game: str) -> dict:
    return load_vector(VECTORS / f"{GAME_VECTORS[game]}.json")["replay"]


def review(capsys, tmp_path, replay: dict | str, *flags: str) -> tuple[int, str, str]:
    path = tmp_path / "deal.json"
    path.write_text(replay if isinstance(replay, str) else json.dumps(replay), encoding="utf-8")
    code = main(["review", str(path), "--samples", "2", *flags])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("game", list(GAME_VECTORS))
def test_every_decision_of_every_seat_as_json(game, capsys, tmp_path):
    replay = replay_of(game)
    code, out, err = review(capsys, tmp_path, replay, "--json", "--seed", "3")
    assert code == 0 and err == ""
    found = json.loads(out)
    assert found["game"] == game and found["ok"] is True and found["error"] is None
    decisions = found["decisions"]
    assert [d["index"] for d in decisions] == list(range(len(replay["actions"])))
    for d, action in zip(decisions, replay["actions"]):
        assert d["seat"] == action["seat"] and d["choice"] == {k: v for k, v in action.items() if k != "seat"}
        assert set(d) == {"seat", "index", "choice", "best", "cost", "mark"}
        assert d["cost"] >= 0 and isinstance(d["mark"], bool) and (d["best"] is None or "action" in d["best"])
        assert d["cost"] == 0 or d["best"] != d["choice"]


@pytest.mark.parametrize(("game", "lang", "words"), [("bauerchen", "de", ("Platz 0", "Stich", "Punkte")),
                                                     ("rams", "en", ("Seat 3", "Trick", "tricks", "Play")),
                                                     ("bauernstoss", "de", ("Striche", "Vor dem Spiel"))])
def test_every_decision_of_every_seat_in_the_games_words(game, lang, words, capsys, tmp_path):
    replay = replay_of(game)
    code, out, err = review(capsys, tmp_path, replay, "--lang", lang)
    assert code == 0 and err == ""
    lines = out.splitlines()
    decided = [line for line in lines if line[:2] in ("✗ ", "· ")]
    assert len(decided) == len(replay["actions"])
    assert all(w in out for w in words), out
    assert "{" not in out and "rv." not in out  # every text from the catalog, filled


def test_one_seat_and_the_same_seed_the_same_review(capsys, tmp_path):
    replay = replay_of("bauer")
    first = review(capsys, tmp_path, replay, "--json", "--seat", "2", "--seed", "9")
    again = review(capsys, tmp_path, replay, "--json", "--seat", "2", "--seed", "9")
    assert first == again and first[0] == 0
    decisions = json.loads(first[1])["decisions"]
    assert {d["seat"] for d in decisions} == {2}
    assert [d["index"] for d in decisions] == [i for i, a in enumerate(replay["actions"]) if a["seat"] == 2]


def test_the_review_stops_at_an_illegal_action(capsys, tmp_path):
    replay = replay_of("bauerchen")
    replay["actions"] = replay["actions"][:2] + [replay["actions"][0]]
    code, out, _ = review(capsys, tmp_path, replay, "--json")
    found = json.loads(out)
    assert code == 0 and found["ok"] is False and found["error"]["index"] == 2
    assert [d["index"] for d in found["decisions"]] == [0, 1]
    code, out, _ = review(capsys, tmp_path, replay, "--lang", "en")
    assert code == 0 and out.splitlines()[-1] == "Action 2 is not allowed here: the review ends before it."


@pytest.mark.parametrize(("text", "flags"), [
    ("{not json", ()),
    (json.dumps({"game": "skat", "deal": {"hands": []}}), ()),
    (json.dumps({**replay_of("bauer"), "actions": [{"seat": 0, "action": "fly"}]}), ()),
    (json.dumps({**replay_of("bauer"), "actions": [{"seat": 0, "action": "pass"}] * 301}), ()),
    (json.dumps(replay_of("bauer")), ("--seat", "4")),
    (json.dumps(replay_of("bauer")), ("--seat", "-1")),
    (json.dumps(replay_of("bauer")), ("--seed", "x")),
    (json.dumps(replay_of("bauer")), ("--lang", "fr")),
])
def test_bad_files_and_flags_are_refused_with_one_line_and_status_2(text, flags, capsys, tmp_path):
    code, out, err = review(capsys, tmp_path, text, *flags)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("stammtisch: ") and "Traceback" not in err


def test_a_missing_file_is_refused_as_replay_refuses_it(capsys):
    assert main(["review", "/nonexistent/deal.json"]) == 2
    assert main(["replay", "/nonexistent/deal.json"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == lines[1] and len(lines) == 2
