"""Shared fixtures for the per-rule tests (tests/rules/{kernel,quickplay}/test_*.py); the builder is in position.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from position import Position

from server.rules import Scenario, parse_scenario

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pos() -> Position:
    """A blank 10x8 clear map with the test TEC, blue entering from the west (0104), red from the east (1004)."""
    return Position()


@pytest.fixture(scope="session")
def tutorial_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ROOT / "scenarios" / "tutorial.json").read_text("utf-8"))
    return data


@pytest.fixture(scope="session")
def tutorial(tutorial_data: dict[str, Any]) -> Scenario:
    return parse_scenario(tutorial_data, "scenarios/tutorial.json")
