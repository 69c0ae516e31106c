"""19.8 C the hidden movement markers' commands in the owner's movement phase (docs/commands.md):

* `hm_declare {marker, march?}`: with the owner's army HQ inactive (12.1) the marker rolls for its MA as 4.4 rolls
  for a unit's (one die, at most the infantry MA; marching one die + 3, 4.7); the roll waits for the `hm_move`.
* `hm_move {marker, path, march?}`: the marker moves like infantry (the scenario's infantry and march MA, 4.2-4.7,
  19.4's Heavy Rain cap), never through a combat unit's, trains' or another marker's hex (leaders and HQs do not
  count), never into a hex an enemy unit sees (19.8 D).  A declared marker may stay: `path` its own hex alone.
* `hm_reveal {marker}`: at the beginning of the owner's movement phase, with the army HQ active, the owner reveals
  the marker's box (hidden.reveal_box, 19.8 E's deployment follows).
"""

from __future__ import annotations

import heapq
from itertools import pairwise
from typing import Any

from ..kernel import hidden as kh
from ..kernel.errors import IllegalCommand
from ..kernel.game import check_fields
from ..kernel.state import PHASE_MOVEMENT
from .context import StdCtx
from .hidden import exposed, observers, reveal_box
from .movement import HALF, MARCH_ROLL, step_cost
from .weather import mp_cap, mp_refusal

RULE = "19.8 C"


def hq_inactive(ctx: StdCtx, side: str) -> bool:
    """12.1: the side's army HQ is inactive (or gone): its markers roll for their MA."""
    hqs = [h for h in ctx.sc.hq.values() if ctx.side_of(h) == side]
    return any(h in ctx.inactive() or not ctx.on_map(h) for h in hqs)


