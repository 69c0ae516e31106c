"""Musket & Pike scenarios (seed 004 + R17, ruleset `musket-and-pike`): the map, the wings, the counters and the
victory points as validated data.

What this reads, by rule number: the TEC's hex and hexside types (R17.7-R17.9; a steep slope names its `high` hex,
R17.97), roads (R17.41, R17.44) and wagons ("OT"); `series` and `battle` (R17.9); each side's wings with their
Wing Commander, order and Cavalry Wing mark (R17.13, R17.20); the combat units' printed values (R17.10, R17.11,
R17.14) and the leaders' ratings and roles (R17.5, R17.12); the fixed set-up with facings (R17.16); the objectives and
the number of turns (R17.94). Every problem is reported with its JSON path; the model satisfies the kernel's scenario
interface (kernel/model.py).
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
from .tables import (
    ARQUEBUSIER,
    CALIBRES,
    CUIRASSIER,
    GENTLE,
    HEX_TERRAIN,
    HEXSIDE_FEATURES,
    HEXSIDE_TERRAIN,
    HI_NO_PIKES,
    HV_INF,
    LT_INF,
    STEEP,
    Kind,
    Order,
    Terrain,
)

RULESET: Final = "musket-and-pike"
TOP_FIELDS = ("id", "title", "subtitle", "ruleset", "provenance", "briefing", "description", "series", "battle", "map",
              "tec", "sides", "wings", "units", "setup", "turns", "first_side", "victory")
MAP_FIELDS = ("columns", "rows", "shifted", "default_terrain", "hexes", "roads", "wagons", "hexsides")
SIDE_FIELDS = ("name", "adjective", "color", "text_color", "edge")
WING_FIELDS = ("id", "side", "name", "commander", "order", "cavalry")
UNIT_FIELDS = ("id", "side", "name", "type", "class", "sp", "morale", "ma", "pikes", "regimental_artillery",
               "pistols", "calibre", "double", "large", "wing", "peasant_militia")
LEADER_FIELDS = ("id", "side", "name", "type", "role", "rating", "wing", "cromwell")
LI_CLASSES: Final = ("commanded_muskets", "dragoons")
CAV_CLASSES: Final = (CUIRASSIER, ARQUEBUSIER)
AC, WC = "ac", "wc"
SERIES: Final = ("other", "tacw")
BATTLES: Final = ("landskrona", "halmstad")


@dataclass(frozen=True, slots=True)
class UnitDef:
    """A combat unit's printed values (R17.10) or a leader (R17.12: role `ac` or `wc`, rating R17.5)."""

    id: str
    side: str
    name: str
    kind: Kind
    sub: str = ""  # LI: commanded_muskets / dragoons; cavalry: cuirassier / arquebusier
    sp: int = 0
    morale: int = 0
    ma: int = 0
    pikes: bool = False
    regimental_artillery: bool = False
    pistols: int = 0
    calibre: str = ""
    double: bool = False
    large: bool = False
    wing: str = ""
    peasant_militia: bool = False
    role: str = ""
    rating: int = 0
    cromwell: bool = False

    @property
    def cc_class(self) -> str:
        """R17.11: the 11.3.8 matrix's name ("" for artillery and leaders)."""
        if self.kind is Kind.HI:
            return HV_INF if self.pikes else HI_NO_PIKES
        if self.kind is Kind.LI:
            return LT_INF
        if self.kind is Kind.CAVALRY:
            return self.sub
        return ""

    @property
    def column(self) -> str:
        """The TEC's cost column (R17.40: artillery and leaders use the HI column)."""
        return "cav" if self.kind is Kind.CAVALRY else "li" if self.kind is Kind.LI else "hi"

    @property
    def hash_bound(self) -> bool:
        """R17.41: artillery and HI with integrated artillery keep to roads across `#` terrain."""
        return self.kind is Kind.ARTILLERY or (self.kind is Kind.HI and self.regimental_artillery)

    # --- the kernel's unit interface ---
    @property
    def formation(self) -> str:
        return self.wing

    @property
    def steps(self) -> int:
        return 1

    @property
    def tec_class(self) -> str:
        return self.kind.value


@dataclass(frozen=True, slots=True)
class Wing:
    id: str
    side: str
    name: str
    commander: str
    order: Order
    cavalry: bool


@dataclass(frozen=True, slots=True)
class Side:
    id: str
    name: str
    color: str
    edge: str
    entry_hexes: tuple[str, ...] = ()


Placement = FacedPlacement  # R17.16: the fixed set-up gives each unit its hex and facing


