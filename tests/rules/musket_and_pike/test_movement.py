"""Movement (6.3, TEC, R17.40-R17.43) and the Orders Restriction Chart's move limits (5.6 notes 1-3, R17.31-R17.33)."""

from __future__ import annotations

import pytest

from server.rules import IllegalCommand

from .builder import Board, ctx_of, events


def _move(path: list[str], unit: str = "b-hi", facing: str | None = None) -> dict:
    cmd = {"type": "move", "unit": unit, "path": path}
    if facing:
        cmd["facing"] = facing
    return cmd


def test_5_6_note2_make_ready_enters_no_hex_next_to_an_enemy() -> None:
    b = Board().order("b-foot", "make_ready")
    b.unit("b-hi", "blue", "hi", "0608", pikes=True).unit("r-hi", "red", "hi", "0604", facing="S", pikes=True)
    g = b.game()
    with pytest.raises(IllegalCommand) as e:
        g.submit("blue", _move(["0608", "0607", "0606", "0605"]))
    assert e.value.rule == "5.6"
    g.submit("blue", _move(["0608", "0607", "0606"]))
    assert g.state.units["b-hi"].hex == "0606"


def test_5_6_receive_charge_moves_one_hex() -> None:
    b = Board().order("b-foot", "receive_charge")
    b.unit("b-hi", "blue", "hi", "0610", pikes=True).unit("r-hi", "red", "hi", "0602", facing="S", pikes=True)
    g = b.game()
    with pytest.raises(IllegalCommand) as e:
        g.submit("blue", _move(["0610", "0609", "0608"]))
    assert "1 hex" in e.value.message
    g.submit("blue", _move(["0610", "0609"]))


def test_5_6_note3_rally_may_not_move_closer_to_an_enemy() -> None:
    b = Board().order("b-foot", "rally")
    b.unit("b-hi", "blue", "hi", "0608", pikes=True).unit("r-hi", "red", "hi", "0603", facing="S", pikes=True)
    g = b.game()
    with pytest.raises(IllegalCommand) as e:
        g.submit("blue", _move(["0608", "0607"]))
    assert "note 3" in e.value.message
    g.submit("blue", _move(["0608", "0609"]))


def test_r17_31_note1_charge_must_end_nearer_and_the_segment_waits_for_it() -> None:
    b = Board()  # b-foot under Charge
    b.unit("b-hi", "blue", "hi", "0608", pikes=True).unit("r-hi", "red", "hi", "0602", facing="S", pikes=True)
    g = b.game()
    with pytest.raises(IllegalCommand) as e:
        g.submit("blue", _move(["0608", "0609"]))
    assert e.value.rule == "5.6" and "note 1" in e.value.message
    with pytest.raises(IllegalCommand) as e:
        g.submit("blue", {"type": "end_segment"})
    assert "must still move" in e.value.message
    g.submit("blue", _move(["0608", "0607", "0606"]))
    g.submit("blue", {"type": "end_segment"})
    assert g.state.extra["segment"] == "action"


def test_r17_32_a_charge_wing_may_not_pass_through_friends() -> None:
    b = Board()
    b.unit("b-hi", "blue", "hi", "0608", pikes=True).unit("b-hi2", "blue", "hi", "0607", pikes=True)
    b.unit("r-hi", "red", "hi", "0602", facing="S", pikes=True)
    g = b.game()
    with pytest.raises(IllegalCommand) as e:
        g.submit("blue", _move(["0608", "0607", "0606"]))
    assert "Pass" in e.value.message


def test_r17_18_passing_a_friend_costs_one_more_mp() -> None:
    b = Board().order("b-foot", "make_ready")
    b.unit("b-hi", "blue", "hi", "0610", pikes=True, ma=3).unit("b-hi2", "blue", "hi", "0609", pikes=True)
    b.unit("r-hi", "red", "hi", "0602", facing="S", pikes=True)
    g = b.game()
    with pytest.raises(IllegalCommand):  # 1 + (1 + 1 pass) + 1 = 4 > 3
        g.submit("blue", _move(["0610", "0609", "0608", "0607"]))
    g.submit("blue", _move(["0610", "0609", "0608"]))


