"""Retreats and routs (7.6-7.8, R7): direction, safe and unsafe lines, capture, leaving the map, who becomes
ineffective, and captures on a step loss with no line of retreat."""

from __future__ import annotations

from position import (
    Position,
    attack,
    choose,
    combat_result,
    ctx_of,
    decision_kind,
    option_ids,
    retreat_paths,
    unit,
)

from server.rules.quickplay.retreat import retreat_options

# Blue attacks r1 at 0604 from 0504 with attack 9 against defence 6: +3, combat die 4 = Dr.
DR = 4
PASS, FAIL = 1, 6


def dr_fail(extra=None, *, r1_kind: str = "infantry", r1_kw: dict | None = None, dice: list[int] | None = None,
            defenders: str | None = None):
    pos = Position()
    pos.unit("b1", "blue", hex="0504", attack=9, mr=4)
    pos.unit("r1", "red", r1_kind, hex="0604", defense=6, mr=4, **(r1_kw or {}))
    if extra:
        extra(pos)
    game = pos.game(phase="combat", dice=dice or [DR, FAIL])
    events = attack(game, "0604", ["b1"])
    if decision_kind(game) == "defenders":
        events = choose(game, defenders or option_ids(game)[0])
    assert combat_result(events)["result"] == "Dr"
    return game


def options(game):
    return {o["id"]: o for o in game.state.decision["options"]}


# --- direction ------------------------------------------------------------------------------------------
def test_7_7_each_hex_entered_is_closer_to_a_friendly_entry_hex() -> None:
    game = dr_fail()
    sc = game.scenario
    for path in retreat_paths(game):
        prev = "0604"
        for h in path:
            assert sc.grid.distance(h, "1004") < sc.grid.distance(prev, "1004"), path
            prev = h


def test_7_7_any_entry_hex_of_the_side_counts_including_reinforcement_entries() -> None:
    # 0605 is no closer to 1004 than 0604 is (4), but it is closer to the reinforcement entry 0608 (3 < 4)
    game = dr_fail()
    assert "0605" not in {p[0] for p in retreat_paths(game)}
    game = dr_fail(lambda p: p.unit("rr", "red", hex=None, turn=5, entry="0608"))
    assert "0605" in {p[0] for p in retreat_paths(game)}


def test_7_7_if_no_path_gets_closer_the_unit_retreats_only_one_hex() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0904", attack=9)
    pos.unit("r1", "red", hex="1004", defense=6)  # on its own entry hex: nothing is closer
    game = pos.game(phase="combat", dice=[DR, FAIL])
    ctx = ctx_of(game)
    opts = retreat_options(ctx, "red", "1004", ["r1"], 1, 3)
    assert {len(o["path"]) for o in opts} == {1}
    assert {o["path"][0] for o in opts} == {"1003", "1005", "0905"}


def test_r7_a_unit_with_a_minimum_still_retreats_its_minimum_when_nothing_is_closer() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0904", attack=9)
    pos.unit("r1", "red", hex="1004", defense=6)
    game = pos.game(phase="combat")
    ctx = ctx_of(game)
    assert {len(o["path"]) for o in retreat_options(ctx, "red", "1004", ["r1"], 2, 3)} == {2}
    assert {len(o["path"]) for o in retreat_options(ctx, "red", "1004", ["r1"], 3, 3)} == {3}


def test_r7_a_retreat_path_never_re_enters_a_hex_or_its_start() -> None:
    game = dr_fail()
    for path in retreat_paths(game):
        assert len(set(path)) == len(path) and "0604" not in path


# --- safe lines ----------------------------------------------------------------------------------------------
def test_7_7_a_safe_line_must_be_taken_when_one_exists() -> None:
    game = dr_fail(lambda p: p.unit("b8", "blue", hex="0903", attack=1))  # ZOC on 0904, 0803
    opts = options(game)
    assert all(o["safe"] for o in opts.values())
    assert "0704>0804>0904" not in opts and "0704>0803" not in opts
    assert "0704>0804" in opts and "0704" in opts


def corridor(p):
    """The only closer way out of 0604 is through 0704, which b8 (at 0703) holds in its ZOC."""
    p.terrain("0705", "lake")
    p.unit("b8", "blue", hex="0703", attack=1)  # ZOC on 0704 and 0803


def test_7_7_without_negation_the_corridor_is_unsafe() -> None:
    game = dr_fail(corridor)
    assert not any(o["safe"] for o in game.state.decision["options"])


def test_7_7_an_ezoc_is_negated_by_a_friendly_unit_but_never_at_the_end() -> None:
    game = dr_fail(lambda p: (corridor(p), p.unit("r2", "red", hex="0704", defense=1)))
    opts = options(game)
    assert opts["0704>0804"]["safe"]
    assert "0704" not in opts  # ends in an EZOC, negated or not: unsafe, and safe lines exist
    assert all(o["safe"] for o in opts.values())
    choose(game, "0704>0804")
    assert unit(game, "r1").hex == "0804" and not unit(game, "r1").reduced


