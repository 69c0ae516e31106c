"""Cavalry in combat (seed 002 9.2), as the seed demands."""

from __future__ import annotations

from typing import Any

from server.rules import Game

from .builder import unit
from .fight import combat, combat_event, decision, flag, ground, place
from .play import choose, submit

CAV = {"full": {"cf": 3, "mr": 4, "ma": 8, "charge": 4}, "ineffective": {"cf": 1, "mr": 2, "ma": 10}}
ATTACK = {"type": "attack", "target": "0704", "attackers": ["b-cav"], "primary": "b-cav"}


def test_9_2_2_cavalry_is_doubled_against_a_disrupted_or_ineffective_defender() -> None:
    data = ground("0404")
    unit(data, "b-cav", "0604", kind="cavalry", formation="1", **CAV)
    game = combat(data)
    assert game.preview("blue", ATTACK)["differential"] == 3 - 5
    flag(data, "r-1", disrupted=True)
    game = combat(data, [5, 1])  # 6 - 5 = +1: die 5 = Dr
    p = game.preview("blue", ATTACK)
    assert p["attackers"][0]["doubled"] == "9.2(2)" and p["differential"] == 1
    events = submit(game, "blue", ATTACK)
    assert combat_event(events)["differential"] == 1


def test_9_2_3_a_defender_retreating_from_attacking_cavalry_is_disrupted() -> None:
    data = ground("0404")
    unit(data, "b-cav", "0604", kind="cavalry", formation="1", full={"cf": 8, "mr": 4, "ma": 8, "charge": 4},
         ineffective={"cf": 1, "mr": 2, "ma": 10})
    game = combat(data, [4, 1])  # 8 - 5 = +3: die 4 = Dr
    submit(game, "blue", ATTACK)
    choose(game, "red", "retreat")
    d = decision(game)
    choose(game, "red", d["options"][0]["id"])
    assert game.state.units["r-1"].disrupted  # 9.2(3), after the retreat


# --- 9.3 cavalry charges ---------------------------------------------------------------------------------------------
CHARGE_MOVE = {"type": "charge", "units": ["b-cav"], "path": ["0504", "0604"], "target": "0704"}
CHARGE = {**ATTACK, "tactic": "charge"}


def charged(data: dict[str, Any] | None = None, dice: list[int] | None = None) -> Game:
    from .play import end, load, new_game

    if data is None:
        data = ground("0404")
        unit(data, "b-cav", "0504", kind="cavalry", formation="1", **CAV)
    game = new_game(data, [])
    events = game.submit("blue", CHARGE_MOVE)
    assert any(e["type"] == "charge" and e["rule"] == "9.3(1)" for e in events)
    end(game)
    load(game, dice or [])
    return game


def no_square(game: Game) -> list[dict[str, Any]]:
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"]) == ("form_square", "red", "9.3(3)")
    events: list[dict[str, Any]] = game.submit("red", {"type": "choose", "option": "no"})
    return events


def test_9_3_1_12_2_a_charge_moving_into_the_enemy_trains_hex_captures_them() -> None:
    from .play import new_game

    data = ground("0404")
    unit(data, "b-cav", "0504", kind="cavalry", formation="1", **CAV)
    data["setup"] = [dict(s, hex="0604") if s["unit"] == "r-tr" else s for s in data["setup"]]
    game = new_game(data, [])
    events = game.submit("blue", CHARGE_MOVE)
    assert game.state.units["b-cav"].hex == "0604"
    assert game.state.units["r-tr"].status == "captured"
    assert any(e["type"] == "captured" and e["unit"] == "r-tr" for e in events)


def test_9_3_a_charge_routs_the_defender_with_a_step_loss_after_the_target_fails_its_check() -> None:
    game = charged(dice=[1, 6, 4, 6])  # the chargers pass; r-1 fails (disrupted): 4 x 2 - 5 = +3: die 4 = Dr -> Dm
    events = game.submit("blue", CHARGE)
    events += no_square(game)
    assert any(e["type"] == "disrupted" and e["rule"] == "9.3(3)" and e["unit"] == "r-1" for e in events)
    c = combat_event(events)
    assert (c["differential"], c["result"]) == (3, "Dm(Am)")
    assert game.state.units["r-1"].reduced  # 9.3(5): the routing defender loses a step
    assert decision(game)["rule"] == "7.10"


