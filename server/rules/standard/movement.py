"""Movement in the Standard rules (seed 002 4.x), with the ZOC limits on it (6.2, 6.3).

* 4.2 a unit or a stack moves along contiguous hexes; a stack pays the highest cost of its units and
  uses the lowest MA.
* 4.3 a unit lacking the MP may not enter a hex: no always-one-hex here (R3).
* 4.4 variable MA: a combat unit rolls for its MA when its move begins if it has a printed `V`, is
  disrupted, overstacked, disengaging or moved by a fortune of war — one die, two when the printed MA is
  above 6, capped at the printed MA.  Leaders, HQs and trains never roll.
* 4.5 terrain costs: the primary terrain's cost, plus secondary terrain and hexside additions.
* 4.6 roads and trails: a step along the path (path hex, path hexside, path hex) costs 1 MP whatever the
  other terrain; infantry and cavalry entering an EZOC pay the full terrain cost for that step instead.
* 4.7 march movement: 9 MP (infantry, artillery) or 15 (cavalry), or one die + 3 / two dice + 3 when
  rolling; ½ MP per road step (not trail), the leftover ½ lost on leaving the road; a full MP on a road
  step leaving or entering a hex with another combat unit; never in or next to an EZOC (R13); never into
  terrain the TEC closes to marching; a reinforcement may march from the hex it enters by (13.1, S18).
* 6.2 entering an EZOC ends the move; a unit in an EZOC leaves it only by disengaging (6.3); disrupted
  units and units with a parenthesised CF enter an EZOC only with a leader or an undisrupted unit with a
  non-parenthesised CF.
* 6.3 disengagement: a higher printed MA than every unit exerting the EZOC, or a friendly unit that
  started the phase in the hex and stays; the disengaging unit rolls for its MA and enters no other EZOC.

MP are counted in halves (`HALF`).  `moving.py` plays these rules in a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from ..kernel.errors import IllegalCommand
from ..kernel.hexes import hexside_key
from ..kernel.state import UnitState
from .scenario import CounterSide, Kind, StandardScenario
from .zoc import unit_zoc, zoc_of, zoc_targets

HALF = 2
MARCH_MA = {"infantry": 9, "artillery": 9, "cavalry": 15}  # 4.7
MARCH_ROLL = {"infantry": (1, 3), "artillery": (1, 3), "cavalry": (2, 3)}  # 4.7: (dice, added)
NEVER_ROLL = (Kind.LEADER, Kind.HQ, Kind.TRAINS)  # 4.4


def printed_side(sc: StandardScenario, s: UnitState) -> CounterSide:
    """The side of the counter now showing (2.5, 2.9)."""
    d = sc.units[s.id]
    side = d.ineffective if s.ineffective else (d.reduced if s.reduced else d.full)
    if side is None:
        raise ValueError(f"{d.name} has no printed factors (a {d.kind.value})")
    return side


# --- 4.4 variable movement allowance -------------------------------------------------------------------
def roll_reasons(sc: StandardScenario, s: UnitState, *, overstacked: bool = False, disengaging: bool = False,
                 fortune: bool = False, hq_inactive: bool = False) -> list[str]:
    """4.4: the rules that make this unit roll for its MA when its move begins ([]: it does not roll)."""
    d = sc.units[s.id]
    if d.kind in NEVER_ROLL:
        return []
    out = []
    if printed_side(sc, s).variable_ma:
        out.append("2.4")  # a printed V
    if s.disrupted:
        out.append("2.8(2)")
    if s.ineffective:
        out.append("11.3")  # an ineffective unit has the disrupted unit's constraints (S2)
    if overstacked:
        out.append("5.2")
    if disengaging:
        out.append("6.3")
    if fortune:
        out.append("12.4")
    if hq_inactive:
        out.append("12.1")  # while its army's HQ is inactive, every unit of the army rolls
    return out


def ma_dice(sc: StandardScenario, s: UnitState, *, marching: bool = False) -> int:
    """4.4: one die, two when the printed MA is above 6; 4.7: marching cavalry rolls two."""
    d = sc.units[s.id]
    if marching:
        return MARCH_ROLL[d.kind.tec_class][0]
    ma = printed_side(sc, s).ma
    return 2 if ma is not None and ma > 6 else 1


def movement_allowance(sc: StandardScenario, s: UnitState, dice: Sequence[int] | None = None, *,
                       marching: bool = False) -> int:
    """The unit's MP for this move: its printed MA (4.3) or march MA (4.7), or — when it rolls (4.4) —
    the dice, never above the printed MA (a V has none to cap it); marching adds three (4.7)."""
    d = sc.units[s.id]
    if d.kind in (Kind.HQ, Kind.TRAINS):
        return d.inactive_ma  # 12.1, 12.2: always the full MA of the inactive side
    if d.kind is Kind.LEADER:
        raise ValueError("a leader's movement is 10.1's, not 4.4's")
    cls = d.kind.tec_class
    printed = printed_side(sc, s).ma
    if dice is None:
        if marching:
            return MARCH_MA[cls]
        if printed is None:
            raise ValueError(f"{d.name} has a V MA and must roll for it (4.4)")
        return printed
    want = ma_dice(sc, s, marching=marching)
    if len(dice) != want or not all(1 <= v <= 6 for v in dice):
        raise ValueError(f"{d.name} rolls {want} die/dice for its MA (4.4, 4.7), not {list(dice)}")
    total = sum(dice)
    if marching:
        return total + MARCH_ROLL[cls][1]
    return total if printed is None else min(total, printed)


# --- 4.5-4.7 the cost of one step ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class StepCost:
    halves: int
    by: str  # "road", "trail" or "terrain"


def terrain_cost(sc: StandardScenario, tec_class: str, a: str, b: str) -> int | None:
    """4.5: MP to enter b from a off any path (None: prohibited): primary + secondary + hexside, kept in the
    scenario's memo (`StandardScenario.cost_memo`)."""
    memo = sc.cost_memo
    key = (tec_class, a, b)
    if key in memo:
        return memo[key]
    got = memo[key] = _terrain_cost(sc, tec_class, a, b)
    return got


