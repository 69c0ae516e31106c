"""Cavalry charges (9.1, 9.2, R9): the charge move (step 1) and the combat-phase sequence (steps 2-6).

Default position: red brigade r1 (defence 4, MR 4) at 0604 on clear ground; blue cavalry (charge 5, MR 4).
Hexes next to 0604: 0504, 0505, 0603, 0605, 0704, 0705.  Blue retreats west (0104), red east (1004).

Dice: a charger's morale check (step 2) and the defender's check (step 3) are one die each; a charge
combat rolls the combat die then the morale die (7.2(4)).  CRT rows used (R6):
    column +1..+2 (5 vs 4):   1 Ar, 2 Ac, 3 -, 4 Dc, 5 Dc, 6 Dr
    column +5..+6 (10 vs 4):  1 -, 2 Dc, 3 Dr, 4 Dr, 5 Dr, 6 Dx
    column -1..0  (5 vs 6):   1 Ar, 2 Ac, 3 Ac, 4 -, 5 Dc, 6 Dr
"""

from __future__ import annotations

from typing import Any

import pytest
from position import Position, choose, ctx_of, decision_kind, dice_left, option_ids, unit

from server.rules import Game, IllegalCommand
from server.rules.quickplay.cavalry import legal_charge_moves, legal_charges, unresolved


# --- helpers -------------------------------------------------------------------------------------------
def base(**r1: Any) -> Position:
    pos = Position()
    pos.unit("r1", "red", hex="0604", **{"attack": 4, "defense": 4, "mr": 4, **r1})
    return pos


def cav(pos: Position, uid: str, hex_: str, side: str = "blue", **kw: Any) -> Position:
    pos.unit(uid, side, "cavalry", hex=hex_, **{"attack": 3, "defense": 3, "mr": 4, "ma": 6, "charge": 5, **kw})
    return pos


def combat_game(pos: Position, chargers: dict[str, str], dice: list[int] | None = None) -> Game:
    """Blue's combat phase with the named cavalry having made its charge move against the given hexes."""
    game = pos.game(phase="combat", active="blue", dice=dice or [])
    for uid, target in chargers.items():
        game.state.units[uid].charging = target
        game.state.units[uid].moved = True
    return game


def charge(game: Game, target: str, chargers: list[str] | None = None, leaders: list[str] | None = None) -> list[dict[str, Any]]:
    cmd: dict[str, Any] = {"type": "charge", "target": target}
    if chargers is not None:
        cmd["chargers"] = chargers
    if leaders is not None:
        cmd["leaders"] = leaders
    return game.submit("blue", cmd)


def charge_move(game: Game, units: list[str], path: list[str], target: str) -> list[dict[str, Any]]:
    return game.submit("blue", {"type": "move", "units": units, "path": path, "charge": target})


def refused_move(game: Game, units: list[str], path: list[str], target: str, rule: str) -> IllegalCommand:
    before = game.to_json()
    with pytest.raises(IllegalCommand) as exc:
        charge_move(game, units, path, target)
    assert exc.value.rule == rule, exc.value
    assert game.to_json() == before
    return exc.value


def retreat_to(game: Game, last: str | None = None, length: int | None = None) -> list[dict[str, Any]]:
    """Answer a pending retreat decision: the first path ending at `last` / of `length` hexes."""
    d = game.state.decision
    assert d is not None and d["kind"] == "retreat", d
    for o in d["options"]:
        if (last is None or o["path"][-1] == last) and (length is None or len(o["path"]) == length):
            return choose(game, o["id"])
    raise AssertionError(f"no retreat option ends at {last} with length {length}: {option_ids(game)}")


def texts(events: list[dict[str, Any]]) -> str:
    return "\n".join(e["text"] for e in events)


def of_type(events: list[dict[str, Any]], t: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == t]


def result_event(events: list[dict[str, Any]]) -> dict[str, Any]:
    return next(e for e in events if e["type"] == "combat_result")


# --- 9.2 step 1: the charge move -----------------------------------------------------------------------
def test_9_2_step1_one_hex_charge_move_marks_the_unit_charging() -> None:
    game = cav(base(), "c1", "0404").game()
    events = charge_move(game, ["c1"], ["0404", "0504"], "0604")
    assert unit(game, "c1").hex == "0504" and unit(game, "c1").charging == "0604"
    assert any(e["type"] == "charge_move" and e["text"].startswith("9.2 step 1") for e in events)


def test_9_2_step1_two_hex_charge_move_is_allowed() -> None:
    game = cav(base(), "c1", "0304").game()
    charge_move(game, ["c1"], ["0304", "0404", "0504"], "0604")
    assert unit(game, "c1").hex == "0504" and unit(game, "c1").charging == "0604"


