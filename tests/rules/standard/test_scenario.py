"""The Standard rules' scenario schema (seed 002): counters and map (2.x), TRT (3.2, 14.2, 14.3),
HQ/trains/LOC (12.1-12.3), sub-formations (19.1); a scenario mixing Quick Play's fields is refused
with the field named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from server.rules import ScenarioError, parse_scenario
from server.rules.standard.scenario import Kind, StandardScenario, parse_standard_scenario

from .builder import find, standard_data, unit

ROOT = Path(__file__).resolve().parents[3]


def problems(data: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(ScenarioError) as e:
        parse_standard_scenario(data, "t")
    return e.value.problems


def refused(data: dict[str, Any], path: str, *words: str) -> str:
    found = problems(data)
    reasons = [r for p, r in found if p == path]
    assert reasons, f"no problem at {path}: {found}"
    for w in words:
        assert any(w in r for r in reasons), (w, reasons)
    return reasons[0]


def test_the_test_ground_parses() -> None:
    sc = parse_standard_scenario(standard_data(), "t")
    assert sc.ruleset == "standard" and sc.turns == 4
    assert sc.units["b-1"].kind is Kind.INFANTRY and sc.units["b-1"].steps == 2


# --- 2.2 the map ------------------------------------------------------------------------------------
def test_2_2_each_hex_has_a_primary_and_any_secondary_terrain() -> None:
    data = standard_data()
    data["map"]["hexes"]["0505"] = "woods"
    data["map"]["secondary"]["0505"] = ["village", "crest"]
    sc = parse_standard_scenario(data, "t")
    assert sc.terrain_at("0505").id == "woods"
    assert [s.id for s in sc.secondary_at("0505")] == ["village", "crest"]
    assert sc.terrain_at("0606").id == "clear" and sc.secondary_at("0606") == ()


def test_2_2_unknown_primary_and_secondary_terrain_are_named() -> None:
    data = standard_data()
    data["map"]["hexes"]["0505"] = "jungle"
    data["map"]["secondary"]["0506"] = ["castle"]
    found = dict(problems(data))
    assert "jungle" in found["map.hexes.0505"]
    assert "castle" in found["map.secondary.0506"]


def test_2_2_the_tec_must_name_its_clear_terrain() -> None:
    data = standard_data()
    del data["tec"]["terrain"]["clear"]["clear"]
    refused(data, "tec.terrain", "clear")


def test_4_6_roads_and_trails_are_separate_paths() -> None:
    data = standard_data()
    data["map"]["roads"] = [{"path": ["0104", "0204", "0304"]}]
    data["map"]["trails"] = [{"name": "farm track", "path": ["0304", "0305", "0306"]}]
    sc = parse_standard_scenario(data, "t")
    assert ("0104", "0204") in sc.road_links and ("0304", "0305") in sc.trail_links
    assert "0305" in sc.trail_hexes and "0305" not in sc.road_hexes


def test_4_6_a_trail_step_between_hexes_that_do_not_touch_is_refused() -> None:
    data = standard_data()
    data["map"]["trails"] = [{"path": ["0304", "0306"]}]
    refused(data, "map.trails[0].path[1]", "trail step")


# --- 2.4-2.9 the counters ----------------------------------------------------------------------------
def test_2_4_parenthesised_cf_v_ma_and_bracketed_ma() -> None:
    data = standard_data()
    unit(data, "b-mil", kind="infantry", formation="2", steps=1,
         full={"cf": 3, "parenthesized": True, "mr": 3, "ma": "V", "bracketed": True})
    u = parse_standard_scenario(data, "t").units["b-mil"]
    assert u.full is not None
    assert u.full.parenthesized and u.full.bracketed and u.full.variable_ma and u.full.ma is None


def test_2_4_ma_is_a_number_or_v() -> None:
    data = standard_data()
    find(data, "b-1")["full"]["ma"] = "W"
    assert any(p.startswith("units[4].full") for p, _ in problems(data))


@pytest.mark.parametrize("formation", ["0", "A"])
def test_2_4_formation_0_and_a_need_no_definition(formation: str) -> None:
    data = standard_data()
    unit(data, "b-x", kind="battalion", formation=formation, full={"cf": 1, "mr": 4, "ma": 5},
         ineffective={"cf": 0, "mr": 2, "ma": 5})
    assert parse_standard_scenario(data, "t").units["b-x"].formation == formation


def test_2_4_a_unit_needs_a_known_formation_of_its_own_side() -> None:
    data = standard_data()
    find(data, "b-1")["formation"] = "9"
    refused(data, "units[4].formation", "'9'")
    data = standard_data()
    find(data, "b-1")["formation"] = "7"
    refused(data, "units[4].formation", "other side")


def test_19_1_sub_formations_belong_to_their_formation() -> None:
    data = standard_data()
    find(data, "b-1")["sub_formation"] = "a"
    assert parse_standard_scenario(data, "t").units["b-1"].sub_formation == "a"
    find(data, "b-1")["sub_formation"] = "z"
    refused(data, "units[4].sub_formation", "19.1")


def test_2_4_a_combat_unit_carries_its_printed_unit_id() -> None:
    data = standard_data()
    find(data, "b-1")["unit_id"] = "27"
    add = unit(data, "b-2", kind="infantry", formation="1", unit_id="27", full={"cf": 4, "mr": 4, "ma": 4},
               reduced={"cf": 2, "mr": 3, "ma": 4})
    sc = parse_standard_scenario(data, "t")
    assert sc.units["b-1"].unit_id == "27" and sc.units["b-2"].unit_id == "27" and add["unit_id"] == "27"
    assert sc.units["r-1"].unit_id is None  # 7.11's same-ID clause then finds no partner


@pytest.mark.parametrize("typo", ["unitid", "unit_ID", "unit-id", "Unit_id"])
def test_2_4_a_misspelt_unit_field_is_refused_with_the_field_named(typo: str) -> None:
    data = standard_data()
    find(data, "b-1")[typo] = "27"
    reason = refused(data, f"units[4].{typo}", "unit_id")
    assert f"'{typo}'" in reason


def test_2_4_a_leader_or_hq_has_no_unit_id() -> None:
    data = standard_data()
    find(data, "b-hq")["unit_id"] = "HQ"
    refused(data, "units[0].unit_id", "2.4")
    data = standard_data()
    unit(data, "b-ldr", kind="leader", formation="1", unit_id="1", leader={"combat": 1, "morale": 1, "movement": 2})
    refused(data, "units[6].unit_id", "2.4")


def test_2_4_7_11_units_sharing_a_unit_id_are_of_one_side_and_one_formation() -> None:
    data = standard_data()
    find(data, "b-1")["unit_id"] = "27"
    find(data, "r-1")["unit_id"] = "27"
    refused(data, "units[5].unit_id", "'27'", "side")
    data = standard_data()
    find(data, "b-1")["unit_id"] = "27"
    unit(data, "b-2", kind="infantry", formation="2", unit_id="27", full={"cf": 4, "mr": 4, "ma": 4},
         reduced={"cf": 2, "mr": 3, "ma": 4})
    refused(data, "units[6].unit_id", "'27'", "formation")
    data = standard_data()  # an "A" battalion shares every formation (2.4)
    find(data, "b-1")["unit_id"] = "27"
    unit(data, "b-bn", kind="battalion", formation="A", unit_id="27", full={"cf": 1, "mr": 4, "ma": 5},
         ineffective={"cf": 0, "mr": 2, "ma": 5})
    assert parse_standard_scenario(data, "t").units["b-bn"].unit_id == "27"


def test_2_5_a_two_step_unit_needs_its_reduced_side() -> None:
    data = standard_data()
    del find(data, "b-1")["reduced"]
    refused(data, "units[4].reduced", "2.5")


def test_2_5_a_one_step_brigade_has_no_reduced_side() -> None:
    data = standard_data()
    find(data, "b-1")["steps"] = 1
    refused(data, "units[4].reduced", "one-step")


@pytest.mark.parametrize("kind", ["battalion", "squadron", "cavalry", "artillery"])
def test_2_6_2_7_one_step_units_have_an_ineffective_side(kind: str) -> None:
    data = standard_data()
    front: dict[str, Any] = ({"attack": 3, "defense": 2, "range": 3, "ma": 3} if kind == "artillery"
                             else {"cf": 2, "mr": 4, "ma": 6, **({"charge": 3} if kind in ("squadron", "cavalry") else {})})
    unit(data, "b-x", kind=kind, formation="1", full=front)
    refused(data, "units[6].ineffective", "ineffective side")
    data2 = standard_data()
    unit(data2, "b-x", kind=kind, formation="1", steps=2, full=front, ineffective=dict(front))
    refused(data2, "units[6].steps", "one step")


def test_2_9_a_brigade_has_no_ineffective_side() -> None:
    data = standard_data()
    find(data, "b-1")["ineffective"] = {"cf": 0, "mr": 2, "ma": 4}
    refused(data, "units[4].ineffective", "2.9")


def test_8_1_artillery_attack_defence_range_and_mr_6_or_3_when_unprinted() -> None:
    data = standard_data()
    unit(data, "b-art", kind="artillery", formation="1", full={"attack": 4, "defense": 2, "range": 4, "ma": 3},
         ineffective={"attack": 1, "defense": 1, "range": 2, "ma": 3})
    u = parse_standard_scenario(data, "t").units["b-art"]
    assert u.full is not None and u.ineffective is not None
    assert (u.full.attack, u.full.defense, u.full.range, u.full.mr) == (4, 2, 4, 6)
    assert u.ineffective.mr == 3
    find(data, "b-art")["full"]["mr"] = 5
    assert parse_standard_scenario(data, "t").units["b-art"].full.mr == 5  # type: ignore[union-attr]


def test_8_1_artillery_has_no_single_cf() -> None:
    data = standard_data()
    unit(data, "b-art", kind="artillery", formation="1", full={"cf": 4, "attack": 4, "defense": 2, "range": 4, "ma": 3},
         ineffective={"attack": 1, "defense": 1, "range": 2, "ma": 3})
    assert any(p == "units[6].full" and "'cf'" in r for p, r in problems(data))


def test_9_3_cavalry_has_a_charge_factor_and_infantry_none() -> None:
    data = standard_data()
    unit(data, "b-cav", kind="cavalry", formation="1", full={"cf": 3, "mr": 4, "ma": 8},
         ineffective={"cf": 1, "mr": 2, "ma": 8})
    refused(data, "units[6].full.charge", "9.3(4)")
    data = standard_data()
    find(data, "b-1")["full"]["charge"] = 2
    refused(data, "units[4].full.charge", "only cavalry")


def test_11_2_a_red_dot_marks_each_step() -> None:
    data = standard_data()
    find(data, "b-1")["reduced"]["red_dot"] = True
    u = parse_standard_scenario(data, "t").units["b-1"]
    assert u.reduced is not None and u.full is not None
    assert u.reduced.red_dot and not u.full.red_dot
    unit(data, "b-bn", kind="battalion", formation="1", full={"cf": 1, "mr": 4, "ma": 5, "red_dot": True},
         ineffective={"cf": 0, "mr": 2, "ma": 5, "red_dot": True})
    refused(data, "units[6].ineffective.red_dot", "11.2")


def test_10_3_a_leader_has_factors_and_a_command_span() -> None:
    data = standard_data()
    unit(data, "b-ldr", kind="leader", formation="1", leader={"combat": 1, "morale": 1, "movement": 2},
         span=["1", "2"])
    u = parse_standard_scenario(data, "t").units["b-ldr"]
    assert u.span == ("1", "2") and u.leader is not None and u.leader.movement == 2
    find(data, "b-ldr")["span"] = ["1", "5"]
    refused(data, "units[6].span[1]", "10.3")
    data = standard_data()
    unit(data, "b-ldr", kind="leader", formation="1", leader={"combat": 1, "morale": 1, "movement": 2},
         full={"cf": 1, "mr": 1, "ma": 1})
    refused(data, "units[6].full", "leader")


def test_5_2_battalions_squadrons_leaders_and_hqs_do_not_count_for_stacking() -> None:
    counted = {k for k in Kind if k.counts_for_stacking}
    assert counted == {Kind.INFANTRY, Kind.CAVALRY, Kind.ARTILLERY}


# --- 3.2, 14.2, 14.3 the TRT ------------------------------------------------------------------------
def test_3_2_the_trt_has_one_box_per_turn_with_its_light() -> None:
    sc = parse_standard_scenario(standard_data(), "t")
    assert [b.light for b in sc.trt] == ["day", "day", "twilight", "night"]
    assert sc.light(3) == "twilight" and sc.light(4) == "night"
    assert sc.trt[0].replacements == {"blue": 1} and sc.trt[0].label == "1700"
    data = standard_data()
    data["turns"] = 5
    refused(data, "trt", "3.2")


def test_14_2_light_is_day_twilight_or_night() -> None:
    data = standard_data()
    data["trt"][1]["light"] = "dusk"
    assert any(p == "trt[1].light" for p, _ in problems(data))


# --- 12.1-12.3 HQ, trains, LOC ----------------------------------------------------------------------
def test_12_1_12_2_each_army_has_one_hq_and_at_most_one_trains() -> None:
    sc = parse_standard_scenario(standard_data(), "t")
    assert sc.hq == {"blue": "b-hq", "red": "r-hq"} and sc.trains == {"blue": "b-tr", "red": "r-tr"}
    assert sc.units["b-hq"].inactive_ma == 6
    data = standard_data()
    data["units"] = [u for u in data["units"] if u["id"] != "r-tr"]
    data["setup"] = [s for s in data["setup"] if s["unit"] != "r-tr"]
    assert parse_standard_scenario(data, "t").trains == {"blue": "b-tr"}  # S63: 17.4's armies have no trains
    data = standard_data()
    unit(data, "b-hq2", kind="hq", ma=5)
    refused(data, "units[6].army", "already has its hq")


def test_12_1_an_army_of_its_own_needs_its_own_hq() -> None:
    data = standard_data()
    data["formations"]["2"]["army"] = "elbe"
    assert ("units", "army 'elbe' of blue has no HQ (12.1)") in problems(data)
    unit(data, "b-hq-elbe", kind="hq", army="elbe", ma=6, hex="0206")
    unit(data, "b-tr-elbe", kind="trains", army="elbe", ma=4, hex="0106")
    sc = parse_standard_scenario(data, "t")
    assert sc.hq["elbe"] == "b-hq-elbe" and sc.formations["2"].army == "elbe"


def test_12_1_an_hq_has_only_its_inactive_ma() -> None:
    data = standard_data()
    find(data, "b-hq")["full"] = {"cf": 0, "mr": 1, "ma": 6}
    refused(data, "units[0].full", "12.1")
    data = standard_data()
    del find(data, "b-tr")["ma"]
    refused(data, "units[1].ma", "12.2")


def test_12_1_only_an_hq_or_trains_starts_inactive() -> None:
    data = standard_data()
    data["setup"][0]["inactive"] = True
    assert parse_standard_scenario(data, "t").setup[0].inactive
    data["setup"][4]["inactive"] = True
    refused(data, "setup[4].inactive", "12.1")


def test_12_3_each_side_names_its_loc_hexes_on_the_map() -> None:
    sc = parse_standard_scenario(standard_data(), "t")
    assert sc.sides["blue"].loc == ("0104",)
    data = standard_data()
    data["sides"]["red"]["loc"] = ["1299"]
    refused(data, "sides.red.loc[0]", "not on the")
    data = standard_data()
    del data["sides"]["red"]["loc"]
    assert any("loc" in r for _, r in problems(data))


def test_2_5_set_up_states_must_fit_the_counter() -> None:
    data = standard_data()
    data["setup"][4]["ineffective"] = True
    refused(data, "setup[4].ineffective", "2.9")
    data = standard_data()
    data["setup"][0]["disrupted"] = True
    refused(data, "setup[0].disrupted", "2.8")


def test_4_5_a_unit_may_not_set_up_in_prohibited_terrain() -> None:
    data = standard_data()
    data["map"]["hexes"]["0303"] = "marsh"
    unit(data, "b-art", kind="artillery", formation="1", hex="0303", full={"attack": 4, "defense": 2, "range": 4, "ma": 3},
         ineffective={"attack": 1, "defense": 1, "range": 2, "ma": 3})
    refused(data, "setup[6].hex", "prohibited")


# --- 2.2, 7.13(3), 9.3(1) the TEC's no-charge column and clear hexsides beside a terrain ---------------------
def test_7_13_3_9_3_1_the_tec_has_a_no_charge_column_with_9_3_1_as_its_default() -> None:
    data = standard_data()
    data["tec"]["terrain"]["woods"]["no_charge"] = ["infantry", "cavalry"]
    data["tec"]["secondary"]["crest"]["no_charge"] = []
    data["tec"]["hexsides"]["ford"]["no_charge"] = ["infantry", "cavalry"]
    sc = parse_standard_scenario(data, "t")
    assert sc.terrain["woods"].no_charge == {"infantry", "cavalry"}
    assert sc.terrain["clear"].no_charge == frozenset()  # 9.3(1): clear terrain is open to the charge
    assert sc.terrain["hill"].no_charge == {"cavalry"}  # unstated: 9.3(1) keeps cavalry to clear terrain
    assert sc.secondary["crest"].no_charge == frozenset() and sc.secondary["village"].no_charge == {"cavalry"}
    assert sc.hexside_features["ford"].no_charge == {"infantry", "cavalry"}
    assert sc.hexside_features["stream"].no_charge == {"cavalry"}


def test_9_3_1_a_terrain_that_is_not_clear_bars_the_cavalry_charge() -> None:
    data = standard_data()
    data["tec"]["terrain"]["woods"]["no_charge"] = ["infantry"]
    refused(data, "tec.terrain.woods.no_charge", "9.3(1)", "cavalry")


def test_7_13_3_only_charging_classes_stand_in_the_no_charge_column() -> None:
    data = standard_data()
    data["tec"]["terrain"]["woods"]["no_charge"] = ["artillery"]
    assert any(p.startswith("tec.terrain.woods.no_charge") for p, _ in problems(data))


def test_2_2_a_clear_hexside_beside_a_terrain_takes_the_tecs_effects() -> None:
    data = standard_data()
    data["tec"]["clear_hexsides"] = {"woods_edge": {"name": "Clear hexside beside woods", "beside": ["woods"],
                                                    "no_charge": ["cavalry"], "halves_attack_across": ["infantry"]}}
    data["map"]["hexes"].update({"0505": "woods", "0605": "woods"})
    data["map"]["hexsides"].append({"hexes": ["0505", "0504"], "features": ["stream"]})
    sc = parse_standard_scenario(data, "t")
    edge = sc.clear_hexsides["woods_edge"]
    assert edge.no_charge == {"cavalry"} and edge.halves_attack_across == {"infantry"}
    assert sc.hexside_effects("0505", "0405") == (edge,) == sc.hexside_effects("0405", "0505")  # the woods' edge
    assert sc.hexside_effects("0505", "0605") == ()  # woods on both sides: inside the woods, no edge
    assert [f.id for f in sc.hexside_effects("0505", "0504")] == ["stream"]  # not a clear hexside
    assert sc.hexside_effects("0303", "0304") == ()


def test_2_2_a_clear_hexside_beside_an_unknown_terrain_is_named() -> None:
    data = standard_data()
    data["tec"]["clear_hexsides"] = {"woods_edge": {"name": "Woods edge", "beside": ["wood"]}}
    refused(data, "tec.clear_hexsides.woods_edge.beside[0]", "'wood'")
    data["tec"]["clear_hexsides"] = {"woods_edge": {"name": "Woods edge", "beside": ["woods"], "blocks_los": True}}
    assert any(p == "tec.clear_hexsides.woods_edge" for p, _ in problems(data))  # a combat effect only (2.2)


# --- editions' fields are not mixed --------------------------------------------------------------------
@pytest.mark.parametrize("mutate, path", [
    (lambda d: d.__setitem__("turn_labels", ["a", "b", "c", "d"]), "turn_labels"),
    (lambda d: d["sides"]["blue"].__setitem__("replacement_steps", 2), "sides.blue.replacement_steps"),
    (lambda d: d["sides"]["red"].__setitem__("return_hexes", ["1004"]), "sides.red.return_hexes"),
    (lambda d: d["tec"].__setitem__("road_mp", 0.5), "tec.road_mp"),
    (lambda d: d["tec"]["terrain"]["woods"].__setitem__("defense", 1), "tec.terrain.woods.defense"),
    (lambda d: d["setup"][4].__setitem__("within", 1), "setup[4].within"),
    (lambda d: find(d, "b-1").__setitem__("range", 3), "units[4].range"),
    (lambda d: find(d, "b-1")["full"].__setitem__("attack", 6), "units[4].full.attack"),
])
def test_a_standard_scenario_with_quick_play_fields_is_refused_naming_the_field(mutate: Any, path: str) -> None:
    data = standard_data()
    mutate(data)
    reason = refused(data, path, "Quick Play")
    assert f"'{path.rsplit('.', 1)[-1]}'" in reason


def test_a_standard_scenario_is_read_by_the_standard_reader() -> None:
    sc = parse_scenario(standard_data(), "t")
    assert isinstance(sc, StandardScenario) and sc.ruleset == "standard"


def test_a_quick_play_scenario_with_standard_fields_is_refused_naming_the_field() -> None:
    data = json.loads((ROOT / "scenarios" / "tutorial.json").read_text("utf-8"))
    data["map"]["trails"] = [{"path": ["0101", "0102"]}]
    with pytest.raises(ScenarioError) as e:
        parse_scenario(data, "t")
    assert any("'trails'" in r for _, r in e.value.problems)
    data = json.loads((ROOT / "scenarios" / "tutorial.json").read_text("utf-8"))
    data["ruleset"] = "standard"
    with pytest.raises(ScenarioError) as e:
        parse_scenario(data, "t")
    assert any("is a Quick Play scenario field" in r for _, r in e.value.problems)


def test_a_quick_play_scenario_is_not_read_as_a_standard_one() -> None:
    data = json.loads((ROOT / "scenarios" / "tutorial.json").read_text("utf-8"))
    assert problems(data)[0][0] == "ruleset"