def test_9_3_5_any_other_result_is_am_ar_and_a_failed_check_routs_the_chargers() -> None:
    game = charged(dice=[1, 1, 2, 6])  # both pass: 4 - 5 = -1: die 2 = Ac(NE) -> Am(Ar); the chargers fail
    game.submit("blue", CHARGE)
    events = no_square(game)
    assert combat_event(events)["result"] == "Am(Ar)"
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"]) == ("retreat", "blue", "7.10")
    choose(game, "blue", d["options"][0]["id"])
    s = game.state.units["b-cav"]
    assert s.disrupted and s.ineffective  # 7.10 and 9.3(7)


def test_9_3_3_chargers_failing_their_check_are_disrupted() -> None:
    game = charged(dice=[6, 2, 1])  # the chargers fail: disrupted, halved (2.8(3)): 2 - 5 = -3: die 2 = Ar -> Am(Ar)
    game.submit("blue", CHARGE)
    events = no_square(game)
    assert game.state.units["b-cav"].disrupted
    assert combat_event(events)["differential"] == -3


def test_9_3_1_the_charge_moves_one_or_two_hexes_through_clear_terrain_into_no_friendly_hex() -> None:
    from .play import new_game, refused

    data = ground("0404")
    unit(data, "b-cav", "0504", kind="cavalry", formation="1", **CAV)
    data["map"]["hexes"]["0604"] = "woods"
    e = refused(new_game(data, []), "blue", CHARGE_MOVE)
    assert e.rule == "9.3(1)" and "clear" in e.message
    data = ground("0604")
    unit(data, "b-cav", "0504", kind="cavalry", formation="1", **CAV)
    e = refused(new_game(data, []), "blue", CHARGE_MOVE)  # b-1 stands in 0604
    assert e.rule == "9.3(1)" and "friendly" in e.message
    data = ground("0404")
    unit(data, "b-cav", "0304", kind="cavalry", formation="1", **CAV)
    e = refused(new_game(data, []), "blue", {**CHARGE_MOVE, "path": ["0304", "0404", "0504", "0604"]})
    assert e.rule == "9.3(1)"


def test_9_3_no_charge_into_terrain_the_tec_bars() -> None:
    from .play import new_game, refused

    data = ground("0404")
    unit(data, "b-cav", "0504", kind="cavalry", formation="1", **CAV)
    data["map"]["secondary"]["0704"] = ["crest"]
    e = refused(new_game(data, []), "blue", CHARGE_MOVE)  # 9.3(1): secondary terrain bars it unless the TEC opens it
    assert e.rule == "9.3(1)" and "Crest" in e.message
    data["tec"]["secondary"]["crest"]["no_charge"] = []
    game = new_game(data, [])
    game.submit("blue", CHARGE_MOVE)
    assert game.state.units["b-cav"].hex == "0604"


def test_9_3_1_the_tec_may_treat_a_hexside_feature_as_clear_for_the_charge() -> None:
    from .play import new_game, refused

    data = ground("0404")
    unit(data, "b-cav", "0504", kind="cavalry", formation="1", **CAV)
    data["tec"]["hexsides"]["ridge"] = {"name": "Ridge", "blocks_los": True}  # a clear hexside but for LOS
    data["map"]["hexsides"].append({"hexes": ["0504", "0604"], "features": ["ridge"]})
    e = refused(new_game(data, []), "blue", CHARGE_MOVE)
    assert e.rule == "9.3(1)" and "Ridge" in e.message
    data["tec"]["hexsides"]["ridge"]["no_charge"] = []
    game = new_game(data, [])
    game.submit("blue", CHARGE_MOVE)
    assert game.state.units["b-cav"].hex == "0604"