def _terrain_cost(sc: StandardScenario, tec_class: str, a: str, b: str) -> int | None:
    t = sc.terrain_at(b)
    if t.is_prohibited(tec_class):
        return None
    cost = t.move[tec_class]
    for s in sc.secondary_at(b):
        if tec_class in s.prohibited:
            return None
        cost += s.move_add.get(tec_class, 0)
    for f in sc.hexsides.get(hexside_key(a, b), ()):
        feat = sc.hexside_features[f]
        if tec_class in feat.prohibited:
            return None
        cost += feat.move_add.get(tec_class, 0)
    return cost


def path_kind(sc: StandardScenario, a: str, b: str) -> str | None:
    """4.6: 'road' or 'trail' when the step follows that path hex, hexside, hex; else None."""
    key = hexside_key(a, b)
    if key in sc.road_links:
        return "road"
    if key in sc.trail_links:
        return "trail"
    return None


def no_march(sc: StandardScenario, a: str, b: str) -> bool:
    """4.7: terrain the TEC closes to march movement."""
    if sc.terrain_at(b).no_march or any(s.no_march for s in sc.secondary_at(b)):
        return True
    return any(sc.hexside_features[f].no_march for f in sc.hexsides.get(hexside_key(a, b), ()))


def step_cost(sc: StandardScenario, tec_class: str, a: str, b: str, *, marching: bool, into_ezoc: bool,
              crowded: bool) -> StepCost | None:
    """The cost of one step for one TEC class (None: it may not take it).
    `crowded`: a or b holds another combat unit (4.7's full MP on the road)."""
    path = path_kind(sc, a, b)
    if path is not None and into_ezoc and tec_class in ("infantry", "cavalry"):
        path = None  # 4.6: no path movement into an EZOC for infantry and cavalry
    if path is None:
        if marching and no_march(sc, a, b):
            return None
        cost = terrain_cost(sc, tec_class, a, b)
        return None if cost is None else StepCost(cost * HALF, "terrain")
    if marching and path == "road" and not crowded:
        return StepCost(1, "road")  # 4.7: 1/2 MP
    return StepCost(HALF, path)  # 4.6: one MP for the path hex


