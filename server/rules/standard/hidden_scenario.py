"""19.8 the scenario's `hidden_movement` block (docs/scenarios.md), read into the kernel's `HiddenMovement`.

A box lists its units, its two markers' hexes and which marker is real (1 or 2).  A box without markers is not in
play: a set-up phase (17.2, 19.8 B) fills it later.  The block as a non-owner reads it (kernel/hidden.py's
`redacted_scenario_block`) keeps the boxes' names and markers only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from typing import Any

from ..kernel.hexes import HexGrid
from ..kernel.hidden import HiddenBox, HiddenMovement


# ------------------------------------------------------------------------------------------------
def parse_hidden(data: Mapping[str, Any], sides: Collection[str], units: Mapping[str, Any],
                 taken: Collection[str], grid: HexGrid, bad: Callable[[str, str], None]) -> HiddenMovement | None:
    """The scenario's `hidden_movement` block (its shape is the schema's), checked against the rest of the scenario."""
    raw = data.get("hidden_movement")
    if raw is None:
        return None
    owner = raw["side"]
    if owner not in sides:
        bad("hidden_movement.side", f"side '{owner}' is not one of {list(sides)}")
    formations = tuple(str(f) for f in raw.get("formations", []))
    shared = [frozenset(str(f) for f in g) for g in raw.get("shared", [])]
    boxes: list[HiddenBox] = []
    seen_units: set[str] = set()
    seen_hexes: set[str] = set()
    names: set[str] = set()
    for i, b in enumerate(raw.get("boxes", [])):
        path = f"hidden_movement.boxes[{i}]"
        name = b["name"]
        if name in names:
            bad(path + ".name", f"box '{name}' is listed twice (19.8 A)")
        names.add(name)
        box_units = list(b.get("units", []))
        forms: set[str] = set()
        for j, uid in enumerate(box_units):
            where = f"{path}.units[{j}]"
            d = units.get(uid)
            if d is None:
                bad(where, f"unit '{uid}' is not in units")
                continue
            if d.side != owner:
                bad(where, f"unit '{uid}' is not {owner}'s (19.8 A: a box holds its owner's units)")
            if d.kind.value in ("hq", "trains"):
                bad(where, f"an {d.kind.value} is never hidden (19.8 B: units of a formation)")
            if uid in taken:
                bad(where, f"unit '{uid}' is also set up or a reinforcement")
            if uid in seen_units:
                bad(where, f"unit '{uid}' is in two boxes")
            seen_units.add(uid)
            if d.kind.value != "leader" and d.formation:
                forms.add(str(d.formation))
                if formations and str(d.formation) not in formations:
                    bad(where, f"formation '{d.formation}' may not be hidden in this scenario (19.8 B)")
        if len(forms) > 1 and not any(forms <= g for g in shared):
            bad(path + ".units", f"one formation's units per box (19.8 B), not {sorted(forms)}")
        hexes = b.get("markers")
        if hexes is None:
            if box_units:
                bad(path + ".markers", "a box with units has its two markers on the map (19.8 B)")
            continue
        if len(hexes) != 2 or hexes[0] == hexes[1]:
            bad(path + ".markers", "two different hexes, one for each marker (19.8 A)")
            continue
        for h in hexes:
            if h not in grid:
                bad(path + ".markers", f"hex {h} is not on the map")
            elif h in seen_hexes:
                bad(path + ".markers", f"two markers in {h}: markers are placed unstacked (19.8 B)")
            seen_hexes.add(h)
        real = b.get("real", 0)
        if box_units and real not in (1, 2):
            bad(path + ".real", "which marker is real: 1 or 2 (19.8 A)")
        boxes.append(HiddenBox(name, tuple(box_units), (hexes[0], hexes[1]), real))
    _public_text_problems(data, {u: units[u].name for u in seen_units if u in units}, bad)
    return HiddenMovement(owner, "19.8", tuple(boxes), formations, int(raw.get("ma", 4)), int(raw.get("march_ma", 9)),
                          tuple(shared), tuple(sorted(names)))


def public_texts(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(path, text) of the scenario's prose every reader gets (`scenario_json_for` leaves it in): the lobby shows
    both sides' briefings to anybody choosing a side."""
    out = [(k, data[k]) for k in ("title", "subtitle", "designer_notes") if isinstance(data.get(k), str)]
    for key in ("briefing", "provenance"):
        block = data.get(key)
        if isinstance(block, Mapping):
            out += [(f"{key}.{k}", v) for k, v in block.items() if isinstance(v, str)]
        elif isinstance(block, str):
            out.append((key, block))
    return out


def _public_text_problems(data: Mapping[str, Any], boxed: Mapping[str, str], bad: Callable[[str, str], None]) -> None:
    """19.8 A: the opponent may not learn what a box holds, so no text it reads names a boxed unit (id or name)."""
    for path, text in public_texts(data):
        for uid, name in sorted(boxed.items()):
            if re.search(rf"(?<![\w-]){re.escape(uid)}(?![\w-])|\b{re.escape(name)}\b", text):
                bad(path, f"names {name} ('{uid}'), a unit of a hidden movement box: every reader, the opponent "
                          "too, reads this text (19.8 A: the box's contents are its owner's secret)")


__all__ = ["parse_hidden", "public_texts"]
