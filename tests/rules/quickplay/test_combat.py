"""Combat (7.0-7.6, R6): who may attack, strengths, the result table for each side, morale checks."""

from __future__ import annotations

import pytest
from position import (
    Position,
    attack,
    choose,
    combat_result,
    decision_kind,
    dice_left,
    option_ids,
    retreat_paths,
    unit,
)

from server.rules import IllegalCommand


def refused(game, rule: str, *args, **kwargs) -> IllegalCommand:
    before = game.to_json()
    with pytest.raises(IllegalCommand) as exc:
        attack(game, *args, **kwargs)
    assert exc.value.rule == rule, exc.value
    assert game.to_json() == before
    return exc.value


def duel(att: int = 6, dfn: int = 6, dice: list[int] | None = None, *, att_kw: dict | None = None,
         def_kw: dict | None = None, extra=None) -> tuple[Position, object]:
    """b1 (blue) at 0504 against r1 (red) at 0604 on clear ground, blue's combat phase."""
    pos = Position()
    pos.unit("b1", "blue", hex="0504", **{"attack": att, "defense": 4, "mr": 4, **(att_kw or {})})
    pos.unit("r1", "red", hex="0604", **{"attack": 4, "defense": dfn, "mr": 4, **(def_kw or {})})
    if extra:
        extra(pos)
    return pos, pos.game(phase="combat", active="blue", dice=list(dice or []))


# --- 7.1(1) participation ----------------------------------------------------------------------------
def test_7_1_1_two_brigades_may_not_attack_from_one_hex() -> None:
    _, game = duel(extra=lambda p: p.unit("b2", "blue", hex="0504"))
    refused(game, "7.1(1)", "0604", ["b1", "b2"], primary="b1")


def test_7_1_1_three_units_may_not_attack_from_one_hex() -> None:
    def extra(p):
        p.unit("bn", "blue", "battalion", hex="0504", attack=2)
        p.unit("a1", "blue", "artillery", hex="0504", attack=3)
    _, game = duel(extra=extra)
    refused(game, "7.1(1)", "0604", ["b1", "bn", "a1"], primary="b1")


def test_7_1_1_two_battalions_may_not_attack_together() -> None:
    def extra(p):
        p.unit("bn1", "blue", "battalion", hex="0504", attack=2)
        p.unit("bn2", "blue", "battalion", hex="0504", attack=2)
    _, game = duel(extra=extra)
    refused(game, "7.1(1)", "0604", ["bn1", "bn2"], primary="bn1")


@pytest.mark.parametrize("kind", ["battalion", "artillery"])
def test_7_1_1_a_battalion_or_artillery_unit_plus_one_other_unit_attack_together(kind: str) -> None:
    _, game = duel(att=6, dfn=6, dice=[4, 1], extra=lambda p: p.unit("x", "blue", kind, hex="0504", attack=2))
    ev = combat_result(attack(game, "0604", ["b1", "x"], primary="b1"))
    assert ev["attack"] == 8 and ev["differential"] == 2


def test_7_1_1_two_artillery_units_may_attack_together() -> None:
    def extra(p):
        p.unit("a1", "blue", "artillery", hex="0404", attack=2)
        p.unit("a2", "blue", "artillery", hex="0404", attack=3)
    pos = Position()
    pos.unit("a1", "blue", "artillery", hex="0504", attack=2)
    pos.unit("a2", "blue", "artillery", hex="0504", attack=3)
    pos.unit("r1", "red", hex="0604", defense=6)
    game = pos.game(phase="combat", dice=[4, 1])
    assert combat_result(attack(game, "0604", ["a1", "a2"], primary="a1"))["attack"] == 5


def test_7_1_1_a_defending_stack_is_offered_only_legal_participant_sets() -> None:
    def extra(p):
        p.unit("r2", "red", hex="0604", defense=5)
        p.unit("rbn", "red", "battalion", hex="0604", defense=2)
    _, game = duel(dice=[4, 1], extra=extra)
    attack(game, "0604", ["b1"])
    assert decision_kind(game) == "defenders" and game.awaiting == "red"
    opts = game.state.decision["options"]
    assert {tuple(sorted(o["units"])) for o in opts} == {("r1", "rbn"), ("r2", "rbn")}
    assert {o["primary"] for o in opts} == {"r1", "r2", "rbn"}
    events = choose(game, "r2|r2+rbn|-")
    assert combat_result(events)["defense"] == 7


