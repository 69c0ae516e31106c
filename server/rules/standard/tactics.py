"""Choice of tactics, coordination and leaders in combat in the Standard rules (seed 002 7.13, 7.14, 10.3, 14.3(2),
19.1), as pure functions over `(scenario, units)`.

7.13: the attacker announces a tactic first (skirmish, press forward, charge, disengage), then the defender
(disengage, last stand); an announced tactic is never withdrawn.  Each tactic limits who may use it and converts
the CRT result (`convert`).  7.14: an attack is coordinated when its attacking units (infantry, cavalry and
artillery attacking in close combat, 8.3; supporting fire needs none, 8.8; S22) are of one formation (19.1: each
sub-formation counts separately; an "A" unit is of every formation, 2.4; S23), or when an effective leader whose
command span covers every attacking formation is stacked with or adjacent to an attacking unit (never at twilight,
14.3(2)); otherwise the units of formations other than the primary attacker's are halved.  10.3: a leader assists
one unit a turn, and only one within his command span (an "A" unit is within every friendly leader's span, 2.4).

The combat procedure (attacks.py, close_combat.py, combat_results.py, advancing.py) plays these rules in a game.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from ..kernel.state import UnitState
from .crt import Result
from .movement import printed_side
from .scenario import Kind, StandardScenario
from .special import line_tactic_problem, open_order_tactic_problem

NO_TACTIC = "none"
SKIRMISH = "skirmish"  # 7.13(1)
PRESS = "press"  # 7.13(2)
CHARGE = "charge"  # 7.13(3)
DISENGAGE = "disengage"  # 7.13(4)
LAST_STAND = "last_stand"  # 7.13(5)
COUNTERCHARGE = "countercharge"  # 9.4
ATTACK_TACTICS = (NO_TACTIC, SKIRMISH, PRESS, CHARGE, DISENGAGE)
DEFENCE_TACTICS = (NO_TACTIC, DISENGAGE, LAST_STAND, COUNTERCHARGE)
TACTIC_RULE = {SKIRMISH: "7.13(1)", PRESS: "7.13(2)", CHARGE: "7.13(3)", DISENGAGE: "7.13(4)", LAST_STAND: "7.13(5)",
               COUNTERCHARGE: "9.4"}
TACTIC_LABEL = {NO_TACTIC: "no tactic", SKIRMISH: "skirmish", PRESS: "press forward", CHARGE: "charge",
                DISENGAGE: "disengage", LAST_STAND: "last stand", COUNTERCHARGE: "countercharge"}
PRESS_BONUS = 2  # 7.13(2)
LAST_STAND_BONUS = 3  # 7.13(5)

_INFANTRY = (Kind.INFANTRY, Kind.BATTALION)
_CAVALRY = (Kind.CAVALRY, Kind.SQUADRON)
# 7.14 with 8.1, 8.3: infantry, cavalry and the artillery attacking in close combat (supporting fire is no attacker)
_COORDINATED_KINDS = (Kind.INFANTRY, Kind.BATTALION, Kind.CAVALRY, Kind.SQUADRON, Kind.ARTILLERY)
ALL_FORMATIONS = "A"  # 2.4: the formation letter of a unit of every formation


# --- 7.14 coordination ------------------------------------------------------------------------------------------
def formation_key(sc: StandardScenario, uid: str) -> str:
    """7.14, 19.1: the formation a unit counts in for coordination: its sub-formation when it has one, else its
    formation; an independent ('0') unit is a formation of its own (S23); an 'A' unit's key is `ALL_FORMATIONS`,
    which `same_formation` matches with every formation (2.4)."""
    d = sc.units[uid]
    if d.formation == "0":
        return f"0:{uid}"
    return f"{d.formation}/{d.sub_formation}" if d.sub_formation else d.formation


def same_formation(a: str, b: str) -> bool:
    """2.4 (S23): two formations (or `formation_key`s) are shared: equal, or one is 'A' and the other is not an
    independent unit's ('0': it belongs to no formation, 2.4)."""
    if a == b:
        return True
    if ALL_FORMATIONS in (a, b):
        return not any(x == "0" or x.startswith("0:") for x in (a, b))
    return False


