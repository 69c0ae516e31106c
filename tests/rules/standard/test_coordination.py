"""Coordination (seed 002 7.14, 19.1, 14.3(2)) and leaders in combat (10.3: participation, the one assist a turn,
casualties), each as the seed demands."""

from __future__ import annotations

from server.rules import Game
from server.rules.standard.tactics import by_formation, formation_key, in_span, uncoordinated_halved

from .builder import unit
from .fight import (
    ARTILLERY,
    LEADER,
    add_infantry,
    combat,
    combat_event,
    decision,
    flag,
    ground,
    light,
)
from .ground import board
from .play import choose, refused, submit

TWO = {"type": "attack", "target": "0704", "attackers": ["b-1", "b-2"], "primary": "b-1"}


def test_19_1_each_sub_formation_counts_separately_for_coordination() -> None:
    data = ground()
    add_infantry(data, "b-2", "0603", sub_formation="a")
    add_infantry(data, "b-3", "0705", sub_formation="b")
    add_infantry(data, "b-4", "0703", sub_formation="a")
    sc, _ = board(data)
    assert formation_key(sc, "b-2") == "1/a" and formation_key(sc, "b-3") == "1/b"
    assert by_formation(sc, ["b-2", "b-4"]) and not by_formation(sc, ["b-2", "b-3"])
    assert uncoordinated_halved(sc, ["b-2", "b-3", "b-4"], "b-2") == ["b-3"]


def test_7_14_an_attack_by_one_formation_is_coordinated() -> None:
    data = ground()
    add_infantry(data, "b-2", "0603")
    game = combat(data, [4, 1])  # 6 + 5 - 5 = +6: die 4 = Dx
    events = submit(game, "blue", TWO)
    assert combat_event(events)["differential"] == 6
    assert game.state.combat is None or game.state.combat.get("halved") == []


def test_7_14_an_uncoordinated_attack_halves_the_other_formations() -> None:
    data = ground()
    add_infantry(data, "b-2", "0603", formation="2")
    game = combat(data, [3, 1])  # 6 + 3 (5 halved) - 5 = +4: die 3 = Dc(NE), passed
    events = submit(game, "blue", TWO)
    assert combat_event(events)["differential"] == 4


def test_7_14_the_preview_shows_coordination_and_the_halving() -> None:
    data = ground()
    add_infantry(data, "b-2", "0603", formation="2")
    game = combat(data)
    p = game.preview("blue", TWO)
    assert p["legal"] and p["differential"] == 4
    assert p["coordination"] == {"coordinated": False, "coordinator": None, "halved": ["b-2"], "rule": "7.14"}
    assert next(a for a in p["attackers"] if a["unit"] == "b-2")["halvings"] == ["7.14"]
    assert any(m["rule"] == "7.14" for m in p["modifiers"])


def test_7_14_a_leader_whose_span_covers_every_formation_coordinates_once_a_turn() -> None:
    data = ground()
    add_infantry(data, "b-2", "0603", formation="2")
    unit(data, "b-ldr", "0503", formation="1", span=["1", "2"], **LEADER)  # adjacent to b-2, not to the enemy
    game = combat(data, [3, 1])
    p = game.preview("blue", {**TWO, "coordinator": "b-ldr"})
    assert p["legal"] and p["differential"] == 6 and p["coordination"]["coordinated"]
    events = submit(game, "blue", {**TWO, "coordinator": "b-ldr"})
    assert combat_event(events)["differential"] == 6
    assert game.state.extra["assisted"] == {"b-ldr": 1}


def test_7_14_a_leader_whose_span_misses_a_formation_cannot_coordinate() -> None:
    data = ground()
    add_infantry(data, "b-2", "0603", formation="2")
    unit(data, "b-ldr", "0503", formation="1", span=["1"], **LEADER)
    game = combat(data)
    e = refused(game, "blue", {**TWO, "coordinator": "b-ldr"})
    assert e.rule == "7.14" and "command span" in e.message