def test_7_1_2_non_participating_defenders_share_adverse_results() -> None:
    # Dr, morale fails: every red unit in the hex disrupts and retreats with the primary
    _, game = duel(att=9, dfn=6, dice=[4, 6], extra=lambda p: p.unit("r2", "red", hex="0604", defense=1))
    attack(game, "0604", ["b1"])
    choose(game, "r1|r1|-")
    assert unit(game, "r1").disrupted and unit(game, "r2").disrupted
    choose(game, "0704>0804")
    assert unit(game, "r1").hex == unit(game, "r2").hex == "0804"


def test_7_1_2_non_participating_attackers_share_adverse_results_and_never_advance() -> None:
    # Ar, morale fails: both blue units in 0504 disrupt and retreat
    _, game = duel(att=6, dfn=6, dice=[1, 6], extra=lambda p: p.unit("b2", "blue", hex="0504"))
    attack(game, "0604", ["b1"])
    assert unit(game, "b1").disrupted and unit(game, "b2").disrupted
    assert decision_kind(game) == "retreat" and game.awaiting == "blue"
    choose(game, "0404")
    assert unit(game, "b1").hex == unit(game, "b2").hex == "0404"
    assert decision_kind(game) is None  # 7.9: defenders never advance


def test_7_1_2_only_participating_attackers_may_advance() -> None:
    _, game = duel(att=9, dfn=6, dice=[4, 6], extra=lambda p: p.unit("b2", "blue", hex="0504"))
    attack(game, "0604", ["b1"])
    choose(game, "0704>0804")
    assert decision_kind(game) == "advance" and game.state.decision["units"] == ["b1"]
    choose(game, "0604")
    assert unit(game, "b1").hex == "0604" and unit(game, "b2").hex == "0504"
    assert decision_kind(game) is None


# --- 7.1(3)-(5) -----------------------------------------------------------------------------------
def test_7_1_3_a_unit_may_not_attack_into_a_hex_it_could_not_move_into() -> None:
    pos = Position()
    pos.terrain("0604", "marsh")
    pos.hexside("0504", "0505", "cliff")
    pos.unit("a1", "blue", "artillery", hex="0504", attack=4)
    pos.unit("b1", "blue", hex="0504")
    pos.unit("r1", "red", hex="0604")
    pos.unit("r2", "red", hex="0505")
    game = pos.game(phase="combat", dice=[4, 1])
    refused(game, "7.1(3)", "0604", ["a1"])  # artillery may not enter marsh
    refused(game, "7.1(3)", "0505", ["b1"])  # nor may anyone cross the cliff
    attack(game, "0604", ["b1"])  # infantry may enter marsh


def test_7_1_3_could_move_into_ignores_zoc_and_stacking() -> None:
    # b1 is in r1's and r2's ZOC; r1's hex holds four units: still attackable
    def extra(p):
        for i in range(3):
            p.unit(f"rr{i}", "red", hex="0604", defense=1)
        p.unit("r2", "red", hex="0505")
    _, game = duel(dice=[4, 1], extra=extra)
    attack(game, "0604", ["b1"])
    assert decision_kind(game) == "defenders"


def test_7_1_3_a_unit_attacks_only_once_per_combat_phase() -> None:
    _, game = duel(att=6, dfn=6, dice=[4, 1], extra=lambda p: p.unit("r2", "red", hex="0505"))
    attack(game, "0604", ["b1"])  # "-": no effect
    refused(game, "7.1(3)", "0505", ["b1"])


def test_11_2_1_an_ineffective_unit_may_not_attack() -> None:
    _, game = duel(extra=lambda p: p.unit("bn", "blue", "battalion", hex="0504", ineffective=True, attack=2))
    refused(game, "11.2", "0604", ["bn"])


def test_7_1_4_units_in_one_hex_attack_only_one_defending_hex() -> None:
    def extra(p):
        p.unit("bn", "blue", "battalion", hex="0504", attack=2)
        p.unit("r2", "red", hex="0505")
    _, game = duel(att=6, dfn=6, dice=[4, 1], extra=extra)
    attack(game, "0604", ["b1"])
    refused(game, "7.1(4)", "0505", ["bn"])


