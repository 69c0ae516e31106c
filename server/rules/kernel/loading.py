"""Reading a scenario of any edition: `parse_scenario` hands it to the reader of its edition, found in the
registry by the scenario's `ruleset` (edition.py), and `scenario_from_json_text` does so from JSON text.

It sits above both the kernel's own scenario format (scenario.py, whose `read_scenario` reads a scenario
that names no ruleset) and the registry of editions, so that neither of those imports the other.
"""

from __future__ import annotations

import json
from typing import Any

from .edition import find_ruleset, known_rulesets
from .model import ScenarioModel
from .scenario import ScenarioError, read_scenario


def parse_scenario(data: Any, source: str = "<scenario>") -> ScenarioModel:
    """Validate and build a scenario with the reader of its edition (the registry, by its `ruleset`);
    raises ScenarioError naming every problem.  A ruleset no playable edition has is refused here."""
    ruleset = data.get("ruleset") if isinstance(data, dict) else None
    if isinstance(ruleset, str):
        if ruleset not in known_rulesets():
            raise ScenarioError(source, [("ruleset", (f"ruleset '{ruleset}' is not implemented yet "
                                                      f"(available: {', '.join(known_rulesets())})"))])
        return find_ruleset(ruleset).parse_scenario(data, source)
    return read_scenario(data, source)


def scenario_from_json_text(text: str, source: str = "<scenario>") -> ScenarioModel:
    """Parse scenario JSON text, turning a syntax error into a ScenarioError with line and column."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ScenarioError(source, [("", f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}")]) from None
    return parse_scenario(data, source)
