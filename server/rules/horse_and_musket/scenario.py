"""Horse and Musket scenarios (seed 003 + R16, ruleset `horse-and-musket`): the map, the armies and the victory
conditions as validated data.

What this reads, by rule number:

* R16.12 the ground: one terrain per hex (clear, hill, crops, woods, town, river, ford, bridge), fieldwork
  sections (`map.secondary`), hedges and fences on hexsides, each hill hex's elevation (1 unless given);
  `tec` holds only how the page draws them (names, colours), since what they do is R16.12's;
* R16.3 the armies: each unit's type, grade, weapon (R16.3's default unless given), the `dragoon` and `horse`
  flags and its brigade; the generals (C-in-C or brigade commander) and their quality (R16.9); each side's
  initiative modifier (AL.P.2) and discipline (AL.P.1);
* the fixed set-up (R16.6): every unit's hex, facing (R16.4) and formation (R16.5); every general's hex;
* R16.18: the objectives (who holds each at the start, their points) and the number of rounds.

Every problem is reported with its JSON path; the model satisfies the kernel's scenario interface (kernel/model.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Final

from ..kernel.facing import Direction
from ..kernel.hexes import HexGrid, hexside_key
from ..kernel.hidden import HiddenMovement
from ..kernel.model import ScenarioBase, Victory
from ..kernel.reader import DataReader, FacedPlacement
from ..kernel.scenario import ScenarioError, unknown_fields
from .tables import FORMATIONS, GRADES, QUALITIES, TYPES, WEAPONS, Kind, default_weapon

RULESET: Final = "horse-and-musket"

CLEAR, HILL, CROPS, WOODS, TOWN, RIVER, FORD, BRIDGE = ("clear", "hill", "crops", "woods", "town", "river", "ford",
                                                         "bridge")
TERRAINS: Final = (CLEAR, HILL, CROPS, WOODS, TOWN, RIVER, FORD, BRIDGE)
FIELDWORK: Final = "fieldwork"
HEDGE, FENCE = "hedge", "fence"
HEXSIDE_FEATURES: Final = (HEDGE, FENCE)
DIFFICULT_HEXES: Final = frozenset({CROPS, WOODS, TOWN, FORD})  # R16.12: difficult going
COVER_HEXES: Final = frozenset({WOODS, TOWN})  # 5.3, 6.7.1 (and fieldwork sections)
RIVERS: Final = frozenset({RIVER, FORD, BRIDGE})  # 6.6.8, R16.20(51)

TOP_FIELDS = ("id", "title", "subtitle", "ruleset", "provenance", "briefing", "description", "map", "tec", "sides",
              "units", "setup", "turns", "victory")
MAP_FIELDS = ("columns", "rows", "shifted", "default_terrain", "hexes", "secondary", "elevation", "hexsides")
SIDE_FIELDS = ("name", "adjective", "color", "text_color", "edge", "initiative", "discipline")
UNIT_FIELDS = ("id", "side", "name", "type", "grade", "weapon", "dragoon", "horse", "brigade")
GENERAL_FIELDS = ("id", "side", "name", "type", "quality", "role")
SETUP_FIELDS = ("unit", "hex", "facing", "formation")
C_IN_C, BRIGADE = "c-in-c", "brigade"


@dataclass(frozen=True, slots=True)
class UnitDef:
    """A unit or a general (R16.3). `kind` is the type; a general has a `quality` and a `role`."""

    id: str
    side: str
    name: str
    kind: Kind
    grade: str = "average"
    weapon: str = "none"
    dragoon: bool = False
    horse: bool = False
    brigade: str | None = None
    quality: str = ""
    role: str = ""

    @property
    def formation(self) -> str:
        """The kernel's "formation" is the unit's organisation: its brigade (a general's own id)."""
        return self.brigade or (self.id if self.kind is Kind.GENERAL else "")

    @property
    def steps(self) -> int:
        """Fresh and staggered (5.1.9): a unit's two states, staggered shown as the kernel's "reduced"."""
        return 2 if self.kind.fights or self.kind is Kind.ARTILLERY else 1

    @property
    def tec_class(self) -> str:
        return self.kind.value

    @property
    def close_order(self) -> bool:
        """6.6.3, 6.6.4, R16.20(38): CO infantry, HC and dragoons."""
        return self.kind in (Kind.CO, Kind.HC)


@dataclass(frozen=True, slots=True)
class Side:
    id: str
    name: str
    color: str
    edge: str
    initiative: int = 0  # AL.P.2
    discipline: bool = False  # AL.P.1
    entry_hexes: tuple[str, ...] = ()


Placement = FacedPlacement  # R16.6: the fixed set-up gives each unit its hex, facing (R16.4) and formation (R16.5)


@dataclass(frozen=True)
class HMScenario(ScenarioBase):
    id: str
    title: str
    ruleset: str
    grid: HexGrid
    default_terrain: str
    hex_terrain: Mapping[str, str]
    fieldworks: frozenset[str]
    elevation: Mapping[str, int]
    hedges: frozenset[tuple[str, str]]
    sides: Mapping[str, Side]
    side_order: tuple[str, str]
    units: Mapping[str, UnitDef]
    setup: tuple[Placement, ...]
    turns: int
    victory: Victory
    first_player: str  # R16.7: the initiative decides every round; the kernel's "first player" is the first side listed
    raw: Mapping[str, Any] = field(repr=False, compare=False)
    reinforcements: tuple[Any, ...] = ()
    hide_enemy_reinforcements: bool = False
    hidden_movement: HiddenMovement | None = None

    def turn_label(self, turn: int) -> str:
        return f"Round {turn}"

    # --- the ground (R16.12) --------------------------------------------------------------------
    def terrain_at(self, hex_: str) -> str:
        return self.hex_terrain.get(hex_, self.default_terrain)

    def elevation_at(self, hex_: str) -> int:
        return self.elevation.get(hex_, 0)

    def hedge_between(self, a: str, b: str) -> bool:
        return hexside_key(a, b) in self.hedges

    def difficult_hex(self, hex_: str) -> bool:
        return self.terrain_at(hex_) in DIFFICULT_HEXES

    def cover_hex(self, hex_: str) -> bool:
        """Woods, a town or a fieldwork section (5.3, 6.7.1)."""
        return self.terrain_at(hex_) in COVER_HEXES or hex_ in self.fieldworks

    def blocks_fire(self, hex_: str) -> bool:
        """R16.12: woods and towns block firing paths."""
        return self.terrain_at(hex_) in COVER_HEXES

    def may_enter(self, kind: Kind, hex_: str) -> bool:
        """R16.12: woods open to infantry and cavalry, towns and fieldworks to infantry only; generals go anywhere."""
        if kind is Kind.GENERAL:
            return True
        t = self.terrain_at(hex_)
        if t == TOWN or hex_ in self.fieldworks:
            return kind.infantry
        if t == WOODS:
            return kind.infantry or kind.cavalry
        return True

    def neighbour(self, hex_: str, direction: int) -> str | None:
        """The hex across hexside `direction` (R16.4's d(k)), None off the map."""
        return self.grid.id_of(self.grid.cube(hex_) + Direction(direction % 6).vector)

    @cached_property
    def objective_hexes(self) -> frozenset[str]:
        return frozenset(o.hex for o in self.victory.objectives)

    @cached_property
    def break_at(self) -> dict[str, int]:
        """R16.18: half the side's starting units (generals and wagons not counted), rounded up."""
        out = {}
        for s in self.side_order:
            n = sum(1 for uid in self.side_units[s] if self.units[uid].kind not in (Kind.GENERAL, Kind.WAGONS))
            out[s] = (n + 1) // 2
        return out

    # --- the kernel's scenario interface ----------------------------------------------------------
    def zoc_from(self, tec_class: str, hex_: str) -> tuple[str, ...]:
        """The seed has no zones of control."""
        return ()

    def may_stand(self, tec_class: str, hex_: str) -> bool:
        return self.may_enter(Kind(tec_class), hex_)


def parse_hm_scenario(data: Any, source: str = "<scenario>") -> HMScenario:
    """Validate and build a Horse and Musket scenario; ScenarioError names every problem."""
    r = DataReader(source)
    top = r.obj(data, "")
    if not top:
        raise ScenarioError(source, r.problems)
    r.problems += unknown_fields(top, TOP_FIELDS, "", "a field of a Horse and Musket scenario")
    if top.get("ruleset") != RULESET:
        r.bad("ruleset", f"must be '{RULESET}'")
    sid, title = r.text(top, "id", ""), r.text(top, "title", "")
    grid, terrain, fieldworks, elevation, hedges, default = _parse_map(r, r.obj(top.get("map"), "map"), top)
    sides = _parse_sides(r, r.obj(top.get("sides"), "sides"), grid)
    units = _parse_units(r, r.lst(top.get("units"), "units"), sides)
    setup = _parse_setup(r, r.lst(top.get("setup"), "setup"), units, grid, terrain, fieldworks)
    turns = r.integer(top, "turns", "", low=1)
    victory = r.objectives_victory(r.obj(top.get("victory"), "victory"), grid, list(sides), step_eliminated=1,
                                   unit_captured=1)
    if r.problems:
        raise ScenarioError(source, r.problems)
    order = tuple(sides)
    return HMScenario(
        id=sid, title=title, ruleset=RULESET, grid=grid, default_terrain=default, hex_terrain=terrain,
        fieldworks=fieldworks, elevation=elevation, hedges=hedges, sides=sides, side_order=(order[0], order[1]),
        units=units, setup=tuple(setup), turns=turns, victory=victory, first_player=order[0], raw=top)


def _parse_map(r: DataReader, m: dict[str, Any], top: Mapping[str, Any]) -> tuple[
        HexGrid, dict[str, str], frozenset[str], dict[str, int], frozenset[tuple[str, str]], str]:
    r.problems += unknown_fields(m, MAP_FIELDS, "map", "a field of the map")
    grid = r.grid(m)
    default = r.choice(m, "default_terrain", "map", TERRAINS, CLEAR)
    tec = r.obj(top.get("tec", {}), "tec")
    drawn = {k: set(r.obj(tec.get(k, {}), f"tec.{k}")) for k in ("terrain", "secondary", "hexsides")}
    terrain: dict[str, str] = {}
    for h, t in r.obj(m.get("hexes", {}), "map.hexes").items():
        if r.hex_(grid, h, f"map.hexes.{h}") is None:
            continue
        if t not in TERRAINS:
            r.bad(f"map.hexes.{h}", f"terrain {t!r} is not one of R16.12's: {', '.join(TERRAINS)}")
        terrain[h] = str(t)
    for t in {*terrain.values(), default} - drawn["terrain"]:
        r.bad("tec.terrain", f"terrain '{t}' is used on the map but has no entry saying how to draw it")
    works: set[str] = set()
    for h, feats in r.obj(m.get("secondary", {}), "map.secondary").items():
        if r.hex_(grid, h, f"map.secondary.{h}") is None:
            continue
        for f in r.lst(feats, f"map.secondary.{h}"):
            if f != FIELDWORK:
                r.bad(f"map.secondary.{h}", f"'{f}' is not a fieldwork section (R16.12)")
            elif FIELDWORK not in drawn["secondary"]:
                r.bad("tec.secondary", "fieldwork sections are on the map but have no entry saying how to draw them")
            works.add(h)
    elevation: dict[str, int] = {h: 1 for h, t in terrain.items() if t == HILL}
    for h, v in r.obj(m.get("elevation", {}), "map.elevation").items():
        if r.hex_(grid, h, f"map.elevation.{h}") is None:
            continue
        if terrain.get(h, default) != HILL:
            r.bad(f"map.elevation.{h}", "only a hill hex has an elevation (4.2.7.1, R16.20(53))")
        elif isinstance(v, bool) or not isinstance(v, int) or v < 1:
            r.bad(f"map.elevation.{h}", "a hill hex's elevation is a whole number of at least 1")
        else:
            elevation[h] = v
    hedges: set[tuple[str, str]] = set()
    for i, hs in enumerate(r.lst(m.get("hexsides", []), "map.hexsides")):
        path = f"map.hexsides[{i}]"
        hs = r.obj(hs, path)
        pair = r.lst(hs.get("hexes"), path + ".hexes")
        ok = len(pair) == 2 and all(r.hex_(grid, h, f"{path}.hexes") is not None for h in pair)
        if ok and not grid.is_adjacent(pair[0], pair[1]):
            r.bad(path + ".hexes", f"{pair[0]} and {pair[1]} are not adjacent, so they share no hexside")
            ok = False
        for f in r.lst(hs.get("features"), path + ".features"):
            if f not in HEXSIDE_FEATURES:
                r.bad(path + ".features", f"'{f}' is not a hedge or fence (R16.12)")
            elif f not in drawn["hexsides"]:
                r.bad("tec.hexsides", f"'{f}' is on the map but has no entry saying how to draw it")
            elif ok:
                hedges.add(hexside_key(pair[0], pair[1]))
    return grid, terrain, frozenset(works), elevation, frozenset(hedges), default


def _parse_sides(r: DataReader, data: dict[str, Any], grid: HexGrid) -> dict[str, Side]:
    if len(data) != 2:
        r.bad("sides", "a battle has exactly two sides")
    sides: dict[str, Side] = {}
    for sid, s in data.items():
        path = f"sides.{sid}"
        s = r.obj(s, path)
        r.problems += unknown_fields(s, SIDE_FIELDS, path, "a field of a side")
        mod = s.get("initiative", 0)
        if isinstance(mod, bool) or not isinstance(mod, int):
            r.bad(path + ".initiative", "the initiative modifier is a whole number (AL.P.2)")
            mod = 0
        edge = r.choice(s, "edge", path, ("north", "south", "east", "west"))
        sides[sid] = Side(sid, r.text(s, "name", path), r.text(s, "color", path), edge, mod,
                          r.flag(s, "discipline", path), grid.edge(edge))
    return sides


def _parse_units(r: DataReader, items: list[Any], sides: Mapping[str, Side]) -> dict[str, UnitDef]:
    units: dict[str, UnitDef] = {}
    kinds = tuple(TYPES)
    for i, u in enumerate(items):
        path = f"units[{i}]"
        u = r.obj(u, path)
        uid = r.text(u, "id", path)
        if uid in units:
            r.bad(path + ".id", f"unit id '{uid}' is used twice")
        side = r.choice(u, "side", path, tuple(sides) or ("?",))
        kind = TYPES[r.choice(u, "type", path, kinds)]
        name = r.text(u, "name", path)
        if kind is Kind.GENERAL:
            r.problems += unknown_fields(u, GENERAL_FIELDS, path, "a field of a general")
            units[uid] = UnitDef(uid, side, name, kind, quality=r.choice(u, "quality", path, QUALITIES),
                                 role=r.choice(u, "role", path, (C_IN_C, BRIGADE)))
            continue
        r.problems += unknown_fields(u, UNIT_FIELDS, path, "a field of a unit")
        grade = "" if kind is Kind.WAGONS else r.choice(u, "grade", path, GRADES, "average")
        weapon = r.choice(u, "weapon", path, WEAPONS, default_weapon(kind))
        dragoon, horse = r.flag(u, "dragoon", path), r.flag(u, "horse", path)
        if dragoon and kind is not Kind.HC:
            r.bad(path + ".dragoon", "dragoons are heavy cavalry (R16.20(3))")
        if horse and kind is not Kind.ARTILLERY:
            r.bad(path + ".horse", "only artillery is horse artillery")
        if kind is Kind.HC and weapon != "none":
            r.bad(path + ".weapon", "heavy cavalry and dragoons never fire (5.1.4, R16.20(30))")
        if (kind is Kind.ARTILLERY) != (weapon == "gun"):
            r.bad(path + ".weapon", "artillery, and only artillery, has a gun (R16.3)")
        brigade = u.get("brigade")
        if brigade is not None and not isinstance(brigade, str):
            r.bad(path + ".brigade", "must be a general's id")
            brigade = None
        units[uid] = UnitDef(uid, side, name, kind, grade, weapon, dragoon, horse, brigade)
    for i, (uid, d) in enumerate(units.items()):
        if d.brigade is None:
            continue
        g = units.get(d.brigade)
        if g is None or g.kind is not Kind.GENERAL or g.side != d.side or g.role != BRIGADE:
            r.bad(f"units[{i}].brigade", f"'{d.brigade}' is not a brigade commander of {d.side} (R16.9)")
    for s in sides:
        chiefs = [u for u in units.values() if u.side == s and u.role == C_IN_C]
        if len(chiefs) != 1:
            r.bad("units", f"{s} needs exactly one C-in-C (R16.3), not {len(chiefs)}")
    return units


def _parse_setup(r: DataReader, items: list[Any], units: Mapping[str, UnitDef], grid: HexGrid,
                 terrain: Mapping[str, str], works: frozenset[str]) -> list[Placement]:
    out: list[Placement] = []
    seen: dict[str, str] = {}
    held: dict[str, str] = {}
    for i, p in enumerate(items):
        path = f"setup[{i}]"
        p = r.obj(p, path)
        r.problems += unknown_fields(p, SETUP_FIELDS, path, "a field of a placement")
        uid = p.get("unit")
        d = units.get(uid) if isinstance(uid, str) else None
        if d is None:
            r.bad(path + ".unit", f"unit {uid!r} is not in units")
            continue
        if d.id in seen:
            r.bad(path + ".unit", f"unit '{d.id}' is set up twice")
        seen[d.id] = path
        h = r.hex_(grid, p.get("hex"), path + ".hex")
        if h is None:
            continue
        if d.kind is Kind.GENERAL:
            if "facing" in p or "formation" in p:
                r.bad(path, "a general is a marker: no facing, no formation (R16.3)")
            out.append(Placement(d.id, h))
            continue
        facing = r.choice(p, "facing", path, tuple(x.name for x in Direction))
        formation = r.choice(p, "formation", path, FORMATIONS[d.kind], FORMATIONS[d.kind][0])
        if h in held:
            r.bad(path + ".hex", f"{h} already holds {held[h]}: two units never share a hex (R16.3)")
        held[h] = d.id
        t = terrain.get(h, CLEAR)
        if ((t == TOWN or h in works) and not d.kind.infantry) or (t == WOODS and not (d.kind.infantry
                                                                                     or d.kind.cavalry)):
            r.bad(path + ".hex", f"a {d.kind.value} unit may not stand in {t if h not in works else 'a fieldwork'} "
                                 "(R16.12)")
        out.append(Placement(d.id, h, facing, formation))
    for uid in units:
        if uid not in seen:
            r.bad("setup", f"unit '{uid}' is not set up (R16.6: the set-up is fixed)")
    return out
