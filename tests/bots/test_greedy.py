"""Issue 15: the greedy level scores each decision with the static evaluation and the exact
distribution of every attack's outcome over the CRT (7.4, R6) and the morale die (7.5)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))

from position import Position

from server.bots import belief_game, make_bot
from server.bots.evaluate import evaluate
from server.bots.greedy import GreedyBot

BUDGET = 60.0


def _duel(attack: int, defense: int, terrain: str = "clear"):
    pos = Position()
    if terrain != "clear":
        pos.terrain("0604", terrain)
    pos.unit("b1", "blue", "infantry", hex="0504", attack=attack, defense=4, mr=4, ma=4)
    pos.unit("r1", "red", "infantry", hex="0604", attack=2, defense=defense, mr=4, ma=4)
    return pos.game(phase="combat", active="blue", dice=[])


def test_7_4_greedy_attacks_at_good_odds():
    game = _duel(attack=9, defense=2)
    cmd = make_bot("greedy").choose(belief_game(game, "blue", random.Random(1)), "blue", random.Random(1), BUDGET)
    assert cmd["type"] == "attack" and cmd["target"] == "0604" and cmd["attackers"] == ["b1"]


def test_7_4_greedy_ends_the_phase_rather_than_attack_at_hopeless_odds():
    game = _duel(attack=1, defense=8, terrain="town")
    cmd = make_bot("greedy").choose(belief_game(game, "blue", random.Random(1)), "blue", random.Random(1), BUDGET)
    assert cmd == {"type": "end_phase"}


def test_7_5_attack_value_is_the_exact_expectation_over_both_dice():
    """The greedy's value of an attack (one branch per distinct CRT result, the morale die's pass and fail
    weighted by the primary's rating) equals brute force over all 36 (combat die, morale die) pairs."""
    for attack, defense in ((5, 4), (3, 5), (8, 3)):
        game = belief_game(_duel(attack=attack, defense=defense), "blue", random.Random(2))
        bot = GreedyBot()
        preview = next(a for a in game.options("blue", ["b1"])["attacks"] if a["legal"])
        cmd, results = preview["command"], preview["results"]
        rng = random.Random(9)
        fallback = random.Random(9).getrandbits(64)
        value = bot._attack_value(game, "blue", cmd, results, preview.get("defenders_assumed"), rng)
        brute = 0.0
        for cd in range(1, 7):
            for md in range(1, 7):
                out = bot._branch(game, "blue", cmd, [cd, md], preview.get("defenders_assumed"), fallback)
                assert out is not None
                brute += out[0] / 36
        assert abs(value - brute) < 1e-6, (attack, defense, value, brute)


def test_greedy_moves_toward_an_objective_it_scores():
    pos = Position()
    pos.unit("b1", "blue", "infantry", hex="0204", attack=4, defense=4, mr=4, ma=4)
    pos.unit("r1", "red", "infantry", hex="1007", attack=2, defense=2, mr=4, ma=4)
    pos.objective("0704", 5, owner="red", scorer="blue")
    game = pos.game(phase="movement", active="blue")
    grid = game.scenario.grid
    cmd = make_bot("greedy").choose(belief_game(game, "blue", random.Random(1)), "blue", random.Random(1), BUDGET)
    assert cmd["type"] == "move" and cmd["units"] == ["b1"]
    assert grid.distance(cmd["path"][-1], "0704") < grid.distance("0204", "0704")


def test_evaluation_is_zero_sum_and_prefers_holding_objectives():
    pos = Position()
    pos.unit("b1", "blue", "infantry", hex="0704", attack=4, defense=4, mr=4, ma=4)
    pos.unit("r1", "red", "infantry", hex="0207", attack=4, defense=4, mr=4, ma=4)
    pos.objective("0704", 5, owner="red", scorer="blue")
    game = pos.game(phase="movement", active="blue")
    assert evaluate(game, "blue") == -evaluate(game, "red")
    assert evaluate(game, "blue") > 0  # Blue stands on the objective: it controls it (14.0)