def test_7_1_5_a_defending_hex_is_attacked_only_once() -> None:
    _, game = duel(att=6, dfn=6, dice=[4, 1], extra=lambda p: p.unit("b2", "blue", hex="0505"))
    attack(game, "0604", ["b1"])
    refused(game, "7.1(5)", "0604", ["b2"])


def test_7_1_5_attacks_from_several_hexes_combine_into_one_combat() -> None:
    _, game = duel(att=5, dfn=6, dice=[4, 1], extra=lambda p: p.unit("b2", "blue", hex="0505", attack=3))
    events = attack(game, "0604", ["b1", "b2"], primary="b2")
    ev = combat_result(events)
    assert ev["attack"] == 8 and ev["defense"] == 6
    assert [e["type"] for e in events].count("dice") == 1
    assert dice_left(game) == 0


def test_7_2_1_the_primary_must_be_one_of_the_attackers() -> None:
    _, game = duel(extra=lambda p: (p.unit("b2", "blue", hex="0505"), p.leader("bl", "blue", hex="0504")))
    refused(game, "7.2(1)", "0604", ["b1", "b2"])  # two attackers: the primary must be named
    refused(game, "7.2(1)", "0604", ["b1", "b2"], primary="bl")
    refused(game, "7.2", "0604", ["bl"])  # a leader never attacks on its own


def test_r9_a_lone_leader_cannot_be_attacked() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0504")
    pos.leader("rl", "red", hex="0604")
    pos.unit("r1", "red", hex="1008")
    game = pos.game(phase="combat")
    refused(game, "7.1", "0604", ["b1"])


def test_8_1_3_artillery_in_an_ezoc_attacks_only_units_exerting_it() -> None:
    pos = Position()
    pos.unit("a1", "blue", "artillery", hex="0504", attack=4)
    pos.unit("r1", "red", hex="0604", defense=1)
    pos.unit("r2", "red", hex="0505", disrupted=True, defense=1)  # adjacent but exerts no ZOC
    game = pos.game(phase="combat", dice=[4, 1])
    refused(game, "8.1(3)", "0505", ["a1"])
    attack(game, "0604", ["a1"])


def test_8_1_3_artillery_behind_a_zoc_blocking_hexside_is_not_in_that_ezoc() -> None:
    pos = Position()
    pos.hexside("0504", "0604", "wall")
    pos.unit("a1", "blue", "artillery", hex="0504", attack=4)
    pos.unit("r1", "red", hex="0604", defense=1)
    pos.unit("r2", "red", hex="0505", defense=1)
    game = pos.game(phase="combat", dice=[4, 1])
    # a1 is in r2's ZOC only, so it may attack r2 but not r1
    refused(game, "8.1(3)", "0604", ["a1"])


# --- 7.4 strengths --------------------------------------------------------------------------------
@pytest.mark.parametrize("att,expected", [(5, 3), (4, 2), (1, 1), (7, 4)])
def test_7_4_halved_once_rounds_up(att: int, expected: int) -> None:
    _, game = duel(att=att, dfn=1, dice=[4, 1], att_kw={"disrupted": True})
    assert combat_result(attack(game, "0604", ["b1"]))["attack"] == expected


@pytest.mark.parametrize("att", [2, 9, 20])
def test_7_4_halved_twice_is_one(att: int) -> None:
    _, game = duel(att=att, dfn=1, dice=[4, 1], att_kw={"disrupted": True},
                   extra=lambda p: p.hexside("0504", "0604", "stream"))
    assert combat_result(attack(game, "0604", ["b1"]))["attack"] == 1


def test_7_4_halved_three_times_is_still_one() -> None:
    def extra(p):
        p.terrain("0604", "woods")
        p.terrain("0504", "woods")
        p.hexside("0504", "0604", "stream")
    pos = Position()
    extra(pos)
    pos.unit("c1", "blue", "cavalry", hex="0504", attack=12)
    pos.unit("r1", "red", hex="0604", defense=1)
    game = pos.game(phase="combat", dice=[4, 1])
    assert combat_result(attack(game, "0604", ["c1"]))["attack"] == 1


