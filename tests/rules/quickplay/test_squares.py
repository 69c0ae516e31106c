"""Squares (9.3, R9): forming and removing, moving (9.3(1)), combat (9.3(2), (a)-(e)), retreat (9.3(c)).

Forming a square in a cavalry charge (9.2 step 3) is tested in test_cavalry.py.
CRT columns used (R6):  +1..+2: 1 Ar, 2 Ac, 3 -, 4 Dc, 5 Dc, 6 Dr;   -3..-2: 1 Ax, 2 Ar, 3 Ar, 4 Ac, 5 -, 6 Dc;
+7..+9: 1 Dr, 2 Dr, 3 Dx, 4 Dx, 5 Dm, 6 Dm.
"""

from __future__ import annotations

from typing import Any

import pytest
from position import Position, attack, choose, combat_result, dice_left, option_ids, unit

from server.rules import Game, IllegalCommand
from server.rules.quickplay.combat import defender_options


def refused(game: Game, side: str, cmd: dict[str, Any], rule: str) -> None:
    before = game.to_json()
    with pytest.raises(IllegalCommand) as exc:
        game.submit(side, cmd)
    assert exc.value.rule == rule, exc.value
    assert game.to_json() == before


def move(game: Game, units: list[str], path: list[str], side: str = "blue") -> list[dict[str, Any]]:
    return game.submit(side, {"type": "move", "units": units, "path": path})


def retreat(game: Game, length: int) -> list[dict[str, Any]]:
    d = game.state.decision
    assert d is not None and d["kind"] == "retreat", d
    return choose(game, next(o["id"] for o in d["options"] if len(o["path"]) == length))


# --- forming and removing (9.3, R9) ----------------------------------------------------------------------
def test_9_3_infantry_forms_square_at_the_start_of_its_movement_phase(pos: Position) -> None:
    pos.unit("b1", "blue", hex="0404")
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    events = game.submit("blue", {"type": "form_square", "hex": "0404"})
    assert game.state.squares == {"0404": "b1"} and events[0]["type"] == "square_formed"


def test_9_3_the_player_may_name_which_infantry_forms_the_square(pos: Position) -> None:
    pos.unit("b1", "blue", hex="0404", defense=5)
    pos.unit("b2", "blue", hex="0404", defense=3)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    offered = [c for c in game.legal_commands("blue", limit=10**6) if c["type"] == "form_square"]
    assert {"type": "form_square", "hex": "0404", "unit": "b2"} in offered
    assert {"type": "form_square", "hex": "0404"} in offered  # the default: the strongest defender
    game.submit("blue", {"type": "form_square", "hex": "0404", "unit": "b2"})
    assert game.state.squares == {"0404": "b2"}


def test_9_3_a_battalion_may_form_square(pos: Position) -> None:
    pos.unit("bn", "blue", "battalion", hex="0404", attack=2, defense=2)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    game.submit("blue", {"type": "form_square", "hex": "0404"})
    assert game.state.squares == {"0404": "bn"}


def test_9_3_r9_no_square_is_formed_once_a_unit_has_moved(pos: Position) -> None:
    pos.unit("b1", "blue", hex="0404")
    pos.unit("b2", "blue", hex="0204")
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    move(game, ["b2"], ["0204", "0304"])
    refused(game, "blue", {"type": "form_square", "hex": "0404"}, "9.3")


@pytest.mark.parametrize("kw,kind", [({"disrupted": True}, "infantry"), ({}, "cavalry"), ({}, "artillery"),
                                     ({"ineffective": True}, "battalion")])
def test_9_3_only_undisrupted_effective_infantry_forms_square(pos: Position, kw: dict[str, Any], kind: str) -> None:
    pos.unit("b1", "blue", kind, hex="0404", **kw)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    refused(game, "blue", {"type": "form_square", "hex": "0404"}, "9.3")


def test_9_3_no_square_in_the_opponents_movement_phase(pos: Position) -> None:
    pos.unit("b1", "blue", hex="0404")
    pos.unit("r1", "red", hex="1008")
    game = pos.game(phase="movement", active="red")
    with pytest.raises(IllegalCommand):
        game.submit("blue", {"type": "form_square", "hex": "0404"})