def test_7_7_an_ezoc_is_negated_by_friendly_zoc() -> None:
    game = dr_fail(lambda p: (corridor(p), p.unit("r3", "red", hex="0803", defense=1)))  # red ZOC on 0704
    opts = options(game)
    assert opts["0704>0804"]["safe"]
    assert "0704" not in opts


def test_r7_the_retreating_groups_own_zoc_does_not_negate() -> None:
    # r2 retreats with r1: its ZOC on 0704 (from 0604) does not protect the group
    game = dr_fail(lambda p: (corridor(p), p.unit("r2", "red", hex="0604", defense=0)), defenders="r1|r1|-")
    assert not any(o["safe"] for o in game.state.decision["options"])


# --- unsafe lines, loss and rout ---------------------------------------------------------------------------
def unsafe_position(p):
    p.unit("b8", "blue", hex="0703", attack=1)  # ZOC on 0704, 0803
    p.unit("b9", "blue", hex="0805", attack=1)  # ZOC on 0705, 0804, 0905


def test_7_7_unsafe_line_costs_a_step_then_a_rout_of_three_from_the_unsafe_hex() -> None:
    game = dr_fail(unsafe_position)
    assert not any(o["safe"] for o in game.state.decision["options"])
    choose(game, "0704>0804>0904")
    r1 = unit(game, "r1")
    assert r1.hex == "0704" and r1.reduced  # stopped in the first unsafe hex and lost a step
    assert decision_kind(game) == "retreat" and game.state.decision["rule"] == "7.8"
    assert {len(p) for p in retreat_paths(game)} == {3}


def test_7_8_routing_into_another_unsafe_hex_costs_another_step() -> None:
    game = dr_fail(unsafe_position)
    choose(game, "0704")
    choose(game, "0804>0904>1004")  # 0804 is in b9's ZOC
    assert unit(game, "r1").status == "eliminated"
    assert decision_kind(game) is None  # and no advance (7.9): a defender was eliminated
    assert unit(game, "b1").hex == "0504"


def test_7_8_a_rout_ends_disrupted_and_one_step_units_ineffective() -> None:
    def extra(p):
        p.unit("b8", "blue", hex="0703", attack=1)  # ZOC on 0704, 0803
        p.unit("rbn", "red", "battalion", hex="0604", defense=0)
    game = dr_fail(extra, defenders="r1|r1+rbn|-")
    # 0705 > 0805 > 0905 ... is safe? b8 covers 0704/0803 only; take an unsafe line deliberately is not allowed
    assert all(o["safe"] for o in game.state.decision["options"])
    choose(game, "0705>0805>0905")
    assert unit(game, "r1").disrupted and unit(game, "rbn").ineffective
    assert unit(game, "r1").hex == unit(game, "rbn").hex == "0905"


def test_7_7_a_group_on_an_unsafe_line_loses_one_step_chosen_by_its_owner() -> None:
    def extra(p):
        unsafe_position(p)
        p.unit("r2", "red", hex="0604", defense=0)
    game = dr_fail(extra, defenders="r1|r1|-")
    choose(game, "0704>0804>0904")
    assert decision_kind(game) == "loss" and game.awaiting == "red"
    assert set(option_ids(game)) == {"r1", "r2"}
    choose(game, "r2")
    assert unit(game, "r2").reduced and not unit(game, "r1").reduced
    assert unit(game, "r1").hex == unit(game, "r2").hex == "0704"


# --- no line of retreat, off the map ------------------------------------------------------------------------------
def test_7_7_no_line_of_retreat_means_capture() -> None:
    game = dr_fail(lambda p: p.terrain(["0705", "0704", "0603", "0505", "0605"], "lake"))
    r1 = unit(game, "r1")
    assert r1.status == "captured" and r1.hex is None
    assert decision_kind(game) is None  # a defender was eliminated/captured: no advance
    assert game.view("blue")["points"]["blue"] == 2  # unit_captured default


def test_7_7_enemy_occupied_hexes_block_the_line_of_retreat() -> None:
    def extra(p):
        p.terrain(["0705", "0704", "0603"], "lake")
        p.unit("b2", "blue", hex="0505", attack=1)
        p.unit("b3", "blue", hex="0605", attack=1)
    game = dr_fail(extra)
    assert unit(game, "r1").status == "captured"


def test_7_7_off_the_map_only_when_no_other_retreat_exists() -> None:
    pos = Position()
    pos.terrain(["1003", "0905", "1005"], "lake")
    pos.unit("b1", "blue", hex="0904", attack=9)
    pos.unit("r1", "red", hex="1004", defense=6)
    game = pos.game(phase="combat", dice=[DR, FAIL])
    attack(game, "1004", ["b1"])
    r1 = unit(game, "r1")
    assert r1.status == "removed" and r1.hex is None
    pts = game.view("blue")["points"]
    assert pts == {"blue": 0, "red": 0}  # neither captured nor eliminated


