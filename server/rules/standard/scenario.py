"""The Standard rules' scenarios (seed 002, ruleset `standard`): counters and map as validated data.

What this reads, by rule number:

* 2.2 the map: a primary terrain per hex and any number of secondary terrains; hexside features;
  roads and trails (4.6); the TEC (tec.py): movement costs (4.5), march limits (4.7), cumulative halvings (7.7),
  ZOC blocking (6.4), LOS blocking (8.6), no-advance terrain (7.12, R13), hills (8.7), trains (12.2), the
  no-charge column (7.13(3), 9.3(1), S30) and 2.2's clear hexsides beside a terrain (`hexside_effects`).
* 2.4-2.7, 2.9 the counters: the Unit ID (`unit_id`, 7.11, S11); two-step and one-step infantry (brigades,
  regiments), battalions, cavalry, squadrons and artillery with their ineffective sides; the formation `0`, `A`
  or a formation id, and sub-formations (19.1); a parenthesised CF, a `V` or bracketed MA; cavalry charge factors
  (9.3(4)); artillery attack, defence and range with MR 6/3 when unprinted (8.1); red dots per step (11.2);
  leaders with their command span (10.3); HQ and trains with their inactive-side MA (12.1, 12.2).
* 3.2 the TRT: one box per turn with its light (day, 14.3 twilight, 14.2 night) and replacements (11.2).
* 19.4 the optional weather block (weather.py, S50): turn 1's weather, the Rain Table, fixed turns.
* 19.2, 19.5, 19.9 ridges (TEC) and the optional special_rules block (special.py, S51).
* 12.1-12.3 each army's HQ and trains, and each side's LOC hexes.

A scenario that mixes in Quick Play's fields is refused with the field named (`QUICKPLAY_FIELDS`), and so is a
unit field the format does not know (a misspelt `unit_id`), with the likely one suggested.
The model satisfies the kernel's scenario interface (kernel/model.py) and shares its methods
(`ScenarioBase`), its victory conditions, reinforcements and leader factors with the kernel's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from typing import Any

import jsonschema

from ..kernel.hexes import HexGrid, hexside_key
from ..kernel.hidden import HiddenMovement
from ..kernel.model import ScenarioBase, Victory
from ..kernel.scenario import (
    LeaderFactors,
    ScenarioError,
    load_schema,
    parse_hexsides,
    parse_paths,
    parse_victory,
    schema_problems,
    unknown_fields,
)
from .areas import AreaPlacement, AreaReader, FreeSetup, MapFacts, parse_areas
from .areas import field_problems as _area_field_problems
from .arrivals import Arrival, parse_arrivals
from .arrivals import field_problems as _arrival_field_problems
from .hidden_scenario import parse_hidden
from .special import SpecialRules, parse_special, split_ridges
from .special import field_problems as _special_field_problems
from .tec import HexsideFeature, Secondary, Terrain, edge_effects, parse_tec
from .victory_rules import VictoryRules, extend_victory, parse_victory_rules
from .victory_rules import field_problems as _victory_field_problems
from .weather import WeatherRules, parse_weather
from .weather import field_problems as _weather_field_problems

ARTILLERY_MR_EFFECTIVE = 6  # 8.1: MR when none is printed
ARTILLERY_MR_INEFFECTIVE = 3  # 8.1
LIGHTS = ("day", "twilight", "night")  # 14.2, 14.3


class Kind(str, Enum):
    INFANTRY = "infantry"  # brigades and regiments, one or two steps (2.5)
    BATTALION = "battalion"  # one step, ineffective side (2.7)
    CAVALRY = "cavalry"  # one step, ineffective side (2.6)
    SQUADRON = "squadron"  # one step, ineffective side (2.7)
    ARTILLERY = "artillery"  # one step, ineffective side, attack/defence/range (2.6, 8.1)
    LEADER = "leader"  # 10.x
    HQ = "hq"  # 12.1
    TRAINS = "trains"  # 12.2

    @property
    def is_combat(self) -> bool:
        """2.4: infantry, artillery and cavalry are the combat units."""
        return self in _COMBAT

    @property
    def has_ineffective_side(self) -> bool:
        """2.6, 2.7, 2.9: one-step units other than infantry brigades/regiments, and leaders."""
        return self in _INEFFECTIVE_SIDE

    @property
    def counts_for_stacking(self) -> bool:
        """5.2: battalions, squadrons, leaders and HQs do not count (trains cannot be stacked with, 12.2)."""
        return self in _COMBAT and self not in (Kind.BATTALION, Kind.SQUADRON)

    @property
    def tec_class(self) -> str:
        """The TEC column: battalions move as infantry, squadrons and the HQ as cavalry (12.1)."""
        return _TEC_CLASS[self]


_COMBAT = frozenset({Kind.INFANTRY, Kind.BATTALION, Kind.CAVALRY, Kind.SQUADRON, Kind.ARTILLERY})
_INEFFECTIVE_SIDE = frozenset({Kind.BATTALION, Kind.CAVALRY, Kind.SQUADRON, Kind.ARTILLERY, Kind.LEADER})
_TEC_CLASS = {
    Kind.INFANTRY: "infantry", Kind.BATTALION: "infantry", Kind.CAVALRY: "cavalry", Kind.SQUADRON: "cavalry",
    Kind.ARTILLERY: "artillery", Kind.LEADER: "leader", Kind.HQ: "cavalry", Kind.TRAINS: "trains",
}


@dataclass(frozen=True, slots=True)
class CounterSide:
    """One printed side of a combat unit (2.4, 8.1)."""

    mr: int
    ma: int | None  # None: a printed "V" (4.4)
    cf: int = 0  # infantry and cavalry
    parenthesized: bool = False  # 2.4: halved when attacking (7.7)
    bracketed: bool = False  # 2.4: no skirmish (7.13)
    attack: int = 0  # artillery (8.1)
    defense: int = 0  # artillery (8.1)
    range: int = 0  # artillery (8.7)
    charge: int = 0  # cavalry and squadrons (9.3(4))
    red_dot: bool = False  # 11.2: not replaceable with replacement steps

    @property
    def variable_ma(self) -> bool:
        return self.ma is None


@dataclass(frozen=True, slots=True)
class UnitDef:
    id: str
    side: str
    kind: Kind
    name: str
    formation: str  # "0" independent, "A" all, or a formation id (2.4)
    sub_formation: str | None = None  # 19.1
    unit_id: str | None = None  # 2.4: the Unit ID printed on the counter (7.11)
    steps: int = 1
    full: CounterSide | None = None
    reduced: CounterSide | None = None
    ineffective: CounterSide | None = None
    leader: LeaderFactors | None = None
    leader_ineffective: LeaderFactors | None = None
    span: tuple[str, ...] = ()  # 10.3
    army: str | None = None  # HQ and trains (12.1, 12.2)
    inactive_ma: int = 0  # HQ and trains (12.1, 12.2)

    @property
    def tec_class(self) -> str:
        return self.kind.tec_class


@dataclass(frozen=True, slots=True)
class Side:
    id: str
    name: str
    color: str
    edge: str
    entry_hexes: tuple[str, ...]
    loc: tuple[str, ...]  # 12.3
    entry_points: Mapping[str, str] = field(default_factory=dict)  # 17.1: letter -> entry hex
    per_formation: int | None = None  # 17.2, 17.4 (S62): replacement steps per formation per turn


@dataclass(frozen=True, slots=True)
class Formation:
    id: str
    side: str
    name: str
    army: str
    sub_formations: tuple[str, ...] = ()  # 19.1


@dataclass(frozen=True, slots=True)
class TurnBox:
    """One box of the TRT (3.2)."""

    turn: int
    label: str
    light: str  # "day", "twilight" (14.3) or "night" (14.2)
    replacements: Mapping[str, int]  # 11.2


@dataclass(frozen=True, slots=True)
class Placement:
    unit: str
    hex: str
    disrupted: bool = False
    ineffective: bool = False
    reduced: bool = False
    inactive: bool = False
    within: int = 0  # never a Quick Play 'w/N': a Standard set-up area is the placement's `area` (setup_areas.py)


@dataclass(frozen=True)
class StandardScenario(ScenarioBase):
    id: str
    title: str
    grid: HexGrid
    default_terrain: str
    hex_terrain: Mapping[str, str]
    hex_secondary: Mapping[str, tuple[str, ...]]
    terrain: Mapping[str, Terrain]
    secondary: Mapping[str, Secondary]
    hexside_features: Mapping[str, HexsideFeature]
    hexsides: Mapping[tuple[str, str], frozenset[str]]
    road_links: frozenset[tuple[str, str]]
    road_hexes: frozenset[str]
    trail_links: frozenset[tuple[str, str]]
    trail_hexes: frozenset[str]
    sides: Mapping[str, Side]
    side_order: tuple[str, str]
    formations: Mapping[str, Formation]
    units: Mapping[str, UnitDef]
    setup: tuple[Placement, ...]
    reinforcements: tuple[Arrival, ...]  # 13.1, 17.4 (arrivals.py)
    trt: tuple[TurnBox, ...]
    first_player: str
    victory: Victory
    hq: Mapping[str, str] = field(default_factory=dict)  # army -> its HQ unit (12.1)
    trains: Mapping[str, str] = field(default_factory=dict)  # army -> its trains unit (12.2)
    ruleset: str = "standard"
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)
    hide_enemy_reinforcements: bool = False  # a Quick Play option; the Standard rules have none
    clear_hexsides: Mapping[str, HexsideFeature] = field(default_factory=dict)  # 2.2: by the terrain beside them
    weather: WeatherRules | None = None  # 19.4 (S50): None, the scenario has no weather
    special: SpecialRules = field(default_factory=SpecialRules)  # 19.5, 19.9 (S51)
    ridges: frozenset[tuple[str, str]] = frozenset()  # 19.2 (S51): ridge hexsides, kept out of `hexsides`
    victory_rules: VictoryRules = field(default_factory=VictoryRules)  # 18.0 (S68): conditions, 18.3's points
    areas: Mapping[str, AreaPlacement] = field(default_factory=dict)  # 17.2: unit -> its set-up area (areas.py)
    free_setup: Mapping[str, FreeSetup] = field(default_factory=dict)  # 17.3: side -> its free set-up
    map_facts: MapFacts | None = field(default=None, repr=False, compare=False)  # what the areas read of the map
    hidden_movement: HiddenMovement | None = None  # 19.8 (hidden.py, S53-S56): the boxes and their markers

    @property
    def turns(self) -> int:
        return len(self.trt)

    def turn_label(self, turn: int) -> str:
        """3.2: the TRT box's label."""
        return self.trt[turn - 1].label if 1 <= turn <= len(self.trt) else f"Turn {turn}"

    def army_of(self, uid: str) -> str:
        """12.1: the army a unit belongs to: its formation's (an HQ or trains names its own; '0' and 'A' units
        and leaders of no listed formation belong to their side's army)."""
        d = self.units[uid]
        if d.army is not None:
            return d.army
        f = self.formations.get(d.formation)
        return f.army if f is not None else d.side

    @cached_property
    def arrivals(self) -> Mapping[str, Arrival]:
        """13.1, 17.4: each reinforcement's arrival, by unit."""
        return {a.unit: a for a in self.reinforcements}

    @cached_property
    def cost_memo(self) -> dict[tuple[str, str, str], int | None]:
        """(TEC class, from, to) -> 4.5's terrain cost of the step, filled as movement asks (movement.terrain_cost)."""
        return {}

    # --- the kernel's scenario interface (kernel/model.py) ------------------------------------
    def zoc_from(self, tec_class: str, hex_: str) -> tuple[str, ...]:
        """6.1, 6.4: the hexes a unit of this class in `hex_` projects its ZOC into."""
        return self.zoc_into[tec_class][hex_]

    def may_stand(self, tec_class: str, hex_: str) -> bool:
        """Whether a unit of this class may be in `hex_`: terrain open to it, or a road or trail hex (4.6)."""
        if hex_ in self.road_hexes or hex_ in self.trail_hexes:
            return True
        if tec_class == "trains":
            return self.terrain_at(hex_).trains
        if self.terrain_at(hex_).is_prohibited(tec_class):
            return False
        return not any(tec_class in s.prohibited for s in self.secondary_at(hex_))

    def terrain_at(self, ccrr: str) -> Terrain:
        return self.terrain[self.hex_terrain.get(ccrr, self.default_terrain)]

    def secondary_at(self, ccrr: str) -> tuple[Secondary, ...]:
        return tuple(self.secondary[s] for s in self.hex_secondary.get(ccrr, ()))

    def light(self, turn: int) -> str:
        """14.1: the TRT says whether a turn is day, twilight or night."""
        return self.trt[turn - 1].light

    def hexside_effects(self, a: str, b: str) -> tuple[HexsideFeature, ...]:
        """2.2: what the hexside between adjacent a and b does in combat (7.7, 7.12, 7.13(3), 9.3(1)): its printed
        features, or, on a clear hexside, the TEC's `clear_hexsides` for the terrain at its edge (tec.py)."""
        return self.hexside_effect_table.get(hexside_key(a, b), ())

    @cached_property
    def hexside_effect_table(self) -> Mapping[tuple[str, str], tuple[HexsideFeature, ...]]:
        out: dict[tuple[str, str], tuple[HexsideFeature, ...]] = {}
        for a in self.grid.all_hexes():
            for b in self.grid.neighbors(a):
                key = hexside_key(a, b)
                printed = self.hexsides.get(key, frozenset())
                effects = tuple(self.hexside_features[f] for f in sorted(printed)) + edge_effects(
                    self.clear_hexsides, printed, self.terrain_at(a).id, self.terrain_at(b).id)
                if effects:
                    out[key] = effects
        return out

    def could_move(self, tec_class: str, a: str, b: str) -> bool:
        """Whether a unit of this TEC class could move from a into the adjacent b at all (prohibitions only;
        4.6: a road or trail across the hexside carries it past the terrain).  Used by 6.4, 7.5, 7.6, 7.12."""
        return b in self.movable_into[tec_class].get(a, ())

    @cached_property
    def movable_into(self) -> Mapping[str, Mapping[str, frozenset[str]]]:
        """Per TEC class, per hex, the adjacent hexes a unit there could move into (see `could_move`)."""
        out: dict[str, dict[str, frozenset[str]]] = {}
        for cls in ("infantry", "cavalry", "artillery", "leader", "trains"):
            table: dict[str, frozenset[str]] = {}
            for a in self.grid.all_hexes():
                table[a] = frozenset(b for b in self.grid.neighbors(a) if self._could_move(cls, a, b))
            out[cls] = table
        return out

    @cached_property
    def movable_from(self) -> Mapping[str, Mapping[str, tuple[str, ...]]]:
        """Per TEC class, per hex, the adjacent hexes a unit could move into it from (the reverse of
        `movable_into`; 7.6's search runs backwards from the destinations)."""
        out: dict[str, dict[str, tuple[str, ...]]] = {}
        for cls, table in self.movable_into.items():
            rev: dict[str, list[str]] = {}
            for a, bs in table.items():
                for b in bs:
                    rev.setdefault(b, []).append(a)
            out[cls] = {b: tuple(v) for b, v in rev.items()}
        return out

    @cached_property
    def line_hints(self) -> dict[tuple[str, str, str], tuple[str, ...]]:
        """(unit, TEC class, start) -> the last safe line found for an HQ or trains (retreat.has_safe_line), a
        hint re-checked before use: it changes no answer, only how soon the answer comes."""
        return {}

    @cached_property
    def zoc_plan(self) -> Mapping[str, tuple[tuple[str, Mapping[str, tuple[str, ...]]], ...]]:
        """Per side, each combat unit with the ZOC table of its class (6.1: only combat units exert one), so
        `zoc.zoc_of` reads a unit's hexes without looking up its kind."""
        out: dict[str, list[tuple[str, Mapping[str, tuple[str, ...]]]]] = {side: [] for side in self.sides}
        for uid, d in self.units.items():
            if d.kind.is_combat:
                out.setdefault(d.side, []).append((uid, self.zoc_into[d.kind.tec_class]))
        return {side: tuple(v) for side, v in out.items()}

    @cached_property
    def zoc_into(self) -> Mapping[str, Mapping[str, tuple[str, ...]]]:
        """Per TEC class, per hex, the adjacent hexes a unit there projects its ZOC into (6.4): not out of
        or into terrain that blocks it, not across a blocking hexside, not where it could not move."""
        out: dict[str, dict[str, tuple[str, ...]]] = {}
        for cls, movable in self.movable_into.items():
            table: dict[str, tuple[str, ...]] = {}
            for h in self.grid.all_hexes():
                if self.terrain_at(h).blocks_zoc_out or any(s.blocks_zoc_out for s in self.secondary_at(h)):
                    table[h] = ()
                    continue
                table[h] = tuple(
                    n for n in self.grid.neighbors(h)
                    if n in movable[h]
                    and not self.terrain_at(n).blocks_zoc_into
                    and not any(s.blocks_zoc_into for s in self.secondary_at(n))
                    and not any(self.hexside_features[f].blocks_zoc for f in self.hexsides.get(hexside_key(h, n), ()))
                )
            out[cls] = table
        return out

    def _could_move(self, tec_class: str, a: str, b: str) -> bool:
        key = hexside_key(a, b)
        if key in self.road_links or key in self.trail_links:
            return True
        if tec_class == "trains":
            # 12.2: only clear, road and trail hexes (a path hex: any hex a road or trail runs through),
            # and only across plain, bridge and ford hexsides
            hex_ok = self.terrain_at(b).trains or b in self.road_hexes or b in self.trail_hexes
            return hex_ok and all(self.hexside_features[f].trains for f in self.hexsides.get(key, ()))
        if self.terrain_at(b).is_prohibited(tec_class):
            return False
        if any(tec_class in s.prohibited for s in self.secondary_at(b)):
            return False
        return not any(tec_class in self.hexside_features[f].prohibited for f in self.hexsides.get(key, ()))