def _marker(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> str:
    mid = cmd.get("marker")
    if not isinstance(mid, str) or mid not in kh.markers(ctx.st):
        raise IllegalCommand(RULE, "name one of the hidden movement markers on the map")
    if kh.owner(ctx.st) != side:
        raise IllegalCommand(RULE, "the markers are moved and revealed by their owner")
    if ctx.st.phase != PHASE_MOVEMENT or ctx.st.active != side:
        raise IllegalCommand("4.1", "markers move only in their owner's movement phase")
    if ctx.x.get("declared"):
        raise IllegalCommand("4.4", "first carry out the declared move")
    return mid


def _march(cmd: dict[str, Any]) -> bool:
    march = cmd.get("march", False)
    if not isinstance(march, bool):
        raise IllegalCommand("4.7", "'march' is true or false")
    return march


def marker_ma(ctx: StdCtx, march: bool) -> int:
    hm = ctx.sc.hidden_movement
    assert hm is not None
    return hm.march_ma if march else hm.ma


def step(ctx: StdCtx, side: str, a: str, b: str, spent: int, march: bool, blocked: set[str],
         seers: list[str], ezoc: frozenset[str]) -> tuple[int, str] | tuple[None, str]:
    """One step of a marker: (the half MP spent after it, "") or (None, why not)."""
    sc = ctx.sc
    if not sc.grid.is_adjacent(a, b):
        return None, f"{a} to {b} is not a step between adjacent hexes"
    if b in blocked:
        return None, f"a marker never stacks with combat units, trains or another marker ({b})"
    if ctx.enemy_occupied(b, side):
        return None, f"{b} is occupied by the enemy"
    if march and (b in ezoc or any(n in ezoc for n in sc.grid.neighbors(b))):
        return None, f"4.7: {b} is in or next to an enemy zone of control: no march movement there"
    c = step_cost(sc, "infantry", a, b, marching=march, into_ezoc=False, crowded=False)
    if c is None:
        return None, f"{b}: prohibited terrain or hexside for infantry{' marching' if march else ''}"
    seer = exposed(ctx, b, side, seers)
    if seer is not None:
        return None, f"19.8 C: {b} is in sight of the enemy at {seer}: the marker would be revealed"
    extra = 1 if c.by != "road" and spent % HALF else 0
    return spent + extra + c.halves, ""


def _blocked(ctx: StdCtx, side: str, mid: str) -> set[str]:
    out = set(kh.marker_hexes(ctx.st, excluding=mid))
    for h, us in ctx.occupancy().items():
        if any(ctx.kind(u).is_combat or ctx.kind(u).value == "trains" for u in us):
            out.add(h)
    return out


def check_path(ctx: StdCtx, side: str, mid: str, path: list[str], ma: int, march: bool) -> int:
    here = kh.markers(ctx.st)[mid]["hex"]
    if not path or path[0] != here or any(h not in ctx.sc.grid for h in path):
        raise IllegalCommand("4.2", f"the path must start at the marker's hex {here}")
    if len(set(path)) != len(path):
        raise IllegalCommand("4.2", "the path enters a hex twice")
    blocked = _blocked(ctx, side, mid)
    seers = observers(ctx, side)
    ezoc = ctx.zoc_of(ctx.enemy(side))
    if march and (here in ezoc or any(n in ezoc for n in ctx.sc.grid.neighbors(here))):
        raise IllegalCommand("4.7", f"{here} is in or next to an enemy zone of control: no march movement")
    spent = 0
    for a, b in pairwise(path):
        got, why = step(ctx, side, a, b, spent, march, blocked, seers, ezoc)
        if got is None:
            rule, _, text = why.partition(": ")
            raise IllegalCommand(rule if text else RULE, text or why)
        spent = got
        if spent > ma * HALF:
            raise IllegalCommand("4.3", f"entering {b} needs {spent / HALF:g} MP; the marker has {ma}")
    cap = mp_cap(ctx.weather())
    if cap is not None and spent > cap * HALF:
        raise IllegalCommand("19.4", mp_refusal(spent / HALF))
    return spent


def reachable(ctx: StdCtx, side: str, mid: str, ma: int, march: bool) -> dict[str, list[str]]:
    """Destination -> the cheapest legal path for the marker with `ma` MP (the bots' and the page's)."""
    start = kh.markers(ctx.st)[mid]["hex"]
    blocked = _blocked(ctx, side, mid)
    seers = observers(ctx, side)
    ezoc = ctx.zoc_of(ctx.enemy(side))
    budget = ma * HALF
    cap = mp_cap(ctx.weather())
    if cap is not None:
        budget = min(budget, cap * HALF)
    best: dict[str, int] = {}
    found: dict[str, list[str]] = {}
    heap: list[tuple[int, str, list[str]]] = [(0, start, [start])]
    while heap:
        spent, here, path = heapq.heappop(heap)
        if best.get(here, 10**9) <= spent:
            continue
        best[here] = spent
        if len(path) > 1:
            found.setdefault(here, path)
        for n in ctx.sc.grid.neighbors(here):
            if n in path:
                continue
            got, _ = step(ctx, side, here, n, spent, march, blocked, seers, ezoc)
            if got is not None and got <= budget:
                heapq.heappush(heap, (got, n, path + [n]))
    return dict(sorted(found.items()))


def cmd_hm_declare(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"marker": "id"}, {})
    mid = _marker(ctx, side, cmd)
    march = _march(cmd)
    if kh.markers(ctx.st)[mid]["moved"]:
        raise IllegalCommand("4.2", f"{mid} has moved this phase")
    if not hq_inactive(ctx, side):
        raise IllegalCommand("4.4", "with the army HQ active the marker moves with its MA: move it without declaring")
    if ctx.x.get("hm_declared"):
        raise IllegalCommand("4.4", "first carry out the declared marker move")
    (die,) = ctx.roll(1, "movement allowance", ["MA die"], "19.8 C", marker=mid)
    ma = die + MARCH_ROLL["infantry"][1] if march else min(die, marker_ma(ctx, False))
    ctx.x["hm_declared"] = {"marker": mid, "ma": ma, "march": march}
    ctx.emit("ma", f"19.8 C, 12.1: {mid} rolls for its MA (the army HQ is inactive): {ma} MP", marker=mid, ma=ma,
             rule="19.8 C")


def cmd_hm_move(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"marker": "id"}, {})
    mid = _marker(ctx, side, cmd)
    path = cmd.get("path")
    if not isinstance(path, list) or not all(isinstance(h, str) for h in path):
        raise IllegalCommand("4.2", "the move needs its path: a list of hex ids")
    march = _march(cmd)
    m = kh.markers(ctx.st)[mid]
    if m["moved"]:
        raise IllegalCommand("4.2", f"{mid} has moved this phase")
    declared = ctx.x.get("hm_declared")
    if declared and declared["marker"] != mid:
        raise IllegalCommand("4.4", f"first carry out the declared move of {declared['marker']}")
    if declared:
        ma, march = int(declared["ma"]), bool(declared["march"])
        if path == [m["hex"]]:
            m["moved"] = True
            ctx.x["hm_declared"] = None
            ctx.st.any_moved = True
            ctx.emit("stay", f"4.4: {mid} stays where it is", marker=mid, rule="4.4")
            return
    elif hq_inactive(ctx, side):
        raise IllegalCommand("4.4", "the army HQ is inactive: the marker's MA must be rolled first (declare the move)")
    else:
        ma = marker_ma(ctx, march)
    spent = check_path(ctx, side, mid, path, ma, march)
    if len(path) < 2:
        raise IllegalCommand("4.2", "the path must enter at least one hex")
    kh.move_marker(ctx.st, mid, path[-1])
    ctx.x["hm_declared"] = None
    ctx.st.any_moved = True
    ctx.emit("hm_move", f"19.8 C: marker {mid}{' marching' if march else ''} moves to {path[-1]} ({spent / HALF:g} MP)",
             marker=mid, path=list(path), rule="19.8 C")