def test_2_2_9_3_1_no_charge_out_of_woods_across_the_clear_hexside_the_tec_bars() -> None:
    from .play import new_game, refused

    data = ground("0404")
    data["map"]["hexes"]["0504"] = "woods"
    unit(data, "b-cav", "0504", kind="cavalry", formation="1", **CAV)
    game = new_game(data, [])
    game.submit("blue", CHARGE_MOVE)  # leaving the woods: only the hexes entered must be clear
    assert game.state.units["b-cav"].hex == "0604"
    data["tec"]["clear_hexsides"] = {"woods_edge": {"name": "Edge of the woods", "beside": ["woods"],
                                                    "no_charge": ["cavalry"]}}
    e = refused(new_game(data, []), "blue", CHARGE_MOVE)
    assert e.rule == "9.3(1)" and "Edge of the woods" in e.message


def test_9_3_the_defender_makes_no_tactic_choice_against_a_cavalry_charge() -> None:
    game = charged(dice=[1, 1, 2, 1])
    events = game.submit("blue", CHARGE)
    assert any(e["type"] == "auto" and e["rule"] == "7.13" for e in events)


def test_9_3_2_a_hex_charged_by_cavalry_may_be_charged_by_other_cavalry_only_each_charge_resolved_alone() -> None:
    from .play import end, load, new_game, refused

    data = ground("0404")
    unit(data, "b-cav", "0504", kind="cavalry", formation="1", **CAV)
    unit(data, "b-cav2", "0502", kind="cavalry", formation="1", **CAV)
    add = {"kind": "infantry", "formation": "1", "full": {"cf": 4, "mr": 4, "ma": 4},
           "reduced": {"cf": 2, "mr": 3, "ma": 4}}
    unit(data, "b-inf", "0802", **add)
    game = new_game(data, [])
    game.submit("blue", CHARGE_MOVE)
    game.submit("blue", {"type": "charge", "units": ["b-cav2"], "path": ["0502", "0602", "0603"], "target": "0704"})
    assert len(game.state.extra["charges"]) == 2
    e = refused(game, "blue", {"type": "charge", "units": ["b-inf"], "path": ["0802", "0803"], "target": "0704"})
    assert e.rule == "7.13(3)"  # 9.3(2): the charged hex is attacked by other charging cavalry only
    end(game)
    # the first charge: both checks pass; 4 - 5 = -1: die 2 = Ac(NE) -> Am(Ar), the chargers pass: they retreat
    load(game, [1, 1, 2, 1])
    game.submit("blue", CHARGE)
    no_square(game)
    while game.state.decision is not None:
        d = decision(game)
        choose(game, d["side"], d["options"][0]["id"])
    second = {"type": "attack", "target": "0704", "attackers": ["b-cav2"], "primary": "b-cav2", "tactic": "charge"}
    assert "0704" in game.state.attacked_hexes and game.state.units["r-1"].hex == "0704"
    # a second charge into the same hex, resolved on its own (its own 9.3(3) checks and combat)
    load(game, [1, 1, 2, 1])
    events = game.submit("blue", second)
    assert any(e["type"] == "attack" and e["target"] == "0704" for e in events)
    events = no_square(game)
    assert combat_event(events)["differential"] == 4 - 5
    while game.state.decision is not None:
        d = decision(game)
        choose(game, d["side"], d["options"][0]["id"])
    assert game.state.attacked_hexes.count("0704") == 1 and game.state.extra["charges"] == []