# --- a move ------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Move:
    """A move as the rules check it: who, where, how, and the MA rolled or printed (4.4)."""

    units: tuple[str, ...]
    path: tuple[str, ...]
    ma: int  # MP
    marching: bool = False
    disengaging: bool = False


def ezoc_of(sc: StandardScenario, units: Mapping[str, UnitState], side: str) -> frozenset[str]:
    return zoc_of(sc, units, sc.opponent(side))


def march_problem(sc: StandardScenario, units: Mapping[str, UnitState], move: Move,
                  ezoc: frozenset[str] | None = None) -> str | None:
    """4.7 (R13): why the move may not be marched (None: it may).  A path is marched only if no hex of it (the start included) is in an EZOC, and no hex
    into which a moving unit would exert a ZOC from any hex of the path is in one."""
    side = sc.units[move.units[0]].side
    if ezoc is None:
        ezoc = ezoc_of(sc, units, side)
    for h in move.path:
        if h in ezoc:
            return f"{h} is in an enemy zone of control, so the move cannot be marched"
        for uid in move.units:
            d = sc.units[uid]
            if d.kind.is_combat and any(n in ezoc for n in zoc_targets(sc, h, d.kind.tec_class)):
                return f"from {h} {d.name}'s zone of control would reach an enemy zone of control"
    return None


def may_disengage(sc: StandardScenario, units: Mapping[str, UnitState], uid: str,
                  phase_start_stack: Sequence[str], staying: Sequence[str]) -> str | None:
    """6.3: why the unit may not disengage (None: it may; the reason is 6.3's).  `phase_start_stack`: the friendly units in its
    hex when the movement phase began; `staying`: those of them that do not leave."""
    s = units[uid]
    d = sc.units[uid]
    assert s.hex is not None
    enemy = sc.opponent(d.side)
    mine = printed_side(sc, s).ma
    exerting = [o for o in units.values() if sc.units[o.id].side == enemy and o.hex is not None
                and o.on_map and sc.units[o.id].kind.is_combat and not o.disrupted and not o.ineffective
                and s.hex in unit_zoc(sc, o)]  # 19.7 B: a line's ZOC reaches its front only
    if mine is not None and all(_printed_ma(sc, o) < mine for o in exerting):
        return None
    if any(o != uid and sc.units[o].kind.is_combat for o in phase_start_stack if o in staying):
        return None
    return (f"{d.name} may disengage only with a higher printed MA than every unit exerting the enemy zone "
            "of control, or leaving behind a friendly unit that began the phase with it")


def _printed_ma(sc: StandardScenario, s: UnitState) -> int:
    """6.3's comparison: a printed V counts as 6, the most a die can give it (S3)."""
    ma = printed_side(sc, s).ma
    return 6 if ma is None else ma


def _enters_ezoc_problem(sc: StandardScenario, units: Mapping[str, UnitState], uids: Sequence[str], hex_: str) -> str | None:
    """6.2 (why not, or None): disrupted units and units with a parenthesised CF enter an EZOC only accompanied by a leader or
    an undisrupted unit with a non-parenthesised CF; 10.1: an ineffective leader has no game effects, so only an
    effective one accompanies them."""
    limited = []
    escorts = False
    for uid in uids:
        d = sc.units[uid]
        s = units[uid]
        if d.kind is Kind.LEADER:
            escorts = escorts or not s.ineffective  # 10.1
            continue
        if not d.kind.is_combat:
            continue
        if s.disrupted or printed_side(sc, s).parenthesized:
            limited.append(d.name)
        else:
            escorts = True
    if limited and not escorts:
        return (f"{', '.join(limited)} may not enter the enemy zone of control at {hex_} "
                "without a leader (an effective one: an ineffective leader has no game effects, 10.1) or an "
                "undisrupted unit with a non-parenthesised CF")
    return None


