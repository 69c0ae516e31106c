"""The set-up phase (Königgrätz 17.1-17.3, S57-S59): each side with units to place in areas (17.2, or anywhere
under the free set-up of 17.3 when the game was created with the option `free_setup`) places them one by one
(`place`, re-placeable until it ends its set-up; `place_printed` puts every unplaced unit on its printed hex),
hidden from the opponent until it has finished (the kernel's SECRET_SETUP, kernel/setup.py); then the game starts
with the first player's movement phase (17.1, 3.2).

Stacking (5.2) and 17.2's leaders stacked with their command span are judged when the side ends its set-up, since a
stack is built one unit at a time (S58).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from ..kernel.errors import IllegalCommand
from ..kernel.game import check_fields
from ..kernel.setup import place_secretly, reveal_setup
from ..kernel.state import PHASE_SETUP, STATUS_HIDDEN, STATUS_MAP, STATUS_UNPLACED, Phase
from . import phases
from .areas import AREA_RULE, FREE_RULE, Area, admits, why_not
from .context import StdCtx
from .scenario import Kind, StandardScenario
from .stacking import STACK_LIMIT, overstacked_hexes
from .tactics import in_span

FREE_SETUP = "free_setup"  # the game option of 17.3


def game_options(sc: StandardScenario) -> dict[str, dict[str, Any]]:
    """17.3: a scenario with a `free_setup` block offers the option to its game's creator."""
    if not sc.free_setup:
        return {}
    sides = ", ".join(sc.sides[s].name for s in sc.free_setup)
    rule = next(iter(sc.free_setup.values())).area.rule
    return {FREE_SETUP: {"label": f"Free set-up ({sides})", "rule": rule,
                         "text": f"{sides} may set up anywhere allowed instead of in the printed areas ({rule})."}}


def areas_in_play(sc: StandardScenario, options: Mapping[str, Any]) -> dict[str, Area]:
    """Unit -> the area it is placed in this game: its 17.2 area, or under the free set-up (17.3) its side's area
    for every unit of the set-up except those pinned to a hex."""
    out = {uid: ap.area for uid, ap in sc.areas.items()}
    if options.get(FREE_SETUP):
        for side, fs in sc.free_setup.items():
            for uid in [p.unit for p in sc.setup] + list(sc.areas):
                if sc.units[uid].side != side:
                    continue
                if uid in fs.pinned:
                    out.pop(uid, None)
                else:
                    out[uid] = fs.area
    return out


def area_of(sc: StandardScenario, options: Mapping[str, Any], uid: str) -> Area | None:
    """`areas_in_play(sc, options).get(uid)` without building the whole map: 17.2's placement checks ask it for
    every hex of an area (a whole battle's set-up has some 150 units and 1,600 hexes)."""
    if options.get(FREE_SETUP):
        fs = sc.free_setup.get(sc.units[uid].side)
        if fs is not None and (uid in sc.areas or any(p.unit == uid for p in sc.setup)):
            return None if uid in fs.pinned else fs.area
    ap = sc.areas.get(uid)
    return None if ap is None else ap.area


def pinned_hexes(sc: StandardScenario, options: Mapping[str, Any]) -> dict[str, str]:
    """17.3: the units the free set-up fixes to a hex (the trains in 2722)."""
    if not options.get(FREE_SETUP):
        return {}
    return {uid: h for fs in sc.free_setup.values() for uid, h in fs.pinned.items()}


def setup_sides(ctx: StdCtx) -> list[str]:
    """S57: the sides with units to place, the first player first (as Quick Play's 3.2; the seed is silent)."""
    areas = areas_in_play(ctx.sc, ctx.st.options)
    return [s for s in (ctx.sc.first_player, ctx.sc.second_player) if any(ctx.side_of(u) == s for u in areas)]


def start(ctx: StdCtx) -> None:
    """17.1: units placed in areas start unplaced (pinned ones on their hex); the set-up of the first side with
    units to place, or, with none, the first player's movement phase (3.2)."""
    st = ctx.st
    st.turn = 1
    for uid in areas_in_play(ctx.sc, st.options):
        s = st.units[uid]
        s.hex, s.status, s.provisional = None, STATUS_UNPLACED, False
    for uid, h in pinned_hexes(ctx.sc, st.options).items():
        s = st.units[uid]
        s.hex, s.status = h, STATUS_MAP
    ctx.dirty()
    sides = setup_sides(ctx)
    if not sides:
        phases.start(ctx)
        return
    _begin(ctx, sides[0])


def _begin(ctx: StdCtx, side: str) -> None:
    ctx.st.phase = PHASE_SETUP
    ctx.st.active = side
    free = " (free set-up, 17.3)" if side in ctx.sc.free_setup and ctx.st.options.get(FREE_SETUP) else ""
    ctx.emit("phase", f"17.1: {ctx.sc.sides[side].name} sets up{free}", phase=PHASE_SETUP, side=side)