def test_7_14_the_coordinating_leader_is_stacked_with_or_adjacent_to_an_attacker() -> None:
    data = ground()
    add_infantry(data, "b-2", "0603", formation="2")
    unit(data, "b-ldr", "0301", formation="1", span=["1", "2"], **LEADER)
    game = combat(data)
    assert refused(game, "blue", {**TWO, "coordinator": "b-ldr"}).rule == "7.14"


def test_14_3_2_no_coordination_at_twilight() -> None:
    data = ground()
    light(data, "twilight")
    add_infantry(data, "b-2", "0603", formation="2")
    unit(data, "b-ldr", "0503", formation="1", span=["1", "2"], **LEADER)
    game = combat(data)
    assert refused(game, "blue", {**TWO, "coordinator": "b-ldr"}).rule == "14.3(2)"
    assert game.preview("blue", TWO)["differential"] == 4  # still uncoordinated, halved


# --- 2.4 "A" units: of every formation ------------------------------------------------------------------------------
def test_2_4_a_unit_is_coordinated_with_any_formation() -> None:
    data = ground()
    add_infantry(data, "b-2", "0603", formation="A")
    add_infantry(data, "b-3", "0705", sub_formation="a")
    sc, _ = board(data)
    assert by_formation(sc, ["b-1", "b-2"]) and by_formation(sc, ["b-3", "b-2"])
    assert uncoordinated_halved(sc, ["b-1", "b-2"], "b-1") == []
    assert uncoordinated_halved(sc, ["b-3", "b-2"], "b-3") == []
    game = combat(data, [4, 1])  # 6 + 5 - 5 = +6, nobody halved
    p = game.preview("blue", TWO)
    assert p["legal"] and p["differential"] == 6
    assert p["coordination"] == {"coordinated": True, "coordinator": None, "halved": [], "rule": "7.14"}
    assert not any(m["rule"] == "7.14" for m in p["modifiers"])
    assert combat_event(submit(game, "blue", TWO))["differential"] == 6


def test_2_4_a_unit_is_never_halved_when_the_attack_is_uncoordinated() -> None:
    data = ground()
    add_infantry(data, "b-2", "0603", formation="2")
    add_infantry(data, "b-3", "0705", formation="A")
    sc, _ = board(data)
    three = ["b-1", "b-2", "b-3"]
    assert not by_formation(sc, three)
    assert uncoordinated_halved(sc, three, "b-1") == ["b-2"]
    assert uncoordinated_halved(sc, three, "b-2") == ["b-1"]
    game = combat(data)
    p = game.preview("blue", {**TWO, "attackers": three})
    assert p["legal"] and p["differential"] == 6 + 3 + 5 - 5 and p["coordination"]["halved"] == ["b-2"]


def test_2_4_an_a_primary_shares_a_formation_with_every_attacker_so_none_is_halved() -> None:
    data = ground()
    add_infantry(data, "b-2", "0603", formation="2")
    add_infantry(data, "b-3", "0705", formation="A")
    unit(data, "b-ldr", "0503", formation="1", span=["1", "2"], **LEADER)
    sc, _ = board(data)
    assert uncoordinated_halved(sc, ["b-1", "b-2", "b-3"], "b-3") == []
    game = combat(data)
    cmd = {**TWO, "attackers": ["b-1", "b-2", "b-3"], "primary": "b-3"}
    p = game.preview("blue", cmd)
    assert p["legal"] and p["differential"] == 6 + 5 + 5 - 5
    assert p["coordination"] == {"coordinated": True, "coordinator": None, "halved": [], "rule": "7.14"}
    assert any(m["rule"] == "2.4" and "every formation" in m["label"] for m in p["modifiers"])
    e = refused(game, "blue", {**cmd, "coordinator": "b-ldr"})  # nothing for a leader to coordinate
    assert e.rule == "7.14" and "every formation" in e.message