@dataclass(frozen=True)
class MPScenario(ScenarioBase):
    id: str
    title: str
    ruleset: str
    grid: HexGrid
    default_terrain: str
    hex_terrain: Mapping[str, str]
    roads: frozenset[tuple[str, str]]
    wagons: frozenset[str]
    hexsides: Mapping[tuple[str, str], str]  # hexside key -> feature (steep slopes as "up/down" by `high`)
    high: Mapping[tuple[str, str], str]  # steep slope hexside -> its high hex
    sides: Mapping[str, Side]
    side_order: tuple[str, str]
    wings: Mapping[str, Wing]
    units: Mapping[str, UnitDef]
    setup: tuple[Placement, ...]
    turns: int
    victory: Victory
    first_player: str
    series: str
    battle: str | None
    raw: Mapping[str, Any] = field(repr=False, compare=False)
    reinforcements: tuple[Any, ...] = ()
    hide_enemy_reinforcements: bool = False
    hidden_movement: HiddenMovement | None = None

    def turn_label(self, turn: int) -> str:
        return f"Turn {turn}"

    # --- the ground (TEC) ------------------------------------------------------------------------
    def terrain(self, hex_: str) -> Terrain:
        return HEX_TERRAIN[self.hex_terrain.get(hex_, self.default_terrain)]

    def side_feature(self, a: str, b: str) -> str | None:
        return self.hexsides.get(hexside_key(a, b))

    def side_terrain(self, frm: str, to: str) -> Terrain | None:
        """The hexside crossed going from `frm` to `to`, as the TEC reads it (a steep slope up or down)."""
        f = self.side_feature(frm, to)
        if f is None:
            return None
        if f == STEEP:
            return HEXSIDE_TERRAIN["up_steep_slope" if self.high[hexside_key(frm, to)] == to else "down_steep_slope"]
        return HEXSIDE_TERRAIN[f]

    def road_between(self, a: str, b: str) -> bool:
        return hexside_key(a, b) in self.roads

    def road_in(self, hex_: str) -> bool:
        return hex_ in self.road_hexes

    @cached_property
    def road_hexes(self) -> frozenset[str]:
        return frozenset(h for pair in self.roads for h in pair)

    def hex_blocks_los(self, hex_: str) -> bool:
        return self.terrain(hex_).blocks or hex_ in self.wagons

    def side_blocks_los(self, a: str, b: str) -> bool:
        f = self.hexsides.get((a, b))
        return f == STEEP or (f is not None and f != GENTLE and HEXSIDE_TERRAIN[f].blocks)

    def may_stand(self, tec_class: str, hex_: str) -> bool:
        if tec_class == Kind.LEADER.value:
            return self.terrain(hex_).hi is not None
        column = {"cavalry": "cav", "li": "li"}.get(tec_class, "hi")
        t = self.terrain(hex_)
        return {"hi": t.hi, "cav": t.cav, "li": t.li}[column] is not None

    def zoc_from(self, tec_class: str, hex_: str) -> tuple[str, ...]:
        """The card has no zones of control."""
        return ()

    # --- the armies ---------------------------------------------------------------------------------
    @cached_property
    def wing_units(self) -> Mapping[str, tuple[str, ...]]:
        out: dict[str, list[str]] = {w: [] for w in self.wings}
        for uid, d in self.units.items():
            if d.kind is not Kind.LEADER:
                out[d.wing].append(uid)
        return {w: tuple(v) for w, v in out.items()}

    @cached_property
    def army_commander(self) -> Mapping[str, str]:
        return {d.side: uid for uid, d in self.units.items() if d.role == AC}

    def side_wings(self, side: str) -> tuple[str, ...]:
        return tuple(w for w, x in self.wings.items() if x.side == side)

    @cached_property
    def objective_hexes(self) -> frozenset[str]:
        return frozenset(o.hex for o in self.victory.objectives)


