"""Artillery (8.1-8.4, R6 bombardment results): LOS, range, who may bombard, per-unit resolution,
modifiers, every bombardment result, supporting fire."""

from __future__ import annotations

import pytest
from position import (
    Position,
    attack,
    choose,
    combat_result,
    decision_kind,
    dice_left,
    retreat_paths,
    unit,
)

from server.rules import IllegalCommand

PASS, FAIL = 1, 6


def bombard(game, target, guns, side="blue"):
    return game.submit(side, {"type": "bombard", "target": target, "artillery": list(guns)})


def refused(game, rule, target, guns) -> None:
    before = game.to_json()
    with pytest.raises(IllegalCommand) as exc:
        bombard(game, target, guns)
    assert exc.value.rule == rule, exc.value
    assert game.to_json() == before


def results(events):
    return [e for e in events if e["type"] == "bombard_result"]


def battery(extra=None, *, attack_cf=3, rng=3, at="0204", target="0504", dice=None, r1_kind="infantry", r1_kw=None):
    pos = Position()
    pos.unit("a1", "blue", "artillery", hex=at, attack=attack_cf, range=rng)
    pos.unit("r1", "red", r1_kind, hex=target, **{"defense": 5, "mr": 4, **(r1_kw or {})})
    if extra:
        extra(pos)
    return pos.game(phase="combat", dice=list(dice or []))


# --- 8.3 range, 8.2 LOS ------------------------------------------------------------------------------------
def test_8_3_range_counts_the_target_hex_but_not_the_firers() -> None:
    game = battery(rng=3, dice=[2, 1])  # 0204 -> 0504 is 3 hexes
    assert game.scenario.grid.distance("0204", "0504") == 3
    bombard(game, "0504", ["a1"])
    game = battery(rng=2)
    refused(game, "8.3", "0504", ["a1"])


def test_8_2_an_intervening_blocking_hex_blocks_los() -> None:
    game = battery(lambda p: p.terrain("0304", "woods"))
    refused(game, "8.2", "0504", ["a1"])


def test_8_2_terrain_in_the_firing_and_target_hexes_does_not_block() -> None:
    game = battery(lambda p: p.terrain(["0204", "0504"], "town"), dice=[2, 1])
    bombard(game, "0504", ["a1"])


def test_8_2_units_do_not_block_los() -> None:
    game = battery(lambda p: (p.unit("b2", "blue", hex="0304"), p.unit("r2", "red", hex="0404")), dice=[2, 1])
    bombard(game, "0504", ["a1"])


@pytest.mark.parametrize("woods,blocked", [([], False), (["0201"], False), (["0202"], False), (["0201", "0202"], True)])
def test_8_2_a_line_along_a_hexside_is_blocked_only_if_both_hexes_block(woods, blocked) -> None:
    # 0102 -> 0302 runs along the hexside between 0201 and 0202 (R2)
    game = battery(lambda p: p.terrain(woods, "woods"), at="0102", target="0302", dice=[2, 1])
    if blocked:
        refused(game, "8.2", "0302", ["a1"])
    else:
        bombard(game, "0302", ["a1"])


def test_8_2_a_blocking_hexside_the_line_runs_along_blocks() -> None:
    game = battery(lambda p: p.hexside("0201", "0202", "wall"), at="0102", target="0302")
    refused(game, "8.2", "0302", ["a1"])


def test_8_2_bombardment_into_terrain_the_tec_forbids() -> None:
    game = battery(lambda p: p.terrain("0504", "chateau"))
    refused(game, "8.2", "0504", ["a1"])


# --- 8.4 requirements ------------------------------------------------------------------------------------------
def test_8_4_1_artillery_in_an_ezoc_may_not_bombard() -> None:
    game = battery(lambda p: p.unit("r2", "red", hex="0304"))
    refused(game, "8.4(1)", "0504", ["a1"])


def test_8_4_2_artillery_needs_an_attack_factor() -> None:
    game = battery(attack_cf=0)
    refused(game, "8.4(2)", "0504", ["a1"])


def test_8_4_5_ineffective_artillery_may_not_bombard() -> None:
    pos = Position()
    pos.unit("a1", "blue", "artillery", hex="0204", attack=3, ineffective=True,
             ineffective_factors={"attack": 2, "defense": 0, "mr": 2, "ma": 3})
    pos.unit("r1", "red", hex="0504")
    refused(pos.game(phase="combat"), "8.4(5)", "0504", ["a1"])


def test_9_3_e_artillery_in_a_square_may_not_fire() -> None:
    game = battery(lambda p: p.unit("b1", "blue", hex="0204", square=True))
    refused(game, "9.3(e)", "0504", ["a1"])


