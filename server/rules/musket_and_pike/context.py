"""The context every Musket & Pike procedure works in: the kernel's `Context` (events, dice, occupancy) over an
`MPScenario`, with R17.15's state of each unit and the turn's bookkeeping in `GameState.extra`:

* ``units``: per combat unit ``cp`` (Casualty Points), ``morale``, ``cond`` (formation condition), ``mode``,
  ``salvo`` (the Salvo marker, 10.4), ``pistols`` (shots left); facing is the kernel's `UnitState.facing`, ``moved``
  its `UnitState.moved` (this activation);
* ``leaders``: per leader ``rating`` now, ``replacement`` (5.3.3), ``returns`` (the turn at whose end the original
  comes back), ``gone`` (off the map for good);
* ``wings``: per wing ``order``, ``activated``, ``no_continue`` (R17.26), ``continuations`` (R17.27), ``collapsed``
  (R17.92);
* ``step`` (``command``, ``activation``, ``over``), ``segment`` (``movement``, ``action``, ``close_combat``),
  ``wing`` (the active wing), ``chooser``, ``initiative``, ``last_initiative`` (R17.21-R17.29);
* ``act``: this activation's flags (R17.15): ``acted``, ``reacted``, ``attacked``, ``defended``, ``salvo_at``,
  ``start_adjacent``, ``entered`` (the hex each unit moved into last), ``gentle`` (Gentle Slope crossings, R17.43),
  ``intercepted`` (movers already tried, R17.50);
* ``control``: the kernel's `GameState.control` holds the objectives (R17.94).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kernel.core import Context
from ..kernel.dice import Dice
from ..kernel.facing import Arc, ArcRule, arc_of_id, parse_facing
from ..kernel.los import line_of_sight
from ..kernel.state import STATUS_MAP, GameState
from .scenario import MPScenario, UnitDef
from .tables import Condition, Kind, Mode, Morale, Order

if TYPE_CHECKING:
    from ..kernel.edition import Edition
    from ..kernel.game import Game

ARCS = ArcRule(front=60, flank=120)  # R17.16
ALL_ROUND = ArcRule(front=180, flank=180)  # R17.16: a unit in Hedgehog has only front hexes


class MPCtx(Context):
    sc: MPScenario

    def __init__(self, scenario: MPScenario, state: GameState, ruleset: Edition, dice: Dice) -> None:
        super().__init__(scenario, state, ruleset, dice)
        self._near: dict[tuple[str, bool], frozenset[str]] = {}
        self._live: dict[str, list[str]] = {}

    def dirty(self) -> None:
        """Positions or morale changed: the cached occupancy, enemy adjacency and live enemies go."""
        super().dirty()
        self._near = {}
        self._live = {}

    def enemy_adjacent_hexes(self, side: str, live: bool) -> frozenset[str]:
        """Every hex next to an enemy unit of `side` (live: not Morale Broken, R17.74)."""
        key = (side, live)
        got = self._near.get(key)
        if got is None:
            enemies = self.live_enemies(side) if live else self.units_of(self.enemy(side))
            got = frozenset(n for e in enemies for n in self.sc.grid.neighbors(self.hex_of(e)))
            self._near[key] = got
        return got

    @staticmethod
    def of(game: Game) -> MPCtx:
        ctx = game.context()
        if not isinstance(ctx, MPCtx):
            raise TypeError(f"{game.ruleset.name} is not Musket & Pike")
        return ctx

    # --- bookkeeping ----------------------------------------------------------------------------
    @property
    def x(self) -> dict[str, Any]:
        return self.st.extra

    @property
    def act(self) -> dict[str, Any]:
        got = self.x.setdefault("act", {})
        assert isinstance(got, dict)
        return got

    def act_list(self, key: str) -> list[str]:
        got = self.act.setdefault(key, [])
        assert isinstance(got, list)
        return got

    @property
    def segment(self) -> str:
        return str(self.x.get("segment") or "")

    @property
    def active_wing(self) -> str | None:
        w = self.x.get("wing")
        return str(w) if w else None

    def wing(self, wid: str) -> dict[str, Any]:
        got = self.x["wings"][wid]
        assert isinstance(got, dict)
        return got

    def order(self, wid: str) -> Order:
        return Order(self.wing(wid)["order"])

    # --- counters -----------------------------------------------------------------------------------
    def d(self, uid: str) -> UnitDef:
        return self.sc.units[uid]

    def kind(self, uid: str) -> Kind:
        return self.sc.units[uid].kind

    def is_leader(self, uid: str) -> bool:
        return self.sc.units[uid].kind is Kind.LEADER

    def info(self, uid: str) -> dict[str, Any]:
        got = self.x["units"][uid]
        assert isinstance(got, dict)
        return got

    def cp(self, uid: str) -> int:
        return int(self.info(uid)["cp"])

    def sp_now(self, uid: str) -> int:
        """R17.15: current SP = printed SP - CP."""
        return max(0, self.d(uid).sp - self.cp(uid))

    def morale(self, uid: str) -> Morale:
        return Morale(self.info(uid)["morale"])

    def cond(self, uid: str) -> Condition:
        return Condition(self.info(uid)["cond"])

    def mode(self, uid: str) -> Mode:
        return Mode(self.info(uid)["mode"])

    def broken(self, uid: str) -> bool:
        return self.morale(uid) is Morale.BROKEN

    def unit_wing(self, uid: str) -> str:
        return self.d(uid).wing

    def on_map(self, uid: str) -> bool:
        return self.st.units[uid].status == STATUS_MAP

    def hex_of(self, uid: str) -> str:
        h = self.st.units[uid].hex
        assert h is not None, f"{uid} is not on the map"
        return h

    def facing(self, uid: str) -> str:
        f = self.st.units[uid].facing
        assert f is not None, f"{uid} has no facing"
        return f

    def says(self, uid: str) -> str:
        return self.sc.units[uid].name

    def units_of(self, side: str) -> list[str]:
        """The side's combat units on the map (leaders are not units, R17.12)."""
        return [u for u in self.sc.side_units[side] if self.on_map(u) and not self.is_leader(u)]

    def leaders_of(self, side: str) -> list[str]:
        return [u for u in self.sc.side_units[side] if self.on_map(u) and self.is_leader(u)]

    def wing_units_on_map(self, wid: str) -> list[str]:
        return [u for u in self.sc.wing_units[wid] if self.on_map(u)]

    def units_in(self, hex_: str) -> list[str]:
        return [u for u in self.units_at(hex_) if not self.is_leader(u)]

    def leaders_in(self, hex_: str) -> list[str]:
        return [u for u in self.units_at(hex_) if self.is_leader(u)]

    def enemy_units_in(self, hex_: str, side: str) -> list[str]:
        return [u for u in self.units_in(hex_) if self.side_of(u) != side]

    def enemy_in(self, hex_: str, side: str) -> bool:
        """Any enemy counter in the hex, a leader included: no unit or leader enters it (designed, M3)."""
        return any(self.side_of(u) != side for u in self.units_at(hex_))

    def rating(self, lid: str) -> int:
        return int(self.x["leaders"][lid]["rating"])

    def commander(self, wid: str) -> str | None:
        """The wing's WC when on the map (R17.12)."""
        lid = self.sc.wings[wid].commander
        return lid if self.on_map(lid) else None

    def army_commander(self, side: str) -> str | None:
        lid = self.sc.army_commander[side]
        return lid if self.on_map(lid) else None

    # --- geometry ---------------------------------------------------------------------------------
    def near(self, a: str, b: str) -> bool:
        """Stacked with or adjacent to."""
        return a == b or self.sc.grid.is_adjacent(a, b)

    def dist(self, a: str, b: str) -> int:
        return self.sc.grid.distance(a, b)

    def live_enemies(self, side: str) -> list[str]:
        """R17.74: enemy units that count as enemy units for notes 1-3, the adjacency lines, R17.40's stop and
        interception (not Morale Broken)."""
        got = self._live.get(side)
        if got is None:
            got = [u for u in self.units_of(self.enemy(side)) if not self.broken(u)]
            self._live[side] = got
        return got

    def adjacent_enemy(self, hex_: str, side: str, live: bool = True) -> bool:
        return hex_ in self.enemy_adjacent_hexes(side, live)

    def arc(self, uid: str, target_hex: str) -> Arc:
        """R17.16: the arc `target_hex` lies in for `uid` (Hedgehog: all front)."""
        rule = ALL_ROUND if self.mode(uid) is Mode.HEDGEHOG else ARCS
        return arc_of_id(self.sc.grid, self.hex_of(uid), parse_facing(self.facing(uid)), target_hex, rule)

    def sees(self, a: str, b: str) -> bool:
        """R17.19: R2's walk over the TEC's "Blocks LOS"; a blocking hexside of either end's hex never blocks."""
        sc = self.sc

        def side_blocks(x: str, y: str) -> bool:
            if a in (x, y) or b in (x, y):
                return False
            return sc.side_blocks_los(x, y)

        return line_of_sight(sc.grid, a, b, sc.hex_blocks_los, side_blocks)

    def set_facing(self, uid: str, facing: str) -> None:
        self.st.units[uid].facing = facing