def test_9_2_step1_a_charge_moves_no_more_than_two_hexes() -> None:
    game = cav(base(), "c1", "0204").game()
    refused_move(game, ["c1"], ["0204", "0304", "0404", "0504"], "0604", "9.2 step 1")


def test_9_2_step1_a_charge_must_move_at_least_one_hex() -> None:
    game = cav(base(), "c1", "0504").game()
    refused_move(game, ["c1"], ["0504"], "0604", "9.2 step 1")


def test_9_2_step1_first_of_two_hexes_may_not_be_in_an_ezoc() -> None:
    pos = cav(base(), "c1", "0402")
    pos.unit("r2", "red", hex="0602")  # its ZOC covers 0503
    game = pos.game()
    refused_move(game, ["c1"], ["0402", "0503", "0504"], "0604", "9.2 step 1")
    charge_move(game, ["c1"], ["0402", "0403", "0504"], "0604")  # round the EZOC is fine
    assert unit(game, "c1").charging == "0604"


def test_9_2_step1_charge_must_end_adjacent_to_the_target() -> None:
    game = cav(base(), "c1", "0304").game()
    refused_move(game, ["c1"], ["0304", "0404"], "0604", "9.2 step 1")


def test_9_2_step1_target_must_hold_enemy_combat_units() -> None:
    pos = cav(base(), "c1", "0404")
    pos.leader("rl", "red", hex="0603")  # a lone leader cannot be charged
    game = pos.game()
    refused_move(game, ["c1"], ["0404", "0504"], "0603", "9.2 step 1")
    refused_move(game, ["c1"], ["0404", "0504"], "0503", "9.2 step 1")


def test_9_2_only_cavalry_charges() -> None:
    pos = base()
    pos.unit("b1", "blue", hex="0404")
    game = pos.game()
    refused_move(game, ["b1"], ["0404", "0504"], "0604", "9.2")


def test_9_2_each_charging_unit_moves_separately() -> None:
    pos = cav(cav(base(), "c1", "0404"), "c2", "0404")
    game = pos.game()
    refused_move(game, ["c1", "c2"], ["0404", "0504"], "0604", "9.2")


def test_9_2_step1_a_leader_may_ride_with_the_charging_unit() -> None:
    pos = cav(base(), "c1", "0404")
    pos.leader("bl", "blue", hex="0404")
    game = pos.game()
    charge_move(game, ["c1", "bl"], ["0404", "0504"], "0604")
    assert unit(game, "bl").hex == "0504" and unit(game, "bl").charging is None


def test_9_2_ineffective_cavalry_cannot_charge() -> None:
    game = cav(base(), "c1", "0404", ineffective=True).game()
    refused_move(game, ["c1"], ["0404", "0504"], "0604", "9.2")


def test_9_2_r9_charge_may_not_start_in_an_overstacked_hex() -> None:
    pos = cav(base(), "c1", "0404")
    for i in range(3):
        pos.unit(f"b{i}", "blue", hex="0303")
    game = pos.game()
    for i in range(3):
        game.state.units[f"b{i}"].hex = "0404"  # four combat units, none a battalion: over-stacked (R4)
    refused_move(game, ["c1"], ["0404", "0504"], "0604", "9.2")


@pytest.mark.parametrize("where", ["start", "entered", "target"])
def test_9_2_step1_charge_only_from_through_and_into_clear_or_clear_hill(where: str) -> None:
    pos = cav(base(), "c1", "0304")
    pos.terrain({"start": "0304", "entered": "0404", "target": "0604"}[where], "woods")
    game = pos.game()
    refused_move(game, ["c1"], ["0304", "0404", "0504"], "0604", "9.2 step 1")


def test_9_2_step1_clear_hill_counts_as_open_ground() -> None:
    pos = cav(base(), "c1", "0304")
    pos.terrain(["0304", "0404", "0504", "0604"], "hill")
    game = pos.game()
    charge_move(game, ["c1"], ["0304", "0404", "0504"], "0604")
    assert unit(game, "c1").charging == "0604"


@pytest.mark.parametrize("feature", ["stream", "slope", "bridge"])
def test_9_2_step1_charge_may_not_cross_any_hexside_terrain(feature: str) -> None:
    pos = cav(base(), "c1", "0404")
    pos.hexside("0404", "0504", feature)
    game = pos.game()
    refused_move(game, ["c1"], ["0404", "0504"], "0604", "9.2 step 1")


