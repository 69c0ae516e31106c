"""Special rules of seed 002's 19.0 that a Standard scenario may switch on (S51): Königgrätz's ridges, needle gun and
lethargy, as mechanisms any scenario may use.

* 19.2 Ridge hexsides: TEC data, a hexside feature marked `ridge: true` (tec.py) with no other effect.  The scenario
  keeps the ridges apart (`StandardScenario.ridges`), so every other rule sees a clear hexside there; the line of
  sight (bombard.has_los) is blocked by a ridge hexside it crosses unless the observing or the observed unit's hex is
  one of the two hexes beside that hexside (S51).
* 19.9 Needle gun (`special_rules.needle_gun: {"side": ...}`): that side's infantry (infantry and battalions) takes
  no step loss from an exchange inflicted by the other side's attack, close combat or bombardment (S51).
* 19.5 Lethargy (`special_rules.lethargy: {"side": ..., "active": [1, 2, 3]}`): at the beginning of each of that
  side's movement phases it rolls one die for its HQs: on an `active` number each is flipped to its active side
  unless 12.1 forbids, otherwise each is inactive for that turn (it may move, being on its inactive side); either
  way the die replaces the owner's 12.1 flip for that phase (phases.py rolls, moving.py refuses the flip; S51).
* 19.10 Open order (`special_rules.open_order: {"side": ...}`): that side's infantry may adopt open order
  (open_order.py: the marker in `extra.open_order`, placed, removed and swept); its CF is parenthesised (strength.py,
  2.4), it chooses only skirmish or disengage (tactics.py), enemy artillery bombarding it is halved (bombard.py; S52).
* 19.7 Line formation (`special_rules.line: {"side", "ma"?, "cf"?}`): that side's infantry may form line facing an
  apex (line.py: the marker is the unit's kernel `facing`, a `Vertex`); its front, flank and rear hexes are the
  kernel's arcs by `LINE_ARCS` (S64); the TEC's `line` flags say where it forms and moves undisrupted (tec.py).
* 19.3 Modified squares (`special_rules.modified_squares: {"charged"?, "attacked"?}`): no square markers; the
  named sides' infantry is treated as in square against cavalry (squares.py, S66).
* 19.6 Battery positions (`special_rules.battery_positions: {"side", "exclude_formations"?}`): the side's artillery
  bombarding from a `battery_position` hex across a `protected` hexside: +2 range and attack, coordinated with one
  another (bombard.py, S66).

Pure functions over plain values; the parsing of the `special_rules` block with typed errors, as weather.py's.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..kernel.facing import Arc, ArcRule, Vertex, arc_of_id, parse_facing
from ..kernel.hexes import HEX_DIRECTIONS, HexGrid, hexside_key
from ..kernel.scenario import unknown_fields

FIELDS = ("needle_gun", "lethargy", "open_order", "line", "modified_squares", "battery_positions")
BLOCK_FIELDS: Mapping[str, tuple[str, ...]] = {"needle_gun": ("side",), "lethargy": ("side", "active"),
                                               "open_order": ("side",), "line": ("side", "ma", "cf"),
                                               "modified_squares": ("charged", "attacked"),
                                               "battery_positions": ("side", "exclude_formations")}
SIDE_FIELDS: Mapping[str, tuple[str, ...]] = {"modified_squares": ("charged", "attacked")}
LETHARGY_ACTIVE = (1, 2, 3)  # 19.5: 1-3 active, 4-6 inactive
NEEDLE_GUN_KINDS = ("infantry", "battalion")  # 19.9: the side's infantry (S51)
OPEN_ORDER_KINDS = ("infantry", "battalion")  # 19.10: the side's infantry
OPEN_ORDER_TACTICS = ("none", "skirmish", "disengage")  # 19.10 B: only skirmish and disengage of 7.13
LINE_KINDS = ("infantry", "battalion")  # 19.7: any infantry unit, battalions included
LINE_ATTACK_TACTICS = ("none", "skirmish")  # 19.7 D: only skirmish of 7.13
LINE_DEFENCE_TACTICS = ("none",)  # 19.7 D (S65): no other tactic of 7.13, defending too
LINE_MA = 2  # 19.7 C: the line marker's MA when the scenario names none
LINE_CF = 2  # 19.7 D: the line marker's CF when the scenario names none
LINE_BONUS = 2  # 19.7 D: +2 CF fighting a unit in a front hex
LINE_FIRE_RANGE = 2  # 19.7 D: long-range fire up to two hexes
# 19.7 B (S64): facing an apex, the two hexes beside it are the front (30 degrees off), the next two the flanks (90),
# the last two the rear (150); a hex two away exactly on an apex line 60 degrees off is front (inclusive).
LINE_ARCS = ArcRule(front=60, flank=120)
SQUARE_KINDS = ("infantry", "battalion")  # 19.3: all infantry
BATTERY_BONUS = 2  # 19.6: +2 range, +2 attack

Side = tuple[str, str]


@dataclass(frozen=True, slots=True)
class NeedleGun:
    """19.9: the side whose infantry takes no loss from an exchange inflicted by the enemy's attack."""

    side: str


