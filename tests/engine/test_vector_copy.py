"""The rule vectors under ``tests/data/vectors`` are an exact copy of the rules folder's vectors."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.vectors import SHARED_VECTORS, VECTORS


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.skipif(not SHARED_VECTORS.is_dir(),
                    reason="no rules folder beside the checkout (../shared/rules/vectors) to compare the copy with")
def test_the_copy_equals_the_rules_folder():
    ours, theirs = _files(VECTORS), _files(SHARED_VECTORS)
    assert sorted(ours) == sorted(theirs), "copy with: cp -r ../shared/rules/vectors/. tests/data/vectors/"
    changed = [name for name in ours if ours[name] != theirs[name]]
    assert changed == [], f"differ from ../shared/rules/vectors: {changed}"