def test_9_2_step1_charge_may_not_be_made_across_hexside_terrain_into_the_target() -> None:
    pos = cav(base(), "c1", "0404")
    pos.hexside("0504", "0604", "stream")
    game = pos.game()
    refused_move(game, ["c1"], ["0404", "0504"], "0604", "9.2 step 1")
    charge_move(game, ["c1"], ["0404", "0505"], "0604")  # from a hex without the stream
    assert unit(game, "c1").charging == "0604"


def test_9_2_step1_may_not_enter_a_friendly_occupied_hex() -> None:
    pos = cav(base(), "c1", "0304")
    pos.unit("b1", "blue", hex="0404")
    game = pos.game()
    refused_move(game, ["c1"], ["0304", "0404", "0504"], "0604", "9.2 step 1")


def test_9_2_step1_may_not_enter_the_hex_of_a_previous_charger_but_may_charge_from_another() -> None:
    pos = cav(cav(base(), "c1", "0404"), "c2", "0404")
    game = pos.game()
    charge_move(game, ["c1"], ["0404", "0504"], "0604")
    refused_move(game, ["c2"], ["0404", "0504"], "0604", "9.2 step 1")
    charge_move(game, ["c2"], ["0404", "0505"], "0604")
    assert unit(game, "c1").charging == unit(game, "c2").charging == "0604"


def test_9_2_step1_normal_movement_rules_still_apply() -> None:
    pos = cav(base(), "c1", "0504")  # starts in r1's ZOC: one hex only, and not into another EZOC (6.2)
    pos.unit("r2", "red", hex="0602")
    game = pos.game()
    with pytest.raises(IllegalCommand) as exc:
        charge_move(game, ["c1"], ["0504", "0505"], "0604")
    assert exc.value.rule == "6.2"


def test_9_2_a_unit_that_made_its_charge_move_may_not_move_again() -> None:
    game = cav(base(), "c1", "0404").game()
    charge_move(game, ["c1"], ["0404", "0504"], "0604")
    with pytest.raises(IllegalCommand) as exc:
        game.submit("blue", {"type": "move", "units": ["c1"], "path": ["0504", "0505"]})
    assert exc.value.rule in ("9.2", "4.1")


def test_9_2_step1_every_generated_charge_move_is_legal() -> None:
    def fresh() -> Game:
        pos = cav(cav(base(), "c1", "0304"), "c2", "0404")
        pos.unit("r2", "red", hex="0602")
        pos.terrain("0505", "woods")
        return pos.game()

    cmds = legal_charge_moves(ctx_of(fresh()), "blue")
    assert cmds and any(len(c["path"]) == 3 for c in cmds) and any(len(c["path"]) == 2 for c in cmds)
    assert {c["charge"] for c in cmds} <= {"0604", "0602"}
    for cmd in cmds:
        game = fresh()
        game.submit("blue", cmd)
        assert unit(game, cmd["units"][0]).charging == cmd["charge"]
    assert not any("0505" in c["path"] for c in cmds)  # woods


def test_9_2_charging_cavalry_attacks_only_by_charging() -> None:
    game = combat_game(cav(base(), "c1", "0504"), {"c1": "0604"})
    with pytest.raises(IllegalCommand) as exc:
        game.submit("blue", {"type": "attack", "target": "0604", "attackers": ["c1"]})
    assert exc.value.rule == "9.2"


def test_9_2_charge_command_refuses_a_unit_that_did_not_declare_against_that_hex() -> None:
    pos = cav(cav(base(), "c1", "0504"), "c2", "0505")
    game = combat_game(pos, {"c1": "0604"})
    with pytest.raises(IllegalCommand) as exc:
        charge(game, "0604", ["c2"])
    assert exc.value.rule == "9.2 step 1"


# --- 9.2 step 2: the charger's morale check -----------------------------------------------------------
def test_9_2_step2_failed_charger_goes_ineffective_and_retreats_3() -> None:
    game = combat_game(cav(base(), "c1", "0504"), {"c1": "0604"}, dice=[6])
    events = charge(game, "0604")
    assert unit(game, "c1").ineffective and not unit(game, "c1").disrupted  # R9: cavalry goes ineffective
    if decision_kind(game) == "retreat":
        assert all(len(p) == 3 for p in (o["path"] for o in game.state.decision["options"]))
        events += retreat_to(game)
    retreat = of_type(events, "retreat")[0]
    assert retreat["units"] == ["c1"] and len(retreat["path"]) == 4 and retreat["rule"] == "9.2 step 2"
    assert unit(game, "c1").hex == retreat["path"][-1]
    assert "combat_result" not in [e["type"] for e in events]
    assert game.state.combat is None and dice_left(game) == 0


