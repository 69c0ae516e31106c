"""The army's HQ and trains (seed 002 12.1-12.3), rout to the TRT (7.10) and re-entry (13.2)."""

from __future__ import annotations

from server.rules.standard.army import hq_problems, reentry_hexes, rout_box, trains_problems

from .builder import standard_data, unit
from .ground import board

INF = {"full": {"cf": 4, "mr": 4, "ma": 4}, "reduced": {"cf": 2, "mr": 3, "ma": 4}}


def test_12_1_an_hq_with_a_safe_line_home_stays_active() -> None:
    sc, units = board(standard_data())
    assert hq_problems(sc, units, "blue", moved=False, attacked=False, trains_active=True) == []
    assert trains_problems(sc, units, "blue", moved=False, attacked=False) == []


def test_12_1_moving_or_being_attacked_turns_the_hq_inactive() -> None:
    sc, units = board(standard_data())
    got = hq_problems(sc, units, "blue", moved=True, attacked=True, trains_active=True)
    assert got == ["12.1: Blue HQ moved", "12.1: Blue HQ was attacked"]
    assert trains_problems(sc, units, "blue", moved=True, attacked=False) == ["12.2: Blue trains moved"]


def test_12_1_an_hq_in_an_ezoc_is_inactive() -> None:
    data = standard_data()
    unit(data, "r-2", side="red", kind="infantry", formation="7", hex="0304", **INF)  # next to b-hq at 0204
    sc, units = board(data)
    got = hq_problems(sc, units, "blue", moved=False, attacked=False, trains_active=True)
    assert "12.1: Blue HQ is in an enemy zone of control" in got


def test_12_1_an_hq_cut_off_from_its_trains_and_loc_is_inactive() -> None:
    data = standard_data()
    data["map"]["hexsides"] = [{"hexes": ["0204", n], "features": ["river"]} for n in ("0104", "0105", "0203", "0205", "0304", "0305")]
    sc, units = board(data)
    got = hq_problems(sc, units, "blue", moved=False, attacked=False, trains_active=True)
    assert got == ["12.1: Blue HQ has no safe line of retreat to its active trains or a LOC hex"]


def test_12_3_without_a_functioning_loc_neither_hq_nor_trains_is_active() -> None:
    data = standard_data()
    unit(data, "r-2", side="red", kind="infantry", formation="7", hex="0105", **INF)  # next to the LOC 0104
    sc, units = board(data)
    assert "12.3: Blue has no functioning LOC hex" in trains_problems(sc, units, "blue", moved=False, attacked=False)


def test_12_2_the_trains_line_runs_only_where_the_trains_may_go() -> None:
    data = standard_data()
    data["sides"]["blue"]["loc"] = ["0108"]
    for r in range(1, 9):
        data["map"]["hexes"][f"02{r:02d}"] = "hill"  # no "trains" flag: closed to the trains
    data["setup"] = [s if s["unit"] != "b-tr" else {"unit": "b-tr", "hex": "0304"} for s in data["setup"]]
    sc, units = board(data)
    assert trains_problems(sc, units, "blue", moved=False, attacked=False) == [
        "12.2: Blue trains has no safe line of retreat to a LOC hex"]
    data["map"]["roads"] = [{"path": ["0304", "0204", "0105", "0106", "0107", "0108"]}]
    sc, units = board(data)
    assert trains_problems(sc, units, "blue", moved=False, attacked=False) == []


def test_7_10_a_routed_unit_goes_two_turns_ahead_or_is_set_aside() -> None:
    assert rout_box(3, 8) == 5 and rout_box(6, 8) == 8
    assert rout_box(7, 8) is None and rout_box(8, 8) is None


def test_13_2_reentry_on_or_next_to_the_hq_or_loc_and_next_to_the_trains() -> None:
    data = standard_data()
    unit(data, "b-2", kind="infantry", formation="1", hex=None, **INF)
    data["reinforcements"].append({"unit": "b-2", "turn": 2, "hex": "0101"})
    sc, units = board(data)
    got = set(reentry_hexes(sc, units, "b-2"))
    hq_area = {"0204"} | set(sc.grid.neighbors("0204"))
    loc_area = {"0104"} | set(sc.grid.neighbors("0104"))
    assert got == hq_area | loc_area
    assert set(reentry_hexes(sc, units, "b-2", inactive=["b-hq"])) == loc_area


def test_13_2_not_into_an_ezoc_an_enemy_hex_or_an_overstacked_hex() -> None:
    data = standard_data()
    unit(data, "b-2", kind="infantry", formation="1", hex=None, **INF)
    data["reinforcements"].append({"unit": "b-2", "turn": 2, "hex": "0101"})
    unit(data, "r-2", side="red", kind="infantry", formation="7", hex="0304", **INF)
    for i in range(3):
        unit(data, f"b-x{i}", kind="infantry", formation="1", hex="0203", **INF)
    sc, units = board(data)
    got = set(reentry_hexes(sc, units, "b-2"))
    assert "0304" not in got and not (got & set(sc.grid.neighbors("0304")))
    assert "0203" not in got


def test_13_2_no_reentry_without_a_functioning_loc() -> None:
    data = standard_data()
    unit(data, "b-2", kind="infantry", formation="1", hex=None, **INF)
    data["reinforcements"].append({"unit": "b-2", "turn": 2, "hex": "0101"})
    unit(data, "r-2", side="red", kind="infantry", formation="7", hex="0105", **INF)
    sc, units = board(data)
    assert reentry_hexes(sc, units, "b-2") == []


