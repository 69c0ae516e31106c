"""Scenarios as validated data (3.2, 4.3, 4.5, the TEC, 14.0 victory).

`read_scenario` turns an already-decoded JSON object of the kernel's own format
(Quick Play's) into an immutable `Scenario`; the parsers it is made of
(`parse_hexsides`, `parse_victory`...) serve every edition's reader.
It performs the JSON Schema check first and then the semantic checks a schema
cannot express (hex ids on the map, references between sections, road
adjacency).  Every problem is reported with its JSON path and a reason; nothing
is raised as a bare traceback.  Reading files is the caller's business, which
keeps this module free of I/O.

Picking the reader of a scenario's edition by its `ruleset` is
`loading.parse_scenario`'s: the registry of editions (edition.py) stands on this
module, so this module does not ask it.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from importlib import resources
from typing import Any

import jsonschema

from .hexes import HexGrid, hexside_key
from .hidden import HiddenMovement
from .model import Objective, ScenarioBase, Victory


class UnitKind(str, Enum):
    INFANTRY = "infantry"  # brigades and regiments: disrupt (11.1)
    BATTALION = "battalion"  # one step, goes ineffective (11.2)
    ARTILLERY = "artillery"
    CAVALRY = "cavalry"
    LEADER = "leader"

    @property
    def tec_class(self) -> str:
        """The TEC column a unit of this kind uses."""
        return "infantry" if self in (UnitKind.INFANTRY, UnitKind.BATTALION) else self.value

    @property
    def is_combat(self) -> bool:
        return self is not UnitKind.LEADER

    @property
    def disrupts(self) -> bool:
        """Brigades and regiments disrupt; every other kind goes ineffective instead (2.4, 11.0)."""
        return self is UnitKind.INFANTRY

    @property
    def counts_as_battalion_slot(self) -> bool:
        """The one extra stacking/participation place is for a battalion or artillery unit (5.0, 7.1(1))."""
        return self in (UnitKind.BATTALION, UnitKind.ARTILLERY)


class ScenarioError(ValueError):
    """A scenario file that cannot be used; `problems` lists every (path, reason)."""

    def __init__(self, source: str, problems: list[tuple[str, str]]) -> None:
        self.source = source
        self.problems = problems
        lines = [f"{source}: {path or '(top level)'}: {reason}" for path, reason in problems]
        super().__init__("\n".join(lines))


@dataclass(frozen=True, slots=True)
class Factors:
    attack: int
    defense: int
    mr: int
    ma: int
    charge: int = 0


@dataclass(frozen=True, slots=True)
class LeaderFactors:
    combat: int
    morale: int
    movement: int


@dataclass(frozen=True, slots=True)
class UnitDef:
    id: str
    side: str
    kind: UnitKind
    name: str
    formation: str
    steps: int
    full: Factors
    reduced: Factors | None
    ineffective: Factors
    range: int
    leader: LeaderFactors
    leader_ineffective: LeaderFactors

    @property
    def tec_class(self) -> str:
        return self.kind.tec_class


@dataclass(frozen=True, slots=True)
class Terrain:
    id: str
    name: str
    move: Mapping[str, int]
    prohibited: frozenset[str]
    defense: int = 0
    attack_halved_into: frozenset[str] = frozenset()
    attack_halved_out_of: frozenset[str] = frozenset()
    bombard_modifier: int = 0
    no_bombard: bool = False
    blocks_los: bool = False
    blocks_zoc_into: bool = False
    blocks_zoc_out: bool = False
    no_advance_from: frozenset[str] = frozenset()
    open: bool = False
    hill: bool = False

    def is_prohibited(self, tec_class: str) -> bool:
        if tec_class in self.prohibited:
            return True
        return tec_class != "leader" and tec_class not in self.move


@dataclass(frozen=True, slots=True)
class HexsideFeature:
    id: str
    name: str
    move_add: Mapping[str, int]
    prohibited: frozenset[str]
    attack_halved_across: frozenset[str] = frozenset()
    defense_across: int = 0
    blocks_los: bool = False
    blocks_zoc: bool = False
    no_advance_across: frozenset[str] = frozenset()
    road_crossing: bool = False


@dataclass(frozen=True, slots=True)
class Side:
    id: str
    name: str
    color: str
    entry_hexes: tuple[str, ...]
    edge: str
    replacement_steps: int
    return_hexes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Placement:
    unit: str
    hex: str
    within: int = 0
    square: bool = False
    disrupted: bool = False
    ineffective: bool = False
    reduced: bool = False


@dataclass(frozen=True, slots=True)
class Reinforcement:
    unit: str
    turn: int
    hex: str


@dataclass(frozen=True)
class Scenario(ScenarioBase):
    id: str
    title: str
    ruleset: str
    grid: HexGrid
    default_terrain: str
    hex_terrain: Mapping[str, str]
    terrain: Mapping[str, Terrain]
    hexside_features: Mapping[str, HexsideFeature]
    hexsides: Mapping[tuple[str, str], frozenset[str]]
    road_links: frozenset[tuple[str, str]]
    road_hexes: frozenset[str]
    road_mp_halves: int
    sides: Mapping[str, Side]
    side_order: tuple[str, str]
    formations: Mapping[str, tuple[str, str]]
    units: Mapping[str, UnitDef]
    setup: tuple[Placement, ...]
    reinforcements: tuple[Reinforcement, ...]
    turns: int
    turn_labels: tuple[str, ...]
    first_player: str
    hide_enemy_reinforcements: bool
    victory: Victory
    raw: Mapping[str, Any] = field(repr=False, compare=False)
    hidden_movement: HiddenMovement | None = None  # this edition has none (kernel/hidden.py)
    also_rulesets: tuple[str, ...] = ()  # further editions the scenario may be played under (`ScenarioModel`)

    def terrain_at(self, ccrr: str) -> Terrain:
        return self.terrain[self.hex_terrain.get(ccrr, self.default_terrain)]

    def features_between(self, a: str, b: str) -> frozenset[str]:
        return self.hexsides.get(hexside_key(a, b), frozenset())

    def hexside_defs(self, a: str, b: str) -> tuple[HexsideFeature, ...]:
        return tuple(self.hexside_features[f] for f in sorted(self.features_between(a, b)))

    def is_road_link(self, a: str, b: str) -> bool:
        return hexside_key(a, b) in self.road_links

    def turn_label(self, turn: int) -> str:
        if 1 <= turn <= len(self.turn_labels):
            return self.turn_labels[turn - 1]
        return f"Turn {turn}"

    @cached_property
    def step_costs(self) -> Mapping[str, Mapping[tuple[str, str], int | None]]:
        """Per TEC class, the MP cost of every off-road step a -> b between adjacent hexes (None: prohibited)."""
        out: dict[str, dict[tuple[str, str], int | None]] = {}
        for cls in ("infantry", "cavalry", "artillery"):
            table: dict[tuple[str, str], int | None] = {}
            for a in self.grid.all_hexes():
                for b in self.grid.neighbors(a):
                    terrain = self.terrain_at(b)
                    cost: int | None = None if terrain.is_prohibited(cls) else terrain.move[cls]
                    if cost is not None:
                        for f in self.features_between(a, b):
                            fd = self.hexside_features[f]
                            if cls in fd.prohibited:
                                cost = None
                                break
                            cost += fd.move_add.get(cls, 0)
                    table[(a, b)] = cost
            out[cls] = table
        return out

    @cached_property
    def leader_blocked(self) -> frozenset[tuple[str, str]]:
        """Steps a leader may not take: prohibited terrain or hexside for the 'leader' class (and not on a road)."""
        out = set()
        for a in self.grid.all_hexes():
            for b in self.grid.neighbors(a):
                if hexside_key(a, b) in self.road_links:
                    continue
                if "leader" in self.terrain_at(b).prohibited or any(
                    "leader" in self.hexside_features[f].prohibited for f in self.features_between(a, b)
                ):
                    out.add((a, b))
        return frozenset(out)

    @cached_property
    def zoc_targets(self) -> Mapping[str, tuple[str, ...]]:
        """For each hex, the neighbours a unit there projects its zone of control into (6.1, 6.3)."""
        out: dict[str, tuple[str, ...]] = {}
        for h in self.grid.all_hexes():
            if self.terrain_at(h).blocks_zoc_out:
                out[h] = ()
                continue
            out[h] = tuple(
                n for n in self.grid.neighbors(h)
                if not self.terrain_at(n).blocks_zoc_into
                and not any(self.hexside_features[f].blocks_zoc for f in self.features_between(h, n))
            )
        return out

    @cached_property
    def directed_road_links(self) -> frozenset[tuple[str, str]]:
        return frozenset(self.road_links | {(b, a) for a, b in self.road_links})

    # --- the kernel's scenario interface (model.ScenarioModel) -------------------------------
    def zoc_from(self, tec_class: str, hex_: str) -> tuple[str, ...]:
        """6.1, 6.3: a unit projects its ZOC the same way whatever its class (Quick Play)."""
        return self.zoc_targets[hex_]

    def may_stand(self, tec_class: str, hex_: str) -> bool:
        """A unit may be in terrain open to its class, or on a road through any terrain (V5)."""
        return not self.terrain_at(hex_).is_prohibited(tec_class) or hex_ in self.road_hexes


def load_schema(package: str, name: str, shared_defs: tuple[str, ...] = ()) -> dict[str, Any]:
    """A JSON Schema shipped in `package`; `shared_defs` are $defs taken from the kernel's scenario schema
    (written once there, e.g. `hexid`, `victory`) unless the schema defines its own."""
    text = resources.files(package).joinpath(name).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    if shared_defs:
        kernel_defs = _schema()["$defs"]
        defs = data.setdefault("$defs", {})
        for d in shared_defs:
            defs.setdefault(d, kernel_defs[d])
    return data


def _schema() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("scenario.schema.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


_VALIDATOR: jsonschema.Draft202012Validator | None = None


def _validator() -> jsonschema.Draft202012Validator:
    global _VALIDATOR
    if _VALIDATOR is None:
        _VALIDATOR = jsonschema.Draft202012Validator(_schema())
    return _VALIDATOR


def _json_path(parts: Any) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def _schema_problems(data: Any) -> list[tuple[str, str]]:
    return schema_problems(_validator(), data)


def schema_problems(validator: jsonschema.Draft202012Validator, data: Any, prefix: str = "") -> list[tuple[str, str]]:
    """Every (JSON path, reason) the validator finds, in path order; `prefix` is prepended to each path."""
    problems = []
    for err in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        path = _json_path(err.absolute_path)
        problems.append((f"{prefix}.{path}" if prefix and path else (prefix or path), err.message))
    return problems


Problem = Callable[[str, str], None]


def unknown_fields(keys: Iterable[Any], known: Sequence[str], where: str, what: str) -> list[tuple[str, str]]:
    """(path, message) for each key the format does not know, with the field it most likely meant: a misspelt
    optional field would otherwise be silently unread (a rule that never applies). `unit_ID` and `unit-id` fold to
    `unit_id`; other typos take difflib's closest match."""
    folded = {k.replace("_", "").lower(): k for k in known}
    out = []
    for key in keys:
        if key in known:
            continue
        guess = folded.get("".join(c for c in str(key) if c.isalnum()).lower()) or next(
            iter(difflib.get_close_matches(str(key), known, n=1)), None)
        hint = f"; did you mean '{guess}'?" if guess else f" (the fields: {', '.join(known)})"
        out.append((f"{where}.{key}", f"'{key}' is not {what}{hint}"))
    return out


