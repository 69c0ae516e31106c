"""A stand-in rules core for developing the browser client before the real one exists.

Only used by the browser tests when `server.rules` has no `Game` yet (see conftest.py);
it speaks the docs/engine-contract.md surface with tiny, made-up rules: move within
MA by terrain cost, attack an adjacent stack -> the defender must choose a retreat hex,
end phase cycles movement -> combat -> other side.
"""

from __future__ import annotations

import copy
import hashlib
from typing import Any, Iterator

from server.rules.scenario import ScenarioError, parse_scenario  # noqa: F401  (re-exported)


class IllegalCommand(ValueError):
    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message


class NotYourDecision(IllegalCommand):
    pass


def filter_events(events: list[dict[str, Any]], viewer: str, scenario: Any) -> list[dict[str, Any]]:
    return list(events)


class Game:
    def __init__(self, scenario: Any, state: dict[str, Any]) -> None:
        self.sc = scenario
        self.s = state

    @classmethod
    def new(cls, scenario: Any, seed: str) -> "Game":
        units: dict[str, Any] = {}
        for p in scenario.setup:
            units[p.unit] = {"hex": p.hex, "status": "map", "reduced": p.reduced, "disrupted": p.disrupted,
                             "ineffective": p.ineffective, "moved": False, "charging": None}
        for r in scenario.reinforcements:
            units[r.unit] = {"hex": None, "status": "offboard", "entry_turn": r.turn, "entry_hex": r.hex,
                             "reduced": False, "disrupted": False, "ineffective": False, "moved": False, "charging": None}
        state = {"seed": seed, "turn": 1, "phase": "movement", "active": scenario.first_player,
                 "units": units, "version": 0, "prompt": None, "dice": 0, "history": []}
        return cls(scenario, state)

    @classmethod
    def from_json(cls, scenario: Any, data: dict[str, Any]) -> "Game":
        return cls(scenario, copy.deepcopy(data))

    def to_json(self) -> dict[str, Any]:
        return copy.deepcopy(self.s)

    @property
    def version(self) -> int:
        return int(self.s["version"])

    @property
    def awaiting(self) -> str | None:
        if self.s["phase"] == "over":
            return None
        p = self.s.get("prompt")
        return p["side"] if p else self.s["active"]

    @property
    def is_over(self) -> bool:
        return self.s["phase"] == "over"

    @property
    def result(self) -> dict[str, Any] | None:
        return self.s.get("result")

    def enemy(self, side: str) -> str:
        return self.sc.opponent(side)

    def view(self, viewer: str) -> dict[str, Any]:
        labels = self.sc.turn_labels
        t = self.s["turn"]
        return {
            "scenario": self.sc.id, "ruleset": "quickplay", "viewer": viewer,
            "turn": t, "turns": self.sc.turns, "turn_label": labels[t - 1] if t <= len(labels) else f"Turn {t}",
            "phase": self.s["phase"], "active": self.s["active"], "awaiting": self.awaiting,
            "prompt": copy.deepcopy(self.s["prompt"]),
            "units": copy.deepcopy(self.s["units"]), "squares": [],
            "replacements": {s: 1 for s in self.sc.side_order}, "control": {},
            "points": {s: 0 for s in self.sc.side_order},
            "seed_hash": hashlib.sha256(self.s["seed"].encode()).hexdigest(),
            "result": self.result,
        }

    # -- helpers
    def _occ(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for uid, u in self.s["units"].items():
            if u["status"] == "map" and u["hex"]:
                out.setdefault(u["hex"], []).append(uid)
        return out

    def _side_at(self, hex_: str) -> str | None:
        ids = self._occ().get(hex_, [])
        return self.sc.units[ids[0]].side if ids else None

    def _reach(self, uids: list[str]) -> dict[str, Any]:
        start = self.s["units"][uids[0]]["hex"]
        ma = min((self.sc.units[u].full.ma if self.sc.units[u].kind.value != "leader" else 12) for u in uids)
        cls = [self.sc.units[u].kind.tec_class for u in uids]
        best = {start: (0, [start])}
        frontier = [start]
        side = self.sc.units[uids[0]].side
        while frontier:
            nxt = []
            for h in frontier:
                cost, path = best[h]
                for n in self.sc.grid.neighbors(h):
                    t = self.sc.terrain_at(n)
                    if any(c != "leader" and t.is_prohibited(c) for c in cls):
                        continue
                    step = max([t.move.get(c, 1) for c in cls if c != "leader"] or [1])
                    other = self._side_at(n)
                    if other and other != side:
                        continue
                    total = cost + step
                    if total > ma and cost > 0:
                        continue
                    if n not in best or best[n][0] > total:
                        best[n] = (total, path + [n])
                        nxt.append(n)
            frontier = nxt
        best.pop(start, None)
        return {h: {"cost": c, "path": p} for h, (c, p) in best.items()}

    def options(self, side: str, units: list[str]) -> dict[str, Any]:
        for u in units:
            if u not in self.sc.units or self.sc.units[u].side != side:
                raise IllegalCommand("1.0", f"{u} is not one of your units")
        if not units or self.awaiting != side or self.s["prompt"]:
            return {"units": units}
        out: dict[str, Any] = {"units": units}
        if self.s["phase"] == "movement" and not any(self.s["units"][u]["moved"] for u in units):
            out["move"] = {"reachable": self._reach(units)}
        if self.s["phase"] == "combat":
            here = self.s["units"][units[0]]["hex"]
            attacks = []
            for n in self.sc.grid.neighbors(here):
                if self._side_at(n) == self.enemy(side):
                    att = sum(self.sc.units[u].full.attack for u in units if self.sc.units[u].kind.value != "leader")
                    dfn = sum(self.sc.units[u].full.defense for u in self._occ()[n] if self.sc.units[u].kind.value != "leader")
                    diff = att - dfn
                    attacks.append({"target": n, "attackers": units, "attack": att, "defense": dfn,
                                    "differential": diff, "column": 4, "column_label": "+1 to +2",
                                    "results": ["Ar", "Ac", "-", "Dc", "Dr", "Dr"],
                                    "odds": {"Ar": 0.1667, "Ac": 0.1667, "-": 0.1667, "Dc": 0.1667, "Dr": 0.3333}})
            out["attacks"] = attacks
        return out

    def can_undo(self, side: str) -> bool:
        return False

    def undo(self, side: str) -> list[dict[str, Any]]:
        raise IllegalCommand("undo", "Nothing may be undone now.")

    def legal_commands(self, side: str) -> Iterator[dict[str, Any]]:
        yield {"type": "end_phase"}

    def record(self) -> dict[str, Any]:
        return {"scenario": self.sc.id, "commands": []}

    def submit(self, side: str, cmd: dict[str, Any]) -> list[dict[str, Any]]:
        if self.awaiting != side:
            raise NotYourDecision("2.0", "It is not your decision now.")
        t = cmd.get("type")
        ev: list[dict[str, Any]]
        if self.s["prompt"]:
            if t != "choose":
                raise IllegalCommand("7.7", "Answer the pending question first.")
            p = self.s["prompt"]
            opt = next((o for o in p["options"] if o["id"] == cmd.get("option")), None)
            if opt is None:
                raise IllegalCommand("7.7", "That is not one of the choices.")
            for u in p["units"]:
                self.s["units"][u]["hex"] = opt["hex"]
                self.s["units"][u]["disrupted"] = True
            self.s["prompt"] = None
            ev = [{"type": "retreat", "text": f"7.7: {', '.join(self.sc.units[u].name for u in p['units'])} retreat to {opt['hex']} and are disrupted."}]
        elif t == "end_phase":
            if self.s["phase"] == "movement":
                self.s["phase"] = "combat"
            else:
                self.s["phase"] = "movement"
                for u in self.s["units"].values():
                    u["moved"] = False
                if self.s["active"] == self.sc.first_player:
                    self.s["active"] = self.enemy(self.s["active"])
                else:
                    self.s["active"] = self.sc.first_player
                    self.s["turn"] += 1
                    if self.s["turn"] > self.sc.turns:
                        self.s["phase"] = "over"
                        self.s["result"] = {"winner": None, "reason": "time ran out", "points": {}}
            ev = [{"type": "phase", "text": f"{self.sc.sides[side].name} ends the phase; now {self.s['phase']}."}]
        elif t == "move":
            if self.s["phase"] != "movement":
                raise IllegalCommand("4.0", "Units move only in the movement phase.")
            units = cmd.get("units") or []
            path = cmd.get("path") or []
            reach = self._reach(units) if units else {}
            if not path or path[-1] not in reach:
                raise IllegalCommand("4.3", f"The stack cannot reach {path[-1] if path else '?'} this phase.")
            for u in units:
                self.s["units"][u]["hex"] = path[-1]
                self.s["units"][u]["moved"] = True
            ev = [{"type": "move", "text": f"4.0: {', '.join(self.sc.units[u].name for u in units)} move {' -> '.join(path)}."}]
        elif t == "attack":
            if self.s["phase"] != "combat":
                raise IllegalCommand("7.0", "Attacks are declared in the combat phase.")
            target = cmd.get("target")
            defenders = self._occ().get(target, [])
            n = self.s["dice"]
            self.s["dice"] = n + 2
            dice = [5, 2]
            away = [h for h in self.sc.grid.neighbors(target) if not self._occ().get(h)]
            ev = [
                {"type": "dice", "purpose": "combat", "dice": dice, "labels": ["combat die", "morale die"], "text": "Dice: 5 and 2."},
                {"type": "combat", "text": f"7.4: {target} attacked at +1 to +2: result Dr; the defenders must retreat.",
                 "result": "Dr", "column_label": "+1 to +2", "differential": 1},
            ]
            self.s["prompt"] = {"side": self.enemy(side), "kind": "retreat", "rule": "7.7",
                                "text": f"Choose a retreat hex for the units in {target}.", "units": defenders,
                                "options": [{"id": f"r{h}", "label": f"Retreat to {h}", "hex": h, "path": [target, h]} for h in away[:3]]}
        else:
            raise IllegalCommand("commands", f"Unknown command {t!r}.")
        self.s["version"] += 1
        return ev
