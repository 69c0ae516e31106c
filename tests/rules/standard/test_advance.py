"""Step losses and advance after combat in the Standard rules (seed 002 7.11, 7.12)."""

from __future__ import annotations

from typing import Any

from server.rules.standard.advance import absorbers, advance_hexes, advance_problem

from .builder import find, standard_data, unit
from .ground import board

INF = {"full": {"cf": 4, "mr": 4, "ma": 4}, "reduced": {"cf": 2, "mr": 3, "ma": 4}}
BN = {"full": {"cf": 1, "mr": 4, "ma": 5}, "ineffective": {"cf": 0, "mr": 2, "ma": 5}}
ART = {"full": {"attack": 3, "defense": 2, "range": 3, "ma": 3}, "ineffective": {"attack": 1, "defense": 1, "range": 2, "ma": 3}}


def vacated() -> dict[str, Any]:
    """b-1 at 0604 next to 0704, which red has just left (r-1 moved off to 1008)."""
    data = standard_data()
    next(s for s in data["setup"] if s["unit"] == "b-1")["hex"] = "0604"
    next(s for s in data["setup"] if s["unit"] == "r-1")["hex"] = "1008"
    return data


def test_7_11_a_stacked_non_participating_battalion_of_the_formation_may_absorb() -> None:
    data = vacated()
    unit(data, "b-bn", kind="battalion", formation="1", hex="0604", **BN)
    unit(data, "b-bn2", kind="battalion", formation="2", hex="0604", **BN)
    sc, units = board(data)
    assert absorbers(sc, units, "b-1", participants=["b-1"]) == ["b-bn"]
    assert absorbers(sc, units, "b-1", participants=["b-1", "b-bn"]) == []


def test_2_4_7_11_an_a_battalion_belongs_to_the_formation_of_any_primary() -> None:
    data = vacated()
    unit(data, "b-bn", kind="battalion", formation="A", hex="0604", **BN)
    unit(data, "b-bn0", kind="battalion", formation="0", hex="0604", **BN)
    unit(data, "b-1", kind="infantry", formation="A", hex="0604", **INF)
    unit(data, "b-bn2", kind="battalion", formation="2", hex="0604", **BN)
    sc, units = board(data)
    assert absorbers(sc, units, "b-1", participants=["b-1"]) == ["b-bn", "b-bn2"]  # an A primary: any formation
    assert absorbers(sc, units, "b-bn2", participants=["b-bn2"]) == ["b-bn"]  # an A battalion absorbs for formation 2
    assert absorbers(sc, units, "b-bn0", participants=["b-bn0"]) == []  # an independent shares no formation


def test_7_12_advance_one_hex_into_the_vacated_hex_or_next_to_it() -> None:
    sc, units = board(vacated())
    got = advance_hexes(sc, units, "b-1", "0704")
    assert "0704" in got
    assert all(sc.grid.is_adjacent("0604", h) for h in got)
    assert all(h == "0704" or sc.grid.is_adjacent("0704", h) for h in got)


def test_7_12_two_hexes_after_a_rout_but_not_after_a_capture() -> None:
    sc, units = board(vacated())
    one = set(advance_hexes(sc, units, "b-1", "0704"))
    two = set(advance_hexes(sc, units, "b-1", "0704", rout=True))
    assert one < two and "0804" in two
    assert set(advance_hexes(sc, units, "b-1", "0704", rout=True, captured=True)) == one


def test_7_12_who_may_not_advance() -> None:
    data = vacated()
    unit(data, "b-art", kind="artillery", formation="1", hex="0603", **ART)
    sc, units = board(data)
    assert "artillery" in (advance_problem(sc, units, "b-art") or "")
    units["b-1"].disrupted = True
    assert "2.8(4)" in (advance_problem(sc, units, "b-1") or "")
    data = vacated()
    find(data, "b-1")["full"]["parenthesized"] = True
    sc, units = board(data)
    assert advance_hexes(sc, units, "b-1", "0704") == []


def test_7_12_r13_no_advance_from_terrain_the_tec_names() -> None:
    data = vacated()
    data["map"]["hexes"]["0604"] = "woods"
    unit(data, "b-cav", kind="cavalry", formation="1", hex="0604", full={"cf": 3, "mr": 4, "ma": 8, "charge": 4},
         ineffective={"cf": 1, "mr": 2, "ma": 10})
    sc, units = board(data)
    assert "R13" in (advance_problem(sc, units, "b-cav") or "")
    assert advance_problem(sc, units, "b-1") is None


def test_7_12_the_first_hex_is_vacant_and_no_advance_overstacks_a_hex() -> None:
    data = vacated()
    unit(data, "b-x", kind="infantry", formation="1", hex="0603", **INF)
    sc, units = board(data)
    assert "0603" not in advance_hexes(sc, units, "b-1", "0704")  # not vacant
    unit(data, "b-y", kind="infantry", formation="1", hex="0804", **INF)
    sc, units = board(data)
    assert "0804" in advance_hexes(sc, units, "b-1", "0704", rout=True)  # the second hex may hold friends
    for i in range(2):
        unit(data, f"b-z{i}", kind="infantry", formation="1", hex="0804", **INF)
    sc, units = board(data)
    assert "0804" not in advance_hexes(sc, units, "b-1", "0704", rout=True)  # but not three counting units
