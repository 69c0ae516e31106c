"""The mutable game state, serialisable to JSON and back without loss."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any, Final, NamedTuple


class Phase(str, Enum):
    SETUP = "setup"
    MOVEMENT = "movement"
    RECOVERY = "recovery"
    COMBAT = "combat"
    OVER = "over"


class Status(str, Enum):
    MAP = "map"
    OFFBOARD = "offboard"  # a reinforcement that has not entered yet (4.5)
    RETURNING = "returning"  # an eliminated unit coming back through step recovery (11.4)
    ELIMINATED = "eliminated"  # may still try step recovery
    CAPTURED = "captured"
    REMOVED = "removed"  # retreated off the map (7.7): neither captured nor eliminated
    DEAD = "dead"  # eliminated for good: failed step recovery, or a leader lost (10.0)
    UNPLACED = "unplaced"  # set up in an area (Standard 17.2, 17.3): its owner has not placed it yet
    HIDDEN = "hidden"  # in a hidden movement box, off the map until the box is revealed (kernel/hidden.py)


# The plain strings the state stores, for the rules' loops: on CPython 3.11 each read of
# `Status.MAP.value` runs enum's property, two Python-level calls, and the rules made about seventy
# such reads per command (issue 16's profile).
PHASE_SETUP: Final = Phase.SETUP.value
PHASE_MOVEMENT: Final = Phase.MOVEMENT.value
PHASE_RECOVERY: Final = Phase.RECOVERY.value
PHASE_COMBAT: Final = Phase.COMBAT.value
PHASE_OVER: Final = Phase.OVER.value
STATUS_MAP: Final = Status.MAP.value
STATUS_OFFBOARD: Final = Status.OFFBOARD.value
STATUS_RETURNING: Final = Status.RETURNING.value
STATUS_ELIMINATED: Final = Status.ELIMINATED.value
STATUS_CAPTURED: Final = Status.CAPTURED.value
STATUS_REMOVED: Final = Status.REMOVED.value
STATUS_DEAD: Final = Status.DEAD.value
STATUS_UNPLACED: Final = Status.UNPLACED.value
STATUS_HIDDEN: Final = Status.HIDDEN.value


@dataclass(slots=True)
class UnitState:
    id: str
    hex: str | None
    status: str = STATUS_MAP
    reduced: bool = False
    disrupted: bool = False
    ineffective: bool = False
    moved: bool = False
    start_ezoc: bool = False
    charging: str | None = None
    attacked: bool = False
    entry_turn: int | None = None
    entry_hex: str | None = None
    provisional: bool = False  # a set-up placement the opponent has not seen yet (3.2 w/1)
    # The facing's name (kernel/facing.py: a hexside "N", "SE"... or an apex "NNE", "W"...), None for a unit
    # without one; left out of the JSON when None, so a state without facings saves as it always did.
    facing: str | None = None

    @property
    def on_map(self) -> bool:
        return self.status == STATUS_MAP  # runs for every unit, every command: a constant, not an enum read

    def to_json(self) -> dict[str, Any]:
        out = {
            "id": self.id, "hex": self.hex, "status": self.status, "reduced": self.reduced,
            "disrupted": self.disrupted, "ineffective": self.ineffective, "moved": self.moved,
            "start_ezoc": self.start_ezoc, "charging": self.charging, "attacked": self.attacked,
            "entry_turn": self.entry_turn, "entry_hex": self.entry_hex, "provisional": self.provisional,
        }
        if self.facing is not None:
            out["facing"] = self.facing
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> UnitState:
        names = _UNIT_FIELDS
        if names.issuperset(data):
            return cls(**data)
        return cls(**{k: v for k, v in data.items() if k in names})


_UNIT_FIELDS = frozenset(f.name for f in fields(UnitState))  # read once: fields() is slow, and runs per unit
_UNIT_FIELD_ORDER = tuple(f.name for f in fields(UnitState))


def _units_values(units: Iterable[UnitState]) -> tuple[tuple[Any, ...], ...]:
    """Each unit's fields as a tuple, in field order (`_UNIT_FIELD_ORDER`; a test holds the two together).
    Spelled out rather than `operator.attrgetter(*names)`: CPython 3.11's specialised attribute loads in a
    tuple display take half the time (13 against 26 us for 80 units, issue 16)."""
    return tuple([
        (u.id, u.hex, u.status, u.reduced, u.disrupted, u.ineffective, u.moved, u.start_ezoc, u.charging,
         u.attacked, u.entry_turn, u.entry_hex, u.provisional, u.facing)
        for u in units
    ])


class StateSnapshot(NamedTuple):
    """The state at one moment, to go back to (`GameState.restore`) or to save (`to_json`): each unit's
    fields as a tuple, and the rest as `GameState.to_json` gives it. `Game.submit` takes one before every
    command; tuples are made twice as fast as the units' JSON objects (issue 16)."""

    units: tuple[tuple[Any, ...], ...]
    rest: dict[str, Any]  # "units" is None here, in its place

    def to_json(self) -> dict[str, Any]:
        names = _UNIT_FIELD_ORDER
        return {**self.rest, "units": {values[0]: _unit_json(names, values) for values in self.units}}


