"""Movement (4.1-4.6) under the 2013 rules: march movement, roads, no free one-hex move, reinforcements sliding,
zones of control (6.2), disrupted units' rolled allowance (11.1(2), 11.1(3)) and leaders (10.0)."""

from __future__ import annotations

from .conftest import Position2013
from .play import move, refused

ROW = ["0204", "0304", "0404", "0504", "0604", "0704", "0804"]


def test_4_3_march_movement_doubles_the_allowance_two_hexes_from_every_enemy(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0204", ma=4)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    reach = game.options("blue", ["b1"])["reachable"]
    assert reach["0804"]["cost"] == 6 and reach["0804"]["march"]
    events = move(game, ["b1"], ROW)
    assert game.state.units["b1"].hex == "0804"
    assert events[0]["march"] and "4.3" in events[0]["text"]


def test_4_3_no_march_past_a_hex_next_to_the_enemy(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0204", ma=4)
    pos.unit("r1", "red", hex="0605", disrupted=True)  # no ZOC (11.1(1)), but an enemy unit all the same
    game = pos.game()
    e = refused(game, "blue", {"type": "move", "units": ["b1"], "path": ROW}, "4.2")
    assert "4.3" in e.message
    around = game.options("blue", ["b1"])["reachable"]["0804"]  # a march may go round, two hexes clear of it
    assert around["march"] and not {"0604", "0605", "0705", "0706", "0505", "0506", "0606"} & set(around["path"])
    move(game, ["b1"], ROW[:5])  # four MP: within the plain allowance


def test_4_4_a_unit_lacking_the_mp_may_not_enter_no_free_hex(pos: Position2013) -> None:
    pos.terrain("0304", "woods")
    pos.unit("b1", "blue", hex="0204", ma=1)
    pos.unit("r1", "red", hex="0404", disrupted=True)  # next to 0304: no march to double the allowance
    game = pos.game()
    refused(game, "blue", {"type": "move", "units": ["b1"], "path": ["0204", "0304"]}, "4.2")


def test_4_5_road_half_mp_and_the_left_over_half_lost_leaving_it(pos: Position2013) -> None:
    pos.road(["0204", "0304", "0404", "0504"])
    pos.unit("b1", "blue", hex="0204", ma=4)
    pos.unit("b2", "blue", hex="0204", ma=4)
    pos.unit("r1", "red", hex="1008")
    game = pos.game()
    assert move(game, ["b1"], ["0204", "0304", "0404", "0504"])[0]["cost"] == 1.5
    # one road hex (1/2 MP), then off the road into clear: the half is lost, 1 + 1 = 2 MP
    assert move(game, ["b2"], ["0204", "0304", "0305"])[0]["cost"] == 2


def test_4_6_an_enemy_held_entry_hex_slides_either_way_the_first_slide_costing_two(pos: Position2013) -> None:
    pos.unit("b2", "blue", turn=1, entry="0104", ma=4)
    pos.unit("r1", "red", hex="0104")
    game = pos.game()
    reach = game.options("blue", ["b2"])["reachable"]
    assert reach["0103"]["cost"] == 2 and reach["0105"]["cost"] == 2
    refused(game, "blue", {"type": "move", "units": ["b2"], "path": ["0104"]}, "4.6")
    move(game, ["b2"], ["0105"])
    assert game.state.units["b2"].hex == "0105"


def test_6_2_entering_an_ezoc_stops_and_leaving_one_is_one_hex_not_into_another(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0204", ma=4)
    pos.unit("b2", "blue", hex="0404", ma=4)
    pos.unit("r1", "red", hex="0504")
    game = pos.game()
    refused(game, "blue", {"type": "move", "units": ["b1"], "path": ["0204", "0304", "0403", "0503"]}, "6.2")
    refused(game, "blue", {"type": "move", "units": ["b2"], "path": ["0404", "0304", "0204"]}, "6.2")
    refused(game, "blue", {"type": "move", "units": ["b2"], "path": ["0404", "0403"]}, "6.2")


def test_11_1_2_a_disrupted_unit_rolls_its_allowance_first(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0204", ma=4, disrupted=True)
    pos.unit("c1", "blue", "cavalry", hex="0206", ma=8, ineffective=True)
    pos.unit("r1", "red", hex="1008")
    game = pos.game(dice=[2, 6])
    refused(game, "blue", {"type": "move", "units": ["b1"], "path": ["0204", "0304"]}, "11.1(2)")
    game.submit("blue", {"type": "roll_ma", "units": ["b1", "c1"]})
    assert game.state.extra["rolled_ma"] == {"b1": 2, "c1": 8}  # 6 + 3 = 9, never above the printed 8
    refused(game, "blue", {"type": "roll_ma", "units": ["b1"]}, "11.1(2)")
    # 11.1(2): the rolled MA may be doubled for march movement (4.3): 4 MP on a march
    move(game, ["b1"], ["0204", "0304", "0404", "0504", "0604"])
    refused(game, "blue", {"type": "roll_ma", "units": ["r1"]}, "11.1(2)")


def test_11_1_3_a_disrupted_unit_enters_an_ezoc_only_with_its_leader(pos: Position2013) -> None:
    pos.unit("b1", "blue", hex="0304", ma=4, disrupted=True)
    pos.unit("b2", "blue", hex="0306", ma=4, disrupted=True)
    pos.leader("bl", "blue", hex="0306")
    pos.unit("r1", "red", hex="0504")
    pos.unit("r2", "red", hex="0506")
    game = pos.game(dice=[4, 4])
    game.submit("blue", {"type": "roll_ma", "units": ["b1", "b2"]})
    refused(game, "blue", {"type": "move", "units": ["b1"], "path": ["0304", "0404"]}, "11.1(3)")
    move(game, ["b2", "bl"], ["0306", "0406"])
    assert game.state.units["b2"].hex == "0406"


def test_10_0_a_lone_leader_enters_an_ezoc_only_where_a_friendly_unit_is(pos: Position2013) -> None:
    pos.leader("bl", "blue", hex="0204")
    pos.unit("b1", "blue", hex="0404")
    pos.unit("r1", "red", hex="0504")
    game = pos.game()
    refused(game, "blue", {"type": "move", "units": ["bl"], "path": ["0204", "0304", "0403"]}, "10.0")
    move(game, ["bl"], ["0204", "0304", "0404"])
