"""Combat strength and the differential in the Standard rules (seed 002 7.7, with 2.4, 2.8(3), 5.3, 8.1).

7.7: the printed CF of each unit involved is used, halved for each reason that applies — terrain (the
TEC; halvings are cumulative), disruption (2.8(3): a disrupted unit's CF is treated as parenthesised, so
like a parenthesised CF it is halved when attacking, 2.4; S9), an overstacked hex (5.3) and, in
`combat_differential`, uncoordinated attacks (7.14).  Halved once: divide by two rounding up; halved twice or more:
1; a zero stays zero.
The differential is the attackers' total minus the defenders' total (7.7), read on the CRT (crt.py).
Artillery attacks with its attack factor and defends with its defence factor (8.1).

`combat_differential` (the differential of a combat the engine plays, with its `Mods`) adds: a participating
leader's CF added to the unit he joins, which is then no longer halved for a parenthesised CF or disruption (10.3);
the halving of uncoordinated formations (7.14); skirmish's movement allowances as combat factors without terrain
(7.13(1)); press forward's +2 and last stand's +3 (7.13(2), 7.13(5)); a charge not pressed home halved (7.13(3));
supporting artillery's attack factor, doubled against cavalry (8.8, 9.2(4)); attacking cavalry doubled against a
disrupted or ineffective defending primary unit (9.2(2), S32); charge factors in a cavalry charge or countercharge
(9.3(4), 9.4); squares (9.5); a fortune of war's charge doubled (12.4); open order's parenthesised CF (19.10 B);
the line's +2 fighting a unit in a front hex, halved attacking, its marker's MA skirmishing, and an attacker from its
flank tripled, from its rear doubled (19.7 D, S65: a unit's kernel facing is its line marker).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..kernel.facing import Arc
from ..kernel.state import UnitState
from .movement import printed_side
from .scenario import Kind, StandardScenario
from .special import LINE_BONUS, line_arc
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
    leader: int = 0  # 10.3: a participating leader's CF added before the halvings
    doubled: str | None = None  # 8.8, 9.2(4): the rule that doubles it


def skirmish_factor(sc: StandardScenario, s: UnitState) -> int:
    """7.13(1): an infantry unit's MA as its CF; bracketed or V: 0; disrupted: 0."""
    side = printed_side(sc, s)
    if side.ma is None or side.bracketed or s.disrupted:
        return 0
    return side.ma


def attacker_strength(sc: StandardScenario, units: Mapping[str, UnitState], uid: str, target: str, *,
                      leader_cf: int = 0, extra: Sequence[str] = (), skirmish: bool = False,
                      charge: bool = False, open_order: bool = False, line_ma: int | None = None) -> Strength:
    """7.7 for one attacking unit against the hex `target`; `leader_cf`: a participating leader (10.3); `extra`:
    further halvings (7.14, 7.13(3)); `skirmish`: 7.13(1); `open_order`: its CF parenthesised (19.10 B); `line_ma`:
    the unit is in line, whose marker has this MA (19.7 D: +2 and halved; skirmishing with the marker's MA)."""
    s = units[uid]
    d = sc.units[uid]
    assert s.hex is not None
    side = printed_side(sc, s)
    printed = side.attack if d.kind is Kind.ARTILLERY else side.charge if charge else side.cf
    cls = d.kind.tec_class
    why: list[str] = []
    if skirmish:
        why.extend(extra)
        if is_overstacked(sc, units, s.hex):
            why.append("5.3")
        printed = skirmish_factor(sc, s) if line_ma is None else line_ma  # 19.7 D: the marker's MA
        return Strength(uid, printed, tuple(why), halve(printed, len(why)))
    if line_ma is not None:
        printed += LINE_BONUS  # 19.7 D: +2 against a unit in a front hex (it attacks only into one), then halved
        why.append("19.7 D")
    # one halving even when both apply: disruption is a parenthesis (2.8(3)); a participating leader lifts it (10.3)
    if (side.parenthesized or s.disrupted or open_order) and not leader_cf:
        why.append("2.4" if side.parenthesized else "2.8(3)" if s.disrupted else "19.10")
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
    for feat in sc.hexside_effects(s.hex, target):  # 2.2: a clear hexside beside a terrain too
        if cls in feat.halves_attack_across:
            why.append(f"7.7 across {feat.name}")
    if is_overstacked(sc, units, s.hex):
        why.append("5.3")
    why.extend(extra)
    return Strength(uid, printed, tuple(why), halve(printed + leader_cf, len(why)), leader_cf)


