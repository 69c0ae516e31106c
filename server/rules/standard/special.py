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

Pure functions over plain values; the parsing of the `special_rules` block with typed errors, as weather.py's.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..kernel.hexes import hexside_key
from ..kernel.scenario import unknown_fields

FIELDS = ("needle_gun", "lethargy", "open_order")
BLOCK_FIELDS: Mapping[str, tuple[str, ...]] = {"needle_gun": ("side",), "lethargy": ("side", "active"),
                                               "open_order": ("side",)}
LETHARGY_ACTIVE = (1, 2, 3)  # 19.5: 1-3 active, 4-6 inactive
NEEDLE_GUN_KINDS = ("infantry", "battalion")  # 19.9: the side's infantry (S51)
OPEN_ORDER_KINDS = ("infantry", "battalion")  # 19.10: the side's infantry
OPEN_ORDER_TACTICS = ("none", "skirmish", "disengage")  # 19.10 B: only skirmish and disengage of 7.13

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
class SpecialRules:
    """A scenario's `special_rules` (all None: none applies)."""

    needle_gun: NeedleGun | None = None
    lethargy: Lethargy | None = None
    open_order: OpenOrder | None = None


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
        if block is not None and block["side"] not in sides:
            bad(f"special_rules.{name}.side", f"side '{block['side']}' is not one of {list(sides)}")
    if raw.get("needle_gun") is not None:
        needle = NeedleGun(raw["needle_gun"]["side"])
    if raw.get("lethargy") is not None:
        lt = raw["lethargy"]
        lethargy = Lethargy(lt["side"], frozenset(lt.get("active", LETHARGY_ACTIVE)))
    open_order = OpenOrder(raw["open_order"]["side"]) if raw.get("open_order") is not None else None
    return SpecialRules(needle, lethargy, open_order)
