"""Loading the rule vectors and comparing a replay output with a vector's ``expect``.

The vectors are test data of this repository (``tests/data/vectors``), a copy of the rules folder's
``vectors``; ``tests/engine/test_vector_copy.py`` checks the copy against the rules folder where one is
beside the checkout.
"""

from __future__ import annotations

import json
from pathlib import Path

VECTORS = Path(__file__).resolve().parent / "data" / "vectors"
SHARED_VECTORS = Path(__file__).resolve().parents[2] / "shared" / "rules" / "vectors"


def vector_files() -> list[Path]:
    """Every vector file: the hand-worked ones and the generated ones."""
    return sorted(VECTORS.glob("*.json")) + sorted(VECTORS.glob("generated/*/*.json"))


def mismatches(expect: dict, out: dict) -> list[str]:
    """What in the replay output ``out`` differs from the vector's ``expect`` (empty if nothing)."""
    bad = []

    def check(name, want, got):
        if want != got:
            bad.append(f"{name}: expected {want!r}, got {got!r}")

    for key in ("ok", "to_act", "trump"):
        if key in expect:
            check(key, expect[key], out.get(key))
    if "error_index" in expect:
        check("error_index", expect["error_index"], (out.get("error") or {}).get("index"))
    if "legal_cards" in expect:
        check("legal_cards", sorted(expect["legal_cards"]),
              sorted({a["card"] for a in out["legal"] if a["action"] == "play"}))
    if "legal" in expect:
        check("legal", sorted(set(expect["legal"])), sorted({a["action"] for a in out["legal"]}))
    if "trick_winners" in expect:
        check("trick_winners", expect["trick_winners"], [t["winner"] for t in out["tricks"]])
    for part in ("result", "match"):
        if part in expect:
            got = out.get(part) or {}
            if expect[part] is None or not isinstance(got, dict):
                check(part, expect[part], out.get(part))
                continue
            for k, v in expect[part].items():
                check(f"{part}.{k}", v, got.get(k))
    return bad


def load_vector(path: Path) -> dict:
    """The parsed vector file."""
    return json.loads(path.read_text(encoding="utf-8"))
