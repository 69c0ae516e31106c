"""Advance after combat (7.9, R7): when, who, where, and two hexes after a rout."""

from __future__ import annotations

from position import Position, attack, choose, combat_result, decision_kind, option_ids, unit

PASS, FAIL = 1, 6


def fight(extra=None, *, att=9, dice=None, attackers=("b1",), primary=None, leaders=None, b1_kw=None, r1_kw=None,
          defenders=None):
    """Blue (b1 at 0504, attack 9 by default) attacks r1 (0604, defence 6): +3, die 4 = Dr."""
    pos = Position()
    pos.unit("b1", "blue", hex="0504", **{"attack": att, **(b1_kw or {})})
    pos.unit("r1", "red", hex="0604", **{"defense": 6, **(r1_kw or {})})
    if extra:
        extra(pos)
    game = pos.game(phase="combat", dice=list(dice or [4, FAIL]))
    events = attack(game, "0604", list(attackers), primary=primary, leaders=leaders)
    if decision_kind(game) == "defenders":
        events = choose(game, defenders or option_ids(game)[0])
    return game, events


def test_7_9_advance_into_the_vacated_hex_or_a_vacant_hex_adjacent_to_it() -> None:
    game, _ = fight()
    choose(game, "0704")
    assert decision_kind(game) == "advance" and game.awaiting == "blue"
    assert set(option_ids(game)) == {"stay", "0604", "0603", "0505"}
    choose(game, "0505")
    assert unit(game, "b1").hex == "0505"
    assert decision_kind(game) is None and game.state.combat is None


def test_7_9_staying_put_is_allowed() -> None:
    game, _ = fight()
    choose(game, "0704")
    choose(game, "stay")
    assert unit(game, "b1").hex == "0504"


def test_7_9_occupied_and_prohibited_hexes_are_not_offered() -> None:
    def extra(p):
        p.unit("b2", "blue", hex="0505")  # friendly: not vacant
        p.terrain("0603", "lake")
    game, _ = fight(extra)
    choose(game, "0704")
    assert set(option_ids(game)) == {"stay", "0604"}


def test_7_9_advancing_units_ignore_ezoc() -> None:
    game, _ = fight(lambda p: p.unit("r2", "red", hex="0602", attack=1))  # its ZOC covers 0603
    choose(game, "0704")
    assert "0603" in option_ids(game)
    choose(game, "0603")
    assert unit(game, "b1").hex == "0603"


def test_7_9_a_hexside_the_tec_forbids_advancing_across() -> None:
    game, _ = fight(lambda p: p.hexside("0504", "0505", "hedge"))
    choose(game, "0704")
    assert "0505" not in option_ids(game) and "0604" in option_ids(game)


def test_7_9_no_advance_from_terrain_the_tec_forbids() -> None:
    pos = Position()
    pos.terrain("0504", "woods")  # cavalry may not advance out of woods
    pos.unit("c1", "blue", "cavalry", hex="0504", attack=18)  # halved out of woods: 9
    pos.unit("r1", "red", hex="0604", defense=6)
    game = pos.game(phase="combat", dice=[4, FAIL])
    assert combat_result(attack(game, "0604", ["c1"]))["attack"] == 9
    choose(game, "0704")
    assert decision_kind(game) is None and unit(game, "c1").hex == "0504"


def test_7_9_no_advance_when_the_defender_did_not_retreat() -> None:
    game, _ = fight(dice=[3, FAIL])  # +3, die 3: Dc, morale fails: disrupted in place
    assert unit(game, "r1").disrupted and unit(game, "r1").hex == "0604"
    assert decision_kind(game) is None


def test_7_9_no_advance_after_an_exchange() -> None:
    game, _ = fight(dice=[4, PASS])
    assert unit(game, "b1").reduced and decision_kind(game) is None


def test_7_9_no_advance_if_a_defender_was_eliminated() -> None:
    # Dm, morale fails: the reduced primary is eliminated, the other defender routs
    game, _ = fight(lambda p: p.unit("r2", "red", hex="0604", defense=0), att=16, dice=[3, FAIL],
                    r1_kw={"reduced": True, "reduced_factors": {"attack": 2, "defense": 6, "mr": 4, "ma": 4}},
                    defenders="r1|r1|-")
    assert unit(game, "r1").status == "eliminated"
    choose(game, "0704>0804>0904")
    assert decision_kind(game) is None and unit(game, "b1").hex == "0504"


def test_7_9_disrupted_attackers_and_artillery_do_not_advance() -> None:
    def extra(p):
        p.leader("bl", "blue", hex="0504", combat=0)  # keeps the disrupted b1 at full strength
        p.unit("a1", "blue", "artillery", hex="0504", attack=1)
    game, events = fight(extra, att=8, dice=[4, FAIL, 3, 4], attackers=("b1", "a1"), primary="b1", leaders=["bl"],
                         b1_kw={"disrupted": True})
    assert combat_result(events)["attack"] == 9
    choose(game, "0704")
    assert decision_kind(game) is None
    assert unit(game, "b1").hex == "0504" and unit(game, "a1").hex == "0504"


def test_7_9_each_attacking_hex_decides_separately() -> None:
    game, _ = fight(lambda p: p.unit("b2", "blue", hex="0505", attack=1), att=8, attackers=("b1", "b2"), primary="b1")
    choose(game, "0704")
    assert decision_kind(game) == "advance" and game.state.decision["units"] == ["b1"]
    choose(game, "stay")
    assert decision_kind(game) == "advance" and game.state.decision["units"] == ["b2"]
    choose(game, "0604")
    assert unit(game, "b1").hex == "0504" and unit(game, "b2").hex == "0604"


def test_7_9_after_a_rout_the_second_hex_may_go_in_any_direction() -> None:
    game, _ = fight(att=16, dice=[3, FAIL])  # Dm, morale fails: rout
    choose(game, "0704>0804>0904")
    choose(game, "0604")
    opts = set(option_ids(game))
    assert opts == {"stay", "0705", "0704", "0603", "0504", "0505", "0605"}
    choose(game, "0605")
    assert unit(game, "b1").hex == "0605" and decision_kind(game) is None


def test_7_9_the_first_hex_of_a_two_hex_advance_may_be_beside_the_vacated_hex() -> None:
    game, _ = fight(att=16, dice=[3, FAIL])
    choose(game, "0704>0804>0904")
    choose(game, "0505")
    assert decision_kind(game) == "advance"
    choose(game, "0506")
    assert unit(game, "b1").hex == "0506"


def test_7_9_defenders_never_advance() -> None:
    game, _ = fight(att=6, dice=[1, FAIL])  # 0: Ar, morale fails: blue retreats
    choose(game, "0404")
    assert decision_kind(game) is None and unit(game, "r1").hex == "0604"
