"""What each viewer may see. Everything a client receives is built here (the single view filter).

Hidden: the dice seed until the game is over; the opponent's 'w/1' set-up
placements until both sides have set up (3.2); and, where the scenario says
so (`hidden.enemy_reinforcements`), the opponent's reinforcements that have not
yet entered the map, its schedule, and the fate of its eliminated units' step
recovery (11.4): to the opponent a unit that will return, one that failed its
check and one that never tried all look the same ("eliminated").

ONE rule decides who may read an event (`visibility.event_visible`), and every
event passes it: the rules core tags each event as it is emitted
(`visibility.tag_event`, called by `Context.emit`, dice included), and
`visibility.filter_events` applies it for every channel (views, patches,
history, answers, mail digests).

The views read a game through `ViewedGame` (what a view shows of it), which the
engine's `Game` is: the engine builds its views here (`Game.view`), so this
module sits below it and does not import it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from . import cards, hidden
from .edition import Edition, EngineContext
from .model import ScenarioModel
from .state import (
    PHASE_OVER,
    PHASE_SETUP,
    STATUS_DEAD,
    STATUS_ELIMINATED,
    STATUS_HIDDEN,
    STATUS_OFFBOARD,
    STATUS_RETURNING,
    STATUS_UNPLACED,
    GameState,
)
from .visibility import sees_everything

_GONE = (STATUS_ELIMINATED, STATUS_DEAD, STATUS_RETURNING)
_OFF_TABLE = (STATUS_OFFBOARD, STATUS_RETURNING)
_PER_VIEWER = frozenset({STATUS_OFFBOARD, STATUS_HIDDEN, *_GONE})  # statuses whose look depends on the viewer

# Unit id, or (unit id, viewer) -> (its fields, the view built for them): kept on the game between
# calls of `build_views(share_units=True)` (`_kept_unit_view`).
UnitViewCache = dict[str | tuple[str, str], tuple[tuple[Any, ...], dict[str, Any]]]


class ViewedGame(Protocol):
    """What a view shows of a game (the engine's `Game`)."""

    @property
    def scenario(self) -> ScenarioModel: ...

    @property
    def state(self) -> GameState: ...

    @property
    def ruleset(self) -> Edition: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def awaiting(self) -> str | None: ...

    @property
    def seed_hash(self) -> str: ...

    @property
    def unit_view_cache(self) -> UnitViewCache:
        """Where `build_views(share_units=True)` keeps each unit's view from call to call."""
        ...

    def context(self) -> EngineContext: ...

    def can_undo(self, side: str) -> bool: ...

    def dice_public(self) -> dict[str, Any]: ...

    def revealed_seed(self) -> str | None:
        """The dice seed once the game is over, else None."""
        ...


# --- units -------------------------------------------------------------------------------------
def unit_visible(game: ViewedGame, viewer: str, uid: str) -> bool:
    sc = game.scenario
    s = game.state.units[uid]
    side = sc.units[uid].side
    if sees_everything(viewer) or viewer == side:
        return True
    if s.status == STATUS_HIDDEN:  # in a hidden movement box: the owner's until revealed (kernel/hidden.py)
        return game.is_over or _boxed_in_secret_setup(game, uid)
    return not (sc.hide_enemy_reinforcements and s.status == STATUS_OFFBOARD)


def _boxed_in_secret_setup(game: ViewedGame, uid: str) -> bool:
    """A unit its owner put in a box during a set-up not yet finished (19.8 B): to the others it still looks as it did
    before (not yet placed), so the boxing shows nothing; a unit the scenario itself boxes is never listed for them."""
    st = game.state
    side = game.scenario.units[uid].side
    return (st.phase == PHASE_SETUP and side not in st.setup_done
            and uid not in hidden.secret_units(game.scenario.hidden_movement))


def _masked_gone(viewer: str, side: str, sc: ScenarioModel, st: GameState, uid: str) -> bool:
    """To the opponent an eliminated combat unit looks the same whatever its step recovery did."""
    if sees_everything(viewer) or viewer == side or not sc.hide_enemy_reinforcements:
        return False
    return st.units[uid].status in _GONE and sc.units[uid].kind.is_combat


def unit_view(game: ViewedGame, viewer: str, uid: str) -> dict[str, Any]:
    sc = game.scenario
    s = game.state.units[uid]
    side = sc.units[uid].side
    if _masked_gone(viewer, side, sc, game.state, uid):
        return {"hex": None, "status": STATUS_ELIMINATED, "reduced": False, "disrupted": False,
                "ineffective": False, "moved": False, "charging": None, "attacked": False}
    out: dict[str, Any] = {
        "hex": s.hex, "status": s.status, "reduced": s.reduced, "disrupted": s.disrupted,
        "ineffective": s.ineffective, "moved": s.moved, "charging": s.charging, "attacked": s.attacked,
    }
    if s.facing is not None:
        out["facing"] = s.facing  # a counter's orientation is on the table for all to see (kernel/facing.py)
    if s.status in _OFF_TABLE:
        out["entry_turn"] = s.entry_turn
        out["entry_hex"] = s.entry_hex
    if s.status == STATUS_HIDDEN and not (sees_everything(viewer) or viewer == side or game.is_over):
        # boxed during its owner's secret set-up (`_boxed_in_secret_setup`): shown as a placement not yet revealed
        out.update(hex=None, status=STATUS_UNPLACED, placement_hidden=True)
        out.pop("facing", None)
    elif s.provisional:
        if sees_everything(viewer) or viewer == side:
            out["provisional"] = True
        else:
            # A 'w/N' placement's listed hex is public (Quick Play 3.2); a unit placed in any other set-up area
            # (Standard 17.2, 17.3) is shown unplaced until its side has finished setting up.
            nominal = next((p for p in sc.setup if p.unit == uid and p.within > 0), None)
            out["hex"] = nominal.hex if nominal is not None else None
            if nominal is None:
                out["status"] = STATUS_UNPLACED
            out["placement_hidden"] = True
            out.pop("facing", None)  # the placement the opponent may not see yet is its orientation too
    return out


def _kept_unit_view(game: ViewedGame, viewer: str | None, uid: str, s: Any) -> dict[str, Any]:
    """`unit_view`, as the object built the last time the unit's fields were the same for this
    viewer (None: a unit that looks the same to every viewer), kept on the game; else a new one.
    Unchanged units are then the same objects from one command's views to the next, which the
    server's patches skip by identity instead of comparing them."""
    key = (s.hex, s.status, s.reduced, s.disrupted, s.ineffective, s.moved, s.charging, s.attacked,
           s.entry_turn, s.entry_hex, s.provisional, s.facing)
    cache = game.unit_view_cache
    slot = uid if viewer is None else (uid, viewer)
    hit = cache.get(slot)
    if hit is not None and hit[0] == key:
        return hit[1]
    # For a unit that looks the same to all, the viewer given to `unit_view` makes no difference.
    view = unit_view(game, "" if viewer is None else viewer, uid)
    cache[slot] = (key, view)
    return view


def build_view(game: ViewedGame, viewer: str) -> dict[str, Any]:
    return build_views(game, [viewer])[0]


def build_views(game: ViewedGame, viewers: list[str], *, share_units: bool = False) -> list[dict[str, Any]]:
    """Each viewer's view of the current state, in `viewers`' order. What is the same for every
    viewer (the prompt, the score, undo rights, the dice, and every unit that looks the same to all)
    is worked out once for the batch: the server builds both players' views after every command.

    `share_units`: each unit's view is kept from call to call while the unit is unchanged
    (`_kept_unit_view`), and a unit that looks the same to every viewer is one object in all their
    views; the caller must treat those objects as read-only. Otherwise every view has its own copies."""
    sc = game.scenario
    st = game.state
    ctx = game.context()
    prompt: dict[str, Any] | None
    if st.phase == PHASE_OVER:
        prompt = None
    elif st.decision is not None:
        d = st.decision
        prompt = {"side": d["side"], "kind": d["kind"], "rule": d["rule"], "text": d["text"],
                  "options": d["options"], "hexes": d.get("hexes", [])}
        if "from" in d:  # where the units a retreat's paths lead from stand (the page draws each path from there)
            prompt["from"] = d["from"]
    else:
        rule, verb = game.ruleset.phase_prompt(st.phase)
        prompt = {"side": st.active, "kind": "phase", "rule": rule,
                  "text": f"{sc.sides[st.active].name}: {verb}", "options": []}
    points = game.ruleset.points(ctx)
    can_undo = {s: game.can_undo(s) for s in sc.side_order}
    dice = game.dice_public()
    seed = game.revealed_seed()
    awaiting = game.awaiting
    # A unit looks the same to every viewer unless the scenario hides things from the enemy and the
    # unit is off the map or gone (`unit_visible`, `_masked_gone`), or it stands at a provisional
    # set-up hex (3.2).
    same_for_all = not sc.hide_enemy_reinforcements
    shared_units = {
        uid: _kept_unit_view(game, None, uid, s) for uid, s in st.units.items()
        if not s.provisional and s.status != STATUS_HIDDEN and (same_for_all or s.status not in _PER_VIEWER)
    }
    out = []
    for viewer in viewers:
        units: dict[str, Any] = {}
        for uid, s in st.units.items():
            shared = shared_units.get(uid)
            if shared is not None:
                units[uid] = shared if share_units else dict(shared)
            elif unit_visible(game, viewer, uid):
                units[uid] = _kept_unit_view(game, viewer, uid, s) if share_units else unit_view(game, viewer, uid)
        view: dict[str, Any] = {
            "scenario": sc.id, "ruleset": game.ruleset.name, "viewer": viewer,
            "turn": st.turn, "turns": sc.turns, "turn_label": sc.turn_label(st.turn),
            "phase": st.phase, "active": st.active, "awaiting": awaiting, "prompt": prompt,
            "units": units,
            "squares": dict(st.squares), "replacements": dict(st.replacements), "control": dict(st.control),
            "points": dict(points), "seed_hash": game.seed_hash, "result": st.result,
            "combat": _combat_view(st.combat), "can_undo": dict(can_undo),
            "dice_rolled": st.dice_count,
        }
        if st.options:
            view["options"] = dict(st.options)  # the options the game was created with (Game.new)
        markers = hidden.view(st, viewer, everything=sees_everything(viewer) or st.phase == PHASE_OVER)
        if markers is not None:
            view["hidden"] = markers  # both markers of a box alike to all but their owner
        hands = cards.view(st.extra, viewer, everything=sees_everything(viewer) or st.phase == PHASE_OVER)
        if hands is not None:
            view["cards"] = hands  # a hand to its owner alone until the game is over (cards.py, R16.19)
        view.update(game.ruleset.view_extra(game, viewer))
        view["unit_defs"] = unit_defs_for(sc, view["units"])
        view["dice"] = dict(dice)
        if seed is not None:
            view["seed"] = seed
        out.append(view)
    return out


def _combat_view(c: dict[str, Any] | None) -> dict[str, Any] | None:
    if c is None:
        return None
    keys = ("kind", "attacker", "defender", "target", "attackers", "primary", "support", "defenders",
            "def_primary", "artillery", "result", "dice", "differential", "att_total", "def_total")
    return {k: c[k] for k in keys if k in c}


# --- the scenario itself -----------------------------------------------------------------------
def hidden_reinforcements(sc: ScenarioModel) -> dict[str, str]:
    """Unit id -> side of every reinforcement the scenario keeps from the opponent, and of every unit it
    puts in a hidden movement box (kernel/hidden.py)."""
    boxed = hidden.secret_units(sc.hidden_movement)
    if not sc.hide_enemy_reinforcements:
        return boxed
    return {r.unit: sc.units[r.unit].side for r in sc.reinforcements} | boxed


def unit_defs_for(sc: ScenarioModel, visible_units: Iterable[str]) -> dict[str, Any]:
    """The definitions of visible units that the public scenario (`scenario_json_for`) leaves out,
    e.g. an enemy reinforcement once it has entered the map, so a client can draw its counter."""
    if not sc.hide_enemy_reinforcements and sc.hidden_movement is None:
        return {}
    defs, by_wanted = _hidden_unit_defs(sc)
    wanted = frozenset(u for u in visible_units if u in defs)
    known = by_wanted.get(wanted)
    if known is None:
        known = {uid: d for uid, d in defs.items() if uid in wanted}  # in the scenario file's order
        if len(by_wanted) >= _DEFS_SUBSETS_BOUND:
            by_wanted.clear()
        by_wanted[wanted] = known
    # The same object for the same visible units: views keep it from one command to the next, so the
    # server's patch skips it by identity (issue 16). Read-only, like the scenario it comes from.
    return known


# Scenario (by identity) -> its hidden reinforcements' definitions, read once: views ask after every
# command. Scenarios are few and long-lived; the bound only keeps a test run's throwaway ones in check.
# With each, the definitions already handed out for each set of visible ones (a handful per game: the
# set grows as reinforcements enter).
_HIDDEN_DEFS: dict[int, tuple[ScenarioModel, dict[str, Any], dict[frozenset[str], dict[str, Any]]]] = {}
_HIDDEN_DEFS_BOUND = 64
_DEFS_SUBSETS_BOUND = 256


def _hidden_unit_defs(sc: ScenarioModel) -> tuple[dict[str, Any], dict[frozenset[str], dict[str, Any]]]:
    entry = _HIDDEN_DEFS.get(id(sc))
    if entry is not None and entry[0] is sc:
        return entry[1], entry[2]
    hidden = hidden_reinforcements(sc)
    defs = {u["id"]: u for u in sc.raw.get("units", []) if isinstance(u, dict) and u.get("id") in hidden}
    if len(_HIDDEN_DEFS) >= _HIDDEN_DEFS_BOUND:
        _HIDDEN_DEFS.clear()
    by_wanted: dict[frozenset[str], dict[str, Any]] = {}
    _HIDDEN_DEFS[id(sc)] = (sc, defs, by_wanted)
    return defs, by_wanted


def scenario_json_for(sc: ScenarioModel, viewer: str) -> dict[str, Any]:
    """The scenario file as `viewer` may read it: without the units and schedule of the
    reinforcements it may not see (all of them for a spectator or a stranger, the enemy's for a seat)."""
    raw = dict(sc.raw)
    hm = sc.hidden_movement
    if (hm is not None and hm.owner != viewer and not sees_everything(viewer)
            and isinstance(raw.get("hidden_movement"), dict)):
        raw["hidden_movement"] = hidden.redacted_scenario_block(raw["hidden_movement"])
    hidden_units = {u for u, side in hidden_reinforcements(sc).items() if side != viewer and not sees_everything(viewer)}
    if not hidden_units:
        return raw
    raw["units"] = [u for u in raw.get("units", []) if not (isinstance(u, dict) and u.get("id") in hidden_units)]
    raw["reinforcements"] = [r for r in raw.get("reinforcements", []) if not (isinstance(r, dict) and r.get("unit") in hidden_units)]
    return raw