# --- where a unit may go ----------------------------------------------------------------------------------------------
def _subject(ctx: StdCtx, uid: str, area: Area) -> str:
    """17.2 names a formation's area ("Formation 1 sets up ..."); a free set-up or a leader's area names the unit."""
    d = ctx.sc.units[uid]
    f = ctx.sc.formations.get(d.formation or "")
    if area.rule == FREE_RULE or area.with_span or f is None:
        return ctx.name(uid)
    return f.name


def _span_units(ctx: StdCtx, leader: str, hex_: str) -> list[str]:
    return [u for u in ctx.units_at(hex_) if u != leader and ctx.kind(u) is not Kind.LEADER and in_span(ctx.sc, leader, u)]


def place_problem(ctx: StdCtx, uid: str, hex_: str, joining: Collection[str] = ()) -> tuple[str, str] | None:
    """Why `uid` may not be placed in `hex_` now (rule, plain sentence), or None. `joining`: units about to be
    placed in the hex too (a leader's command span counts them)."""
    sc = ctx.sc
    area = area_of(sc, ctx.st.options, uid)
    if area is None:
        return AREA_RULE, f"{ctx.name(uid)} sets up where the scenario puts it, not in an area"
    if ctx.u(uid).status == STATUS_HIDDEN:
        return "19.8 B", f"{ctx.name(uid)} is in a hidden movement box: take it out of the box first"
    if hex_ not in sc.grid:
        return area.rule, f"{hex_} is not a hex of the map"
    kind = sc.units[uid].kind
    if not admits(area, kind.value, hex_):
        assert sc.map_facts is not None
        parts = [p for p in area.parts if hex_ in p.hexes]
        why = (f"{hex_} takes only {', '.join(sorted(parts[0].kinds))} units" if parts
               else why_not(sc.map_facts, area.node, hex_))
        return area.rule, f"{_subject(ctx, uid, area)} sets up {area.text} ({area.rule}); {why}"
    capped = _cap_problem(ctx, uid, area, hex_)
    if capped:
        return area.rule, capped
    if not sc.may_stand(kind.tec_class, hex_):
        return "4.5", f"{ctx.name(uid)} may not stand in {sc.terrain_at(hex_).name} at {hex_} (prohibited terrain)"
    if ctx.enemy_occupied(hex_, ctx.side_of(uid)):
        return area.rule, f"{hex_} holds enemy units"
    if area.with_span and not _span_units(ctx, uid, hex_) and not any(in_span(sc, uid, u) for u in joining):
        return area.rule, (f"{ctx.name(uid)} sets up stacked with a unit in his command span ({area.rule}); "
                           f"{hex_} holds none")
    if ctx.u(uid).hex == hex_:
        return area.rule, f"{ctx.name(uid)} is already in {hex_}"
    return None


def _cap_problem(ctx: StdCtx, uid: str, area: Area, hex_: str) -> str | None:
    """17.2's 'any two infantry units in 4610': a branch with `max_units` holds at most so many of the area's units
    (counting those only it allows)."""
    kind = ctx.sc.units[uid].kind.value
    ok = [p for p in area.parts if hex_ in p.hexes and p.admits(kind)]
    if any(p.max_units is None for p in ok):
        return None
    areas = areas_in_play(ctx.sc, ctx.st.options)
    free = frozenset().union(*(p.hexes for p in area.parts if p.max_units is None))
    for p in ok:
        assert p.max_units is not None
        there = [u for u, a in areas.items() if a is area and u != uid and ctx.u(u).hex in p.hexes
                 and ctx.u(u).hex not in free]
        if len(there) < p.max_units:
            return None
    p = ok[0]
    return (f"{_subject(ctx, uid, area)} may set up only {p.text} ({area.rule}); "
            f"{ctx.names(sorted(there))} already {'is' if len(there) == 1 else 'are'} there")


def allowed_hexes(ctx: StdCtx, uid: str) -> list[str]:
    """Every hex `uid` may be placed in now (its own hex left out)."""
    area = area_of(ctx.sc, ctx.st.options, uid)
    assert area is not None
    return [h for h in sorted(area.hexes) if place_problem(ctx, uid, h) is None]


def end_problem(ctx: StdCtx, side: str) -> tuple[str, str] | None:
    """Why `side` may not end its set-up yet: a unit unplaced (17.2), a hex over 5.2's limit, a leader no longer
    stacked with his command span (17.2)."""
    sc = ctx.sc
    areas = areas_in_play(sc, ctx.st.options)
    mine = [u for u in areas if ctx.side_of(u) == side]
    unplaced = [u for u in mine if ctx.u(u).status == STATUS_UNPLACED]
    if unplaced:
        return areas[unplaced[0]].rule, (f"{ctx.names(unplaced)} {'is' if len(unplaced) == 1 else 'are'} not placed "
                                         "yet: place each in its area (or every one on its printed hex)")
    over = sorted(overstacked_hexes(sc, ctx.st.units, side))
    if over:
        return "5.2", (f"{over[0]} holds more than {STACK_LIMIT} units that count for stacking; stacking limits "
                       "apply at the end of the set-up")
    for u in mine:
        h = ctx.u(u).hex
        if areas[u].with_span and h is not None and not _span_units(ctx, u, h):
            return areas[u].rule, f"{ctx.name(u)} must be stacked with a unit in his command span; {h} holds none"
    return None


