"""The Standard rules' Terrain Effects Chart (seed 002 2.2 with the rules that send the reader to the TEC) as data.

Four tables, each entry read from the scenario's `tec`:

* `terrain`: a hex's primary terrain (2.2): movement cost per class (4.5), prohibitions, march (4.7), halvings (7.7),
  LOS (8.6), ZOC (6.4), no advance (7.12, R13), hills (8.7), trains (12.2), and the no-charge column;
* `secondary`: terrain a hex may have besides its primary (2.2), the same columns as additions;
* `hexsides`: features on a hexside (2.2), crossing costs and effects; one marked `ridge` is 19.2's ridge (S51), a
  clear hexside for every purpose but the line of sight, given no other effect (special.py, bombard.has_los);
  `line` marks the terrain, secondary terrain and hexsides a line enters or crosses undisrupted (19.7 A, C, S64: a
  terrain left out follows its `clear`), `battery_position` a secondary terrain (19.6's icon), `protected` a hexside
  of the fieldworks (19.6, S66);
* `clear_hexsides`: 2.2's clear hexside with a combat effect beside a terrain: the effects of every hexside with no
  printed feature that has a listed terrain on one side and not on the other (the terrain's edge; a hexside with
  the terrain on both sides lies inside it, and the hexes' own terrain speaks there).

The no-charge column (`no_charge`, S30, S33) names the charging classes a terrain or hexside bars: an infantry charge
may not be made into it (7.13(3)), a cavalry charge may not enter, cross or attack into it (9.3(1)).  Left out, it is
9.3(1)'s "clear terrain only": cavalry is barred from every terrain not marked `clear`, from every secondary terrain
and every hexside feature; nothing bars infantry; a clear hexside bars nobody.  A terrain not marked `clear` always
bars cavalry (9.3(1)); the TEC may open a secondary terrain or a hexside feature to the charge (e.g. a hexside
"treated as a clear hexside for all other purposes").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

MOVE_CLASSES = ("infantry", "cavalry", "artillery")
CHARGERS = ("infantry", "cavalry")  # 7.13(3), 9.3


@dataclass(frozen=True, slots=True)
class Terrain:
    id: str
    name: str
    move: Mapping[str, int]
    prohibited: frozenset[str] = frozenset()
    clear: bool = False
    no_march: bool = False
    halves_attack_into: frozenset[str] = frozenset()
    halves_attack_out_of: frozenset[str] = frozenset()
    halves_defense: frozenset[str] = frozenset()
    blocks_los: bool = False
    blocks_zoc_into: bool = False
    blocks_zoc_out: bool = False
    no_advance_from: frozenset[str] = frozenset()
    hill: bool = False
    trains: bool = False
    no_charge: frozenset[str] = frozenset()  # 7.13(3), 9.3(1)
    line: bool = False  # 19.7 A, C (S64): a line forms in it and enters it undisrupted (left out: `clear`)

    def is_prohibited(self, tec_class: str) -> bool:
        """4.5: a class the TEC gives no cost for, or lists as prohibited, may not enter."""
        if tec_class in self.prohibited:
            return True
        return tec_class in MOVE_CLASSES and tec_class not in self.move


@dataclass(frozen=True, slots=True)
class Secondary:
    id: str
    name: str
    move_add: Mapping[str, int]
    prohibited: frozenset[str] = frozenset()
    no_march: bool = False
    halves_attack_into: frozenset[str] = frozenset()
    halves_attack_out_of: frozenset[str] = frozenset()
    halves_defense: frozenset[str] = frozenset()
    blocks_los: bool = False
    blocks_zoc_into: bool = False
    blocks_zoc_out: bool = False
    no_advance_from: frozenset[str] = frozenset()
    no_charge: frozenset[str] = frozenset()  # 7.13(3), 9.3(1)
    line: bool = False  # 19.7 A, C (S64)
    battery_position: bool = False  # 19.6 (S66): the Battery Position icon


@dataclass(frozen=True, slots=True)
class HexsideFeature:
    """A hexside feature (2.2), or one of 2.2's clear hexsides beside a terrain (`beside`: the terrains whose edge it
    is; those carry only combat effects)."""

    id: str
    name: str
    move_add: Mapping[str, int]
    prohibited: frozenset[str] = frozenset()
    no_march: bool = False
    halves_attack_across: frozenset[str] = frozenset()
    blocks_los: bool = False
    blocks_zoc: bool = False
    no_advance_across: frozenset[str] = frozenset()
    trains: bool = False
    no_charge: frozenset[str] = frozenset()  # 7.13(3), 9.3(1)
    beside: frozenset[str] = frozenset()  # 2.2: a clear hexside at the edge of these terrains
    ridge: bool = False  # 19.2: blocks the line of sight unless an end is beside it; clear for all else (special.py)
    line: bool = False  # 19.7 C (S64): a line crosses it undisrupted (a treeline; a ridge is clear)
    protected: bool = False  # 19.6 (S66): a protected hexside of the fieldworks


@dataclass(frozen=True, slots=True)
class Tec:
    terrain: Mapping[str, Terrain]
    secondary: Mapping[str, Secondary]
    hexsides: Mapping[str, HexsideFeature]
    clear_hexsides: Mapping[str, HexsideFeature]


def classes(d: Mapping[str, Any], key: str) -> frozenset[str]:
    return frozenset(d.get(key, []))


def _no_charge(d: Mapping[str, Any], default: frozenset[str]) -> frozenset[str]:
    return frozenset(d["no_charge"]) if "no_charge" in d else default


_CAVALRY = frozenset({"cavalry"})
RIDGE_KEYS = ("name", "color", "ridge")  # 19.2: a ridge has no effect but on the line of sight


def _ridge(fid: str, name: str) -> HexsideFeature:
    """19.2: a ridge hexside, a clear hexside for every purpose but the line of sight (the trains cross it, no
    charge is barred)."""
    return HexsideFeature(id=fid, name=name, move_add={}, trains=True, ridge=True, line=True)


def parse_tec(tec: Mapping[str, Any], bad: Callable[[str, str], None]) -> Tec:
    """The TEC's four tables (the schema has checked their shape); `bad(path, reason)` for each problem."""
    terrain: dict[str, Terrain] = {}
    for tid, t in tec["terrain"].items():
        clear = t.get("clear", False)
        no_charge = _no_charge(t, frozenset() if clear else _CAVALRY)
        if not clear and "cavalry" not in no_charge:
            bad(f"tec.terrain.{tid}.no_charge",
                "9.3(1): cavalry charges into clear terrain only: a terrain not marked 'clear' bars cavalry")
        terrain[tid] = Terrain(
            id=tid, name=t["name"], move=dict(t["move"]), prohibited=classes(t, "prohibited"), clear=clear,
            no_march=t.get("no_march", False), halves_attack_into=classes(t, "halves_attack_into"),
            halves_attack_out_of=classes(t, "halves_attack_out_of"), halves_defense=classes(t, "halves_defense"),
            blocks_los=t.get("blocks_los", False), blocks_zoc_into=t.get("blocks_zoc_into", False),
            blocks_zoc_out=t.get("blocks_zoc_out", False), no_advance_from=classes(t, "no_advance_from"),
            hill=t.get("hill", False), trains=t.get("trains", False), no_charge=no_charge,
            line=t.get("line", clear),
        )
    if not any(t.clear for t in terrain.values()):
        bad("tec.terrain", "no terrain is marked 'clear': 2.2 makes clear the basic terrain (4.5, 12.2 use it)")
    secondary = {
        sid: Secondary(
            id=sid, name=s["name"], move_add=dict(s.get("move_add", {})), prohibited=classes(s, "prohibited"),
            no_march=s.get("no_march", False), halves_attack_into=classes(s, "halves_attack_into"),
            halves_attack_out_of=classes(s, "halves_attack_out_of"), halves_defense=classes(s, "halves_defense"),
            blocks_los=s.get("blocks_los", False), blocks_zoc_into=s.get("blocks_zoc_into", False),
            blocks_zoc_out=s.get("blocks_zoc_out", False), no_advance_from=classes(s, "no_advance_from"),
            no_charge=_no_charge(s, _CAVALRY), line=s.get("line", False),
            battery_position=s.get("battery_position", False),
        )
        for sid, s in tec.get("secondary", {}).items()
    }
    for fid, f in tec.get("hexsides", {}).items():
        if f.get("ridge"):
            for k in f:
                if k not in RIDGE_KEYS:
                    bad(f"tec.hexsides.{fid}.{k}", f"19.2: a ridge's only effect is on the line of sight; for all "
                                                  f"other purposes it is a clear hexside, so '{k}' may not be given")
    features = {
        fid: _ridge(fid, f["name"]) if f.get("ridge") else HexsideFeature(
            id=fid, name=f["name"], move_add=dict(f.get("move_add", {})), prohibited=classes(f, "prohibited"),
            no_march=f.get("no_march", False), halves_attack_across=classes(f, "halves_attack_across"),
            blocks_los=f.get("blocks_los", False), blocks_zoc=f.get("blocks_zoc", False),
            no_advance_across=classes(f, "no_advance_across"), trains=f.get("trains", False),
            no_charge=_no_charge(f, _CAVALRY), line=f.get("line", False), protected=f.get("protected", False),
        )
        for fid, f in tec.get("hexsides", {}).items()
    }
    edges: dict[str, HexsideFeature] = {}
    for eid, e in tec.get("clear_hexsides", {}).items():
        for j, tid in enumerate(e["beside"]):
            if tid not in terrain:
                bad(f"tec.clear_hexsides.{eid}.beside[{j}]", f"terrain '{tid}' is not in tec.terrain (2.2)")
        edges[eid] = HexsideFeature(
            id=eid, name=e["name"], move_add={}, halves_attack_across=classes(e, "halves_attack_across"),
            no_advance_across=classes(e, "no_advance_across"), trains=True, no_charge=classes(e, "no_charge"),
            beside=frozenset(e["beside"]), line=True,
        )
    return Tec(terrain, secondary, features, edges)


def edge_effects(edges: Mapping[str, HexsideFeature], printed: frozenset[str], a_terrain: str,
                 b_terrain: str) -> tuple[HexsideFeature, ...]:
    """2.2: the clear-hexside entries that apply to the hexside between a hex of `a_terrain` and one of `b_terrain`
    (none where a feature is printed on it): those naming one of the two terrains and not the other."""
    if printed or a_terrain == b_terrain:
        return ()
    return tuple(e for _, e in sorted(edges.items()) if (a_terrain in e.beside) != (b_terrain in e.beside))