def test_8_4_a_hex_is_bombarded_once_and_each_gun_fires_once() -> None:
    game = battery(lambda p: (p.unit("a2", "blue", "artillery", hex="0205", attack=1),
                              p.unit("r2", "red", hex="0505")), dice=[2, 1])
    bombard(game, "0504", ["a1"])
    refused(game, "8.4", "0504", ["a2"])
    refused(game, "7.1(3)", "0505", ["a1"])


def test_8_4_only_in_the_own_combat_phase() -> None:
    pos = Position()
    pos.unit("a1", "blue", "artillery", hex="0204", attack=3)
    pos.unit("r1", "red", hex="0504")
    refused(pos.game(phase="movement"), "7.1", "0504", ["a1"])


# --- strength and per-unit resolution ----------------------------------------------------------------------------
def test_8_4_the_artillery_attack_factor_is_the_differential_and_guns_combine() -> None:
    game = battery(lambda p: p.unit("a2", "blue", "artillery", hex="0205", attack=2), dice=[1, 1])
    ev = results(bombard(game, "0504", ["a1", "a2"]))
    assert [e["differential"] for e in ev] == [5]


def test_8_4_the_tec_bombardment_modifier_is_subtracted() -> None:
    game = battery(lambda p: p.terrain("0504", "town"), attack_cf=5, dice=[1, 1])
    assert results(bombard(game, "0504", ["a1"]))[0]["differential"] == 3


def test_8_4_doubled_against_cavalry_after_the_terrain_modifier() -> None:
    game = battery(lambda p: p.terrain("0504", "woods"), attack_cf=4, r1_kind="cavalry", dice=[1, 1])
    assert results(bombard(game, "0504", ["a1"]))[0]["differential"] == 6  # (4 - 1) x 2


def test_8_4_each_unit_in_the_target_hex_is_resolved_separately_with_its_own_dice() -> None:
    # attack 3: die 3 is Dc. r1 (mr 4) rolls morale 5 and fails; r2 (mr 6) rolls morale 5 and passes
    game = battery(lambda p: p.unit("r2", "red", hex="0504", mr=6), dice=[3, 5, 3, 5])
    events = bombard(game, "0504", ["a1"])
    assert [e["unit"] for e in results(events)] == ["r1", "r2"]
    assert [e["dice"] for e in results(events)] == [[3, 5], [3, 5]]
    assert unit(game, "r1").disrupted and not unit(game, "r2").disrupted
    assert dice_left(game) == 0


# --- R6 bombardment results ------------------------------------------------------------------------------------
# attack 3: die 2 "-", die 3 Dc, die 4 Dr; attack 7: die 3 Dx, die 5 Dm; attack 1: die 1 Ar.
def bombarded(attack_cf, die, morale, **kw):
    game = battery(attack_cf=attack_cf, dice=[die, morale], **kw)
    events = bombard(game, "0504", ["a1"])
    return game, results(events)[0]["result"]


def test_r6_bombard_a_and_dash_results_have_no_effect() -> None:
    for cf, die, expected in ((1, 1, "Ar"), (3, 2, "-"), (3, 1, "Ac")):
        game, res = bombarded(cf, die, FAIL)
        assert res == expected
        r1 = unit(game, "r1")
        assert (r1.disrupted, r1.reduced, r1.hex) == (False, False, "0504")
        assert unit(game, "a1").status == "map" and not unit(game, "a1").ineffective


@pytest.mark.parametrize("letter,cf,die", [("c", 3, 3), ("r", 3, 4)])
def test_r6_bombard_dc_dr_pass_no_effect(letter, cf, die) -> None:
    game, res = bombarded(cf, die, PASS)
    assert res == "D" + letter and not unit(game, "r1").disrupted


def test_r6_bombard_dc_fail_disrupts() -> None:
    game, _ = bombarded(3, 3, FAIL)
    assert unit(game, "r1").disrupted and unit(game, "r1").hex == "0504"


def test_r6_bombard_dc_fail_on_a_disrupted_unit_has_no_further_effect() -> None:
    game, _ = bombarded(3, 3, FAIL, r1_kw={"disrupted": True})
    r1 = unit(game, "r1")
    assert r1.disrupted and r1.hex == "0504" and not r1.reduced and decision_kind(game) is None


def test_r6_bombard_dc_fail_makes_a_one_step_unit_ineffective() -> None:
    game, _ = bombarded(3, 3, FAIL, r1_kind="battalion")
    assert unit(game, "r1").ineffective


def test_r6_bombard_dr_fail_disrupts() -> None:
    game, _ = bombarded(3, 4, FAIL)
    assert unit(game, "r1").disrupted and unit(game, "r1").hex == "0504"


