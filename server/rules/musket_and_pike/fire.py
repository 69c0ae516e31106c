"""Fire (10.0-10.8, R17.60-R17.67): who may fire at what, every table with its printed modifiers, the results and
the morale checks they cause. Each fire emits one `fire` event naming the table, the column, every modifier, the die,
the row read and the result, so the page can explain it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..kernel.errors import IllegalCommand
from ..kernel.facing import Arc
from ..kernel.los import sight_line
from .context import MPCtx
from .losses import add_cp, formation_hit, leader_casualty, morale_check
from .tables import (
    CMD,
    FLANK,
    FRONT,
    GENTLE,
    PISTOL,
    SALVO,
    TABLE_ART,
    TABLE_HI,
    TABLE_LIGHT,
    Condition,
    FireResult,
    Kind,
    Mode,
    Morale,
    Terrain,
    art_result,
    casualty_threshold,
    hi_result,
    light_result,
    range_modifier,
)

SKIRMISH, ADVANCING, RETREATING, REACTION = "skirmishing", "advancing", "retreating", "reaction"
KIND_RULE = {SKIRMISH: "R17.62", ADVANCING: "10.3.2", RETREATING: "10.3.4", REACTION: "R17.62", SALVO: "10.4"}


@dataclass
class Shot:
    """One fire judged: the table and column it reads and every modifier (label, value, rule)."""

    table: str
    column: str
    modifiers: list[dict[str, Any]] = field(default_factory=list)
    regimental: bool = False  # the HI Musketry Table's "with Regimental Artillery" half

    def add(self, label: str, value: int, rule: str) -> None:
        if value:
            self.modifiers.append({"label": label, "value": value, "rule": rule})

    @property
    def total(self) -> int:
        return sum(int(m["value"]) for m in self.modifiers)


def entry_side(ctx: MPCtx, firer_hex: str, target_hex: str) -> Terrain | None:
    """R17.63: the hexside through which the line of fire enters the target hex (along a vertex, the one that helps
    the target more, designed: M4 in docs/rulings.md)."""
    sc = ctx.sc
    if sc.grid.is_adjacent(firer_hex, target_hex):
        return sc.side_terrain(firer_hex, target_hex)
    line = sight_line(sc.grid, firer_hex, target_hex)
    cands: list[Terrain] = []
    for a, b in line.crossed:
        if target_hex in (a, b):
            other = a if b == target_hex else b
            t = sc.side_terrain(other, target_hex)
            if t is not None:
                cands.append(t)
    for x, y in line.along:
        if y is not None and target_hex in (x, y):
            t = sc.side_terrain(x if y == target_hex else y, target_hex)
            if t is not None:
                cands.append(t)
    if not cands:
        return None
    return min(cands, key=lambda t: (t.fire or 0, t.name))


def fire_kind(ctx: MPCtx, uid: str, salvo: bool, reaction: str | None = None) -> str:
    if reaction is not None:
        return reaction
    if salvo:
        return SALVO
    return ADVANCING if ctx.st.units[uid].moved else SKIRMISH


def judge(ctx: MPCtx, uid: str, target: str, kind: str) -> Shot:
    """R17.61-R17.64: refuse a fire the card does not allow; otherwise the table, column and modifiers it reads."""
    sc = ctx.sc
    d = ctx.d(uid)
    if not ctx.on_map(uid) or d.kind is Kind.LEADER:
        raise IllegalCommand("R17.61", "fire with a unit on the map")
    if target not in sc.units or not ctx.on_map(target) or ctx.is_leader(target) or \
            ctx.side_of(target) == ctx.side_of(uid):
        raise IllegalCommand("R17.61", "the target is one enemy unit on the map")
    if ctx.broken(uid):
        raise IllegalCommand("R17.74", f"{ctx.says(uid)} is Morale Broken and cannot fire")
    if ctx.mode(uid) is Mode.COLUMN:
        raise IllegalCommand("R17.60", f"{ctx.says(uid)} is in Column and cannot fire")
    here, there = ctx.hex_of(uid), ctx.hex_of(target)
    dist = ctx.dist(here, there)
    arc = ctx.arc(uid, there)
    tt = sc.terrain(there)
    if tt.fire is None:
        raise IllegalCommand("R17.61", f"a unit in {tt.name} cannot be fired at (TEC: NA)")
    if dist > 1 and not ctx.sees(here, there):
        raise IllegalCommand("R17.19", f"{ctx.says(uid)} has no line of sight to {there}")
    side_t = entry_side(ctx, here, there)
    if kind == SALVO:
        if d.kind is not Kind.HI:
            raise IllegalCommand("10.4", "only Heavy Infantry fires a Salvo")
        if ctx.info(uid).get("salvo"):
            raise IllegalCommand("10.4", f"{ctx.says(uid)} has a Salvo marker: no further Salvo until it Reforms")
        if dist != 1 or arc is not Arc.FRONT:
            raise IllegalCommand("10.4", "a Salvo is fired at an adjacent unit in the front arc")
    if d.kind is Kind.HI:
        if dist > 2:
            raise IllegalCommand("R17.61", "Heavy Infantry fires at range 1-2")
        if arc is Arc.REAR:
            raise IllegalCommand("R17.61", "Heavy Infantry fires at its front or flank arc")
        column = SALVO if kind == SALVO else FRONT if arc is Arc.FRONT else FLANK
        shot = Shot(TABLE_HI, column, regimental=d.regimental_artillery)
        shot.add("Formation Shaken or Open Order", -2 if _shaken_or_open(ctx, uid) else 0, "10.0")
        shot.add("Formation Broken", -3 if ctx.cond(uid) is Condition.BROKEN else 0, "10.0")
        if kind == REACTION and ctx.kind(target) is Kind.CAVALRY:
            shot.add("Reaction Fire vs. Moving Cavalry", -1, "R17.62")
        shot.add("Salvo marker", -1 if ctx.info(uid).get("salvo") else 0, "10.4")
        shot.add("Advancing or Retreating Fire", -3 if kind in (ADVANCING, RETREATING) else 0, KIND_RULE[kind])
        cp = ctx.cp(uid)
        shot.add("Casualty Points" + (" (two-hex unit: one per two)" if d.large else ""), -(cp // 2 if d.large else cp),
                 "10.0")
        _ngbg(ctx, shot, uid, -1, -3)
        _defender(ctx, shot, target, 1)
        _tec(ctx, shot, tt, side_t, artillery=False, musket=True, there=there, here=here)
        return shot
    if d.kind is Kind.LI:
        if dist > 2 or arc is not Arc.FRONT:
            raise IllegalCommand("R17.61", "Commanded Muskets and Dragoons fire at range 1-2 into the front arc")
        shot = Shot(TABLE_LIGHT, CMD)
        _light(ctx, shot, uid, kind)
        shot.add("each SP above 1", max(0, ctx.sp_now(uid) - 1), "10.0")
        _defender(ctx, shot, target, 1)
        _tec(ctx, shot, tt, side_t, artillery=False, musket=True, there=there, here=here)
        return shot
    if d.kind is Kind.CAVALRY:
        if dist != 1 or arc is not Arc.FRONT:
            raise IllegalCommand("R17.61", "cavalry fires its pistols at an adjacent unit in its front arc")
        if int(ctx.info(uid).get("pistols", 0)) <= 0:
            raise IllegalCommand("R17.61", f"{ctx.says(uid)} has no pistol shot left")
        shot = Shot(TABLE_LIGHT, PISTOL)
        _light(ctx, shot, uid, kind)
        sp = ctx.sp_now(uid)
        shot.add("each SP above 3", max(0, sp - 3), "10.0")
        shot.add("each SP below 3", -max(0, 3 - sp), "10.0")
        shot.add("Arquebusier", 1 if d.sub == "arquebusier" else 0, "10.0")
        _defender(ctx, shot, target, 1)
        _tec(ctx, shot, tt, side_t, artillery=False, musket=False, there=there, here=here)
        return shot
    # artillery (10.8)
    if ctx.st.units[uid].moved or kind in (ADVANCING, RETREATING):
        raise IllegalCommand("R17.61", "artillery fires only if it did not move this activation")
    if arc is not Arc.FRONT:
        raise IllegalCommand("R17.61", "artillery fires into its front arc")
    rng = range_modifier(d.calibre, dist)
    if rng is None:
        raise IllegalCommand("10.8.2", f"{dist} hexes is beyond {d.calibre} range (Artillery Range Chart: NA)")
    shot = Shot(TABLE_ART, f"{'Double ' if d.double else ''}{d.calibre}")
    shot.add("Target in Hedgehog or Column", 2 if ctx.mode(target) in (Mode.HEDGEHOG, Mode.COLUMN) else 0, "10.8")
    shot.add("Firing artillery Morale Shaken", -1 if ctx.morale(uid) is Morale.SHAKEN else 0, "10.8")
    shot.add(f"range {dist}", rng, "10.8.2")
    if dist >= 2 and _grazing(ctx, here, there):
        shot.add("Grazing Fire across a Gentle Slope", -1, "10.8.3")
    _tec(ctx, shot, tt, side_t, artillery=True, musket=False, there=there, here=here)
    return shot


def _shaken_or_open(ctx: MPCtx, uid: str) -> bool:
    return ctx.cond(uid) is Condition.SHAKEN or ctx.mode(uid) is Mode.OPEN_ORDER


def _light(ctx: MPCtx, shot: Shot, uid: str, kind: str) -> None:
    broken = ctx.cond(uid) is Condition.BROKEN
    shot.add("Formation Shaken or Open Order", -1 if _shaken_or_open(ctx, uid) and not broken else 0, "10.0")
    shot.add("Formation Broken", -2 if broken else 0, "10.0")
    shot.add("Advancing or Retreating Fire", -3 if kind in (ADVANCING, RETREATING) else 0, KIND_RULE[kind])
    if ctx.sc.battle == "halmstad":
        shot.add("NGBG: All firing at Halmstad", -1, "R17.9")


def _ngbg(ctx: MPCtx, shot: Shot, uid: str, halmstad: int, militia: int) -> None:
    if ctx.sc.battle == "halmstad":
        shot.add("NGBG: All firing at Halmstad", halmstad, "R17.9")
    if ctx.sc.battle == "landskrona" and ctx.d(uid).peasant_militia:
        shot.add("NGBG: Peasant Militia at Landskrona", militia, "R17.9")


def _defender(ctx: MPCtx, shot: Shot, target: str, value: int) -> None:
    mode = ctx.mode(target)
    shot.add("Defender in Hedgehog", value if mode is Mode.HEDGEHOG else 0, "10.0")
    shot.add("Defender in Column", value if mode is Mode.COLUMN else 0, "10.0")


def _tec(ctx: MPCtx, shot: Shot, tt: Terrain, side_t: Terrain | None, *, artillery: bool, musket: bool, there: str,
         here: str) -> None:
    """R17.63: the target hex's Fire value (§: non-artillery / artillery), a wagon's, and the entry hexside's (`@`:
    Down Steep Slope on the musket tables only)."""
    v = tt.fire_art if artillery else tt.fire
    shot.add(f"TEC: {tt.name.replace('_', ' ')}", int(v or 0), "TEC")
    if there in ctx.sc.wagons:
        shot.add("TEC: wagon in hex", -1, "TEC")
    if side_t is not None and side_t.name != GENTLE:
        if side_t.musket_only and not musket:
            return
        sv = side_t.fire_art if artillery else side_t.fire
        shot.add(f"TEC: {side_t.name.replace('_', ' ')} hexside", int(sv or 0), "TEC")


def _grazing(ctx: MPCtx, here: str, there: str) -> bool:
    """R17.67: a Gentle Slope hexside on the line that is not a hexside of the firer's hex."""
    line = sight_line(ctx.sc.grid, here, there)
    sides = [s for s in line.crossed] + [(a, b) for a, b in line.along if b is not None]
    return any(ctx.sc.side_feature(a, b) == GENTLE and here not in (a, b) for a, b in sides)


