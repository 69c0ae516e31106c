"""Stacking in the Standard rules (seed 002 5.x).

5.1: no limit on friendly units entering, leaving, passing through or stopping in a hex.
5.2: a hex with more than three units is overstacked — judged at the beginning of a movement phase and at
the instant of combat; battalions, squadrons, leaders and HQs do not count.  (Its effects — the MA roll
of every unit that begins its move there (4.4) and the halved CF in combat (7.7) — are applied by the
movement and combat procedures.)
5.3 (with 7.4, 7.5): one artillery unit, one battalion or squadron and any one other combat unit may fight
from or defend a hex.

The edition's procedures (phases.py, moving.py, charges.py, attacks.py) play these rules in a game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import permutations

from ..kernel.state import UnitState
from .scenario import Kind, StandardScenario

STACK_LIMIT = 3  # 5.2


def counting_units(sc: StandardScenario, units: Mapping[str, UnitState], hex_: str) -> list[str]:
    """5.2: the units in the hex that count for stacking."""
    return sorted(uid for uid, s in units.items()
                  if s.on_map and s.hex == hex_ and sc.units[uid].kind.counts_for_stacking)


def is_overstacked(sc: StandardScenario, units: Mapping[str, UnitState], hex_: str) -> bool:
    """5.2: more than three counting units."""
    return len(counting_units(sc, units, hex_)) > STACK_LIMIT


def overstacked_hexes(sc: StandardScenario, units: Mapping[str, UnitState], side: str) -> frozenset[str]:
    """5.2: every hex of `side` that is overstacked now (at the start of its movement phase, every unit
    there rolls for its MA even after the hex is brought within the limit)."""
    counting: Counter[str] = Counter()
    mine: set[str] = set()
    for uid, s in units.items():  # one pass: a whole battle has some 300 units (issue 40)
        if s.on_map and s.hex is not None:
            if sc.units[uid].kind.counts_for_stacking:
                counting[s.hex] += 1
            if sc.units[uid].side == side:
                mine.add(s.hex)
    return frozenset(h for h in mine if counting[h] > STACK_LIMIT)


# 5.3: the three places in a combat stack, and who may fill each (S8: the last takes any combat unit).
_PLACES: tuple[frozenset[Kind], ...] = (
    frozenset({Kind.ARTILLERY}),
    frozenset({Kind.BATTALION, Kind.SQUADRON}),
    frozenset({Kind.INFANTRY, Kind.BATTALION, Kind.CAVALRY, Kind.SQUADRON, Kind.ARTILLERY}),
)


def combat_stack_problem(sc: StandardScenario, uids: Sequence[str]) -> str | None:
    """5.3, 7.4, 7.5: why these units may not fight together from (or defend) one hex, or None."""
    kinds = [sc.units[u].kind for u in uids]
    if any(not k.is_combat for k in kinds):
        return "5.3: only combat units fight; leaders join under 10.3"
    if len(set(uids)) != len(uids):
        return "5.3: a unit is named twice"
    if len(kinds) <= len(_PLACES) and any(
        all(k in place for k, place in zip(kinds, order)) for order in permutations(_PLACES, len(kinds))
    ):
        return None
    return "5.3: one artillery unit, one battalion or squadron and any one other combat unit may fight from a hex"