@pytest.mark.parametrize("terrain,where,kind,halved", [
    ("woods", "target", "cavalry", True), ("woods", "target", "infantry", False),
    ("woods", "attacker", "cavalry", True), ("marsh", "attacker", "infantry", True),
    ("town", "target", "cavalry", True), ("hill", "target", "infantry", False),
])
def test_7_4_tec_halves_attacks_into_or_out_of_terrain(terrain: str, where: str, kind: str, halved: bool) -> None:
    pos = Position()
    pos.terrain("0604" if where == "target" else "0504", terrain)
    pos.unit("x", "blue", kind, hex="0504", attack=8)
    pos.unit("r1", "red", hex="0604", defense=1)
    game = pos.game(phase="combat", dice=[4, 1])
    assert combat_result(attack(game, "0604", ["x"]))["attack"] == (4 if halved else 8)


def test_7_4_tec_halves_attacks_across_a_hexside() -> None:
    _, game = duel(att=7, dfn=1, dice=[4, 1], extra=lambda p: p.hexside("0504", "0604", "stream"))
    assert combat_result(attack(game, "0604", ["b1"]))["attack"] == 4


def test_11_1_1_a_disrupted_unit_with_a_leader_of_its_formation_is_not_halved() -> None:
    _, game = duel(att=5, dfn=1, dice=[4, 1], att_kw={"disrupted": True, "formation": "1"},
                   extra=lambda p: p.leader("bl", "blue", hex="0504", combat=0, formation="1"))
    assert combat_result(attack(game, "0604", ["b1"]))["attack"] == 5


def test_11_1_1_a_leader_of_another_formation_does_not_stop_the_halving() -> None:
    _, game = duel(att=5, dfn=1, dice=[4, 1], att_kw={"disrupted": True, "formation": "1"},
                   extra=lambda p: p.leader("bl", "blue", hex="0504", combat=0, formation="2"))
    assert combat_result(attack(game, "0604", ["b1"]))["attack"] == 3


def test_10_0_3_leader_cf_is_added_before_halving() -> None:
    _, game = duel(att=5, dfn=1, dice=[4, 1, 3, 4], extra=lambda p: (
        p.hexside("0504", "0604", "stream"), p.leader("bl", "blue", hex="0504", combat=1)))
    events = attack(game, "0604", ["b1"], leaders=["bl"])
    assert combat_result(events)["attack"] == 3  # (5 + 1) / 2, not 5 / 2 + 1 = 4
    assert dice_left(game) == 0  # and the leader rolled its casualty check


def test_7_4_a_reduced_unit_uses_its_reduced_factors() -> None:
    _, game = duel(att=6, dfn=6, dice=[4, 1], att_kw={"reduced": True}, def_kw={"reduced": True})
    ev = combat_result(attack(game, "0604", ["b1"]))
    assert (ev["attack"], ev["defense"]) == (4, 4)


@pytest.mark.parametrize("terrain,bonus", [("clear", 0), ("woods", 1), ("town", 2), ("hill", 1), ("fort", 3)])
def test_7_2_2_defence_adds_the_tec_bonus_of_the_defenders_hex(terrain: str, bonus: int) -> None:
    _, game = duel(att=6, dfn=5, dice=[4, 1], extra=lambda p: p.terrain("0604", terrain))
    assert combat_result(attack(game, "0604", ["b1"]))["defense"] == 5 + bonus


def test_7_2_2_hexside_defence_counts_when_every_attack_crosses_it() -> None:
    _, game = duel(att=6, dfn=5, dice=[4, 1], extra=lambda p: p.hexside("0504", "0604", "slope"))
    assert combat_result(attack(game, "0604", ["b1"]))["defense"] == 6


def test_7_2_2_hexside_defence_does_not_count_when_one_attack_does_not_cross_it() -> None:
    def extra(p):
        p.hexside("0504", "0604", "slope")
        p.unit("b2", "blue", hex="0505", attack=1)
    _, game = duel(att=6, dfn=5, dice=[4, 1], extra=extra)
    assert combat_result(attack(game, "0604", ["b1", "b2"], primary="b1"))["defense"] == 5


def test_7_2_2_hexside_defence_counts_once_when_two_attacking_hexes_both_cross_it() -> None:
    def extra(p):
        p.hexside("0504", "0604", "slope")
        p.hexside("0505", "0604", "slope")
        p.unit("b2", "blue", hex="0505", attack=1)
    _, game = duel(att=6, dfn=5, dice=[4, 1], extra=extra)
    assert combat_result(attack(game, "0604", ["b1", "b2"], primary="b1"))["defense"] == 6