def read(shot: Shot, total: int) -> tuple[FireResult, str]:
    if shot.table == TABLE_HI:
        return hi_result(shot.regimental, shot.column, total)
    if shot.table == TABLE_LIGHT:
        return light_result(shot.column, total)
    calibre = shot.column.replace("Double ", "")
    return art_result(calibre, shot.column.startswith("Double "), total)


def fire(ctx: MPCtx, uid: str, target: str, kind: str) -> FireResult:
    """Resolve one fire (R17.65-R17.66): roll, read the table, apply hits, Formation Hit, morale checks."""
    shot = judge(ctx, uid, target, kind)
    (die,) = ctx.roll(1, "fire", ["fire die"], KIND_RULE[kind], unit=uid, target=target)
    total = die + shot.total
    result, row = read(shot, total)
    ctx.emit("fire", f"{KIND_RULE[kind]}: {ctx.says(uid)} fires ({kind}) at {ctx.says(target)}: {shot.table}, "
                     f"{shot.column}: die {die}" + "".join(f" {m['value']:+d} ({m['label']})" for m in shot.modifiers)
                     + f" = {total}, row {row}: {result.label}",
             unit=uid, target=target, kind=kind, table=shot.table, column=shot.column, regimental=shot.regimental,
             die=die,
             modifiers=shot.modifiers, total=total, row=row, result=result.label, hits=result.hits, fh=result.fh,
             mc=result.mc, rule=KIND_RULE[kind], hexes=[ctx.hex_of(uid), ctx.hex_of(target)])
    if kind == SALVO:
        ctx.info(uid)["salvo"] = True
        ctx.act.setdefault("salvo_at", {})[uid] = target
    if ctx.kind(uid) is Kind.CAVALRY:
        ctx.info(uid)["pistols"] = int(ctx.info(uid)["pistols"]) - 1
    apply_result(ctx, target, result, salvo=kind == SALVO)
    return result


