"""The `standard-1866` scenario (issue 37's proving ground, docs/scenarios.md "The Swiepwald, 3 July 1866"): it is
generated, it validates, its units and hexes agree, Königgrätz's special rules that the format has are on, and the
service offers it in the lobby."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from server.rules import parse_scenario
from server.rules.kernel.state import UnitState
from server.rules.standard.retreat import SAFE, retreat_lines
from server.rules.standard.scenario import Kind, StandardScenario

from .shipped import generated, scenario_fixtures

ROOT = Path(__file__).resolve().parents[3]
PATH = ROOT / "scenarios" / "standard" / "standard-1866.json"
COMBAT = (Kind.INFANTRY, Kind.BATTALION, Kind.CAVALRY, Kind.SQUADRON, Kind.ARTILLERY)


data, sc = scenario_fixtures(PATH)


def test_the_file_is_the_generators_output(data: dict[str, Any]) -> None:
    assert generated("standard_1866") == data, "stale: run scenarios/tools/build_scenarios.py"


def test_it_parses_by_the_standard_rules(data: dict[str, Any], sc: StandardScenario) -> None:
    assert isinstance(parse_scenario(data, str(PATH)), StandardScenario)
    assert sc.id == "standard-1866" and (sc.grid.columns, sc.grid.rows) == (20, 15)
    assert 6 <= sc.turns <= 10 and all(b.light == "day" for b in sc.trt)


def test_3_1_13_1_every_unit_is_set_up_or_arrives_once_on_its_own_edge(sc: StandardScenario) -> None:
    """Each unit once: set up on a hex, in a set-up area (17.2), in hidden movement box A (19.8), or a reinforcement."""
    assert sc.hidden_movement is not None
    boxed = [u for box in sc.hidden_movement.boxes for u in box.units]
    placed = [p.unit for p in sc.setup] + list(sc.areas) + boxed + [r.unit for r in sc.reinforcements]
    assert sorted(placed) == sorted(sc.units)
    for r in sc.reinforcements:
        side = sc.sides[sc.units[r.unit].side]
        assert r.hex in side.entry_hexes, r
        col = int(r.hex[:2])
        assert col == (1 if side.edge == "west" else sc.grid.columns), r


def test_2_4_each_side_has_an_hq_trains_leaders_and_8_to_14_combat_units(sc: StandardScenario) -> None:
    """17.4 (S63): the Prussian army has its HQ and no trains; the Austrian both."""
    for side in sc.side_order:
        kinds = Counter(u.kind for u in sc.units.values() if u.side == side)
        assert kinds[Kind.HQ] == 1 and kinds[Kind.TRAINS] == (1 if side == "austria" else 0), side
        assert 2 <= kinds[Kind.LEADER] <= 3, side
        assert 8 <= sum(kinds[k] for k in COMBAT) <= 14, side


def test_19_1_the_austrian_brigades_are_sub_formations_of_two_regiments_and_a_jager_battalion(
        sc: StandardScenario) -> None:
    corps = sc.formations["4"]
    assert corps.side == "austria" and corps.sub_formations == ("1", "2", "3")
    for sub in corps.sub_formations:
        kinds = sorted(u.kind.value for u in sc.units.values() if u.sub_formation == sub
                       and u.kind in (Kind.INFANTRY, Kind.BATTALION))
        assert kinds == ["battalion", "infantry", "infantry"], sub


def test_19_9_prussian_infantry_has_the_higher_combat_factors(sc: StandardScenario) -> None:
    def cfs(side: str) -> set[int]:
        return {u.full.cf for u in sc.units.values() if u.side == side and u.kind is Kind.INFANTRY and u.full}
    assert min(cfs("prussia")) > max(cfs("austria"))


def test_12_1_12_3_infantry_starts_with_a_safe_line_of_retreat(sc: StandardScenario) -> None:
    units = {p.unit: UnitState(p.unit, p.hex) for p in sc.setup}
    for side in sc.side_order:
        lines = retreat_lines(sc, units, side, side, "infantry")
        for p in sc.setup:
            if sc.units[p.unit].side == side and sc.units[p.unit].kind is Kind.INFANTRY:
                assert lines.line(p.hex) == SAFE, p.unit


def test_19_4_19_5_19_9_19_10_the_special_rules_are_on(sc: StandardScenario) -> None:
    assert sc.weather is not None and sc.weather.start == "heavy"  # 17.1: heavy rain on turn 1
    assert sc.special.needle_gun is not None and sc.special.needle_gun.side == "prussia"
    assert sc.special.open_order is not None and sc.special.open_order.side == "prussia"
    assert sc.special.lethargy is not None and sc.special.lethargy.side == "austria"
    assert sc.special.lethargy.active == frozenset({1, 2, 3})


def test_19_2_19_6_ridges_fieldworks_and_the_battery_position_are_map_data(sc: StandardScenario) -> None:
    assert len(sc.ridges) >= 2
    battery = [h for h, ts in sc.hex_secondary.items() if "battery_position" in ts]
    assert len(battery) == 2
    works = [k for k, fs in sc.hexsides.items() if "fieldworks" in fs]
    assert works and all(set(k) & set(battery) for k in works)
    # 19.6: the icon and the protected hexsides (which also give 19.4's light-rain LOS bonus, S66)
    assert sc.secondary["battery_position"].battery_position and sc.hexside_features["fieldworks"].protected
    assert sc.special.battery_positions is not None and sc.special.battery_positions.side == "austria"
    austrian_guns = {a.unit: a for a in sc.areas.values() if sc.units[a.unit].kind is Kind.ARTILLERY}
    assert set(austrian_guns) == {"a-art", "a-bbty"}  # 17.2: set up in the battery position's two hexes
    assert all(a.area.hexes == frozenset(battery) and a.printed in battery for a in austrian_guns.values())


def test_4_6_the_roads_cross_the_bistritz_and_the_prussian_edge_has_two_entry_hexes(sc: StandardScenario) -> None:
    streams = {k for k, fs in sc.hexsides.items() if "stream" in fs}
    assert len(streams) >= 10
    assert len(streams & set(sc.road_links)) == 2  # the Benatek road and the Sadowa chaussée
    assert len(sc.sides["prussia"].entry_hexes) == 2
    assert set(sc.sides["prussia"].loc) == set(sc.sides["prussia"].entry_hexes)
    assert sc.trail_links


def test_2_2_it_has_woods_light_woods_villages_and_hills(sc: StandardScenario) -> None:
    terrains = Counter(sc.hex_terrain.values())
    assert terrains["woods"] >= 10 and terrains["light_woods"] >= 10 and terrains["hill"] >= 10
    villages = [h for h, ts in sc.hex_secondary.items() if "village" in ts]
    assert len(villages) == 5
    objectives = {o.name: o for o in sc.victory.objectives}
    assert objectives["Benatek"].scorer == "austria" and objectives["Swiepwald"].scorer == "prussia"


def test_the_service_offers_it_in_the_lobby() -> None:
    from server.scenarios import load_scenarios

    registry = load_scenarios(ROOT / "scenarios")
    assert "standard-1866" not in registry.problems and "standard/standard-1866.json" not in registry.problems
    entry = registry.get("standard-1866")
    assert entry is not None and entry.summary["ruleset"] == "standard"
    assert entry.summary["sides"] == {"prussia": "Prussian First Army (7th and 8th Divisions)",
                                      "austria": "Austrian North Army (IV Corps)"}


def test_19_7_the_austrian_infantry_starts_where_it_may_form_a_line(sc: StandardScenario) -> None:
    # 19.7 A (to come): a line is formed in a clear or light woods hex; the brigades on the field start on such ground
    for p in sc.setup:
        u = sc.units[p.unit]
        if u.side == "austria" and u.kind is Kind.INFANTRY:
            assert sc.hex_terrain.get(p.hex, sc.default_terrain) in ("clear", "light_woods"), p