def test_10_0_3_a_defending_leader_adds_its_cf() -> None:
    _, game = duel(att=6, dfn=5, dice=[4, 1, 3, 4], extra=lambda p: p.leader("rl", "red", hex="0604", combat=2))
    attack(game, "0604", ["b1"])
    assert set(option_ids(game)) == {"r1|r1|-", "r1|r1|rl"}
    events = choose(game, "r1|r1|rl")
    assert combat_result(events)["defense"] == 7
    assert dice_left(game) == 0


def test_10_0_a_leader_of_another_formation_may_not_help_the_defence() -> None:
    _, game = duel(att=6, dfn=5, dice=[4, 1], def_kw={"formation": "R"},
                   extra=lambda p: p.leader("rl", "red", hex="0604", combat=2, formation="S"))
    events = attack(game, "0604", ["b1"])
    assert combat_result(events)["defense"] == 5  # the only option was taken without asking


def test_11_2_1_an_ineffective_unit_defends_with_its_ineffective_factor() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0504", attack=6)
    pos.unit("rbn", "red", "battalion", hex="0604", defense=3, ineffective=True,
             ineffective_factors={"attack": 0, "defense": 1, "mr": 2, "ma": 4})
    game = pos.game(phase="combat", dice=[4, 1])
    assert combat_result(attack(game, "0604", ["b1"]))["defense"] == 1


def test_11_1_1_a_disrupted_unit_defends_with_its_printed_strength() -> None:
    _, game = duel(att=6, dfn=5, dice=[4, 1], def_kw={"disrupted": True})
    assert combat_result(attack(game, "0604", ["b1"]))["defense"] == 5


# --- R6 results: defender loses -------------------------------------------------------------------------
# defender CF 6; attack 6+diff.  Dc: +3 die 3; Dr: +3 die 4; Dx: +10 die 1; Dm: +10 die 3.
D = {"c": (9, 3), "r": (9, 4), "x": (16, 1), "m": (16, 3)}
A = {"c": (6, 2), "r": (6, 1), "x": (3, 1), "m": (2, 1)}
PASS, FAIL = 1, 6


def d_game(letter: str, morale: int, defenders: str | None = None, **kw):
    """Blue attacks r1 for result D<letter>; when red must choose its defenders, `defenders` is its choice."""
    att, die = D[letter]
    _, game = duel(att=att, dfn=6, dice=[die, morale], **kw)
    events = attack(game, "0604", ["b1"])
    if decision_kind(game) == "defenders":
        assert defenders is not None, option_ids(game)
        events = choose(game, defenders)
    assert combat_result(events)["result"] == "D" + letter
    return game, events


def a_game(letter: str, morale: int, **kw):
    att, die = A[letter]
    _, game = duel(att=att, dfn=6, dice=[die, morale], **kw)
    events = attack(game, "0604", ["b1"])
    assert combat_result(events)["result"] == "A" + letter
    return game, events


def test_r6_dc_pass_no_effect() -> None:
    game, _ = d_game("c", PASS)
    r1 = unit(game, "r1")
    assert (r1.hex, r1.disrupted, r1.reduced) == ("0604", False, False)
    assert decision_kind(game) is None and game.state.combat is None


def test_r6_dc_fail_defenders_disrupt_and_stay() -> None:
    game, _ = d_game("c", FAIL, "r1|r1+rbn|-",
                     extra=lambda p: p.unit("rbn", "red", "battalion", hex="0604", defense=0))
    assert unit(game, "r1").disrupted and unit(game, "r1").hex == "0604"
    assert unit(game, "rbn").ineffective and unit(game, "rbn").hex == "0604"
    assert decision_kind(game) is None  # no retreat, so no advance


def test_r6_dc_fail_already_disrupted_units_retreat_at_least_two() -> None:
    game, _ = d_game("c", FAIL, def_kw={"disrupted": True})
    assert decision_kind(game) == "retreat"
    assert all(2 <= len(p) <= 3 for p in retreat_paths(game))
    choose(game, "0704>0804")
    assert unit(game, "r1").hex == "0804" and unit(game, "r1").disrupted
    assert decision_kind(game) == "advance"
    assert set(option_ids(game)) == {"stay", "0604", "0603", "0505"}