def apply_result(ctx: MPCtx, target: str, result: FireResult, salvo: bool) -> None:
    """R17.65: hits, the Formation Hit, the checks (R17.66), elimination; 5.3 for a leader stacked with a unit hit."""
    there = ctx.hex_of(target)
    hits = result.hits
    if add_cp(ctx, target, hits, "R17.65"):
        return
    if result.fh:
        extra = formation_hit(ctx, target, "R17.65", fire=True)
        if not ctx.on_map(target):
            return
        hits += extra
    if hits:
        for lid in ctx.leaders_in(there):
            if ctx.side_of(lid) == ctx.side_of(target):
                leader_casualty(ctx, lid, "R17.36")
    d = ctx.d(target)
    causes: list[str] = []
    if result.mc:
        causes.append("10.6.5")
    if (d.morale <= 6 and hits >= 1) or (d.morale == 7 and hits >= 2):
        causes.append("10.6.2")
    if salvo and hits >= 1:
        causes.append("10.6.3")
    threshold = casualty_threshold(d.morale, d.sp)
    if hits >= 1 and threshold is not None and ctx.cp(target) >= threshold:
        causes.append("10.6.4")
    if causes and ctx.on_map(target):
        morale_check(ctx, target, causes[0], extra=len(causes) - 1, causes=causes)


def targets(ctx: MPCtx, uid: str, kind: str) -> list[str]:
    """The enemy units `uid` may fire at now with this kind of fire."""
    out = []
    for t in ctx.units_of(ctx.enemy(ctx.side_of(uid))):
        if ctx.dist(ctx.hex_of(uid), ctx.hex_of(t)) > 17:
            continue
        try:
            judge(ctx, uid, t, kind)
        except IllegalCommand:
            continue
        out.append(t)
    return out


def odds(ctx: MPCtx, uid: str, target: str, kind: str) -> dict[str, Any]:
    """The page's preview of one fire: table, column, modifiers and each result's chance on the d10."""
    shot = judge(ctx, uid, target, kind)
    dist: dict[str, int] = {}
    for die in range(10):
        r, _ = read(shot, die + shot.total)
        dist[r.label] = dist.get(r.label, 0) + 1
    return {"target": target, "kind": kind, "table": shot.table, "column": shot.column, "modifiers": shot.modifiers,
            "total_modifier": shot.total, "results": {k: v / 10 for k, v in dist.items()}}
