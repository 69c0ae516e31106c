"""A Standard scenario's own victory data (seed 002 18.0, ruling S68): the fields it adds to the kernel's `victory`
block, read with typed, path-named errors (the evaluation is victory.py's).

* `casualty_points` (18.3): points per enemy unit destroyed (11.2), leader casualty (10.3), unit, leader or trains
  captured and HQ captured, and the `threshold` under which the winner on points only draws.  Left out, the kernel's
  `points` schedule counts (S19: `standard-tutorial`).
* `conditions` (18.1, 18.2): tested at the end of the game; `instant`: tested at the end of each game turn.  Each is
  `{"side", "when", "text"?, "rule"?}`: `side` wins when its `when` test holds; the first listed that holds wins.
  A test is one of `all`/`any` (lists of tests), `enemy_not_won` (no condition of the other side in the same list
  holds: 18.2's "(1)"), `last_to_enter {hex}`, `artillery_in_range {hex, los?}`, `trains_unmoved {army?}` and
  `no_enemy_in {hexes?, terrain?, secondary?, hexside?}`, each judged for the condition's side.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..kernel.hexes import HexGrid
from ..kernel.scenario import unknown_fields

KERNEL_FIELDS = ("description", "objectives", "points", "draw_margin", "sudden_death")
FIELDS = ("casualty_points", "conditions", "instant")
POINT_FIELDS = ("destroyed", "leader_casualty", "captured", "leader_captured", "trains_captured", "hq_captured",
                "threshold")
CONDITION_FIELDS = ("side", "when", "text", "rule")
LEAF_FIELDS: Mapping[str, tuple[str, ...]] = {
    "enemy_not_won": (), "last_to_enter": ("hex",), "artillery_in_range": ("hex", "los"), "trains_unmoved": ("army",),
    "no_enemy_in": ("hexes", "terrain", "secondary", "hexside")}
TESTS = ("all", "any", *LEAF_FIELDS)

Problem = Callable[[str, str], None]


@dataclass(frozen=True, slots=True)
class CasualtyPoints:
    """18.3's schedule (the Königgrätz values by default)."""

    destroyed: int = 1
    leader_casualty: int = 1
    captured: int = 2
    leader_captured: int = 2
    trains_captured: int = 2
    hq_captured: int = 4
    threshold: int = 10


@dataclass(frozen=True, slots=True)
class Test:
    """One test of a condition: `op` is one of TESTS; `parts` for all/any; the leaf's own fields otherwise."""

    op: str
    parts: tuple[Test, ...] = ()
    hex: str | None = None
    los: bool = False
    army: str | None = None
    hexes: frozenset[str] = frozenset()
    terrain: frozenset[str] = frozenset()
    secondary: frozenset[str] = frozenset()
    hexside: frozenset[str] = frozenset()

    def leaves(self) -> Iterator[Test]:
        if self.op in ("all", "any"):
            for p in self.parts:
                yield from p.leaves()
        else:
            yield self


@dataclass(frozen=True, slots=True)
class Condition:
    side: str
    when: Test
    text: str
    rule: str


@dataclass(frozen=True, slots=True)
class VictoryRules:
    """A Standard scenario's victory additions (all empty: the kernel's victory alone, as `standard-tutorial`)."""

    points: CasualtyPoints | None = None
    conditions: tuple[Condition, ...] = ()
    instant: tuple[Condition, ...] = ()

    @property
    def used(self) -> bool:
        return self.points is not None or bool(self.conditions) or bool(self.instant)

    def leaves(self, op: str) -> Iterator[tuple[Condition, Test]]:
        for c in (*self.conditions, *self.instant):
            for leaf in c.when.leaves():
                if leaf.op == op:
                    yield c, leaf

    @property
    def entry_hexes(self) -> frozenset[str]:
        """The hexes whose last entry is tracked (last_to_enter)."""
        return frozenset(t.hex for _, t in self.leaves("last_to_enter") if t.hex is not None)

    @property
    def tracks_trains(self) -> bool:
        return any(True for _ in self.leaves("trains_unmoved"))


def extend_victory(schema: dict[str, Any]) -> dict[str, Any]:
    """The Standard schema's `victory`: the kernel's definition with the fields of `$defs.victory_standard` added
    (written once in each schema, not copied)."""
    defs = schema["$defs"]
    kernel = defs["victory"]
    defs["victory"] = {**kernel, "properties": {**kernel["properties"], **defs["victory_standard"]["properties"]}}
    return schema