def _unit_json(names: tuple[str, ...], values: tuple[Any, ...]) -> dict[str, Any]:
    """One unit's JSON from its snapshot tuple, as `UnitState.to_json` gives it (no "facing" when None)."""
    out = dict(zip(names, values))
    if out["facing"] is None:
        del out["facing"]
    return out


@dataclass
class GameState:
    scenario: str
    ruleset: str
    turn: int
    phase: str
    active: str
    units: dict[str, UnitState]
    squares: dict[str, str] = field(default_factory=dict)  # hex -> the infantry unit forming it (9.3)
    replacements: dict[str, int] = field(default_factory=dict)
    control: dict[str, str | None] = field(default_factory=dict)
    decision: dict[str, Any] | None = None
    tasks: list[dict[str, Any]] = field(default_factory=list)
    combat: dict[str, Any] | None = None
    # Per combat phase bookkeeping (7.1, 7.3, 8.4)
    attacked_hexes: list[str] = field(default_factory=list)
    bombarded_hexes: list[str] = field(default_factory=list)
    attack_from: dict[str, str] = field(default_factory=dict)  # attacking hex -> its one target (7.1(4))
    ca_eligible: list[str] = field(default_factory=list)  # unit ids eligible to counterattack (R8)
    ca_stage: bool = False
    ca_done_hexes: list[str] = field(default_factory=list)
    any_moved: bool = False  # a unit has moved this movement phase (9.3 squares before any move)
    setup_done: list[str] = field(default_factory=list)
    recovery_tried: list[str] = field(default_factory=list)
    dice_count: int = 0
    result: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # the edition's own bookkeeping (JSON values only)
    # The options the game was created with (Game.new's `options`, e.g. Standard 17.3's free set-up): fixed for the
    # whole game, left out of the JSON when there are none, so a game without options saves as it always did.
    options: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return self._json_with({uid: u.to_json() for uid, u in self.units.items()})

    def snapshot(self) -> StateSnapshot:
        return StateSnapshot(_units_values(self.units.values()), self._json_with(None))

    @classmethod
    def restore(cls, snapshot: StateSnapshot) -> GameState:
        units = {values[0]: UnitState(*values) for values in snapshot.units}
        return cls(units=units, **{k: _deep_copy_json(v) for k, v in snapshot.rest.items() if k != "units"})

    def _json_with(self, units: Any) -> dict[str, Any]:
        # Flat fields are copied shallowly; only the nested procedure data needs a deep copy.
        return {
            "scenario": self.scenario, "ruleset": self.ruleset, "turn": self.turn, "phase": self.phase,
            "active": self.active,
            "units": units,
            "squares": dict(self.squares), "replacements": dict(self.replacements), "control": dict(self.control),
            "decision": _deep_copy_json(self.decision), "tasks": _deep_copy_json(self.tasks),
            "combat": _deep_copy_json(self.combat),
            "attacked_hexes": list(self.attacked_hexes), "bombarded_hexes": list(self.bombarded_hexes),
            "attack_from": dict(self.attack_from), "ca_eligible": list(self.ca_eligible), "ca_stage": self.ca_stage,
            "ca_done_hexes": list(self.ca_done_hexes), "any_moved": self.any_moved,
            "setup_done": list(self.setup_done), "recovery_tried": list(self.recovery_tried),
            "dice_count": self.dice_count, "result": _deep_copy_json(self.result),
            "extra": _deep_copy_json(self.extra),
            **({"options": dict(self.options)} if self.options else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        names = {f.name for f in fields(cls)}
        units = {uid: UnitState.from_json(u) for uid, u in data["units"].items()}
        rest = {k: _deep_copy_json(v) for k, v in data.items() if k in names and k != "units"}
        return cls(units=units, **rest)

    def copy(self) -> GameState:
        return GameState.from_json(self.to_json())


def _deep_copy_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep_copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy_json(v) for v in value]
    if isinstance(value, tuple):
        return [_deep_copy_json(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    return value
