"""Movement (4.1-4.5, R3), including leaders moving alone (10.0) and reinforcements entering (4.5, R9)."""

from __future__ import annotations

import pytest
from position import Position

from server.rules import IllegalCommand


def move(game, units, path, side="blue"):
    return game.submit(side, {"type": "move", "units": list(units), "path": list(path)})


def reach(game, units, side="blue") -> dict[str, float]:
    return {h: r["cost"] for h, r in game.options(side, list(units))["reachable"].items()}


def hex_of(game, uid):
    return game.state.units[uid].hex


def refused(game, units, path, rule: str | None = None, side="blue") -> IllegalCommand:
    before = game.to_json()
    with pytest.raises(IllegalCommand) as exc:
        move(game, units, path, side)
    assert game.to_json() == before
    if rule is not None:
        assert exc.value.rule == rule, exc.value
    return exc.value


# --- 4.1 / 4.2 / 4.3: costs ------------------------------------------------------------------
def test_4_3_clear_hex_costs_one_mp_and_the_ma_is_a_limit(pos: Position) -> None:
    pos.unit("b1", "blue", hex="0204", ma=4)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    refused(game, ["b1"], ["0204", "0304", "0404", "0504", "0604", "0704"], "4.2")
    events = move(game, ["b1"], ["0204", "0304", "0404", "0504", "0604"])
    assert hex_of(game, "b1") == "0604"
    assert events[0]["cost"] == 4


@pytest.mark.parametrize("terrain,kind,cost", [
    ("clear", "infantry", 1), ("clear", "cavalry", 1), ("clear", "artillery", 1),
    ("woods", "infantry", 2), ("woods", "cavalry", 3), ("woods", "artillery", 3),
    ("town", "infantry", 1), ("town", "cavalry", 2), ("town", "artillery", 2),
    ("hill", "infantry", 2), ("hill", "cavalry", 2), ("hill", "artillery", 2),
    ("marsh", "infantry", 3), ("battalion-woods", "battalion", 2),
])
def test_4_3_terrain_cost_per_unit_class(pos: Position, terrain: str, kind: str, cost: int) -> None:
    terrain = terrain.split("-")[-1]
    pos.terrain("0404", terrain)
    pos.unit("b1", "blue", kind, hex="0304", ma=6)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    # 0304 -> 0404 is a single step; 0404 -> 0504 (clear) adds 1
    assert reach(game, ["b1"])["0404"] == cost
    events = move(game, ["b1"], ["0304", "0404", "0504"])
    assert events[0]["cost"] == cost + 1


@pytest.mark.parametrize("feature,kind,extra", [
    ("stream", "infantry", 1), ("stream", "cavalry", 1), ("stream", "artillery", 2),
    ("slope", "infantry", 1), ("slope", "artillery", 1), ("wall", "infantry", 0),
])
def test_4_3_hexside_additions_are_added_to_the_hex_cost(pos: Position, feature: str, kind: str, extra: int) -> None:
    pos.terrain("0404", "woods")
    pos.hexside("0304", "0404", feature)
    pos.unit("b1", "blue", kind, hex="0304", ma=8)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    woods = {"infantry": 2, "cavalry": 3, "artillery": 3}[kind]
    events = move(game, ["b1"], ["0304", "0404"])
    assert events[0]["cost"] == woods + extra


def test_4_3_hexside_addition_applies_only_across_that_hexside(pos: Position) -> None:
    pos.hexside("0304", "0404", "stream")
    pos.unit("b1", "blue", hex="0304", ma=8)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    # straight across costs 2; round by 0305 (0305 -> 0404 is not across the stream) also 2
    costs = reach(game, ["b1"])
    assert costs["0404"] == 2
    events = move(game, ["b1"], ["0304", "0305", "0404"])
    assert events[0]["cost"] == 2


@pytest.mark.parametrize("kind,terrain", [("cavalry", "marsh"), ("artillery", "marsh"), ("infantry", "lake"),
                                          ("cavalry", "lake")])
def test_4_3_prohibited_terrain_may_not_be_entered(pos: Position, kind: str, terrain: str) -> None:
    pos.terrain("0404", terrain)
    pos.unit("b1", "blue", kind, hex="0304", ma=8)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    assert "0404" not in reach(game, ["b1"])
    refused(game, ["b1"], ["0304", "0404"], "4.3")