def test_9_3_the_square_is_removed_at_the_start_of_the_owners_movement_phase(pos: Position) -> None:
    pos.unit("b1", "blue", hex="0404", square=True)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    game.submit("blue", {"type": "remove_square", "hex": "0404"})
    assert game.state.squares == {}


def test_9_3_r9_the_square_is_not_removed_after_a_unit_has_moved(pos: Position) -> None:
    pos.unit("b1", "blue", hex="0404", square=True)
    pos.unit("b2", "blue", hex="0204")
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    move(game, ["b2"], ["0204", "0304"])
    refused(game, "blue", {"type": "remove_square", "hex": "0404"}, "9.3")


# --- moving (9.3(1)) ----------------------------------------------------------------------------------------
def test_9_3_1_a_square_moves_one_hex_and_keeps_its_marker(pos: Position) -> None:
    pos.unit("b1", "blue", hex="0404", square=True, ma=4)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    refused(game, "blue", {"type": "move", "units": ["b1"], "path": ["0404", "0504", "0604"]}, "9.3")
    move(game, ["b1"], ["0404", "0504"])
    assert game.state.squares == {"0504": "b1"} and dice_left(game) == 0  # clear ground: no check


def test_9_3_1_the_whole_square_moves_together(pos: Position) -> None:
    pos.unit("b1", "blue", hex="0404", square=True)
    pos.unit("bn", "blue", "battalion", hex="0404", attack=2, defense=2)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    refused(game, "blue", {"type": "move", "units": ["bn"], "path": ["0404", "0504"]}, "9.3")
    move(game, ["b1", "bn"], ["0404", "0504"])
    assert unit(game, "bn").hex == "0504" and game.state.squares == {"0504": "b1"}


def test_9_3_1_a_square_may_not_enter_prohibited_terrain(pos: Position) -> None:
    pos.terrain("0504", "lake")
    pos.unit("b1", "blue", hex="0404", square=True)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    refused(game, "blue", {"type": "move", "units": ["b1"], "path": ["0404", "0504"]}, "4.3")


@pytest.mark.parametrize("die,disrupted", [(4, False), (5, True)])
def test_9_3_1_a_square_entering_broken_ground_checks_morale(pos: Position, die: int, disrupted: bool) -> None:
    pos.terrain("0504", "woods")
    pos.unit("b1", "blue", hex="0404", square=True, mr=4)
    pos.unit("r1", "red", hex="1008")
    game = pos.game(dice=[die])
    events = move(game, ["b1"], ["0404", "0504"])
    assert any(e["type"] == "dice" and e["rule"] == "9.3(1)" for e in events)
    assert unit(game, "b1").disrupted is disrupted
    assert game.state.squares == {"0504": "b1"}  # R9: a 9.3(1) disruption does not remove the square


def test_9_3_1_a_square_crossing_hexside_terrain_checks_morale(pos: Position) -> None:
    pos.hexside("0404", "0504", "stream")
    pos.unit("b1", "blue", hex="0404", square=True, mr=4, ma=4)
    pos.unit("r1", "red", hex="1008")
    game = pos.game(dice=[6])
    move(game, ["b1"], ["0404", "0504"])
    assert unit(game, "b1").disrupted and dice_left(game) == 0


def test_9_3_1_a_square_on_clear_hill_does_not_check(pos: Position) -> None:
    pos.terrain("0504", "hill")
    pos.unit("b1", "blue", hex="0404", square=True, ma=4)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    move(game, ["b1"], ["0404", "0504"])
    assert not unit(game, "b1").disrupted


# --- combat (9.3(2), (a), (b), (d), (e)) ------------------------------------------------------------------------
def test_9_3_2_only_the_unit_forming_the_square_defends(pos: Position) -> None:
    pos.unit("r1", "red", hex="0604", square=True)
    pos.unit("rb", "red", "battalion", hex="0604", attack=2, defense=2)
    pos.leader("rl", "red", hex="0604")
    pos.unit("b1", "blue", hex="0504")
    game = pos.game(phase="combat")
    c = {"target": "0604", "defender": "red", "attacker": "blue", "attackers": ["b1"], "kind": "attack"}
    options = defender_options(game.context(), c)
    assert {tuple(o["units"]) for o in options} == {("r1",)}
    assert {o["leader"] for o in options} == {None, "rl"}  # plus one eligible leader