# --- typos: a misspelt field would leave a condition silently unread -------------------------------------------------
def field_problems(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    v = data.get("victory")
    if not isinstance(v, Mapping):
        return []
    out = unknown_fields(v, (*KERNEL_FIELDS, *FIELDS), "victory", "a victory field")
    if isinstance(v.get("casualty_points"), Mapping):
        out += unknown_fields(v["casualty_points"], POINT_FIELDS, "victory.casualty_points", "an 18.3 points field")
    for block in ("conditions", "instant"):
        items = v.get(block)
        for i, c in enumerate(items if isinstance(items, list) else []):
            if isinstance(c, Mapping):
                path = f"victory.{block}[{i}]"
                out += unknown_fields(c, CONDITION_FIELDS, path, "a condition field")
                out += _test_problems(c.get("when"), f"{path}.when")
    return out


def _test_problems(t: Any, path: str) -> list[tuple[str, str]]:
    if not isinstance(t, Mapping):
        return []
    out = unknown_fields(t, TESTS, path, "a victory test")
    for op, body in t.items():
        if op in ("all", "any") and isinstance(body, list):
            for j, part in enumerate(body):
                out += _test_problems(part, f"{path}.{op}[{j}]")
        elif op in LEAF_FIELDS and isinstance(body, Mapping):
            out += unknown_fields(body, LEAF_FIELDS[op], f"{path}.{op}", f"a field of {op}")
    return out


# --- parsing the schema-valid block --------------------------------------------------------------------------------
@dataclass(slots=True)
class _Known:
    """What a test may name: the map, sides, armies with trains, TEC ids."""

    grid: HexGrid
    sides: Collection[str]
    trains_armies: Mapping[str, Collection[str]]  # side -> the armies that have trains
    terrain: Collection[str]
    secondary: Collection[str]
    hexside: Collection[str]
    bad: Problem
    problems: list[tuple[str, str]] = field(default_factory=list)


def parse_victory_rules(v: Mapping[str, Any], grid: HexGrid, sides: Collection[str],
                        trains_armies: Mapping[str, Collection[str]], tec: Mapping[str, Any],
                        bad: Problem) -> VictoryRules:
    """The schema-valid `victory` block's Standard fields."""
    if "casualty_points" in v and "points" in v:
        bad("victory.points", "give either the kernel's 'points' schedule or 18.3's 'casualty_points', not both")
    raw_pts = v.get("casualty_points")
    pts = None if raw_pts is None else CasualtyPoints(**{
        **({"leader_captured": raw_pts["captured"], "trains_captured": raw_pts["captured"]} if "captured" in raw_pts
           else {}), **raw_pts})
    k = _Known(grid, sides, trains_armies, tec.get("terrain", {}), tec.get("secondary", {}), tec.get("hexsides", {}),
               bad)
    blocks = {}
    for block in ("conditions", "instant"):
        conds = []
        for i, c in enumerate(v.get(block, [])):
            path = f"victory.{block}[{i}]"
            if c["side"] not in sides:
                bad(f"{path}.side", f"side '{c['side']}' is not one of {list(sides)}")
            when = _test(c["when"], c["side"], f"{path}.when", k)
            conds.append(Condition(c["side"], when, c.get("text") or describe(when), c.get("rule", "18.0")))
        _check_order(conds, block, bad)
        blocks[block] = tuple(conds)
    return VictoryRules(pts, blocks["conditions"], blocks["instant"])


def _test(t: Mapping[str, Any], side: str, path: str, k: _Known) -> Test:
    ((op, body),) = t.items()  # the schema allows exactly one
    here = f"{path}.{op}"
    if op in ("all", "any"):
        return Test(op, tuple(_test(p, side, f"{here}[{j}]", k) for j, p in enumerate(body)))
    if op in ("last_to_enter", "artillery_in_range"):
        if body["hex"] not in k.grid:
            k.bad(f"{here}.hex", f"hex {body['hex']} is not on the {k.grid.columns}x{k.grid.rows} map")
        return Test(op, hex=body["hex"], los=bool(body.get("los", False)))
    if op == "trains_unmoved":
        armies = k.trains_armies.get(side, ())
        army = body.get("army")
        if army is not None and army not in armies:
            k.bad(f"{here}.army", f"army '{army}' of {side} has no trains (12.2)")
        elif not armies and side in k.sides:
            k.bad(here, f"side '{side}' has no trains (12.2)")
        return Test(op, army=army)
    if op == "no_enemy_in":
        for j, h in enumerate(body.get("hexes", [])):
            if h not in k.grid:
                k.bad(f"{here}.hexes[{j}]", f"hex {h} is not on the {k.grid.columns}x{k.grid.rows} map")
        for name, known, table in (("terrain", k.terrain, "tec.terrain"), ("secondary", k.secondary, "tec.secondary"),
                                   ("hexside", k.hexside, "tec.hexsides")):
            for j, x in enumerate(body.get(name, [])):
                if x not in known:
                    k.bad(f"{here}.{name}[{j}]", f"'{x}' is not in {table}")
        return Test(op, hexes=frozenset(body.get("hexes", ())), terrain=frozenset(body.get("terrain", ())),
                    secondary=frozenset(body.get("secondary", ())), hexside=frozenset(body.get("hexside", ())))
    return Test(op)  # enemy_not_won


def _check_order(conds: list[Condition], block: str, bad: Problem) -> None:
    """`enemy_not_won` reads the other side's conditions in the same list: both sides may not wait on each other."""
    waiting = {c.side for c in conds if any(t.op == "enemy_not_won" for t in c.when.leaves())}
    if len(waiting) > 1:
        bad(f"victory.{block}", "both sides' conditions use 'enemy_not_won': each would wait on the other")


def describe(t: Test) -> str:
    """A test in plain words (the condition's text when the scenario gives none)."""
    if t.op in ("all", "any"):
        joiner = " and " if t.op == "all" else " or "
        return "(" + joiner.join(describe(p) for p in t.parts) + ")"
    if t.op == "enemy_not_won":
        return "the other side has not won"
    if t.op == "last_to_enter":
        return f"last to enter {t.hex}"
    if t.op == "artillery_in_range":
        return f"artillery within range of {t.hex}" + (" with a line of sight" if t.los else "")
    if t.op == "trains_unmoved":
        return "trains never moved nor attacked" + (f" ({t.army})" if t.army else "")
    return "no enemy unit in " + where_words(t)


def where_words(t: Test) -> str:
    parts = [", ".join(sorted(t.hexes))] if t.hexes else []
    parts += [f"{x} hexes" for x in sorted(t.terrain | t.secondary)]
    parts += [f"hexes beside a {x} hexside" for x in sorted(t.hexside)]
    return " or ".join(parts) or "nowhere"
