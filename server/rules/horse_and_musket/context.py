"""The context every Horse and Musket procedure works in: the kernel's `Context` (events, dice, occupancy) over an
`HMScenario`, with what R16 keeps of each unit (R16.3: facing in the kernel's `UnitState.facing`, staggered as its
`reduced`, formation and hits in `GameState.extra["units"]`) and the edition's bookkeeping in `GameState.extra`:

* ``step`` (R16.6): ``rally``, ``command``, ``charges``, ``moves``, ``firing`` or ``melee``;
* ``order``, ``player_turn``, ``initiative`` (R16.7);
* ``command`` (R16.9): the groups, their rolls and how many of each may act; ``acted``: the units that have acted
  in this movement phase; ``forced``: the units a Forced March lets act (R16.10);
* ``charges`` (R16.13): this step's declarations; ``steady_for``: the unit whose test just failed; ``contacts``:
  the engaged pairs waiting for hand-to-hand (R16.16);
* ``rallied``, ``generals_moved``, ``fired``, ``first_fire``, ``played`` (one card per unit per step), ``breached``
  (SR.4), ``colours`` (SR.1), ``guns`` (guns captured, R16.18); the cards themselves in the kernel's block
  (kernel/cards.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kernel.core import Context
from ..kernel.dice import Dice
from ..kernel.state import STATUS_MAP, GameState
from .scenario import HMScenario, UnitDef
from .tables import COLUMN, Kind

if TYPE_CHECKING:
    from ..kernel.edition import Edition
    from ..kernel.game import Game


class HMCtx(Context):
    sc: HMScenario

    def __init__(self, scenario: HMScenario, state: GameState, ruleset: Edition, dice: Dice) -> None:
        super().__init__(scenario, state, ruleset, dice)

    @staticmethod
    def of(game: Game) -> HMCtx:
        ctx = game.context()
        if not isinstance(ctx, HMCtx):
            raise TypeError(f"{game.ruleset.name} is not Horse and Musket")
        return ctx

    # --- the bookkeeping --------------------------------------------------------------------
    @property
    def x(self) -> dict[str, Any]:
        return self.st.extra

    @property
    def step(self) -> str:
        return str(self.x.get("step", ""))

    def listed(self, key: str) -> list[Any]:
        got = self.x.setdefault(key, [])
        assert isinstance(got, list)
        return got

    # --- units ------------------------------------------------------------------------------
    def d(self, uid: str) -> UnitDef:
        return self.sc.units[uid]

    def kind(self, uid: str) -> Kind:
        return self.sc.units[uid].kind

    def is_general(self, uid: str) -> bool:
        return self.sc.units[uid].kind is Kind.GENERAL

    def info(self, uid: str) -> dict[str, Any]:
        got = self.x["units"][uid]
        assert isinstance(got, dict)
        return got

    def formation(self, uid: str) -> str:
        return str(self.info(uid)["formation"])

    def hits(self, uid: str) -> int:
        return int(self.info(uid)["hits"])

    def staggered(self, uid: str) -> bool:
        return self.st.units[uid].reduced

    def facing(self, uid: str) -> str:
        f = self.st.units[uid].facing
        assert f is not None, f"{uid} has no facing"
        return f

    def hex_of(self, uid: str) -> str:
        h = self.st.units[uid].hex
        assert h is not None, f"{uid} is not on the map"
        return h

    def on_map(self, uid: str) -> bool:
        return self.st.units[uid].status == STATUS_MAP

    def in_column(self, uid: str) -> bool:
        return self.formation(uid) == COLUMN

    def units_of(self, side: str) -> list[str]:
        """The side's units on the map (generals are markers, not units)."""
        return [u for u in self.sc.side_units[side] if self.on_map(u) and not self.is_general(u)]

    def generals_of(self, side: str) -> list[str]:
        return [u for u in self.sc.side_units[side] if self.on_map(u) and self.is_general(u)]

    def unit_at(self, hex_: str) -> str | None:
        """The unit in a hex (R16.3: at most one), generals apart."""
        for u in self.units_at(hex_):
            if not self.is_general(u):
                return u
        return None

    def generals_at(self, hex_: str) -> list[str]:
        return [u for u in self.units_at(hex_) if self.is_general(u)]

    def attached(self, uid: str) -> list[str]:
        """R16.3: the generals in the unit's hex (its own side's)."""
        side = self.side_of(uid)
        return [g for g in self.generals_at(self.hex_of(uid)) if self.side_of(g) == side]

    def enemy_unit_at(self, hex_: str, side: str) -> bool:
        u = self.unit_at(hex_)
        return u is not None and self.side_of(u) != side

    def enemy_adjacent(self, hex_: str, side: str) -> bool:
        return any(self.enemy_unit_at(n, side) for n in self.sc.grid.neighbors(hex_))

    def engaged(self) -> set[str]:
        """RC.2a, R16.13: the units in contact, waiting for their hand-to-hand."""
        out: set[str] = set()
        for c in self.x.get("contacts", []):
            out.add(c["charger"])
            out.add(c["target"])
        return out

    def all_round(self, uid: str) -> bool:
        """SR.3: a unit in a town has every hexside as front and fires all round."""
        return self.sc.terrain_at(self.hex_of(uid)) == "town"

    def defends_as_co(self, uid: str) -> bool:
        """6.3, R16.16: CO infantry, and LI in woods or a town."""
        k = self.kind(uid)
        return k is Kind.CO or (k is Kind.LI and self.sc.terrain_at(self.hex_of(uid)) in ("woods", "town"))

    def strength(self, uid: str) -> int:
        """4.1.8.2, R16.13: remaining hits to rout, 12 - hits, 6 fewer when staggered."""
        return 12 - self.hits(uid) - (6 if self.staggered(uid) else 0)

    def says(self, uid: str) -> str:
        return self.sc.units[uid].name

    def set_facing(self, uid: str, facing: str) -> None:
        self.st.units[uid].facing = facing