def test_9_3_2_only_the_unit_forming_the_square_attacks(pos: Position) -> None:
    pos.unit("b1", "blue", hex="0504", square=True)
    pos.unit("bn", "blue", "battalion", hex="0504", attack=2, defense=2)
    pos.unit("r1", "red", hex="0604")
    game = pos.game(phase="combat")
    with pytest.raises(IllegalCommand) as exc:
        attack(game, "0604", ["b1", "bn"], primary="b1")
    assert exc.value.rule == "7.1(1)"
    with pytest.raises(IllegalCommand):
        attack(game, "0604", ["bn"])


def test_9_3_a_a_square_attacked_by_cavalry_adds_2_cf_and_2_mr(pos: Position) -> None:
    pos.unit("r1", "red", hex="0604", square=True, defense=4, mr=4)
    pos.unit("bc", "blue", "cavalry", hex="0504", attack=3, defense=3, mr=4, ma=6)
    # 3 vs 6 (-3): die 6 Dc; morale die 5 passes only at MR 6
    game = pos.game(phase="combat", dice=[6, 5])
    events = attack(game, "0604", ["bc"])
    ev = combat_result(events)
    assert ev["attack"] == 3 and ev["defense"] == 6
    morale = next(e for e in events if e["type"] == "morale")
    assert morale["rating"] == 6 and morale["passed"] and not unit(game, "r1").disrupted


def test_9_3_b_infantry_attacking_a_square_adds_2(pos: Position) -> None:
    pos.unit("r1", "red", hex="0604", square=True, defense=4)
    pos.unit("b1", "blue", hex="0504", attack=4)
    game = pos.game(phase="combat", dice=[3, 1])
    ev = combat_result(attack(game, "0604", ["b1"]))
    assert ev["attack"] == 6 and ev["defense"] == 4


def test_9_3_b_bombarding_a_square_adds_2(pos: Position) -> None:
    pos.unit("r1", "red", hex="0604", square=True)
    pos.unit("a1", "blue", "artillery", hex="0404", attack=3, defense=1, range=3)
    game = pos.game(phase="combat", dice=[1, 1])
    events = game.submit("blue", {"type": "bombard", "target": "0604", "artillery": ["a1"]})
    ev = next(e for e in events if e["type"] == "bombard_result")
    assert ev["differential"] == 5 and any("9.3(b)" in n for n in ev["notes"])


def test_9_3_d_a_square_attacking_subtracts_2(pos: Position) -> None:
    pos.unit("b1", "blue", hex="0504", square=True, attack=4)
    pos.unit("r1", "red", hex="0604", defense=4)
    game = pos.game(phase="combat", dice=[3, 1])
    ev = combat_result(attack(game, "0604", ["b1"]))
    assert ev["attack"] == 2


def test_9_3_e_artillery_in_a_square_may_not_fire(pos: Position) -> None:
    pos.unit("b1", "blue", hex="0404", square=True)
    pos.unit("a1", "blue", "artillery", hex="0404", attack=3, defense=1, range=3)
    pos.unit("r1", "red", hex="0604")
    game = pos.game(phase="combat")
    refused(game, "blue", {"type": "bombard", "target": "0604", "artillery": ["a1"]}, "9.3(e)")


# --- retreat (9.3(c)) and removal (R9) ----------------------------------------------------------------------
def _square_retreats(pos: Position) -> Game:
    """b1 (4+2 against the square) beats r1's square at 0604: die 6 Dr, morale 6 fails: retreat 1-3."""
    pos.unit("r1", "red", hex="0604", square=True, defense=4, mr=4)
    pos.unit("b1", "blue", hex="0504", attack=4)
    game = pos.game(phase="combat", dice=[6, 6])
    attack(game, "0604", ["b1"])
    return game


