"""A small position builder for the per-rule tests.

    pos = Position()                      # blank 10x8 clear map, small TEC, sides "blue" (west) / "red" (east)
    pos.terrain("0504", "woods"); pos.hexside("0504", "0505", "stream"); pos.road(["0104", "0204", "0304"])
    pos.unit("b1", "blue", "infantry", hex="0504", attack=5, defense=5, mr=4, ma=4)
    pos.leader("bl", "blue", hex="0504", combat=1, morale=1, movement=1)
    game = pos.game(phase="combat", active="blue", dice=[3, 4])

Geometry reminder (R1, shifted="even"): an odd column's hex CCRR touches (C±1, R-1), (C±1, R) and
(C, R±1); an even column's touches (C±1, R), (C±1, R+1) and (C, R±1).  Row 04 read west to east
(0104, 0204, ..., 1004) is a line of adjacent hexes, so "0504"-"0604"-"0704" are in a row.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from server.rules import Game, parse_scenario
from server.rules.kernel.core import Ctx
from server.rules.kernel.edition import find_ruleset
from server.rules.kernel.game import initial_state
from server.rules.kernel.scenario import Scenario
from server.rules.kernel.state import Phase

# The small TEC every position uses (4.3, 6.3, 7.2(2), 7.4, 7.9, 8.2, 8.4).
TEC: dict[str, Any] = {
    "road_mp": 0.5,
    "terrain": {
        "clear": {"name": "Clear", "move": {"infantry": 1, "cavalry": 1, "artillery": 1}, "open": True},
        "woods": {
            "name": "Woods", "move": {"infantry": 2, "cavalry": 3, "artillery": 3}, "defense": 1,
            "attack_halved_into": ["cavalry"], "attack_halved_out_of": ["cavalry"], "bombard_modifier": 1,
            "blocks_los": True, "no_advance_from": ["cavalry"],
        },
        "town": {
            "name": "Town", "move": {"infantry": 1, "cavalry": 2, "artillery": 2}, "defense": 2,
            "attack_halved_into": ["cavalry"], "bombard_modifier": 2, "blocks_los": True,
        },
        "hill": {
            "name": "Clear hill", "move": {"infantry": 2, "cavalry": 2, "artillery": 2}, "defense": 1,
            "blocks_los": True, "bombard_modifier": 1, "open": True, "hill": True,
        },
        "marsh": {
            "name": "Marsh", "move": {"infantry": 3}, "prohibited": ["cavalry", "artillery"],
            "attack_halved_out_of": ["infantry"], "blocks_zoc_out": True,
        },
        # Extra test terrain for the TEC cases the five basic types do not cover.
        "fort": {"name": "Fort", "move": {"infantry": 2, "cavalry": 2, "artillery": 2}, "blocks_zoc_into": True,
                 "defense": 3},
        "lake": {"name": "Lake", "move": {}, "prohibited": ["infantry", "cavalry", "artillery", "leader"]},
        "chateau": {"name": "Chateau", "move": {"infantry": 2, "cavalry": 3, "artillery": 3}, "no_bombard": True},
        "ford": {"name": "Ford", "move": {"infantry": 1, "cavalry": 1, "artillery": 1},
                 "attack_halved_into": ["infantry", "cavalry", "artillery"], "open": True},
    },
    "hexsides": {
        "stream": {"name": "Stream", "move_add": {"infantry": 1, "cavalry": 1, "artillery": 2},
                   "attack_halved_across": ["infantry", "cavalry", "artillery"]},
        "slope": {"name": "Slope", "move_add": {"infantry": 1, "cavalry": 1, "artillery": 1}, "defense_across": 1},
        "bridge": {"name": "Bridge", "road_crossing": True},
        "wall": {"name": "Wall", "blocks_zoc": True, "blocks_los": True},
        "cliff": {"name": "Cliff", "prohibited": ["infantry", "cavalry", "artillery", "leader"]},
        "hedge": {"name": "Hedge", "no_advance_across": ["infantry", "cavalry", "artillery"]},
    },
}

DEFAULT_FORMATION = {"blue": "1", "red": "R"}
_SCENARIO_CACHE: dict[str, Scenario] = {}


class Position:
    """Builds a scenario dict, then a Game on it with loaded dice."""

    def __init__(self, columns: int = 10, rows: int = 8, turns: int = 8, first_player: str = "blue",
                 ruleset: str = "quickplay") -> None:
        self.columns = columns
        self.rows = rows
        self.turns = turns
        self.first_player = first_player
        self.ruleset = ruleset
        self.hexes: dict[str, str] = {}
        self.hexsides: list[dict[str, Any]] = []
        self.roads: list[dict[str, Any]] = []
        self.tec = copy.deepcopy(TEC)
        mid = f"{(rows + 1) // 2:02d}"
        self.sides: dict[str, dict[str, Any]] = {
            "blue": {"name": "Blue Army", "color": "#2b5fb4", "entry_hexes": [f"01{mid}"], "edge": "west",
                     "replacement_steps": 0},
            "red": {"name": "Red Army", "color": "#b8322e", "entry_hexes": [f"{columns:02d}{mid}"], "edge": "east",
                    "replacement_steps": 0},
        }
        self.formations: dict[str, dict[str, str]] = {
            "1": {"side": "blue", "name": "1st Division"},
            "2": {"side": "blue", "name": "2nd Division"},
            "R": {"side": "red", "name": "Red Division"},
            "S": {"side": "red", "name": "Second Red Division"},
        }
        self.units: list[dict[str, Any]] = []
        self.setup: list[dict[str, Any]] = []
        self.reinforcements: list[dict[str, Any]] = []
        self.objectives: list[dict[str, Any]] = []
        self.victory_points: dict[str, int] = {}
        self.sudden_death: list[dict[str, Any]] = []
        self.draw_margin = 1

    # --- map -----------------------------------------------------------------------
    def terrain(self, hexes: str | list[str], terrain: str) -> Position:
        for h in [hexes] if isinstance(hexes, str) else hexes:
            self.hexes[h] = terrain
        return self

    def hexside(self, a: str, b: str, *features: str) -> Position:
        self.hexsides.append({"hexes": [a, b], "features": list(features)})
        return self

    def road(self, path: list[str]) -> Position:
        self.roads.append({"path": list(path)})
        return self

    def entry(self, side: str, *hexes: str) -> Position:
        self.sides[side]["entry_hexes"] = list(hexes)
        return self

    def replacements(self, side: str, steps: int, return_hexes: list[str] | None = None) -> Position:
        self.sides[side]["replacement_steps"] = steps
        if return_hexes is not None:
            self.sides[side]["return_hexes"] = list(return_hexes)
        return self

    # --- units ---------------------------------------------------------------------
    def unit(self, uid: str, side: str, kind: str = "infantry", hex: str | None = None, *,
             attack: int = 4, defense: int = 4, mr: int = 4, ma: int = 4, formation: str | None = None,
             charge: int = 4, range: int = 3, reduced_factors: dict[str, int] | None = None,
             ineffective_factors: dict[str, int] | None = None, steps: int | None = None,
             reduced: bool = False, disrupted: bool = False, ineffective: bool = False,
             within: int = 0, square: bool = False, turn: int | None = None, entry: str | None = None) -> Position:
        """A combat unit; infantry brigades get a reduced side (attack-2, defense-2, mr-1) unless given one."""
        full: dict[str, int] = {"attack": attack, "defense": defense, "mr": mr, "ma": ma}
        if kind == "cavalry":
            full["charge"] = charge
        u: dict[str, Any] = {"id": uid, "side": side, "kind": kind, "name": uid,
                             "formation": formation or DEFAULT_FORMATION[side], "full": full}
        if steps is not None:
            u["steps"] = steps
        if kind == "infantry" and steps != 1:
            u["reduced"] = reduced_factors or {"attack": max(attack - 2, 0), "defense": max(defense - 2, 0),
                                              "mr": max(mr - 1, 0), "ma": ma}
        if ineffective_factors is not None:
            u["ineffective"] = ineffective_factors
        if kind == "artillery":
            u["range"] = range
        self.units.append(u)
        self._place(uid, hex, within=within, square=square, turn=turn, entry=entry,
                    reduced=reduced, disrupted=disrupted, ineffective=ineffective)
        return self

    def leader(self, uid: str, side: str, hex: str | None = None, *, combat: int = 1, morale: int = 1,
               movement: int = 1, formation: str | None = None, ineffective: bool = False,
               ineffective_factors: dict[str, int] | None = None, turn: int | None = None,
               entry: str | None = None) -> Position:
        u: dict[str, Any] = {"id": uid, "side": side, "kind": "leader", "name": uid,
                             "formation": formation or DEFAULT_FORMATION[side],
                             "leader": {"combat": combat, "morale": morale, "movement": movement}}
        if ineffective_factors is not None:
            u["leader_ineffective"] = ineffective_factors
        self.units.append(u)
        self._place(uid, hex, ineffective=ineffective, turn=turn, entry=entry)
        return self

    def _place(self, uid: str, hex: str | None, *, within: int = 0, square: bool = False, turn: int | None = None,
               entry: str | None = None, reduced: bool = False, disrupted: bool = False,
               ineffective: bool = False) -> None:
        if turn is not None:
            assert entry is not None, "a reinforcement needs its entry hex"
            self.reinforcements.append({"unit": uid, "turn": turn, "hex": entry})
            return
        assert hex is not None, f"{uid} needs a hex (or turn= and entry= for a reinforcement)"
        p: dict[str, Any] = {"unit": uid, "hex": hex}
        for key, value in (("within", within), ("square", square), ("reduced", reduced),
                           ("disrupted", disrupted), ("ineffective", ineffective)):
            if value:
                p[key] = value
        self.setup.append(p)

    # --- victory -------------------------------------------------------------------
    def objective(self, hex: str, points: int, owner: str | None = None, scorer: str | None = None,
                  name: str | None = None) -> Position:
        o: dict[str, Any] = {"hex": hex, "points": points, "name": name or f"Objective {hex}"}
        if owner is not None:
            o["owner"] = owner
        if scorer is not None:
            o["for"] = scorer
        self.objectives.append(o)
        return self

    # --- output --------------------------------------------------------------------
    def data(self) -> dict[str, Any]:
        units = list(self.units)
        reinforcements = list(self.reinforcements)
        # The schema wants at least two units; a side left empty gets a late-arriving leader.
        for side in ("blue", "red"):
            if not any(u["side"] == side for u in units):
                uid = f"{side}-reserve-ldr"
                units.append({"id": uid, "side": side, "kind": "leader", "name": f"{side} reserve",
                              "formation": DEFAULT_FORMATION[side],
                              "leader": {"combat": 0, "morale": 0, "movement": 0}})
                reinforcements.append({"unit": uid, "turn": self.turns, "hex": self.sides[side]["entry_hexes"][0]})
        victory: dict[str, Any] = {"description": "test position", "objectives": self.objectives,
                                   "draw_margin": self.draw_margin}
        if self.victory_points:
            victory["points"] = dict(self.victory_points)
        if self.sudden_death:
            victory["sudden_death"] = list(self.sudden_death)
        return copy.deepcopy({
            "id": "test-position",
            "title": "Test position",
            "ruleset": self.ruleset,
            "map": {"columns": self.columns, "rows": self.rows, "shifted": "even", "default_terrain": "clear",
                    "hexes": self.hexes, "hexsides": self.hexsides, "roads": self.roads},
            "tec": self.tec,
            "sides": self.sides,
            "formations": self.formations,
            "units": units,
            "setup": self.setup,
            "reinforcements": reinforcements,
            "turns": self.turns,
            "first_player": self.first_player,
            "victory": victory,
        })

    def scenario(self) -> Scenario:
        data = self.data()
        key = json.dumps(data, sort_keys=True)
        if key not in _SCENARIO_CACHE:  # scenarios are immutable, so equal positions share one
            _SCENARIO_CACHE[key] = parse_scenario(data, "test-position.json")
        return _SCENARIO_CACHE[key]

    def game(self, phase: str = "movement", active: str = "blue", dice: list[int] | None = None,
             turn: int = 1) -> Game:
        """A game on this position, at the start of `active`'s `phase`, rolling exactly `dice`."""
        sc = self.scenario()
        rs = find_ruleset(sc.ruleset)
        st = initial_state(sc, rs)
        st.turn = turn
        st.phase = Phase(phase).value
        st.active = active
        game = Game.for_test(sc, st, list(dice or []))
        if phase == Phase.COMBAT.value:
            # Eligibility to counterattack is fixed at the start of the combat phase (R8).
            from server.rules.quickplay.phases import counterattack_eligible

            ctx = Ctx(sc, game.state, game.ruleset, game._dice)
            game.state.ca_eligible = counterattack_eligible(ctx, active)
        return game


