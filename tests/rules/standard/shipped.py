"""The module fixtures of a test of a shipped Standard scenario file (test_tutorial.py, test_standard_1866.py,
test_koniggratz.py): `data`, the file's JSON, and `sc`, the scenario the Standard reader makes of it."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from server.rules.standard.scenario import StandardScenario, parse_standard_scenario


def scenario_fixtures(path: Path) -> tuple[Any, Any]:
    """`data, sc = scenario_fixtures(PATH)` in a test module gives it the two fixtures."""

    @pytest.fixture(scope="module")
    def data() -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads(path.read_text("utf-8"))
        return loaded

    @pytest.fixture(scope="module")
    def sc(data: dict[str, Any]) -> StandardScenario:
        return parse_standard_scenario(data, str(path))

    return data, sc


def generated(tool: str) -> dict[str, Any]:
    """What `scenarios/tools/<tool>.py` builds now (the shipped file must be it: build_scenarios.py --check)."""
    tools = str(Path(__file__).resolve().parents[3] / "scenarios" / "tools")
    sys.path.insert(0, tools)
    try:
        built: dict[str, Any] = importlib.import_module(tool).build()
    finally:
        sys.path.remove(tools)
    return built