def test_4_3_prohibited_hexside_may_not_be_crossed(pos: Position) -> None:
    pos.hexside("0304", "0404", "cliff")
    pos.unit("b1", "blue", hex="0304", ma=4)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    refused(game, ["b1"], ["0304", "0404"], "4.3")
    move(game, ["b1"], ["0304", "0305", "0404"])  # round the cliff
    assert hex_of(game, "b1") == "0404"


def test_4_3_quickplay_a_unit_may_always_move_one_hex(pos: Position) -> None:
    pos.terrain("0404", "marsh")
    pos.terrain("0303", "woods")
    pos.unit("b1", "blue", hex="0304", ma=1)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    assert reach(game, ["b1"])["0404"] == 3  # offered although it costs 3 of an MA of 1
    refused(game, ["b1"], ["0304", "0303", "0302"], "4.2")  # but not two hexes
    events = move(game, ["b1"], ["0304", "0404"])
    assert hex_of(game, "b1") == "0404" and events[0]["cost"] == 3


def test_4_3_the_one_hex_minimum_never_allows_prohibited_terrain(pos: Position) -> None:
    pos.terrain("0404", "marsh")
    pos.unit("a1", "blue", "artillery", hex="0304", ma=1)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    refused(game, ["a1"], ["0304", "0404"], "4.3")


def test_4_1_a_path_may_not_skip_hexes_or_enter_enemy_units(pos: Position) -> None:
    pos.unit("b1", "blue", hex="0304", ma=6)
    pos.unit("r1", "red", hex="0504", ineffective=True)  # exerts no ZOC (11.2(3)), still blocks the hex
    game = pos.game()
    refused(game, ["b1"], ["0304", "0504"], "4.1")
    refused(game, ["b1"], ["0304", "0404", "0504"], "4.1")
    refused(game, ["b1"], ["0404", "0405"], "4.1")  # must start where the unit is


def test_4_1_friendly_units_may_be_passed_through(pos: Position) -> None:
    for i in range(3):
        pos.unit(f"s{i}", "blue", hex="0404")
    pos.unit("bn", "blue", "battalion", hex="0404")
    pos.unit("b1", "blue", hex="0304", ma=4)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    move(game, ["b1"], ["0304", "0404", "0504"])
    assert hex_of(game, "b1") == "0504"


def test_4_1_each_unit_moves_once_per_phase(pos: Position) -> None:
    pos.unit("b1", "blue", hex="0304", ma=6)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    move(game, ["b1"], ["0304", "0404"])
    refused(game, ["b1"], ["0404", "0504"], "4.1")
    assert game.state.units["b1"].moved


def test_4_1_a_stack_must_start_together(pos: Position) -> None:
    pos.unit("b1", "blue", hex="0304")
    pos.unit("b2", "blue", hex="0305")
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    refused(game, ["b1", "b2"], ["0304", "0404"], "4.1")


def test_4_1_only_the_active_side_moves_in_its_movement_phase(pos: Position) -> None:
    pos.unit("b1", "blue", hex="0304")
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    with pytest.raises(IllegalCommand):
        move(game, ["r1"], ["1008", "0908"], side="red")
    with pytest.raises(IllegalCommand):
        move(game, ["r1"], ["1008", "0908"], side="blue")  # not yours


# --- 4.2 stacks ------------------------------------------------------------------------------
def test_4_2_a_stack_pays_the_highest_cost_and_uses_the_lowest_ma(pos: Position) -> None:
    pos.terrain("0404", "woods")
    pos.unit("b1", "blue", hex="0304", ma=4)
    pos.unit("c1", "blue", "cavalry", hex="0304", ma=7)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    opts = game.options("blue", ["b1", "c1"])
    assert opts["ma"] == 4
    assert opts["reachable"]["0404"]["cost"] == 3  # cavalry's woods cost
    refused(game, ["b1", "c1"], ["0304", "0404", "0504", "0604"], "4.2")  # 3 + 1 + 1 = 5 > 4
    move(game, ["b1", "c1"], ["0304", "0404", "0504"])
    assert hex_of(game, "b1") == hex_of(game, "c1") == "0504"
    assert game.state.units["b1"].moved and game.state.units["c1"].moved


def test_4_2_a_stack_cannot_enter_terrain_prohibited_to_any_member(pos: Position) -> None:
    pos.terrain("0404", "marsh")
    pos.unit("b1", "blue", hex="0304", ma=4)
    pos.unit("a1", "blue", "artillery", hex="0304", ma=4)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    refused(game, ["b1", "a1"], ["0304", "0404"], "4.3")
    move(game, ["b1"], ["0304", "0404"])  # the infantry alone may


