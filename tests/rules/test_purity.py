"""Issue 2, item 1: the rules core imports nothing from web, database or asyncio code and does no I/O.
Issue 13 (shape): each edition is its own package over the kernel; the kernel imports no edition and no
edition imports another."""

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "server" / "rules"
ALLOWED_TOP_LEVEL = {
    "__future__", "dataclasses", "enum", "functools", "typing", "json", "hashlib", "hmac", "heapq",
    "itertools", "collections", "random", "time", "importlib", "math", "operator", "jsonschema",
    "difflib",  # "did you mean" for a scenario field's typo: pure string matching
    "re",  # 19.8 A: a scenario's public prose is searched for the names of units it hides: pure string matching
}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval"}
KERNEL = "kernel"


def _modules() -> list[Path]:
    return sorted(RULES.rglob("*.py"))


def _package(path: Path) -> str:
    """'kernel', an edition's package name, or '' for server/rules/__init__.py."""
    rel = path.relative_to(RULES)
    return rel.parts[0] if len(rel.parts) > 1 else ""


def _editions() -> list[str]:
    return sorted(p.name for p in RULES.iterdir() if p.is_dir() and (p / "__init__.py").exists() and p.name != KERNEL)


def _rules_imports(path: Path) -> list[tuple[int, str]]:
    return _imports_of(path.read_text(), path.relative_to(RULES).parts)


def _imports_of(source: str, rel_parts: tuple[str, ...]) -> list[tuple[int, str]]:
    """(line, package) for every import of a package of server/rules ('kernel', 'quickplay', ...) by the
    module at server/rules/<rel_parts>."""
    out = []
    tree = ast.parse(source)
    depth = len(rel_parts) - 1  # 0 for server/rules/x.py, 1 for server/rules/pkg/x.py
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                parts = (node.module or "").split(".")
                if parts[:2] == ["server", "rules"] and len(parts) > 2:
                    out.append((node.lineno, parts[2]))
                continue
            up = node.level - 1  # levels above the module's own package
            mod = (node.module or "").split(".") if node.module else []
            if up == depth and mod:  # from server/rules/pkg/x.py: `from ..other import` names `other`
                out.append((node.lineno, mod[0]))
            elif up == depth and not mod:  # `from .. import other`
                out.extend((node.lineno, a.name) for a in node.names)
            elif up < depth:  # inside its own package
                out.append((node.lineno, rel_parts[0]))
        elif isinstance(node, ast.Import):
            for a in node.names:
                parts = a.name.split(".")
                if parts[:2] == ["server", "rules"] and len(parts) > 2:
                    out.append((node.lineno, parts[2]))
    return out


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
                assert name in ALLOWED_TOP_LEVEL, f"{path.relative_to(RULES)} imports {name}"


def test_rules_core_makes_no_io_calls():
    for path in _modules():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, f"{path.relative_to(RULES)}:{node.lineno} calls {node.func.id}()"


def test_time_is_used_only_by_the_simulator_for_its_report():
    for path in _modules():
        if "import time" in path.read_text():
            assert path.name == "randomplayer.py", path.name


def test_the_purity_checks_see_every_package():
    """The checks above walk the kernel and every edition package, not only server/rules/*.py."""
    packages = {_package(p) for p in _modules()}
    assert {KERNEL, "quickplay"} <= packages
    assert set(_editions()) <= packages


def test_kernel_imports_no_edition():
    for path in RULES.joinpath(KERNEL).rglob("*.py"):
        for line, pkg in _rules_imports(path):
            assert pkg == KERNEL, f"kernel/{path.name}:{line} imports the edition package '{pkg}'"


def test_no_edition_imports_another():
    editions = _editions()
    assert "quickplay" in editions
    for edition in editions:
        for path in RULES.joinpath(edition).rglob("*.py"):
            for line, pkg in _rules_imports(path):
                assert pkg in (edition, KERNEL), f"{edition}/{path.name}:{line} imports '{pkg}'"


def test_the_import_checker_sees_cross_package_imports() -> None:
    """The checker itself: relative and absolute imports of another package are both reported."""
    src = "from ..standard import x\nfrom .. import kernel\nfrom . import combat\nfrom server.rules.standard import y\n"
    found = [pkg for _, pkg in _imports_of(src, ("quickplay", "probe.py"))]
    assert found == ["standard", "kernel", "quickplay", "standard"]
