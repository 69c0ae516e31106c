"""Vedette's rules core: a pure, deterministic referee for Musket & Saber.

No I/O, no web framework, no database, no asyncio: a scenario, a seed and a
list of commands always lead to the same state.

`kernel/` is what every edition shares; each edition is its own package beside it
(`horse_and_musket/`, `musket_and_pike/`, `quickplay/`, `quickplay_2013/`, `standard/`), registered by ruleset id when imported here (docs/engine-contract.md).
"""

from . import (
    horse_and_musket,  # noqa: F401  (registers the `horse-and-musket` edition)
    musket_and_pike,  # noqa: F401  (registers the `musket-and-pike` edition)
    quickplay,  # noqa: F401  (registers the `quickplay` edition)
    quickplay_2013,  # noqa: F401  (registers the `quickplay-2013` edition)
    standard,  # noqa: F401  (registers the `standard` edition)
)
from .kernel.dice import seed_hash
from .kernel.edition import Edition, find_ruleset, known_rulesets
from .kernel.errors import IllegalCommand, MalformedCommand, NotYourDecision
from .kernel.game import Game, verify_record
from .kernel.hexes import Hex, HexGrid, OffsetCoord, hexside_key
from .kernel.hidden import redacted_extra
from .kernel.loading import parse_scenario, scenario_from_json_text
from .kernel.los import line_of_sight
from .kernel.scenario import Scenario, ScenarioError, UnitKind
from .kernel.state import GameState, Phase, Status, UnitState
from .kernel.views import scenario_json_for
from .kernel.visibility import event_visible, filter_events
from .quickplay import QuickPlay
from .quickplay.orders import STANDING_ORDERS, standing_order_choice, validate_orders
from .quickplay_2013 import QuickPlay2013
from .standard import Standard

Ruleset = Edition  # the name the service and older tests use

__all__ = [
    "STANDING_ORDERS",
    "Edition",
    "Game",
    "GameState",
    "Hex",
    "HexGrid",
    "IllegalCommand",
    "MalformedCommand",
    "NotYourDecision",
    "OffsetCoord",
    "Phase",
    "QuickPlay",
    "QuickPlay2013",
    "Ruleset",
    "Scenario",
    "ScenarioError",
    "Standard",
    "Status",
    "UnitKind",
    "UnitState",
    "event_visible",
    "filter_events",
    "find_ruleset",
    "hexside_key",
    "known_rulesets",
    "line_of_sight",
    "parse_scenario",
    "redacted_extra",
    "scenario_from_json_text",
    "scenario_json_for",
    "seed_hash",
    "standing_order_choice",
    "validate_orders",
    "verify_record",
]