# --- 10.0(1) leader movement bonus -------------------------------------------------------------
@pytest.mark.parametrize("leader_formation,ineffective,expected_ma", [
    ("1", False, 6), ("A", False, 6), ("2", False, 4), ("1", True, 4),
])
def test_10_0_1_leader_adds_its_movement_to_units_of_its_formation(
    pos: Position, leader_formation: str, ineffective: bool, expected_ma: int,
) -> None:
    pos.unit("b1", "blue", hex="0204", ma=4, formation="1")
    pos.leader("bl", "blue", hex="0204", movement=2, formation=leader_formation, ineffective=ineffective)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    assert game.options("blue", ["b1", "bl"])["ma"] == expected_ma
    assert game.options("blue", ["b1"])["ma"] == 4  # only when the leader moves with it
    path = ["0204", "0304", "0404", "0504", "0604", "0704", "0804"][: expected_ma + 1]
    move(game, ["b1", "bl"], path)
    assert hex_of(game, "bl") == path[-1]


def test_10_0_1_leader_bonus_needs_every_unit_of_the_stack_in_its_formation(pos: Position) -> None:
    pos.unit("b1", "blue", hex="0204", ma=4, formation="1")
    pos.unit("b2", "blue", hex="0204", ma=4, formation="2")
    pos.leader("bl", "blue", hex="0204", movement=2, formation="1")
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    assert game.options("blue", ["b1", "b2", "bl"])["ma"] == 4
    assert game.options("blue", ["b1", "bl"])["ma"] == 6


# --- 4.4 roads ----------------------------------------------------------------------------------
ROAD = ["0104", "0204", "0304", "0404", "0504", "0604", "0704", "0804", "0904"]


def test_4_4_a_move_entirely_along_the_road_pays_half_an_mp_per_hex(pos: Position) -> None:
    pos.road(ROAD)
    pos.terrain(["0304", "0404"], "woods")  # the road ignores the terrain it runs through
    pos.unit("b1", "blue", hex="0104", ma=3)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    assert reach(game, ["b1"])["0704"] == 3.0
    refused(game, ["b1"], ROAD[:8], "4.2")  # 7 road hexes = 3.5 MP
    events = move(game, ["b1"], ROAD[:7])
    assert events[0]["cost"] == 3.0 and hex_of(game, "b1") == "0704"


def test_4_4_a_mixed_move_pays_one_mp_per_road_hex(pos: Position) -> None:
    pos.road(ROAD)
    pos.unit("b1", "blue", hex="0104", ma=4)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    # three road steps (1 MP each, not 1/2) then one step off the road: 4 MP
    refused(game, ["b1"], ["0104", "0204", "0304", "0404", "0504", "0505"], "4.2")
    events = move(game, ["b1"], ["0104", "0204", "0304", "0404", "0405"])
    assert events[0]["cost"] == 4.0


def test_4_4_a_road_step_in_a_mixed_move_costs_one_mp_even_into_woods(pos: Position) -> None:
    pos.road(["0304", "0404"])
    pos.terrain("0404", "woods")
    pos.unit("b1", "blue", hex="0204", ma=2)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    events = move(game, ["b1"], ["0204", "0304", "0404"])  # 1 (clear) + 1 (road step)
    assert events[0]["cost"] == 2.0


def test_4_4_hexes_on_two_roads_without_a_common_road_hexside_are_not_a_road_move(pos: Position) -> None:
    # 0304 and 0404 are both road hexes but the roads do not link them: no half-MP road move
    pos.road(["0204", "0304"])
    pos.road(["0404", "0504"])
    pos.unit("b1", "blue", hex="0204", ma=2)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    events = move(game, ["b1"], ["0204", "0304", "0404"])
    assert events[0]["cost"] == 2.0  # 1 + 1, not 1/2 + 1/2


# --- 4.5 reinforcements (R3, R9) ----------------------------------------------------------------------
def reinforcement_position(ma: int = 4) -> Position:
    pos = Position()
    pos.entry("blue", "0104", "0107")
    pos.unit("rf", "blue", hex=None, turn=1, entry="0104", ma=ma)
    return pos