def test_r17_42_woods_give_a_formation_hit_and_halve_what_is_left() -> None:
    b = Board().order("b-foot", "make_ready").terrain("0607", "woods")
    b.unit("b-hi", "blue", "hi", "0608", pikes=True, ma=4).unit("r-hi", "red", "hi", "0601", facing="S", pikes=True)
    g = b.game()
    # woods cost 2*: Formation Shaken there, the MA becomes half of 4 = 2, already spent: no further hex
    with pytest.raises(IllegalCommand):
        g.submit("blue", _move(["0608", "0607", "0606"]))
    evs = g.submit("blue", _move(["0608", "0607"]))
    assert events(evs, "formation_hit")[0]["cond"] == "shaken"
    assert ctx_of(g).cond("b-hi").value == "shaken"


def test_r17_42_light_infantry_takes_no_terrain_formation_hit() -> None:
    b = Board().order("b-foot", "make_ready").terrain("0607", "woods")
    b.unit("b-li", "blue", "li", "0608").unit("r-hi", "red", "hi", "0601", facing="S", pikes=True)
    g = b.game()
    evs = g.submit("blue", _move(["0608", "0607", "0606"], unit="b-li"))
    assert not events(evs, "formation_hit")


def test_r17_41_marshy_stream_bars_regimental_artillery_without_a_road() -> None:
    b = Board().order("b-foot", "make_ready").hexside("0608", "0607", "marshy_stream")
    b.unit("b-hi", "blue", "hi", "0608", pikes=True, regimental_artillery=True)
    b.unit("r-hi", "red", "hi", "0601", facing="S", pikes=True)
    g = b.game()
    with pytest.raises(IllegalCommand) as e:
        g.submit("blue", _move(["0608", "0607"]))
    assert e.value.rule == "R17.41"


def test_r17_40_entering_a_hex_next_to_an_enemy_ends_the_move() -> None:
    b = Board()
    b.unit("b-cav", "blue", "cavalry", "0609", wing="b-foot").unit("r-hi", "red", "hi", "0604", facing="S",
                                                                      pikes=True)
    g = b.game()
    with pytest.raises(IllegalCommand) as e:
        g.submit("blue", _move(["0609", "0608", "0607", "0606", "0605", "0705"], unit="b-cav"))
    assert e.value.rule == "R17.40"


def test_r17_17_a_large_unit_stacks_with_nothing() -> None:
    b = Board().order("b-foot", "make_ready")
    b.unit("b-hi", "blue", "hi", "0608", pikes=True, large=True, sp=12)
    b.unit("b-art", "blue", "artillery", "0607").unit("r-hi", "red", "hi", "0601", facing="S", pikes=True)
    g = b.game()
    with pytest.raises(IllegalCommand) as e:
        g.submit("blue", _move(["0608", "0607"]))
    assert e.value.rule == "R17.17"


def test_r17_16_face_is_not_a_move_and_a_moved_unit_may_not_turn_again() -> None:
    b = Board().order("b-foot", "make_ready")
    b.unit("b-hi", "blue", "hi", "0608", pikes=True).unit("r-hi", "red", "hi", "0601", facing="S", pikes=True)
    g = b.game()
    g.submit("blue", {"type": "face", "unit": "b-hi", "facing": "NE"})
    assert g.state.units["b-hi"].facing == "NE"
    g.submit("blue", _move(["0608", "0607"], facing="N"))
    with pytest.raises(IllegalCommand):
        g.submit("blue", {"type": "face", "unit": "b-hi", "facing": "S"})


def test_r17_38_a_leader_moves_up_to_eight_hexes_to_his_wing() -> None:
    b = Board().order("b-foot", "make_ready")
    b.unit("b-hi", "blue", "hi", "0608", pikes=True).unit("r-hi", "red", "hi", "0601", facing="S", pikes=True)
    g = b.game()
    with pytest.raises(IllegalCommand):  # the other wing's WC
        g.submit("blue", {"type": "move", "unit": "b-wc2", "path": ["0312", "0412"]})
    g.submit("blue", {"type": "move", "unit": "b-wc", "path": ["0212", "0312", "0411", "0511", "0510", "0609", "0608"]})
    assert g.state.units["b-wc"].hex == "0608"