def test_9_2_step2_defenders_are_chosen_before_the_charger_checks_morale() -> None:
    pos = cav(base(), "c1", "0504")
    pos.unit("rb", "red", "battalion", hex="0604", attack=2, defense=2)
    game = combat_game(pos, {"c1": "0604"}, dice=[6])
    charge(game, "0604")
    assert decision_kind(game) == "defenders" and game.state.decision["side"] == "red"
    assert dice_left(game) == 1  # no die rolled yet


def test_9_2_step2_next_charger_checks_when_the_first_fails() -> None:
    pos = cav(cav(base(), "c1", "0504"), "c2", "0505")
    # c1 fails (6); c2 passes (1); r1 fails step 3 (6); combat 10 vs 4: die 1 "-" -> Am; c2's morale 1 passes
    game = combat_game(pos, {"c1": "0604", "c2": "0604"}, dice=[6, 1, 6, 1, 1])
    events = charge(game, "0604")
    while decision_kind(game) == "retreat":
        events += retreat_to(game)
    morale = [e for e in of_type(events, "morale") if e.get("rule") == "9.2 step 2"]
    assert [(e["unit"], e["passed"]) for e in morale] == [("c1", False), ("c2", True)]
    assert result_event(events)["result"] == "Am" and dice_left(game) == 0


def test_9_2_step2_chargers_default_to_every_declared_unit_in_id_order() -> None:
    pos = cav(cav(base(), "c2", "0504"), "c1", "0505")
    game = combat_game(pos, {"c1": "0604", "c2": "0604"}, dice=[6, 6])
    events = charge(game, "0604")
    while decision_kind(game) == "retreat":
        events += retreat_to(game)
    assert [e["unit"] for e in of_type(events, "morale")] == ["c1", "c2"]


def test_9_2_step2_all_chargers_failing_means_no_charge_and_no_counterattack() -> None:
    pos = cav(cav(base(), "c1", "0504"), "c2", "0505")
    game = combat_game(pos, {"c1": "0604", "c2": "0604"}, dice=[6, 6])
    assert "r1" in game.state.ca_eligible  # r1 exerted a ZOC on blue units at the start of the phase
    events = charge(game, "0604")
    while decision_kind(game) == "retreat":
        events += retreat_to(game)
    assert any(e["type"] == "charge_refused" and "9.2 step 2" in e["text"] for e in events)
    assert "r1" not in game.state.ca_eligible
    events = game.submit("blue", {"type": "end_phase"})
    assert not any(e.get("kind") == "counterattack" for e in events)
    assert game.state.phase != "combat" or game.state.decision is None


def test_9_2_step2_leader_adds_its_morale_to_the_charger() -> None:
    pos = cav(base(disrupted=True), "c1", "0504")
    pos.leader("bl", "blue", hex="0504")
    # die 5 passes only with the leader's +1 (MR 4 + 1); then 12 vs 4 die 1 "-" -> Am, morale 1; leader check 3+3
    game = combat_game(pos, {"c1": "0604"}, dice=[5, 1, 1, 3, 3])
    events = charge(game, "0604", leaders=["bl"])
    morale = of_type(events, "morale")[0]
    assert morale["rating"] == 5 and morale["passed"]


# --- 9.2 step 3: the defender's morale check and squares -------------------------------------------------
def test_9_2_step3_defender_failing_disrupts_and_stays() -> None:
    # c1 passes; r1 fails (6) -> disrupted; 10 vs 4 die 1 "-" -> Am; c1 passes morale (1) and retreats 3
    game = combat_game(cav(base(), "c1", "0504"), {"c1": "0604"}, dice=[1, 6, 1, 1])
    events = charge(game, "0604")
    assert unit(game, "r1").disrupted and unit(game, "r1").hex == "0604"
    assert any(e["type"] == "disrupted" and e["rule"] == "9.2 step 3" for e in events)
    assert of_type(events, "retreat") == [] or all(e["units"] == ["c1"] for e in of_type(events, "retreat"))


def test_9_2_step3_defender_passing_may_form_square() -> None:
    game = combat_game(cav(base(), "c1", "0504"), {"c1": "0604"}, dice=[1, 1, 4, 1])
    charge(game, "0604")
    assert decision_kind(game) == "charge_square" and game.state.decision["side"] == "red"
    events = choose(game, "square")
    assert game.state.squares.get("0604") == "r1"
    assert any(e["type"] == "square_formed" for e in events)


def test_9_2_step3_defender_passing_may_decline_the_square() -> None:
    # 5 vs 4 die 4: Dc -> Dm; r1 morale 1 passes: it retreats (not a rout)
    game = combat_game(cav(base(), "c1", "0504"), {"c1": "0604"}, dice=[1, 1, 4, 1])
    charge(game, "0604")
    events = choose(game, "no_square")
    assert "0604" not in game.state.squares
    assert result_event(events)["defense"] == 4