def check_move(sc: StandardScenario, units: Mapping[str, UnitState], move: Move,
               ezoc: frozenset[str] | None = None, occupancy: Mapping[str, Sequence[str]] | None = None) -> int:
    """Validate a move against 4.2-4.7 and 6.2-6.3; returns its cost in half MP, or raises IllegalCommand.
    12.2: a hex holding only the enemy's trains may be entered (the move captures it: `trains_captured`);
    the own trains' hex may not (S12)."""
    if not move.units:
        raise IllegalCommand("4.2", "name the units that move")
    side = sc.units[move.units[0]].side
    start = units[move.units[0]].hex
    if any(sc.units[u].side != side or units[u].hex != start or not units[u].on_map for u in move.units):
        raise IllegalCommand("4.2", "a stack moves together: its units must start in the same hex")
    if any(sc.units[u].kind in (Kind.HQ, Kind.TRAINS) for u in move.units):
        raise IllegalCommand("12.1", "an HQ or trains moves under 12.1 and 12.2, not with a stack's move")
    path = move.path
    if len(path) < 2 or path[0] != start:
        raise IllegalCommand("4.2", f"the path must start at the stack's hex {start} and enter at least one hex")
    if len(set(path)) != len(path):
        raise IllegalCommand("4.2", "the path enters a hex twice")
    for a, b in pairwise(path):
        if b not in sc.grid or not sc.grid.is_adjacent(a, b):
            raise IllegalCommand("4.2", f"{a} to {b} is not a step between adjacent hexes")
    combat = [u for u in move.units if sc.units[u].kind.is_combat]
    classes = sorted({sc.units[u].kind.tec_class for u in combat}) or ["leader"]
    if move.marching and not combat:
        raise IllegalCommand("4.7", "march movement is made by combat units")
    if ezoc is None:  # the enemy's ZOC, when the caller has not got it cached (StdCtx.zoc_of)
        ezoc = ezoc_of(sc, units, side)
    if move.marching:
        problem = march_problem(sc, units, move, ezoc)
        if problem:
            raise IllegalCommand("4.7", problem)
    movers = set(move.units)
    path_hexes = set(path)
    occupied_by_others: set[str] = set()
    enemy_held: set[str] = set()
    enemy_trains: set[str] = set()
    own_trains: set[str] = set()
    # Only the hexes of the path matter: read them from the caller's occupancy (hex -> units) when it has one.
    if occupancy is not None:
        on_path = [(uid, h) for h in path_hexes for uid in occupancy.get(h, ())]
    else:
        on_path = [(uid, s.hex) for uid, s in units.items() if s.on_map and s.hex in path_hexes]
    for uid, h in on_path:
        kind = sc.units[uid].kind
        if sc.units[uid].side != side:
            (enemy_trains if kind is Kind.TRAINS else enemy_held).add(h)
        elif kind is Kind.TRAINS:
            own_trains.add(h)
        elif uid not in movers and kind.is_combat:
            occupied_by_others.add(h)
    if start in ezoc and not move.disengaging:
        raise IllegalCommand("6.2", f"the stack is in an enemy zone of control at {start}: it leaves only by disengaging (6.3)")
    halves = 0
    for i, (a, b) in enumerate(pairwise(path)):
        if b in enemy_held:
            raise IllegalCommand("4.2", f"{b} is occupied by the enemy")
        if b in own_trains:
            raise IllegalCommand("12.2", f"no friendly unit moves through its trains ({b})")
        into_ezoc = b in ezoc
        crowded = a in occupied_by_others or b in occupied_by_others
        costs = [step_cost(sc, cls, a, b, marching=move.marching, into_ezoc=into_ezoc, crowded=crowded) for cls in classes]
        if any(c is None for c in costs):
            rule = "4.7" if move.marching and no_march(sc, a, b) and path_kind(sc, a, b) != "road" else "4.5"
            what = "marching units may not enter" if rule == "4.7" else "prohibited terrain or hexside for"
            raise IllegalCommand(rule, f"{b}: {what} {', '.join(classes)}")
        step = max((c for c in costs if c is not None), key=lambda c: c.halves)  # 4.2: the highest cost
        if step.by != "road" and halves % HALF:
            halves += 1  # 4.7: the leftover 1/2 MP is lost on leaving the road (a full-MP road step stays on it)
        halves += step.halves
        if halves > move.ma * HALF:
            raise IllegalCommand("4.3", f"entering {b} needs {halves / HALF:g} MP; the move has {move.ma}")
        if into_ezoc:
            if move.disengaging:
                raise IllegalCommand("6.3", f"a disengaging unit may not enter another enemy zone of control ({b})")
            problem = _enters_ezoc_problem(sc, units, move.units, b)
            if problem:
                raise IllegalCommand("6.2", problem)
            if i + 2 < len(path):
                raise IllegalCommand("6.2", f"entering the enemy zone of control at {b} ends the move")
    return halves