def test_9_3_2_no_unit_but_charging_cavalry_attacks_a_hex_charged_by_cavalry() -> None:
    from .play import end, new_game, refused

    data = ground("0603")
    unit(data, "b-cav", "0504", kind="cavalry", formation="1", **CAV)
    game = new_game(data, [])
    game.submit("blue", CHARGE_MOVE)
    end(game)
    e = refused(game, "blue", {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1"})
    assert e.rule == "9.3(2)"
    assert not any(c.get("target") == "0704" and "b-1" in c["attackers"]
                   for c in game.legal_commands("blue", __import__("random").Random(0), limit=500)
                   if c["type"] == "attack")


# --- 9.4 countercharges ---------------------------------------------------------------------------------------------------
def _cav_v_cav() -> dict[str, Any]:
    data = ground("0404")
    unit(data, "b-cav", "0504", kind="cavalry", formation="1", **CAV)
    unit(data, "r-1", "0704", side="red", kind="cavalry", formation="7",
         full={"cf": 3, "mr": 4, "ma": 8, "charge": 5}, ineffective={"cf": 1, "mr": 2, "ma": 10})
    return data


def test_9_4_cavalry_countercharges_a_charge_both_with_charge_factors_and_a_d_result_is_dm() -> None:
    game = charged(_cav_v_cav(), dice=[1, 1, 6, 6])  # checks pass; 4 - 5 = -1: die 6 = Dr -> Dm; r-1 fails: rout
    game.submit("blue", CHARGE)
    d = decision(game)
    assert d["kind"] == "tactic" and [o["id"] for o in d["options"]] == ["none", "countercharge"]
    events = game.submit("red", {"type": "choose", "option": "countercharge"})
    assert combat_event(events)["differential"] == -1
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"]) == ("retreat", "red", "7.10")


def test_9_4_when_the_affected_unit_does_not_rout_both_sides_retreat() -> None:
    game = charged(_cav_v_cav(), dice=[1, 1, 4, 1])  # -1: die 4 = Ex -> both retreat
    game.submit("blue", CHARGE)
    game.submit("red", {"type": "choose", "option": "countercharge"})
    d = decision(game)
    assert (d["kind"], d["side"]) == ("retreat", "red")
    choose(game, "red", d["options"][0]["id"])
    d = decision(game)
    assert (d["kind"], d["side"]) == ("retreat", "blue")
    choose(game, "blue", d["options"][0]["id"])
    assert game.state.units["r-1"].ineffective and game.state.units["b-cav"].ineffective  # 9.3(7)


RED_CAV = {"full": {"cf": 3, "mr": 4, "ma": 8, "charge": 5}, "ineffective": {"cf": 1, "mr": 2, "ma": 10}}
INFANTRY_ATTACK = {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1"}


def _inf_v_cav() -> dict[str, Any]:
    """b-1 (infantry, CF 6) at 0604 next to the red cavalry r-1 (charge factor 5) at 0704."""
    data = ground("0604")
    unit(data, "r-1", "0704", side="red", kind="cavalry", formation="7", **RED_CAV)
    return data


def test_9_4_cavalry_countercharges_attacking_infantry_as_though_it_were_the_charging_attacker() -> None:
    from .fight import combat

    # red's check 1 passes, b-1's 6 fails (disrupted, 9.3(3)); 5 x 2 (9.3(4)) - 6 = +4: die 4 = Dr -> Dm; b-1 fails
    game = combat(_inf_v_cav(), [1, 6, 4, 6])
    game.submit("blue", INFANTRY_ATTACK)
    d = decision(game)
    assert (d["kind"], d["side"]) == ("tactic", "red") and "countercharge" in [o["id"] for o in d["options"]]
    events = game.submit("red", {"type": "choose", "option": "countercharge"})
    assert any(e["type"] == "disrupted" and e["rule"] == "9.3(3)" and e["unit"] == "b-1" for e in events)
    d = decision(game)
    assert (d["kind"], d["side"]) == ("form_square", "blue")  # 9.3(3): the charged infantry may form square
    events = game.submit("blue", {"type": "choose", "option": "no"})
    c = combat_event(events)
    assert (c["differential"], c["result"]) == (4, "Dm(Am)")
    assert game.state.units["b-1"].reduced  # 9.3(5): routing, the countercharged primary loses a step
    assert any(e["type"] == "fow" and "Red receives" in e["text"] for e in events)
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"]) == ("retreat", "blue", "7.10")
    choose(game, "blue", d["options"][0]["id"])
    d = decision(game)
    assert (d["kind"], d["side"]) == ("advance", "red")  # the countercharging cavalry advances under 7.12 (S44)
    events = choose(game, "red", "stay")
    assert game.state.units["r-1"].ineffective  # 9.3(7)
    assert all(e["type"] != "follow_up" for e in events) and decision(game)["kind"] == "fortune"  # no 9.3(6)
    choose(game, "red", "pass")
    assert (game.state.phase, game.state.active, game.state.combat) == ("combat", "blue", None)


def test_9_4_a_countercharge_against_non_charging_cavalry_reads_other_results_as_am() -> None:
    from .fight import combat

    data = _inf_v_cav()
    unit(data, "b-cav", "0603", kind="cavalry", formation="1", **CAV)
    place(data, "b-1", "0404")
    # both checks pass (b-cav makes 9.3(3)'s target check: no square for cavalry); 5 - 3 = +2: die 2 = Ac(NE) ->
    # Am(Ar) (9.3(5)); r-1 passes with the morale die 1: Ar, the countercharging cavalry retreats
    game = combat(data, [1, 1, 2, 1])
    game.submit("blue", {"type": "attack", "target": "0704", "attackers": ["b-cav"], "primary": "b-cav"})
    events = game.submit("red", {"type": "choose", "option": "countercharge"})
    c = combat_event(events)
    assert (c["differential"], c["result"]) == (2, "Am(Ar)")
    d = decision(game)  # the Ar falls on the countercharging cavalry, its owner choosing how to take it (7.8)
    assert (d["kind"], d["side"], d["rule"]) == ("result", "red", "7.8")
    assert {o["side"] for o in d["options"]} == {"attacker"} and "retreat" in [o["id"] for o in d["options"]]
    assert game.state.combat is not None and game.state.combat["attackers"] == ["r-1"]


def test_9_4_the_countercharge_needs_clear_ground_effective_cavalry_and_daylight() -> None:
    from .fight import combat, light

    def offered(data: dict[str, Any]) -> bool:
        game = combat(data, [])
        game.submit("blue", INFANTRY_ATTACK)
        d = game.state.decision
        return d is not None and d["kind"] == "tactic" and "countercharge" in [o["id"] for o in d["options"]]

    assert offered(_inf_v_cav())
    data = _inf_v_cav()
    data["map"]["hexes"]["0604"] = "woods"  # 9.3(1): it attacks into clear terrain only
    assert not offered(data)
    data = _inf_v_cav()
    flag(data, "r-1", disrupted=True)  # 9.3: effective and undisrupted
    assert not offered(data)
    # 14.2(4): at night only a declared infantry charge attacks, and no cavalry charges, so none countercharges
    from .play import end, new_game

    data = _inf_v_cav()
    light(data, "night")
    place(data, "b-1", "0504")
    game = new_game(data, [])
    game.submit("blue", {"type": "charge", "units": ["b-1"], "path": ["0504", "0604"], "target": "0704"})
    end(game)
    game.submit("blue", {**INFANTRY_ATTACK, "tactic": "charge"})
    d = game.state.decision
    assert d is None or "countercharge" not in [o["id"] for o in d.get("options", [])]


def test_9_4_infantry_cannot_countercharge() -> None:
    game = charged(dice=[1, 1, 2, 1])
    events = game.submit("blue", CHARGE)
    assert any(e["type"] == "auto" and e["rule"] == "7.13" for e in events)  # only "none" for infantry


# --- 9.5 squares -----------------------------------------------------------------------------------------------------------
def test_9_5_a_square_is_formed_at_the_beginning_of_the_movement_phase_and_moves_one_hex() -> None:
    from .play import new_game, refused

    game = new_game(ground("0404"), [])
    game.submit("blue", {"type": "square", "unit": "b-1"})
    assert game.state.squares == {"0404": "b-1"}
    e = refused(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0304", "0204"]})
    assert e.rule == "9.5"
    e = refused(game, "blue", {"type": "square", "unit": "b-1", "form": False})
    assert e.rule == "9.5"  # removed only at the beginning of a later movement phase
    game.submit("blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0304"]})
    assert game.state.squares == {"0304": "b-1"}
    assert refused(game, "blue", {"type": "square", "unit": "b-1"}).rule == "9.5"  # units have moved


def test_9_5_a_square_crossing_rough_ground_checks_for_disruption() -> None:
    from .play import new_game

    data = ground("0404")
    data["map"]["hexes"]["0304"] = "woods"
    game = new_game(data, [6])
    game.submit("blue", {"type": "square", "unit": "b-1"})
    game.submit("blue", {"type": "move", "units": ["b-1"], "path": ["0404", "0304"]})
    assert game.state.units["b-1"].disrupted


def test_9_5_only_the_square_defends_and_non_cavalry_attackers_add_two() -> None:
    data = ground("0604")
    unit(data, "r-bn", "0704", side="red", kind="battalion", formation="7", full={"cf": 2, "mr": 4, "ma": 5},
         ineffective={"cf": 0, "mr": 2, "ma": 5})
    from .play import load, new_game

    game = new_game(data, [])
    game.state.squares["0704"] = "r-1"
    game.submit("blue", {"type": "end_phase"})
    load(game, [2, 1])
    p = game.preview("blue", {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1"})
    assert p["differential"] == 6 + 2 - 5 and [d["unit"] for d in p["defenders"]] == ["r-1"]
    assert any(m["rule"] == "9.5" and m["value"] == 2 for m in p["modifiers"])


def test_9_5_a_square_charged_by_cavalry_makes_no_check_and_adds_two() -> None:
    data = ground("0404")
    unit(data, "b-cav", "0504", kind="cavalry", formation="1", **CAV)
    from .play import end, load, new_game

    game = new_game(data, [])
    game.state.squares["0704"] = "r-1"
    game.submit("blue", CHARGE_MOVE)
    end(game)
    load(game, [1, 2, 1])  # the chargers pass; no target check; 4 - (5 + 2) = -3: die 2 = Ar -> Am(Ar)
    events = game.submit("blue", CHARGE)
    assert any(e["type"] == "square" and e["rule"] == "9.5" for e in events)
    assert combat_event(events)["differential"] == -3


def test_9_3_3_an_infantry_target_may_form_square_during_the_charge() -> None:
    data = ground("0404")
    unit(data, "b-cav", "0504", kind="cavalry", formation="1", **CAV)
    unit(data, "r-bn", "0704", side="red", kind="battalion", formation="7", full={"cf": 2, "mr": 4, "ma": 5},
         ineffective={"cf": 0, "mr": 2, "ma": 5})
    game = charged(data, dice=[1, 1, 2, 1])  # both pass; r-1 forms square: 4 - (5 + 2) = -3: die 2 = Ar -> Am(Ar)
    game.submit("blue", CHARGE)
    game.submit("red", {"type": "choose", "option": "r-1+r-bn:r-1"})
    events = game.submit("red", {"type": "choose", "option": "square"})
    assert game.state.squares == {"0704": "r-1"}
    c = combat_event(events)
    assert c["differential"] == -3  # the battalion no longer takes part (9.5)


def test_9_3_6_cavalry_that_routs_its_target_may_charge_again() -> None:
    from .fight import add_infantry
    from .play import load

    data = ground("0404")
    unit(data, "b-cav", "0504", kind="cavalry", formation="1", **CAV)
    add_infantry(data, "r-2", "0705", formation="7", side="red")
    game = charged(data, dice=[1, 6, 4, 6])  # r-1 fails its check (disrupted): +3: die 4 = Dr -> Dm; fails: rout
    game.submit("blue", CHARGE)
    no_square(game)
    choose(game, "red", decision(game)["options"][0]["id"])  # the rout
    choose(game, "blue", "stay")  # 7.12: no advance
    choose(game, "blue", "pass")  # the Dm's fortune of war
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"]) == ("follow_up", "blue", "9.3(6)") and "0705" in d["hexes"]
    assert not game.state.units["b-cav"].ineffective
    load(game, [1, 1, 2, 1])
    events = game.submit("blue", {"type": "choose", "option": "0705"})
    assert any(e["type"] == "attack" and e["rule"] == "9.3(6)" for e in events)
    events += no_square(game)
    assert combat_event(events)["result"] == "Am(Ar)"


def test_9_3_7_ending_the_charge_leaves_the_cavalry_ineffective() -> None:
    game = charged(dice=[1, 6, 4, 6])
    game.submit("blue", CHARGE)
    no_square(game)
    choose(game, "red", decision(game)["options"][0]["id"])
    choose(game, "blue", "stay")
    events = choose(game, "blue", "pass")  # no other enemy next to the cavalry: "end the charge" is the one choice
    assert any(e["type"] == "auto" and e["rule"] == "9.3(6)" for e in events)
    assert game.state.units["b-cav"].ineffective and game.state.decision is None