# --- small helpers the tests share ----------------------------------------------------
def dice_left(game: Game) -> int:
    return game._dice.remaining  # type: ignore[attr-defined]


def ctx_of(game: Game) -> Ctx:
    return game.context()


def option_ids(game: Game) -> list[str]:
    d = game.state.decision
    return [o["id"] for o in d["options"]] if d else []


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def attack(game: Game, target: str, attackers: list[str], primary: str | None = None,
           leaders: list[str] | None = None, support: list[str] | None = None, side: str = "blue") -> list[dict[str, Any]]:
    cmd: dict[str, Any] = {"type": "attack", "target": target, "attackers": list(attackers)}
    if primary is not None:
        cmd["primary"] = primary
    if leaders is not None:
        cmd["leaders"] = list(leaders)
    if support is not None:
        cmd["support"] = list(support)
    return game.submit(side, cmd)


def choose(game: Game, option_id: str) -> list[dict[str, Any]]:
    """Answer the pending decision as the side that must answer it."""
    assert game.state.decision is not None, "no decision is pending"
    return game.submit(game.state.decision["side"], {"type": "choose", "option": option_id})


def decision_kind(game: Game) -> str | None:
    return game.state.decision["kind"] if game.state.decision else None


def retreat_paths(game: Game) -> list[list[str]]:
    d = game.state.decision
    assert d is not None and d["kind"] == "retreat", d
    return [list(o["path"]) for o in d["options"]]


def combat_result(events: list[dict[str, Any]]) -> dict[str, Any]:
    return next(e for e in events if e["type"] == "combat_result")


def unit(game: Game, uid: str) -> Any:
    return game.state.units[uid]


def random_play_contexts(scenarios: tuple[str, ...] = ("tutorial", "hougoumont", "salem-church"),
                         seeds: range = range(4)) -> Any:
    """The rules context after every command of seeded random games of the shipped Quick Play battles: the
    positions real play reaches, for checking a fast rule function against its plain definition."""
    import random

    from server.rules.kernel.randomplayer import RandomPlayer
    from server.rules_cli import find_scenario

    for name in scenarios:
        scenario = find_scenario(name)
        for seed in seeds:
            game, player = Game.new(scenario, f"fast-and-plain-{seed:04d}"), RandomPlayer(random.Random(seed))
            while not game.is_over:
                side = game.awaiting
                assert side is not None
                game.submit(side, player.choose(game, side))
                yield ctx_of(game)