# --- 12.1, 12.2 the HQ and the trains ----------------------------------------------------------------------
def check_hq_move(sc: StandardScenario, units: Mapping[str, UnitState], uid: str, path: Sequence[str]) -> int:
    """12.1: the HQ moves like a cavalry unit with the full MA of its inactive side, never into an EZOC.
    Returns the cost in half MP, or raises IllegalCommand."""
    d = sc.units[uid]
    if d.kind is not Kind.HQ:
        raise IllegalCommand("12.1", f"{d.name} is not an HQ")
    side = d.side
    start = units[uid].hex
    if not path or path[0] != start or len(path) < 2:
        raise IllegalCommand("4.2", f"the path must start at the HQ's hex {start} and enter at least one hex")
    ezoc = ezoc_of(sc, units, side)
    enemy_held = {s.hex for u, s in units.items() if s.on_map and sc.units[u].side != side}
    halves = 0
    for a, b in pairwise(path):
        if b not in sc.grid or not sc.grid.is_adjacent(a, b):
            raise IllegalCommand("4.2", f"{a} to {b} is not a step between adjacent hexes")
        if b in enemy_held:
            raise IllegalCommand("4.2", f"{b} is occupied by the enemy")
        if b in ezoc:
            raise IllegalCommand("12.1", f"the HQ may not enter an enemy zone of control ({b})")
        step = step_cost(sc, "cavalry", a, b, marching=False, into_ezoc=False, crowded=False)
        if step is None:
            raise IllegalCommand("4.5", f"{b}: prohibited terrain or hexside for cavalry")
        halves += step.halves
        if halves > d.inactive_ma * HALF:
            raise IllegalCommand("4.3", f"entering {b} needs {halves / HALF:g} MP; the HQ has {d.inactive_ma}")
    return halves


