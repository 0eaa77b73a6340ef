"""Every rule of "Valid files" (``rules/replay-format.md``): a file breaking one exits 2 with one line."""

from __future__ import annotations

import copy
import json

import pytest

from bot.run.cli import main
from engine.replay import ReplayError, load
from tests.vectors import VECTORS, load_vector

BASE = {game: load_vector(VECTORS / f"{name}.json")["replay"] for game, name in (
    ("bauernstoss", "bauernstoss-first-deal-score"), ("alter_schafkopf", "alter-schafkopf-chalk-game"),
    ("bauerchen", "bauerchen-deal-score"), ("bauer", "bauer-deal-score"), ("rams", "rams-deal-score"))}


def replay(base: str, **change) -> dict:
    """The base replay of game ``base`` with top-level keys changed."""
    data = copy.deepcopy(BASE[base])
    data.update(change)
    return data


def with_deal(game: str, **change) -> dict:
    data = replay(game)
    data["deal"].update(change)
    return data


def with_action(game: str, action) -> dict:
    data = replay(game)
    data["actions"] = data["actions"][:1] + [action]
    return data


def without(game: str, key: str) -> dict:
    data = replay(game)
    del data[key]
    return data


INVALID = {
    # the file
    "not an object": [1, 2],
    "unknown key": replay("bauer", comment="hi"),
    "no deal": without("bauer", "deal"),
    "no game": without("bauer", "game"),
    "game not a string": replay("bauer", game=1),
    "unknown game": replay("bauer", game="skat"),
    "options null": replay("bauer", options=None),
    "options a list": replay("bauer", options=[]),
    "actions null": replay("bauer", actions=None),
    "players null": replay("bauer", players=None),
    "actions an object": replay("bauer", actions={}),
    "match a list": replay("bauer", match=[]),
    # players and dealer: whole numbers, nothing converted
    "players a string": replay("bauer", players="4"),
    "players a float": replay("bauer", players=4.0),
    "players a boolean": replay("rams", players=True),
    "players out of range": replay("bauer", players=5),
    "players not the number of hands": replay("rams", players=5),
    "dealer a string": replay("bauer", dealer="3"),
    "dealer a float": replay("bauer", dealer=3.0),
    "dealer a boolean": replay("bauer", dealer=True),
    "dealer negative": replay("bauer", dealer=-1),
    "dealer not a seat": replay("bauer", dealer=4),
    "dealer out of the rams game": replay("rams", players=4, dealer=1, match={
        "tricks": [0, 21, 0, 0], "ranking": [1]}),
    # options: types and bounds
    "boolean as a string": replay("bauer", options={"short_deck": "yes"}),
    "boolean as a number": replay("bauer", options={"short_deck": 1}),
    "boolean as the string true": replay("bauerchen", options={"die_letzte": "true"}),
    "whole number as a string": replay("bauer", options={"target_brote": "3"}),
    "whole number as a float": replay("bauer", options={"target_brote": 3.0}),
    "whole number as a boolean": replay("bauer", options={"target_brote": True}),
    "whole number too small": replay("bauer", options={"target_brote": 0}),
    "whole number too big": replay("bauer", options={"target_brote": 11}),
    "target too big": replay("bauernstoss", options={"target": 1000000000}),
    "target null outside rams": replay("bauernstoss", options={"target": None}),
    "unknown partners": replay("bauernstoss", options={"partners": "random"}),
    "grand_solo_needs_jc in alter_schafkopf": replay("alter_schafkopf", options={"grand_solo_needs_jc": True}),
    "trump_after_cards 3": replay("bauerchen", options={"trump_after_cards": 3}),
    "trump_after_cards 5.0": replay("bauerchen", options={"trump_after_cards": 5.0}),
    "target_steine too big": replay("bauerchen", options={"target_steine": 11}),
    "rams unit too big": replay("rams", options={"unit": 1e308}),
    "rams unit negative": replay("rams", options={"unit": -1}),
    "rams unit a string": replay("rams", options={"unit": "1"}),
    "rams fee too big": replay("rams", options={"kartoffel_fee": 1000.5}),
    "rams target a float": replay("rams", options={"target": 21.0}),
    "rams target too big": replay("rams", options={"target": 101}),
    # deal
    "deal extra key": with_deal("bauer", rest=[]),
    "deal without hands": replay("bauer", deal={}),
    "card not a string": with_deal("bauer", hands=[[1] + h[1:] for h in BASE["bauer"]["deal"]["hands"]]),
    "card in lower case": with_deal("bauer", hands=[[h[0].lower()] + h[1:] for h in BASE["bauer"]["deal"]["hands"]]),
    "blind outside rams": with_deal("bauer", blind=["AS"]),
    "rams blind too short": with_deal("rams", blind=BASE["rams"]["deal"]["blind"][:4]),
    # match
    "match unknown key": replay("bauernstoss", match={"deal_no": 1, "score": [0, 0]}),
    "striche as strings": replay("bauernstoss", match={"deal_no": 1, "striche": ["1", 0]}),
    "striche as floats": replay("bauernstoss", match={"deal_no": 1, "striche": [1.0, 0]}),
    "striche negative": replay("bauernstoss", match={"deal_no": 1, "striche": [-1, 0]}),
    "three striche": replay("bauernstoss", match={"deal_no": 1, "striche": [0, 0, 0]}),
    "chalk 2": replay("bauernstoss", match={"deal_no": 2, "chalk": 2}),
    "chalk true": replay("bauernstoss", match={"deal_no": 2, "chalk": True}),
    "chalk a float": replay("bauernstoss", match={"deal_no": 2, "chalk": 0.0}),
    "deal_no 0": replay("bauernstoss", match={"deal_no": 0}),
    "deal_no a float": replay("bauernstoss", match={"deal_no": 1.0}),
    "winner set": replay("bauernstoss", match={"deal_no": 1, "winner": 0}),
    "striche at target": replay("bauernstoss", match={"deal_no": 2, "chalk": 0, "striche": [20, 0]}),
    "chalk in the first deal": replay("bauernstoss", match={"deal_no": 1, "chalk": 0}),
    "no chalk in a later deal": replay("bauernstoss", match={"deal_no": 2}),
    "bauerchen score at the round's end": replay("bauerchen", match={"score": [12, 0]}),
    "bauerchen knoddel 2": replay("bauerchen", match={"knoddel": [2, 0]}),
    "bauerchen steine at target": replay("bauerchen", match={"steine": [1, 0]}),
    "bauerchen score a float": replay("bauerchen", match={"score": [1.0, 0]}),
    "bauer score 0": replay("bauer", match={"score": [0, 8]}),
    "bauer brote at target": replay("bauer", match={"brote": [3, 0]}),
    "rams two ranked": replay("rams", match={"tricks": [21, 21, 0, 0], "ranking": [0, 1]}),
    "rams winner set": replay("rams", match={"winner": 0}),
    "rams settlement set": replay("rams", match={"settlement": [1, -1, 0, 0]}),
    "rams ranking not the seats at target": replay("rams", match={"tricks": [21, 0, 0, 0]}),
    "rams tricks of the wrong length": replay("rams", match={"tricks": [0, 0, 0]}),
    "rams ranking repeats a seat": replay("rams", match={"tricks": [21, 0, 0, 0], "ranking": [0, 0]}),
    # actions: every one of the list, also after an illegal one
    "action not an object": with_action("bauer", ["play", "AS"]),
    "action without seat": with_action("bauer", {"action": "stoss"}),
    "seat a string": with_action("bauer", {"seat": "0", "action": "stoss"}),
    "seat a float": with_action("bauer", {"seat": 0.0, "action": "stoss"}),
    "seat a boolean": with_action("bauer", {"seat": False, "action": "stoss"}),
    "unknown action": with_action("bauer", {"seat": 0, "action": "fly"}),
    "action name not a string": with_action("bauer", {"seat": 0, "action": 1}),
    "missing card": with_action("bauer", {"seat": 0, "action": "play"}),
    "extra key": with_action("bauer", {"seat": 0, "action": "stoss", "card": "AS"}),
    "card XX": with_action("bauer", {"seat": 0, "action": "play", "card": "XX"}),
    "card 1C": with_action("bauer", {"seat": 0, "action": "play", "card": "1C"}),
    "card jc": with_action("bauer", {"seat": 0, "action": "play", "card": "jc"}),
    "card 10H": with_action("bauer", {"seat": 0, "action": "play", "card": "10H"}),
    "suit X": with_action("bauer", {"seat": 0, "action": "name_trump", "suit": "X"}),
    "solo kind medium": with_action("bauernstoss", {"seat": 0, "action": "solo", "kind": "medium"}),
    "meld a string": with_action("bauerchen", {"seat": 0, "action": "play", "card": "AS", "meld": "true"}),
    "meld on another action": with_action("bauer", {"seat": 0, "action": "stoss", "meld": False}),
    "bad action after an illegal one": replay("bauer", actions=[
        {"seat": 3, "action": "stoss"}, {"seat": 9, "action": "play", "card": "AS"}, {"seat": 0, "action": "fly"}]),
}

