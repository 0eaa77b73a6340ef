"""The import contracts of design.md hold (import-linter, configured in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_hold():
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert lint, "import-linter is not installed (pip install -e .[test])"
    proc = subprocess.run([lint], cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "BROKEN" not in proc.stdout and proc.stdout.count("KEPT") >= 4, proc.stdout


def test_no_module_imports_itself_through_others():
    """No import circle of modules anywhere, also not through imports inside functions or a package's __init__."""
    import grimp

    graph = grimp.build_graph("engine", "bot", "adapters")
    circles = []
    for module in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(module):
            if imported != module and graph.chain_exists(imported, module):
                circles.append((module, *graph.find_shortest_chain(imported, module)))
    assert not circles, "\n".join(" -> ".join(c) for c in circles[:10])


def test_every_room_says_what_it_holds():
    """Every package of the source has an ``__init__.py`` whose docstring says what the package holds."""
    import ast

    for top in ("engine", "bot", "adapters"):
        for folder in [ROOT / top, *(p for p in (ROOT / top).rglob("*") if p.is_dir() and p.name != "__pycache__")]:
            if not any(folder.glob("*.py")):
                continue
            init = folder / "__init__.py"
            assert init.exists(), f"{folder.relative_to(ROOT)} has no __init__.py"
            doc = ast.get_docstring(ast.parse(init.read_text()))
            assert doc and len(doc.split()) >= 4, f"{init.relative_to(ROOT)} does not say what the package holds"


def test_no_module_is_longer_than_500_lines():
    """Every module of bot/ and adapters/ holds one idea in at most 500 lines (a longer one is split by idea)."""
    long = {str(path.relative_to(ROOT)): n for top in ("bot", "adapters") for path in sorted((ROOT / top).rglob("*.py"))
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > 500}
    assert not long, long
