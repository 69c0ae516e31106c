"""Makes tests/support importable from every test directory (the test directories are not packages)."""

import sys
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))

# `tests` is this directory, a namespace package (`from tests.rules.standard.builder import ...`). The
# `glicko2` wheel (pyproject.toml) installs a top-level regular package named `tests` of its own, which
# Python's import system prefers to a namespace package wherever it stands on sys.path: name this one first.
_here = types.ModuleType("tests")
_here.__path__ = [str(Path(__file__).resolve().parent)]
_here.__file__ = None
sys.modules["tests"] = _here
