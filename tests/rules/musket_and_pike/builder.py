"""A test ground for the Musket & Pike rules (seed 004 + R17): a 12x12 clear map, blue (south) against red (north),
each side with an AC in a far corner and two wings (foot and horse) whose WCs stand in the corners too, and a game
placed in any segment of a blue or red activation, with loaded d10s (R17.1: 0-9).

    b = Board()
    b.unit("b-hi", "blue", "hi", "0606", facing="N", pikes=True)
    b.unit("r-hi", "red", "hi", "0604", facing="S", pikes=True)
    g = b.game(wing="b-foot", segment="action", dice=[7])
    g.submit("blue", {"type": "fire", "unit": "b-hi", "target": "r-hi"})

Geometry (R1, shifted even): facing N runs up a column (0606 -> 0605 -> 0604).
"""

from __future__ import annotations

import copy
from typing import Any

from server.rules import Game, find_ruleset, parse_scenario
from server.rules.kernel.state import PHASE_COMBAT, PHASE_MOVEMENT
from server.rules.musket_and_pike.context import MPCtx
from server.rules.musket_and_pike.scenario import MPScenario

DEFAULTS: dict[str, dict[str, Any]] = {
    "hi": {"sp": 6, "morale": 7, "ma": 4},
    "li": {"sp": 2, "morale": 7, "ma": 6, "class": "commanded_muskets"},
    "cavalry": {"sp": 4, "morale": 7, "ma": 7, "class": "cuirassier", "pistols": 2},
    "artillery": {"sp": 2, "morale": 7, "ma": 2, "calibre": "4-8lb"},
}


