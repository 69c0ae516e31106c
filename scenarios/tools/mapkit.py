"""Small helpers for drawing a historical battlefield onto a Vedette hex map.

The battles in ``build_scenarios.py`` are described in metres on the real
ground (x east, y north, origin at a chosen landmark).  ``MapBuilder`` turns
those sketches into the scenario format: terrain per hex, roads as paths of
adjacent hexes, hexside features where a stream or hedge line crosses the line
between two hex centres.  Geometry (CCRR ids, adjacency, shifted columns) comes
from ``server.rules.kernel.hexes`` so the generated file always agrees with the engine.

Everything here is deterministic: the same input always gives the same JSON.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import Any

from server.rules.kernel.hexes import HexGrid, hexside_key

Point = tuple[float, float]

SQRT3 = math.sqrt(3.0)


def _ccw(a: Point, b: Point, c: Point) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """True when segment p1-p2 properly crosses segment q1-q2."""
    d1 = _ccw(q1, q2, p1)
    d2 = _ccw(q1, q2, p2)
    d3 = _ccw(p1, p2, q1)
    d4 = _ccw(p1, p2, q2)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0) and d1 != 0 and d2 != 0 and d3 != 0 and d4 != 0


def point_in_polygon(p: Point, poly: Sequence[Point]) -> bool:
    x, y = p
    inside = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xc = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if xc > x:
                inside = not inside
    return inside


def dist_point_segment(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    bx, by = b
    px, py = p
    dx, dy = bx - ax, by - ay
    L2 = dx * dx + dy * dy
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / L2))
    cx, cy = ax + t * dx, ay + t * dy
    return math.hypot(px - cx, py - cy)


def dist_point_polyline(p: Point, line: Sequence[Point]) -> float:
    return min(dist_point_segment(p, line[i], line[i + 1]) for i in range(len(line) - 1))


def polyline_y_at(line: Sequence[Point], x: float) -> float | None:
    """The y of a west-to-east polyline at x (None outside its x range)."""
    for (x1, y1), (x2, y2) in pairwise(line):
        lo, hi = min(x1, x2), max(x1, x2)
        if lo <= x <= hi and x1 != x2:
            return y1 + (x - x1) * (y2 - y1) / (x2 - x1)
    return None


class MapBuilder:
    """A map of ``columns`` x ``rows`` flat-topped hexes, ``hex_m`` metres flat to flat.

    ``origin`` names the hex whose centre is the sketch's (0, 0).
    """

    def __init__(self, columns: int, rows: int, hex_m: float, origin: str, default: str = "clear") -> None:
        self.grid = HexGrid(columns, rows, "even")
        self.columns = columns
        self.rows = rows
        self.H = hex_m
        self.size = hex_m / SQRT3  # centre to corner
        oc, orow = int(origin[:2]), int(origin[2:])
        self._ox, self._oy = self._raw_center(oc, orow)
        self.default = default
        self.terrain: dict[str, str] = {}
        self.hexsides: dict[tuple[str, str], set[str]] = {}
        self.roads: list[dict[str, Any]] = []
        self.labels: list[dict[str, str]] = []
        self._centers = {h: self.center(h) for h in self.grid.all_hexes()}

    # --- geometry -------------------------------------------------------
    def _raw_center(self, col: int, row: int) -> Point:
        x = (col - 1) * 1.5 * self.size
        y = -(row - 1) * self.H - (self.H / 2 if col % 2 == 0 else 0.0)
        return x, y

    def center(self, hid: str) -> Point:
        x, y = self._raw_center(int(hid[:2]), int(hid[2:]))
        return x - self._ox, y - self._oy

    def at(self, x: float, y: float) -> str:
        """The hex whose centre is nearest (x, y)."""
        best = min(self._centers.items(), key=lambda kv: (kv[1][0] - x) ** 2 + (kv[1][1] - y) ** 2)
        return best[0]

    def hexes(self) -> tuple[str, ...]:
        return self.grid.all_hexes()

    def neighbors(self, hid: str) -> tuple[str, ...]:
        return self.grid.neighbors(hid)

    def adjacent_pairs(self) -> list[tuple[str, str]]:
        out = []
        for h in self.grid.all_hexes():
            for n in self.grid.neighbors(h):
                if h < n:
                    out.append((h, n))
        return out

    # --- terrain --------------------------------------------------------
    def set(self, hexes: str | Iterable[str], terrain: str) -> None:
        if isinstance(hexes, str):
            hexes = [hexes]
        for h in hexes:
            if h not in self.grid:
                raise ValueError(f"{h} is off the map")
            self.terrain[h] = terrain

    def terrain_of(self, hid: str) -> str:
        return self.terrain.get(hid, self.default)

    def polygon(self, poly: Sequence[Point], terrain: str, *, over: Iterable[str] | None = None) -> list[str]:
        """Paint every hex whose centre lies inside poly (only over the listed terrains, if given)."""
        allowed = None if over is None else set(over)
        out = []
        for h, c in self._centers.items():
            if point_in_polygon(c, poly) and (allowed is None or self.terrain_of(h) in allowed):
                self.terrain[h] = terrain
                out.append(h)
        return out

    def rect(self, x0: float, y0: float, x1: float, y1: float, terrain: str, *, over: Iterable[str] | None = None) -> list[str]:
        return self.polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], terrain, over=over)

    def crest_by_column(self, line: Sequence[Point], terrain: str, *, over: Iterable[str] | None = None) -> list[str]:
        """One hex per column: the one whose centre is nearest a west-east crest line."""
        allowed = None if over is None else set(over)
        out = []
        for col in range(1, self.columns + 1):
            x = self.center(f"{col:02d}01")[0]
            y = polyline_y_at(line, x)
            if y is None:
                continue
            cands = [f"{col:02d}{r:02d}" for r in range(1, self.rows + 1)]
            h = min(cands, key=lambda c: abs(self._centers[c][1] - y))
            if abs(self._centers[h][1] - y) > self.H:
                continue
            if allowed is None or self.terrain_of(h) in allowed:
                self.terrain[h] = terrain
            out.append(h)
        return out

    def near_line(self, line: Sequence[Point], width: float, terrain: str, *, over: Iterable[str] | None = None) -> list[str]:
        """Paint hexes whose centre is within width metres of a polyline."""
        allowed = None if over is None else set(over)
        out = []
        for h, c in self._centers.items():
            if dist_point_polyline(c, line) <= width and (allowed is None or self.terrain_of(h) in allowed):
                self.terrain[h] = terrain
                out.append(h)
        return out

    # --- hexsides -------------------------------------------------------
    def add_side(self, a: str, b: str, feature: str) -> None:
        if not self.grid.is_adjacent(a, b):
            raise ValueError(f"{a} and {b} are not adjacent")
        self.hexsides.setdefault(hexside_key(a, b), set()).add(feature)

    def remove_side(self, a: str, b: str, feature: str) -> None:
        key = hexside_key(a, b)
        s = self.hexsides.get(key)
        if s and feature in s:
            s.discard(feature)
            if not s:
                del self.hexsides[key]

    def line_feature(self, line: Sequence[Point], feature: str) -> list[tuple[str, str]]:
        """A hexside feature wherever the polyline crosses the segment between two adjacent centres."""
        out = []
        for a, b in self.adjacent_pairs():
            ca, cb = self._centers[a], self._centers[b]
            for p, q in pairwise(line):
                if segments_cross(ca, cb, p, q):
                    self.add_side(a, b, feature)
                    out.append((a, b))
                    break
        return out

    def boundary(self, inside: Iterable[str], feature: str, *, toward: str | None = None,
                 exclude_outside: Iterable[str] = ()) -> list[tuple[str, str]]:
        """Feature on every hexside between an inside hex and an outside one.

        ``toward`` ("north"/"south"/"east"/"west") keeps only sides whose outside hex
        lies in that direction from the inside hex.
        """
        ins = set(inside)
        excl = set(exclude_outside)
        out = []
        for h in sorted(ins):
            hx, hy = self._centers[h]
            for n in self.grid.neighbors(h):
                if n in ins or n in excl:
                    continue
                nx, ny = self._centers[n]
                if toward == "south" and not ny < hy - 1:
                    continue
                if toward == "north" and not ny > hy + 1:
                    continue
                if toward == "east" and not nx > hx + 1:
                    continue
                if toward == "west" and not nx < hx - 1:
                    continue
                self.add_side(h, n, feature)
                out.append((h, n))
        return out

    # --- roads ----------------------------------------------------------
    def trace(self, line: Sequence[Point]) -> list[str]:
        """Adjacent-hex path following a polyline (nearest centres, loops and kinks removed)."""
        path: list[str] = []
        step = self.H / 8
        for (x1, y1), (x2, y2) in pairwise(line):
            n = max(1, int(math.hypot(x2 - x1, y2 - y1) / step))
            for i in range(n + 1):
                t = i / n
                h = self.at(x1 + (x2 - x1) * t, y1 + (y2 - y1) * t)
                if not path or path[-1] != h:
                    if h in path:  # loop: cut back to the earlier visit
                        path = path[: path.index(h) + 1]
                    else:
                        path.append(h)
        # fill any gap (a diagonal jump across a vertex) with a line draw
        filled: list[str] = [path[0]]
        for h in path[1:]:
            if not self.grid.is_adjacent(filled[-1], h):
                walk = self.grid.line(filled[-1], h, 1e-6)
                for w in walk[1:-1]:
                    if w is not None and w not in filled:
                        filled.append(w)
            filled.append(h)
        # remove kinks: a hex whose neighbours on the path are adjacent to each other
        changed = True
        while changed:
            changed = False
            for i in range(1, len(filled) - 1):
                if self.grid.is_adjacent(filled[i - 1], filled[i + 1]):
                    del filled[i]
                    changed = True
                    break
        for a, b in pairwise(filled):
            assert self.grid.is_adjacent(a, b), (a, b)
        return filled

    def road(self, name: str, kind: str, line: Sequence[Point]) -> list[str]:
        path = self.trace(line)
        self.roads.append({"name": name, "kind": kind, "path": path})
        return path

    def road_links(self) -> list[tuple[str, str]]:
        out = []
        for r in self.roads:
            for a, b in pairwise(r["path"]):
                out.append((a, b))
        return out

    def label(self, hid: str, text: str) -> None:
        self.labels.append({"hex": hid, "text": text})

    # --- output ---------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        hexes = {h: t for h, t in sorted(self.terrain.items()) if t != self.default}
        sides = [
            {"hexes": [a, b], "features": sorted(fs)}
            for (a, b), fs in sorted(self.hexsides.items())
            if fs
        ]
        return {
            "columns": self.columns,
            "rows": self.rows,
            "shifted": "even",
            "default_terrain": self.default,
            "hexes": hexes,
            "hexsides": sides,
            "roads": self.roads,
            "labels": self.labels,
        }


# --- counters ----------------------------------------------------------------

def _half_up(n: int) -> int:
    return (n + 1) // 2


def infantry(uid: str, side: str, name: str, formation: str, *, attack: int, defense: int, mr: int, ma: int,
             historical: str) -> dict[str, Any]:
    """A two-step brigade or regiment; the reduced side is half strength (rounded up) and one morale lower."""
    return {
        "id": uid, "side": side, "kind": "infantry", "name": name, "formation": formation, "steps": 2,
        "full": {"attack": attack, "defense": defense, "mr": mr, "ma": ma},
        "reduced": {"attack": _half_up(attack), "defense": _half_up(defense), "mr": max(mr - 1, 1), "ma": ma},
        "historical": historical,
    }


def _ineffective(defense: int, mr: int, ma: int) -> dict[str, int]:
    return {"attack": 0, "defense": 1 if defense >= 3 else 0, "mr": max(mr - 2, 1), "ma": ma}


def battalion(uid: str, side: str, name: str, formation: str, *, attack: int, defense: int, mr: int, ma: int,
              historical: str) -> dict[str, Any]:
    return {
        "id": uid, "side": side, "kind": "battalion", "name": name, "formation": formation,
        "full": {"attack": attack, "defense": defense, "mr": mr, "ma": ma},
        "ineffective": _ineffective(defense, mr, ma),
        "historical": historical,
    }


def artillery(uid: str, side: str, name: str, formation: str, *, attack: int, defense: int, mr: int, ma: int,
              range_: int, historical: str) -> dict[str, Any]:
    return {
        "id": uid, "side": side, "kind": "artillery", "name": name, "formation": formation,
        "full": {"attack": attack, "defense": defense, "mr": mr, "ma": ma},
        "ineffective": {"attack": 0, "defense": 0, "mr": max(mr - 2, 1), "ma": ma},
        "range": range_,
        "historical": historical,
    }


def cavalry(uid: str, side: str, name: str, formation: str, *, attack: int, defense: int, charge: int, mr: int,
            ma: int, historical: str) -> dict[str, Any]:
    return {
        "id": uid, "side": side, "kind": "cavalry", "name": name, "formation": formation,
        "full": {"attack": attack, "defense": defense, "mr": mr, "ma": ma, "charge": charge},
        "ineffective": _ineffective(defense, mr, ma),
        "historical": historical,
    }


def leader(uid: str, side: str, name: str, formation: str, *, combat: int, morale: int, movement: int,
           historical: str) -> dict[str, Any]:
    return {
        "id": uid, "side": side, "kind": "leader", "name": name, "formation": formation,
        "leader": {"combat": combat, "morale": morale, "movement": movement},
        "leader_ineffective": {"combat": 0, "morale": max(morale - 1, 0), "movement": 0},
        "historical": historical,
    }


def cf_from_men(men: int, per_point: int) -> int:
    """Strength in combat factors: one point per ``per_point`` men, rounded half up, at least 1."""
    return max(1, int(men / per_point + 0.5))


def cf_from_guns(guns: float, per_point: float) -> int:
    return max(1, int(guns / per_point + 0.5))