def test_9_3_c_a_square_retreating_one_hex_stays_in_square(pos: Position) -> None:
    game = _square_retreats(pos)
    events = retreat(game, 1)
    dest = unit(game, "r1").hex
    assert game.state.squares == {dest: "r1"}
    assert any(e["type"] == "square_holds" for e in events)


@pytest.mark.parametrize("length", [2, 3])
def test_9_3_c_a_square_retreating_two_or_three_hexes_disrupts_and_loses_its_square(pos: Position, length: int) -> None:
    game = _square_retreats(pos)
    events = retreat(game, length)
    assert game.state.squares == {} and unit(game, "r1").disrupted
    assert any(e["type"] == "square_broken" for e in events)


def test_9_3_r9_a_combat_disruption_does_not_remove_the_square(pos: Position) -> None:
    pos.unit("r1", "red", hex="0604", square=True, defense=4, mr=4)
    pos.unit("b1", "blue", hex="0504", attack=4)
    game = pos.game(phase="combat", dice=[4, 6])  # 6 vs 4: die 4 Dc; r1 fails: disrupted, stays
    attack(game, "0604", ["b1"])
    assert unit(game, "r1").disrupted and unit(game, "r1").hex == "0604"
    assert game.state.squares == {"0604": "r1"}


def test_9_3_r9_the_square_goes_when_no_infantry_is_left_in_the_hex(pos: Position) -> None:
    pos.unit("r1", "red", hex="0604", square=True, defense=4, mr=4, reduced=True)
    pos.unit("rc", "red", "cavalry", hex="0604", attack=3, defense=3, mr=4, ma=6)
    pos.unit("b1", "blue", hex="0504", attack=9)
    game = pos.game(phase="combat", dice=[3, 1])  # 11 vs 2 (+9): die 3 Dx, r1 passes: loses its last step
    events = attack(game, "0604", ["b1"])
    assert unit(game, "r1").status == "eliminated" and unit(game, "rc").hex == "0604"
    assert game.state.squares == {}
    assert any(e["type"] == "square_removed" for e in events)


def test_9_3_a_square_formed_against_a_charge_may_be_removed_in_the_owners_next_movement_phase(pos: Position) -> None:
    pos.unit("r1", "red", hex="0604")
    pos.unit("c1", "blue", "cavalry", hex="0504", attack=3, defense=3, mr=4, ma=6, charge=5)
    game = pos.game(phase="combat", dice=[1, 1, 3, 1])
    game.state.units["c1"].charging = "0604"
    game.submit("blue", {"type": "charge", "target": "0604"})
    choose(game, "square")
    while game.state.decision is not None and game.state.decision["kind"] == "retreat":
        choose(game, option_ids(game)[0])
    assert game.state.squares == {"0604": "r1"}
    game.submit("blue", {"type": "end_phase"})
    while game.state.decision is not None:
        choose(game, next(o for o in option_ids(game) if o.startswith("decline")))
    assert game.state.phase == "movement" and game.state.active == "red"
    assert game.state.squares == {"0604": "r1"}
    game.submit("red", {"type": "remove_square", "hex": "0604"})
    assert game.state.squares == {}


def test_9_3_r9_a_square_unit_moving_one_hex_to_counterattack_leaves_no_stale_square(pos: Position) -> None:
    """Bug found in phases.apply_counterattack_choice: the 7.3 move out of a square hex left the marker
    behind on a hex without its infantry (random play: invariant 'square formed by a unit elsewhere')."""
    from server.rules.kernel.invariants import check_invariants

    pos.unit("r1", "red", hex="0605", square=True, attack=4)
    pos.unit("b1", "blue", hex="0507", defense=4)
    game = pos.game(phase="combat", dice=[2, 1])
    game.state.ca_eligible = ["r1"]  # it exerted a ZOC on blue at the start of the phase (R8)
    game.submit("blue", {"type": "end_phase"})
    phase_before = (game.state.turn, game.state.phase, game.state.active)
    events = choose(game, "0605>0606>0507|r1")
    assert unit(game, "r1").hex == "0606" and game.state.squares == {}
    assert check_invariants(game, events, phase_before) == []
