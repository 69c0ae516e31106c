"""Victory in the Standard rules (seed 002 3.1, 18.0; rulings S19, S68, S69): the scenario's decisive conditions and
18.3's victory points, over the kernel's objectives and sudden death (kernel/victory.py).

* `instant` conditions are tested at the end of each game turn (the Game Turn marker phase, phases.turn_marker),
  `conditions` after the last: the first listed that holds wins (18.1, 18.2).  A decisive condition beats points.
* Otherwise the game is won on points (18.3, `casualty_points`): per enemy unit destroyed (11.2's failed extra check,
  status `dead`), leader casualty (10.3, a leader `dead`), unit, leader or trains captured and HQ captured (status
  `captured`); eliminated steps, eliminated units that may still recover and units on the TRT score nothing
  (S68).  The greater total wins unless it is under the threshold: a draw.  Without `casualty_points` the kernel's
  schedule counts (S19).
* What the tests need is tracked in `GameState.extra`, only when the scenario uses the test: `entered` (hex -> the
  side of the last combat unit to enter it: a move, march, charge, retreat, advance, fortune of war's move or
  placement, the hexes moved through included) and `trains_disturbed` (trains that moved or were attacked).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ..kernel import victory as _kernel
from ..kernel.hexes import hexside_key
from ..kernel.model import Objective
from ..kernel.state import STATUS_CAPTURED, STATUS_DEAD, STATUS_MAP, STATUS_OFFBOARD
from .movement import printed_side
from .scenario import Kind
from .sight import has_los
from .victory_rules import CasualtyPoints, Condition, Test, where_words

if TYPE_CHECKING:
    from .context import StdCtx
    from .scenario import StandardScenario

CATEGORIES = ("destroyed", "leader_casualty", "captured", "leader_captured", "trains_captured", "hq_captured")
CATEGORY_WORDS = {"destroyed": "units destroyed (11.2)", "leader_casualty": "leader casualties (10.3)",
                  "captured": "units captured", "leader_captured": "leaders captured",
                  "trains_captured": "trains captured (12.2)", "hq_captured": "HQ captured (12.1)",
                  "objectives": "objectives held"}


# --- tracking (S68) ------------------------------------------------------------------------------------------------
def initial_extra(sc: StandardScenario, placed: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """The state's trackers at set-up: a combat unit set up in a tracked hex counts as its last to enter."""
    rules = sc.victory_rules
    out: dict[str, Any] = {}
    hexes = rules.entry_hexes
    if hexes:
        entered: dict[str, str] = {}
        for uid, h in placed:
            if h in hexes and sc.units[uid].kind.is_combat:
                entered[h] = sc.units[uid].side
        out["entered"] = entered
    if rules.tracks_trains:
        out["trains_disturbed"] = []
    return out


def note_trains(ctx: StdCtx, uid: str) -> None:
    """18.2 'the trains have not moved or been attacked': this trains has (S68)."""
    seen = ctx.x.get("trains_disturbed")
    if seen is not None and uid not in seen and ctx.kind(uid) is Kind.TRAINS:
        seen.append(uid)
        seen.sort()


def track(ctx: StdCtx) -> None:
    """After every command: a trains that moved (4.1, 12.2) or is gone from the map counts as disturbed."""
    if "trains_disturbed" not in ctx.x:
        return
    for uid in ctx.sc.trains.values():
        s = ctx.st.units[uid]
        if s.moved or s.status not in (STATUS_MAP, STATUS_OFFBOARD):
            note_trains(ctx, uid)


# --- the tests (S68) -----------------------------------------------------------------------------------------------
def _artillery_in_range(ctx: StdCtx, side: str, t: Test) -> list[str]:
    """18.1: the side's artillery units on the map whose range (8.7, a hill's extra hex) reaches the hex, whatever
    the light or the rain (S68); with `los`, also 8.6's line of sight by terrain."""
    assert t.hex is not None
    out = []
    for uid in ctx.sc.side_units[side]:
        s = ctx.st.units[uid]
        if ctx.kind(uid) is not Kind.ARTILLERY or not s.on_map or s.hex is None:
            continue
        reach = printed_side(ctx.sc, s).range + (1 if ctx.sc.terrain_at(s.hex).hill else 0)
        if reach > 0 and ctx.sc.grid.distance(s.hex, t.hex) <= reach and (not t.los or has_los(ctx, s.hex, t.hex)):
            out.append(uid)
    return out


def _trains(ctx: StdCtx, side: str, t: Test) -> list[str]:
    return sorted(u for army, u in ctx.sc.trains.items()
                  if ctx.side_of(u) == side and (t.army is None or army == t.army))


def in_area(sc: StandardScenario, t: Test, h: str) -> bool:
    """no_enemy_in: the hex is listed, or of a listed terrain or secondary terrain, or beside a listed hexside."""
    if h in t.hexes or sc.terrain_at(h).id in t.terrain:
        return True
    if t.secondary and any(x.id in t.secondary for x in sc.secondary_at(h)):
        return True
    return bool(t.hexside) and any(
        sc.hexsides.get(hexside_key(h, n), frozenset()) & t.hexside for n in sc.grid.neighbors(h))


