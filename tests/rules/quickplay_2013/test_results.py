"""Combat results (7.5): Ar/Dr retreat or disrupt (R14.2), Ac/Dc, Ax/Dx with the owner's option, Dm and its
secondary (T8), Ex, the Leader notation (10.0); what the retreat lets the attacker do (7.9)."""

from __future__ import annotations

from .conftest import Position2013
from .play import attack, choose, decision, dice_left, of_type, options


def duel(pos: Position2013, attack_cf: int = 4, **red: object) -> None:
    pos.unit("b1", "blue", hex="0404", attack=attack_cf)
    pos.unit("r1", "red", hex="0504", **red)  # type: ignore[arg-type]


def test_7_5_dr_the_owner_chooses_retreat_or_disruption(pos: Position2013) -> None:
    duel(pos)
    game = pos.game("combat", dice=[6, 3])  # differential 0, combat die 6: Dr
    attack(game, "0504", ["b1"])
    assert decision(game) == "retreat_or_disrupt" and options(game) == ["retreat", "disrupt"]
    choose(game, "disrupt")
    r1 = game.state.units["r1"]
    assert (r1.hex, r1.disrupted) == ("0504", True)
    assert game.state.combat is None and game.state.units["b1"].hex == "0404"  # no retreat, no advance


def test_r14_2_a_unit_already_disrupted_must_retreat_at_least_two(pos: Position2013) -> None:
    duel(pos, disrupted=True)
    game = pos.game("combat", dice=[6, 3])
    attack(game, "0504", ["b1"])
    assert decision(game) == "retreat"  # the only choice, retreat, was taken at once
    assert all(len(p) >= 2 for p in (o["path"] for o in game.state.decision["options"]))  # 11.1(7)


def test_7_5_dx_passed_the_primary_loses_a_step_or_the_side_disrupts_and_retreats(pos: Position2013) -> None:
    duel(pos, attack_cf=8)
    game = pos.game("combat", dice=[5, 2])  # +4: die 5 is Dx; morale 2 against 4 passes
    attack(game, "0504", ["b1"])
    assert decision(game) == "loss_or_retreat"
    choose(game, "loss")
    r1 = game.state.units["r1"]
    assert (r1.hex, r1.reduced, r1.disrupted) == ("0504", True, False)
    assert game.state.units["b1"].hex == "0404"


def test_7_5_dx_failed_every_defender_is_disrupted_and_retreats_and_the_attacker_may_advance(pos: Position2013) -> None:
    duel(pos, attack_cf=8)
    game = pos.game("combat", dice=[5, 6])  # Dx, morale 6 fails
    attack(game, "0504", ["b1"])
    assert decision(game) == "retreat" and game.state.units["r1"].disrupted
    choose(game, options(game)[0])
    assert decision(game) == "advance" and "0504" in options(game)
    choose(game, "0504")
    assert game.state.units["b1"].hex == "0504"


def test_7_5_dm_failed_the_defenders_rout_three_hexes_and_the_attacker_may_advance_two(pos: Position2013) -> None:
    duel(pos, attack_cf=8)
    game = pos.game("combat", dice=[6, 6])  # +4, die 6: Dm(Dr); morale 6 fails
    events = attack(game, "0504", ["b1"])
    assert of_type(events, "rout")
    assert {len(o["path"]) for o in game.state.decision["options"]} == {3}
    choose(game, options(game)[0])
    assert game.state.units["r1"].disrupted  # 7.8: disrupted at the end of the rout
    choose(game, "0504")
    assert decision(game) == "advance"  # a second hex after a rout (7.9)


def test_t8_dm_passed_applies_its_secondary_with_that_check(pos: Position2013) -> None:
    duel(pos, attack_cf=8)
    game = pos.game("combat", dice=[6, 2])  # Dm(Dr), passed: Dr with no second roll
    events = attack(game, "0504", ["b1"])
    assert of_type(events, "secondary") and decision(game) == "retreat_or_disrupt"
    assert dice_left(game) == 0


def test_7_5_dc_passed_has_no_effect(pos: Position2013) -> None:
    duel(pos)
    game = pos.game("combat", dice=[5, 3])  # 0: die 5 is Dc(NE); morale 3 against 4 passes
    attack(game, "0504", ["b1"])
    assert game.state.combat is None and not game.state.units["r1"].disrupted


def test_7_5_ex_each_primary_loses_a_step_and_leader_checks_follow(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0404", attack=3)
    pos.leader("bl", "blue", hex="0404", combat=1)
    pos.unit("r1", "red", hex="0504")
    game = pos.game("combat", dice=[4, 1, 5])  # 3 + 1 against 4: die 4 is Ex Leader; the leader rolls 5
    events = attack(game, "0504", ["b1"], leaders=["bl"])
    assert game.state.units["b1"].reduced and game.state.units["r1"].reduced
    assert of_type(events, "leader_killed") and game.state.units["bl"].status == "dead"


def test_10_0_no_leader_check_without_the_leader_notation(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0404", attack=3)
    pos.leader("bl", "blue", hex="0404", combat=1)
    pos.unit("r1", "red", hex="0504")
    game = pos.game("combat", dice=[3, 1])  # 0: NE, and no die for the leader
    attack(game, "0504", ["b1"], leaders=["bl"])
    assert dice_left(game) == 0 and game.state.units["bl"].status == "map"


def test_7_5_ar_strikes_every_attacking_hex(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0404", attack=1)
    pos.unit("b2", "blue", hex="0404")  # a non-participant shares the result (5.0)
    pos.unit("r1", "red", hex="0504", defense=8)
    game = pos.game("combat", dice=[2, 3])  # -7: die 2 is Ax; morale 3 passes
    attack(game, "0504", ["b1"])
    assert decision(game) == "loss_or_retreat" and game.state.decision["side"] == "blue"
    choose(game, "retreat")
    assert game.state.units["b1"].disrupted and game.state.units["b2"].disrupted
    assert set(game.state.decision["task"]["units"]) == {"b1", "b2"}
