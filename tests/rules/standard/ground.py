"""Helpers for the Standard rules' movement and ZOC tests: a parsed scenario and the units' states."""

from __future__ import annotations

from typing import Any

from server.rules.kernel.state import UnitState
from server.rules.standard.scenario import StandardScenario, parse_standard_scenario


def board(data: dict[str, Any]) -> tuple[StandardScenario, dict[str, UnitState]]:
    """The scenario and every set-up unit's state at its set-up hex (with its set-up flags)."""
    sc = parse_standard_scenario(data, "t")
    units = {p.unit: UnitState(p.unit, p.hex, disrupted=p.disrupted, ineffective=p.ineffective, reduced=p.reduced)
             for p in sc.setup}
    return sc, units