# --- fields that belong to Quick Play's format (refused here with the field named) -----------------
# Each entry: where it sits, and what the Standard rules use instead.
QUICKPLAY_FIELDS: dict[str, str] = {
    "turn_labels": "the Standard rules label turns on the TRT: give each box of 'trt' its 'label' (3.2)",
    "hidden": "hidden reinforcements are a Quick Play scenario option; the Standard rules have none",
    "tec.road_mp": "the Standard rules fix the road rate: one MP per path hex (4.6), 1/2 MP marching (4.7)",
    "sides.*.replacement_steps": "the Standard rules give replacements per turn on the TRT: 'trt[n].replacements' (11.2)",
    "sides.*.return_hexes": "units re-enter at an active HQ, active trains or a LOC hex (13.2), not at listed hexes",
    "setup.*.within": "Quick Play's 'w/1' placement (3.2) is not a Standard rules set-up",
    "setup.*.square": "squares are formed in play (9.5), not set up",
    "units.*.range": "an artillery unit's range is printed on each side: 'full.range', 'ineffective.range' (8.1)",
    "tec.terrain.*.defense": "the Standard rules' terrain halves (7.7): use 'halves_defense' or 'halves_attack_into'",
    "tec.terrain.*.attack_halved_into": "use 'halves_attack_into' (7.7, halvings are cumulative)",
    "tec.terrain.*.attack_halved_out_of": "use 'halves_attack_out_of' (7.7)",
    "tec.terrain.*.bombard_modifier": "bombardment reads the CRT column of its total strength (8.5, R12)",
    "tec.terrain.*.no_bombard": "artillery may not bombard into terrain prohibited to it (8.2): use 'prohibited'",
    "tec.terrain.*.open": "the basic terrain is marked 'clear' (2.2)",
    "tec.hexsides.*.attack_halved_across": "use 'halves_attack_across' (7.7)",
    "tec.hexsides.*.defense_across": "the Standard rules' hexsides halve (7.7): use 'halves_attack_across'",
    "tec.hexsides.*.road_crossing": "roads and trails cross hexsides by their paths (4.6)",
}
_QUICKPLAY_FACTORS = ("attack", "defense")  # on a non-artillery counter: Quick Play's two factors