def test_9_2_step3_a_square_does_not_check_morale_against_the_charge() -> None:
    pos = Position()
    pos.unit("r1", "red", hex="0604", attack=4, defense=4, mr=4, square=True)
    cav(pos, "c1", "0504")
    game = combat_game(pos, {"c1": "0604"}, dice=[1, 4, 1])  # charger, combat die, morale die: no step-3 die
    events = charge(game, "0604")
    assert any(e["type"] == "no_check" and "square" in e["text"] for e in events)
    assert result_event(events)["dice"] == [4, 1] and dice_left(game) == 0


def test_9_2_step3_a_disrupted_defender_does_not_check_morale() -> None:
    game = combat_game(cav(base(disrupted=True), "c1", "0504"), {"c1": "0604"}, dice=[1, 1, 1])
    events = charge(game, "0604")
    assert any(e["type"] == "no_check" and e["rule"] == "9.2 step 3" for e in events)
    assert result_event(events)["dice"] == [1, 1] and dice_left(game) == 0


def test_9_2_step3_a_non_infantry_defender_passing_is_offered_no_square() -> None:
    pos = Position()
    pos.unit("ra", "red", "artillery", hex="0604", attack=3, defense=4, mr=4)
    cav(pos, "c1", "0504")
    game = combat_game(pos, {"c1": "0604"}, dice=[1, 1, 4, 1])
    events = charge(game, "0604")
    assert decision_kind(game) != "charge_square"
    assert "0604" not in game.state.squares and result_event(events)["result"] == "Dm"


def test_9_2_step3_forming_square_leaves_only_the_square_unit_defending() -> None:
    pos = cav(base(), "c1", "0504")
    pos.unit("rb", "red", "battalion", hex="0604", attack=2, defense=2)
    game = combat_game(pos, {"c1": "0604"}, dice=[1, 1, 4, 1])
    charge(game, "0604")
    choose(game, "r1|r1+rb|-")
    assert decision_kind(game) == "charge_square"
    events = choose(game, "square")
    ev = result_event(events)
    assert ev["defense"] == 6  # r1 4 + 2 (9.3(a)); the battalion no longer takes part (9.3(2))
    assert [p.get("unit") for p in ev["defense_parts"] if "unit" in p] == ["r1"]


def test_9_2_step3_a_battalion_failing_goes_ineffective_and_the_charge_is_doubled() -> None:
    pos = Position()
    pos.unit("rb", "red", "battalion", hex="0604", attack=2, defense=2, mr=4,
             ineffective_factors={"attack": 0, "defense": 1, "mr": 2, "ma": 5})
    cav(pos, "c1", "0504")
    game = combat_game(pos, {"c1": "0604"}, dice=[1, 6, 1, 1])
    events = charge(game, "0604")
    assert any(e["type"] == "ineffective" and e["unit"] == "rb" and e["rule"] == "9.2 step 3" for e in events)
    ev = result_event(events)
    assert ev["attack"] == 10 and ev["defense"] == 1


# --- 9.2 steps 4 and 5: resolution ------------------------------------------------------------------------
def test_9_2_step4_the_charge_factor_is_the_attack_strength() -> None:
    game = combat_game(cav(base(), "c1", "0504", attack=1), {"c1": "0604"}, dice=[1, 1, 4, 1])
    charge(game, "0604")
    ev = result_event(choose(game, "no_square"))
    assert ev["attack"] == 5 and ev["kind"] == "charge"


def test_9_2_step4_charge_factor_doubled_against_a_disrupted_primary() -> None:
    # 10 vs 4 (+6): combat die 2 is Dc -> Dm; the same die at 5 vs 4 would be Ac -> Am
    game = combat_game(cav(base(disrupted=True), "c1", "0504"), {"c1": "0604"}, dice=[1, 2, 1])
    events = charge(game, "0604")
    ev = result_event(events)
    assert ev["attack"] == 10 and ev["result"] == "Dm"
    assert any("9.1(3)" in n for p in ev["attack_parts"] for n in p["notes"])


def test_9_2_step4_the_charge_is_not_doubled_against_an_undisrupted_primary() -> None:
    game = combat_game(cav(base(), "c1", "0504"), {"c1": "0604"}, dice=[1, 1, 2, 1])
    charge(game, "0604")
    events = choose(game, "no_square")
    ev = result_event(events)
    assert ev["attack"] == 5 and ev["result"] == "Am"


def test_9_2_r9_leader_cf_is_added_before_doubling() -> None:
    pos = cav(base(disrupted=True), "c1", "0504")
    pos.leader("bl", "blue", hex="0504")
    game = combat_game(pos, {"c1": "0604"}, dice=[1, 1, 1, 3, 3])
    ev = result_event(charge(game, "0604", leaders=["bl"]))
    assert ev["attack"] == 12  # (5 + 1) x 2


