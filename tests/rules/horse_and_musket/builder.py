"""A test ground for the Horse and Musket rules (seed 003 + R16): a 12x12 clear map, blue (south edge) against red
(north edge), each with a C-in-C in a far corner, and a game placed at any step with loaded dice.

    b = Board()
    b.unit("b-co", "blue", "co", "0606", facing="N")           # CO infantry in line, facing north
    b.unit("r-hc", "red", "hc", "0603", facing="S", grade="elite")
    g = b.game(step="moves", dice=[4, 5])                    # blue active, in step two of movement, all may move
    g.submit("blue", {"type": "move", "unit": "b-co", "legs": [{"steps": 2}]})

Geometry (R1, shifted even): facing N runs up a column (0606 -> 0605 -> 0604); the hexsides are SE 0, NE 1, N 2, NW 3,
SW 4, S 5 (R16.4).
"""

from __future__ import annotations

import copy
from typing import Any

from server.rules import Game, find_ruleset, parse_scenario
from server.rules.horse_and_musket.context import HMCtx
from server.rules.horse_and_musket.scenario import HMScenario
from server.rules.horse_and_musket.tables import ALL, FORMATIONS, TYPES, Kind
from server.rules.kernel import cards as kcards
from server.rules.kernel.facing import Direction
from server.rules.kernel.hexes import HexGrid
from server.rules.kernel.state import GameState

TEC = {
    "terrain": {t: {"name": t, "color": "#cccccc"} for t in
                ("clear", "hill", "crops", "woods", "town", "river", "ford", "bridge")},
    "secondary": {"fieldwork": {"name": "Fieldwork", "color": "#8b6b4a"}},
    "hexsides": {"hedge": {"name": "Hedge", "color": "#3f6b2a"}, "fence": {"name": "Fence", "color": "#6b5b2a"}},
}
PHASES = {"rally": "recovery", "command": "recovery", "charges": "movement", "moves": "movement",
          "firing": "combat", "melee": "combat"}


class Board:
    def __init__(self, columns: int = 12, rows: int = 12) -> None:
        self.data: dict[str, Any] = {
            "id": "hm-test", "title": "Horse and Musket test ground", "ruleset": "horse-and-musket",
            "map": {"columns": columns, "rows": rows, "shifted": "even", "default_terrain": "clear", "hexes": {},
                    "secondary": {}, "elevation": {}, "hexsides": []},
            "tec": copy.deepcopy(TEC),
            "sides": {"blue": {"name": "Blue", "color": "#2040a0", "edge": "south"},
                      "red": {"name": "Red", "color": "#a02020", "edge": "north"}},
            "units": [
                {"id": "b-cinc", "side": "blue", "name": "Blue C-in-C", "type": "general", "quality": "competent",
                 "role": "c-in-c"},
                {"id": "r-cinc", "side": "red", "name": "Red C-in-C", "type": "general", "quality": "competent",
                 "role": "c-in-c"},
            ],
            "setup": [{"unit": "b-cinc", "hex": f"01{rows:02d}"}, {"unit": "r-cinc", "hex": f"{columns:02d}01"}],
            "turns": 4,
            "victory": {"description": "test", "objectives": []},
        }

    # --- the ground ------------------------------------------------------------------------------
    def terrain(self, hex_: str, t: str, elevation: int | None = None) -> Board:
        self.data["map"]["hexes"][hex_] = t
        if elevation is not None:
            self.data["map"]["elevation"][hex_] = elevation
        return self

    def fieldwork(self, hex_: str) -> Board:
        self.data["map"]["secondary"][hex_] = ["fieldwork"]
        return self

    def hedge(self, a: str, b: str) -> Board:
        self.data["map"]["hexsides"].append({"hexes": [a, b], "features": ["hedge"]})
        return self

    def objective(self, hex_: str, owner: str | None = None, points: int = 2) -> Board:
        self.data["victory"]["objectives"].append({"hex": hex_, "points": points,
                                                   **({"owner": owner} if owner else {})})
        return self

    # --- the armies ------------------------------------------------------------------------------
    def unit(self, uid: str, side: str, kind: str, hex_: str, facing: str = "N", formation: str | None = None,
             grade: str = "average", **fields: Any) -> Board:
        entry: dict[str, Any] = {"id": uid, "side": side, "name": uid, "type": kind, **fields}
        if kind != "wagons":
            entry["grade"] = grade
        self.data["units"].append(entry)
        self.data["setup"].append({"unit": uid, "hex": hex_, "facing": facing,
                                   "formation": formation or FORMATIONS[TYPES[kind]][0]})
        return self

    def general(self, gid: str, side: str, hex_: str, quality: str = "competent", role: str = "brigade") -> Board:
        if role == "c-in-c":  # replaces the corner C-in-C
            old = f"{side[0]}-cinc"
            self.data["units"] = [u for u in self.data["units"] if u["id"] != old]
            self.data["setup"] = [p for p in self.data["setup"] if p["unit"] != old]
        self.data["units"].append({"id": gid, "side": side, "name": gid, "type": "general", "quality": quality,
                                   "role": role})
        self.data["setup"].append({"unit": gid, "hex": hex_})
        return self

    def scenario(self) -> HMScenario:
        sc = parse_scenario(copy.deepcopy(self.data), "hm-test")
        assert isinstance(sc, HMScenario)
        return sc

    # --- a game at a step ------------------------------------------------------------------------
    def game(self, step: str = "moves", active: str = "blue", dice: list[int] | None = None,
             hits: dict[str, int] | None = None, staggered: tuple[str, ...] = (),
             hands: dict[str, list[str]] | None = None, allow: str = ALL, moved: tuple[str, ...] = ()) -> Game:
        """A game at `step` of `active`'s player turn (round 1, its first player turn), with loaded dice. Every unit's
        command rolled `allow` ("all", "half", "none") in one group per side; `hands`: the cards each side holds
        (taken out of its deck)."""
        sc = self.scenario()
        st: GameState = find_ruleset("horse-and-musket").initial_state(sc)
        st.active, st.phase = active, PHASES[step]
        x = st.extra
        x.update(step=step, order=[active, sc.opponent(active)], player_turn=1)
        for uid, n in (hits or {}).items():
            x["units"][uid]["hits"] = n
        for uid in staggered:
            st.units[uid].reduced = True
        for uid in moved:
            st.units[uid].moved = True
        for side, cards in (hands or {}).items():
            for c in cards:
                deck = kcards.pile(x, side, "deck")
                deck.remove(c)
                kcards.hand(x, side).append(c)
        units = [u for u in sc.side_units[active] if sc.units[u].kind is not Kind.GENERAL]
        n = len(units)
        allowed = {"all": n, "half": (n + 1) // 2, "none": 0}[allow]
        x["command"] = {"groups": [{"general": None, "units": units, "die": 6, "modifier": 0, "total": 6,
                                    "result": allow, "cards": 0, "allowed": allowed}]}
        return Game.for_test(sc, st, dice or [])


def ctx_of(game: Game) -> HMCtx:
    return HMCtx.of(game)


def events_of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def step(hex_: str, *directions: str, columns: int = 12, rows: int = 12) -> str:
    """The hex reached from `hex_` across the named hexsides in turn (R16.4's d(k)), on the test map."""
    grid = HexGrid(columns, rows)
    h = grid.cube(hex_)
    for d in directions:
        h = h + Direction[d].vector
    out = grid.id_of(h)
    assert out is not None, f"{hex_} + {directions} is off the map"
    return out
