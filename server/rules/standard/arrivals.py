"""Reinforcement arrivals as a Standard scenario writes them (seed 002 13.1, 17.1, 17.4; S60, S61).

What a scenario's `reinforcements` item may say (docs/scenarios.md), by rule number:

* 13.1, 17.1: a unit (`unit`) or a group of units (`units`) arriving on a turn (`turn`) at an entry hex (`hex`), or at
  a choice of entry hexes (`entry`: letters of the side's `entry_points`, or hex ids).  `entry_mode` "any" (17.4's
  "B and/or C": each unit of the group picks any listed hex) or "one" (17.4's "I OR J": the whole group uses one
  hex, fixed by the first of its units to enter).
* 17.4: an arrival decided by a die (`arrival`): `{"roll": [1, 2], "repeat": true}` rolls at the start of the
  owning side's movement phase of `turn` and of each later turn until the group arrives; `{"roll": [1, 2, 3],
  "else_turn": 7}` rolls once on `turn`, the group arriving then or on `else_turn`.  The roll is public (S61).
* 17.4: leaders that "arrive with any one unit in the leader's command span" (`with_span: true`): a leader of such
  a group enters in the same command as an arriving unit of his span, or alone at a hex where a unit of his span
  entered this phase; his own listed hexes do not bind him (S60).

The parse (`parse_arrivals`) gives the kernel's reinforcements (unit, turn, first hex) with these extras; arriving.py
plays them in a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..kernel.hexes import HexGrid
from ..kernel.scenario import parse_reinforcements, unknown_fields

ANY = "any"  # 17.4 "and/or": each unit picks any listed hex
ONE = "one"  # 17.4 "OR": the group uses one hex
FIELDS = ("unit", "units", "turn", "hex", "entry", "entry_mode", "arrival", "with_span")
ARRIVAL_FIELDS = ("roll", "repeat", "else_turn")


@dataclass(frozen=True, slots=True)
class Arrival:
    """One unit's arrival (13.1, 17.4): the kernel's reinforcement (`unit`, `turn`, `hex`: the first listed hex)
    with the group it arrives in, its listed entry hexes and their mode, the die that decides it and whether a
    leader arrives with a unit of his span."""

    unit: str
    turn: int
    hex: str
    hexes: tuple[str, ...]
    group: str
    mode: str = ANY
    roll: frozenset[int] = frozenset()  # empty: no die, the group arrives on `turn`
    repeat: bool = False  # roll again each turn after a miss
    else_turn: int | None = None  # the turn a single missed roll brings the group on
    with_span: bool = False  # 17.4: a leader arriving with a unit of his command span


def field_problems(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A field of a reinforcement item the format does not know (a misspelt `entry_mode` would go unread)."""
    out: list[tuple[str, str]] = []
    items = data.get("reinforcements")
    for i, r in enumerate(items if isinstance(items, list) else []):
        if isinstance(r, Mapping):
            out += unknown_fields(r, FIELDS, f"reinforcements[{i}]", "a reinforcement field")
            if isinstance(r.get("arrival"), Mapping):
                out += unknown_fields(r["arrival"], ARRIVAL_FIELDS, f"reinforcements[{i}].arrival", "an arrival field")
    return out