def parse_hexsides(items: list[dict[str, Any]], grid: HexGrid, feature_ids: Mapping[str, Any],
                   bad: Problem, where: str = "map.hexsides") -> dict[tuple[str, str], frozenset[str]]:
    """Hexside features by the unordered pair of adjacent hexes they separate (R1)."""
    hexsides: dict[tuple[str, str], frozenset[str]] = {}
    for i, hs in enumerate(items):
        a, b = hs["hexes"]
        path = f"{where}[{i}]"
        if not (_on_map(grid, bad, path + ".hexes[0]", a) and _on_map(grid, bad, path + ".hexes[1]", b)):
            continue
        if not grid.is_adjacent(a, b):
            bad(path + ".hexes", f"{a} and {b} are not adjacent, so they share no hexside")
            continue
        for f in hs["features"]:
            if f not in feature_ids:
                bad(path + ".features", f"hexside feature '{f}' is not in tec.hexsides")
        key = hexside_key(a, b)
        hexsides[key] = hexsides.get(key, frozenset()) | frozenset(hs["features"])
    return hexsides


def parse_paths(items: list[dict[str, Any]], grid: HexGrid, bad: Problem,
                where: str = "map.roads", what: str = "road") -> tuple[frozenset[tuple[str, str]], frozenset[str]]:
    """Roads (or trails): the hexsides they cross and the hexes they run through, checked step by step."""
    links: set[tuple[str, str]] = set()
    hexes: set[str] = set()
    for i, road in enumerate(items):
        path = road["path"]
        for j, ccrr in enumerate(path):
            if _on_map(grid, bad, f"{where}[{i}].path[{j}]", ccrr):
                hexes.add(ccrr)
        for j in range(len(path) - 1):
            a, b = path[j], path[j + 1]
            if a in grid and b in grid:
                if not grid.is_adjacent(a, b):
                    bad(f"{where}[{i}].path[{j + 1}]", f"{what} step {a} -> {b} is not between adjacent hexes")
                else:
                    links.add(hexside_key(a, b))
    return frozenset(links), frozenset(hexes)