def parse_mp_scenario(data: Any, source: str = "<scenario>") -> MPScenario:
    """Validate and build a Musket & Pike scenario; ScenarioError names every problem."""
    r = DataReader(source)
    top = r.obj(data, "")
    if not top:
        raise ScenarioError(source, r.problems)
    r.problems += unknown_fields(top, TOP_FIELDS, "", "a field of a Musket & Pike scenario")
    if top.get("ruleset") != RULESET:
        r.bad("ruleset", f"must be '{RULESET}'")
    sid, title = r.text(top, "id", ""), r.text(top, "title", "")
    series = r.choice(top, "series", "", SERIES, "other")
    battle = top.get("battle")
    if battle is not None and battle not in BATTLES:
        r.bad("battle", f"must be one of {', '.join(BATTLES)} or absent (R17.9)")
        battle = None
    m = r.obj(top.get("map"), "map")
    r.problems += unknown_fields(m, MAP_FIELDS, "map", "a field of the map")
    grid = r.grid(m)
    default = r.choice(m, "default_terrain", "map", tuple(HEX_TERRAIN), "clear")
    terrain: dict[str, str] = {}
    for h, t in r.obj(m.get("hexes", {}), "map.hexes").items():
        if r.hex_(grid, h, f"map.hexes.{h}") is None:
            continue
        if t not in HEX_TERRAIN:
            r.bad(f"map.hexes.{h}", f"terrain {t!r} is not a TEC hex type: {', '.join(HEX_TERRAIN)}")
            continue
        terrain[h] = str(t)
    roads = {p for i, x in enumerate(r.lst(m.get("roads", []), "map.roads"))
             if (p := r.pair(grid, x, f"map.roads[{i}]")) is not None}
    wagons = {h for i, h in enumerate(r.lst(m.get("wagons", []), "map.wagons"))
              if r.hex_(grid, h, f"map.wagons[{i}]") is not None}
    hexsides: dict[tuple[str, str], str] = {}
    high: dict[tuple[str, str], str] = {}
    for i, hs in enumerate(r.lst(m.get("hexsides", []), "map.hexsides")):
        path = f"map.hexsides[{i}]"
        hs = r.obj(hs, path)
        r.problems += unknown_fields(hs, ("hexes", "feature", "high"), path, "a field of a hexside")
        key = r.pair(grid, hs.get("hexes"), path + ".hexes")
        feature = r.choice(hs, "feature", path, HEXSIDE_FEATURES)
        if key is None:
            continue
        if key in hexsides:
            r.bad(path, f"hexside {key[0]}|{key[1]} is listed twice")
        hexsides[key] = feature
        if feature == STEEP:
            up = hs.get("high")
            if up not in key:
                r.bad(path + ".high", "a steep slope names its high hex, one of its two hexes (R17.7)")
            else:
                high[key] = str(up)
        elif "high" in hs:
            r.bad(path + ".high", "only a steep slope has a high side")
    sides: dict[str, Side] = {}
    sdata = r.obj(top.get("sides"), "sides")
    if len(sdata) != 2:
        r.bad("sides", "a battle has exactly two sides")
    for s, v in sdata.items():
        v = r.obj(v, f"sides.{s}")
        r.problems += unknown_fields(v, SIDE_FIELDS, f"sides.{s}", "a field of a side")
        edge = r.choice(v, "edge", f"sides.{s}", ("north", "south", "east", "west"))
        sides[s] = Side(s, r.text(v, "name", f"sides.{s}"), r.text(v, "color", f"sides.{s}"), edge, grid.edge(edge))
    wings: dict[str, Wing] = {}
    for i, w in enumerate(r.lst(top.get("wings"), "wings")):
        path = f"wings[{i}]"
        w = r.obj(w, path)
        r.problems += unknown_fields(w, WING_FIELDS, path, "a field of a wing")
        wid = r.text(w, "id", path)
        if wid in wings:
            r.bad(path + ".id", f"wing id '{wid}' is used twice")
        wings[wid] = Wing(wid, r.choice(w, "side", path, tuple(sides) or ("?",)), r.text(w, "name", path),
                          r.text(w, "commander", path), Order(r.choice(w, "order", path, tuple(o.value for o in Order))),
                          r.flag(w, "cavalry", path))
    units = _parse_units(r, r.lst(top.get("units"), "units"), sides, wings)
    setup = _parse_setup(r, r.lst(top.get("setup"), "setup"), units, grid, terrain, default)
    turns = r.integer(top, "turns", "", 1, 99)
    first = r.choice(top, "first_side", "", tuple(sides) or ("?",), next(iter(sides), "?"))
    victory = r.objectives_victory(r.obj(top.get("victory"), "victory"), grid, list(sides), step_eliminated=0,
                                   unit_captured=0)
    if r.problems:
        raise ScenarioError(source, r.problems)
    order = (first, next(s for s in sides if s != first))
    return MPScenario(
        id=sid, title=title, ruleset=RULESET, grid=grid, default_terrain=default, hex_terrain=terrain,
        roads=frozenset(roads), wagons=frozenset(wagons), hexsides=hexsides, high=high, sides=sides,
        side_order=order, wings=wings, units=units, setup=tuple(setup), turns=turns, victory=victory,
        first_player=first, series=series, battle=battle, raw=top)