class Board:
    def __init__(self, columns: int = 12, rows: int = 12) -> None:
        self.data: dict[str, Any] = {
            "id": "mp-test", "title": "Test ground", "ruleset": "musket-and-pike",
            "map": {"columns": columns, "rows": rows, "shifted": "even", "default_terrain": "clear", "hexes": {},
                    "hexsides": [], "roads": []},
            "sides": {"blue": {"name": "Blue", "color": "#00f", "edge": "south"},
                      "red": {"name": "Red", "color": "#f00", "edge": "north"}},
            "wings": [
                {"id": "b-foot", "side": "blue", "name": "Blue Foot", "commander": "b-wc", "order": "charge"},
                {"id": "b-horse", "side": "blue", "name": "Blue Horse", "commander": "b-wc2", "order": "make_ready",
                 "cavalry": True},
                {"id": "r-foot", "side": "red", "name": "Red Foot", "commander": "r-wc", "order": "make_ready"},
                {"id": "r-horse", "side": "red", "name": "Red Horse", "commander": "r-wc2", "order": "make_ready",
                 "cavalry": True},
            ],
            "units": [
                {"id": "b-ac", "side": "blue", "name": "Blue AC", "type": "leader", "role": "ac", "rating": 0},
                {"id": "b-wc", "side": "blue", "name": "Blue WC", "type": "leader", "role": "wc", "rating": 0,
                 "wing": "b-foot"},
                {"id": "b-wc2", "side": "blue", "name": "Blue WC2", "type": "leader", "role": "wc", "rating": 0,
                 "wing": "b-horse"},
                {"id": "r-ac", "side": "red", "name": "Red AC", "type": "leader", "role": "ac", "rating": 0},
                {"id": "r-wc", "side": "red", "name": "Red WC", "type": "leader", "role": "wc", "rating": 0,
                 "wing": "r-foot"},
                {"id": "r-wc2", "side": "red", "name": "Red WC2", "type": "leader", "role": "wc", "rating": 0,
                 "wing": "r-horse"},
            ],
            "setup": [{"unit": "b-ac", "hex": f"01{rows:02d}"}, {"unit": "b-wc", "hex": f"02{rows:02d}"},
                      {"unit": "b-wc2", "hex": f"03{rows:02d}"}, {"unit": "r-ac", "hex": f"{columns:02d}01"},
                      {"unit": "r-wc", "hex": f"{columns - 1:02d}01"},
                      {"unit": "r-wc2", "hex": f"{columns - 2:02d}01"}],
            "turns": 4, "first_side": "blue",
            "victory": {"description": "test", "objectives": []},
        }
        self.state: dict[str, dict[str, Any]] = {}
        self.placed_wings: set[str] = set()

    def unit(self, uid: str, side: str, type_: str, hex_: str, facing: str = "N", wing: str | None = None,
             state: dict[str, Any] | None = None, **values: Any) -> Board:
        wing = wing or f"{side[0]}-{'horse' if type_ == 'cavalry' else 'foot'}"
        self.placed_wings.add(wing)
        u = {"id": uid, "side": side, "name": uid, "type": type_, "wing": wing, **DEFAULTS[type_], **values}
        self.data["units"].append(u)
        self.data["setup"].append({"unit": uid, "hex": hex_, "facing": facing})
        if state:
            self.state[uid] = state
        return self

    def leader_at(self, lid: str, hex_: str) -> Board:
        for p in self.data["setup"]:
            if p["unit"] == lid:
                p["hex"] = hex_
        return self

    def terrain(self, hex_: str, t: str) -> Board:
        self.data["map"]["hexes"][hex_] = t
        return self

    def hexside(self, a: str, b: str, feature: str, high: str | None = None) -> Board:
        self.data["map"]["hexsides"].append({"hexes": [a, b], "feature": feature, **({"high": high} if high else {})})
        return self

    def order(self, wing: str, order: str) -> Board:
        for w in self.data["wings"]:
            if w["id"] == wing:
                w["order"] = order
        return self

    def scenario(self) -> MPScenario:
        data = copy.deepcopy(self.data)
        for w in ("b-foot", "b-horse", "r-foot", "r-horse"):  # every wing needs a unit: park a dummy far away
            if w not in self.placed_wings:
                side = "blue" if w.startswith("b") else "red"
                kind = "cavalry" if "horse" in w else "li"
                uid = f"{w}-reserve"
                row = data["map"]["rows"] if side == "blue" else 1
                col = {"b-foot": 5, "b-horse": 6, "r-foot": 7, "r-horse": 8}[w]
                data["units"].append({"id": uid, "side": side, "name": uid, "type": kind, "wing": w,
                                      **DEFAULTS[kind]})
                data["setup"].append({"unit": uid, "hex": f"{col:02d}{row:02d}", "facing": "N"})
        sc = parse_scenario(data, "test")
        assert isinstance(sc, MPScenario)
        return sc

    def game(self, wing: str = "b-foot", segment: str = "movement", dice: list[int] | None = None) -> Game:
        sc = self.scenario()
        rs = find_ruleset("musket-and-pike")
        st = rs.initial_state(sc)
        for uid, vals in self.state.items():
            st.extra["units"][uid].update(vals)
        st.extra["step"] = "activation"
        st.extra["segment"] = segment
        st.extra["wing"] = wing
        st.extra["wings"][wing]["activated"] = True
        st.active = sc.wings[wing].side
        st.phase = PHASE_MOVEMENT if segment == "movement" else PHASE_COMBAT
        game = Game.for_test(sc, st, dice)
        ctx = MPCtx.of(game)
        ctx.x["act"] = {"start_adjacent": {
            u: [e for e in ctx.units_of(ctx.enemy(ctx.side_of(u)))
                if ctx.sc.grid.is_adjacent(ctx.hex_of(u), ctx.hex_of(e))] for u in ctx.wing_units_on_map(wing)}}
        return game


def ctx_of(game: Game) -> MPCtx:
    return MPCtx.of(game)


def events(evs: list[dict[str, Any]], type_: str) -> list[dict[str, Any]]:
    return [e for e in evs if e["type"] == type_]
