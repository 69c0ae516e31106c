"""Hidden movement: boxes of units moved on the map as pairs of markers, one real and one dummy.

An edition that has the mechanism (a scenario's `hidden_movement`, parsed by the edition into a
`HiddenMovement`) keeps it here, in `GameState.extra["hidden"]`:

* ``owner``: the side whose boxes they are;
* ``markers``: marker id -> ``{"hex", "box", "moved"}``: what everybody sees of a marker (both markers of a
  box alike);
* ``real``: box -> the id of its real marker, and ``boxes``: box -> the ids of the units in it: the owner's
  secret until the box is revealed (or the game is over);
* ``revealed``: the boxes revealed so far (in order), public;
* ``setup``: box -> ``{"hexes", "real"}``, the markers the owner places while setting up (the edition's set-up):
  the owner's secret until its set-up ends (`place_setup_markers` puts them on the map).

A unit in a box has the status ``hidden`` (`state.STATUS_HIDDEN`), no hex: it is on no list the opponent or a
spectator reads (views.py), every event naming it is for its owner only (visibility.py), and the bots'
belief of the opponent holds the block redacted (`redacted_extra`): boxes empty, the first marker of each
box standing for the real one, so nothing the opponent's bot reads tells the real marker from the dummy.

Marker ids tell nothing: ``HM-<box>1`` and ``HM-<box>2``; which one is real is in ``real`` only.
What moves a marker, what reveals it and how a revealed box deploys are the edition's rules; revealing a
box here only takes its two markers off and stands its units on the real marker's hex (`reveal`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import cards
from .state import STATUS_HIDDEN, STATUS_MAP, GameState, UnitState

KEY = "hidden"  # GameState.extra's key
PREFIX = "HM-"


@dataclass(frozen=True, slots=True)
class HiddenBox:
    """One box of a scenario: its units and its two markers' hexes; `real` is 1 or 2 (0: a redacted box)."""

    name: str
    units: tuple[str, ...]
    markers: tuple[str, str]
    real: int


@dataclass(frozen=True, slots=True)
class HiddenMovement:
    """A scenario's hidden movement: the owner, the edition's rule number, the boxes, the formations that
    may be hidden, and the edition's marker movement allowance (normal and marching)."""

    owner: str
    rule: str
    boxes: tuple[HiddenBox, ...]
    formations: tuple[str, ...] = ()
    ma: int = 4
    march_ma: int = 9
    shared: tuple[frozenset[str], ...] = ()  # formations that may share a box
    names: tuple[str, ...] = ()  # every box the owner has (a set-up may fill those without markers)


def marker_ids(box: str) -> tuple[str, str]:
    return f"{PREFIX}{box}1", f"{PREFIX}{box}2"


def is_marker(ident: Any) -> bool:
    return isinstance(ident, str) and ident.startswith(PREFIX)


def initial(hm: HiddenMovement, units: dict[str, UnitState]) -> dict[str, Any]:
    """The block a new game starts with; the boxed units in `units` turn `hidden` (off the map)."""
    markers: dict[str, Any] = {}
    real: dict[str, str] = {}
    boxes: dict[str, list[str]] = {}
    for b in hm.boxes:
        ids = marker_ids(b.name)
        for mid, h in zip(ids, b.markers, strict=True):
            markers[mid] = {"hex": h, "box": b.name, "moved": False}
        real[b.name] = ids[b.real - 1] if b.real in (1, 2) else ids[0]
        boxes[b.name] = list(b.units)
        for uid in b.units:
            units[uid] = UnitState(id=uid, hex=None, status=STATUS_HIDDEN)
    return {"owner": hm.owner, "markers": markers, "real": real, "boxes": boxes, "revealed": []}


# --- reading the block -----------------------------------------------------------------------------------------
def block(st: GameState) -> dict[str, Any] | None:
    got = st.extra.get(KEY)
    return got if isinstance(got, dict) else None


def owner(st: GameState) -> str | None:
    b = block(st)
    return None if b is None else str(b["owner"])


def markers(st: GameState) -> dict[str, dict[str, Any]]:
    b = block(st)
    return {} if b is None else b["markers"]


def marker_hexes(st: GameState, excluding: str | None = None) -> dict[str, str]:
    """Hex -> the marker standing there."""
    return {m["hex"]: mid for mid, m in markers(st).items() if mid != excluding}


def box_of(st: GameState, mid: str) -> str:
    return str(markers(st)[mid]["box"])


def box_markers(st: GameState, box: str) -> list[str]:
    return sorted(mid for mid, m in markers(st).items() if m["box"] == box)


def real_marker(st: GameState, box: str) -> str:
    b = block(st)
    assert b is not None
    return str(b["real"][box])


def box_units(st: GameState, box: str) -> list[str]:
    b = block(st)
    return [] if b is None else list(b["boxes"].get(box, []))


def boxed_units(st: GameState) -> dict[str, str]:
    """Unit id -> its box, for every unit still hidden."""
    b = block(st)
    if b is None:
        return {}
    return {u: box for box, us in b["boxes"].items() for u in us if st.units[u].status == STATUS_HIDDEN}


def box_holding(st: GameState, uid: str) -> str | None:
    return boxed_units(st).get(uid)


# --- changing it ---------------------------------------------------------------------------------------------
def move_marker(st: GameState, mid: str, hex_: str) -> None:
    m = markers(st)[mid]
    m["hex"] = hex_
    m["moved"] = True