def check_trains_move(sc: StandardScenario, units: Mapping[str, UnitState], uid: str, path: Sequence[str]) -> int:
    """12.2: the trains moves only by march movement with its printed (inactive-side) MA, doubled along
    roads; only into clear, road and trail hexes and across bridges and fords; it stops after entering a
    clear hex off the paths; never into an EZOC.  Returns the cost in half MP (road steps cost ½ MP of the
    printed MA's 1 MP, as the doubling), or raises IllegalCommand."""
    d = sc.units[uid]
    if d.kind is not Kind.TRAINS:
        raise IllegalCommand("12.2", f"{d.name} is not a trains")
    side = d.side
    start = units[uid].hex
    if not path or path[0] != start or len(path) < 2:
        raise IllegalCommand("4.2", f"the path must start at the trains' hex {start} and enter at least one hex")
    ezoc = ezoc_of(sc, units, side)
    enemy_held = {s.hex for u, s in units.items() if s.on_map and sc.units[u].side != side}
    halves = 0
    for i, (a, b) in enumerate(pairwise(path)):
        if b not in sc.grid or not sc.grid.is_adjacent(a, b):
            raise IllegalCommand("4.2", f"{a} to {b} is not a step between adjacent hexes")
        if b in enemy_held:
            raise IllegalCommand("4.2", f"{b} is occupied by the enemy")
        if b in ezoc:
            raise IllegalCommand("12.2", f"the trains may not enter an enemy zone of control ({b})")
        if not sc.could_move("trains", a, b):
            raise IllegalCommand("12.2", f"the trains enters only clear, road and trail hexes, across bridges and fords ({b})")
        kind = path_kind(sc, a, b)
        halves += 1 if kind == "road" else HALF  # 12.2: the MA doubles on the road
        if halves > d.inactive_ma * HALF:
            raise IllegalCommand("4.3", f"entering {b} needs {halves / HALF:g} MP; the trains has {d.inactive_ma}")
        if kind is None and i + 2 < len(path):
            raise IllegalCommand("12.2", f"the trains stops after entering a clear hex ({b})")
    return halves


# --- 13.1 reinforcements ------------------------------------------------------------------------------------
def entry_shifts(sc: StandardScenario, units: Mapping[str, UnitState], side: str, listed: str) -> dict[str, int]:
    """13.1: the hexes a reinforcement may enter by, each with the MP its shift along the map edge costs: the
    listed hex at 0 when no enemy unit is in it; otherwise the first hexes free of enemy units reached by
    walking along the edge from it through enemy-occupied edge hexes, at 1 MP a hex."""
    grid = sc.grid
    enemy_held = {s.hex for u, s in units.items() if s.on_map and sc.units[u].side != side}
    if listed not in enemy_held:
        return {listed: 0}
    out: dict[str, int] = {}
    # S43: the shift runs along the side of the map the listed hex is on (a corner hex is on two), never
    # around a corner onto another side.
    along = {h for name in ("north", "south", "west", "east") if listed in (side_hexes := grid.edge(name))
             for h in side_hexes}
    seen = {listed}
    frontier = [listed]
    steps = 0
    while frontier:
        steps += 1
        nxt = []
        for h in frontier:
            for n in grid.neighbors(h):
                if n in seen or n not in along:
                    continue
                seen.add(n)
                if n in enemy_held:
                    nxt.append(n)  # 13.1: shift "until reaching a hex not occupied by an enemy unit"
                else:
                    out[n] = steps
        frontier = nxt
    return out


def entry_shift_cost(sc: StandardScenario, units: Mapping[str, UnitState], side: str, listed: str,
                     actual: str) -> int | None:
    """13.1: the MP a reinforcement pays to shift its entry along the map edge from the listed hex to
    `actual` (1 MP a hex), or None when it may not enter there (`entry_shifts`)."""
    return entry_shifts(sc, units, side, listed).get(actual)


def entry_choices(sc: StandardScenario, units: Mapping[str, UnitState], side: str,
                  listed: Sequence[str]) -> dict[str, int]:
    """13.1, 17.4 (S60): the hexes a reinforcement with a choice of listed entry hexes may enter by, each with the
    cheapest shift from one of them (`entry_shifts`)."""
    out: dict[str, int] = {}
    for h in listed:
        for e, cost in entry_shifts(sc, units, side, h).items():
            out[e] = min(cost, out.get(e, cost))
    return out


def trains_captured(sc: StandardScenario, units: Mapping[str, UnitState], side: str, path: Sequence[str]) -> list[str]:
    """12.2: the enemy trains a move along `path` captures by entering its hex."""
    hexes = set(path[1:])
    return sorted(u for u in sc.trains.values()
                  if sc.units[u].side != side and units[u].on_map and units[u].hex in hexes)