def reveal_problem(ctx: StdCtx, side: str, mid: str) -> str | None:
    if ctx.st.any_moved:
        return "a box is revealed at the beginning of the movement phase, before anything moves"
    if hq_inactive(ctx, side):
        return "a box is revealed voluntarily only while the army HQ is active"
    return None


def cmd_hm_reveal(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    check_fields(cmd, {"marker": "id"}, {})
    mid = _marker(ctx, side, cmd)
    why = reveal_problem(ctx, side, mid)
    if why:
        raise IllegalCommand(RULE, why)
    reveal_box(ctx, kh.box_of(ctx.st, mid), "revealed by its owner")




def marker_first(handler: Any) -> Any:
    """4.4 with 19.8 C: a marker's declared move (its MA rolled) is carried out before the owner's other commands in
    the phase, as a declared unit move is (moving.py)."""
    def gated(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
        d = ctx.x.get("hm_declared")
        if d and ctx.st.phase == PHASE_MOVEMENT and ctx.st.active == side:
            raise IllegalCommand("4.4", f"first carry out the declared move of marker {d['marker']} (or let it stay)")
        handler(ctx, side, cmd)
    return gated


def marker_commands(ctx: StdCtx, side: str, rng: Any, per_marker: int = 3) -> list[dict[str, Any]]:
    """The bots' marker commands (legal.py): a declared marker's moves or stay; each unmoved marker's declaration
    or a few of its moves; at the beginning of the phase with the HQ active, one reveal per box."""
    if kh.owner(ctx.st) != side or ctx.st.phase != PHASE_MOVEMENT or ctx.st.active != side or ctx.x.get("declared"):
        return []
    ms = kh.markers(ctx.st)
    declared = ctx.x.get("hm_declared")
    if declared:
        mid = declared["marker"]
        dests = list(reachable(ctx, side, mid, int(declared["ma"]), bool(declared["march"])).items())
        rng.shuffle(dests)
        return [{"type": "hm_move", "marker": mid, "path": [ms[mid]["hex"]]}] + [
            {"type": "hm_move", "marker": mid, "path": p} for _, p in dests[:per_marker]]
    out: list[dict[str, Any]] = []
    inactive = hq_inactive(ctx, side)
    for mid in sorted(ms):
        if ms[mid]["moved"]:
            continue
        if inactive:
            out.append({"type": "hm_declare", "marker": mid})
            continue
        dests = list(reachable(ctx, side, mid, marker_ma(ctx, False), False).items())
        rng.shuffle(dests)
        out.extend({"type": "hm_move", "marker": mid, "path": p} for _, p in dests[:per_marker])
    if not ctx.st.any_moved and not inactive:
        boxes = sorted({m["box"] for m in ms.values()})
        out.extend({"type": "hm_reveal", "marker": kh.box_markers(ctx.st, b)[0]} for b in boxes)
    return out




def marker_options(ctx: StdCtx, side: str, mids: list[str]) -> dict[str, Any]:
    """The page's options for the owner's selected markers: where each may move (normal and marching: destination ->
    path), whether its MA must be rolled first (`declare`), and whether its box may be revealed now (`reveal`)."""
    out: dict[str, Any] = {}
    ms = kh.markers(ctx.st)
    if kh.owner(ctx.st) != side or ctx.st.phase != PHASE_MOVEMENT or ctx.st.active != side:
        return out
    declared = ctx.x.get("hm_declared")
    inactive = hq_inactive(ctx, side)
    for mid in mids:
        if mid not in ms:
            continue
        item: dict[str, Any] = {"moved": bool(ms[mid]["moved"]), "reveal": reveal_problem(ctx, side, mid) is None}
        if ms[mid]["moved"] or ctx.x.get("declared") or (declared and declared["marker"] != mid):
            out[mid] = item
            continue
        if declared:
            key = "march" if declared["march"] else "normal"
            item[key] = reachable(ctx, side, mid, int(declared["ma"]), bool(declared["march"]))
            item["declared"] = declared
        elif inactive:
            item["declare"] = True
        else:
            item["normal"] = reachable(ctx, side, mid, marker_ma(ctx, False), False)
            item["march"] = reachable(ctx, side, mid, marker_ma(ctx, True), True)
        out[mid] = item
    return out


__all__ = [
    "check_path",
    "cmd_hm_declare",
    "cmd_hm_move",
    "cmd_hm_reveal",
    "hq_inactive",
    "marker_commands",
    "marker_first",
    "marker_ma",
    "marker_options",
    "reachable",
    "reveal_problem",
]
