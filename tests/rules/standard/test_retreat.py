"""Lines of retreat in the Standard rules (seed 002 7.6) to the HQ, trains and LOC hexes (12.1-12.3)."""

from __future__ import annotations

from typing import Any

from server.rules.standard.retreat import (
    NONE,
    SAFE,
    UNSAFE,
    destinations,
    functioning_loc,
    retreat_lines,
    retreat_paths,
)

from .builder import standard_data, unit
from .ground import board

INF = {"full": {"cf": 4, "mr": 4, "ma": 4}, "reduced": {"cf": 2, "mr": 3, "ma": 4}}


def strip() -> dict[str, Any]:
    """A 10x2 strip: blue's HQ, trains and LOC in the west, red's in the east; red's brigade at 0502 puts
    0401, 0402 and 0501 in its ZOC, so every way west from 0701 crosses its EZOC (R1: 0502's neighbours
    are 0401 0402 0601 0602 0501)."""
    data = standard_data()
    data["map"].update(columns=10, rows=2)
    data["sides"]["blue"].update(entry_hexes=["0101"], loc=["0102"])
    data["sides"]["red"].update(entry_hexes=["1001"], loc=["1002"])
    data["setup"] = [{"unit": "b-hq", "hex": "0201"}, {"unit": "b-tr", "hex": "0101"},
                     {"unit": "r-hq", "hex": "0901"}, {"unit": "r-tr", "hex": "1001"},
                     {"unit": "b-1", "hex": "0701"}, {"unit": "r-1", "hex": "0502"}]
    data["victory"]["objectives"] = [{"hex": "0301", "points": 1}]
    return data


def lines(data: dict[str, Any], side: str = "blue", cls: str = "infantry", **kw: Any) -> Any:
    sc, units = board(data)
    return retreat_lines(sc, units, side, side, cls, **kw)


def test_7_6_a_path_home_clear_of_the_enemy_is_a_safe_line() -> None:
    rl = lines(standard_data())
    assert rl.line("0404") == SAFE
    assert rl.destinations == frozenset({"0204", "0104"})  # HQ, trains and LOC (trains on the LOC hex)


def test_7_6_a_path_only_through_an_unnegated_ezoc_is_unsafe() -> None:
    rl = lines(strip())
    assert rl.line("0701") == UNSAFE and rl.line("0702") == UNSAFE
    assert rl.line("0301") == SAFE


def test_7_6_a_friendly_unit_or_friendly_zoc_negates_the_ezoc() -> None:
    data = strip()
    unit(data, "b-2", kind="infantry", formation="1", hex="0401", **INF)  # in 0401; its ZOC covers 0501 and 0402
    assert lines(data).line("0701") == SAFE


def test_7_6_the_retreating_units_own_zoc_negates_nothing() -> None:
    data = strip()
    next(s for s in data["setup"] if s["unit"] == "b-1")["hex"] = "0601"  # its ZOC covers 0501
    unit(data, "b-2", kind="infantry", formation="1", hex="0301", **INF)  # its ZOC covers 0401
    assert lines(data).line("0601") == SAFE
    assert lines(data, excluding=["b-1"]).line("0601") == UNSAFE


def test_7_6_no_line_through_enemy_units_and_a_map_edge_is_no_destination() -> None:
    data = strip()
    unit(data, "r-2", side="red", kind="infantry", formation="7", hex="0501", **INF)
    rl = lines(data)
    assert rl.line("0701") == NONE and rl.line("0801") == NONE  # 0801 touches no edge destination either (7.9)
    assert rl.line("0401") == SAFE


def test_7_6_no_line_through_prohibited_terrain_for_the_units_class() -> None:
    data = standard_data()
    for r in range(1, 9):
        data["map"]["hexes"][f"03{r:02d}"] = "marsh"  # infantry may cross marsh, artillery may not
    assert lines(data, cls="infantry").line("0404") == SAFE
    assert lines(data, cls="artillery").line("0404") == NONE


def test_12_3_a_loc_hex_functions_while_free_of_enemy_units_and_ezoc() -> None:
    data = standard_data()
    sc, units = board(data)
    assert functioning_loc(sc, units, "blue") == ("0104",)
    unit(data, "r-2", side="red", kind="infantry", formation="7", hex="0204", **INF)  # next to 0104
    sc, units = board(data)
    assert functioning_loc(sc, units, "blue") == ()


