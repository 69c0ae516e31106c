"""Issue 2, item 1: the rules core imports nothing from web, database or asyncio code and does no I/O."""

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "server" / "rules"
ALLOWED_TOP_LEVEL = {
    "__future__", "dataclasses", "enum", "functools", "typing", "json", "hashlib", "hmac", "heapq",
    "itertools", "collections", "random", "time", "importlib", "math", "jsonschema",
}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval"}


def _modules():
    return sorted(RULES.glob("*.py"))


def test_rules_core_imports_only_the_standard_library_and_jsonschema():
    for path in _modules():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [(node.module or "").split(".")[0]]
            else:
                continue
            for name in names:
                assert name in ALLOWED_TOP_LEVEL, f"{path.name} imports {name}"


def test_rules_core_makes_no_io_calls():
    for path in _modules():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls {node.func.id}()"


def test_time_is_used_only_by_the_simulator_for_its_report():
    for path in _modules():
        if "import time" in path.read_text():
            assert path.name == "randomplayer.py", path.name
