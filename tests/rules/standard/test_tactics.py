"""Choice of tactics (seed 002 7.13): skirmish, press forward, charge, disengage, last stand; the attacker announces
first, the defender answers as a decision with the attacker's choice shown; each as the seed demands."""

from __future__ import annotations

from typing import Any

from server.rules import Game
from server.rules.standard.close_combat import tactic_preview
from server.rules.standard.context import StdCtx
from server.rules.standard.crt import crt_row, parse_cell
from server.rules.standard.tactics import convert

from .builder import unit
from .fight import ARTILLERY, combat, combat_event, decision, flag, ground
from .play import choose, hex_of, refused

ATTACK = {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1"}


def answer(game: Game, option: str) -> list[dict[str, Any]]:
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"]) == ("tactic", "red", "7.13")
    events: list[dict[str, Any]] = game.submit("red", {"type": "choose", "option": option})
    return events


# --- the conversions, as tables ------------------------------------------------------------------------------------
def test_7_13_skirmish_converts_a_and_ex_to_ne_dx_and_dm_to_dr_and_drops_secondary_results() -> None:
    for cell, want in (("Ax", "NE"), ("Ar Ammo", "NE"), ("Ex Leader", "NE"), ("Dx", "Dr"), ("Dm(Dx) Leader", "Dr"),
                       ("Dc(NE) Ammo", "Dc(NE)"), ("Dr", "Dr"), ("Ax DF", "NE")):
        assert str(convert(parse_cell(cell), "skirmish", "none").result) == want, cell


def test_7_13_charge_converts_a_and_ex_to_ax_and_d_to_dm_ax() -> None:
    for cell, want in (("Ar", "Ax"), ("Ex Leader", "Ax Leader"), ("Dr", "Dm(Ax)"), ("Dc(NE)", "Dm(Ax)"),
                       ("Dx", "Dm(Ax)"), ("NE", "NE")):
        assert str(convert(parse_cell(cell), "charge", "none").result) == want, cell
    assert str(convert(parse_cell("Dr"), "charge", "none", pressed=False).result) == "Dr"


def test_7_13_disengage_conversions_for_either_side_and_both() -> None:
    att = convert(parse_cell("Dx"), "disengage", "none")
    assert str(att.result) == "Ar" and att.forced == {"attacker"}
    assert str(convert(parse_cell("Ac(NE)"), "disengage", "none").result) == "Ar"
    assert str(convert(parse_cell("Ex"), "disengage", "none").result) == "Ar"
    dfn = convert(parse_cell("Ax"), "none", "disengage")
    assert str(dfn.result) == "Dr" and dfn.forced == {"defender"}
    assert str(convert(parse_cell("Dc(NE)"), "none", "disengage").result) == "Dr"
    assert str(convert(parse_cell("Dx"), "none", "disengage").result) == "Dx"
    both = convert(parse_cell("Ex"), "disengage", "disengage")
    assert both.both_retreat and both.forced == {"attacker", "defender"}
    assert not convert(parse_cell("NE"), "disengage", "disengage").both_retreat
    # 7.13(4): a defender disengaging from a charge: the attacker suffers no losses
    assert str(convert(parse_cell("Ar"), "charge", "disengage").result) == "Dr"
    assert str(convert(parse_cell("Dr"), "charge", "disengage").result) == "Dm(Dr)"


# --- announcing -----------------------------------------------------------------------------------------------------
def test_7_13_the_defender_answers_with_the_attackers_choice_shown() -> None:
    game = combat(ground(), [2, 1])
    game.submit("blue", {**ATTACK, "tactic": "press"})
    d = decision(game)
    assert d["kind"] == "tactic" and d["attack_tactic"] == "press" and "press forward" in d["text"]
    assert [o["id"] for o in d["options"]] == ["none", "disengage", "last_stand"]
    assert game.state.combat is not None and game.state.combat["tactic"] == "press"  # 7.13: never withdrawn


def test_7_13_each_defending_tactic_carries_its_odds_as_the_combat_stands() -> None:
    game = combat(ground(), [2, 1])
    game.submit("blue", {**ATTACK, "tactic": "press"})
    pv = {o["id"]: o["preview"] for o in decision(game)["options"]}
    # 7.13(2): press forward adds two to the attack (6 + 2 - 5 = +3); 7.13(5): last stand three to the defence
    assert (pv["none"]["attack"], pv["none"]["defense"], pv["none"]["differential"]) == (8, 5, 3)
    assert (pv["last_stand"]["defense"], pv["last_stand"]["differential"]) == (8, 0)
    for tactic, p in pv.items():
        want = [str(convert(r, "press", tactic).result) for r in crt_row(p["differential"])]
        assert p["results"] == want, tactic
        assert abs(sum(p["odds"].values()) - 1) < 1e-9 and all(p["odds"][r] == want.count(r) / 6 for r in want)
    # 7.13(4): disengaging, no result hurts the attacker: what would have becomes the defender's retreat
    assert not any(r.startswith(("A", "Ex")) for r in pv["disengage"]["results"])


def test_7_13_4_both_disengaging_the_odds_show_both_sides_retreating() -> None:
    game = combat(ground(), [2, 1])
    game.submit("blue", {**ATTACK, "tactic": "disengage"})
    pv = {o["id"]: o["preview"] for o in decision(game)["options"]}
    want = [str(r) if r.affects is None else "both retreat" for r in crt_row(pv["disengage"]["differential"])]
    assert pv["disengage"]["results"] == want and "both retreat" in want
    assert "both retreat" not in pv["none"]["results"]


def test_7_13_the_odds_shown_for_a_tactic_are_the_ones_the_combat_is_resolved_with() -> None:
    for die in range(1, 7):
        for tactic in ("none", "disengage", "last_stand"):
            game = combat(ground(), [die, 1])
            game.submit("blue", ATTACK)
            shown = next(o["preview"] for o in decision(game)["options"] if o["id"] == tactic)
            events = answer(game, tactic)
            assert combat_event(events)["result"] == shown["results"][die - 1], (die, tactic)


def test_9_4_a_countercharge_against_infantry_shows_no_odds_it_becomes_the_defenders_charge() -> None:
    game = combat(ground(), [2, 1])
    game.submit("blue", ATTACK)
    c = game.state.combat
    assert c is not None
    assert tactic_preview(StdCtx.of(game), c, "countercharge") is None


def test_7_13_an_unknown_tactic_is_refused() -> None:
    game = combat(ground())
    assert refused(game, "blue", {**ATTACK, "tactic": "bayonets"}).rule == "7.13"


# --- 7.13(1) skirmish -------------------------------------------------------------------------------------------------
def test_7_13_skirmish_two_hexes_over_an_empty_hex_uses_the_movement_allowances() -> None:
    game = combat(ground("0504"), [4, 1])  # MA 4 - MA 4 = 0: die 4 = Ex Leader, read as NE
    cmd = {**ATTACK, "tactic": "skirmish"}
    p = game.preview("blue", cmd)
    assert p["legal"] and p["differential"] == 0 and p["tactic"]["rule"] == "7.13(1)"
    game.submit("blue", cmd)
    events = answer(game, "none")
    c = combat_event(events)
    assert (c["differential"], c["crt"], c["result"]) == (0, "Ex Leader", "NE")
    assert not game.state.units["b-1"].reduced and not game.state.units["r-1"].reduced
    assert not any(e["type"] == "leader_lost" for e in events) and game.state.dice_count == 2


def test_7_13_skirmish_needs_an_empty_hex_between_and_a_range_of_two() -> None:
    data = ground("0504")
    cmd = {**ATTACK, "tactic": "skirmish"}
    unit(data, "b-bn", "0604", kind="battalion", formation="1", full={"cf": 2, "mr": 4, "ma": 5},
         ineffective={"cf": 0, "mr": 2, "ma": 5})
    assert combat(data).preview("blue", cmd)["legal"]  # the line runs between 0603 and 0604: 0603 is empty (S25)
    unit(data, "b-bn2", "0603", kind="battalion", formation="1", full={"cf": 2, "mr": 4, "ma": 5},
         ineffective={"cf": 0, "mr": 2, "ma": 5})
    game = combat(data)
    e = refused(game, "blue", cmd)
    assert e.rule == "7.13(1)" and "empty hex" in e.message
    game = combat(ground("0404"))
    assert refused(game, "blue", {**ATTACK, "tactic": "skirmish"}).rule == "7.13(1)"  # three hexes away


def test_7_13_skirmish_adjacent_is_refused_from_an_enemy_zone_of_control() -> None:
    game = combat(ground())
    e = refused(game, "blue", {**ATTACK, "tactic": "skirmish"})
    assert e.rule == "7.13(1)" and "zone of control" in e.message
    data = ground()
    flag(data, "r-1", disrupted=True)  # 6.1: a disrupted unit exerts no ZOC
    game = combat(data)
    assert game.preview("blue", {**ATTACK, "tactic": "skirmish"})["legal"]


def test_7_13_skirmish_only_infantry_with_a_plain_movement_allowance() -> None:
    data = ground("0504")
    unit(data, "b-1", "0504", kind="infantry", formation="1", full={"cf": 6, "mr": 4, "ma": 4, "bracketed": True},
         reduced={"cf": 3, "mr": 3, "ma": 4})
    game = combat(data)
    e = refused(game, "blue", {**ATTACK, "tactic": "skirmish"})
    assert e.rule == "7.13(1)" and "bracketed" in e.message


def test_7_13_skirmishers_never_advance_and_a_dx_is_a_dr() -> None:
    data = ground("0504")
    flag(data, "r-1", reduced=True)  # defender MA 4 still
    game = combat(data, [6, 6])  # 0: die 6 = Dr
    game.submit("blue", {**ATTACK, "tactic": "skirmish"})
    answer(game, "none")
    choose(game, "red", "retreat")
    d = decision(game)
    choose(game, "red", d["options"][0]["id"])
    assert game.state.decision is None and hex_of(game, "b-1") == "0504"  # 7.13(1): no advance


def test_7_13_a_disrupted_skirmisher_has_strength_zero() -> None:
    data = ground("0504")
    flag(data, "b-1", disrupted=True)
    game = combat(data)
    p = game.preview("blue", {**ATTACK, "tactic": "skirmish"})
    assert p["attackers"][0]["value"] == 0 and p["differential"] == -4


# --- 7.13(2) press forward ---------------------------------------------------------------------------------------------
def test_7_13_press_forward_adds_two_and_costs_a_step_when_the_defender_stays() -> None:
    game = combat(ground(), [2, 1])  # 6 + 2 - 5 = +3: die 2 = NE
    game.submit("blue", {**ATTACK, "tactic": "press"})
    events = answer(game, "none")
    assert combat_event(events)["differential"] == 3
    assert game.state.units["b-1"].reduced and not game.state.units["r-1"].reduced


def test_7_13_press_forward_must_advance_when_the_defender_retreats() -> None:
    game = combat(ground(), [4, 1])  # +3: die 4 = Dr
    game.submit("blue", {**ATTACK, "tactic": "press"})
    answer(game, "none")
    choose(game, "red", "retreat")
    choose(game, "red", decision(game)["options"][0]["id"])
    d = decision(game)
    assert d["kind"] == "advance" and "stay" not in {o["id"] for o in d["options"]}
    assert not game.state.units["b-1"].reduced


def test_7_13_press_forward_is_for_undisrupted_infantry() -> None:
    data = ground()
    flag(data, "b-1", disrupted=True)
    game = combat(data)
    assert refused(game, "blue", {**ATTACK, "tactic": "press"}).rule == "7.13(2)"


# --- 7.13(3) charge ----------------------------------------------------------------------------------------------------
def test_7_13_charge_must_have_been_declared_in_the_movement_phase() -> None:
    game = combat(ground())
    e = refused(game, "blue", {**ATTACK, "tactic": "charge"})
    assert e.rule == "7.13(3)" and "declared" in e.message


# --- 7.13(4) disengage ---------------------------------------------------------------------------------------------------
def test_7_13_disengage_by_the_attacker_turns_a_d_result_into_a_forced_retreat_without_flipping() -> None:
    data = ground()
    unit(data, "b-bn", "0604", kind="battalion", formation="1", full={"cf": 2, "mr": 4, "ma": 5},
         ineffective={"cf": 0, "mr": 2, "ma": 5})
    game = combat(data, [4, 1])  # 8 - 5 = +3: die 4 = Dr
    game.submit("blue", {"type": "attack", "target": "0704", "attackers": ["b-1", "b-bn"], "primary": "b-1",
                         "tactic": "disengage"})
    answer(game, "none")
    d = decision(game)
    assert (d["kind"], d["side"]) == ("retreat", "blue")  # 7.13(4): no choice of disruption
    choose(game, "blue", d["options"][0]["id"])
    assert not game.state.units["b-bn"].ineffective and hex_of(game, "r-1") == "0704"


def test_7_13_disengage_by_the_defender_turns_an_a_result_into_its_retreat() -> None:
    game = combat(ground(), [1, 6])  # +1: die 1 = Ac(NE) Ammo
    game.submit("blue", ATTACK)
    events = answer(game, "disengage")
    assert combat_event(events)["result"] == "Dr Ammo"
    d = decision(game)
    assert (d["kind"], d["side"]) == ("retreat", "red")


def test_7_13_both_disengage_and_both_retreat_defender_first() -> None:
    game = combat(ground(), [2, 1])  # +1: die 2 = Ac(NE)
    game.submit("blue", {**ATTACK, "tactic": "disengage"})
    answer(game, "disengage")
    d = decision(game)
    assert (d["kind"], d["side"]) == ("retreat", "red")
    choose(game, "red", d["options"][0]["id"])
    d = decision(game)
    assert (d["kind"], d["side"]) == ("retreat", "blue")


# --- 7.13(5) last stand ----------------------------------------------------------------------------------------------------
def test_7_13_last_stand_adds_three_and_costs_the_defender_a_step_when_the_attacker_stays() -> None:
    game = combat(ground(), [4, 1])  # 6 - (5 + 3) = -2: die 4 = NE
    game.submit("blue", ATTACK)
    events = answer(game, "last_stand")
    assert combat_event(events)["differential"] == -2
    assert game.state.units["r-1"].reduced and not game.state.units["b-1"].reduced


def test_7_13_last_stand_is_not_offered_against_a_disengaging_attacker() -> None:
    game = combat(ground(), [4, 1])
    game.submit("blue", {**ATTACK, "tactic": "disengage"})
    assert [o["id"] for o in decision(game)["options"]] == ["none", "disengage"]


def test_7_13_last_stand_defending_artillery_is_captured_when_forced_to_retreat() -> None:
    data = ground()
    unit(data, "r-art", "0704", side="red", formation="7", **ARTILLERY)
    game = combat(data, [5, 6])  # 6 - (5 + 1 + 3) = -3: die 5 = Dc(NE); the morale die 6 fails
    game.submit("blue", ATTACK)
    game.submit("red", {"type": "choose", "option": "r-1+r-art:r-1"})
    answer(game, "last_stand")
    choose(game, "red", "retreat")
    assert game.state.units["r-art"].status == "captured"


def test_7_13_the_second_step_without_a_step_to_lose_gives_the_other_player_a_fortune_of_war() -> None:
    data = ground()
    unit(data, "b-1", "0604", kind="battalion", formation="1", full={"cf": 2, "mr": 4, "ma": 5},
         ineffective={"cf": 0, "mr": 2, "ma": 5})
    game = combat(data, [4, 1])  # 2 + 2 - 5 = -1: die 4 = Ex Leader: the battalion loses its only step
    game.submit("blue", {**ATTACK, "tactic": "press"})
    answer(game, "none")
    assert game.state.units["b-1"].status == "eliminated" and game.state.units["r-1"].reduced
    assert any(f["side"] == "red" and f["rule"] == "7.11" for f in game.state.extra["fow_owed"])


# --- 7.13(3) the infantry charge, declared in the movement phase --------------------------------------------------------
CHARGE_MOVE = {"type": "charge", "units": ["b-1"], "path": ["0504", "0604"], "target": "0704"}
CHARGE = {**ATTACK, "tactic": "charge"}


def charged(data: dict[str, Any] | None = None, dice: list[int] | None = None) -> Game:
    """b-1 charges r-1 from 0504 (one MP to 0604); blue's combat phase follows with `dice` loaded."""
    from .play import end, load, new_game

    game = new_game(data or ground("0504"), [])
    events = game.submit("blue", CHARGE_MOVE)
    assert any(e["type"] == "charge" and e["rule"] == "7.13(3)" for e in events)
    assert hex_of(game, "b-1") == "0604"
    assert game.state.extra["charges"] == [{"side": "blue", "units": ["b-1"], "target": "0704"}]
    end(game)
    load(game, dice or [])
    return game


def test_7_13_charge_declared_moves_one_or_two_mp_and_a_pressed_charge_turns_d_into_dm() -> None:
    game = charged(dice=[1, 5, 6])  # the charge check passes; +1: die 5 = Dr, read Dm(Ax); the morale die 6 fails
    game.submit("blue", CHARGE)
    events = answer(game, "none")
    c = combat_event(events)
    assert (c["crt"], c["result"]) == ("Dr", "Dm(Ax)")
    d = decision(game)
    assert d["kind"] == "retreat" and d["rule"] == "7.10"  # the defender routs
    choose(game, "red", d["options"][0]["id"])
    d = decision(game)
    assert d["kind"] == "advance" and "stay" not in {o["id"] for o in d["options"]}  # 7.13(3): must advance


def test_7_13_a_charge_held_by_the_defender_becomes_the_attackers_ax() -> None:
    game = charged(dice=[1, 5, 1])  # Dm(Ax): the defender passes (die 1); the attacker's Ax with the same die: pass
    game.submit("blue", CHARGE)
    answer(game, "none")
    d = decision(game)
    assert (d["kind"], d["side"]) == ("result", "blue") and {o["id"] for o in d["options"]} == {"step_loss",
                                                                                                "disrupt_retreat"}


def test_7_13_a_charge_not_pressed_home_is_halved_and_read_normally() -> None:
    game = charged(dice=[6, 5, 1])  # the charge check fails: 3 - 5 = -2: die 5 = Dc(NE); passed: NE
    game.submit("blue", CHARGE)
    events = answer(game, "none")
    c = combat_event(events)
    assert (c["differential"], c["result"]) == (-2, "Dc(NE)")


def test_7_13_charge_a_and_ex_become_ax() -> None:
    game = charged(dice=[1, 3, 1])  # +1: die 3 = Ex Leader, read Ax Leader
    game.submit("blue", CHARGE)
    events = answer(game, "none")
    assert combat_event(events)["result"] == "Ax Leader"


def test_7_13_a_charge_captures_defending_artillery_when_the_defender_gives_way() -> None:
    data = ground("0504")
    unit(data, "r-art", "0704", side="red", formation="7", **ARTILLERY)
    game = charged(data, dice=[1, 6, 6])  # 6 - 6 = 0: die 6 = Dr, read Dm(Ax); fails: rout
    game.submit("blue", CHARGE)
    game.submit("red", {"type": "choose", "option": "r-1+r-art:r-1"})
    answer(game, "none")
    assert game.state.units["r-art"].status == "captured"


def test_7_13_charge_refusals() -> None:
    from .play import new_game

    game = new_game(ground("0404"), [])
    game.submit("blue", {**CHARGE_MOVE, "path": ["0404", "0504", "0604"]})  # two MP: accepted
    assert hex_of(game, "b-1") == "0604"
    game = new_game(ground("0504"), [])
    e = refused(game, "blue", {**CHARGE_MOVE, "path": ["0504"]})
    assert e.rule == "7.13(3)"  # the charge moves to the hex next to the defender
    game = new_game(ground("0304"), [])
    e = refused(game, "blue", {**CHARGE_MOVE, "path": ["0304", "0404", "0504", "0604"]})
    assert e.rule == "4.3"  # more than two MP
    data = ground("0504")
    flag(data, "b-1", disrupted=True)
    assert refused(new_game(data, []), "blue", CHARGE_MOVE).rule == "7.13(3)"
    data = ground("0504")
    unit(data, "b-cav", "0504", kind="cavalry", formation="1", full={"cf": 3, "mr": 4, "ma": 8, "charge": 4},
         ineffective={"cf": 1, "mr": 2, "ma": 10})
    e = refused(new_game(data, []), "blue", {**CHARGE_MOVE, "units": ["b-1", "b-cav"]})
    assert e.rule == "7.13(3)" and "infantry" in e.message


def test_7_13_3_no_charge_into_terrain_the_tec_bars() -> None:
    from .play import new_game

    data = ground("0504")
    data["map"]["hexes"]["0704"] = "woods"
    game = new_game(data, [])
    game.submit("blue", CHARGE_MOVE)  # the test TEC's woods give no "no charge" entry for infantry
    assert hex_of(game, "b-1") == "0604"
    data["tec"]["terrain"]["woods"]["no_charge"] = ["infantry", "cavalry"]
    e = refused(new_game(data, []), "blue", CHARGE_MOVE)
    assert e.rule == "7.13(3)" and "Woods" in e.message and "TEC" in e.message
    data = ground("0504")
    data["map"]["secondary"]["0704"] = ["village"]
    data["tec"]["secondary"]["village"]["no_charge"] = ["infantry", "cavalry"]
    e = refused(new_game(data, []), "blue", CHARGE_MOVE)
    assert e.rule == "7.13(3)" and "Village" in e.message


def test_7_13_3_no_charge_across_a_hexside_the_tec_bars() -> None:
    from .play import new_game

    data = ground("0504")
    data["map"]["hexsides"].append({"hexes": ["0604", "0704"], "features": ["stream"]})
    game = new_game(data, [])
    game.submit("blue", CHARGE_MOVE)  # the stream's default bars cavalry only (9.3(1))
    assert hex_of(game, "b-1") == "0604"
    data["tec"]["hexsides"]["stream"]["no_charge"] = ["infantry", "cavalry"]
    e = refused(new_game(data, []), "blue", CHARGE_MOVE)
    assert e.rule == "7.13(3)" and "Stream" in e.message


def test_2_2_7_13_3_no_charge_across_a_clear_hexside_beside_terrain_the_tec_bars() -> None:
    from .play import new_game

    data = ground("0504")
    data["map"]["hexes"]["0604"] = "woods"  # the charge ends in the woods (2 MP) and attacks out over their edge
    game = new_game(data, [])
    game.submit("blue", CHARGE_MOVE)
    assert hex_of(game, "b-1") == "0604"
    data["tec"]["clear_hexsides"] = {"woods_edge": {"name": "Edge of the woods", "beside": ["woods"],
                                                    "no_charge": ["infantry"]}}
    e = refused(new_game(data, []), "blue", CHARGE_MOVE)
    assert e.rule == "7.13(3)" and "Edge of the woods" in e.message


def test_7_13_a_charge_has_no_artillery_support() -> None:
    data = ground("0504")
    unit(data, "b-art", "0404", formation="1", **ARTILLERY)
    game = charged(data)
    assert refused(game, "blue", {**CHARGE, "support": ["b-art"]}).rule == "7.13(3)"


# --- 14.2 night: only infantry charges fight ------------------------------------------------------------------------
def test_14_2_4_at_night_only_charges_attack_and_a_charge_that_does_not_rout_retreats_disrupted() -> None:
    from .fight import light

    data = ground("0504")
    light(data, "night")
    game = charged(data, dice=[1, 1, 1])  # the charge check passes; +1: die 1 = Ac(NE) Ammo, read Ax; passed
    e = refused(game, "blue", ATTACK)
    assert e.rule == "14.2(4)"
    game.submit("blue", CHARGE)
    answer(game, "none")
    choose(game, "blue", "step_loss")
    assert game.state.units["b-1"].reduced and game.state.units["b-1"].disrupted  # 14.2(4): no rout: disrupted
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"]) == ("retreat", "blue", "14.2(4)")


def test_14_2_3_at_night_a_charging_unit_enters_an_enemy_zone_of_control() -> None:
    from .fight import light
    from .play import new_game

    data = ground("0504")
    light(data, "night")
    game = new_game(data, [])
    assert refused(game, "blue", {"type": "move", "units": ["b-1"], "path": ["0504", "0604"]}).rule == "14.2(3)"
    game.submit("blue", CHARGE_MOVE)
    assert hex_of(game, "b-1") == "0604"


def test_14_2_4_a_night_charge_that_routs_advances_into_the_vacated_hex_only() -> None:
    from .fight import light

    data = ground("0504")
    light(data, "night")
    game = charged(data, dice=[1, 6, 6])  # +1: die 6 = Dr, read Dm(Ax); the defender fails: rout
    game.submit("blue", CHARGE)
    answer(game, "none")
    d = decision(game)
    events = choose(game, "red", d["options"][0]["id"])
    auto = [e for e in events if e["type"] == "auto" and e["rule"] == "7.12"]
    assert auto and "0704" in auto[0]["text"] and hex_of(game, "b-1") == "0704"  # the one choice, taken at once (R7)


def test_7_13_the_view_shows_the_declared_charges() -> None:
    from .play import new_game

    game = new_game(ground("0504"), [])
    game.submit("blue", CHARGE_MOVE)
    for viewer in ("blue", "red"):
        assert game.view(viewer)["standard"]["charges"] == [{"side": "blue", "units": ["b-1"], "target": "0704"}]