@dataclass(frozen=True, slots=True)
class Lethargy:
    """19.5: the side rolling for its HQs at the beginning of each of its movement phases; `active`: the dice that
    flip them active."""

    side: str
    active: frozenset[int] = field(default_factory=lambda: frozenset(LETHARGY_ACTIVE))


@dataclass(frozen=True, slots=True)
class OpenOrder:
    """19.10: the side whose infantry may adopt open order."""

    side: str


@dataclass(frozen=True, slots=True)
class Line:
    """19.7: the side whose infantry may form line, and the line marker's MA and CF."""

    side: str
    ma: int = LINE_MA
    cf: int = LINE_CF


@dataclass(frozen=True, slots=True)
class ModifiedSquares:
    """19.3: `charged`: the side whose infantry not in line is treated as in square when charged by the other side's
    cavalry; `attacked`: the side whose infantry is treated as in square when attacked by cavalry."""

    charged: str | None = None
    attacked: str | None = None


@dataclass(frozen=True, slots=True)
class BatteryPositions:
    """19.6: the side whose artillery (not of `exclude_formations`) gains the battery positions' bonus."""

    side: str
    exclude_formations: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class SpecialRules:
    """A scenario's `special_rules` (all None: none applies)."""

    needle_gun: NeedleGun | None = None
    lethargy: Lethargy | None = None
    open_order: OpenOrder | None = None
    line: Line | None = None
    modified_squares: ModifiedSquares | None = None
    battery_positions: BatteryPositions | None = None


# --- 19.2 ridge hexsides --------------------------------------------------------------------------------------------
def split_ridges(hexsides: Mapping[Side, frozenset[str]], ridge_ids: Collection[str]
                 ) -> tuple[dict[Side, frozenset[str]], frozenset[Side]]:
    """19.2: the map's hexside features without the ridges (clear for every other purpose), and the ridge hexsides."""
    rest: dict[Side, frozenset[str]] = {}
    ridges: set[Side] = set()
    for key, features in hexsides.items():
        if features & set(ridge_ids):
            ridges.add(key)
        others = frozenset(f for f in features if f not in ridge_ids)
        if others:
            rest[key] = others
    return rest, frozenset(ridges)


def ridge_blocks(ridges: Collection[Side], x: str, y: str, a: str, b: str) -> bool:
    """19.2: the hexside x|y a line of sight from a to b crosses blocks it: a ridge, and neither a nor b beside it."""
    return hexside_key(x, y) in ridges and not {a, b} & {x, y}


# --- 19.9 needle gun ------------------------------------------------------------------------------------------------
def needle_gun_spares(rules: SpecialRules, kind: str, owner: str, attacker: str) -> bool:
    """19.9: a unit of `kind` of `owner` takes no step loss from an exchange inflicted by `attacker`'s attack."""
    ng = rules.needle_gun
    return ng is not None and owner == ng.side and attacker != owner and kind in NEEDLE_GUN_KINDS


