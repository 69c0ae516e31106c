"""Issue 45: the house's shape, checked. The import contracts themselves run as `lint-imports` in `make test`
(pyproject.toml, drawn in docs/architecture.md); these tests check what import-linter does not (another
module's underscore names, file sizes) and that the contracts can fail at all."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "server"
WEB_JS = ROOT / "web" / "js"
# A file a reader can hold in mind; the limit ("no file over about 800 lines").
MAX_LINES = 800


def _private_reaches(path: Path, root: Path = ROOT) -> list[str]:
    """Every use, in one module, of another module's underscore name: `from x import _y` and `x._y` where
    `x` is a module (or a name imported from one) bound by an import in this file."""
    tree = ast.parse(path.read_text(), filename=str(path))
    imported: set[str] = set()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{path.relative_to(root)}:{node.lineno}: imports {alias.name}")
                imported.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                imported.add((alias.asname or alias.name).split(".")[0])
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                and isinstance(node.value, ast.Name) and node.value.id in imported):
            found.append(f"{path.relative_to(root)}:{node.lineno}: uses {node.value.id}.{node.attr}")
    return found


def test_no_module_uses_another_modules_underscore_names() -> None:
    found = [hit for path in sorted(SERVER.rglob("*.py")) for hit in _private_reaches(path)]
    assert found == [], "make the name public and name it for what it does:\n" + "\n".join(found)


def test_the_underscore_scan_finds_a_planted_reach(tmp_path: Path) -> None:
    planted = tmp_path / "m.py"
    planted.write_text("from .moving import _done\nfrom . import legal\nx = legal._singles\n")
    assert _private_reaches(planted, tmp_path) == ["m.py:1: imports _done", "m.py:3: uses legal._singles"]


@pytest.mark.parametrize("tree,suffix", [(SERVER, "*.py"), (WEB_JS, "*.js")])
def test_no_file_over_the_limit(tree: Path, suffix: str) -> None:
    long = {str(p.relative_to(ROOT)): n for p in sorted(tree.rglob(suffix))
            if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}, f"split these by what they hold (over {MAX_LINES} lines): {long}"


def _lint_imports(project: Path) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).with_name("lint-imports")
    return subprocess.run([str(exe), "--no-cache"], cwd=project, capture_output=True, text=True, timeout=300, check=False,
                          env={"PATH": str(exe.parent), "PYTHONPATH": str(project)})


@pytest.mark.parametrize("edits", [
    [("rules/kernel/hexes.py", "from . import dice\n"), ("rules/kernel/dice.py", "from . import hexes\n")],
    [("rules/standard/__init__.py", "from ..quickplay import ruleset as _other\n")],
    [("rules/kernel/dice.py", "import asyncio\n")],
    [("services/__init__.py", "from ..api import deps as _routes\n")],
    [("notify/__init__.py", "from ..api.routes import games as _routes\n")],
], ids=["circle", "edition-imports-edition", "rules-import-asyncio", "services-import-routes", "notify-imports-routes"])
def test_the_import_contracts_fail_on_a_planted_violation(tmp_path: Path, edits: list[tuple[str, str]]) -> None:
    """A copy of the project with one bad import added: `lint-imports` passes on the copy as it is and
    fails once the import is added, so the contracts in `make test` are not a check that cannot fail."""
    project = tmp_path / "project"
    shutil.copytree(SERVER, project / "server", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", project / "pyproject.toml")
    clean = _lint_imports(project)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    for rel, line in edits:
        target = project / "server" / rel
        target.write_text(target.read_text() + line)
    broken = _lint_imports(project)
    assert broken.returncode != 0, broken.stdout + broken.stderr
    assert "BROKEN" in broken.stdout


# The lobby's catalogue of edition titles names each edition, the lobby's lists being no edition's module.
EDITION_CATALOGUE = {WEB_JS / "ui" / "lobbylists.js"}


def test_no_page_module_outside_the_editions_names_an_edition() -> None:
    """The page's core and shared modules know no edition: what differs lives in web/js/editions/, chosen by
    the game's ruleset (docs/architecture.md, "The page")."""
    editions_dir = WEB_JS / "editions"
    named = re.compile(r"standard|quick ?play|horse-and-musket|musket-and-pike|musket & pike|horse and musket",
                       re.IGNORECASE)
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
             for p in sorted(WEB_JS.rglob("*.js")) if editions_dir not in p.parents and p not in EDITION_CATALOGUE
             for n, line in enumerate(p.read_text().splitlines(), 1) if named.search(line)]
    assert found == [], "move it into the edition's module under web/js/editions/:\n" + "\n".join(found)