def in_span(sc: StandardScenario, leader: str, uid: str) -> bool:
    """10.3: the unit's formation is within the leader's command span ('A': every formation of his army); an 'A'
    unit is of every formation of its army and so within every span of its army's leaders (2.4, S23; 17.4, S63:
    army commanders affect only their own army's formations)."""
    ld = sc.units[leader]
    d = sc.units[uid]
    if ld.side != d.side:
        return False
    if d.formation == ALL_FORMATIONS:
        return sc.army_of(uid) == sc.army_of(leader)
    if ALL_FORMATIONS in ld.span:
        return sc.army_of(uid) == sc.army_of(leader)
    return d.formation in ld.span


def coordinated_units(sc: StandardScenario, attackers: Sequence[str]) -> list[str]:
    """7.14: the attacking units whose formation matters: infantry, cavalry and artillery attacking in close combat
    (8.3); supporting artillery (8.8) is not among the attackers (S22)."""
    return [u for u in attackers if sc.units[u].kind in _COORDINATED_KINDS]


def by_formation(sc: StandardScenario, attackers: Sequence[str]) -> bool:
    """7.14: every attacking unit shares one formation (19.1: sub-formations separately; 2.4: an 'A' unit shares
    every formation but an independent unit's)."""
    units = coordinated_units(sc, attackers)
    keys = sorted({formation_key(sc, u) for u in units})
    return len(armies(sc, units)) <= 1 and all(same_formation(a, b) for i, a in enumerate(keys) for b in keys[i + 1:])


def armies(sc: StandardScenario, units: Sequence[str]) -> set[str]:
    """17.4 (S63): the armies of these units; units of different armies are never coordinated."""
    return {sc.army_of(u) for u in units}


def coordinator_problem(sc: StandardScenario, units: Mapping[str, UnitState], leader: str, attackers: Sequence[str],
                        *, light: str, assisted: Collection[str]) -> str | None:
    """7.14, 10.3, 14.3(2): why `leader` may not coordinate this attack (None: he may)."""
    if leader not in sc.units or sc.units[leader].kind is not Kind.LEADER:
        return "7.14: only a leader coordinates an attack"
    s = units[leader]
    name = sc.units[leader].name
    if light == "twilight":
        return "14.3(2): coordination of attacks is not possible at twilight"
    if light == "night":
        return "14.2(4): only infantry charges are made at night"
    if not s.on_map or s.hex is None or sc.units[leader].side != sc.units[attackers[0]].side:
        return f"7.14: {name} is not one of the attacker's leaders on the map"
    if s.ineffective:
        return f"10.1: {name} is ineffective and has no game effects"
    if leader in assisted:
        return f"10.3: {name} has assisted a unit this turn"
    if len(armies(sc, coordinated_units(sc, attackers))) > 1:
        return "17.4: units of different armies may not coordinate their attacks (S63)"
    out = [u for u in coordinated_units(sc, attackers) if not in_span(sc, leader, u)]
    if out:
        return f"7.14: {sc.units[out[0]].name} is not within {name}'s command span"
    if not any(units[u].hex == s.hex or sc.grid.is_adjacent(units[u].hex or "", s.hex) for u in attackers):
        return f"7.14: {name} is neither stacked with nor adjacent to an attacking unit"
    return None


def uncoordinated_halved(sc: StandardScenario, attackers: Sequence[str], primary: str) -> list[str]:
    """7.14: in an uncoordinated attack the units sharing no formation with the primary attacker are halved (2.4,
    S23: an 'A' unit shares every formation but an independent unit's, so it is never halved for its letter, and an
    'A' primary halves only independent units)."""
    key = formation_key(sc, primary)
    army = sc.army_of(primary)  # 17.4 (S63): a unit of another army shares no formation with the primary
    return [u for u in coordinated_units(sc, attackers)
            if not same_formation(formation_key(sc, u), key) or sc.army_of(u) != army]


# --- 10.3 leaders taking part -------------------------------------------------------------------------------------
def leader_problem(sc: StandardScenario, units: Mapping[str, UnitState], leader: str, group: Sequence[str], *,
                   assisted: Collection[str]) -> str | None:
    """10.3: why `leader` may not take part in combat with the units `group` (None: he may)."""
    if leader not in sc.units or sc.units[leader].kind is not Kind.LEADER:
        return "10.3: only a leader joins a unit in combat"
    s = units[leader]
    name = sc.units[leader].name
    if not s.on_map or s.hex is None:
        return f"10.3: {name} is not on the map"
    if s.ineffective:
        return f"10.1: {name} is ineffective and has no game effects"
    if leader in assisted:
        return f"10.3: {name} has assisted a unit this turn"
    if joined_unit(sc, units, leader, group, group[0] if group else "") is None:
        return f"10.3: {name} is not stacked with a unit of the combat within his command span"
    return None


