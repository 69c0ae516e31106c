"""Reading a scenario file by hand, field by field, collecting every problem with its JSON path.

The editions whose scenario files are not checked by a JSON schema (Horse and Musket, Musket & Pike) read them with
this: each accessor records what is wrong and returns a harmless stand-in, so one read of the file reports every
problem at once (`ScenarioError`) instead of stopping at the first. The faced placement and the objectives-only
victory conditions both of those editions use are here too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .hexes import HexGrid, hexside_key
from .model import Objective, Victory
from .scenario import unknown_fields


@dataclass(frozen=True, slots=True)
class FacedPlacement:
    """A fixed set-up entry with the facing (and, where the edition has them, the formation) the unit starts in."""

    unit: str
    hex: str
    facing: str | None = None
    formation: str | None = None
    within: int = 0
    reduced: bool = False
    disrupted: bool = False
    ineffective: bool = False


class DataReader:
    """Typed accessors over parsed JSON; a wrong value is recorded in `problems` as (path, reason)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.problems: list[tuple[str, str]] = []

    def bad(self, path: str, reason: str) -> None:
        self.problems.append((path, reason))

    def unknown(self, d: Mapping[str, Any], known: tuple[str, ...], path: str, what: str) -> None:
        self.problems += unknown_fields(d, known, path, what)

    def obj(self, value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.bad(path, "must be an object")
            return {}
        return value

    def lst(self, value: Any, path: str) -> list[Any]:
        if not isinstance(value, list):
            self.bad(path, "must be a list")
            return []
        return value

    def text(self, d: Mapping[str, Any], key: str, path: str, default: str | None = None) -> str:
        v = d.get(key, default)
        if not isinstance(v, str) or not v:
            self.bad(f"{path}.{key}", "must be a non-empty string")
            return ""
        return v

    def integer(self, d: Mapping[str, Any], key: str, path: str, low: int = 0, high: int | None = None,
                default: int | None = None) -> int:
        v = d.get(key, default)
        if isinstance(v, bool) or not isinstance(v, int) or v < low or (high is not None and v > high):
            span = f"of at least {low}" if high is None else f"from {low} to {high}"
            self.bad(f"{path}.{key}", f"must be a whole number {span}")
            return low
        return v

    def flag(self, d: Mapping[str, Any], key: str, path: str) -> bool:
        v = d.get(key, False)
        if not isinstance(v, bool):
            self.bad(f"{path}.{key}", "must be true or false")
            return False
        return v

    def choice(self, d: Mapping[str, Any], key: str, path: str, allowed: tuple[str, ...],
               default: str | None = None) -> str:
        v = d.get(key, default)
        if v not in allowed:
            self.bad(f"{path}.{key}", f"must be one of {', '.join(allowed)}, not {v!r}")
            return allowed[0]
        return str(v)

    def hex_(self, grid: HexGrid, v: Any, path: str) -> str | None:
        if not isinstance(v, str) or v not in grid:
            self.bad(path, f"hex {v!r} is not on the {grid.columns}x{grid.rows} map")
            return None
        return v

    def pair(self, grid: HexGrid, v: Any, path: str) -> tuple[str, str] | None:
        """Two adjacent hexes naming the hexside between them (as `hexside_key` orders it)."""
        items = self.lst(v, path)
        if len(items) != 2 or any(self.hex_(grid, h, path) is None for h in items):
            self.bad(path, "must be two hexes")
            return None
        if not grid.is_adjacent(items[0], items[1]):
            self.bad(path, f"{items[0]} and {items[1]} are not adjacent, so they share no hexside")
            return None
        return hexside_key(items[0], items[1])

    def grid(self, m: Mapping[str, Any]) -> HexGrid:
        try:
            return HexGrid(m.get("columns", 0), m.get("rows", 0), m.get("shifted", "even"))
        except (TypeError, ValueError) as e:
            self.bad("map", str(e))
            return HexGrid(1, 1)

    def objectives_victory(self, v: dict[str, Any], grid: HexGrid, side_ids: list[str], *,
                           step_eliminated: int, unit_captured: int) -> Victory:
        """Victory conditions that are objectives held at the end, each worth its points, and losses."""
        self.unknown(v, ("description", "objectives"), "victory", "a field of the victory conditions")
        objectives = []
        for i, o in enumerate(self.lst(v.get("objectives", []), "victory.objectives")):
            path = f"victory.objectives[{i}]"
            o = self.obj(o, path)
            self.unknown(o, ("hex", "name", "points", "owner"), path, "a field of an objective")
            h = self.hex_(grid, o.get("hex"), path + ".hex") or ""
            owner = o.get("owner")
            if owner is not None and owner not in side_ids:
                self.bad(path + ".owner", f"side {owner!r} is not one of {side_ids}")
            objectives.append(Objective(h, str(o.get("name", h)), self.integer(o, "points", path, low=1), owner, None))
        return Victory(self.text(v, "description", "victory"), tuple(objectives), step_eliminated, unit_captured,
                       0, 0, 1, ())