def test_r6_bombard_dr_fail_on_a_disrupted_unit_retreats_two_or_three() -> None:
    game, _ = bombarded(3, 4, FAIL, r1_kw={"disrupted": True, "mr": 6})
    assert decision_kind(game) == "retreat"
    assert {len(p) for p in retreat_paths(game)} == {2, 3}
    choose(game, "0604>0704")
    assert unit(game, "r1").hex == "0704"
    assert decision_kind(game) is None and unit(game, "a1").hex == "0204"  # artillery never advances


def test_r6_bombard_dr_fail_on_an_ineffective_unit_retreats() -> None:
    game, _ = bombarded(3, 4, FAIL, r1_kind="battalion", r1_kw={"ineffective": True})
    assert decision_kind(game) == "retreat"


def test_r6_bombard_dx_pass_disrupts() -> None:
    game, _ = bombarded(7, 3, PASS)
    r1 = unit(game, "r1")
    assert r1.disrupted and not r1.reduced and r1.hex == "0504"


def test_r6_bombard_dx_pass_on_a_disrupted_unit_retreats() -> None:
    game, _ = bombarded(7, 3, PASS, r1_kw={"disrupted": True})
    assert decision_kind(game) == "retreat"
    assert max(len(p) for p in retreat_paths(game)) == 3
    r1 = unit(game, "r1")
    assert r1.disrupted and not r1.reduced


def test_11_1_4_bombard_dx_pass_on_a_disrupted_unit_retreats_at_least_two() -> None:
    game, _ = bombarded(7, 3, PASS, r1_kw={"disrupted": True})
    assert {len(p) for p in retreat_paths(game)} == {2, 3}


def test_r6_bombard_dx_fail_reduces_a_two_step_unit() -> None:
    game, _ = bombarded(7, 3, FAIL)
    r1 = unit(game, "r1")
    assert r1.reduced and not r1.disrupted and r1.hex == "0504"


def test_r6_bombard_dx_fail_eliminates_a_one_step_unit() -> None:
    game, _ = bombarded(7, 3, FAIL, r1_kind="battalion")
    assert unit(game, "r1").status == "eliminated"


def test_r6_bombard_dm_pass_reduces_without_a_rout() -> None:
    game, _ = bombarded(7, 5, PASS)
    r1 = unit(game, "r1")
    assert r1.reduced and not r1.disrupted and r1.hex == "0504" and decision_kind(game) is None


def test_r6_bombard_dm_fail_reduces_and_routs() -> None:
    game, _ = bombarded(7, 5, FAIL)
    r1 = unit(game, "r1")
    assert r1.reduced and r1.disrupted
    assert {len(p) for p in retreat_paths(game)} == {3}
    choose(game, "0604>0704>0804")
    assert unit(game, "r1").hex == "0804"


def test_r6_bombard_dm_eliminates_a_one_step_unit_whatever_the_morale() -> None:
    for morale in (PASS, FAIL):
        game, _ = bombarded(7, 5, morale, r1_kind="artillery", r1_kw={"attack": 1})
        assert unit(game, "r1").status == "eliminated"


# --- supporting fire (8.4) -----------------------------------------------------------------------------------------
def support_position(dice):
    pos = Position()
    pos.unit("a1", "blue", "artillery", hex="0304", attack=3, range=3)
    pos.unit("b1", "blue", hex="0504", attack=3, mr=4)
    pos.unit("r1", "red", hex="0604", defense=6, mr=4)
    return pos.game(phase="combat", dice=dice)


def test_8_4_supporting_fire_adds_the_artillery_attack_factor() -> None:
    game = support_position([4, PASS])
    ev = combat_result(attack(game, "0604", ["b1"], support=["a1"]))
    assert ev["attack"] == 6 and ev["differential"] == 0
    assert unit(game, "a1").attacked


def test_8_4_supporting_artillery_is_not_hit_by_attacker_losses() -> None:
    game = support_position([1, FAIL])  # 0: Ar, morale fails: the attackers retreat
    attack(game, "0604", ["b1"], support=["a1"])
    assert unit(game, "b1").disrupted
    assert not unit(game, "a1").ineffective and unit(game, "a1").hex == "0304"
    if decision_kind(game) == "retreat":
        assert game.state.decision["task"]["units"] == ["b1"]


def test_8_4_supporting_fire_needs_range_and_los() -> None:
    pos = Position()
    pos.unit("a1", "blue", "artillery", hex="0204", attack=3, range=3)
    pos.unit("b1", "blue", hex="0504", attack=3)
    pos.unit("r1", "red", hex="0604")
    game = pos.game(phase="combat")
    with pytest.raises(IllegalCommand) as exc:
        attack(game, "0604", ["b1"], support=["a1"])
    assert exc.value.rule == "8.3"


def test_8_4_an_attacking_artillery_unit_is_not_also_support() -> None:
    game = support_position([])
    with pytest.raises(IllegalCommand):
        attack(game, "0604", ["a1", "b1"], primary="b1", support=["a1"])
