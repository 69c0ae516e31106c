"""The `standard-tutorial` scenario (issue 13): it validates under the Standard rules' schema, has what the issue
asks of it, and is read by `parse_scenario` now that the edition is playable (the service does not load it yet)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server.rules import parse_scenario
from server.rules.kernel.state import UnitState
from server.rules.standard.retreat import SAFE, retreat_lines
from server.rules.standard.scenario import Kind, StandardScenario

from .shipped import scenario_fixtures

ROOT = Path(__file__).resolve().parents[3]
PATH = ROOT / "scenarios" / "standard" / "standard-tutorial.json"


data, sc = scenario_fixtures(PATH)


def test_it_validates_and_has_every_kind_of_counter(sc: StandardScenario) -> None:
    kinds = {u.kind for u in sc.units.values()}
    assert kinds == set(Kind)
    assert any(u.full is not None and u.full.red_dot for u in sc.units.values())  # 11.2
    assert any(u.reduced is not None and u.reduced.red_dot for u in sc.units.values())
    assert any(u.full is not None and u.full.variable_ma and u.full.parenthesized for u in sc.units.values())  # 2.4


def test_3_2_14_2_14_3_its_trt_ends_in_twilight_and_night(sc: StandardScenario) -> None:
    assert sc.light(7) == "twilight" and sc.light(8) == "night"


def test_12_1_12_3_each_side_has_an_hq_trains_and_a_loc_with_safe_lines_at_the_start(sc: StandardScenario) -> None:
    units = {p.unit: UnitState(p.unit, p.hex) for p in sc.setup}
    for side in sc.side_order:
        assert side in sc.hq and side in sc.trains and sc.sides[side].loc
        lines = retreat_lines(sc, units, side, side, "infantry")
        for p in sc.setup:
            if sc.units[p.unit].side == side and sc.units[p.unit].kind is Kind.INFANTRY:
                assert lines.line(p.hex) == SAFE, p.unit


def test_4_6_it_has_roads_trails_and_secondary_terrain(sc: StandardScenario) -> None:
    assert sc.road_links and sc.trail_links and sc.hex_secondary


def test_it_is_playable_but_not_yet_offered_by_the_service(data: dict[str, Any]) -> None:
    assert PATH.parent != ROOT / "scenarios"  # the service loads scenarios/*.json only
    assert isinstance(parse_scenario(data, str(PATH)), StandardScenario)