def test_4_5_the_entry_hex_is_the_first_hex_of_movement_and_is_paid_for() -> None:
    pos = reinforcement_position()
    pos.terrain("0104", "woods")
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    assert reach(game, ["rf"])["0104"] == 2
    events = move(game, ["rf"], ["0104", "0204", "0304"])  # 2 + 1 + 1
    assert events[0]["cost"] == 4
    s = game.state.units["rf"]
    assert (s.status, s.hex, s.moved) == ("map", "0304", True)


def test_4_5_a_reinforcement_may_not_enter_before_its_turn() -> None:
    pos = Position()
    pos.unit("rf", "blue", hex=None, turn=2, entry="0104")
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    refused(game, ["rf"], ["0104"], "4.5")
    game2 = pos.game(turn=2)
    move(game2, ["rf"], ["0104"])
    assert game2.state.units["rf"].hex == "0104"


def test_4_5_a_reinforcement_must_use_its_own_entry_hex_when_it_is_open() -> None:
    pos = reinforcement_position()
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    refused(game, ["rf"], ["0105"], "4.5")


def test_4_5_blocked_by_the_enemy_the_unit_slides_toward_the_next_entry_hex_for_2_mp() -> None:
    pos = reinforcement_position()
    pos.unit("r1", "red", hex="0104", ineffective=True)  # ineffective: occupies without a ZOC
    game = pos.game()
    costs = reach(game, ["rf"])
    assert "0104" not in costs and "0103" not in costs  # toward 0107 only (4.5)
    assert costs["0105"] == 2
    refused(game, ["rf"], ["0105", "0205", "0305", "0405"], "4.2")  # 2 + 3 > 4
    events = move(game, ["rf"], ["0105", "0205", "0305"])
    assert events[0]["cost"] == 4


def test_4_5_each_further_slide_hex_costs_one_more_mp() -> None:
    pos = reinforcement_position()
    pos.unit("r1", "red", hex="0104", ineffective=True)
    pos.unit("r2", "red", hex="0105", ineffective=True)
    game = pos.game()
    costs = reach(game, ["rf"])
    assert costs["0106"] == 3
    refused(game, ["rf"], ["0106", "0206", "0306"], "4.2")
    move(game, ["rf"], ["0106", "0206"])
    assert game.state.units["rf"].hex == "0206"


def test_4_5_an_entry_hex_that_would_be_over_stacked_is_blocked() -> None:
    pos = reinforcement_position()
    for i in range(3):
        pos.unit(f"s{i}", "blue", hex="0104")
    pos.unit("bn", "blue", "battalion", hex="0104")
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    costs = reach(game, ["rf"])
    assert costs["0105"] == 2  # slid one hex
    refused(game, ["rf"], ["0104"], "4.5")  # the over-stacked entry hex is not an entry option
    move(game, ["rf"], ["0105", "0104"])  # but the unit may move into it afterwards (5.0: checked at the end)
    assert game.state.units["rf"].hex == "0104"


def test_4_5_the_unit_waits_when_the_slide_exceeds_its_ma() -> None:
    pos = reinforcement_position(ma=2)
    pos.unit("r1", "red", hex="0104", ineffective=True)
    pos.unit("r2", "red", hex="0105", ineffective=True)
    game = pos.game()
    assert reach(game, ["rf"]) == {}
    refused(game, ["rf"], ["0106"], "4.5")
    assert game.state.units["rf"].status == "offboard"


def test_4_5_with_entry_hexes_both_ways_the_player_chooses_the_direction() -> None:
    pos = Position()
    pos.entry("blue", "0102", "0104", "0107")
    pos.unit("rf", "blue", hex=None, turn=1, entry="0104")
    pos.unit("r1", "red", hex="0104", ineffective=True)
    game = pos.game()
    costs = reach(game, ["rf"])
    assert costs["0103"] == 2 and costs["0105"] == 2


def test_r9_entering_into_an_ezoc_ends_the_move() -> None:
    pos = reinforcement_position()
    pos.unit("r1", "red", hex="0204")  # adjacent to 0104
    game = pos.game()
    refused(game, ["rf"], ["0104", "0105"], "6.2")
    move(game, ["rf"], ["0104"])
    assert game.state.units["rf"].hex == "0104"


