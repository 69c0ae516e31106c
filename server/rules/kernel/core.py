"""The context every rule function works in: scenario, state, ruleset, dice and the event list.

`Context` is what every edition shares: events and dice, and the queries both editions make (occupancy,
zones of control from the scenario's projection table `ScenarioModel.zoc_from`), cached until the state
changes (`Context.dirty`).  An edition works in its own subclass, made by `Edition.context`: `Ctx` adds the
queries over the kernel's own scenario model (`scenario.py`: attack/defence factors, one terrain per hex)
that Quick Play uses; the Standard rules have theirs in `standard/context.py`.

A context holds its edition (`Context.rs`, for the results and checks the procedures share), so it sits
above the edition interface (edition.py); it reaches a game only through `ContextSource` (`Ctx.of`), so the
engine (game.py), which never needs a context's own queries, does not import it either.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from .dice import Dice
from .edition import Edition, EngineContext
from .errors import IllegalCommand
from .model import ScenarioModel
from .scenario import Factors, LeaderFactors, Scenario, UnitDef, UnitKind
from .state import STATUS_MAP, GameState, Status, UnitState
from .visibility import tag_event

_LEADER = UnitKind.LEADER


class ContextSource(Protocol):
    """What `Ctx.of` reads of a game (the kernel's `Game`): its edition, and the edition's context over
    its current state."""

    @property
    def ruleset(self) -> Edition: ...

    def context(self) -> EngineContext: ...


class Context:
    """The shared part of every edition's context."""

    sc: ScenarioModel

    def __init__(self, scenario: ScenarioModel, state: GameState, ruleset: Edition, dice: Dice) -> None:
        self.sc = scenario
        self.st = state
        self.rs = ruleset
        self.dice = dice
        self.events: list[dict[str, Any]] = []
        self.rolled = False
        self.audience: str | None = None  # who alone may read the events emitted now; set by `private_to`
        self._occ: dict[str, list[str]] | None = None
        self._zoc: dict[str, frozenset[str]] = {}

    # --- events and dice -------------------------------------------------
    def emit(self, type_: str, text: str, **data: Any) -> None:
        """Every event of the game passes here, and so through the one visibility rule (visibility.tag_event)."""
        event: dict[str, Any] = {"type": type_, "text": text}
        event.update(data)
        if self.audience is not None and "visible_to" not in event:
            event["visible_to"] = self.audience
        self.events.append(tag_event(self.sc, self.st, event))

    def private_to(self, side: str | None) -> _Audience:
        """`with ctx.private_to(side):` events emitted inside, dice included, are for `side` only (None:
        unchanged). A die rolled for a secret purpose is as secret as what it decides (visibility.audience)."""
        return _Audience(self, side)

    def roll(self, n: int, purpose: str, labels: list[str], rule: str, **data: Any) -> list[int]:
        values = [self.dice.roll() for _ in range(n)]
        self.st.dice_count = self.dice.count
        self.rolled = True
        shown = ", ".join(f"{label} {v}" for label, v in zip(labels, values))
        self.emit("dice", f"{rule}: {purpose}: {shown}", purpose=purpose, dice=values, labels=labels, rule=rule, **data)
        return values

    # --- cache control ---------------------------------------------------
    def dirty(self) -> None:
        self._occ = None
        self._zoc = {}

    # --- units -----------------------------------------------------------
    def u(self, uid: str) -> UnitState:
        return self.st.units[uid]

    def side_of(self, uid: str) -> str:
        return self.sc.units[uid].side

    def enemy(self, side: str) -> str:
        return self.sc.opponent(side)

    def is_combat(self, uid: str) -> bool:
        return self.sc.units[uid].kind.is_combat

    def name(self, uid: str) -> str:
        return self.sc.units[uid].name

    def names(self, uids: Iterable[str]) -> str:
        return ", ".join(self.name(u) for u in uids)

    # --- occupancy -------------------------------------------------------
    def occupancy(self) -> dict[str, list[str]]:
        if self._occ is None:
            occ: dict[str, list[str]] = {}
            for uid, s in self.st.units.items():
                if s.status == STATUS_MAP and s.hex is not None:
                    occ.setdefault(s.hex, []).append(uid)
            self._occ = occ
        return self._occ

    def units_at(self, hex_: str) -> list[str]:
        return self.occupancy().get(hex_, [])

    def combat_units_at(self, hex_: str, side: str | None = None) -> list[str]:
        return [
            u for u in self.units_at(hex_)
            if self.is_combat(u) and (side is None or self.side_of(u) == side)
        ]

    def side_at(self, hex_: str) -> str | None:
        units = self.units_at(hex_)
        return self.side_of(units[0]) if units else None

    def enemy_occupied(self, hex_: str, side: str) -> bool:
        return any(self.side_of(u) != side for u in self.units_at(hex_))

    def friendly_combat_at(self, hex_: str, side: str) -> bool:
        return bool(self.combat_units_at(hex_, side))

    def side_units_on_map(self, side: str) -> list[str]:
        return [uid for uid in self.sc.side_units[side] if self.st.units[uid].status == STATUS_MAP]

    # --- zones of control (6.0) -------------------------------------------
    def exerts_zoc(self, uid: str) -> bool:
        s = self.st.units[uid]
        return s.status == STATUS_MAP and not s.disrupted and not s.ineffective and self.is_combat(uid)

    def zoc_of(self, side: str) -> frozenset[str]:
        """Hexes into which `side`'s units project a zone of control (6.1, 6.3)."""
        cached = self._zoc.get(side)
        if cached is not None:
            return cached
        sc = self.sc
        out: set[str] = set()
        for uid in sc.side_units[side]:
            if self.exerts_zoc(uid):
                hex_ = self.st.units[uid].hex
                assert hex_ is not None
                out.update(sc.zoc_from(sc.units[uid].tec_class, hex_))
        result = frozenset(out)
        self._zoc[side] = result
        return result

    def in_ezoc(self, hex_: str, side: str) -> bool:
        return hex_ in self.zoc_of(self.enemy(side))

    def nearest_enemy_distance(self, hex_: str, side: str) -> int:
        grid = self.sc.grid
        best = 10**6
        for other, uids in self.occupancy().items():
            if any(self.side_of(u) != side for u in uids):
                best = min(best, grid.distance(hex_, other))
        return best

    def already_impaired(self, uid: str) -> bool:
        s = self.st.units[uid]
        return s.disrupted or s.ineffective

    def move_unit(self, uid: str, hex_: str | None) -> None:
        self.st.units[uid].hex = hex_
        self.dirty()

    def set_status(self, uid: str, status: Status) -> None:
        s = self.st.units[uid]
        s.status = status.value
        if status is not Status.MAP:
            s.hex = None
            s.charging = None
        self.dirty()

    def require(self, condition: bool, rule: str, message: str) -> None:
        if not condition:
            raise IllegalCommand(rule, message)


class Ctx(Context):
    """The context over the kernel's own scenario model (`scenario.py`), which Quick Play plays on."""

    sc: Scenario

    def __init__(self, scenario: Scenario, state: GameState, ruleset: Edition, dice: Dice) -> None:
        super().__init__(scenario, state, ruleset, dice)

    @staticmethod
    def of(game: ContextSource) -> Ctx:
        """The game's context, for an edition that plays on the kernel's scenario model."""
        ctx = game.context()
        if not isinstance(ctx, Ctx):
            raise TypeError(f"{game.ruleset.name} does not play on the kernel's scenario model")
        return ctx

    def d(self, uid: str) -> UnitDef:
        return self.sc.units[uid]

    def kind(self, uid: str) -> UnitKind:
        return self.sc.units[uid].kind

    def is_leader(self, uid: str) -> bool:
        return self.sc.units[uid].kind is _LEADER

    def factors(self, uid: str) -> Factors:
        d = self.sc.units[uid]
        s = self.st.units[uid]
        if s.ineffective:
            return d.ineffective
        if s.reduced and d.reduced is not None:
            return d.reduced
        return d.full

    def leader_factors(self, uid: str) -> LeaderFactors:
        d = self.sc.units[uid]
        return d.leader_ineffective if self.st.units[uid].ineffective else d.leader

    def mr(self, uid: str) -> int:
        """Morale rating before combat modifiers; disrupted units check at -2 (11.1(2))."""
        value = self.factors(uid).mr
        if self.st.units[uid].disrupted:
            value -= 2
        return value

    def helps(self, leader: str, uid: str) -> bool:
        """10.0: a leader's factors apply only to units of its formation ('A' matches all)."""
        lf = self.sc.units[leader].formation
        return lf == "A" or lf == self.sc.units[uid].formation

    def zoc_sources(self, hex_: str, side: str) -> list[str]:
        """Enemy hexes whose units exert the zone of control on `hex_` for `side`."""
        enemy = self.enemy(side)
        targets = self.sc.zoc_targets
        return [
            n for n in self.sc.grid.neighbors(hex_)
            if hex_ in targets[n] and any(self.side_of(u) == enemy and self.exerts_zoc(u) for u in self.units_at(n))
        ]

    # --- terrain ----------------------------------------------------------
    def can_enter_terrain(self, tec_class: str, a: str | None, b: str) -> bool:
        """Terrain and hexside prohibitions only (7.1(3) 'could move into')."""
        if a is not None and self.sc.is_road_link(a, b):
            return True
        if self.sc.terrain_at(b).is_prohibited(tec_class):
            return False
        if a is not None:
            for f in self.sc.features_between(a, b):
                if tec_class in self.sc.hexside_features[f].prohibited:
                    return False
        return True

    def group_can_enter(self, uids: Iterable[str], a: str | None, b: str) -> bool:
        return all(self.can_enter_terrain(self.d(u).tec_class, a, b) for u in uids)

    # --- status changes (11.1, 11.2) ----------------------------------------
    def disrupt_or_ineffective(self, uid: str, rule: str) -> bool:
        """Apply one disruption/ineffectiveness; False when the unit was already so (it converts per caller)."""
        s = self.st.units[uid]
        d = self.sc.units[uid]
        if d.kind is UnitKind.LEADER:
            return False
        if d.kind.disrupts:
            if s.disrupted:
                return False
            s.disrupted = True
            self.emit("disrupted", f"{rule}: {d.name} is disrupted", unit=uid, rule=rule)
        else:
            if s.ineffective:
                return False
            s.ineffective = True
            self.emit("ineffective", f"{rule}: {d.name} becomes ineffective", unit=uid, rule=rule)
        self.dirty()
        return True


class _Audience:
    """`Context.private_to`'s `with` block: the context's audience for its events, restored after."""

    def __init__(self, ctx: Context, side: str | None) -> None:
        self._ctx = ctx
        self._side = side
        self._saved: str | None = None

    def __enter__(self) -> None:
        self._saved = self._ctx.audience
        if self._side is not None:
            self._ctx.audience = self._side

    def __exit__(self, *exc: object) -> None:
        self._ctx.audience = self._saved