# --- 17.4 several armies, an army without trains (S63) ---------------------------------------------------------------
def elbe(data: dict) -> dict:  # type: ignore[type-arg]
    """Formation 2 is the Elbe army's: its own HQ at 0206, no trains; e-1 of formation 2 at 0306."""
    data["formations"]["2"]["army"] = "elbe"
    unit(data, "e-hq", kind="hq", army="elbe", ma=6, hex="0206")
    unit(data, "e-1", kind="infantry", formation="2", hex="0306", **INF)
    return data


def test_12_1_s63_an_army_without_trains_traces_its_hq_line_to_a_loc_hex() -> None:
    sc, units = board(elbe(standard_data()))
    assert "elbe" not in sc.trains and sc.hq["elbe"] == "e-hq"
    assert hq_problems(sc, units, "elbe", moved=False, attacked=False, trains_active=True) == []


def test_12_1_s63_a_game_with_an_army_without_trains_plays_its_turns() -> None:
    from .play import end, new_game

    game = new_game(elbe(standard_data()))
    end(game, 8)  # two whole turns: 12.1's checks at every phase's end, lines of retreat, re-entry
    assert game.state.turn == 3 and "e-hq" not in game.state.extra.get("inactive", [])


def test_12_1_17_4_an_inactive_hq_makes_only_its_own_army_roll_for_ma() -> None:
    from server.rules.standard.context import StdCtx

    from .play import new_game

    game = new_game(elbe(standard_data()))
    ctx = StdCtx.of(game)
    ctx.set_inactive("b-hq", True, "test", "12.1")
    assert ctx.hq_inactive("b-1") and not ctx.hq_inactive("e-1")


def test_13_2_17_4_a_unit_reenters_at_its_own_armys_hq_only() -> None:
    data = elbe(standard_data())
    data["sides"]["blue"]["loc"] = ["0101"]
    sc, units = board(data)
    near_elbe_hq = set(sc.grid.neighbors("0206")) | {"0206"}
    near_blue_hq = set(sc.grid.neighbors("0204")) | {"0204"}
    got_e = set(reentry_hexes(sc, units, "e-1"))
    got_b = set(reentry_hexes(sc, units, "b-1"))
    assert "0206" in got_e and "0204" not in got_e - near_elbe_hq
    assert "0204" in got_b and "0206" not in got_b - near_blue_hq - set(sc.grid.neighbors("0104"))


def test_17_4_units_of_different_armies_are_never_coordinated() -> None:
    from server.rules.standard.tactics import (
        by_formation,
        coordinator_problem,
        in_span,
        uncoordinated_halved,
    )

    data = elbe(standard_data())
    unit(data, "b-all", kind="infantry", formation="A", hex="0305", **INF)
    unit(data, "b-ldr", kind="leader", formation="1", span=["A"], hex="0305",
         leader={"combat": 1, "morale": 1, "movement": 2})
    sc, units = board(data)
    assert not by_formation(sc, ["b-1", "e-1"]) and not by_formation(sc, ["b-all", "e-1"])
    assert uncoordinated_halved(sc, ["e-1", "b-all"], "e-1") == ["b-all"]  # an 'A' unit is of its own army's formations
    assert uncoordinated_halved(sc, ["b-1", "b-all"], "b-1") == []
    assert in_span(sc, "b-ldr", "b-all") and not in_span(sc, "b-ldr", "e-1")
    why = coordinator_problem(sc, units, "b-ldr", ["b-all", "e-1"], light="day", assisted=[])
    assert why is not None and why.startswith("17.4")


def test_17_4_all_units_of_a_side_stack_together_and_use_any_loc_hex() -> None:
    from server.rules.standard.retreat import destinations

    data = elbe(standard_data())
    data["sides"]["blue"]["loc"] = ["0104", "0108"]
    data["setup"] = [dict(s, hex="0404") if s["unit"] == "e-1" else s for s in data["setup"]]  # with b-1
    sc, units = board(data)
    assert {"0104", "0108"} <= destinations(sc, units, "blue", "elbe") and "0204" not in destinations(sc, units, "blue", "elbe")


def test_17_4_batteries_of_different_armies_never_fire_together() -> None:
    """17.4 (S63) with 8.4: stacked or adjacent batteries of two armies are two fire groups, never one."""
    from server.rules.standard.bombard import coordinated_groups, group_problem
    from server.rules.standard.context import StdCtx

    from .play import new_game

    art = {"full": {"attack": 3, "defense": 1, "range": 3, "ma": 3},
           "ineffective": {"attack": 1, "defense": 0, "range": 1, "ma": 3}}
    data = elbe(standard_data())
    unit(data, "b-art", kind="artillery", formation="1", hex="0305", **art)
    unit(data, "e-art", kind="artillery", formation="2", hex="0305", **art)
    unit(data, "b-art2", kind="artillery", formation="1", hex="0304", **art)
    ctx = StdCtx.of(new_game(data))
    assert group_problem(ctx, "blue", ["b-art", "b-art2"], None) is None
    why = group_problem(ctx, "blue", ["b-art", "e-art"], None)
    assert why is not None and why.startswith("17.4")
    assert sorted(g for g, _ in coordinated_groups(ctx, ["b-art", "b-art2", "e-art"])) == [["b-art", "b-art2"], ["e-art"]]