def new_phase(st: GameState) -> None:
    """Every marker may move again (a new movement phase)."""
    for m in markers(st).values():
        m["moved"] = False


def reveal(st: GameState, box: str) -> tuple[str, list[str]]:
    """Take both markers of `box` off and stand its units on the real marker's hex: (that hex, the units)."""
    b = block(st)
    assert b is not None
    real = str(b["real"][box])
    where = str(b["markers"][real]["hex"])
    for mid in box_markers(st, box):
        del b["markers"][mid]
    units = [u for u in b["boxes"].get(box, []) if st.units[u].status == STATUS_HIDDEN]
    for u in units:
        s = st.units[u]
        s.status = STATUS_MAP
        s.hex = where
    b["revealed"].append(box)
    return where, units


def hold_for_setup(st: GameState) -> None:
    """The owner sets up: the markers placed so far (the scenario's) wait, its secret, until its set-up ends."""
    b = block(st)
    if b is None:
        return
    pending: dict[str, Any] = {}
    for box in sorted(b["real"]):
        ids = marker_ids(box)
        if all(i in b["markers"] for i in ids):
            pending[box] = {"hexes": [b["markers"][i]["hex"] for i in ids], "real": 1 + ids.index(b["real"][box])}
    b["markers"] = {}
    b["setup"] = pending


def place_setup_markers(st: GameState) -> list[str]:
    """The owner's set-up ends: each box's markers go on the map (the ids of the markers placed)."""
    b = block(st)
    if b is None:
        return []
    out = []
    for box, m in sorted(b.pop("setup", {}).items()):
        ids = marker_ids(box)
        for mid, h in zip(ids, m["hexes"], strict=True):
            b["markers"][mid] = {"hex": h, "box": box, "moved": False}
            out.append(mid)
        b["real"][box] = ids[int(m["real"]) - 1]
    return out


# --- what a viewer reads ----------------------------------------------------------------------------------------
def knows(st: GameState, viewer: str, *, everything: bool) -> bool:
    """Whether `viewer` may know the boxes' secrets (the owner; the admin and everybody once the game is over)."""
    return everything or viewer == owner(st)


def view(st: GameState, viewer: str, *, everything: bool) -> dict[str, Any] | None:
    """The markers as `viewer` sees them: to the opponent and spectators both markers of a box look alike
    (id, hex, box, moved); the owner also reads which is real and the box's units."""
    b = block(st)
    if b is None:
        return None
    mine = knows(st, viewer, everything=everything)
    out = []
    for mid in sorted(b["markers"]):
        m = b["markers"][mid]
        item: dict[str, Any] = {"id": mid, "hex": m["hex"], "box": m["box"], "moved": bool(m["moved"])}
        if mine:
            item["real"] = b["real"][m["box"]] == mid
            item["units"] = [u for u in b["boxes"].get(m["box"], []) if st.units[u].status == STATUS_HIDDEN]
        out.append(item)
    result: dict[str, Any] = {"owner": b["owner"], "markers": out, "revealed": list(b["revealed"])}
    if mine and "setup" in b:  # the owner's set-up: its boxes and the markers it has placed so far
        result["setup"] = {"boxes": {box: list(us) for box, us in b["boxes"].items()},
                           "markers": {box: dict(m) for box, m in b["setup"].items()}}
    return result


def redacted_extra(extra: Mapping[str, Any], viewer: str) -> dict[str, Any]:
    """The edition's bookkeeping as a non-owner may hold it (the bots' belief games): every box empty and its
    first marker standing for the real one, whichever is; the other side's hand and deck of cards unknown (cards.py)."""
    out = cards.redacted(extra, viewer)
    b = out.get(KEY)
    if not isinstance(b, dict) or b.get("owner") == viewer:
        return out
    red = {**b, "boxes": {box: [] for box in b["boxes"]},
           "real": {box: marker_ids(box)[0] for box in b["real"]}}
    if "setup" in red:
        red["setup"] = {}
    red["markers"] = {mid: dict(m) for mid, m in b["markers"].items()}
    out[KEY] = red
    return out


def secret_units(hm: HiddenMovement | None) -> dict[str, str]:
    """Unit id -> owner of every unit a scenario boxes (its definition is the owner's secret)."""
    if hm is None:
        return {}
    return {u: hm.owner for b in hm.boxes for u in b.units}


def redacted_scenario_block(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A scenario's `hidden_movement` block as a non-owner reads it: the boxes' contents and real markers left out."""
    out = dict(raw)
    out["boxes"] = [{k: v for k, v in box.items() if k not in ("units", "real")} | {"units": []}
                    for box in raw.get("boxes", []) if isinstance(box, dict)]
    return out


__all__ = [
    "KEY",
    "PREFIX",
    "HiddenBox",
    "HiddenMovement",
    "block",
    "box_holding",
    "box_markers",
    "box_of",
    "box_units",
    "boxed_units",
    "hold_for_setup",
    "initial",
    "is_marker",
    "knows",
    "marker_hexes",
    "marker_ids",
    "markers",
    "move_marker",
    "new_phase",
    "owner",
    "place_setup_markers",
    "real_marker",
    "redacted_extra",
    "redacted_scenario_block",
    "reveal",
    "secret_units",
    "view",
]