def parse_victory(v: Mapping[str, Any], grid: HexGrid, side_ids: list[str], bad: Problem) -> Victory:
    """The scenario's victory rules: objectives, points, draw margin, sudden death."""
    objectives = []
    for i, o in enumerate(v.get("objectives", [])):
        _on_map(grid, bad, f"victory.objectives[{i}].hex", o["hex"])
        for field_name in ("owner", "for"):
            if field_name in o and o[field_name] not in side_ids:
                bad(f"victory.objectives[{i}].{field_name}", f"side '{o[field_name]}' is not one of {side_ids}")
        objectives.append(Objective(o["hex"], o.get("name", o["hex"]), o["points"], o.get("owner"), o.get("for")))
    sudden = []
    for i, sd in enumerate(v.get("sudden_death", [])):
        if sd["side"] not in side_ids:
            bad(f"victory.sudden_death[{i}].side", f"side '{sd['side']}' is not one of {side_ids}")
        for j, ccrr in enumerate(sd["hexes"]):
            _on_map(grid, bad, f"victory.sudden_death[{i}].hexes[{j}]", ccrr)
        sudden.append((sd["side"], tuple(sd["hexes"])))
    pts = v.get("points", {})
    return Victory(
        v["description"], tuple(objectives),
        pts.get("step_eliminated", 1), pts.get("unit_captured", 2),
        pts.get("leader_eliminated", 2), pts.get("leader_captured", 3),
        v.get("draw_margin", 1), tuple(sudden),
    )


