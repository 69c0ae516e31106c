"""The game a bot may think with: a "belief" engine Game built from what its side may see.

`belief_game(game, side, rng)` is the only place a bot touches the real game. It reads:

* `game.view(side)`: the rules core's own filtered view (units the side may see, with the enemy's
  gone units masked, the enemy's unfinished 'w/1' placements at their listed hexes; turn, phase,
  prompt, control, points, squares, replacements, the number of dice rolled so far);
* `scenario_json_for(game.scenario, side)`: the scenario file as the side may read it (without the
  enemy's hidden reinforcements and their schedule), plus the view's `unit_defs` (enemy
  reinforcements that have entered the map and are on it for everyone to see);
* the procedure bookkeeping of the state that both players watch happen (which hexes attacked or
  were attacked or bombarded this phase, the pending decision and its task stack, the running
  combat, counterattack eligibility, whether a unit has moved this phase), with every unit id the
  side may not see stripped out, and the side's own units' private flags (`start_ezoc`,
  `recovery_tried` of its own units); the enemy's hidden movement boxes redacted (kernel/hidden.py
  `redacted_extra`: empty, both markers of a box alike).

The seed is never read: the belief game rolls its dice from a dummy seed drawn from the bot's own
random generator, so any die it rolls while thinking is an imagined one. Enemy reinforcements that
have not entered are simply absent: the bot plays as if they did not exist until they appear.
"""

from __future__ import annotations

import json
import random
from typing import Any

from server.rules import (
    Game,
    GameState,
    Status,
    UnitState,
    parse_scenario,
    redacted_extra,
    scenario_json_for,
)

# Fields of GameState copied from the real state: public bookkeeping of the current phase/procedure.
# `extra` is the edition's own bookkeeping (the Standard rules': inactive HQs, declared moves and charges, fortunes
# of war owed...): public procedure state, with any hidden unit stripped like the rest.
_PUBLIC_BOOKKEEPING = ("decision", "tasks", "combat", "attacked_hexes", "bombarded_hexes", "attack_from",
                       "ca_eligible", "ca_stage", "ca_done_hexes", "any_moved", "setup_done", "extra")

_SCENARIO_CACHE: dict[str, Any] = {}


def belief_scenario(game: Game, side: str, unit_defs: dict[str, Any]) -> Any:
    """The scenario as `side` may know it: the public file plus the enemy units it has seen enter."""
    raw = scenario_json_for(game.scenario, side)
    extra = [d for uid, d in sorted(unit_defs.items()) if uid not in {u.get("id") for u in raw.get("units", [])}]
    key = json.dumps([game.scenario.id, side, sorted(unit_defs)], sort_keys=True)
    cached = _SCENARIO_CACHE.get(key)
    if cached is not None and cached[0] is game.scenario:
        return cached[1]
    if extra:
        raw = dict(raw)
        raw["units"] = list(raw.get("units", [])) + extra
        # A seen enemy unit is on the map now; the engine wants every unit listed as set up or as a
        # reinforcement, so it is listed as one arriving on turn 1 at its side's first public entry hex.
        # Its real schedule stays unknown (and no longer matters: the belief state puts it on the map).
        reinf = list(raw.get("reinforcements", []))
        for d in extra:
            entry = raw["sides"][d["side"]]["entry_hexes"][0]
            reinf.append({"unit": d["id"], "turn": 1, "hex": entry})
        raw["reinforcements"] = reinf
    sc = parse_scenario(raw, f"belief of {side}")
    if len(_SCENARIO_CACHE) > 64:
        _SCENARIO_CACHE.clear()
    _SCENARIO_CACHE[key] = (game.scenario, sc)
    return sc


def _strip(value: Any, hidden: set[str]) -> Any:
    """A JSON value with every mention of a hidden unit id removed (list items, dict keys and values)."""
    if isinstance(value, dict):
        return {k: _strip(v, hidden) for k, v in value.items() if k not in hidden and not (isinstance(v, str) and v in hidden)}
    if isinstance(value, list):
        return [_strip(v, hidden) for v in value if not (isinstance(v, str) and v in hidden)]
    return value


def belief_state_json(game: Game, side: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(state JSON as `side` may know it, the view it came from). Deterministic in what `side` may see."""
    view = game.view(side)
    real = game.state
    sc = game.scenario
    units: dict[str, Any] = {}
    for uid, v in view["units"].items():
        own = sc.units[uid].side == side
        u = UnitState(
            id=uid, hex=v.get("hex"), status=v.get("status", Status.MAP.value), reduced=bool(v.get("reduced")),
            disrupted=bool(v.get("disrupted")), ineffective=bool(v.get("ineffective")), moved=bool(v.get("moved")),
            start_ezoc=bool(real.units[uid].start_ezoc) if own else False, charging=v.get("charging"),
            attacked=bool(v.get("attacked")), entry_turn=v.get("entry_turn"), entry_hex=v.get("entry_hex"),
            provisional=bool(v.get("provisional")) if own else False, facing=v.get("facing"),
        )
        if u.status != Status.MAP.value:
            u.hex = None
        units[uid] = u.to_json()
    hidden = {uid for uid in sc.units if uid not in units}
    full = real.to_json()
    state: dict[str, Any] = {
        "scenario": view["scenario"], "ruleset": view["ruleset"], "turn": view["turn"], "phase": view["phase"],
        "active": view["active"], "units": dict(sorted(units.items())), "squares": dict(view["squares"]),
        "replacements": dict(view["replacements"]), "control": dict(view["control"]),
        "dice_count": int(view["dice_rolled"]), "result": view["result"],
        "recovery_tried": [u for u in full.get("recovery_tried", []) if u in units and sc.units[u].side == side],
    }
    for key in _PUBLIC_BOOKKEEPING:
        state[key] = _strip(full.get(key), hidden)
    if view.get("options"):
        state["options"] = dict(view["options"])  # the game's options (e.g. the free set-up, 17.3): public
    # 19.8: the opponent's hidden movement boxes empty, the first marker of each standing for the real one
    state["extra"] = redacted_extra(state["extra"] or {}, side)
    return state, view


def belief_game(game: Game, side: str, rng: random.Random | None = None) -> Game:
    """A Game `side`'s bot may read, copy and play on: built only from what `side` may see, with a
    dummy seed (drawn from `rng`) in place of the real one."""
    state, view = belief_state_json(game, side)
    sc = belief_scenario(game, side, view.get("unit_defs", {}))
    for uid in sc.units:
        if uid not in state["units"]:
            # In the scenario the side reads but in no view it gets: a unit its owner boxed during its set-up
            # (19.8 B, S78). The bot knows only that it is off the map in some box, as the view says by leaving it out.
            state["units"][uid] = UnitState(id=uid, hex=None, status=Status.HIDDEN.value).to_json()
    state["units"] = dict(sorted(state["units"].items()))
    r = rng or random.Random(0)
    seed = f"belief-{r.getrandbits(128):032x}"
    return Game(sc, seed, GameState.from_json(state), [], game.ruleset, dice_scheme=game.dice_scheme)


def copy_game(g: Game, seed: str | None = None, dice: Any = None) -> Game:
    """An independent copy of a belief game to try things on (optionally with other dice)."""
    return Game(g.scenario, seed or "belief-copy-0000000000000000", g.state.copy(), [], g.ruleset, dice=dice,
                dice_scheme=g.dice_scheme)
