"""The bots' operational plan on a large Standard rules battlefield (`Edition.bot_plan`; heuristics, never rules).

The bots' evaluation (server/bots/evaluate.py) pulls a side toward an objective by its nearest unit's hex distance,
`1/(1 + d)`: on a small field that is enough, on Königgrätz's 55×30 map (issue 40) the pull from 20 hexes away is a
few hundredths of a point per hex and only the nearest unit feels it, so the greedy Prussians came on by 17.4's
roads and stood. The plan adds two terms, both from what both players see (the map, the TEC, 18.x's conditions):

* **march**: for each side that scores objectives (`victory.bot_objectives`: its last-to-enter and
  artillery-in-range hexes, the enemy's no-enemy-in areas it can break) and each TEC class, every hex's cost in
  MP (4.5's terrain and hexsides, 4.6's paths, no EZOC: the map alone) to the nearest of them, precomputed once per
  scenario. The evaluation charges each of the side's combat units that cost over its MA (turns of marching), less
  MARCH_FREE MP: the last stretch, within about a turn of an objective, is the tactical terms' to judge.
* **breach**: an enemy's 18.2-style condition that holds only while none of the side's units stands in an area (the
  works' `no_enemy_in`) is worth BOT_CONDITION_POINTS to the side while one does, whichever hex: one unit in the
  works turns a lost battle into 18.3's points.

Only where the field is large: a side gets a march only when the hexes it starts in or enters by (17.2's set-up,
13.1/17.4's entry hexes) are on average more than MARCH_FAR MP from its nearest objective (Königgrätz's Prussians:
19; the Swiepwald battle's Austrians, the farthest side there, 13); a scenario where no side has one has no
plan, and its bots play as before (the Swiepwald battle's 20×15 map, `standard-1866`, has none:
tests/rules/standard/test_botplan.py).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping

from ..kernel.model import BotPlan
from .movement import HALF, step_cost
from .scenario import StandardScenario
from .victory import BOT_CONDITION_POINTS, bot_objectives, in_area

TEC_CLASSES = ("infantry", "cavalry", "artillery")
MARCH_FAR = 16  # MP: a side whose units start or enter farther than this from its objectives on average marches
MARCH_FREE = 4  # MP: within this of an objective the march charges nothing (the tactical terms decide)


def march_costs(sc: StandardScenario, tec_class: str, targets: Iterable[str]) -> dict[str, float]:
    """Each hex's least MP to reach any of `targets` moving as `tec_class` (4.5, 4.6; no march, no EZOC): a
    Dijkstra search outward from the targets over each step's cost into the hex nearer them."""
    grid = sc.grid
    dist: dict[str, float] = {}
    heap = [(0.0, t) for t in sorted(set(targets))]
    heapq.heapify(heap)
    while heap:
        d, b = heapq.heappop(heap)
        if b in dist:
            continue
        dist[b] = d
        for a in grid.neighbors(b):
            if a in dist:
                continue
            c = step_cost(sc, tec_class, a, b, marching=False, into_ezoc=False, crowded=False)
            if c is not None:
                heapq.heappush(heap, (d + c.halves / HALF, a))
    return dist


def _starts(sc: StandardScenario, side: str) -> set[str]:
    """Where the side's units begin: their set-up hexes, their arrivals' listed hexes and the side's entry hexes."""
    out = {p.hex for p in sc.setup if sc.units[p.unit].side == side}
    for r in sc.reinforcements:
        if sc.units[r.unit].side == side:
            out.add(r.hex)
            out.update(r.hexes)
    s = sc.sides.get(side)
    if s is not None:
        out.update(s.entry_hexes)
        out.update(s.entry_points.values())
    return {h for h in out if h in sc.grid}


def bot_plan(sc: StandardScenario) -> BotPlan | None:
    rules = sc.victory_rules
    if not (rules.conditions or rules.instant):
        return None
    objectives = bot_objectives(sc)
    march: dict[str, Mapping[str, Mapping[str, float]]] = {}
    for side in sc.side_order:
        targets = {o.hex for o in objectives if o.scorer == side}
        if not targets:
            continue
        tables = {c: march_costs(sc, c, targets) for c in TEC_CLASSES}
        inf = tables["infantry"]
        starts = [inf.get(h, 0.0) for h in _starts(sc, side)]
        if not starts or sum(starts) / len(starts) <= MARCH_FAR:
            continue  # a small field: the evaluation's own objective term is enough
        march[side] = {c: {h: max(0.0, v - MARCH_FREE) for h, v in t.items()} for c, t in tables.items()}
    if not march:
        return None
    breach = []
    for c in (*rules.conditions, *rules.instant):
        enemy = sc.opponent(c.side)
        if enemy not in march:
            continue
        for t in c.when.leaves():
            if t.op == "no_enemy_in":
                area = frozenset(h for h in sc.grid.all_hexes() if in_area(sc, t, h))
                if area:
                    breach.append((enemy, area, float(BOT_CONDITION_POINTS)))
    return BotPlan(march, tuple(breach))
