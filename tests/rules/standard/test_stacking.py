"""Stacking in the Standard rules (seed 002 5.2, 5.3)."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules.standard.stacking import combat_stack_problem, is_overstacked, overstacked_hexes

from .builder import standard_data, unit
from .ground import board

INF = {"full": {"cf": 4, "mr": 4, "ma": 4}, "reduced": {"cf": 2, "mr": 3, "ma": 4}}
BN = {"full": {"cf": 1, "mr": 4, "ma": 5}, "ineffective": {"cf": 0, "mr": 2, "ma": 5}}
SQ = {"full": {"cf": 1, "mr": 4, "ma": 8, "charge": 2}, "ineffective": {"cf": 0, "mr": 2, "ma": 8}}
CAV = {"full": {"cf": 3, "mr": 4, "ma": 8, "charge": 4}, "ineffective": {"cf": 1, "mr": 2, "ma": 10}}
ART = {"full": {"attack": 3, "defense": 2, "range": 3, "ma": 3}, "ineffective": {"attack": 1, "defense": 1, "range": 2, "ma": 3}}
FACTORS = {"infantry": INF, "battalion": BN, "squadron": SQ, "cavalry": CAV, "artillery": ART}


def stack(kinds: list[str], hex_: str = "0303") -> tuple[Any, Any, list[str]]:
    data = standard_data()
    ids = []
    for i, k in enumerate(kinds):
        uid = f"b-{k}-{i}"
        if k == "leader":
            unit(data, uid, kind="leader", formation="1", hex=hex_, leader={"combat": 1, "morale": 1, "movement": 2})
        else:
            unit(data, uid, kind=k, formation="1", hex=hex_, **FACTORS[k])
        ids.append(uid)
    sc, units = board(data)
    return sc, units, ids


def test_5_2_more_than_three_units_overstack_a_hex() -> None:
    sc, units, _ = stack(["infantry", "infantry", "cavalry"])
    assert not is_overstacked(sc, units, "0303")
    sc, units, _ = stack(["infantry", "infantry", "cavalry", "artillery"])
    assert is_overstacked(sc, units, "0303")
    assert overstacked_hexes(sc, units, "blue") == frozenset({"0303"}) and overstacked_hexes(sc, units, "red") == frozenset()


def test_5_2_battalions_squadrons_leaders_and_hqs_do_not_count() -> None:
    sc, units, _ = stack(["infantry", "infantry", "cavalry", "battalion", "squadron", "leader"], hex_="0204")  # b-hq is there
    assert not is_overstacked(sc, units, "0204")


@pytest.mark.parametrize("kinds, ok", [
    (["artillery", "battalion", "infantry"], True),
    (["artillery", "squadron", "cavalry"], True),
    (["battalion", "battalion"], True),  # the third place takes any combat unit (S8)
    (["infantry", "cavalry"], False),
    (["artillery", "artillery", "battalion"], True),
    (["artillery", "artillery", "infantry"], False),
    (["artillery", "battalion", "infantry", "squadron"], False),
    (["infantry", "infantry"], False),
    (["squadron", "cavalry"], True),
])
def test_5_3_one_artillery_one_battalion_or_squadron_and_one_other(kinds: list[str], ok: bool) -> None:
    sc, _, ids = stack(kinds)
    assert (combat_stack_problem(sc, ids) is None) is ok


def test_5_3_leaders_are_not_combat_stack_members() -> None:
    sc, _, ids = stack(["infantry", "leader"])
    assert "10.3" in (combat_stack_problem(sc, ids) or "")