def problem_units(ctx: StdCtx, side: str) -> list[str]:
    """The units a bot should re-place before it may end the set-up (empty: it may end)."""
    sc = ctx.sc
    areas = areas_in_play(sc, ctx.st.options)
    mine = [u for u in areas if ctx.side_of(u) == side]
    over = overstacked_hexes(sc, ctx.st.units, side)
    return [u for u in mine if ctx.u(u).status == STATUS_UNPLACED or ctx.u(u).hex in over
            or (areas[u].with_span and not _span_units(ctx, u, ctx.u(u).hex or ""))]


# --- the commands -----------------------------------------------------------------------------------------------------
def _open(ctx: StdCtx, side: str) -> None:
    if ctx.st.phase != PHASE_SETUP or ctx.st.active != side:
        raise IllegalCommand("17.1", "units are placed only during your set-up")


def cmd_place(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    """17.2, 17.3: place (or place again) one of your units in its area."""
    check_fields(cmd, {"unit": "id", "hex": "hex"}, {})
    _open(ctx, side)
    uid, hex_ = cmd["unit"], cmd["hex"]
    if uid not in ctx.sc.units or ctx.side_of(uid) != side:
        raise IllegalCommand("17.2", f"{uid} is not one of your units")
    problem = place_problem(ctx, uid, hex_)
    if problem:
        raise IllegalCommand(*problem)
    place_secretly(ctx, side, uid, hex_, areas_in_play(ctx.sc, ctx.st.options)[uid].rule)


def printed_placements(ctx: StdCtx, side: str) -> list[tuple[str, str]]:
    """(unit, hex) for each unplaced unit of `side` whose printed hex is allowed now, the leaders last (17.2: a
    leader's printed hex may hold his span's units only once they are placed)."""
    todo = []
    for uid in areas_in_play(ctx.sc, ctx.st.options):
        ap = ctx.sc.areas.get(uid)
        printed = ap.printed if ap is not None else next((p.hex for p in ctx.sc.setup if p.unit == uid), None)
        if ctx.side_of(uid) == side and ctx.u(uid).status == STATUS_UNPLACED and printed is not None:
            todo.append((uid, printed))
    units = [(u, h) for u, h in todo if ctx.kind(u) is not Kind.LEADER and place_problem(ctx, u, h) is None]
    leaders = [(u, h) for u, h in todo if ctx.kind(u) is Kind.LEADER
               and place_problem(ctx, u, h, [x for x, y in units if y == h]) is None]
    return units + leaders


def cmd_place_printed(ctx: StdCtx, side: str, cmd: dict[str, Any]) -> None:
    """17.2: every unplaced unit of yours on its printed hex (those whose printed hex its area allows)."""
    check_fields(cmd, {}, {})
    _open(ctx, side)
    todo = printed_placements(ctx, side)
    if not todo:
        raise IllegalCommand("17.2", "no unplaced unit of yours has a printed hex it may take")
    for uid, h in todo:  # the leaders last, with the units they stack with (17.2)
        if place_problem(ctx, uid, h) is None:
            place_secretly(ctx, side, uid, h, areas_in_play(ctx.sc, ctx.st.options)[uid].rule)


def end_setup(ctx: StdCtx, side: str) -> None:
    """The side ends its set-up: its placements are revealed (SECRET_SETUP ends), then the next side sets up or the
    game starts with the first player's movement phase (17.1)."""
    problem = end_problem(ctx, side)
    if problem:
        raise IllegalCommand(*problem)
    revealed = reveal_setup(ctx, side, FREE_RULE if ctx.st.options.get(FREE_SETUP) and side in ctx.sc.free_setup
                            else AREA_RULE)
    for uid in revealed:  # 18.1 (S68): a unit set up in a tracked hex entered it, once its placement is public
        placed_at = ctx.u(uid).hex
        if placed_at is not None:
            ctx.passing([uid], [placed_at])
    remaining = [s for s in setup_sides(ctx) if s not in ctx.st.setup_done]
    if remaining:
        _begin(ctx, remaining[0])
        return
    phases.enter_phase(ctx, ctx.sc.first_player, Phase.MOVEMENT)


COMMANDS = {"place": cmd_place, "place_printed": cmd_place_printed}
COMMAND_FIELDS = {"place": frozenset({"unit", "hex"}), "place_printed": frozenset()}