def test_2_4_an_independent_unit_shares_no_formation_even_with_an_a_unit() -> None:
    data = ground()
    add_infantry(data, "b-2", "0603", formation="0")
    add_infantry(data, "b-3", "0705", formation="A")
    sc, _ = board(data)
    assert not by_formation(sc, ["b-2", "b-3"])
    assert uncoordinated_halved(sc, ["b-2", "b-3"], "b-3") == ["b-2"]
    assert uncoordinated_halved(sc, ["b-2", "b-3"], "b-2") == ["b-3"]


def test_10_3_an_a_unit_lies_within_every_leaders_span() -> None:
    data = ground()
    add_infantry(data, "b-2", "0603", formation="A")
    add_infantry(data, "r-2", "0905", formation="A", side="red")
    unit(data, "b-ldr", "0503", formation="2", span=["2"], **LEADER)
    unit(data, "b-ldr1", "0604", formation="1", span=["1"], **LEADER)
    sc, _ = board(data)
    assert in_span(sc, "b-ldr", "b-2") and in_span(sc, "b-ldr1", "b-2")
    assert not in_span(sc, "b-ldr", "r-2")  # a friendly leader's span only


def test_7_14_a_leader_coordinates_an_attack_with_an_a_unit_whatever_his_span() -> None:
    data = ground()
    add_infantry(data, "b-2", "0603", formation="2")
    add_infantry(data, "b-3", "0705", formation="A")
    unit(data, "b-ldr", "0503", formation="1", span=["1", "2"], **LEADER)  # adjacent to b-2
    game = combat(data, [3, 1])
    cmd = {**TWO, "attackers": ["b-1", "b-2", "b-3"], "coordinator": "b-ldr"}
    p = game.preview("blue", cmd)
    assert p["legal"] and p["differential"] == 6 + 5 + 5 - 5 and p["coordination"]["coordinated"]


def test_10_3_a_leader_joins_an_a_unit_whatever_his_span() -> None:
    data = ground()
    unit(data, "b-1", "0604", kind="infantry", formation="A", full={"cf": 6, "mr": 4, "ma": 4},
         reduced={"cf": 3, "mr": 3, "ma": 4})
    unit(data, "b-ldr", "0604", formation="2", span=["2"], **LEADER)
    game = combat(data)
    p = game.preview("blue", {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1",
                              "leaders": ["b-ldr"]})
    assert p["legal"] and p["leaders"] == {"b-ldr": "b-1"} and p["differential"] == 6 + 1 - 5


# --- 7.14 (S22): artillery attacking in close combat is coordinated like infantry; supporting fire is not ---------------
ART_TWO = {"type": "attack", "target": "0704", "attackers": ["b-1", "b-art"], "primary": "b-1"}


def test_7_14_adjacent_artillery_of_another_formation_makes_the_attack_uncoordinated() -> None:
    data = ground()
    unit(data, "b-art", "0603", formation="2", **ARTILLERY)  # next to r-1: it attacks (8.3), no supporting fire
    sc, _ = board(data)
    assert not by_formation(sc, ["b-1", "b-art"])
    assert uncoordinated_halved(sc, ["b-1", "b-art"], "b-1") == ["b-art"]
    game = combat(data, [3, 1])  # 6 + 2 (attack 4 halved) - 5 = +3
    p = game.preview("blue", ART_TWO)
    assert p["legal"] and p["differential"] == 3
    assert p["coordination"] == {"coordinated": False, "coordinator": None, "halved": ["b-art"], "rule": "7.14"}
    assert next(a for a in p["attackers"] if a["unit"] == "b-art")["halvings"] == ["7.14"]
    assert combat_event(submit(game, "blue", ART_TWO))["differential"] == 3


def test_7_14_adjacent_artillery_of_the_formation_is_coordinated() -> None:
    data = ground()
    unit(data, "b-art", "0603", formation="1", **ARTILLERY)
    game = combat(data)
    p = game.preview("blue", ART_TWO)
    assert p["legal"] and p["differential"] == 6 + 4 - 5 and p["coordination"]["coordinated"]


