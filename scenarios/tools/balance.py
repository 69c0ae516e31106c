"""Random-play balance probe for a scenario: where the points come from.

    .venv/bin/python scenarios/tools/balance.py hougoumont --games 40 --seed 1 [--jobs 2]

Plays random legal games with the same player as `vedette simulate` (without
the invariant checks, for speed), or with ``--player greedy`` an aggressive
heuristic player, and prints, per side: wins, mean final points,
mean objective points, mean loss points, how often each objective ends in each
side's hands and how often a sudden death ends the game.  It is a designer's
tool for tuning victory conditions; the balance numbers quoted in
docs/scenarios.md come from `vedette simulate` itself.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))


class GreedyPlayer:
    """An aggressive heuristic player: close on the enemy's objectives and units, attack at fair odds.

    Objectives the enemy scores are reinforced to two units and those garrisons stay put; cavalry
    charges and squares are not used.
    Counterattacks are declined; other decisions inside a combat (retreat paths, advances, losses) are
    random.
    """

    def __init__(self, rng: Any) -> None:
        self.rng = rng

    def choose(self, game: Any, side: str) -> dict[str, Any]:
        cmds = list(game.legal_commands(side, self.rng, 120))
        st = game.state
        if st.phase == "setup" and st.decision is None:
            return {"type": "end_phase"}  # take the listed set-up hexes
        if st.decision is not None:
            declines = [c for c in cmds if c["type"] == "choose" and str(c["option"]).startswith("decline")]
            if st.decision.get("kind") == "counterattack" and declines:
                return declines[0]  # no doubled-strength sorties out of good ground
            others = [c for c in cmds if c["type"] != "end_phase"]
            return self.rng.choice(others or cmds)
        if st.phase == "recovery":
            rec = [c for c in cmds if c["type"] == "recover"]
            return self.rng.choice(rec) if rec else {"type": "end_phase"}
        if st.phase == "movement":
            return self._move(game, side, cmds)
        if st.phase == "combat":
            return self._combat(game, side, cmds)
        return {"type": "end_phase"}

    def _targets(self, game: Any, side: str) -> list[str]:
        st, sc = game.state, game.scenario
        out = [o.hex for o in sc.victory.objectives
               if (o.scorer in (None, side)) and st.control.get(o.hex) != side]
        for uid, u in st.units.items():
            d = sc.units[uid]
            if d.side != side and u.hex is not None and d.kind.value != "leader":
                out.append(u.hex)
        return out

    def _guard(self, game: Any, side: str) -> set[str]:
        st, sc = game.state, game.scenario
        return {o.hex for o in sc.victory.objectives if o.scorer not in (None, side) and st.control.get(o.hex) == side}

    def _move(self, game: Any, side: str, cmds: list[dict[str, Any]]) -> dict[str, Any]:
        st, sc = game.state, game.scenario
        grid = sc.grid
        targets = self._targets(game, side)
        guard = self._guard(game, side)
        count: dict[str, int] = {}
        for uid, u in st.units.items():
            if u.hex is not None and sc.units[uid].side == side and sc.units[uid].kind.value != "leader":
                count[u.hex] = count.get(u.hex, 0) + 1
        best, best_gain = None, 0.0
        for c in cmds:
            if c["type"] != "move" or "charge" in c:
                continue
            start, dest = c["path"][0], c["path"][-1]
            units = c["units"]
            on_map = st.units[units[0]].hex is not None
            combat_units = [u for u in units if sc.units[u].kind.value != "leader"]
            if not combat_units:
                continue
            if on_map and start in guard and len(combat_units) >= count.get(start, 0):
                continue
            if count.get(dest, 0) + len(combat_units) > 3:
                continue
            d1 = min((grid.distance(dest, t) for t in targets), default=0)
            d0 = min((grid.distance(start, t) for t in targets), default=0) if on_map else d1 + 3
            gain = (d0 - d1) + (0.5 if dest in targets else 0) + self.rng.random() * 0.1
            if dest in guard and start not in guard and count.get(dest, 0) < 2:
                gain += 3  # reinforce a garrison the enemy wants
            if on_map and start in guard and count.get(start, 0) <= 2:
                continue  # a garrison of two stays
            if gain > best_gain:
                best, best_gain = c, gain
        return best or {"type": "end_phase"}

    def _strength(self, game: Any, uid: str, attack: bool) -> int:
        """The side now showing's attack (halved when disrupted) or defence: the edition's `bot_factors`."""
        att, dfn, _ = game.ruleset.bot_factors(game.scenario, game.state.units[uid])
        return int(att if attack else dfn)

    def _combat(self, game: Any, side: str, cmds: list[dict[str, Any]]) -> dict[str, Any]:
        st, sc = game.state, game.scenario
        charges = [c for c in cmds if c["type"] == "charge"]
        if charges:  # a declared charge must be made (never happens here: the greedy player does not charge)
            return charges[0]
        good = []
        for c in cmds:
            if c["type"] == "bombard":
                good.append((1.0, c))
            elif c["type"] == "attack":
                att = sum(self._strength(game, u, True) for u in c["attackers"])
                defenders = [u for u, s in st.units.items()
                             if s.hex == c["target"] and sc.units[u].kind.value != "leader"]
                dfn = sum(sorted((self._strength(game, u, False) for u in defenders), reverse=True)[:2])
                dfn += sc.terrain_at(c["target"]).defense
                if att - dfn >= -1:
                    good.append((att - dfn + self.rng.random(), c))
        if good:
            return max(good, key=lambda t: t[0])[1]
        return {"type": "end_phase"}


def _play(sc: Any, seed: int, player: str) -> Any:
    import random

    from server.rules.kernel.game import Game
    from server.rules.kernel.randomplayer import RandomPlayer, play_random_game

    if player == "random":
        return play_random_game(sc, seed, check=False)
    rng = random.Random(seed)
    game = Game.new(sc, f"greedy-game-seed-{seed:016d}")
    players = {s: GreedyPlayer(rng) for s in sc.side_order}
    fallback = RandomPlayer(rng)
    n = 0
    while not game.is_over and n < 20000:
        side = game.awaiting
        cmd = players[side].choose(game, side)
        try:
            game.submit(side, cmd)
        except ValueError:  # an end_phase refused (IllegalCommand, e.g. a pending charge): fall back to random
            game.submit(side, fallback.choose(game, side))
        n += 1
    return game


def _one(args: tuple[str, int, str]) -> dict[str, Any]:
    from server.rules.kernel.scenario import parse_scenario

    path, seed, player = args
    sc = parse_scenario(json.loads(Path(path).read_text("utf-8")), path)
    game = _play(sc, seed, player)
    st = game.state
    res = game.result or {}
    obj_pts = {s: 0 for s in sc.side_order}
    holders = {}
    for o in sc.victory.objectives:
        h = st.control.get(o.hex)
        holders[o.name] = h
        if h is not None and (o.scorer is None or o.scorer == h):
            obj_pts[h] += o.points
    return {
        "seed": seed,
        "winner": res.get("winner"),
        "reason": res.get("reason", ""),
        "turn": st.turn,
        "points": res.get("points", {}),
        "objective_points": obj_pts,
        "holders": holders,
    }


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--player", choices=["random", "greedy"], default="random")
    a = ap.parse_args(argv)
    path = a.scenario if a.scenario.endswith(".json") else str(ROOT / "scenarios" / f"{a.scenario}.json")
    jobs = [(path, a.seed + i, a.player) for i in range(a.games)]
    with ProcessPoolExecutor(max_workers=a.jobs) as ex:
        results = list(ex.map(_one, jobs))
    sides = list(results[0]["objective_points"].keys())
    wins = Counter(r["winner"] for r in results)
    sudden = sum(1 for r in results if "immediate" in r["reason"])
    print(f"{len(results)} {a.player} games, seed {a.seed}: wins {dict(wins)}, sudden deaths {sudden}")
    for s in sides:
        tot = sum(r["points"].get(s, 0) for r in results) / len(results)
        obj = sum(r["objective_points"][s] for r in results) / len(results)
        print(f"  {s}: mean points {tot:.1f} (objectives {obj:.1f}, losses {tot - obj:.1f})")
    names = list(results[0]["holders"].keys())
    for n in names:
        c = Counter(r["holders"][n] for r in results)
        print(f"  {n}: " + ", ".join(f"{k}={v}" for k, v in sorted(c.items(), key=lambda kv: str(kv[0]))))
    ends = sorted(r["turn"] for r in results)
    print(f"  game ends on turn: {ends}")
    margins = sorted(r["points"].get(sides[0], 0) - r["points"].get(sides[1], 0) for r in results)
    print(f"  margin {sides[0]}-{sides[1]}: min {margins[0]}, median {margins[len(margins)//2]}, max {margins[-1]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