@pytest.mark.parametrize("die,crt", [(4, "Dc"), (5, "Dc"), (6, "Dr")])
def test_9_2_step5_every_d_result_becomes_dm(die: int, crt: str) -> None:
    game = combat_game(cav(base(), "c1", "0504"), {"c1": "0604"}, dice=[1, 1, die, 1])
    charge(game, "0604")
    ev = result_event(choose(game, "no_square"))
    assert ev["result"] == "Dm"


@pytest.mark.parametrize("die", [1, 2, 3])
def test_9_2_step5_every_other_result_becomes_am(die: int) -> None:
    game = combat_game(cav(base(), "c1", "0504"), {"c1": "0604"}, dice=[1, 1, die, 1])
    charge(game, "0604")
    events = choose(game, "no_square")
    assert result_event(events)["result"] == "Am"
    while decision_kind(game) == "retreat":
        events += retreat_to(game)
    # m with the primary passing is "as r-fail": the charger goes ineffective and (cavalry) retreats 3
    assert unit(game, "c1").ineffective and of_type(events, "retreat")[0]["units"] == ["c1"]
    assert len(of_type(events, "retreat")[0]["path"]) == 4


def test_9_2_step5_am_with_a_failed_morale_eliminates_the_one_step_charger() -> None:
    game = combat_game(cav(base(), "c1", "0504"), {"c1": "0604"}, dice=[1, 1, 3, 6])
    charge(game, "0604")
    choose(game, "no_square")
    assert unit(game, "c1").status == "eliminated"


def test_9_2_step5_dm_with_the_defender_passing_is_a_retreat_without_advance() -> None:
    game = combat_game(cav(base(), "c1", "0504"), {"c1": "0604"}, dice=[1, 1, 4, 1])
    charge(game, "0604")
    choose(game, "no_square")
    events = retreat_to(game, length=1)
    assert unit(game, "r1").disrupted and unit(game, "r1").hex != "0604" and not unit(game, "r1").reduced
    assert decision_kind(game) is None and unit(game, "c1").hex == "0504"
    assert unit(game, "c1").ineffective  # 9.2 step 6: flipped in its final hex
    assert any(e["type"] == "ineffective" and e["unit"] == "c1" and e["rule"] == "9.2 step 6" for e in events)


def test_9_2_step5_defenders_still_there_the_next_charger_returns_to_step2() -> None:
    pos = cav(cav(base(), "c1", "0504"), "c2", "0505")
    # c1: passes, r1 passes (no square), die 1 Ar -> Am, c1 passes morale and retreats 3;
    # c2: step 2 again (1), r1 checks again (6, disrupted), 10 vs 4 die 2 Dc -> Dm, r1 morale 1 passes
    game = combat_game(pos, {"c1": "0604", "c2": "0604"}, dice=[1, 1, 1, 1, 1, 6, 2, 1])
    events = charge(game, "0604")
    events += choose(game, "no_square")
    while decision_kind(game) == "retreat" and game.state.decision["side"] == "blue":
        events += retreat_to(game)
    results = of_type(events, "combat_result")
    assert [r["result"] for r in results] == ["Am", "Dm"] and results[1]["attack"] == 10
    step2 = [e["unit"] for e in of_type(events, "morale") if e.get("rule") == "9.2 step 2"]
    assert step2 == ["c1", "c2"]


# --- 9.2 step 6: rout, advance, charge again ------------------------------------------------------------------
def rout_first(pos: Position, extra_dice: list[int] | None = None, chargers: dict[str, str] | None = None) -> Game:
    """c1 at 0504 charges r1 at 0604: r1 fails step 3, 10 vs 4 die 2 Dm, r1 fails morale (6): a rout."""
    game = combat_game(pos, chargers or {"c1": "0604"}, dice=[1, 6, 2, 6] + list(extra_dice or []))
    charge(game, "0604", ["c1"])
    assert decision_kind(game) == "retreat" and game.state.decision["side"] == "red"
    retreat_to(game)
    assert unit(game, "r1").hex != "0604" and unit(game, "r1").reduced
    return game


def test_9_2_step6_a_rout_lets_the_charger_advance_up_to_two_hexes() -> None:
    game = rout_first(cav(base(), "c1", "0504"))
    assert decision_kind(game) == "charge_advance"
    assert set(option_ids(game)) == {"stay", "0604", "0505", "0603"}  # the vacated hex or a vacant hex beside it
    choose(game, "0604")
    assert unit(game, "c1").hex == "0604" and decision_kind(game) == "charge_advance"
    assert "0705" in option_ids(game)  # the second hex in any direction
    choose(game, "0705")
    assert unit(game, "c1").hex == "0705" and unit(game, "c1").ineffective  # flips in its final hex
    assert game.state.combat is None