def _intruders(ctx: StdCtx, side: str, t: Test) -> list[str]:
    out = []
    for uid in ctx.sc.side_units[ctx.enemy(side)]:
        s = ctx.st.units[uid]
        if s.on_map and s.hex is not None and ctx.kind(uid).is_combat and in_area(ctx.sc, t, s.hex):
            out.append(uid)
    return out


def leaf_state(ctx: StdCtx, side: str, t: Test, enemy_won: bool) -> tuple[bool, str]:
    """(holds, the state in words) of one leaf test for `side`."""
    sc = ctx.sc
    if t.op == "enemy_not_won":
        return not enemy_won, f"{sc.sides[ctx.enemy(side)].name} has {'won' if enemy_won else 'not won'}"
    if t.op == "last_to_enter":
        who = ctx.x.get("entered", {}).get(t.hex)
        return who == side, f"Last to enter {t.hex}: {sc.sides[who].name if who else 'nobody'}"
    if t.op == "artillery_in_range":
        guns = _artillery_in_range(ctx, side, t)
        return bool(guns), f"{sc.sides[side].name} artillery in range of {t.hex}: " + (
            ctx.names(guns) if guns else "none")
    if t.op == "trains_unmoved":
        trains = _trains(ctx, side, t)
        seen = set(ctx.x.get("trains_disturbed", []))
        ok = bool(trains) and all(u not in seen and ctx.st.units[u].on_map for u in trains)
        return ok, f"{sc.sides[side].name} trains unmoved and unattacked: {'yes' if ok else 'no'}"
    units = _intruders(ctx, side, t)
    where = where_words(t)
    if not units:
        return True, f"No {sc.sides[ctx.enemy(side)].name} unit in {where}: yes"
    at = sorted({ctx.st.units[u].hex or "" for u in units})
    return False, f"No {sc.sides[ctx.enemy(side)].name} unit in {where}: no ({', '.join(at)})"


def _holds(ctx: StdCtx, side: str, t: Test, enemy_won: bool, out: list[dict[str, Any]]) -> bool:
    if t.op in ("all", "any"):
        got = [_holds(ctx, side, p, enemy_won, out) for p in t.parts]  # every leaf, for the panel
        return all(got) if t.op == "all" else any(got)
    held, text = leaf_state(ctx, side, t, enemy_won)
    out.append({"test": t.op, "held": held, "text": text})
    return held


def judge(ctx: StdCtx, conds: Sequence[Condition]) -> list[dict[str, Any]]:
    """Each condition with whether it holds now and each test's state; a side's `enemy_not_won` reads the other
    side's conditions of the same list, judged first (victory_rules refuses a circle)."""
    waits = {c.side for c in conds if any(t.op == "enemy_not_won" for t in c.when.leaves())}
    order = sorted(range(len(conds)), key=lambda i: conds[i].side in waits)
    won: set[str] = set()
    out: list[dict[str, Any] | None] = [None] * len(conds)
    for i in order:
        c = conds[i]
        tests: list[dict[str, Any]] = []
        held = _holds(ctx, c.side, c.when, ctx.enemy(c.side) in won, tests)
        if held:
            won.add(c.side)
        out[i] = {"side": c.side, "text": c.text, "rule": c.rule, "held": held, "tests": tests}
    return [o for o in out if o is not None]


def _won(judged: list[dict[str, Any]]) -> dict[str, Any] | None:
    return next((j for j in judged if j["held"]), None)


# --- 18.3 points ---------------------------------------------------------------------------------------------------
def breakdown(ctx: StdCtx, pts: CasualtyPoints) -> dict[str, dict[str, dict[str, int]]]:
    """Per side, per category: {count, points} of what it has done to the enemy (S68)."""
    out: dict[str, dict[str, dict[str, int]]] = {s: {} for s in ctx.sc.side_order}
    for uid, s in ctx.st.units.items():
        if s.status not in (STATUS_DEAD, STATUS_CAPTURED):
            continue
        kind = ctx.kind(uid)
        cat = _category(kind, s.status == STATUS_CAPTURED)
        if cat is None:
            continue
        line = out[ctx.enemy(ctx.side_of(uid))].setdefault(cat, {"count": 0, "points": 0})
        line["count"] += 1
        line["points"] += getattr(pts, cat)
    for side, held in _kernel.objective_points(ctx).items():
        if held:
            out[side]["objectives"] = {"count": 1, "points": held}
    return out


def _category(kind: Kind, captured: bool) -> str | None:
    if captured:
        return {Kind.LEADER: "leader_captured", Kind.TRAINS: "trains_captured", Kind.HQ: "hq_captured"}.get(
            kind, "captured")
    if kind is Kind.LEADER:
        return "leader_casualty"
    return "destroyed" if kind.is_combat else None


def points(ctx: StdCtx) -> dict[str, int]:
    """The victory points so far: 18.3's when the scenario gives them, else the kernel's schedule (S19)."""
    pts = ctx.sc.victory_rules.points
    if pts is None:
        return _kernel.points(ctx, returning_lost=False)
    return {s: sum(line["points"] for line in lines.values()) for s, lines in breakdown(ctx, pts).items()}