def parse_reinforcements(
    items: list[dict[str, Any]], units: Mapping[str, Any], placed: set[str], turns: int, grid: HexGrid,
    bad: Problem, *, entry_rule: str, unreported: frozenset[str] = frozenset(), paths: Sequence[str] | None = None,
) -> list[Reinforcement]:
    """The arrivals (each unit once, set up or arriving, on a map-edge hex by the last turn), then every unit
    accounted for. `placed` holds the units set up and gains the arrivals; `unreported` are unit ids whose
    definition already failed (not reported again); `entry_rule` is the edition's rule for edge entry; `paths`:
    each item's JSON path when an edition expands its own richer items into these (default `reinforcements[i]`)."""
    reinforcements: list[Reinforcement] = []
    for i, r in enumerate(items):
        path = paths[i] if paths is not None else f"reinforcements[{i}]"
        if r["unit"] not in units:
            if r["unit"] not in unreported:
                bad(path + ".unit", f"unit '{r['unit']}' is not in units")
            continue
        if r["unit"] in placed:
            bad(path + ".unit", f"unit '{r['unit']}' is both set up and a reinforcement")
        placed.add(r["unit"])
        if r["turn"] > turns:
            bad(path + ".turn", f"turn {r['turn']} is after the last turn {turns}")
        if _on_map(grid, bad, path + ".hex", r["hex"]) and not grid.is_edge(r["hex"]):
            bad(path + ".hex", f"entry hex {r['hex']} is not on a map edge ({entry_rule})")
        reinforcements.append(Reinforcement(r["unit"], r["turn"], r["hex"]))
    for uid in units:
        if uid not in placed:
            bad("units", f"unit '{uid}' is neither set up nor a reinforcement")
    return reinforcements


