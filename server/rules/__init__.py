"""Vedette's rules core: a pure, deterministic referee for Musket & Saber Quick Play.

No I/O, no web framework, no database, no asyncio: a scenario, a seed and a
list of commands always lead to the same state.
"""

from .dice import seed_hash
from .errors import IllegalCommand, MalformedCommand, NotYourDecision
from .game import Game, verify_record
from .hexes import Hex, HexGrid, OffsetCoord, hexside_key, line_of_sight
from .ruleset import QuickPlay, Ruleset, find_ruleset
from .scenario import Scenario, ScenarioError, UnitKind, parse_scenario, scenario_from_json_text
from .state import GameState, Phase, Status, UnitState
from .views import event_visible, filter_events, scenario_json_for

__all__ = [
    "Game", "GameState", "Hex", "HexGrid", "IllegalCommand", "MalformedCommand", "NotYourDecision",
    "OffsetCoord", "Phase", "QuickPlay", "Ruleset", "Scenario", "ScenarioError", "Status", "UnitKind",
    "UnitState", "event_visible", "filter_events", "find_ruleset", "hexside_key", "line_of_sight", "parse_scenario",
    "scenario_from_json_text", "scenario_json_for", "seed_hash", "verify_record",
]