_ENTER_WITH_ANOTHER = (Kind.BATTALION, Kind.SQUADRON, Kind.LEADER, Kind.HQ)  # 13.1


def check_entry(sc: StandardScenario, units: Mapping[str, UnitState], uids: Sequence[str], listed: str | Sequence[str],
                path: Sequence[str], ma: int, marching: bool = False) -> int:
    """13.1: reinforcements enter one at a time (battalions, squadrons, leaders and HQs may come stacked with
    another unit).  `path[0]` is the hex entered — the listed entry hex, or one shifted along the edge at 1 MP
    a hex past enemy-occupied ones — whose terrain cost is paid; the move then goes on under 4.x and 6.x, march
    movement (4.7) included (S18): `ma` is then the march MA, the path from the hex entered on may not be in or
    next to an EZOC (R13) and the hex entered may not be terrain closed to marching.
    Returns the whole cost in half MP, or raises IllegalCommand."""
    if not uids or not path:
        raise IllegalCommand("13.1", "name the entering units and the hex they enter")
    side = sc.units[uids[0]].side
    main = [u for u in uids if sc.units[u].kind not in _ENTER_WITH_ANOTHER]
    if len(main) > 1 or any(sc.units[u].side != side for u in uids):
        raise IllegalCommand("13.1", "reinforcements enter one at a time; only battalions, squadrons, leaders and "
                                     "HQs may come stacked with another unit")
    entry = path[0]
    hexes = (listed,) if isinstance(listed, str) else tuple(listed)
    shift = entry_choices(sc, units, side, hexes).get(entry)
    if shift is None:
        raise IllegalCommand("13.1", f"{entry} is not an entry open to these units (listed: {', '.join(hexes)}; "
                                     "the entry shifts along the edge only past enemy-occupied hexes)")
    if any(st.on_map and st.hex == entry and sc.units[u].side == side and sc.units[u].kind is Kind.TRAINS
           for u, st in units.items()):
        raise IllegalCommand("12.2", f"no friendly unit moves through its trains ({entry})")
    classes = sorted({sc.units[u].kind.tec_class for u in uids if sc.units[u].kind.is_combat}) or ["cavalry"]
    costs = []
    for cls in classes:
        t = sc.terrain_at(entry)
        if t.is_prohibited(cls) or any(cls in x.prohibited for x in sc.secondary_at(entry)):
            raise IllegalCommand("4.5", f"{entry}: prohibited terrain for {cls}")
        costs.append(t.move.get(cls, 1) + sum(x.move_add.get(cls, 0) for x in sc.secondary_at(entry)))
    if marching:  # 4.7 (S18): the hex entered is paid at its terrain cost, so no road exception (S4) opens it
        if not any(sc.units[u].kind.is_combat for u in uids):
            raise IllegalCommand("4.7", "march movement is made by combat units")
        if sc.terrain_at(entry).no_march or any(x.no_march for x in sc.secondary_at(entry)):
            raise IllegalCommand("4.7", f"{entry}: marching units may not enter")
        problem = march_problem(sc, units, Move(tuple(uids), tuple(path), ma, marching=True))
        if problem:
            raise IllegalCommand("4.7", problem)
    spent = shift + max(costs)
    if spent > ma:
        raise IllegalCommand("4.3", f"entering at {entry} costs {spent} MP; the units have {ma}")
    if len(path) == 1:
        return spent * HALF
    placed = dict(units)
    for u in uids:
        placed[u] = UnitState(u, entry, disrupted=units[u].disrupted, ineffective=units[u].ineffective,
                              reduced=units[u].reduced)
    if entry in ezoc_of(sc, placed, side):
        raise IllegalCommand("6.2", f"entering the enemy zone of control at {entry} ends the move")
    return spent * HALF + check_move(sc, placed, Move(tuple(uids), tuple(path), ma - spent, marching=marching))