def joined_unit(sc: StandardScenario, units: Mapping[str, UnitState], leader: str, group: Sequence[str],
                primary: str) -> str | None:
    """10.3 (S24): the unit a participating leader joins: the primary unit when he is stacked with it and it is in
    his span, otherwise the first such unit of the combat in his hex."""
    h = units[leader].hex
    fits = sorted(u for u in group if units[u].hex == h and in_span(sc, leader, u))
    if primary in fits:
        return primary
    return fits[0] if fits else None


# --- 7.13 who may use a tactic ------------------------------------------------------------------------------------
def attack_tactic_problem(sc: StandardScenario, units: Mapping[str, UnitState], tactic: str,
                          attackers: Sequence[str], *, open_order: Collection[str] = ()) -> str | None:
    """7.13: why the attackers may not announce `tactic` (None: they may).  Skirmish's geometry is
    `skirmish_problem`'s; a charge must also have been declared in the movement phase; units in open order
    (`open_order`) only skirmish or disengage (19.10 B)."""
    if tactic not in ATTACK_TACTICS:
        return f"7.13: '{tactic}' is not an attacker's tactic ({', '.join(ATTACK_TACTICS)})"
    if (oo := open_order_tactic_problem(tactic, attackers, open_order)) is not None:
        return oo
    if sc.special.line is not None and (ln := line_tactic_problem(
            tactic, attackers, [u for u in attackers if units[u].facing is not None], defending=False)) is not None:
        return ln  # 19.7 D
    if tactic == CHARGE and attackers and all(sc.units[u].kind in _CAVALRY for u in attackers):
        for u in attackers:  # 9.3: a cavalry charge
            if units[u].disrupted or units[u].ineffective:
                return f"9.3: {sc.units[u].name} is disrupted or ineffective"
        return None
    if tactic in (PRESS, CHARGE):
        for u in attackers:
            d = sc.units[u]
            s = units[u]
            if d.kind not in _INFANTRY:
                return f"{TACTIC_RULE[tactic]}: only infantry {TACTIC_LABEL[tactic]} ({d.name} is {d.kind.value})"
            if s.disrupted or s.ineffective:
                return f"{TACTIC_RULE[tactic]}: {d.name} is disrupted or ineffective"
    if tactic == SKIRMISH:
        for u in attackers:
            d = sc.units[u]
            side = printed_side(sc, units[u])
            if d.kind not in _INFANTRY:
                return f"7.13(1): only infantry skirmish ({d.name} is {d.kind.value})"
            if side.ma is None or side.bracketed:
                return f"7.13(1): {d.name} has a bracketed or V movement allowance and cannot skirmish"
    return None


def defence_tactic_problem(sc: StandardScenario, units: Mapping[str, UnitState], tactic: str,
                           defenders: Sequence[str], attack_tactic: str, *,
                           open_order: Collection[str] = ()) -> str | None:
    """7.13: why the defenders may not answer with `tactic` (None: they may); units in open order (`open_order`)
    only disengage (19.10 B)."""
    if tactic not in DEFENCE_TACTICS:
        return f"7.13: '{tactic}' is not a defender's tactic ({', '.join(DEFENCE_TACTICS)})"
    if (oo := open_order_tactic_problem(tactic, defenders, open_order)) is not None:
        return oo
    if sc.special.line is not None and (ln := line_tactic_problem(
            tactic, defenders, [u for u in defenders if units[u].facing is not None], defending=True)) is not None:
        return ln  # 19.7 D (S65)
    if tactic == COUNTERCHARGE:
        if attack_tactic != CHARGE or not defenders or not all(sc.units[u].kind in _CAVALRY for u in defenders):
            return "9.4: cavalry countercharges a charging cavalry unit (S36)"
        for u in defenders:
            if units[u].disrupted or units[u].ineffective:
                return f"9.4: {sc.units[u].name} is disrupted or ineffective"
    if tactic == LAST_STAND:
        if attack_tactic == DISENGAGE:
            return "7.13(5): no last stand against an attacker who disengages"
        for u in defenders:
            d = sc.units[u]
            s = units[u]
            if d.kind not in (*_INFANTRY, Kind.ARTILLERY):
                return f"7.13(5): only infantry and artillery make a last stand ({d.name} is {d.kind.value})"
            if s.disrupted or s.ineffective:
                return f"7.13(5): {d.name} is disrupted or ineffective"
    return None