def test_r9_the_edge_slide_ignores_zones_of_control() -> None:
    pos = reinforcement_position()
    pos.unit("r1", "red", hex="0104", ineffective=True)
    pos.unit("r2", "red", hex="0205")  # its ZOC covers 0105 and 0106 but not 0104
    game = pos.game()
    # the unit slides past 0104 off the map; 0105 is in r2's ZOC, so it may enter but must stop there
    assert reach(game, ["rf"]) == {"0105": 2.0}
    refused(game, ["rf"], ["0105", "0106"], "6.2")
    move(game, ["rf"], ["0105"])
    assert game.state.units["rf"].hex == "0105"


# --- 10.0: leaders moving alone -------------------------------------------------------------------------
SNAKE = ["0101", "0102", "0103", "0104", "0105", "0106", "0107", "0108", "0208", "0308", "0408", "0508", "0608", "0708"]


def test_10_0_a_leader_alone_moves_up_to_12_hexes_ignoring_terrain_costs(pos: Position) -> None:
    pos.terrain(["0103", "0104", "0105"], "woods")
    pos.terrain("0106", "marsh")
    pos.leader("bl", "blue", hex="0101")
    pos.unit("r1", "red", hex="1001")
    game = pos.game()
    refused(game, ["bl"], SNAKE[:14], "10.0")  # 13 hexes
    move(game, ["bl"], SNAKE[:13])
    assert hex_of(game, "bl") == "0608"


def test_10_0_a_leader_alone_may_not_enter_prohibited_terrain(pos: Position) -> None:
    pos.terrain("0102", "lake")
    pos.leader("bl", "blue", hex="0101")
    pos.unit("r1", "red", hex="1001")
    game = pos.game()
    refused(game, ["bl"], ["0101", "0102"], "4.3")


def test_10_0_a_leader_alone_may_not_enter_an_ezoc_without_a_friendly_unit_there(pos: Position) -> None:
    pos.leader("bl", "blue", hex="0304")
    pos.unit("r1", "red", hex="0604")
    pos.unit("b1", "blue", hex="0505")
    game = pos.game()
    refused(game, ["bl"], ["0304", "0404", "0504"], "10.0")
    move(game, ["bl"], ["0304", "0404", "0505"])  # b1 is there
    assert hex_of(game, "bl") == "0505"


def test_10_0_a_leader_leaves_an_ezoc_freely_and_is_not_limited_to_one_hex(pos: Position) -> None:
    pos.leader("bl", "blue", hex="0504")
    pos.unit("b1", "blue", hex="0504")
    pos.unit("r1", "red", hex="0604")
    game = pos.game()
    move(game, ["bl"], ["0504", "0404", "0304", "0204"])
    assert hex_of(game, "bl") == "0204"
    # b1, starting in the EZOC, may still move only one hex (6.2)
    refused(game, ["b1"], ["0504", "0404", "0304"], "6.2")


def test_10_0_a_leader_passes_through_an_ezoc_hex_held_by_a_friendly_unit(pos: Position) -> None:
    pos.leader("bl", "blue", hex="0304")
    pos.unit("b1", "blue", hex="0404")
    pos.unit("r1", "red", hex="0504")
    game = pos.game()
    move(game, ["bl"], ["0304", "0404", "0405", "0406"])
    assert hex_of(game, "bl") == "0406"


def test_4_4_reinforcement_arriving_by_a_road_entry_hex_moves_at_the_road_rate() -> None:
    """V26: entering at a road entry hex and going on along the road is a move made entirely on the road."""
    pos = Position()
    pos.road(["0104", "0204", "0304", "0404", "0504", "0604", "0704"])
    pos.unit("b1", "blue", turn=1, entry="0104", ma=3)
    pos.unit("r1", "red", hex="1008")
    game = pos.game(phase="movement", active="blue")
    reach = game.options("blue", ["b1"])["reachable"]
    assert reach["0604"]["cost"] == 3.0  # six road hexes at half an MP each
    game.submit("blue", {"type": "move", "units": ["b1"], "path": ["0104", "0204", "0304", "0404", "0504", "0604"]})
    assert game.state.units["b1"].hex == "0604"


def test_4_4_reinforcement_leaving_the_road_pays_full_rates() -> None:
    pos = Position()
    pos.road(["0104", "0204", "0304", "0404"])
    pos.unit("b1", "blue", turn=1, entry="0104", ma=3)
    pos.unit("r1", "red", hex="1008")
    game = pos.game(phase="movement", active="blue")
    with pytest.raises(IllegalCommand, match="4.2"):
        game.submit("blue", {"type": "move", "units": ["b1"], "path": ["0104", "0204", "0304", "0404", "0405"]})