VALID = {
    "seat not at the table": with_action("bauer", {"seat": -1, "action": "stoss"}),
    "seat too big": with_action("bauer", {"seat": 4, "action": "stoss"}),
    "a card of another deck": with_action("bauerchen", {"seat": 0, "action": "play", "card": "9C"}),
    "meld where none is possible": with_action("bauer", {"seat": 0, "action": "play", "card": "AS", "meld": True}),
    "match null": replay("bauer", match=None),
    "players left out": without("bauer", "players"),
    "rams target null, whole unit": replay("rams", options={"target": None, "unit": 2, "kartoffel_fee": 0}),
    "bounds included": replay("bauernstoss", options={"target": 100}),
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_file_is_refused(name, tmp_path, capsys):
    with pytest.raises(ReplayError) as exc:
        load(json.dumps(INVALID[name]))
    assert "\n" not in str(exc.value)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(INVALID[name]))
    assert main(["replay", str(path)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1


@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_file_replays(name):
    load(json.dumps(VALID[name]))


@pytest.mark.parametrize("text", ["{not json", '{"game": NaN}', '{"players": Infinity}', '{"dealer": ' + "9" * 5000 + "}",
                                  '{"game": "bauer", "deal": {"hands": []}, "options": {"target_brote": -Infinity}}'])
def test_text_that_is_not_json_is_refused(text):
    with pytest.raises(ReplayError):
        load(text)


def test_replay_command_exits_2_with_one_line(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(INVALID["target too big"]))
    assert main(["replay", str(path)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1
    assert "target" in out.err and "1 to 100" in out.err