def _parse_units(r: DataReader, items: list[Any], sides: Mapping[str, Side], wings: Mapping[str, Wing]
                 ) -> dict[str, UnitDef]:
    units: dict[str, UnitDef] = {}
    for i, u in enumerate(items):
        path = f"units[{i}]"
        u = r.obj(u, path)
        uid = r.text(u, "id", path)
        if uid in units:
            r.bad(path + ".id", f"unit id '{uid}' is used twice")
        side = r.choice(u, "side", path, tuple(sides) or ("?",))
        kind = Kind(r.choice(u, "type", path, tuple(k.value for k in Kind)))
        name = r.text(u, "name", path)
        wing = u.get("wing", "")
        if kind is Kind.LEADER:
            r.problems += unknown_fields(u, LEADER_FIELDS, path, "a field of a leader")
            role = r.choice(u, "role", path, (AC, WC))
            if role == WC and (wing not in wings or wings[wing].side != side):
                r.bad(path + ".wing", f"a Wing Commander names a wing of {side} (R17.12)")
            units[uid] = UnitDef(uid, side, name, kind, wing=str(wing or ""), role=role,
                                 rating=r.integer(u, "rating", path, -2, 1), cromwell=r.flag(u, "cromwell", path))
            continue
        r.problems += unknown_fields(u, UNIT_FIELDS, path, "a field of a unit")
        if wing not in wings or wings[wing].side != side:
            r.bad(path + ".wing", f"every unit belongs to one wing of its side (R17.13), not {wing!r}")
        sub = ""
        if kind is Kind.LI:
            sub = r.choice(u, "class", path, LI_CLASSES)
        elif kind is Kind.CAVALRY:
            sub = r.choice(u, "class", path, CAV_CLASSES)
        elif "class" in u:
            r.bad(path + ".class", "only LI and cavalry name a class; HI's comes from its pikes (R17.11)")
        pikes = r.flag(u, "pikes", path)
        ra = r.flag(u, "regimental_artillery", path)
        if kind is not Kind.HI and (pikes or ra):
            r.bad(path, "only Heavy Infantry has pikes or regimental artillery (R17.10)")
        pistols = r.integer(u, "pistols", path, 0, 2, 0)
        if pistols and kind is not Kind.CAVALRY:
            r.bad(path + ".pistols", "only cavalry carries pistol shots (R17.10)")
        calibre, double = "", False
        if kind is Kind.ARTILLERY:
            calibre, double = r.choice(u, "calibre", path, CALIBRES), r.flag(u, "double", path)
        units[uid] = UnitDef(uid, side, name, kind, sub, r.integer(u, "sp", path, 1, 40),
                             r.integer(u, "morale", path, 4, 8), r.integer(u, "ma", path, 1, 12), pikes, ra, pistols,
                             calibre, double, r.flag(u, "large", path), str(wing), r.flag(u, "peasant_militia", path))
    for s in sides:
        acs = [d for d in units.values() if d.side == s and d.role == AC]
        if len(acs) != 1:
            r.bad("units", f"{s} needs exactly one Army Commander (R17.12), not {len(acs)}")
    for wid, w in wings.items():
        wc = units.get(w.commander)
        if wc is None or wc.role != WC or wc.wing != wid:
            r.bad("wings", f"wing '{wid}' names '{w.commander}', who is not its Wing Commander (R17.12)")
        members = [d for d in units.values() if d.wing == wid and d.kind is not Kind.LEADER]
        if not members:
            r.bad("wings", f"wing '{wid}' has no units")
        if w.cavalry and not all(d.kind is Kind.CAVALRY or d.sub == "dragoons" for d in members):
            r.bad("wings", f"a Cavalry Wing holds only cavalry and Dragoons (R17.13): '{wid}' does not")
    return units


def _parse_setup(r: DataReader, items: list[Any], units: Mapping[str, UnitDef], grid: HexGrid,
                 terrain: Mapping[str, str], default: str) -> list[Placement]:
    out: list[Placement] = []
    seen: set[str] = set()
    for i, p in enumerate(items):
        path = f"setup[{i}]"
        p = r.obj(p, path)
        r.problems += unknown_fields(p, ("unit", "hex", "facing"), path, "a field of a placement")
        uid = p.get("unit")
        d = units.get(uid) if isinstance(uid, str) else None
        if d is None:
            r.bad(path + ".unit", f"unit {uid!r} is not in units")
            continue
        if d.id in seen:
            r.bad(path + ".unit", f"unit '{d.id}' is set up twice")
        seen.add(d.id)
        h = r.hex_(grid, p.get("hex"), path + ".hex")
        if h is None:
            continue
        t = HEX_TERRAIN[terrain.get(h, default)]
        if {"cav": t.cav, "li": t.li, "hi": t.hi}["cav" if d.kind is Kind.CAVALRY else "li" if d.kind is Kind.LI
                                                  else "hi"] is None:
            r.bad(path + ".hex", f"{d.name} may not stand in {t.name} (TEC: NA)")
        if d.kind is Kind.LEADER:
            if "facing" in p:
                r.bad(path, "a leader has no facing (R17.12)")
            out.append(Placement(d.id, h))
            continue
        out.append(Placement(d.id, h, r.choice(p, "facing", path, tuple(x.name for x in Direction))))
    for uid in units:
        if uid not in seen:
            r.bad("setup", f"'{uid}' is not set up")
    return out
