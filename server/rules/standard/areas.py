"""Set-up areas (Königgrätz 17.2) and the free set-up (17.3) as scenario data: the `area` of a placement, the
scenario's named `setup_areas`, and its `free_setup` blocks (docs/scenarios.md, "Set-up areas").

An area is an object whose conditions all hold (they compose):

* `hexes`: one of these hexes ("3604, 3704, 3705");
* `within` N `of` a hex ("w/3 2420");
* `columns` [a, b] and `rows` [a, b], inclusive ("columns 24xx through 32xx", "west of xx13" = rows [1, 12]);
* `terrain`: on a hex whose primary or secondary terrain is one of these ids;
* `hexside`: a hex with a hexside bearing one of these hexside features;
* `near`: an area; on one of its hexes or adjacent to one ("on or adjacent to the fieldworks");
* `side_of` {`from`, `features`, `hexsides`}: every hex reached from `from` without crossing a hexside bearing one
  of `features` or listed in `hexsides` ("east of the Bistritz"); a line that does not divide the map is refused;
* `any_of`: one of these areas at least; `except`: none of these areas;
* `kinds` (unit kinds it admits) and `max_units` (at most so many units of this area in it): on the area itself or
  on an item of its top-level `any_of` ("any two infantry units in 4610");
* `with_span`: the hex must hold a friendly unit in the leader's command span (17.2's leaders, 10.3);
* `text`: the words a refusal uses for it (otherwise built from the conditions); `rule`: the rule cited (17.2).

This module is pure geometry over the parsed map: the hexes each area allows, its words, and why a hex is not in
it. The set-up phase that uses it is `setup.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from ..kernel.hexes import HexGrid, hexside_key
from ..kernel.scenario import unknown_fields

AREA_FIELDS = ("text", "rule", "hexes", "within", "of", "columns", "rows", "terrain", "hexside", "near", "side_of",
               "any_of", "except", "kinds", "max_units", "with_span")
SIDE_OF_FIELDS = ("from", "features", "hexsides")
PLACEMENT_FIELDS = ("unit", "hex", "area", "disrupted", "ineffective", "reduced", "inactive")
FREE_FIELDS = ("area", "pinned", "rule", "text")
AREA_RULE = "17.2"
FREE_RULE = "17.3"
_ANY_KIND = frozenset[str]()


@dataclass(frozen=True, slots=True)
class Part:
    """One branch of an area: the hexes it allows, the unit kinds it admits (empty: any), and how many units of
    the area it may hold (None: no limit)."""

    hexes: frozenset[str]
    kinds: frozenset[str] = _ANY_KIND
    max_units: int | None = None
    text: str = ""

    def admits(self, kind: str) -> bool:
        return not self.kinds or kind in self.kinds


@dataclass(frozen=True, slots=True)
class Area:
    """A parsed set-up area: its name (a `setup_areas` key or the placement's path), its words and rule, the
    hexes of its branches, whether a leader must stack with his command span, and the raw conditions (for `why_not`)."""

    name: str
    text: str
    rule: str
    parts: tuple[Part, ...]
    with_span: bool
    node: Mapping[str, Any]

    @property
    def hexes(self) -> frozenset[str]:
        """Every hex some branch allows, whatever the unit (the page's highlight before kinds and counts)."""
        return frozenset().union(*(p.hexes for p in self.parts))


@dataclass(frozen=True, slots=True)
class FreeSetup:
    """17.3 for one side: the area every unit of its set-up may take, and the units pinned to a hex (the trains)."""

    side: str
    area: Area
    pinned: Mapping[str, str]


@dataclass(frozen=True)
class MapFacts:
    """What an area reads of the map: the grid, each hex's terrain ids (primary and secondary), each hexside's
    features, and the TEC's names for the words."""

    grid: HexGrid
    terrain_of: Callable[[str], Collection[str]]
    hexsides: Mapping[tuple[str, str], frozenset[str]]
    names: Mapping[str, str]

    def has_feature(self, h: str, features: Collection[str]) -> bool:
        return any(self.hexsides.get(hexside_key(h, n), frozenset()) & set(features) for n in self.grid.neighbors(h))


# --- the scenario's fields: a misspelt one named with its path (before the schema) ----------------------------------
def field_problems(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Unknown fields of the placements, `setup_areas` and `free_setup` (each with its 'did you mean')."""
    out: list[tuple[str, str]] = []
    setup = data.get("setup")
    if isinstance(setup, list):
        for i, s in enumerate(setup):
            if isinstance(s, Mapping):
                out += unknown_fields([k for k in s if k not in ("within", "square")], PLACEMENT_FIELDS,
                                      f"setup[{i}]", "a placement field")
                if isinstance(s.get("area"), Mapping):
                    out += _area_fields(s["area"], f"setup[{i}].area")
    areas = data.get("setup_areas")
    if isinstance(areas, Mapping):
        for name, a in areas.items():
            if isinstance(a, Mapping):
                out += _area_fields(a, f"setup_areas.{name}")
    free = data.get("free_setup")
    if isinstance(free, Mapping):
        for side, block in free.items():
            if isinstance(block, Mapping):
                out += unknown_fields(block, FREE_FIELDS, f"free_setup.{side}", "a free set-up field")
                if isinstance(block.get("area"), Mapping):
                    out += _area_fields(block["area"], f"free_setup.{side}.area")
    return out


def _area_fields(node: Mapping[str, Any], path: str) -> list[tuple[str, str]]:
    out = unknown_fields(node, AREA_FIELDS, path, "an area condition")
    if isinstance(node.get("side_of"), Mapping):
        out += unknown_fields(node["side_of"], SIDE_OF_FIELDS, f"{path}.side_of", "a side_of field")
    if isinstance(node.get("near"), Mapping):
        out += _area_fields(node["near"], f"{path}.near")
    for key in ("any_of", "except"):
        items = node.get(key)
        if isinstance(items, list):
            for j, item in enumerate(items):
                if isinstance(item, Mapping):
                    out += _area_fields(item, f"{path}.{key}[{j}]")
    return out


# --- parsing: the hexes of an area -----------------------------------------------------------------------------------
class AreaReader:
    """Builds `Area`s over one map, reporting each problem with its path (`bad`)."""

    def __init__(self, facts: MapFacts, features: Collection[str], terrains: Collection[str], kinds: Collection[str],
                 bad: Callable[[str, str], None]) -> None:
        self.f = facts
        self.features = set(features)
        self.terrains = set(terrains)
        self.kinds = set(kinds)
        self.bad = bad
        self.all = frozenset(facts.grid.all_hexes())

    def area(self, name: str, node: Mapping[str, Any], path: str, rule: str = AREA_RULE) -> Area:
        top = {k: v for k, v in node.items() if k != "any_of"}
        base = self.hexes(top, path, top=True)
        parts: list[Part]
        if "any_of" in node:
            parts = []
            for j, item in enumerate(node["any_of"]):
                p = f"{path}.any_of[{j}]"
                parts.append(Part(base & self.hexes(item, p, top=True), *self._limits(item, p),
                                  text=describe(item, self.f.names)))
        else:
            parts = [Part(base, *self._limits(node, path), text=describe(node, self.f.names))]
        if not any(p.hexes for p in parts) and not node.get("with_span"):
            self.bad(path, f"the area '{describe(node, self.f.names)}' holds no hex of the map")
        return Area(name, describe(node, self.f.names), node.get("rule", rule), tuple(parts),
                    bool(node.get("with_span")), node)

    def _limits(self, node: Mapping[str, Any], path: str) -> tuple[frozenset[str], int | None]:
        kinds = frozenset(node.get("kinds", ()))
        for k in sorted(kinds - self.kinds):
            self.bad(f"{path}.kinds", f"'{k}' is not a unit kind (one of {', '.join(sorted(self.kinds))})")
        return kinds, node.get("max_units")

    def hexes(self, node: Mapping[str, Any], path: str, top: bool = False) -> frozenset[str]:
        """The hexes meeting every condition of `node` (with_span and the limits aside)."""
        if not top:
            for key in ("kinds", "max_units", "with_span"):
                if key in node:
                    self.bad(f"{path}.{key}", f"'{key}' belongs to an area or to an item of its top-level any_of")
        grid = self.f.grid
        out = self.all
        if "hexes" in node:
            for j, h in enumerate(node["hexes"]):
                if h not in grid:
                    self.bad(f"{path}.hexes[{j}]", f"hex {h} is not on the {grid.columns}x{grid.rows} map")
            out = out & frozenset(node["hexes"])
        if "within" in node:
            if node["of"] not in grid:
                self.bad(f"{path}.of", f"hex {node['of']} is not on the {grid.columns}x{grid.rows} map")
                return frozenset()
            out = out & frozenset(grid.within(node["of"], node["within"]))
        for key, index in (("columns", 0), ("rows", 1)):
            if key in node:
                lo, hi = node[key]
                if lo > hi:
                    self.bad(f"{path}.{key}", f"the range [{lo}, {hi}] is empty: give the lower number first")
                out = frozenset(h for h in out if lo <= _ccrr(h)[index] <= hi)
        if "terrain" in node:
            for t in node["terrain"]:
                if t not in self.terrains:
                    self.bad(f"{path}.terrain", f"terrain '{t}' is not in tec.terrain or tec.secondary")
            wanted = set(node["terrain"])
            out = frozenset(h for h in out if wanted & set(self.f.terrain_of(h)))
        if "hexside" in node:
            self._known_features(node["hexside"], f"{path}.hexside")
            out = frozenset(h for h in out if self.f.has_feature(h, node["hexside"]))
        if "near" in node:
            inner = self.hexes(node["near"], f"{path}.near")
            out = out & (inner | {n for h in inner for n in grid.neighbors(h)})
        if "side_of" in node:
            out = out & self._side_of(node["side_of"], f"{path}.side_of")
        if "any_of" in node:
            out = out & frozenset().union(*(self.hexes(x, f"{path}.any_of[{j}]")
                                            for j, x in enumerate(node["any_of"])))
        for j, x in enumerate(node.get("except", ())):
            out = out - self.hexes(x, f"{path}.except[{j}]")
        return out

    def _known_features(self, features: Collection[str], path: str) -> None:
        for f in features:
            if f not in self.features:
                self.bad(path, f"hexside feature '{f}' is not in tec.hexsides")

    def _side_of(self, node: Mapping[str, Any], path: str) -> frozenset[str]:
        grid = self.f.grid
        start = node["from"]
        if start not in grid:
            self.bad(f"{path}.from", f"hex {start} is not on the {grid.columns}x{grid.rows} map")
            return frozenset()
        self._known_features(node.get("features", ()), f"{path}.features")
        line = set()
        for j, (a, b) in enumerate(node.get("hexsides", ())):
            if a not in grid or b not in grid or not grid.is_adjacent(a, b):
                self.bad(f"{path}.hexsides[{j}]", f"{a} and {b} are not adjacent hexes of the map")
            line.add(hexside_key(a, b))
        region = flood(grid, start, self.f.hexsides, frozenset(node.get("features", ())), frozenset(line))
        if len(region) == len(self.all):
            self.bad(path, f"the line does not divide the map: every hex is reached from {start}")
        return region


def flood(grid: HexGrid, start: str, hexsides: Mapping[tuple[str, str], frozenset[str]],
          features: frozenset[str], line: frozenset[tuple[str, str]]) -> frozenset[str]:
    """Every hex reached from `start` without crossing a hexside bearing one of `features` or listed in `line`."""
    seen = {start}
    todo = [start]
    while todo:
        h = todo.pop()
        for n in grid.neighbors(h):
            key = hexside_key(h, n)
            if n in seen or key in line or hexsides.get(key, frozenset()) & features:
                continue
            seen.add(n)
            todo.append(n)
    return frozenset(seen)


def _ccrr(h: str) -> tuple[int, int]:
    return int(h[:-2]), int(h[-2:])


# --- words ----------------------------------------------------------------------------------------------------------
def _or(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


def describe(node: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """An area in words ("within 3 hexes of 2420"): its `text`, or its conditions joined."""
    if "text" in node:
        return str(node["text"])
    words: list[str] = []
    if "hexes" in node:
        words.append(f"in {_or(list(node['hexes']))}")
    if "within" in node:
        n = node["within"]
        words.append(f"within {n} hex{'es' if n != 1 else ''} of {node['of']}")
    if "columns" in node:
        words.append("in columns {:02d}xx through {:02d}xx".format(*node["columns"]))
    if "rows" in node:
        words.append("in rows xx{:02d} through xx{:02d}".format(*node["rows"]))
    if "terrain" in node:
        words.append(f"on {_or([names.get(t, t) for t in node['terrain']])}")
    if "hexside" in node:
        words.append(f"in a hex with a {_or([names.get(t, t) for t in node['hexside']])} hexside")
    if "near" in node:
        inner = describe(node["near"], names)
        words.append(f"on or adjacent to {inner[3:] if inner.startswith('in a hex') else 'a hex ' + inner}")
    if "side_of" in node:
        so = node["side_of"]
        line = _or([names.get(t, t) for t in so.get("features", ())] + (["the listed hexsides"] if so.get("hexsides") else []))
        words.append(f"on {so['from']}'s side of the {line}")
    if "any_of" in node:
        words.append("either " + "; or ".join(describe(x, names) for x in node["any_of"]))
    if node.get("with_span"):
        words.append("stacked with a unit in the leader's command span")
    text = " and ".join(words) or "anywhere on the map"
    limits = ([f"{_or(list(node['kinds']))} only"] if node.get("kinds") else []) + (
        [f"at most {node['max_units']} unit{'s' if node['max_units'] != 1 else ''}"] if "max_units" in node else [])
    if limits:
        text += f" ({', '.join(limits)})"
    if "except" in node:
        text += ", except " + "; ".join(describe(x, names) for x in node["except"])
    return text


def why_not(facts: MapFacts, node: Mapping[str, Any], h: str) -> str:
    """Why hex `h` is not in the area `node`: the first condition it fails, in plain words ("2815 is 5 away")."""
    grid = facts.grid
    col, row = _ccrr(h)
    if "hexes" in node and h not in node["hexes"]:
        return f"{h} is not one of {_or(list(node['hexes']))}"
    if "within" in node and grid.distance(h, node["of"]) > node["within"]:
        return f"{h} is {grid.distance(h, node['of'])} away"
    if "columns" in node and not node["columns"][0] <= col <= node["columns"][1]:
        return f"{h} is in column {col:02d}xx"
    if "rows" in node and not node["rows"][0] <= row <= node["rows"][1]:
        return f"{h} is in row xx{row:02d}"
    if "terrain" in node and not set(node["terrain"]) & set(facts.terrain_of(h)):
        here = [facts.names.get(t, t) for t in facts.terrain_of(h)]
        return f"{h} is {_or(here) if here else 'not such terrain'}"
    if "hexside" in node and not facts.has_feature(h, node["hexside"]):
        return f"{h} has no {_or([facts.names.get(t, t) for t in node['hexside']])} hexside"
    if "near" in node and not _in(facts, node["near"], h) and not any(
            _in(facts, node["near"], n) for n in grid.neighbors(h)):
        return f"{h} is neither on nor adjacent to one"
    if "side_of" in node and not _in(facts, {"side_of": node["side_of"]}, h):
        return f"{h} is across the {_or([facts.names.get(t, t) for t in node['side_of'].get('features', ())] or ['line'])}"
    if "any_of" in node and not any(_in(facts, x, h) for x in node["any_of"]):
        return f"{h} is in none of them"
    for x in node.get("except", ()):
        if _in(facts, x, h):
            return f"{h} is excluded ({describe(x, facts.names)})"
    return f"{h} is not in it"


def _in(facts: MapFacts, node: Mapping[str, Any], h: str) -> bool:
    return h in AreaReader(facts, (), (), (), lambda path, reason: None).hexes(node, "")


# --- the scenario's placements in areas and its free set-up ---------------------------------------------------------
@dataclass(frozen=True, slots=True)
class AreaPlacement:
    """A unit its owner places in an area during the set-up (17.2), with its printed hex if the scenario gives one
    (the shortcut 'place the rest as printed') and the state it starts in."""

    unit: str
    area: Area
    printed: str | None = None
    disrupted: bool = False
    ineffective: bool = False
    reduced: bool = False
    inactive: bool = False


def admits(area: Area, kind: str, h: str) -> bool:
    """Whether some branch of the area allows a unit of `kind` in `h` (counts and command span aside)."""
    return any(h in p.hexes and p.admits(kind) for p in area.parts)


def parse_areas(data: Mapping[str, Any], reader: AreaReader, units: Mapping[str, Any],
                set_up: Collection[str]) -> tuple[dict[str, AreaPlacement], dict[str, FreeSetup]]:
    """The placements with an `area` (by unit) and the `free_setup` blocks (by side) of a schema-valid scenario.
    `units`: the parsed units (kind, side); `set_up`: the units of the set-up (with or without an area)."""
    bad = reader.bad
    named = {name: reader.area(name, a, f"setup_areas.{name}") for name, a in data.get("setup_areas", {}).items()}
    used: set[str] = set()
    placements: dict[str, AreaPlacement] = {}
    for i, s in enumerate(data["setup"]):
        if "area" not in s or s["unit"] not in units:
            continue
        path = f"setup[{i}]"
        uid, ref = s["unit"], s["area"]
        if isinstance(ref, str):
            if ref not in named:
                bad(f"{path}.area", f"area '{ref}' is not in setup_areas (its areas: {', '.join(sorted(named)) or 'none'})")
                continue
            area = named[ref]
            used.add(ref)
        else:
            area = reader.area(f"{path}.area", ref, f"{path}.area")
        kind = units[uid].kind.value
        if area.with_span and kind != "leader":
            bad(f"{path}.area", f"'with_span' is for leaders (17.2: stacked with a unit in the leader's command span), "
                                f"not a {kind}")
        printed = s.get("hex")
        if printed is not None and printed in reader.f.grid and not area.with_span and not admits(area, kind, printed):
            bad(f"{path}.hex", f"the printed hex {printed} is not in the area ({area.text}): "
                               f"{why_not(reader.f, area.node, printed)}")
        placements[uid] = AreaPlacement(uid, area, printed, s.get("disrupted", False), s.get("ineffective", False),
                                        s.get("reduced", False), s.get("inactive", False))
    for name in sorted(set(named) - used):
        bad(f"setup_areas.{name}", f"no placement sets up in area '{name}'")
    free: dict[str, FreeSetup] = {}
    sides = {u.side for u in units.values()}
    for side, block in data.get("free_setup", {}).items():
        path = f"free_setup.{side}"
        if side not in sides:
            bad(path, f"side '{side}' has no units")
            continue
        found = reader.area(path, block["area"], f"{path}.area", block.get("rule", FREE_RULE)) \
            if isinstance(block["area"], Mapping) else named.get(block["area"])
        if found is None:
            bad(f"{path}.area", f"area '{block['area']}' is not in setup_areas")
            continue
        area = found
        if "rule" in block or "text" in block:
            area = Area(area.name, block.get("text", area.text), block.get("rule", FREE_RULE), area.parts,
                        area.with_span, area.node)
        elif area.rule == AREA_RULE:
            area = Area(area.name, area.text, FREE_RULE, area.parts, area.with_span, area.node)
        for uid, h in block.get("pinned", {}).items():
            if uid not in units or units[uid].side != side:
                bad(f"{path}.pinned.{uid}", f"'{uid}' is not a unit of {side}")
            elif uid not in set_up:
                bad(f"{path}.pinned.{uid}", f"'{uid}' does not set up on the map (a reinforcement is not pinned)")
            if h not in reader.f.grid:
                bad(f"{path}.pinned.{uid}", f"hex {h} is not on the map")
        if not any(u in set_up and units[u].side == side for u in units):
            bad(path, f"{side} sets up no unit on the map")
        free[side] = FreeSetup(side, area, dict(block.get("pinned", {})))
    return placements, free