def test_7_14_a_coordinating_leader_s_span_must_cover_adjacent_artillery() -> None:
    data = ground()
    unit(data, "b-art", "0603", formation="2", **ARTILLERY)
    unit(data, "b-ldr", "0503", formation="1", span=["1"], **LEADER)
    game = combat(data)
    e = refused(game, "blue", {**ART_TWO, "coordinator": "b-ldr"})
    assert e.rule == "7.14" and "command span" in e.message


def test_8_8_supporting_artillery_of_another_formation_needs_no_coordination() -> None:
    data = ground()
    unit(data, "b-art", "0504", formation="2", **ARTILLERY)  # two hexes from 0704, next to b-1: supporting fire
    game = combat(data)
    p = game.preview("blue", {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1",
                              "support": ["b-art"]})
    assert p["legal"] and p["differential"] == 6 + 4 - 5 and p["coordination"]["coordinated"]
    assert p["support_fire"][0]["halvings"] == []


def test_10_3_a_participating_leader_adds_his_cf_and_morale_and_lifts_the_disruption_halving() -> None:
    data = ground()
    flag(data, "b-1", disrupted=True)
    unit(data, "b-ldr", "0604", formation="1", span=["1"], **LEADER)
    game = combat(data, [1, 5])  # (6 + 1) - 5 = +2 (no 2.8(3) halving): die 1 = Ac(NE) Ammo
    cmd = {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1", "leaders": ["b-ldr"]}
    p = game.preview("blue", cmd)
    assert p["attackers"] == [{"unit": "b-1", "printed": 6, "leader": 1, "halvings": [], "doubled": None, "value": 7}]
    events = submit(game, "blue", cmd)
    assert combat_event(events)["differential"] == 2
    morale = next(e for e in events if e["type"] == "morale")
    # MR 4 - 2 (disrupted) + 2 (leader) = 4: the morale die 5 still fails
    assert morale["die"] == 5 and "+2 leader, 10.3" in morale["text"] and not morale["passed"]
    assert game.state.extra["assisted"] == {"b-ldr": 1}


def test_10_3_the_leader_morale_makes_a_check_pass() -> None:
    data = ground()
    unit(data, "b-ldr", "0604", formation="1", span=["1"], **LEADER)
    game = combat(data, [1, 5])  # 7 - 5 = +2: die 1 = Ac(NE); MR 4 + 2 = 6 passes the 5
    events = submit(game, "blue", {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1",
                                   "leaders": ["b-ldr"]})
    assert next(e for e in events if e["type"] == "morale")["passed"]


def test_10_3_a_leader_assists_one_unit_a_turn_and_only_within_his_span() -> None:
    data = ground()
    unit(data, "b-ldr", "0604", formation="1", span=["2"], **LEADER)
    game = combat(data)
    cmd = {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1", "leaders": ["b-ldr"]}
    assert refused(game, "blue", cmd).rule == "10.3"  # b-1 is of formation 1, not in his span
    data = ground()
    unit(data, "b-ldr", "0604", formation="1", span=["1"], **LEADER)
    game = combat(data)
    game.state.extra["assisted"] = {"b-ldr": 1}
    e = refused(game, "blue", cmd)
    assert e.rule == "10.3" and "this turn" in e.message


def test_10_3_an_ineffective_leader_has_no_effect() -> None:
    data = ground()
    unit(data, "b-ldr", "0604", formation="1", span=["1"], **LEADER)
    flag(data, "b-ldr", ineffective=True)
    game = combat(data)
    cmd = {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1", "leaders": ["b-ldr"]}
    assert refused(game, "blue", cmd).rule == "10.1"


def test_10_3_the_defender_may_add_a_leader_of_the_hex() -> None:
    data = ground()
    unit(data, "r-ldr", "0704", side="red", formation="7", span=["7"], **LEADER)
    game = combat(data, [4, 1])  # 6 - (5 + 1) = 0: die 4 = Ex Leader
    game.submit("blue", {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1"})
    d = decision(game)
    assert d["kind"] == "defenders" and {o["id"] for o in d["options"]} == {"r-1:r-1", "r-1:r-1:r-ldr"}
    load_after = [4, 1, 5]  # combat die, morale die, r-ldr's casualty die (participating: 5 kills)
    from .play import load

    load(game, load_after)
    events = choose(game, "red", "r-1:r-1:r-ldr")
    assert combat_event(events)["differential"] == 0
    assert game.state.units["r-ldr"].status == "dead"  # 10.3: a participating leader falls on a 5


def test_10_3_a_stacked_leader_not_taking_part_falls_only_on_a_6() -> None:
    data = ground()
    unit(data, "r-ldr", "0704", side="red", formation="7", span=["7"], **LEADER)
    game = combat(data, [])
    game.submit("blue", {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1"})
    from .play import load

    load(game, [3, 1, 5])  # +1: die 3 = Ex Leader; r-ldr rolls 5: stacked, survives
    choose(game, "red", "r-1:r-1")
    assert game.state.units["r-ldr"].status == "map"


def test_10_3_a_coordinating_leader_falls_on_a_6() -> None:
    data = ground()
    add_infantry(data, "b-2", "0603", formation="2")
    unit(data, "b-ldr", "0503", formation="1", span=["1", "2"], **LEADER)
    game = combat(data, [5, 1, 6])  # +6: die 5 = Dm(Dr) Leader, passed; b-ldr rolls 6
    submit(game, "blue", {**TWO, "coordinator": "b-ldr"})
    assert game.state.units["b-ldr"].status == "dead"


def test_10_1_a_leader_left_alone_in_an_ezoc_outside_movement_joins_the_nearest_friendly_unit() -> None:
    data = ground()
    unit(data, "r-1", "0704", side="red", kind="infantry", formation="7", steps=1, full={"cf": 5, "mr": 4, "ma": 4})
    unit(data, "r-ldr", "0704", side="red", formation="7", span=["7"], **LEADER)
    add_infantry(data, "r-2", "0905", formation="7", side="red")
    game = combat(data, [3, 1, 1])  # +1: die 3 = Ex Leader; r-ldr (stacked) rolls 1
    submit(game, "blue", {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1"})
    events = choose(game, "red", "r-1:r-1")  # the leader does not take part
    assert game.state.units["r-1"].status == "eliminated"
    assert game.state.units["r-ldr"].hex == "0905" and game.state.units["r-ldr"].status == "map"
    moved = next(e for e in events if e["type"] == "leader_moves")  # where from and where to: the page draws it
    assert moved["rule"] == "10.1" and moved["path"] == ["0704", "0905"]


def test_10_1_a_lone_leader_with_no_line_of_retreat_is_captured() -> None:
    data = ground()
    unit(data, "r-1", "0704", side="red", kind="infantry", formation="7", steps=1, full={"cf": 5, "mr": 4, "ma": 4})
    unit(data, "r-ldr", "0704", side="red", formation="7", span=["7"], **LEADER)
    for i, h in enumerate(("0803", "0804", "0705", "0703", "0603")):  # blue all round: no path out of 0704
        add_infantry(data, f"b-x{i}", h)
    flag(data, "r-hq", inactive=True)
    flag(data, "r-tr", inactive=True)
    game = combat(data, [1, 3, 1, 1])  # 7.3(2): r-1 passes its check; +1: die 3 = Ex Leader; r-ldr rolls 1
    submit(game, "blue", {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1"})
    choose(game, "red", "r-1:r-1")
    assert game.state.units["r-ldr"].status == "captured"


# --- 10.3 the leader's movement assist --------------------------------------------------------------------------------
def _row1(disrupted: bool = False) -> Game:
    from .play import new_game

    data = ground("0101")
    unit(data, "b-ldr", "0101", formation="1", span=["1"], **LEADER)
    if disrupted:
        flag(data, "b-1", disrupted=True)
    return new_game(data, [])


SIX = ["0101", "0201", "0301", "0401", "0501", "0601", "0701"]


def test_10_3_a_leader_moving_with_a_unit_adds_his_movement_value_once_a_turn() -> None:
    game = _row1()
    move = {"type": "move", "units": ["b-1", "b-ldr"], "path": SIX}
    assert refused(game, "blue", move).rule == "4.3"  # MA 4
    events = game.submit("blue", {**move, "assist": "b-ldr"})
    assert game.state.units["b-1"].hex == "0701" and game.state.units["b-ldr"].hex == "0701"
    assert any(e["type"] == "assist" and e["rule"] == "10.3" for e in events)
    assert game.state.extra["assisted"] == {"b-ldr": 1}


def test_10_3_a_leader_assists_the_move_of_an_a_unit_whatever_his_span() -> None:
    from .play import new_game

    data = ground("0101")
    unit(data, "b-1", "0101", kind="infantry", formation="A", full={"cf": 6, "mr": 4, "ma": 4},
         reduced={"cf": 3, "mr": 3, "ma": 4})
    unit(data, "b-ldr", "0101", formation="2", span=["2"], **LEADER)
    game = new_game(data, [])
    game.submit("blue", {"type": "move", "units": ["b-1", "b-ldr"], "path": SIX, "assist": "b-ldr"})
    assert game.state.units["b-1"].hex == "0701" and game.state.extra["assisted"] == {"b-ldr": 1}


def test_10_3_the_assisting_leader_moves_with_the_stack_and_is_effective() -> None:
    game = _row1()
    e = refused(game, "blue", {"type": "move", "units": ["b-1"], "path": SIX[:3], "assist": "b-ldr"})
    assert e.rule == "10.3"
    game.state.extra["assisted"] = {"b-ldr": 1}
    e = refused(game, "blue", {"type": "move", "units": ["b-1", "b-ldr"], "path": SIX, "assist": "b-ldr"})
    assert e.rule == "10.3" and "this turn" in e.message


def test_10_3_a_rolling_unit_adds_the_leaders_movement_to_its_die() -> None:
    from .play import load

    game = _row1(disrupted=True)
    load(game, [2])
    events = game.submit("blue", {"type": "declare", "units": ["b-1", "b-ldr"], "assist": "b-ldr"})
    assert game.state.extra["declared"]["ma"] == 4  # die 2 + 2
    assert any(e["type"] == "ma" and e["rule"] == "10.3" for e in events)


def test_10_3_a_stacked_leader_adds_his_morale_to_a_recovery_check_once_a_turn() -> None:
    from .play import new_game

    data = ground("0301")
    unit(data, "b-ldr", "0301", formation="1", span=["1"], **LEADER)
    flag(data, "b-1", disrupted=True)
    add_infantry(data, "r-x", "0502", formation="7", side="red")  # 4.7: next to the enemy, no automatic recovery
    game = new_game(data, [5])  # die 5: MR 4 fails alone, passes with the leader's 2
    assert game.state.units["b-1"].disrupted
    events = game.submit("blue", {"type": "recover", "unit": "b-1", "assist": "b-ldr"})
    check = next(e for e in events if e["type"] == "morale")
    assert check["passed"] and "+2 leader, 10.3" in check["text"] and not game.state.units["b-1"].disrupted
    assert game.state.extra["assisted"] == {"b-ldr": 1}


def test_19_1_a_leader_of_the_main_formation_coordinates_its_sub_formations() -> None:
    data = ground()
    add_infantry(data, "b-2", "0603", sub_formation="a")
    add_infantry(data, "b-3", "0705", sub_formation="b")
    unit(data, "b-ldr", "0603", formation="1", span=["1"], **LEADER)
    sc, _ = board(data)
    assert uncoordinated_halved(sc, ["b-2", "b-3"], "b-2") == ["b-3"]  # 19.1: separate for coordination
    assert in_span(sc, "b-ldr", "b-3")  # 19.1: for every other purpose the main formation