def test_7_6_a_step_loss_with_no_line_of_retreat_captures() -> None:
    # Dx, morale passes: the reduced primary loses its last step; it has no line of retreat
    pos = Position()
    pos.terrain(["0705", "0704", "0603", "0505", "0605"], "lake")
    pos.unit("b1", "blue", hex="0504", attack=16)
    pos.unit("r1", "red", hex="0604", defense=6, reduced=True,
             reduced_factors={"attack": 2, "defense": 6, "mr": 4, "ma": 4})
    game = pos.game(phase="combat", dice=[1, PASS])
    assert combat_result(attack(game, "0604", ["b1"]))["result"] == "Dx"
    assert unit(game, "r1").status == "captured"


def test_7_6_a_step_loss_with_only_an_unsafe_line_eliminates() -> None:
    pos = Position()
    pos.terrain(["0705", "0704", "0603", "0505"], "lake")
    pos.unit("b1", "blue", hex="0504", attack=16)
    pos.unit("b2", "blue", hex="0606", attack=1)  # ZOC on 0605: the only way out is unsafe
    pos.unit("r1", "red", hex="0604", defense=6, reduced=True,
             reduced_factors={"attack": 2, "defense": 6, "mr": 4, "ma": 4})
    game = pos.game(phase="combat", dice=[1, PASS])
    attack(game, "0604", ["b1"])
    assert unit(game, "r1").status == "eliminated"


def test_7_6_an_exchange_captures_a_primary_with_no_line_of_retreat() -> None:
    pos = Position()
    pos.terrain(["0705", "0704", "0603", "0505", "0605"], "lake")
    pos.unit("b1", "blue", hex="0504", attack=9)
    pos.unit("rbn", "red", "battalion", hex="0604", defense=6)
    game = pos.game(phase="combat", dice=[DR, PASS])
    attack(game, "0604", ["b1"])
    assert unit(game, "rbn").status == "captured" and unit(game, "b1").reduced


# --- who becomes ineffective, cavalry ----------------------------------------------------------------------------------
def test_7_7_battalions_artillery_and_leaders_become_ineffective_after_any_retreat() -> None:
    def extra(p):
        p.unit("ra", "red", "artillery", hex="0604", defense=0)
        p.leader("rl", "red", hex="0604", combat=0)
    game = dr_fail(extra, dice=[DR, FAIL], defenders="r1|r1+ra|-")
    choose(game, "0704")
    assert unit(game, "ra").ineffective and unit(game, "rl").ineffective
    assert unit(game, "rl").hex == "0704"  # the leader retreats with its stack
    assert unit(game, "r1").disrupted and not unit(game, "r1").ineffective


def test_9_1_4_cavalry_retreats_exactly_three_and_goes_ineffective() -> None:
    game = dr_fail(r1_kind="cavalry")
    assert {len(p) for p in retreat_paths(game)} == {3}
    choose(game, "0704>0804>0904")
    assert unit(game, "r1").ineffective and unit(game, "r1").hex == "0904"
    assert decision_kind(game) == "advance"
    choose(game, "0604")
    assert decision_kind(game) is None  # a cavalry retreat is not a rout: one hex of advance


def test_r7_a_mixed_group_splits_so_the_cavalry_retreats_three_apart() -> None:
    game = dr_fail(lambda p: p.unit("rc", "red", "cavalry", hex="0604", defense=0), defenders="r1|r1|-")
    assert game.state.decision["task"]["units"] == ["r1"]
    assert {len(p) for p in retreat_paths(game)} == {1, 2, 3}
    choose(game, "0704")
    assert game.state.decision["task"]["units"] == ["rc"]
    assert {len(p) for p in retreat_paths(game)} == {3}
    choose(game, "0705>0805>0905")
    assert unit(game, "r1").hex == "0704" and unit(game, "rc").hex == "0905"
    assert unit(game, "rc").ineffective and unit(game, "r1").disrupted


def test_11_1_4_disrupted_units_in_a_mixed_group_make_the_group_retreat_at_least_two() -> None:
    game = dr_fail(lambda p: p.unit("r2", "red", hex="0604", defense=0, disrupted=True), defenders="r1|r1|-")
    assert {len(p) for p in retreat_paths(game)} == {2, 3}


def test_r9_a_leader_left_alone_by_a_retreat_beside_the_enemy_flees() -> None:
    # the stack retreats; a leader that did not go with it cannot exist (leaders go with the group),
    # so check a leader left alone when every combat unit of its hex was eliminated
    pos = Position()
    pos.unit("b1", "blue", hex="0504", attack=16)
    pos.unit("r1", "red", hex="0604", defense=6, reduced=True)
    pos.leader("rl", "red", hex="0604", combat=0)
    pos.unit("r9", "red", hex="0904")
    game = pos.game(phase="combat", dice=[1, PASS])
    attack(game, "0604", ["b1"])
    if decision_kind(game) == "defenders":
        choose(game, "r1|r1|-")
    assert unit(game, "r1").status == "eliminated"
    assert unit(game, "rl").hex == "0904" and unit(game, "rl").ineffective
