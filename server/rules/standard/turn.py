"""The Standard rules' game turn (seed 002 3.2) and the voluntary flip at the start of movement (2.6).

3.2: five phases — the first player's movement and combat phases, the second player's movement and
combat phases, and the Game Turn Marker phase, which ends the game after the last turn (18.0: the
scenario's victory rules) or advances the marker.  Recovery is not a phase of its own: it happens inside
the owner's movement phase (4.1, 11.x).

The edition's procedures (phases.py, moving.py) play these rules in a game.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..kernel.state import PHASE_COMBAT, PHASE_MOVEMENT, PHASE_OVER, UnitState
from .scenario import Kind, StandardScenario

TURN_MARKER = "turn_marker"  # 3.2: the fifth phase; no player acts in it


@dataclass(frozen=True, slots=True)
class Step:
    """One phase of the sequence: whose it is (None for the Game Turn Marker phase) and which."""

    side: str | None
    phase: str


def sequence(sc: StandardScenario) -> tuple[Step, ...]:
    """3.2: the five phases of every turn, in order."""
    first = sc.first_player
    second = sc.opponent(first)
    return (Step(first, PHASE_MOVEMENT), Step(first, PHASE_COMBAT),
            Step(second, PHASE_MOVEMENT), Step(second, PHASE_COMBAT), Step(None, TURN_MARKER))


def next_step(sc: StandardScenario, turn: int, step: Step) -> tuple[int, Step]:
    """The phase after `step` of `turn`; after the last turn's Game Turn Marker phase the game is over
    (3.2, 18.0), returned as (turn, Step(None, 'over'))."""
    seq = sequence(sc)
    i = seq.index(step)
    if i + 1 < len(seq):
        return turn, seq[i + 1]
    if turn >= sc.turns:
        return turn, Step(None, PHASE_OVER)
    return turn + 1, seq[0]


def phases_of_turn(sc: StandardScenario) -> int:
    return len(sequence(sc))


def may_flip_ineffective(sc: StandardScenario, unit: UnitState, phase_side: str, phase: str, any_moved: bool) -> str | None:
    """2.6: at the beginning of his movement phase (before any unit moves) a player may flip an effective
    artillery or cavalry unit (squadrons are cavalry, 2.7) of his to its ineffective side.
    Returns why not, or None when the flip is allowed."""
    d = sc.units[unit.id]
    if d.side != phase_side or phase != PHASE_MOVEMENT:
        return "2.6: a unit is flipped only at the beginning of its owner's movement phase"
    if any_moved:
        return "2.6: the flip is made at the beginning of the movement phase, before any unit moves"
    if d.kind not in (Kind.ARTILLERY, Kind.CAVALRY, Kind.SQUADRON):
        return f"2.6: only artillery and cavalry may flip to their ineffective side, not {d.kind.value} units"
    if not unit.on_map:
        return "2.6: only a unit on the map is flipped"
    if unit.ineffective:
        return "2.6: the unit is already ineffective"
    return None