def _on_points(ctx: StdCtx, pts: CasualtyPoints) -> dict[str, Any]:
    """18.3: the greater total wins; a lead under the draw margin, or a winner under the threshold, draws."""
    total = points(ctx)
    a, b = ctx.sc.side_order
    score = f"{ctx.sc.sides[a].name} {total[a]}, {ctx.sc.sides[b].name} {total[b]}"
    lead = total[a] - total[b]
    base = {"points": total, "turn": ctx.st.turn, "breakdown": breakdown(ctx, pts), "decided_by": "points"}
    if abs(lead) < ctx.sc.victory.draw_margin:
        return {**base, "winner": None, "reason": f"18.3: the battle is drawn on points ({score})"}
    winner = a if lead > 0 else b
    if total[winner] < pts.threshold:
        return {**base, "winner": None, "reason": f"18.3: {ctx.sc.sides[winner].name} leads on points but has fewer "
                                                  f"than {pts.threshold}: the battle is a draw ({score})"}
    return {**base, "winner": winner, "reason": f"18.3: {ctx.sc.sides[winner].name} wins on points ({score})"}


def _by_condition(ctx: StdCtx, held: dict[str, Any], judged: list[dict[str, Any]], when: str) -> dict[str, Any]:
    side = held["side"]
    pts = ctx.sc.victory_rules.points
    extra = {"breakdown": breakdown(ctx, pts)} if pts is not None else {}
    return {"winner": side, "reason": f"{held['rule']}: {ctx.sc.sides[side].name} wins {when}: {held['text']}",
            "points": points(ctx), "turn": ctx.st.turn, "decided_by": "condition", "conditions": judged, **extra}


# --- the Game Turn marker phase --------------------------------------------------------------------------------------
def instant_result(ctx: StdCtx) -> dict[str, Any] | None:
    """3.2: at the end of each game turn, the kernel's sudden death, then the scenario's instant conditions."""
    sd = _kernel.sudden_death(ctx, returning_lost=False)
    if sd is not None:
        return sd
    conds = ctx.sc.victory_rules.instant
    if not conds:
        return None
    judged = judge(ctx, conds)
    held = _won(judged)
    return None if held is None else _by_condition(ctx, held, judged, f"at the end of turn {ctx.st.turn}")


def final_result(ctx: StdCtx) -> dict[str, Any]:
    """3.1: after the last game turn: the first end condition that holds (18.1, 18.2), otherwise points (18.3)."""
    rules = ctx.sc.victory_rules
    if not rules.used:
        return _kernel.final_result(ctx, returning_lost=False)  # S19: as it always was
    judged = judge(ctx, rules.conditions)
    held = _won(judged)
    if held is not None:
        return _by_condition(ctx, held, judged, "at the end of the battle")
    if rules.points is None:
        result = {**_kernel.final_result(ctx, returning_lost=False), "decided_by": "points"}
    else:
        result = _on_points(ctx, rules.points)
    return {**result, **({"conditions": judged} if judged else {})}


# --- the bots' evaluation (server/bots/evaluate.py, through the edition's hooks) -------------------------------------
BOT_CONDITION_POINTS = 10  # a decisive condition's hex weighs as much as 18.3's threshold


def bot_objectives(sc: StandardScenario) -> tuple[Objective, ...]:
    """The scenario's objectives and, as objectives the bots play toward, each condition's hexes: a side's
    last_to_enter and artillery_in_range hexes for that side; a no_enemy_in area's hexes for the enemy (a denial
    weighs against its defender), the condition's weight shared among them."""
    rules = sc.victory_rules
    if not (rules.conditions or rules.instant):
        return sc.victory.objectives
    out = list(sc.victory.objectives)
    for c in (*rules.conditions, *rules.instant):
        for t in c.when.leaves():
            if t.op in ("last_to_enter", "artillery_in_range") and t.hex is not None:
                out.append(Objective(t.hex, t.hex, BOT_CONDITION_POINTS, None, c.side))
            elif t.op == "no_enemy_in":
                area = [h for h in sc.grid.all_hexes() if in_area(sc, t, h)]
                enemy = sc.opponent(c.side)
                out += [Objective(h, h, max(1, BOT_CONDITION_POINTS // len(area)), None, enemy) for h in area]
    return tuple(out)


def loss_points(ctx: StdCtx) -> dict[str, int] | None:
    """18.3's points from enemy losses alone (None without casualty_points: the kernel's schedule)."""
    pts = ctx.sc.victory_rules.points
    if pts is None:
        return None
    return {s: sum(v["points"] for k, v in lines.items() if k != "objectives") for s, lines in breakdown(ctx, pts).items()}


def view(ctx: StdCtx) -> dict[str, Any]:
    """The panel's victory box: each condition's state now and the points so far with their breakdown."""
    rules = ctx.sc.victory_rules
    out: dict[str, Any] = {"conditions": judge(ctx, rules.conditions), "instant": judge(ctx, rules.instant)}
    if rules.points is not None:
        out["breakdown"] = breakdown(ctx, rules.points)
        out["threshold"] = rules.points.threshold
    return out