def defender_strength(sc: StandardScenario, units: Mapping[str, UnitState], uid: str, *, leader_cf: int = 0,
                      skirmish: bool = False, charge: bool = False, line_ma: int | None = None,
                      line_bonus: bool = False) -> Strength:
    """7.7 for one defending unit in its hex; `leader_cf`: a participating leader (10.3); `skirmish`: 7.13(1)
    (infantry use their MA, no terrain); `line_ma`: in line, its marker's MA skirmishing (19.7 D, S65); `line_bonus`:
    in line and fighting a unit in a front hex (19.7 D: +2)."""
    s = units[uid]
    d = sc.units[uid]
    assert s.hex is not None
    side = printed_side(sc, s)
    printed = side.defense if d.kind is Kind.ARTILLERY else side.charge if charge else side.cf
    cls = d.kind.tec_class
    why: list[str] = []  # no 2.4/2.8(3) halving: a parenthesised CF is halved only when attacking (S9)
    if skirmish:
        if d.kind in (Kind.INFANTRY, Kind.BATTALION):
            printed = skirmish_factor(sc, s) if line_ma is None else line_ma
        if is_overstacked(sc, units, s.hex):
            why.append("5.3")
        return Strength(uid, printed, tuple(why), halve(printed, len(why)))
    t = sc.terrain_at(s.hex)
    if cls in t.halves_defense:
        why.append(f"7.7 {t.name}")
    for sec in sc.secondary_at(s.hex):
        if cls in sec.halves_defense:
            why.append(f"7.7 {sec.name}")
    if is_overstacked(sc, units, s.hex):
        why.append("5.3")
    printed += LINE_BONUS if line_bonus else 0
    return Strength(uid, printed, tuple(why), halve(printed + leader_cf, len(why)), leader_cf)


def line_ma_of(sc: StandardScenario, s: UnitState) -> int | None:
    """19.7: the line marker's MA when the unit is in line (its kernel facing; None: not in line)."""
    ln = sc.special.line
    return ln.ma if ln is not None and s.facing is not None and s.hex is not None else None


def line_arc_of(sc: StandardScenario, units: Mapping[str, UnitState], line_unit: str, other: str) -> Arc | None:
    """19.7 B: the arc of `other`'s hex from the unit in line (None: not in line, or not adjacent)."""
    s, o = units[line_unit], units[other]
    if line_ma_of(sc, s) is None or o.hex is None or s.hex is None or not sc.grid.is_adjacent(s.hex, o.hex):
        return None
    assert s.facing is not None
    return line_arc(sc.grid, s.hex, s.facing, o.hex)


_LINE_TIMES = {Arc.FLANK: (3, "19.7 D flank"), Arc.REAR: (2, "19.7 D rear")}


def differential(sc: StandardScenario, units: Mapping[str, UnitState], attackers: Sequence[str],
                 defenders: Sequence[str], target: str) -> tuple[int, list[Strength], list[Strength]]:
    """7.7: the attackers' total minus the defenders' total, with each unit's part."""
    att = [attacker_strength(sc, units, u, target) for u in attackers]
    dfn = [defender_strength(sc, units, u) for u in defenders]
    return sum(a.value for a in att) - sum(d.value for d in dfn), att, dfn


@dataclass(frozen=True)
class Mods:
    """The combat's circumstances `combat_differential` adds to 7.7's differential (see the module docstring)."""

    tactic: str = "none"  # the attacker's 7.13 tactic
    defence: str = "none"  # the defender's 7.13 tactic
    halved: frozenset[str] = frozenset()  # 7.14: uncoordinated units
    leaders: Mapping[str, str] = field(default_factory=dict)  # 10.3: attacking leader -> the unit he joins
    def_leaders: Mapping[str, str] = field(default_factory=dict)  # 10.3: defending leader -> the unit he joins
    charge_failed: bool = False  # 7.13(3): the charge was not pressed home
    support: tuple[str, ...] = ()  # 8.8: supporting artillery
    cavalry_doubled: bool = False  # 9.2(2): the defending primary unit is disrupted or ineffective
    cavalry_charge: bool = False  # 9.3(4): the chargers use their charge factor
    countercharge: bool = False  # 9.4: the defending cavalry uses its charge factor too
    in_square: tuple[str, ...] = ()  # 9.5: attacking units in square (-2 each)
    vs_square: bool = False  # 9.5: the defender is in square
    fortune_doubled: bool = False  # 12.4: a fortune of war's charge whose primary unit passed its check
    open_order: frozenset[str] = frozenset()  # 19.10 B: units in open order (their CF parenthesised)