def _on_map(grid: HexGrid, bad: Problem, path: str, ccrr: str) -> bool:
    if ccrr not in grid:
        bad(path, f"hex {ccrr} is not on the {grid.columns}x{grid.rows} map")
        return False
    return True


_DEFAULT_INEFFECTIVE_MR_DROP = 2


def _factors(d: Mapping[str, Any]) -> Factors:
    return Factors(d["attack"], d["defense"], d["mr"], d["ma"], d.get("charge", 0))


def _leader(d: Mapping[str, Any] | None) -> LeaderFactors:
    if d is None:
        return LeaderFactors(0, 0, 0)
    return LeaderFactors(d["combat"], d["morale"], d["movement"])


def read_scenario(data: Any, source: str = "<scenario>") -> Scenario:
    """The kernel's scenario format (Quick Play's counters: attack/defence factors, 'w/1' set-up): validate
    and build it; raises ScenarioError naming every problem."""
    problems = _schema_problems(data)
    if problems:
        raise ScenarioError(source, problems)
    p: list[tuple[str, str]] = []

    def bad(path: str, reason: str) -> None:
        p.append((path, reason))

    m = data["map"]
    grid = HexGrid(m["columns"], m["rows"], m.get("shifted", "even"))
    tec = data["tec"]
    terrain_defs = tec["terrain"]
    side_ids = list(data["sides"].keys())

    def on_map(path: str, ccrr: str) -> bool:
        return _on_map(grid, bad, path, ccrr)


    if m["default_terrain"] not in terrain_defs:
        bad("map.default_terrain", f"terrain '{m['default_terrain']}' is not in tec.terrain")
    hex_terrain: dict[str, str] = {}
    for ccrr, t in m.get("hexes", {}).items():
        if on_map(f"map.hexes.{ccrr}", ccrr):
            if t not in terrain_defs:
                bad(f"map.hexes.{ccrr}", f"terrain '{t}' is not in tec.terrain")
            hex_terrain[ccrr] = t

    feature_defs = tec.get("hexsides", {})
    hexsides = parse_hexsides(m.get("hexsides", []), grid, feature_defs, bad)
    road_links, road_hexes = parse_paths(m.get("roads", []), grid, bad)
    for i, lab in enumerate(m.get("labels", [])):
        on_map(f"map.labels[{i}].hex", lab["hex"])

    terrain: dict[str, Terrain] = {}
    for tid, t in terrain_defs.items():
        terrain[tid] = Terrain(
            id=tid,
            name=t["name"],
            move=dict(t["move"]),
            prohibited=frozenset(t.get("prohibited", [])),
            defense=t.get("defense", 0),
            attack_halved_into=frozenset(t.get("attack_halved_into", [])),
            attack_halved_out_of=frozenset(t.get("attack_halved_out_of", [])),
            bombard_modifier=t.get("bombard_modifier", 0),
            no_bombard=t.get("no_bombard", False),
            blocks_los=t.get("blocks_los", False),
            blocks_zoc_into=t.get("blocks_zoc_into", False),
            blocks_zoc_out=t.get("blocks_zoc_out", False),
            no_advance_from=frozenset(t.get("no_advance_from", [])),
            open=t.get("open", False),
            hill=t.get("hill", False),
        )
    features: dict[str, HexsideFeature] = {}
    for fid, f in feature_defs.items():
        features[fid] = HexsideFeature(
            id=fid,
            name=f["name"],
            move_add=dict(f.get("move_add", {})),
            prohibited=frozenset(f.get("prohibited", [])),
            attack_halved_across=frozenset(f.get("attack_halved_across", [])),
            defense_across=f.get("defense_across", 0),
            blocks_los=f.get("blocks_los", False),
            blocks_zoc=f.get("blocks_zoc", False),
            no_advance_across=frozenset(f.get("no_advance_across", [])),
            road_crossing=f.get("road_crossing", False),
        )

    sides: dict[str, Side] = {}
    for sid, s in data["sides"].items():
        path = f"sides.{sid}"
        for j, ccrr in enumerate(s["entry_hexes"]):
            if on_map(f"{path}.entry_hexes[{j}]", ccrr) and not grid.is_edge(ccrr):
                bad(f"{path}.entry_hexes[{j}]", f"entry hex {ccrr} is not on a map edge")
        for j, ccrr in enumerate(s.get("return_hexes", [])):
            on_map(f"{path}.return_hexes[{j}]", ccrr)
        sides[sid] = Side(
            id=sid,
            name=s["name"],
            color=s["color"],
            entry_hexes=tuple(s["entry_hexes"]),
            edge=s["edge"],
            replacement_steps=s.get("replacement_steps", 0),
            return_hexes=tuple(s.get("return_hexes", s["entry_hexes"])),
        )

    formations: dict[str, tuple[str, str]] = {}
    for fid, f in data["formations"].items():
        if f["side"] not in sides:
            bad(f"formations.{fid}.side", f"side '{f['side']}' is not one of {side_ids}")
        formations[fid] = (f["side"], f["name"])

    units: dict[str, UnitDef] = {}
    for i, u in enumerate(data["units"]):
        path = f"units[{i}]"
        uid = u["id"]
        if uid in units:
            bad(path + ".id", f"unit id '{uid}' is used twice")
            continue
        if u["side"] not in sides:
            bad(path + ".side", f"side '{u['side']}' is not one of {side_ids}")
        kind = UnitKind(u["kind"])
        if u["formation"] != "A" and u["formation"] not in formations:
            bad(path + ".formation", f"formation '{u['formation']}' is not in formations (or 'A')")
        elif u["formation"] in formations and formations[u["formation"]][0] != u["side"]:
            bad(path + ".formation", f"formation '{u['formation']}' belongs to the other side")
        steps = u.get("steps", 2 if kind is UnitKind.INFANTRY else 1)
        if kind is not UnitKind.INFANTRY and steps != 1:
            bad(path + ".steps", f"a {kind.value} unit has exactly one step (2.4)")
        if kind is UnitKind.LEADER:
            if "leader" not in u:
                bad(path + ".leader", "a leader needs its combat, morale and movement factors (10.0)")
                continue
            zero = Factors(0, 0, 0, 12)
            units[uid] = UnitDef(
                uid, u["side"], kind, u["name"], u["formation"], 1, zero, None, zero, 0,
                _leader(u["leader"]), _leader(u.get("leader_ineffective")),
            )
            continue
        if "full" not in u:
            bad(path + ".full", f"a {kind.value} unit needs its full-strength factors")
            continue
        full = _factors(u["full"])
        reduced = _factors(u["reduced"]) if "reduced" in u else None
        if steps == 2 and reduced is None:
            bad(path + ".reduced", "a two-step unit needs its reduced-strength factors (2.4)")
        if steps == 1 and reduced is not None:
            bad(path + ".reduced", "a one-step unit has no reduced side (2.4)")
        if "ineffective" in u:
            ineff = _factors(u["ineffective"])
        else:
            ineff = Factors(0, 0, max(full.mr - _DEFAULT_INEFFECTIVE_MR_DROP, 1), full.ma)
        if kind is UnitKind.ARTILLERY and "range" not in u:
            bad(path + ".range", "an artillery unit needs its range (8.3)")
        if kind is UnitKind.CAVALRY and full.charge <= 0:
            bad(path + ".full.charge", "a cavalry unit needs a charge factor above 0 (9.2)")
        units[uid] = UnitDef(
            uid, u["side"], kind, u["name"], u["formation"], steps, full, reduced, ineff,
            u.get("range", 0), LeaderFactors(0, 0, 0), LeaderFactors(0, 0, 0),
        )

    placed: set[str] = set()
    setup: list[Placement] = []
    for i, s in enumerate(data["setup"]):
        path = f"setup[{i}]"
        if s["unit"] not in units:
            bad(path + ".unit", f"unit '{s['unit']}' is not in units")
            continue
        if s["unit"] in placed:
            bad(path + ".unit", f"unit '{s['unit']}' is set up twice")
        placed.add(s["unit"])
        if on_map(path + ".hex", s["hex"]):
            ut = units[s["unit"]]
            t = terrain.get(hex_terrain.get(s["hex"], m["default_terrain"]))
            if t is not None and t.is_prohibited(ut.tec_class) and s.get("within", 0) == 0:
                bad(path + ".hex", f"unit '{ut.id}' may not stand in {t.name} at {s['hex']} (prohibited terrain)")
        setup.append(Placement(
            s["unit"], s["hex"], s.get("within", 0), s.get("square", False),
            s.get("disrupted", False), s.get("ineffective", False), s.get("reduced", False),
        ))
    reinforcements = parse_reinforcements(data.get("reinforcements", []), units, placed, data["turns"], grid,
                                          bad, entry_rule="4.5")

    if data["first_player"] not in sides:
        bad("first_player", f"side '{data['first_player']}' is not one of {side_ids}")
    labels = data.get("turn_labels", [])
    if labels and len(labels) != data["turns"]:
        bad("turn_labels", f"{len(labels)} labels for {data['turns']} turns")

    victory = parse_victory(data["victory"], grid, side_ids, bad)
    if p:
        raise ScenarioError(source, p)

    return Scenario(
        id=data["id"],
        title=data["title"],
        ruleset=data["ruleset"],
        grid=grid,
        default_terrain=m["default_terrain"],
        hex_terrain=hex_terrain,
        terrain=terrain,
        hexside_features=features,
        hexsides=hexsides,
        road_links=road_links,
        road_hexes=road_hexes,
        road_mp_halves=int(tec.get("road_mp", 0.5) * 2),
        sides=sides,
        side_order=(side_ids[0], side_ids[1]),
        formations=formations,
        units=units,
        setup=tuple(setup),
        reinforcements=tuple(reinforcements),
        turns=data["turns"],
        turn_labels=tuple(labels),
        first_player=data["first_player"],
        hide_enemy_reinforcements=data.get("hidden", {}).get("enemy_reinforcements", False),
        victory=victory,
        raw=data,
        also_rulesets=tuple(r for r in data.get("also_rulesets", []) if r != data["ruleset"]),
    )
