"""Issue 15: the bots are pure like the rules core (no I/O, no web, database or asyncio code) and reach
the game only through the rules core's public API."""

import ast
from pathlib import Path

BOTS = Path(__file__).resolve().parents[2] / "server" / "bots"
ALLOWED = {"__future__", "collections", "dataclasses", "typing", "json", "math", "random", "statistics", "time"}
ALLOWED_SERVER = {"server.rules", "server.rules.kernel.randomplayer", "server.rules.kernel.invariants"}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval"}


def test_bots_import_only_the_standard_library_and_the_rules_cores_public_api():
    files = sorted(BOTS.glob("*.py"))
    assert files
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                for a in node.names:
                    assert a.name.split(".")[0] in ALLOWED, f"{path.name} imports {a.name}"
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                mod = node.module or ""
                assert mod.split(".")[0] in ALLOWED or mod in ALLOWED_SERVER, f"{path.name} imports {mod}"
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls {node.func.id}()"


def test_only_the_arena_and_the_belief_builder_touch_a_real_game():
    """Bots get a belief game; `belief.py` builds it and `arena.py` drives real games (invariants)."""
    for path in sorted(BOTS.glob("*.py")):
        text = path.read_text()
        if path.name not in ("belief.py", "arena.py", "__init__.py"):
            assert "belief_game(" not in text, path.name
        assert "._seed" not in text, path.name  # the real seed (Game._seed) is never read