def test_r6_dc_fail_only_the_already_impaired_units_retreat() -> None:
    game, _ = d_game("c", FAIL, "r1|r1|-",
                     extra=lambda p: p.unit("r2", "red", hex="0604", defense=0, disrupted=True))
    # r1 (primary) now disrupts and stays; r2 was already disrupted and retreats
    assert decision_kind(game) == "retreat"
    choose(game, "0704>0804")
    assert unit(game, "r1").hex == "0604" and unit(game, "r1").disrupted
    assert unit(game, "r2").hex == "0804"


def test_r6_dr_pass_exchange_both_primaries_lose_a_step() -> None:
    game, _ = d_game("r", PASS)
    b1, r1 = unit(game, "b1"), unit(game, "r1")
    assert b1.reduced and r1.reduced
    assert not b1.disrupted and not r1.disrupted
    assert (b1.hex, r1.hex) == ("0504", "0604")
    assert decision_kind(game) is None


def test_r6_exchange_only_the_primaries_lose_steps() -> None:
    def extra(p):
        p.unit("bn", "blue", "battalion", hex="0504", attack=0)
        p.unit("r2", "red", hex="0604", defense=0)
    att, die = D["r"]
    _, game = duel(att=att, dfn=6, dice=[die, PASS], extra=extra)
    attack(game, "0604", ["b1"])
    choose(game, "r1|r1|-")
    assert unit(game, "b1").reduced and unit(game, "r1").reduced
    assert unit(game, "bn").status == "map" and not unit(game, "r2").reduced


def test_r6_exchange_eliminates_one_step_primaries() -> None:
    pos = Position()
    pos.unit("bn", "blue", "battalion", hex="0504", attack=9)
    pos.unit("rbn", "red", "battalion", hex="0604", defense=6)
    game = pos.game(phase="combat", dice=[4, PASS])
    attack(game, "0604", ["bn"])
    assert unit(game, "bn").status == "eliminated" and unit(game, "rbn").status == "eliminated"


def test_r6_dr_fail_defenders_disrupt_retreat_1_to_3_and_attackers_may_advance_1() -> None:
    game, _ = d_game("r", FAIL)
    assert unit(game, "r1").disrupted
    paths = retreat_paths(game)
    assert {len(p) for p in paths} == {1, 2, 3}
    choose(game, "0704")
    assert unit(game, "r1").hex == "0704"
    assert set(option_ids(game)) == {"stay", "0604", "0603", "0505"}
    choose(game, "0604")
    assert unit(game, "b1").hex == "0604"
    assert decision_kind(game) is None and game.state.combat is None


def test_r6_dr_fail_with_an_already_disrupted_primary_retreats_at_least_two() -> None:
    game, _ = d_game("r", FAIL, def_kw={"disrupted": True})
    assert {len(p) for p in retreat_paths(game)} == {2, 3}


def test_r6_dx_pass_primary_loses_a_step_and_all_disrupt_in_place() -> None:
    game, _ = d_game("x", PASS, "r1|r1+rbn|-",
                     extra=lambda p: (p.unit("r2", "red", hex="0604", defense=0),
                                      p.unit("rbn", "red", "battalion", hex="0604", defense=0)))
    r1, r2, rbn = unit(game, "r1"), unit(game, "r2"), unit(game, "rbn")
    assert r1.reduced and r1.disrupted and not r2.reduced and r2.disrupted and rbn.ineffective
    assert {r1.hex, r2.hex, rbn.hex} == {"0604"}
    assert decision_kind(game) is None


def test_r6_dx_pass_with_an_already_impaired_primary_has_no_further_effect() -> None:
    game, _ = d_game("x", PASS, "r1|r1|-", def_kw={"disrupted": True},
                     extra=lambda p: p.unit("r2", "red", hex="0604", defense=0))
    r1, r2 = unit(game, "r1"), unit(game, "r2")
    assert r1.reduced and r1.disrupted and r1.hex == "0604"  # the step loss still happens
    assert not r2.disrupted and r2.hex == "0604"  # but nothing else: no disruption, no retreat
    assert decision_kind(game) is None


def test_r6_dx_pass_eliminates_a_reduced_primary_and_gives_no_advance() -> None:
    game, _ = d_game("x", PASS, def_kw={"reduced": True})
    assert unit(game, "r1").status == "eliminated"
    assert decision_kind(game) is None
    assert unit(game, "b1").hex == "0504"