@dataclass(frozen=True)
class Breakdown:
    differential: int
    attackers: list[Strength]
    defenders: list[Strength]
    modifiers: list[dict[str, object]]  # each {rule, label, side, value}


def _leader_cf(sc: StandardScenario, joined: Mapping[str, str], uid: str) -> int:
    total = 0
    for ldr, u in joined.items():
        lf = sc.units[ldr].leader
        if u == uid and lf is not None:
            total += lf.combat
    return total


def combat_differential(sc: StandardScenario, units: Mapping[str, UnitState], attackers: Sequence[str],
                        defenders: Sequence[str], target: str, mods: Mods) -> Breakdown:
    """7.7 with 7.13, 7.14, 8.8 and 10.3: the differential and every unit's and modifier's part."""
    skirmish = mods.tactic == "skirmish"
    att = []
    for u in attackers:
        extra = ["7.14"] if u in mods.halved else []
        if mods.charge_failed:
            extra.append("7.13(3)")
        a = attacker_strength(sc, units, u, target, leader_cf=0 if skirmish else _leader_cf(sc, mods.leaders, u),
                              extra=extra, skirmish=skirmish, open_order=u in mods.open_order,
                              charge=mods.cavalry_charge and sc.units[u].kind in (Kind.CAVALRY, Kind.SQUADRON),
                              line_ma=line_ma_of(sc, units[u]))
        for d in defenders:  # 19.7 D: attacking a line from its flank triples the attacker, from its rear doubles it
            times = _LINE_TIMES.get(line_arc_of(sc, units, d, u) or Arc.FRONT)
            if times is not None:
                a = Strength(a.unit, a.printed, a.halvings, a.value * times[0], a.leader,
                             f"{a.doubled}, {times[1]}" if a.doubled else times[1])
                break
        if mods.cavalry_doubled and sc.units[u].kind in (Kind.CAVALRY, Kind.SQUADRON):
            a = Strength(a.unit, a.printed, a.halvings, a.value * 2, a.leader, "9.2(2)")
        if mods.fortune_doubled:  # 12.4: every charging unit (leaders add no CF here)
            a = Strength(a.unit, a.printed, a.halvings, a.value * 2, a.leader,
                         "9.2(2), 12.4" if a.doubled else "12.4")
        att.append(a)
    dfn = [defender_strength(sc, units, u, leader_cf=0 if skirmish else _leader_cf(sc, mods.def_leaders, u),
                             skirmish=skirmish,
                             charge=mods.countercharge and sc.units[u].kind in (Kind.CAVALRY, Kind.SQUADRON),
                             line_ma=line_ma_of(sc, units[u]),
                             line_bonus=any(line_arc_of(sc, units, u, a) is Arc.FRONT for a in attackers))  # 19.7 D
           for u in defenders]
    cavalry = any(sc.units[u].kind in (Kind.CAVALRY, Kind.SQUADRON) for u in defenders)
    for u in mods.support:
        printed = printed_side(sc, units[u]).attack
        att.append(Strength(u, printed, (), printed * 2 if cavalry else printed, 0, "8.8" if cavalry else None))
    mod: list[dict[str, object]] = []
    if mods.tactic == "press":
        mod.append({"rule": "7.13(2)", "label": "press forward", "side": "attacker", "value": 2})
    if mods.defence == "last_stand":
        mod.append({"rule": "7.13(5)", "label": "last stand", "side": "defender", "value": 3})
    for u in mods.in_square:
        mod.append({"rule": "9.5", "label": f"{sc.units[u].name} attacks in square", "side": "attacker", "value": -2})
    if mods.vs_square:
        if mods.cavalry_charge:
            mod.append({"rule": "9.5", "label": "the square charged by cavalry", "side": "defender", "value": 2})
        else:
            n = sum(1 for u in [*attackers, *mods.support] if sc.units[u].kind not in (Kind.CAVALRY, Kind.SQUADRON))
            if n:
                mod.append({"rule": "9.5", "label": f"{n} non-cavalry unit(s) attack the square", "side": "attacker",
                            "value": 2 * n})
    total_a = sum(a.value for a in att) + sum(int(str(m["value"])) for m in mod if m["side"] == "attacker")
    total_d = sum(d.value for d in dfn) + sum(int(str(m["value"])) for m in mod if m["side"] == "defender")
    return Breakdown(total_a - total_d, att, dfn, mod)