def parse_arrivals(items: list[dict[str, Any]], entry_points: Mapping[str, Mapping[str, str]],
                   unit_sides: Mapping[str, str], units: Mapping[str, Any], placed: set[str], turns: int,
                   grid: HexGrid, bad: Callable[[str, str], None], unreported: frozenset[str]) -> list[Arrival]:
    """The schema-valid `reinforcements` items as one `Arrival` per unit; `entry_points`: side -> letter -> hex;
    `unit_sides`: unit -> side; the kernel's checks (each unit once, on an edge, by the last turn, every unit
    accounted for) are `parse_reinforcements`'."""
    flat: list[dict[str, Any]] = []
    paths: list[str] = []
    extras: list[dict[str, Any]] = []
    for i, r in enumerate(items):
        path = f"reinforcements[{i}]"
        if ("unit" in r) == ("units" in r):
            bad(path, "name the arriving unit ('unit') or the group's units ('units'), not both (13.1)")
            continue
        if ("hex" in r) == ("entry" in r):
            bad(path, "give the entry hex ('hex') or the listed entry hexes ('entry'), not both (13.1, 17.4)")
            continue
        group = [r["unit"]] if "unit" in r else list(r["units"])
        sides = {unit_sides[u] for u in group if u in unit_sides}
        if len(sides) > 1:
            bad(path + ".units", "a group arrives for one side (13.1)")
            continue
        side = next(iter(sides), None)
        hexes = _hexes(r, path, side, entry_points, grid, bad)
        if hexes is None:
            placed.update(group)  # reported once, at the entry; not again as units unaccounted for
            continue
        if "entry_mode" in r and "entry" not in r:
            bad(path + ".entry_mode", "'entry_mode' chooses among the listed 'entry' hexes (17.4)")
        arrival = r.get("arrival") or {}
        if arrival and ("repeat" in arrival) == ("else_turn" in arrival):
            bad(path + ".arrival", "a die arrival either repeats ('repeat': true) or falls back to 'else_turn' (17.4)")
            continue
        if arrival.get("repeat") is False:
            bad(path + ".arrival.repeat", "'repeat' is true: leave it out for a single roll with 'else_turn' (17.4)")
        et = arrival.get("else_turn")
        if et is not None and not r["turn"] < et <= turns:
            bad(path + ".arrival.else_turn", f"turn {et} is not after turn {r['turn']} and by the last turn {turns}")
        if r.get("with_span") and any(getattr(units.get(u), "kind", None) != _LEADER for u in group if u in units):
            bad(path + ".with_span", "only leaders arrive with a unit of their command span (17.4)")
        for u in group:
            flat.append({"unit": u, "turn": r["turn"], "hex": hexes[0]})
            paths.append(path)
            extras.append({"hexes": hexes, "group": str(i), "mode": r.get("entry_mode", ANY),
                           "roll": frozenset(arrival.get("roll", ())), "repeat": bool(arrival.get("repeat")),
                           "else_turn": et, "with_span": bool(r.get("with_span"))})
    kernel = parse_reinforcements(flat, units, placed, turns, grid, bad, entry_rule="13.1", unreported=unreported,
                                  paths=paths)
    by_unit = {f["unit"]: x for f, x in zip(flat, extras)}
    return [Arrival(k.unit, k.turn, k.hex, **by_unit[k.unit]) for k in kernel]


_LEADER = "leader"  # scenario.Kind.LEADER's value (Kind is a str Enum; this module does not import the scenario)


def _hexes(r: Mapping[str, Any], path: str, side: str | None, entry_points: Mapping[str, Mapping[str, str]],
           grid: HexGrid, bad: Callable[[str, str], None]) -> tuple[str, ...] | None:
    """The item's listed entry hexes: `hex`, or each of `entry` (a letter of the side's entry points or a hex id)."""
    if "hex" in r:
        return (r["hex"],)
    points = entry_points.get(side or "", {})
    out: list[str] = []
    for j, name in enumerate(r["entry"]):
        h = points.get(name, name)
        if h not in grid:
            bad(f"{path}.entry[{j}]", f"'{name}' is neither an entry point of {side} ({', '.join(sorted(points)) or 'none'})"
                                      " nor a hex of the map (17.1)")
            return None
        if not grid.is_edge(h):
            bad(f"{path}.entry[{j}]", f"entry hex {h} is not on a map edge (13.1)")
            return None
        out.append(h)
    if len(set(out)) != len(out):
        bad(path + ".entry", "an entry hex is listed twice")
        return None
    return tuple(out)


__all__ = ["ANY", "ONE", "Arrival", "field_problems", "parse_arrivals"]
