"""The Standard rules' context: the kernel's `Context` (events, dice, occupancy, zones of control) over a
`StandardScenario`, with the checks every Standard procedure shares: morale checks (2.4, 2.8(5), 14.2(2),
14.3(1)), the army's inactive HQ and trains (12.1, 12.2), the weather (19.4) and the edition's bookkeeping in
`GameState.extra`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kernel.core import Context
from ..kernel.dice import Dice
from ..kernel.state import STATUS_MAP, GameState
from .morale import morale_passes
from .movement import printed_side
from .retreat import RetreatLines, retreat_lines
from .scenario import Kind, StandardScenario, UnitDef
from .weather import CLEAR
from .zoc import zoc_of

if TYPE_CHECKING:
    from ..kernel.edition import Edition
    from ..kernel.game import Game


class StdCtx(Context):
    sc: StandardScenario

    def __init__(self, scenario: StandardScenario, state: GameState, ruleset: Edition, dice: Dice) -> None:
        super().__init__(scenario, state, ruleset, dice)
        self._lines: dict[tuple[str, str, str, tuple[str, ...]], RetreatLines] = {}

    @staticmethod
    def of(game: Game) -> StdCtx:
        ctx = game.context()
        if not isinstance(ctx, StdCtx):
            raise TypeError(f"{game.ruleset.name} is not the Standard rules")
        return ctx

    def dirty(self) -> None:
        super().dirty()
        self._lines = {}

    def move_unit(self, uid: str, hex_: str | None) -> None:
        """Only the mover's side's ZOC changes with a move (6.1): the other side's stays cached, and the
        occupancy is mended in place."""
        s = self.st.units[uid]
        occ = self._occ
        if occ is not None and s.status == STATUS_MAP:
            if s.hex is not None:
                here = occ.get(s.hex)
                if here is not None and uid in here:
                    here.remove(uid)
                    if not here:
                        del occ[s.hex]
            if hex_ is not None:
                there = occ.setdefault(hex_, [])
                there.append(uid)
                if len(there) > 1:  # the order a fresh `occupancy()` gives: the state's order of units
                    order = {u: i for i, u in enumerate(self.st.units)}
                    there.sort(key=order.__getitem__)
        s.hex = hex_
        self._lines = {}
        self._zoc.pop(self.sc.units[uid].side, None)
        if hex_ is not None and "entered" in self.x:
            self.passing([uid], [hex_])

    def passing(self, units: list[str], path: list[str]) -> None:
        """18.1 (S68): the units enter each hex of the path (the hexes moved through count): victory.py tracks the
        last side to enter the scenario's hexes."""
        entered = self.x.get("entered")
        if entered is None:
            return
        tracked = self.sc.victory_rules.entry_hexes
        combat = [u for u in units if self.sc.units[u].kind.is_combat]
        for h in path:
            if combat and h in tracked:
                entered[h] = self.sc.units[combat[0]].side

    def zoc_of(self, side: str) -> frozenset[str]:
        """6.1, 6.4 (zoc.zoc_of), cached until the position changes."""
        cached = self._zoc.get(side)
        if cached is None:
            cached = self._zoc[side] = zoc_of(self.sc, self.st.units, side)
        return cached

    # --- units ----------------------------------------------------------------------------
    def d(self, uid: str) -> UnitDef:
        return self.sc.units[uid]

    def kind(self, uid: str) -> Kind:
        return self.sc.units[uid].kind

    @property
    def x(self) -> dict[str, Any]:
        """The edition's bookkeeping (`GameState.extra`)."""
        return self.st.extra

    def light(self) -> str:
        return self.sc.light(self.st.turn)

    def weather(self) -> str:
        """19.4: this turn's weather (`extra.weather`; clear when the scenario has none)."""
        return str(self.x.get("weather", CLEAR))

    def on_map(self, uid: str) -> bool:
        return self.st.units[uid].status == STATUS_MAP

    def army(self, uid: str) -> str:
        return self.sc.army_of(uid)

    def inactive(self) -> list[str]:
        """12.1, 12.2: the HQs and trains on their inactive side (and those off the map: captured)."""
        out: list[str] = list(self.x.get("inactive", []))
        return out

    def hq_inactive(self, uid: str) -> bool:
        """12.1: the unit's army HQ is inactive (every unit of the army rolls for its MA)."""
        hq = self.sc.hq.get(self.army(uid))
        return hq is not None and (hq in self.x.get("inactive", []) or not self.on_map(hq))

    def set_inactive(self, uid: str, inactive: bool, why: str, rule: str) -> None:
        now: list[str] = self.x.setdefault("inactive", [])
        if inactive and uid not in now:
            now.append(uid)
            now.sort()
            self.emit("inactive", f"{rule}: {self.name(uid)} turns inactive: {why}", unit=uid, rule=rule)
        elif not inactive and uid in now:
            now.remove(uid)
            self.emit("active", f"{rule}: {self.name(uid)} is active again", unit=uid, rule=rule)
        self._lines = {}  # 7.6's destinations change; no unit moved, so ZOC and occupancy stay cached

    def lines(self, side: str, army: str, tec_class: str, excluding: tuple[str, ...] = ()) -> RetreatLines:
        """7.6 for every hex, cached until the state changes."""
        key = (side, army, tec_class, excluding)
        got = self._lines.get(key)
        if got is None:
            got = retreat_lines(self.sc, self.st.units, side, army, tec_class, inactive=self.inactive(),
                                excluding=excluding)
            self._lines[key] = got
        return got

    def line_of(self, uid: str) -> str:
        """7.6: 'safe', 'unsafe' or 'none' for a unit where it stands."""
        s = self.st.units[uid]
        assert s.hex is not None
        d = self.sc.units[uid]
        return self.lines(d.side, self.army(uid), d.kind.tec_class).line(s.hex)

    # --- morale (2.4) -------------------------------------------------------------------------
    def rating(self, uid: str) -> int:
        """The printed MR of the side now showing (8.1: artillery 6/3 when unprinted)."""
        return printed_side(self.sc, self.st.units[uid]).mr

    def morale_check(self, uid: str, rule: str, purpose: str, *, recovery: bool = False,
                     die: int | None = None, leader_morale: int = 0) -> bool:
        """2.4: roll a die (or read `die`, the combat's morale die, 7.3(6)); greater than the MR fails, a 1
        passes, a 6 fails; 2.8(5) disrupted units check at MR - 2 except when recovering (R13); 14.2(2),
        14.3(1) night and twilight add to the roll; 10.3 a participating leader adds his morale rating."""
        s = self.st.units[uid]
        if die is None:
            (die,) = self.roll(1, purpose, ["morale die"], rule, unit=uid)
        passed = morale_passes(die, self.rating(uid), disrupted=s.disrupted, recovery=recovery, light=self.light(),
                               leader_morale=leader_morale)
        self.emit("morale", f"{rule}: {self.name(uid)} {'passes' if passed else 'fails'} its morale check "
                            f"(die {die}, MR {self.rating(uid)}{' -2 disrupted' if s.disrupted and not recovery else ''}"
                            f"{f' +{leader_morale} leader, 10.3' if leader_morale else ''}"
                            f"{', ' + self.light() if self.light() != 'day' else ''})",
                  unit=uid, rule=rule, passed=passed, die=die)
        return passed

    def disrupt(self, uid: str, rule: str) -> bool:
        """2.8: mark a combat unit disrupted (False when it already was)."""
        s = self.st.units[uid]
        if s.disrupted or not self.sc.units[uid].kind.is_combat:
            return False
        s.disrupted = True
        self.emit("disrupted", f"{rule}: {self.name(uid)} is disrupted", unit=uid, rule=rule)
        self.dirty()
        return True

    def make_ineffective(self, uid: str, rule: str) -> bool:
        """2.9: flip a unit with an ineffective side (battalions, artillery, cavalry, squadrons, leaders)."""
        s = self.st.units[uid]
        if s.ineffective or not self.sc.units[uid].kind.has_ineffective_side:
            return False
        s.ineffective = True
        self.emit("ineffective", f"{rule}: {self.name(uid)} flips to its ineffective side", unit=uid, rule=rule)
        self.dirty()
        return True