def _paths(node: Any, parts: list[str], path: str) -> list[str]:
    """The concrete JSON paths matching a pattern like 'sides.*.loc' ('*': any key or list index)."""
    if not parts:
        return [path]
    head, rest = parts[0], parts[1:]
    if isinstance(node, list) and head == "*":
        return [q for i, item in enumerate(node) for q in _paths(item, rest, f"{path}[{i}]")]
    if not isinstance(node, Mapping):
        return []
    keys = list(node) if head == "*" else ([head] if head in node else [])
    return [q for k in keys for q in _paths(node[k], rest, f"{path}.{k}" if path else str(k))]


def _quickplay_fields(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for pattern, instead in QUICKPLAY_FIELDS.items():
        for path in _paths(data, pattern.split("."), ""):
            name = pattern.rsplit(".", 1)[-1]
            out.append((path, f"'{name}' is a Quick Play scenario field, not a Standard rules one: {instead}"))
    units = data.get("units")
    if isinstance(units, list):
        for i, u in enumerate(units):
            if not isinstance(u, Mapping) or u.get("kind") == "artillery":
                continue
            for side in ("full", "reduced", "ineffective"):
                block = u.get(side)
                if isinstance(block, Mapping):
                    for f in _QUICKPLAY_FACTORS:
                        if f in block:
                            out.append((f"units[{i}].{side}.{f}",
                                        (f"'{f}' is a Quick Play factor: a Standard rules {u.get('kind', 'unit')} has "
                                         "one combat factor 'cf' (2.4); only artillery has attack and defence (8.1)")))
    return out


# --- schema -------------------------------------------------------------------------------------
_VALIDATORS: dict[str, jsonschema.Draft202012Validator] = {}


def _validator(ref: str = "") -> jsonschema.Draft202012Validator:
    """The whole-scenario validator, or (ref = a $defs name) a validator for one definition."""
    v = _VALIDATORS.get(ref)
    if v is None:
        schema = extend_victory(load_schema(__package__ or "server.rules.standard", "scenario.schema.json",
                                              ("hexid", "victory")))
        if ref:
            schema = {"$defs": schema["$defs"], "$ref": f"#/$defs/{ref}"}
        v = jsonschema.Draft202012Validator(schema)
        _VALIDATORS[ref] = v
    return v


def parse_standard_scenario(data: Any, source: str = "<scenario>") -> StandardScenario:
    """Validate and build a Standard rules scenario; raises ScenarioError naming every problem."""
    if isinstance(data, Mapping):
        if data.get("ruleset") != "standard":
            raise ScenarioError(source, [("ruleset", f"this reader takes 'standard' scenarios, not '{data.get('ruleset')}'")])
        mixed = _quickplay_fields(data) or _unit_field_problems(data) or _weather_field_problems(data) \
            or _special_field_problems(data) or _victory_field_problems(data) or _arrival_field_problems(data) \
            or _area_field_problems(data)
        if mixed:
            raise ScenarioError(source, mixed)
    problems = schema_problems(_validator(), data)
    if problems:
        raise ScenarioError(source, problems)
    p: list[tuple[str, str]] = []

    def bad(path: str, reason: str) -> None:
        p.append((path, reason))

    m = data["map"]
    grid = HexGrid(m["columns"], m["rows"], m.get("shifted", "even"))

    def on_map(path: str, ccrr: str) -> bool:
        if ccrr not in grid:
            bad(path, f"hex {ccrr} is not on the {grid.columns}x{grid.rows} map")
            return False
        return True

    tec = data["tec"]
    terrain_defs = tec["terrain"]
    secondary_defs = tec.get("secondary", {})
    feature_defs = tec.get("hexsides", {})
    if m["default_terrain"] not in terrain_defs:
        bad("map.default_terrain", f"terrain '{m['default_terrain']}' is not in tec.terrain")
    hex_terrain: dict[str, str] = {}
    for ccrr, t in m.get("hexes", {}).items():
        if on_map(f"map.hexes.{ccrr}", ccrr):
            if t not in terrain_defs:
                bad(f"map.hexes.{ccrr}", f"terrain '{t}' is not in tec.terrain (2.2: a hex has one primary terrain)")
            hex_terrain[ccrr] = t
    hex_secondary: dict[str, tuple[str, ...]] = {}
    for ccrr, ts in m.get("secondary", {}).items():
        if on_map(f"map.secondary.{ccrr}", ccrr):
            for t in ts:
                if t not in secondary_defs:
                    bad(f"map.secondary.{ccrr}", f"secondary terrain '{t}' is not in tec.secondary")
            hex_secondary[ccrr] = tuple(ts)
    hexsides = parse_hexsides(m.get("hexsides", []), grid, feature_defs, bad)
    road_links, road_hexes = parse_paths(m.get("roads", []), grid, bad)
    trail_links, trail_hexes = parse_paths(m.get("trails", []), grid, bad, "map.trails", "trail")
    for i, lab in enumerate(m.get("labels", [])):
        on_map(f"map.labels[{i}].hex", lab["hex"])

    parsed_tec = parse_tec(tec, bad)
    terrain, secondary, features = parsed_tec.terrain, parsed_tec.secondary, parsed_tec.hexsides

    side_ids = list(data["sides"].keys())
    sides: dict[str, Side] = {}
    for sid, s in data["sides"].items():
        for j, ccrr in enumerate(s.get("entry_hexes", [])):
            if on_map(f"sides.{sid}.entry_hexes[{j}]", ccrr) and not grid.is_edge(ccrr):
                bad(f"sides.{sid}.entry_hexes[{j}]", f"entry hex {ccrr} is not on a map edge (13.1)")
        for j, ccrr in enumerate(s["loc"]):
            on_map(f"sides.{sid}.loc[{j}]", ccrr)
        for name, ccrr in s.get("entry_points", {}).items():
            if on_map(f"sides.{sid}.entry_points.{name}", ccrr) and not grid.is_edge(ccrr):
                bad(f"sides.{sid}.entry_points.{name}", f"entry hex {ccrr} is not on a map edge (13.1)")
        sides[sid] = Side(sid, s["name"], s["color"], s["edge"], tuple(s.get("entry_hexes", [])), tuple(s["loc"]),
                          dict(s.get("entry_points", {})), s.get("replacements", {}).get("per_formation"))

    formations: dict[str, Formation] = {}
    for fid, f in data["formations"].items():
        if fid in ("0", "A"):
            bad(f"formations.{fid}", f"'{fid}' is reserved (2.4: '0' independent, 'A' all formations)")
        if f["side"] not in sides:
            bad(f"formations.{fid}.side", f"side '{f['side']}' is not one of {side_ids}")
        formations[fid] = Formation(fid, f["side"], f["name"], f.get("army", f["side"]), tuple(f.get("sub_formations", [])))

    units: dict[str, UnitDef] = {}
    hq: dict[str, str] = {}
    trains: dict[str, str] = {}
    broken: set[str] = set()  # units already reported: their placements are not reported again
    for i, u in enumerate(data["units"]):
        unit = _parse_unit(u, f"units[{i}]", sides, formations, bad)
        if unit is None:
            broken.add(u["id"])
            continue
        if unit.id in units:
            bad(f"units[{i}].id", f"unit id '{unit.id}' is used twice")
            continue
        units[unit.id] = unit
        if unit.kind in (Kind.HQ, Kind.TRAINS):
            table = hq if unit.kind is Kind.HQ else trains
            assert unit.army is not None
            if unit.army in table:
                bad(f"units[{i}].army", f"army '{unit.army}' already has its {unit.kind.value} "
                                        f"'{table[unit.army]}' ({'12.1' if unit.kind is Kind.HQ else '12.2'})")
            table[unit.army] = unit.id
    _check_unit_ids(data["units"], units, bad)
    armies = {(f.side, f.army) for f in formations.values()}
    armies |= {(units[x].side, units[x].army or "") for x in list(hq.values()) + list(trains.values())}
    for side, army in sorted(armies):
        if army not in hq:
            bad("units", f"army '{army}' of {side} has no HQ (12.1)")
    for sid in side_ids:  # S7 (revised by S63): an army may have no trains (17.4's Prussian armies)
        if not any(side == sid for side, _ in armies):
            bad("units", f"side '{sid}' has no HQ (12.1)")

    placed: set[str] = set()
    setup: list[Placement] = []
    for i, s in enumerate(data["setup"]):
        path = f"setup[{i}]"
        uid = s["unit"]
        if uid not in units:
            if uid not in broken:
                bad(path + ".unit", f"unit '{uid}' is not in units")
            continue
        if uid in placed:
            bad(path + ".unit", f"unit '{uid}' is set up twice")
        placed.add(uid)
        ud = units[uid]
        if "hex" in s and on_map(path + ".hex", s["hex"]):
            t = terrain.get(hex_terrain.get(s["hex"], m["default_terrain"]))
            if t is not None and t.is_prohibited(ud.kind.tec_class):
                bad(path + ".hex", f"unit '{uid}' may not stand in {t.name} at {s['hex']} (4.5: prohibited terrain)")
        if s.get("reduced") and ud.steps != 2:
            bad(path + ".reduced", f"'{uid}' has one step: only a two-step unit starts reduced (2.5)")
        if s.get("ineffective") and not ud.kind.has_ineffective_side:
            bad(path + ".ineffective", f"a {ud.kind.value} has no ineffective side (2.9)")
        if s.get("disrupted") and not ud.kind.is_combat:
            bad(path + ".disrupted", f"a {ud.kind.value} is never disrupted (2.8 applies to combat units)")
        if s.get("inactive") and ud.kind not in (Kind.HQ, Kind.TRAINS):
            bad(path + ".inactive", "only an HQ or trains has an inactive side (12.1, 12.2)")
        if "area" not in s:  # 17.2: a unit with an area is placed in the set-up (areas.py)
            setup.append(Placement(uid, s["hex"], s.get("disrupted", False), s.get("ineffective", False),
                                   s.get("reduced", False), s.get("inactive", False)))
    boxed = {u for b in (data.get("hidden_movement") or {}).get("boxes", []) for u in b.get("units", [])}
    set_up = set(placed)
    placed |= boxed  # 19.8: a boxed unit is neither set up nor a reinforcement
    reinforcements = parse_arrivals(data.get("reinforcements", []), {k: v.entry_points for k, v in sides.items()},
                                    {k: u.side for k, u in units.items()}, units, placed, data["turns"], grid, bad,
                                    frozenset(broken))

    if data["first_player"] not in sides:
        bad("first_player", f"side '{data['first_player']}' is not one of {side_ids}")
    if len(data["trt"]) != data["turns"]:
        bad("trt", f"the TRT has {len(data['trt'])} boxes for {data['turns']} turns (3.2: one box per turn)")
    trt: list[TurnBox] = []
    for i, box in enumerate(data["trt"]):
        for sid in box.get("replacements", {}):
            if sid not in sides:
                bad(f"trt[{i}].replacements.{sid}", f"side '{sid}' is not one of {side_ids}")
            elif sides[sid].per_formation is not None:
                bad(f"trt[{i}].replacements.{sid}", f"{sid} receives replacements per formation "
                                                    f"(sides.{sid}.replacements, 17.2, S62), not per turn box")
        trt.append(TurnBox(i + 1, box.get("label", f"Turn {i + 1}"), box["light"], dict(box.get("replacements", {}))))
    victory = parse_victory(data["victory"], grid, side_ids, bad)
    weather = parse_weather(data.get("weather"), data["turns"], side_ids, {f.army for f in formations.values()}, grid, bad)
    special = parse_special(data.get("special_rules"), side_ids, bad)
    victory_rules = parse_victory_rules(data["victory"], grid, side_ids, _trains_armies(units, trains), tec, bad)
    if special.battery_positions is not None:  # 19.6: the formations whose artillery is not the side's own nation's
        for j, fid in enumerate(sorted(special.battery_positions.exclude_formations)):
            if fid not in formations:
                bad(f"special_rules.battery_positions.exclude_formations[{j}]", f"formation '{fid}' is not in formations")
    facts = MapFacts(grid, lambda h: (hex_terrain.get(h, m["default_terrain"]), *hex_secondary.get(h, ())), hexsides,
                     {k: v["name"] for d in (terrain_defs, secondary_defs, feature_defs) for k, v in d.items()})
    reader = AreaReader(facts, feature_defs, [*terrain_defs, *secondary_defs], [k.value for k in Kind], bad)
    area_placements, free_setup = parse_areas(data, reader, units, set_up)
    hidden_movement = parse_hidden(data, side_ids, units,
                                   set_up | {r.unit for r in reinforcements}, grid, bad)
    hexsides, ridges = split_ridges(hexsides, [fid for fid, f in features.items() if f.ridge])
    if p:
        raise ScenarioError(source, p)
    return StandardScenario(
        id=data["id"], title=data["title"], grid=grid, default_terrain=m["default_terrain"],
        hex_terrain=hex_terrain, hex_secondary=hex_secondary, terrain=terrain, secondary=secondary,
        hexside_features=features, hexsides=hexsides, road_links=road_links, road_hexes=road_hexes,
        trail_links=trail_links, trail_hexes=trail_hexes, sides=sides, side_order=(side_ids[0], side_ids[1]),
        formations=formations, units=units, setup=tuple(setup), reinforcements=tuple(reinforcements),
        trt=tuple(trt), first_player=data["first_player"], victory=victory, hq=hq, trains=trains, raw=data,
        clear_hexsides=parsed_tec.clear_hexsides, weather=weather, special=special, ridges=ridges,
        victory_rules=victory_rules,
        areas=area_placements, free_setup=free_setup, map_facts=facts,
        hidden_movement=hidden_movement,
    )


def _trains_armies(units: Mapping[str, UnitDef], trains: Mapping[str, str]) -> dict[str, list[str]]:
    """18.2's trains test: each side's armies that have trains (12.2)."""
    out: dict[str, list[str]] = {}
    for army, uid in trains.items():
        out.setdefault(units[uid].side, []).append(army)
    return out


def _unit_field_problems(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A unit field the format does not know (a typo would leave, say, 7.11's Unit ID silently unread)."""
    known = tuple(_validator().schema["$defs"]["unit"]["properties"])
    out: list[tuple[str, str]] = []
    units = data.get("units")
    for i, u in enumerate(units if isinstance(units, list) else []):
        if isinstance(u, Mapping):
            out += unknown_fields(u, known, f"units[{i}]", "a unit field")
    return out


def _check_unit_ids(items: list[Mapping[str, Any]], units: Mapping[str, UnitDef], bad: Any) -> None:
    """2.4, 7.11: counters sharing a Unit ID are one regiment or brigade: of one side and one formation (an 'A' unit
    shares every formation but an independent unit's)."""
    first: dict[str, UnitDef] = {}
    for i, u in enumerate(items):
        d = units.get(u["id"])
        if d is None or d.unit_id is None:
            continue
        other = first.setdefault(d.unit_id, d)
        if other is d:
            continue
        where, x = f"units[{i}].unit_id", d.unit_id
        if other.side != d.side:
            bad(where, f"Unit ID '{x}' is also {other.name}'s, of the other side (2.4: one ID, one unit; 7.11)")
        elif not (other.formation == d.formation or ("A" in (other.formation, d.formation)
                                                     and "0" not in (other.formation, d.formation))):
            bad(where, f"Unit ID '{x}' is also {other.name}'s, of formation '{other.formation}' (2.4, 7.11: the "
                       "counters of one unit are of one formation)")


# Which printed sides each kind of counter has (2.5-2.7, 2.9, 8.1).
def _parse_unit(u: Mapping[str, Any], path: str, sides: Mapping[str, Side], formations: Mapping[str, Formation],
                bad: Any) -> UnitDef | None:
    kind = Kind(u["kind"])
    uid = u["id"]
    if u["side"] not in sides:
        bad(path + ".side", f"side '{u['side']}' is not one of {list(sides)}")
        return None

    def refuse(name: str, reason: str) -> None:
        if name in u:
            bad(f"{path}.{name}", reason)

    formation = u.get("formation")
    sub = u.get("sub_formation")
    if not kind.is_combat:
        refuse("unit_id", "2.4: a Unit ID is printed on combat units only (7.11 reads it)")
    if kind in (Kind.HQ, Kind.TRAINS):
        for name in ("formation", "sub_formation", "steps", "full", "reduced", "ineffective", "leader",
                     "leader_ineffective", "span"):
            refuse(name, f"an {kind.value} has no '{name}': it has only its inactive side's 'ma' (12.1, 12.2)")
        if "ma" not in u:
            bad(path + ".ma", f"an {kind.value} needs the MA printed on its inactive side (12.1, 12.2)")
            return None
        army = u.get("army", u["side"])
        if not any(f.army == army and f.side == u["side"] for f in formations.values()) and army != u["side"]:
            bad(path + ".army", f"no formation of {u['side']} belongs to army '{army}'")
        return UnitDef(uid, u["side"], kind, u["name"], "0", army=army, inactive_ma=u["ma"])
    refuse("army", "only an HQ or trains names its army (12.1, 12.2); a unit's army is its formation's")
    refuse("ma", "a unit's MA is printed on each side: 'full.ma' (2.4); a bare 'ma' is for an HQ or trains")
    if formation is None:
        bad(path + ".formation", "every unit and leader has a formation: '0', 'A' or a formation id (2.4)")
        return None
    if formation not in ("0", "A"):
        f = formations.get(formation)
        if f is None:
            bad(path + ".formation", f"formation '{formation}' is not in formations (or '0', 'A')")
        elif f.side != u["side"]:
            bad(path + ".formation", f"formation '{formation}' belongs to the other side")
        elif sub is not None and sub not in f.sub_formations:
            bad(path + ".sub_formation", f"'{sub}' is not a sub-formation of '{formation}' (19.1)")
    elif sub is not None:
        bad(path + ".sub_formation", f"a unit of formation '{formation}' has no sub-formation (19.1)")

    if kind is Kind.LEADER:
        for name in ("steps", "full", "reduced", "ineffective"):
            refuse(name, f"a leader has no '{name}': give 'leader' and 'leader_ineffective' (10.3)")
        if "leader" not in u:
            bad(path + ".leader", "a leader needs its combat, morale and movement values (10.3)")
            return None
        span = tuple(u.get("span", [formation]))
        for j, s in enumerate(span):
            if s != "A" and s not in formations:
                bad(f"{path}.span[{j}]", f"formation '{s}' is not in formations (10.3 command span)")
        li = u.get("leader_ineffective", {"combat": 0, "morale": 0, "movement": 0})
        return UnitDef(uid, u["side"], kind, u["name"], formation, sub,
                       leader=LeaderFactors(**u["leader"]), leader_ineffective=LeaderFactors(**li), span=span)
    for name in ("leader", "leader_ineffective", "span"):
        refuse(name, f"only a leader has '{name}' (10.3)")

    steps = u.get("steps", 2 if kind is Kind.INFANTRY else 1)
    if kind is not Kind.INFANTRY and steps != 1:
        bad(path + ".steps", f"a {kind.value} has one step (2.6, 2.7)")
        return None
    ref = "artillery_side" if kind is Kind.ARTILLERY else "counter_side"
    parsed: dict[str, CounterSide] = {}
    for name in ("full", "reduced", "ineffective"):
        if name not in u:
            continue
        block = u[name]
        problems = schema_problems(_validator(ref), block, f"{path}.{name}")
        if problems:
            for pp, reason in problems:
                bad(pp, reason)
            continue
        if kind is not Kind.ARTILLERY:
            if "cf" not in block:
                bad(f"{path}.{name}.cf", f"a {kind.value} needs its combat factor 'cf' (2.4)")
                continue
            if "range" in block:
                bad(f"{path}.{name}.range", "only artillery has a range (8.1)")
            if "charge" in block and kind not in (Kind.CAVALRY, Kind.SQUADRON):
                bad(f"{path}.{name}.charge", "only cavalry and squadrons have a charge factor (9.3(4))")
        if block.get("red_dot") and name == "ineffective":
            bad(f"{path}.{name}.red_dot", "a red dot marks a step (11.2): put it on 'full' or 'reduced'")
        default_mr = ARTILLERY_MR_INEFFECTIVE if name == "ineffective" else ARTILLERY_MR_EFFECTIVE
        ma = block["ma"]
        parsed[name] = CounterSide(
            mr=block.get("mr", default_mr), ma=None if ma == "V" else int(ma), cf=block.get("cf", 0),
            parenthesized=block.get("parenthesized", False), bracketed=block.get("bracketed", False),
            attack=block.get("attack", 0), defense=block.get("defense", 0), range=block.get("range", 0),
            charge=block.get("charge", 0), red_dot=block.get("red_dot", False),
        )
    if "full" not in u:
        bad(path + ".full", f"a {kind.value} needs its front side's factors 'full' (2.4)")
        return None
    if steps == 2 and "reduced" not in u:
        bad(path + ".reduced", "a two-step unit needs its reduced side (2.5)")
    if steps == 1 and "reduced" in u:
        bad(path + ".reduced", "a one-step unit has no reduced side (2.5: blank on the reverse, or its ineffective side)")
    if kind.has_ineffective_side and "ineffective" not in u:
        bad(path + ".ineffective", f"a {kind.value} needs its ineffective side (2.6, 2.7, 2.9)")
    if not kind.has_ineffective_side and "ineffective" in u:
        bad(path + ".ineffective", "an infantry brigade or regiment has no ineffective side (2.9); it disrupts (2.8)")
    if kind in (Kind.CAVALRY, Kind.SQUADRON) and "full" in parsed and parsed["full"].charge <= 0:
        bad(path + ".full.charge", f"a {kind.value} needs its charge factor (9.3(4))")
    if set(parsed) != {n for n in ("full", "reduced", "ineffective") if n in u}:
        return None
    return UnitDef(uid, u["side"], kind, u["name"], formation, sub, u.get("unit_id"), steps, parsed.get("full"),
                   parsed.get("reduced"), parsed.get("ineffective"))
