"""Combat strength and the differential in the Standard rules (seed 002 7.7, with 2.4, 2.8(3), 5.3, 8.1).

7.7: the printed CF of each unit involved is used, halved for each reason that applies — terrain (the
TEC; halvings are cumulative), disruption (2.8(3): a disrupted unit's CF is treated as parenthesised, so
like a parenthesised CF it is halved when attacking, 2.4; S9), an overstacked hex (5.3) and, with part 2, uncoordinated
attacks (7.14).  Halved once: divide by two rounding up; halved twice or more: 1; a zero stays zero.
The differential is the attackers' total minus the defenders' total (7.7), read on the CRT (crt.py).
Artillery attacks with its attack factor and defends with its defence factor (8.1).

Leaders' factors (10.3), cavalry doubling (9.2(2)), tactics (7.13) and coordination (7.14) belong to
issue 13's part 2 and are not applied here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..kernel.hexes import hexside_key
from ..kernel.state import UnitState
from .movement import printed_side
from .scenario import Kind, StandardScenario
from .stacking import is_overstacked


def halve(value: int, times: int) -> int:
    """7.7: once, round up; twice or more, 1; zero stays zero."""
    if value == 0 or times <= 0:
        return value
    if times == 1:
        return (value + 1) // 2
    return 1


@dataclass(frozen=True, slots=True)
class Strength:
    """One unit's part in a combat: its printed factor, why it is halved, and the result."""

    unit: str
    printed: int
    halvings: tuple[str, ...]  # the rule behind each halving, e.g. "7.7 woods", "2.8(3)"
    value: int


def attacker_strength(sc: StandardScenario, units: Mapping[str, UnitState], uid: str, target: str) -> Strength:
    """7.7 for one attacking unit against the hex `target`."""
    s = units[uid]
    d = sc.units[uid]
    assert s.hex is not None
    side = printed_side(sc, s)
    printed = side.attack if d.kind is Kind.ARTILLERY else side.cf
    cls = d.kind.tec_class
    why: list[str] = []
    if side.parenthesized or s.disrupted:  # one halving even when both apply: disruption is a parenthesis (2.8(3))
        why.append("2.8(3)" if s.disrupted and not side.parenthesized else "2.4")
    t_into = sc.terrain_at(target)
    if cls in t_into.halves_attack_into:
        why.append(f"7.7 {t_into.name}")
    for sec in sc.secondary_at(target):
        if cls in sec.halves_attack_into:
            why.append(f"7.7 {sec.name}")
    t_from = sc.terrain_at(s.hex)
    if cls in t_from.halves_attack_out_of:
        why.append(f"7.7 out of {t_from.name}")
    for sec in sc.secondary_at(s.hex):
        if cls in sec.halves_attack_out_of:
            why.append(f"7.7 out of {sec.name}")
    for f in sorted(sc.hexsides.get(hexside_key(s.hex, target), ())):
        feat = sc.hexside_features[f]
        if cls in feat.halves_attack_across:
            why.append(f"7.7 across {feat.name}")
    if is_overstacked(sc, units, s.hex):
        why.append("5.3")
    return Strength(uid, printed, tuple(why), halve(printed, len(why)))


def defender_strength(sc: StandardScenario, units: Mapping[str, UnitState], uid: str) -> Strength:
    """7.7 for one defending unit in its hex."""
    s = units[uid]
    d = sc.units[uid]
    assert s.hex is not None
    side = printed_side(sc, s)
    printed = side.defense if d.kind is Kind.ARTILLERY else side.cf
    cls = d.kind.tec_class
    why: list[str] = []  # no 2.4/2.8(3) halving: a parenthesised CF is halved only when attacking (S9)
    t = sc.terrain_at(s.hex)
    if cls in t.halves_defense:
        why.append(f"7.7 {t.name}")
    for sec in sc.secondary_at(s.hex):
        if cls in sec.halves_defense:
            why.append(f"7.7 {sec.name}")
    if is_overstacked(sc, units, s.hex):
        why.append("5.3")
    return Strength(uid, printed, tuple(why), halve(printed, len(why)))


def differential(sc: StandardScenario, units: Mapping[str, UnitState], attackers: Sequence[str],
                 defenders: Sequence[str], target: str) -> tuple[int, list[Strength], list[Strength]]:
    """7.7: the attackers' total minus the defenders' total, with each unit's part."""
    att = [attacker_strength(sc, units, u, target) for u in attackers]
    dfn = [defender_strength(sc, units, u) for u in defenders]
    return sum(a.value for a in att) - sum(d.value for d in dfn), att, dfn