def test_9_2_step6_advancing_zero_hexes_is_allowed() -> None:
    game = rout_first(cav(base(), "c1", "0504"))
    events = choose(game, "stay")
    assert unit(game, "c1").hex == "0504" and unit(game, "c1").ineffective
    assert any(e["type"] == "no_advance" and e["rule"] == "9.2 step 6" for e in events)


def test_9_2_step6_r9_the_advance_ignores_ezoc() -> None:
    pos = cav(base(), "c1", "0504")
    pos.unit("r3", "red", hex="0703")  # its ZOC covers 0603 and 0704
    game = rout_first(pos)
    assert "0603" in option_ids(game)
    choose(game, "0603")
    assert "0704" in option_ids(game)  # EZOC to EZOC
    choose(game, "0704")
    assert unit(game, "c1").hex == "0704"


def test_9_2_step6_r9_the_advance_may_not_enter_prohibited_terrain() -> None:
    pos = cav(base(), "c1", "0504")
    pos.terrain("0603", "marsh")
    game = rout_first(pos)
    assert "0603" not in option_ids(game) and "0505" in option_ids(game)


def test_9_2_step6_the_victor_may_charge_again_at_a_new_hex() -> None:
    pos = cav(base(), "c1", "0504")
    pos.unit("r2", "red", hex="0704", attack=4, defense=4, mr=4)
    # second charge: c1 passes (1), r2 fails (6), 10 vs 4 die 2 Dm, r2 morale 1 passes -> retreat
    game = rout_first(pos, extra_dice=[1, 6, 2, 1])
    choose(game, "0604")
    choose(game, "stay")
    assert decision_kind(game) == "charge_again" and set(option_ids(game)) == {"0704", "none"}
    events = choose(game, "0704")
    assert any(e["type"] == "combat_declared" and e["rule"] == "9.2 step 6" for e in events)
    assert result_event(events)["target"] == "0704" and result_event(events)["result"] == "Dm"
    events += retreat_to(game)  # r2 was disrupted in step 3: it retreats at least 2 (R7)
    assert unit(game, "c1").hex == "0604" and unit(game, "c1").ineffective
    assert game.state.combat is None


def test_9_2_step6_the_new_target_must_meet_step1_terrain_limits() -> None:
    pos = cav(base(), "c1", "0504")
    pos.unit("r2", "red", hex="0705")
    pos.terrain("0705", "woods")
    pos.unit("r3", "red", hex="0704")
    pos.hexside("0604", "0704", "stream")
    pos.unit("r4", "red", hex="0605")
    game = rout_first(pos)
    choose(game, "0604")
    choose(game, "stay")
    assert decision_kind(game) == "charge_again" and set(option_ids(game)) == {"0605", "none"}


def test_9_2_step6_declining_the_second_charge_flips_the_charger() -> None:
    pos = cav(base(), "c1", "0504")
    pos.unit("r2", "red", hex="0704")
    game = rout_first(pos)
    choose(game, "0604")
    choose(game, "stay")
    choose(game, "none")
    assert unit(game, "c1").ineffective and unit(game, "c1").hex == "0604" and game.state.combat is None


def test_9_2_step6_twice_victorious_may_advance_but_not_charge_a_third_time() -> None:
    pos = cav(base(), "c1", "0504")
    pos.unit("r2", "red", hex="0704", attack=4, defense=4, mr=4)
    pos.unit("r3", "red", hex="0803", attack=4, defense=4, mr=4)  # beside 0704
    # second charge routs r2 as well: 1, 6, 2 (Dm), 6 (rout)
    game = rout_first(pos, extra_dice=[1, 6, 2, 6])
    choose(game, "0604")
    choose(game, "stay")
    choose(game, "0704")
    retreat_to(game)  # r2 routs
    assert decision_kind(game) == "charge_advance"  # up to two additional hexes
    choose(game, "0704")
    events = choose(game, "stay")
    assert decision_kind(game) is None  # r3 at 0803 is adjacent, but there is no third charge
    assert any(e["type"] == "no_third_charge" for e in events)
    assert unit(game, "c1").hex == "0704" and unit(game, "c1").ineffective
    assert game.state.combat is None and dice_left(game) == 0