def test_r6_dx_fail_is_a_retreat_like_dr_fail() -> None:
    game, _ = d_game("x", FAIL)
    r1 = unit(game, "r1")
    assert r1.disrupted and not r1.reduced
    assert {len(p) for p in retreat_paths(game)} == {1, 2, 3}


def test_r6_dm_pass_is_a_retreat_like_dr_fail() -> None:
    game, _ = d_game("m", PASS)
    r1 = unit(game, "r1")
    assert r1.disrupted and not r1.reduced
    assert {len(p) for p in retreat_paths(game)} == {1, 2, 3}
    choose(game, "0704")
    assert game.state.decision["kind"] == "advance"
    choose(game, "0604")
    assert decision_kind(game) is None  # one hex only


def test_r6_dm_fail_step_loss_rout_three_and_advance_two() -> None:
    game, _ = d_game("m", FAIL)
    r1 = unit(game, "r1")
    assert r1.reduced and r1.disrupted
    assert {len(p) for p in retreat_paths(game)} == {3}
    choose(game, "0704>0804>0904")
    assert unit(game, "r1").hex == "0904"
    assert decision_kind(game) == "advance"
    choose(game, "0604")
    assert decision_kind(game) == "advance"  # the second hex, in any direction
    assert "0704" in option_ids(game) and "0605" in option_ids(game)
    choose(game, "0704")
    assert unit(game, "b1").hex == "0704"
    assert decision_kind(game) is None


def test_r6_dm_fail_eliminating_the_primary_gives_no_advance() -> None:
    game, _ = d_game("m", FAIL, "r1|r1|-", def_kw={"reduced": True},
                     extra=lambda p: p.unit("r2", "red", hex="0604", defense=0))
    assert unit(game, "r1").status == "eliminated"
    choose(game, "0704>0804>0904")  # r2 routs
    assert unit(game, "r2").hex == "0904" and unit(game, "r2").disrupted
    assert decision_kind(game) is None  # 7.9: no advance when a defender was eliminated


# --- R6 results: attacker loses -----------------------------------------------------------------------
def test_r6_ac_pass_no_effect() -> None:
    game, _ = a_game("c", PASS)
    assert not unit(game, "b1").disrupted and decision_kind(game) is None


def test_r6_ac_fail_attackers_disrupt() -> None:
    game, _ = a_game("c", FAIL)
    assert unit(game, "b1").disrupted and unit(game, "b1").hex == "0504"
    assert decision_kind(game) is None


def test_r6_ar_pass_exchange() -> None:
    game, _ = a_game("r", PASS)
    assert unit(game, "b1").reduced and unit(game, "r1").reduced


def test_r6_ar_fail_attackers_retreat_and_defenders_never_advance() -> None:
    game, _ = a_game("r", FAIL)
    assert unit(game, "b1").disrupted
    assert decision_kind(game) == "retreat" and game.awaiting == "blue"
    choose(game, "0404")
    assert unit(game, "b1").hex == "0404"
    assert decision_kind(game) is None and unit(game, "r1").hex == "0604"


def test_r6_ax_pass_attacker_primary_loses_a_step_and_disrupts() -> None:
    game, _ = a_game("x", PASS)
    b1 = unit(game, "b1")
    assert b1.reduced and b1.disrupted and b1.hex == "0504"


def test_r6_ax_fail_attackers_disrupt_and_retreat() -> None:
    game, _ = a_game("x", FAIL)
    b1 = unit(game, "b1")
    assert b1.disrupted and not b1.reduced
    assert {len(p) for p in retreat_paths(game)} == {1, 2, 3}
    choose(game, "0404")
    assert unit(game, "b1").hex == "0404" and decision_kind(game) is None


def test_r6_am_pass_attackers_disrupt_and_retreat() -> None:
    game, _ = a_game("m", PASS)
    b1 = unit(game, "b1")
    assert b1.disrupted and not b1.reduced
    assert {len(p) for p in retreat_paths(game)} == {1, 2, 3}


def test_r6_am_fail_attacker_routs() -> None:
    game, _ = a_game("m", FAIL)
    b1 = unit(game, "b1")
    assert b1.reduced and b1.disrupted
    assert {len(p) for p in retreat_paths(game)} == {3}
    choose(game, "0404>0304>0204")
    assert unit(game, "b1").hex == "0204" and decision_kind(game) is None