def test_12_1_12_2_an_inactive_hq_or_trains_is_no_destination() -> None:
    sc, units = board(standard_data())
    assert destinations(sc, units, "blue", "blue") == frozenset({"0204", "0104"})
    assert destinations(sc, units, "blue", "blue", inactive=["b-hq"]) == frozenset({"0104"})
    data = standard_data()
    data["sides"]["blue"]["loc"] = ["0108"]
    sc, units = board(data)
    assert destinations(sc, units, "blue", "blue", inactive=["b-hq", "b-tr"]) == frozenset({"0108"})


def test_7_6_lines_lead_to_the_units_own_army_hq() -> None:
    data = standard_data()
    data["formations"]["2"]["army"] = "elbe"
    unit(data, "b-hq-elbe", kind="hq", army="elbe", ma=6, hex="0208")
    unit(data, "b-tr-elbe", kind="trains", army="elbe", ma=4, hex="0108")
    sc, units = board(data)
    assert destinations(sc, units, "blue", "elbe") == frozenset({"0208", "0108", "0104"})
    assert destinations(sc, units, "blue", "blue") == frozenset({"0204", "0104"})


# --- 7.9 retreat paths ----------------------------------------------------------------------------------
def test_7_9_with_an_slr_the_retreat_follows_a_safe_path_of_one_to_three_hexes() -> None:
    data = standard_data()
    next(s for s in data["setup"] if s["unit"] == "b-1")["hex"] = "0604"  # in r-1's EZOC
    sc, units = board(data)
    paths = retreat_paths(sc, units, ["b-1"], "blue")
    assert paths and all(p.safe and not p.checks for p in paths)
    assert {len(p.path) for p in paths} == {1, 2, 3}
    assert all(sc.grid.distance("0604", p.path[-1]) == len(p.path) for p in paths)  # S10: away from the hex
    assert not any(h in ("0603", "0703", "0705", "0803", "0804") for p in paths for h in p.path)  # r-1 ZOC


def test_2_8_6_a_disrupted_unit_retreats_at_least_two_hexes() -> None:
    data = standard_data()
    next(s for s in data["setup"] if s["unit"] == "b-1")["hex"] = "0604"
    sc, units = board(data)
    assert {len(p.path) for p in retreat_paths(sc, units, ["b-1"], "blue", min_length=2)} == {2, 3}


def test_7_9_without_an_slr_the_unsafe_paths_count_their_ezoc_hexes() -> None:
    data = strip()  # b-1 at 0701 east of red's screen: unsafe line only
    sc, units = board(data)
    paths = retreat_paths(sc, units, ["b-1"], "blue")
    assert paths and not any(p.safe for p in paths)
    west = [p for p in paths if p.path[-1] in ("0401", "0402")]
    assert west and all(p.checks and p.must_continue for p in west)


def test_7_9_no_line_of_retreat_means_capture() -> None:
    data = strip()
    unit(data, "r-2", side="red", kind="infantry", formation="7", hex="0501", **INF)
    sc, units = board(data)
    assert retreat_paths(sc, units, ["b-1"], "blue") == []


def test_7_6_one_units_line_searched_forwards_agrees_with_the_map_of_lines() -> None:
    """12.1/12.2 ask 7.6 for one HQ or trains only: `has_safe_line` (forwards, stopping at the first
    destination) must give the answer of the whole-map search on many random positions of a big map."""
    import random
    import sys
    from pathlib import Path

    from server.rules.kernel.state import UnitState
    from server.rules.standard.retreat import has_safe_line
    from server.rules.standard.scenario import parse_standard_scenario

    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
    from bench_standard import big_scenario

    rng = random.Random(76)
    checked = {True: 0, False: 0}
    for seed in range(6):
        sc = parse_standard_scenario(big_scenario(seed), "bench")
        placed = {p.unit: p.hex for p in sc.setup}
        hexes = list(sc.grid.all_hexes())
        for _ in range(25):
            units = {u: UnitState(u, rng.choice(hexes) if rng.random() < 0.3 else h) for u, h in placed.items()}
            for side in ("blue", "red"):
                for uid, cls in ((sc.hq[side], "cavalry"), (sc.trains[side], "trains")):
                    goals = set(sc.sides[side].loc) | {rng.choice(hexes)}
                    whole = retreat_lines(sc, units, side, side, cls, to=goals, excluding=[uid])
                    got = has_safe_line(sc, units, uid, cls, goals)
                    assert got == (whole.line(units[uid].hex) == SAFE), (seed, uid)  # type: ignore[arg-type]
                    checked[got] += 1
    assert checked[True] > 20 and checked[False] > 20, checked  # both answers were exercised
