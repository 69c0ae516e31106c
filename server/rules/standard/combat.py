"""Combat set-up in the Standard rules (seed 002 7.2-7.5).

7.2: a defending unit that exerts a ZOC onto an attacking unit at the beginning of the combat phase
triggers a potential combat; attacking it is not mandatory, but a triggered defender not attacked during
the phase (bombardment not counting, 8.4) receives a fortune of war.
7.3(2): a defender lacking a safe line of retreat checks morale before the combat: failing, it is
disrupted; if already disrupted, it routs.
7.4: one hex is defended, by at most one artillery unit, one battalion or squadron and one other unit; the
primary defender is not ineffective unless nothing else is available.
7.5: a unit attacks an adjacent hex it could move into, never with a CF of zero, once per phase; the
primary attacker is neither ineffective nor artillery unless nothing else is available; a hex is the target
of one declared attack (5.3 and 7.4 limit the units per hex).

The edition's procedures (phases.py for 7.2, attacks.py and close_combat.py for 7.3-7.5) play these rules in
a game.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from ..kernel.state import UnitState
from .movement import printed_side
from .scenario import Kind, StandardScenario
from .stacking import combat_stack_problem
from .zoc import exerts_zoc, unit_zoc


def triggered_defenders(sc: StandardScenario, units: Mapping[str, UnitState], attacker: str) -> dict[str, tuple[str, ...]]:
    """7.2, at the beginning of `attacker`'s combat phase: each defending unit exerting a ZOC onto one or
    more attacking units, with those units."""
    defender = sc.opponent(attacker)
    at_hex: dict[str, list[str]] = {}
    for uid, s in units.items():
        if s.on_map and s.hex is not None and sc.units[uid].side == attacker and sc.units[uid].kind.is_combat:
            at_hex.setdefault(s.hex, []).append(uid)
    out: dict[str, tuple[str, ...]] = {}
    for uid, s in sorted(units.items()):
        d = sc.units[uid]
        if d.side != defender or not exerts_zoc(sc, s):
            continue
        assert s.hex is not None
        hit = sorted(a for h in unit_zoc(sc, s) for a in at_hex.get(h, ()))  # 19.7 B: a line's front
        if hit:
            out[uid] = tuple(hit)
    return out


def pre_combat_result(passed: bool, disrupted: bool) -> str | None:
    """7.3(2) for a defender lacking an SLR: None (passed), 'disrupt', or 'rout' (already disrupted)."""
    if passed:
        return None
    return "rout" if disrupted else "disrupt"


def _primary_problem(sc: StandardScenario, units: Mapping[str, UnitState], uids: Sequence[str], primary: str,
                     rule: str, exclude_artillery: bool) -> str | None:
    if primary not in uids:
        return f"{rule}: the primary unit must be one of the units in the combat"

    def poor(u: str) -> bool:
        return units[u].ineffective or (exclude_artillery and sc.units[u].kind is Kind.ARTILLERY)

    if poor(primary) and any(not poor(u) for u in uids):
        what = "an ineffective or artillery unit" if exclude_artillery else "an ineffective unit"
        return f"{rule}: the primary unit may not be {what} while another is available"
    return None


def defence_problem(sc: StandardScenario, units: Mapping[str, UnitState], defenders: Sequence[str],
                    primary: str) -> str | None:
    """7.4: why these units may not defend their hex with that primary unit (None: they may)."""
    hexes = {units[u].hex for u in defenders}
    if len(hexes) != 1:
        return "7.4: the defenders are the units of one hex"
    problem = combat_stack_problem(sc, defenders)
    if problem:
        return problem
    return _primary_problem(sc, units, defenders, primary, "7.4", exclude_artillery=False)


def attack_problem(sc: StandardScenario, units: Mapping[str, UnitState], attackers: Sequence[str], primary: str,
                   target: str, *, attacked_units: Collection[str] = (), attacked_hexes: Collection[str] = (),
                   marched: Collection[str] = ()) -> str | None:
    """7.5: why these units may not attack `target` with that primary unit (None: they may).  `marched`: units
    that used march movement this turn, which initiate no combat (4.7)."""
    if not attackers:
        return "7.5: name the attacking units"
    side = sc.units[attackers[0]].side
    if target in attacked_hexes:
        return f"7.4: {target} has been the target of an attack this phase"
    if not any(s.on_map and s.hex == target and sc.units[u].side != side and sc.units[u].kind.is_combat
               for u, s in units.items()):
        return f"7.1: no enemy combat unit is in {target}"
    by_hex: dict[str, list[str]] = {}
    for u in attackers:
        s = units[u]
        d = sc.units[u]
        if d.side != side or not s.on_map or s.hex is None:
            return f"7.5: {d.name} is not one of the attacker's units on the map"
        if u in attacked_units:
            return f"7.5: {d.name} has attacked this phase"
        if u in marched:
            return f"4.7: {d.name} used march movement and initiates no combat this turn"
        if not sc.grid.is_adjacent(s.hex, target):
            return f"7.5: {d.name} is not adjacent to {target}"
        if not sc.could_move(d.kind.tec_class, s.hex, target):
            return f"7.5: {d.name} could not move into {target}, so it may not attack it"
        side_now = printed_side(sc, s)
        if (side_now.attack if d.kind is Kind.ARTILLERY else side_now.cf) == 0:
            return f"7.5: {d.name} has a CF of zero and cannot attack"
        by_hex.setdefault(s.hex, []).append(u)
    for hex_units in by_hex.values():
        problem = combat_stack_problem(sc, hex_units)
        if problem:
            return problem
    return _primary_problem(sc, units, attackers, primary, "7.5", exclude_artillery=True)
