"""The scenario interface every edition's scenario model satisfies (issue 13, "shape").

Each edition reads its own scenario format into its own model (Quick Play: `kernel/scenario.py`'s
`Scenario`; the Standard rules: `standard/scenario.py`'s `StandardScenario`).  The engine (`game.py`),
the views (`views.py`), the kernel's invariants and the shared context queries (`core.Context`: occupancy,
zones of control) read a scenario only through `ScenarioModel`: its id and ruleset, the sides and their order,
the units with side, kind and name, the set-up, the reinforcements, the turns and their labels, the victory
conditions, the grid, and two per-scenario tables (`zoc_from`: where a unit of a TEC class projects its ZOC,
6.1/6.4 of either edition; `may_stand`: whether a unit of a class may be in a hex at all).

The victory conditions are one concrete model both editions read theirs into (`Victory`, `Objective`), so
they are defined here, beside the interface that carries them, below every scenario reader (`scenario.py`,
`standard/scenario.py`) and the scoring (`victory.py`).

`ScenarioBase` holds the methods both models share, written once.

This module imports nothing of the kernel but the hex grid: every other kernel module may read it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

from .hexes import HexGrid
from .hidden import HiddenMovement


@dataclass(frozen=True, slots=True)
class Objective:
    hex: str
    name: str
    points: int
    owner: str | None
    scorer: str | None


@dataclass(frozen=True, slots=True)
class BotPlan:
    """An edition's operational plan for the bots' evaluation (a heuristic, never a rule; `Edition.bot_plan`).

    `march`: side -> TEC class -> hex -> MP (movement-cost aware, the map's terrain and paths only) from the hex to
    the nearest objective that side can contest; the evaluation charges each combat unit of the side its MP over
    its MA, so columns keep marching where the objectives are beyond the tactical terms' reach.
    `breach`: (side, hexes, points): worth `points` to `side` while any of its units stands in one of `hexes` (an
    enemy's condition that holds only while none does, as Königgrätz's 18.2)."""

    march: Mapping[str, Mapping[str, Mapping[str, float]]]
    breach: tuple[tuple[str, frozenset[str], float], ...] = ()


@dataclass(frozen=True, slots=True)
class Victory:
    description: str
    objectives: tuple[Objective, ...]
    step_eliminated: int
    unit_captured: int
    leader_eliminated: int
    leader_captured: int
    draw_margin: int
    sudden_death: tuple[tuple[str, tuple[str, ...]], ...]


class KindModel(Protocol):
    @property
    def value(self) -> str: ...

    @property
    def is_combat(self) -> bool: ...


class UnitModel(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def side(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def kind(self) -> KindModel: ...

    @property
    def formation(self) -> str: ...

    @property
    def steps(self) -> int: ...

    @property
    def tec_class(self) -> str: ...


class SideModel(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def edge(self) -> str: ...

    @property
    def entry_hexes(self) -> tuple[str, ...]: ...


class PlacementModel(Protocol):
    @property
    def unit(self) -> str: ...

    @property
    def hex(self) -> str: ...

    @property
    def within(self) -> int:
        """N of a 'w/N' placement (Quick Play 3.2: its listed hex is public), 0 for any other."""
        ...

    @property
    def reduced(self) -> bool: ...

    @property
    def disrupted(self) -> bool: ...

    @property
    def ineffective(self) -> bool: ...


class ReinforcementModel(Protocol):
    @property
    def unit(self) -> str: ...

    @property
    def turn(self) -> int: ...

    @property
    def hex(self) -> str: ...


class ScenarioModel(Protocol):
    """What the kernel reads of any edition's scenario."""

    @property
    def id(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def ruleset(self) -> str: ...

    @property
    def also_rulesets(self) -> tuple[str, ...]:
        """The further editions the scenario declares it may be played under, besides `ruleset`."""
        ...

    @property
    def grid(self) -> HexGrid: ...

    @property
    def sides(self) -> Mapping[str, SideModel]: ...

    @property
    def side_order(self) -> tuple[str, str]: ...

    @property
    def first_player(self) -> str: ...

    @property
    def units(self) -> Mapping[str, UnitModel]: ...

    @property
    def setup(self) -> Sequence[PlacementModel]: ...

    @property
    def reinforcements(self) -> Sequence[ReinforcementModel]: ...

    @property
    def turns(self) -> int: ...

    @property
    def victory(self) -> Victory: ...

    @property
    def hide_enemy_reinforcements(self) -> bool: ...

    @property
    def raw(self) -> Mapping[str, Any]: ...

    @property
    def hidden_movement(self) -> HiddenMovement | None:
        """The scenario's hidden movement boxes (kernel/hidden.py), None without any."""
        ...

    @property
    def side_units(self) -> Mapping[str, tuple[str, ...]]: ...

    @property
    def all_entry_hexes(self) -> Mapping[str, frozenset[str]]: ...

    def opponent(self, side: str) -> str: ...

    def playable_under(self, ruleset: str) -> bool: ...

    def turn_label(self, turn: int) -> str: ...

    def zoc_from(self, tec_class: str, hex_: str) -> tuple[str, ...]:
        """The adjacent hexes a unit of this TEC class in `hex_` projects its zone of control into."""
        ...

    def may_stand(self, tec_class: str, hex_: str) -> bool:
        """Whether a unit of this TEC class may be in `hex_` at all (the kernel's invariants)."""
        ...


class ScenarioBase:
    """Methods both scenario models share (mixed into each edition's frozen dataclass)."""

    side_order: tuple[str, str]
    first_player: str
    units: Mapping[str, Any]
    sides: Mapping[str, Any]
    reinforcements: Sequence[Any]
    ruleset: str
    also_rulesets: tuple[str, ...] = ()  # a scenario model that declares none is played under its `ruleset` only

    def playable_under(self, ruleset: str) -> bool:
        """Whether a game of this scenario may be played under `ruleset`: its own, or one it declares."""
        return ruleset == self.ruleset or ruleset in self.also_rulesets

    def opponent(self, side: str) -> str:
        a, b = self.side_order
        return b if side == a else a

    @property
    def second_player(self) -> str:
        return self.opponent(self.first_player)

    @cached_property
    def side_units(self) -> Mapping[str, tuple[str, ...]]:
        out: dict[str, list[str]] = {s: [] for s in self.side_order}
        for uid, u in self.units.items():
            out[u.side].append(uid)
        return {s: tuple(v) for s, v in out.items()}

    @cached_property
    def all_entry_hexes(self) -> Mapping[str, frozenset[str]]:
        """Every entry hex a side has, any turn (R7 retreat direction)."""
        out: dict[str, set[str]] = {s: set(self.sides[s].entry_hexes) for s in self.side_order}
        for r in self.reinforcements:
            out[self.units[r.unit].side].add(r.hex)
        return {s: frozenset(v) for s, v in out.items()}