def test_9_2_r9_cavalry_declared_against_a_routed_hex_makes_no_charge() -> None:
    pos = cav(cav(base(), "c1", "0504"), "c2", "0505")
    game = combat_game(pos, {"c1": "0604", "c2": "0604"}, dice=[1, 6, 2, 6])
    events = charge(game, "0604")
    events += retreat_to(game)
    assert any(e["type"] == "no_charge" and e["unit"] == "c2" for e in events)
    choose(game, "stay")
    assert not unit(game, "c2").ineffective and unit(game, "c2").hex == "0505"
    assert unresolved(ctx_of(game), "blue") == []
    with pytest.raises(IllegalCommand):
        charge(game, "0604", ["c2"])
    game.submit("blue", {"type": "end_phase"})
    assert unit(game, "c2").charging is None and not unit(game, "c2").ineffective


# --- the combat phase around charges ------------------------------------------------------------------------
def test_9_2_end_phase_is_refused_while_declared_charges_are_unresolved() -> None:
    game = combat_game(cav(base(), "c1", "0504"), {"c1": "0604"})
    assert unresolved(ctx_of(game), "blue") == ["c1"]
    with pytest.raises(IllegalCommand) as exc:
        game.submit("blue", {"type": "end_phase"})
    assert exc.value.rule == "9.2"
    assert {"type": "end_phase"} not in list(game.legal_commands("blue"))


def test_9_2_step6_charged_cavalry_flips_and_the_flags_clear_at_the_end_of_the_combat_phase() -> None:
    game = combat_game(cav(base(), "c1", "0504"), {"c1": "0604"}, dice=[1, 1, 4, 1])
    charge(game, "0604")
    choose(game, "no_square")
    retreat_to(game, length=1)
    assert unit(game, "c1").ineffective and unit(game, "c1").charging == "0604"
    game.submit("blue", {"type": "end_phase"})
    while game.state.decision is not None:
        choose(game, option_ids(game)[-1])
    assert unit(game, "c1").charging is None and unit(game, "c1").ineffective


def test_9_2_charge_is_an_exception_to_7_1_5_the_hex_may_already_have_been_attacked() -> None:
    pos = cav(base(), "c1", "0504")
    pos.unit("b1", "blue", hex="0505", attack=4)
    # b1 attacks first: 4 vs 4, die 4 "-"; then c1 charges: passes, r1 fails, 10 vs 4 die 1 "-" -> Am, morale 1
    game = combat_game(pos, {"c1": "0604"}, dice=[4, 1, 1, 6, 1, 1])
    game.submit("blue", {"type": "attack", "target": "0604", "attackers": ["b1"]})
    assert "0604" in game.state.attacked_hexes
    events = charge(game, "0604")
    assert result_event(events)["kind"] == "charge"


def test_9_2_r8_a_charged_hex_may_not_counterattack() -> None:
    game = combat_game(cav(base(), "c1", "0504"), {"c1": "0604"}, dice=[1, 1, 3, 1])
    assert "r1" in game.state.ca_eligible
    charge(game, "0604")
    choose(game, "no_square")
    assert "r1" not in game.state.ca_eligible


def test_9_2_every_generated_charge_command_is_legal() -> None:
    def fresh() -> Game:
        pos = cav(cav(base(), "c1", "0504"), "c2", "0505")
        pos.leader("bl", "blue", hex="0504")
        return combat_game(pos, {"c1": "0604", "c2": "0604"}, dice=[6, 6])

    cmds = legal_charges(ctx_of(fresh()), "blue")
    # both together in either order, or either alone; with or without the leader riding with c1
    orders = [c["chargers"] for c in cmds]
    assert sorted(map(tuple, orders)) == sorted([("c1", "c2"), ("c1", "c2"), ("c2", "c1"), ("c2", "c1"),
                                                ("c1",), ("c1",), ("c2",)])
    assert all(c.get("leaders", ["bl"]) == ["bl"] for c in cmds)
    for cmd in cmds:
        game = fresh()
        game.submit("blue", cmd)
        assert unit(game, cmd["chargers"][0]).attacked


def test_9_2_step4_9_3_a_a_charge_against_a_square_meets_plus_2_cf_and_plus_2_mr() -> None:
    pos = Position()
    pos.unit("r1", "red", hex="0604", attack=4, defense=4, mr=4, square=True)
    cav(pos, "c1", "0504")
    # 5 vs 6 (-1): die 5 Dc -> Dm; r1's morale die 5 passes only at MR 4 + 2
    game = combat_game(pos, {"c1": "0604"}, dice=[1, 5, 5])
    events = charge(game, "0604")
    ev = result_event(events)
    assert ev["attack"] == 5 and ev["defense"] == 6 and ev["result"] == "Dm"
    morale = next(e for e in of_type(events, "morale") if e["unit"] == "r1")
    assert morale["rating"] == 6 and morale["passed"]
    assert not unit(game, "r1").reduced  # a retreat, not a rout
