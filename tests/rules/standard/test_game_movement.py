"""The Standard rules' turn and movement phase played through the kernel's `Game` (seed 002 2.6, 3.2, 4.x, 6.2-6.3,
11.x, 12.1-12.2, 13.x): commands, the declared-and-rolled move, undo, refusals that leave the state untouched."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules import Standard, find_ruleset, known_rulesets

from .builder import standard_data, unit
from .play import end, hex_of, new_game, refused, submit

INF2 = {"cf": 4, "mr": 4, "ma": 2}
INF2_RED = {"cf": 2, "mr": 3, "ma": 2}
CAV = {"cf": 3, "mr": 4, "ma": 8, "charge": 4}
CAV_INEFF = {"cf": 1, "mr": 2, "ma": 10}


def slow(data: dict[str, Any], hex_: str | None = "0402", uid: str = "b-2", **kw: Any) -> None:
    """b-2: a two-step infantry brigade with MA 2."""
    unit(data, uid, hex_, kind="infantry", **{"formation": "1", **kw}, full=INF2, reduced=INF2_RED)


def test_3_2_standard_is_a_registered_edition() -> None:
    assert "standard" in known_rulesets()
    assert isinstance(find_ruleset("standard"), Standard)


def test_3_2_a_game_starts_with_the_first_players_movement_phase() -> None:
    game = new_game(standard_data())
    view = game.view("blue")
    assert (view["ruleset"], view["turn"], view["phase"], view["active"]) == ("standard", 1, "movement", "blue")
    assert view["standard"]["light"] == "day" and view["turn_label"] == "1700"


def test_3_2_each_turn_is_five_phases_and_the_game_ends_after_the_last() -> None:
    game = new_game(standard_data())
    seen = []
    for _ in range(4):
        seen.append((game.state.turn, game.state.active, game.state.phase))
        end(game)
    assert seen == [(1, "blue", "movement"), (1, "blue", "combat"), (1, "red", "movement"), (1, "red", "combat")]
    assert (game.state.turn, game.state.active, game.state.phase) == (2, "blue", "movement")
    end(game, 12)
    assert game.is_over and game.result is not None and set(game.result["points"]) == {"blue", "red"}


def test_3_2_only_the_active_player_acts() -> None:
    game = new_game(standard_data())
    with pytest.raises(Exception, match="decision"):
        submit(game, "red", {"type": "end_phase"})


def test_4_3_a_move_within_the_printed_ma_needs_no_roll() -> None:
    data = standard_data()
    slow(data)
    game = new_game(data, [])
    submit(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0402", "0302", "0202"]})
    assert hex_of(game, "b-2") == "0202" and game.state.units["b-2"].moved


def test_4_3_a_unit_may_not_exceed_its_ma() -> None:
    data = standard_data()
    slow(data)
    game = new_game(data, [])
    e = refused(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0402", "0302", "0202", "0102"]})
    assert e.rule == "4.3"


def test_4_2_a_moved_unit_may_not_move_again() -> None:
    data = standard_data()
    slow(data)
    game = new_game(data, [])
    submit(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0402", "0302"]})
    assert refused(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0302", "0202"]}).rule == "4.2"


def test_4_4_variable_ma_is_rolled_when_the_move_begins() -> None:
    data = standard_data()
    unit(data, "b-v", "0402", kind="infantry", formation="1", steps=1, full={"cf": 2, "mr": 3, "ma": "V"})
    game = new_game(data, [3])
    e = refused(game, "blue", {"type": "move", "units": ["b-v"], "path": ["0402", "0302"]})
    assert e.rule == "4.4" and "declare" in e.message
    events = submit(game, "blue", {"type": "declare", "units": ["b-v"]})
    assert [ev["dice"] for ev in events if ev["type"] == "dice"] == [[3]]
    assert game.state.extra["declared"] == {"units": ["b-v"], "ma": 3, "march": False}
    assert refused(game, "blue", {"type": "move", "units": ["b-v"], "path": ["0402", "0302", "0202", "0102", "0101"]}).rule == "4.3"
    submit(game, "blue", {"type": "move", "units": ["b-v"], "path": ["0402", "0302", "0202", "0102"]})
    assert hex_of(game, "b-v") == "0102" and game.state.extra["declared"] is None


def test_4_4_undo_stops_at_the_roll() -> None:
    data = standard_data()
    unit(data, "b-v", "0402", kind="infantry", formation="1", steps=1, full={"cf": 2, "mr": 3, "ma": "V"})
    slow(data, "0401")
    game = new_game(data, [2])
    submit(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0401", "0301"]})
    assert game.can_undo("blue")
    submit(game, "blue", {"type": "declare", "units": ["b-v"]})
    assert not game.can_undo("blue")
    assert refused(game, "blue", {"type": "undo"}).rule == "undo"
    submit(game, "blue", {"type": "stay"})
    assert game.can_undo("blue")
    submit(game, "blue", {"type": "undo"})
    assert game.state.extra["declared"] == {"units": ["b-v"], "ma": 2, "march": False}


def test_4_4_a_disrupted_unit_rolls_and_a_declared_move_blocks_other_commands() -> None:
    data = standard_data()
    slow(data)
    data["setup"] = [dict(s, disrupted=True) if s["unit"] == "b-2" else s for s in data["setup"]]
    game = new_game(data, [1])
    assert refused(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0402", "0302"]}).rule == "4.4"
    submit(game, "blue", {"type": "declare", "units": ["b-2"]})
    assert refused(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0403"]}).rule == "4.4"
    submit(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0402", "0302"]})


def test_4_7_march_movement_gives_nine_mp_away_from_the_enemy() -> None:
    data = standard_data()
    slow(data)
    game = new_game(data, [])
    path = ["0402", "0302", "0202", "0102"]
    assert refused(game, "blue", {"type": "move", "units": ["b-2"], "path": path}).rule == "4.3"
    submit(game, "blue", {"type": "move", "units": ["b-2"], "path": path, "march": True})
    assert hex_of(game, "b-2") == "0102" and game.state.extra["marched"] == ["b-2"]


def test_4_7_no_march_where_the_zoc_would_reach_an_enemy_zoc() -> None:
    game = new_game(standard_data(), [])
    e = refused(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0504"], "march": True})
    assert e.rule == "4.7"


def test_4_7_a_marched_unit_initiates_no_combat() -> None:
    data = standard_data()
    data["setup"] = [dict(s, disrupted=True) if s["unit"] == "r-1" else s for s in data["setup"]]
    game = new_game(data, [])
    submit(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0504", "0604"], "march": True})
    end(game)
    e = refused(game, "blue", {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1"})
    assert e.rule == "4.7"


def test_4_1_a_unit_moving_off_the_map_goes_to_the_trt_two_turns_ahead() -> None:
    data = standard_data()
    slow(data, "0102")
    game = new_game(data, [])
    submit(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0102"], "off_map": True})
    s = game.state.units["b-2"]
    assert (s.status, s.hex, s.entry_turn) == ("returning", None, 3)


def test_6_2_entering_an_ezoc_ends_the_move() -> None:
    game = new_game(standard_data(), [])
    e = refused(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0504", "0604", "0605"]})
    assert e.rule == "6.2"
    submit(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0504", "0604"]})
    assert hex_of(game, "b-1") == "0604"


def test_6_3_a_faster_unit_disengages_with_a_rolled_ma() -> None:
    data = standard_data()
    unit(data, "b-cav", "0604", kind="cavalry", formation="1", full=CAV, ineffective=CAV_INEFF)
    game = new_game(data, [1, 2])
    assert refused(game, "blue", {"type": "move", "units": ["b-cav"], "path": ["0604", "0504"]}).rule == "4.4"
    submit(game, "blue", {"type": "declare", "units": ["b-cav"]})
    assert game.state.extra["declared"]["ma"] == 3  # 4.4: two dice for a printed MA above 6
    submit(game, "blue", {"type": "move", "units": ["b-cav"], "path": ["0604", "0504", "0403"]})
    assert hex_of(game, "b-cav") == "0403"


def test_6_3_a_unit_no_faster_than_the_enemy_may_not_disengage_alone() -> None:
    data = standard_data()
    data["setup"] = [dict(s, hex="0604") if s["unit"] == "b-1" else s for s in data["setup"]]
    game = new_game(data, [])
    assert refused(game, "blue", {"type": "declare", "units": ["b-1"]}).rule == "6.3"


def test_2_6_cavalry_flips_ineffective_only_before_any_unit_moves() -> None:
    data = standard_data()
    unit(data, "b-cav", "0402", kind="cavalry", formation="1", full=CAV, ineffective=CAV_INEFF)
    game = new_game(data, [])
    assert refused(game, "blue", {"type": "flip", "unit": "b-1"}).rule == "2.6"
    submit(game, "blue", {"type": "flip", "unit": "b-cav"})
    assert game.state.units["b-cav"].ineffective
    submit(game, "blue", {"type": "undo"})
    submit(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0403"]})
    assert refused(game, "blue", {"type": "flip", "unit": "b-cav"}).rule == "2.6"


def test_12_1_the_hq_moves_only_after_being_flipped_and_its_army_then_rolls() -> None:
    game = new_game(standard_data(), [])
    assert refused(game, "blue", {"type": "move", "units": ["b-hq"], "path": ["0204", "0203"]}).rule == "12.1"
    submit(game, "blue", {"type": "flip", "unit": "b-hq"})
    assert "b-hq" in game.view("blue")["standard"]["inactive"]
    e = refused(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0403"]})
    assert e.rule == "4.4" and "12.1" in e.message
    submit(game, "blue", {"type": "move", "units": ["b-hq"], "path": ["0204", "0203", "0202"]})
    end(game)
    assert "b-hq" in game.state.extra["inactive"]  # 12.1: it moved this phase
    end(game, 4)
    assert "b-hq" not in game.state.extra["inactive"]  # active again at the end of the next friendly movement phase


def test_12_2_a_unit_entering_the_enemy_trains_hex_captures_them() -> None:
    data = standard_data()
    data["setup"] = [dict(s, hex="0403") if s["unit"] == "r-tr" else s for s in data["setup"]]
    game = new_game(data, [])
    submit(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0403"]})
    assert game.state.units["r-tr"].status == "captured"


def test_12_2_no_friendly_unit_moves_through_its_trains() -> None:
    data = standard_data()
    data["setup"] = [dict(s, hex="0403") if s["unit"] == "b-tr" else s for s in data["setup"]]
    game = new_game(data, [])
    assert refused(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0403", "0402"]}).rule == "12.2"


def test_13_1_a_reinforcement_enters_on_its_turn() -> None:
    data = standard_data()
    slow(data, None)
    data["reinforcements"] = [{"unit": "b-2", "turn": 2, "hex": "0102"}]
    game = new_game(data, [])
    assert refused(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0102", "0202"]}).rule == "13.1"
    end(game, 4)
    submit(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0102", "0202"]})
    assert (game.state.units["b-2"].status, hex_of(game, "b-2")) == ("map", "0202")


def test_13_1_an_enemy_held_entry_hex_offers_the_shifted_entries_and_charges_one_mp_a_hex() -> None:
    from server.rules.standard.options import unit_options

    data = standard_data()
    slow(data, None)
    data["reinforcements"] = [{"unit": "b-2", "turn": 1, "hex": "0102"}]
    unit(data, "r-2", "0102", side="red", kind="infantry", formation="7", full={"cf": 1, "mr": 4, "ma": 4},
         reduced={"cf": 1, "mr": 3, "ma": 4})
    data["setup"] = [dict(s, disrupted=True) if s["unit"] == "r-2" else s for s in data["setup"]]  # no ZOC (6.4)
    game = new_game(data, [])
    reach = unit_options(game, "blue", ["b-2"])["normal"]["reachable"]
    # MA 2: the shift to 0101 or 0103 costs 1 MP and entering clear 1 MP more; no farther, never 0102, and not
    # around the corner onto the north edge (S43)
    assert sorted(reach) == ["0101", "0103"]
    assert all(r["path"] == [h] for h, r in reach.items())
    assert refused(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0102"]}).rule == "13.1"
    assert refused(game, "blue", {"type": "move", "units": ["b-2"], "path": ["0103", "0203"]}).rule == "4.3"
    submit(game, "blue", {"type": "move", "units": ["b-2"], "path": reach["0103"]["path"]})
    assert (game.state.units["b-2"].status, hex_of(game, "b-2")) == ("map", "0103")
    legal = [c for c in game.legal_commands("blue", __import__("random").Random(1), limit=500)
             if c.get("units") == ["b-2"]]
    assert legal == []  # it has moved


def test_13_1_4_7_a_reinforcement_may_march_from_its_entry_hex() -> None:
    data = standard_data()
    slow(data, None)  # MA 2
    data["reinforcements"] = [{"unit": "b-2", "turn": 1, "hex": "0102"}]
    game = new_game(data, [])
    path = ["0102", "0202", "0302", "0402", "0502"]
    options = game.options("blue", ["b-2"])
    assert "0502" in options["march"]["reachable"] and "0502" not in options["normal"]["reachable"]  # options.py
    assert any(c.get("march") and c.get("units") == ["b-2"]
               for c in game.legal_commands("blue", __import__("random").Random(1), limit=500))
    assert refused(game, "blue", {"type": "move", "units": ["b-2"], "path": path}).rule == "4.3"
    submit(game, "blue", {"type": "move", "units": ["b-2"], "path": path, "march": True})
    assert (game.state.units["b-2"].status, hex_of(game, "b-2")) == ("map", "0502")
    assert game.state.extra["marched"] == ["b-2"]  # 4.7(2): it initiates no combat this turn


def test_11_1_a_disrupted_unit_away_from_the_enemy_recovers_at_the_end_of_the_phase() -> None:
    data = standard_data()
    slow(data)
    data["setup"] = [dict(s, disrupted=True) if s["unit"] == "b-2" else s for s in data["setup"]]
    game = new_game(data, [])
    events = submit(game, "blue", {"type": "end_phase"})
    assert not game.state.units["b-2"].disrupted
    assert any(e["type"] == "recovered" and e["unit"] == "b-2" for e in events)


def test_11_1_a_unit_in_an_ezoc_may_not_recover() -> None:
    data = standard_data()
    data["setup"] = [dict(s, hex="0604", disrupted=True) if s["unit"] == "b-1" else s for s in data["setup"]]
    game = new_game(data, [])
    assert refused(game, "blue", {"type": "recover", "unit": "b-1"}).rule == "11.1"
    end(game)
    assert game.state.units["b-1"].disrupted


@pytest.mark.parametrize(("die", "recovers"), [(4, True), (5, False)])
def test_11_1_near_the_enemy_the_check_is_made_without_the_disruption_minus_two(die: int, recovers: bool) -> None:
    data = standard_data()
    data["setup"] = [dict(s, hex="0504", disrupted=True) if s["unit"] == "b-1" else s for s in data["setup"]]
    game = new_game(data, [die])
    submit(game, "blue", {"type": "recover", "unit": "b-1"})
    assert game.state.units["b-1"].disrupted is not recovers
    assert refused(game, "blue", {"type": "recover", "unit": "b-1"}).rule in ("11.1",)


def test_11_2_a_replacement_step_sends_an_eliminated_unit_to_the_next_box_and_13_2_it_reenters() -> None:
    data = standard_data()
    slow(data)
    game = new_game(data, [])
    s = game.state.units["b-2"]
    s.status, s.hex = "eliminated", None
    assert game.state.replacements["blue"] == 1
    submit(game, "blue", {"type": "replace", "unit": "b-2"})
    assert (s.status, s.entry_turn, s.reduced) == ("returning", 2, True)
    assert refused(game, "blue", {"type": "replace", "unit": "b-1"}).rule == "11.2"
    end(game, 4)
    options = game.options("blue", ["b-2"])["actions"]
    hexes = [a["hex"] for a in options if a["type"] == "reenter"]
    assert "0204" in hexes and "0104" in hexes  # 13.2: on or next to the active HQ or the LOC hex
    assert refused(game, "blue", {"type": "reenter", "unit": "b-2", "hex": "0704"}).rule == "13.2"
    submit(game, "blue", {"type": "reenter", "unit": "b-2", "hex": "0205"})
    assert (game.state.units["b-2"].status, hex_of(game, "b-2")) == ("map", "0205")


def test_11_2_a_red_dotted_step_is_not_replaced_by_a_replacement_step() -> None:
    data = standard_data()
    unit(data, "b-jg", "0402", kind="battalion", formation="1", full={"cf": 2, "mr": 5, "ma": 5, "red_dot": True},
         ineffective={"cf": 0, "mr": 3, "ma": 5})
    game = new_game(data, [])
    s = game.state.units["b-jg"]
    s.status, s.hex = "eliminated", None
    assert refused(game, "blue", {"type": "replace", "unit": "b-jg"}).rule == "11.2"


def per_formation() -> Any:
    """17.2 (S62): blue receives one step per formation per turn; b-2, b-3 (formation 1) and b-4, b-5 (formation 2)
    reduced on the map, b-0 independent."""
    data = standard_data()
    data["trt"][0].pop("replacements")
    data["sides"]["blue"]["replacements"] = {"per_formation": 1}
    for uid, f, h in (("b-2", "1", "0401"), ("b-3", "1", "0402"), ("b-4", "2", "0403"), ("b-5", "2", "0405"),
                      ("b-0", "0", "0406")):
        slow(data, h, uid=uid, formation=f)
    data["setup"] = [dict(s, reduced=True) if s["unit"] in ("b-2", "b-3", "b-4", "b-5", "b-0") else s
                     for s in data["setup"]]
    return new_game(data, [])


def test_17_2_one_replacement_step_per_formation_not_transferred() -> None:
    game = per_formation()
    assert game.state.replacements["blue"] == 2 and game.state.extra["formation_steps"] == {"1": 1, "2": 1}
    submit(game, "blue", {"type": "replace", "unit": "b-2"})
    e = refused(game, "blue", {"type": "replace", "unit": "b-3"})
    assert e.rule == "17.2" and "not transferred" in e.message
    assert refused(game, "blue", {"type": "replace", "unit": "b-0"}).rule == "17.2"  # S62: independent
    assert [c["unit"] for c in game.legal_commands("blue", __import__("random").Random(1), limit=3000)
            if c["type"] == "replace"] == ["b-4", "b-5"]
    submit(game, "blue", {"type": "replace", "unit": "b-4"})
    assert game.state.replacements["blue"] == 0 and not game.state.units["b-4"].reduced


def test_17_2_unused_formation_steps_are_not_accumulated() -> None:
    game = per_formation()
    submit(game, "blue", {"type": "replace", "unit": "b-2"})  # formation 2's step goes unused on turn 1
    end(game, 4)
    assert game.state.extra["formation_steps"] == {"1": 1, "2": 1}
    submit(game, "blue", {"type": "replace", "unit": "b-4"})
    assert refused(game, "blue", {"type": "replace", "unit": "b-5"}).rule == "17.2"


def test_17_2_a_side_given_steps_per_formation_has_none_on_the_trt() -> None:
    from server.rules.kernel.scenario import ScenarioError
    from server.rules.standard.scenario import parse_standard_scenario

    data = standard_data()
    data["sides"]["blue"]["replacements"] = {"per_formation": 1}
    with pytest.raises(ScenarioError) as e:
        parse_standard_scenario(data, "t")
    assert e.value.problems[0][0] == "trt[0].replacements.blue"


@pytest.mark.parametrize(("die", "status"), [(1, "returning"), (6, "dead")])
def test_11_2_the_extra_replacement_check_returns_or_destroys_the_unit(die: int, status: str) -> None:
    data = standard_data()
    slow(data)
    game = new_game(data, [die])
    s = game.state.units["b-2"]
    s.status, s.hex = "eliminated", None
    submit(game, "blue", {"type": "muster", "unit": "b-2"})
    assert s.status == status
    assert refused(game, "blue", {"type": "muster", "unit": "b-2"}).rule == "11.2"


def test_an_unknown_field_is_refused_before_the_command_is_judged() -> None:
    game = new_game(standard_data(), [])
    with pytest.raises(Exception, match="unknown field"):
        submit(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0403"], "speed": 3})