# --- 19.10 open order ----------------------------------------------------------------------------------------------
def open_order_tactic_problem(tactic: str, units: Collection[str], open_order: Collection[str]) -> str | None:
    """19.10 B: a unit in open order chooses only the skirmish and disengage tactics of 7.13."""
    marked = [u for u in units if u in open_order]
    if marked and tactic not in OPEN_ORDER_TACTICS:
        return f"19.10: a unit in open order may choose only the skirmish and disengage tactics, not '{tactic}'"
    return None


# --- 19.7 line formation ------------------------------------------------------------------------------------------
def line_vertex(facing: str) -> Vertex:
    """19.7 B: the apex a line faces (its saved facing's name); ValueError for a hexside or an unknown name."""
    f = parse_facing(facing)
    if not isinstance(f, Vertex):
        raise ValueError(f"19.7 B: a line faces an apex ({', '.join(v.name for v in Vertex)}), not the hexside {facing}")  # noqa: TRY004
    return f


def line_front(grid: HexGrid, at: str, facing: str) -> tuple[str, ...]:
    """19.7 B: the front hexes of a line in `at` facing the apex `facing`: the two hexes beside that apex (on the
    map)."""
    here = grid.cube(at)
    out = []
    for d in line_vertex(facing).hexsides:
        hid = grid.id_of(here + HEX_DIRECTIONS[d])
        if hid is not None:
            out.append(hid)
    return tuple(out)


def line_arc(grid: HexGrid, at: str, facing: str, target: str) -> Arc:
    """19.7 B (S64): the arc (front, flank, rear) `target` lies in for a line in `at` facing `facing`."""
    return arc_of_id(grid, at, line_vertex(facing), target, LINE_ARCS)


def line_tactic_problem(tactic: str, units: Collection[str], in_line: Collection[str], *, defending: bool) -> str | None:
    """19.7 D: a unit in line skirmishes (attacking) or chooses no tactic; no other tactic of 7.13 (S65)."""
    allowed = LINE_DEFENCE_TACTICS if defending else LINE_ATTACK_TACTICS
    if any(u in in_line for u in units) and tactic not in allowed:
        return (f"19.7 D: a unit in line may {'choose no tactic when defending' if defending else 'only skirmish'}, "
                f"not '{tactic}'")
    return None


# --- the scenario's `special_rules` block ---------------------------------------------------------------------------
def field_problems(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A field of the `special_rules` block the format does not know (a misspelt rule would silently not apply)."""
    raw = data.get("special_rules")
    if not isinstance(raw, Mapping):
        return []
    out = unknown_fields(raw, FIELDS, "special_rules", "a special rule")
    for name, known in BLOCK_FIELDS.items():
        if isinstance(raw.get(name), Mapping):
            out += unknown_fields(raw[name], known, f"special_rules.{name}", f"a field of {name}")
    return out


def parse_special(raw: Mapping[str, Any] | None, sides: Collection[str],
                  bad: Callable[[str, str], None]) -> SpecialRules:
    """The schema-valid `special_rules` block (None: no special rule applies)."""
    if raw is None:
        return SpecialRules()
    needle = lethargy = None
    for name in FIELDS:
        block = raw.get(name)
        for key in SIDE_FIELDS.get(name, ("side",)):
            if block is not None and block.get(key) is not None and block[key] not in sides:
                bad(f"special_rules.{name}.{key}", f"side '{block[key]}' is not one of {list(sides)}")
    if raw.get("needle_gun") is not None:
        needle = NeedleGun(raw["needle_gun"]["side"])
    if raw.get("lethargy") is not None:
        lt = raw["lethargy"]
        lethargy = Lethargy(lt["side"], frozenset(lt.get("active", LETHARGY_ACTIVE)))
    open_order = OpenOrder(raw["open_order"]["side"]) if raw.get("open_order") is not None else None
    ln = raw.get("line")
    line = Line(ln["side"], ln.get("ma", LINE_MA), ln.get("cf", LINE_CF)) if ln is not None else None
    ms = raw.get("modified_squares")
    squares = ModifiedSquares(ms.get("charged"), ms.get("attacked")) if ms is not None else None
    bp = raw.get("battery_positions")
    battery = (BatteryPositions(bp["side"], frozenset(bp.get("exclude_formations", ()))) if bp is not None else None)
    return SpecialRules(needle, lethargy, open_order, line, squares, battery)