def skirmish_problem(sc: StandardScenario, units: Mapping[str, UnitState], uid: str, target: str,
                     ezoc: Collection[str]) -> str | None:
    """7.13(1): a skirmisher's target is adjacent (the skirmisher not in an EZOC) or two hexes away over an empty
    hex; it could move into the target in normal movement (through that hex, S25)."""
    s = units[uid]
    d = sc.units[uid]
    assert s.hex is not None
    dist = sc.grid.distance(s.hex, target)
    if dist == 1:
        if s.hex in ezoc:
            return f"7.13(1): {d.name} is in an enemy zone of control and may not skirmish an adjacent hex"
        if not sc.could_move(d.kind.tec_class, s.hex, target):
            return f"7.13(1): {d.name} could not move into {target}"
        return None
    if dist != 2:
        return f"7.13(1): {target} is neither adjacent to {d.name} nor two hexes away"
    occupied = {x.hex for x in units.values() if x.on_map}
    for mid in sc.grid.neighbors(s.hex):
        if (sc.grid.is_adjacent(mid, target) and mid not in occupied
                and sc.could_move(d.kind.tec_class, s.hex, mid) and sc.could_move(d.kind.tec_class, mid, target)):
            return None
    return f"7.13(1): no empty hex between {d.name} and {target} through which it could move into it"


# --- 7.13 result conversions --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Converted:
    """A CRT result after the tactics: the result read on, the sides whose retreat is forced (7.13(4): no choice of
    disruption), whether both sides retreat (7.13(4), defender first), and the rules that converted it."""

    result: Result
    forced: frozenset[str] = frozenset()
    both_retreat: bool = False
    rules: tuple[str, ...] = ()


def convert(r: Result, attack: str, defence: str, *, pressed: bool = True, cavalry: bool = False) -> Converted:
    """7.13: the result the tactics make of the CRT's `r` (`pressed`: a charge passed its morale check; `cavalry`: a
    cavalry charge, 9.3(5): Dr, Dc, Dx and Dm become Dm whose pass leaves the attacker's Am(Ar) (encoded as the
    parenthesised 'Am'); any other result becomes Am(Ar))."""
    rules: list[str] = []
    forced: set[str] = set()
    if attack == CHARGE and cavalry:
        if r.result in ("Dr", "Dc", "Dx", "Dm"):
            return Converted(replace(r, result="Dm", on_pass="Am"), rules=("9.3(5)",))
        return Converted(replace(r, result="Am", on_pass="Ar"), rules=("9.3(5)",))
    if attack == SKIRMISH:
        rules.append("7.13(1)")
        r = replace(r, df=False, leader=False, ammo=False)  # 7.13(1): secondary results ignored (S26)
        if r.affects in ("attacker", "both"):
            r = Result("NE")
        elif r.result in ("Dx", "Dm"):
            r = Result("Dr")
    elif attack == CHARGE and pressed:
        rules.append("7.13(3)")
        if r.affects in ("attacker", "both"):
            r = replace(r, result="Ax", on_pass=None)
        elif r.affects == "defender":
            r = replace(r, result="Dm", on_pass="Ax")
    if attack == DISENGAGE and defence == DISENGAGE:
        if r.affects is None:
            return Converted(r, rules=tuple(rules))
        return Converted(replace(r, result="Dr", on_pass=None), frozenset({"attacker", "defender"}), True,
                         (*rules, "7.13(4)"))
    if attack == DISENGAGE and (r.affects in ("defender", "both") or r.result == "Ac"):
        rules.append("7.13(4)")
        r = replace(r, result="Ar", on_pass=None)
        forced.add("attacker")
    if defence == DISENGAGE:
        if r.affects in ("attacker", "both") or r.result == "Dc":
            rules.append("7.13(4)")
            r = replace(r, result="Dr", on_pass=None)
            forced.add("defender")
        elif r.result == "Dm" and r.on_pass and r.on_pass.startswith("A"):
            rules.append("7.13(4)")  # a charge against a disengaging defender: no attacker loss (S27)
            r = replace(r, on_pass="Dr")
            forced.add("defender")
    elif attack == DISENGAGE and r.result == "Ar":
        forced.add("attacker")
    return Converted(r, frozenset(forced), False, tuple(rules))