def test_r6_dash_is_no_effect_and_needs_no_morale_check() -> None:
    _, game = duel(att=6, dfn=6, dice=[4, 6])
    events = attack(game, "0604", ["b1"])
    assert combat_result(events)["result"] == "-"
    assert "morale" not in [e["type"] for e in events]
    assert not unit(game, "b1").disrupted and not unit(game, "r1").disrupted


def test_r6_the_morale_die_checks_the_losing_sides_primary() -> None:
    _, game = duel(att=6, dfn=6, dice=[2, 5], att_kw={"mr": 5}, def_kw={"mr": 1})
    events = attack(game, "0604", ["b1"])
    m = next(e for e in events if e["type"] == "morale")
    assert m["unit"] == "b1" and m["rating"] == 5 and m["passed"] is True


# --- 7.5 morale -------------------------------------------------------------------------------------------
def test_7_5_a_one_always_passes() -> None:
    _game, events = d_game("r", PASS, def_kw={"mr": 0, "disrupted": True})  # rating -2
    m = next(e for e in events if e["type"] == "morale")
    assert m["rating"] == -2 and m["passed"] is True


def test_7_5_a_six_always_fails() -> None:
    _game, events = d_game("c", FAIL, "r1|r1|-", def_kw={"mr": 9},
                          extra=lambda p: p.leader("rl", "red", hex="0604", morale=2))
    m = next(e for e in events if e["type"] == "morale")
    assert m["passed"] is False


@pytest.mark.parametrize("mr,die,disrupted,passed", [
    (4, 4, False, True), (4, 5, False, False), (4, 3, True, False), (4, 2, True, True), (5, 3, True, True),
])
def test_7_5_morale_rating_and_the_disruption_penalty(mr: int, die: int, disrupted: bool, passed: bool) -> None:
    _game, events = d_game("c", die, def_kw={"mr": mr, "disrupted": disrupted})
    m = next(e for e in events if e["type"] == "morale")
    assert m["rating"] == mr - (2 if disrupted else 0) and m["passed"] is passed


def test_10_0_4_leader_morale_is_added_to_the_primary() -> None:
    att, die = D["c"]
    _, game = duel(att=att, dfn=6, dice=[die, 5, 3, 4], def_kw={"mr": 4},
                   extra=lambda p: p.leader("rl", "red", hex="0604", morale=1, combat=0))
    attack(game, "0604", ["b1"])
    events = choose(game, "r1|r1|rl")
    m = next(e for e in events if e["type"] == "morale")
    assert m["rating"] == 5 and m["passed"] is True
    assert not unit(game, "r1").disrupted


def test_10_0_4_leader_morale_never_saves_a_six() -> None:
    att, die = D["c"]
    _, game = duel(att=att, dfn=6, dice=[die, 6, 3, 4], def_kw={"mr": 4},
                   extra=lambda p: p.leader("rl", "red", hex="0604", morale=3, combat=0))
    attack(game, "0604", ["b1"])
    events = choose(game, "r1|r1|rl")
    assert next(e for e in events if e["type"] == "morale")["passed"] is False


def test_10_0_4_attacking_leader_morale_is_added_to_the_attacking_primary() -> None:
    att, die = A["c"]
    _, game = duel(att=att, dfn=6, dice=[die, 5, 3, 4], att_kw={"mr": 4},
                   extra=lambda p: p.leader("bl", "blue", hex="0504", morale=1, combat=0))
    events = attack(game, "0604", ["b1"], leaders=["bl"])
    m = next(e for e in events if e["type"] == "morale")
    assert m["unit"] == "b1" and m["rating"] == 5 and m["passed"] is True


def test_11_2_2_an_ineffective_unit_checks_with_its_ineffective_morale() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0504", attack=9)
    pos.unit("rbn", "red", "battalion", hex="0604", defense=6, mr=5, ineffective=True,
             ineffective_factors={"attack": 0, "defense": 6, "mr": 2, "ma": 4})
    game = pos.game(phase="combat", dice=[3, 3])
    events = attack(game, "0604", ["b1"])
    m = next(e for e in events if e["type"] == "morale")
    assert m["rating"] == 2 and m["passed"] is False
