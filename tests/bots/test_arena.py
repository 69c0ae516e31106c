"""Issue 15: `vedette arena` plays bot against bot, alternating sides, and checks every game with the
invariant checker (server/rules/invariants.py) and an exact replay of its log (R11)."""

from __future__ import annotations

import json
import random

import pytest

from server.bots import make_bot
from server.bots.arena import NO_CLOCK, ArenaReport, arena, play_game, wilson
from server.cli import main
from server.rules_cli import find_scenario


def test_wilson_interval():
    lo, hi = wilson(19, 20)
    assert 0.76 < lo < 0.77 and 0.99 < hi <= 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_r11_arena_greedy_against_random_two_tutorial_games_alternate_sides_without_violations():
    report = arena(find_scenario("tutorial"), "greedy", "random", games=2, seed=3)
    data = report.to_json()
    assert data["games"] == 2 and data["a_wins"] + data["b_wins"] + data["draws"] == 2
    assert data["violations"] == 0 and data["illegal_commands"] == 0, data["violation_examples"]
    assert sum(sum(row.values()) for row in data["by_side"].values()) == 2
    assert all(sum(row.values()) == 1 for row in data["by_side"].values())  # one game on each side
    assert data["decision_time"]["greedy"]["decisions"] > 0


def test_arena_cli_json_last_line(capsys):
    rc = main(["arena", "--scenario", "tutorial", "--a", "random", "--b", "random", "--games", "2", "--seed", "5",
               "--json"])
    out = capsys.readouterr().out.strip().splitlines()
    data = json.loads(out[-1])
    assert rc == 0
    assert {"a_wins", "b_wins", "draws", "games", "a_share_ci95", "violations"} <= set(data)
    assert data["games"] == 2


@pytest.mark.parametrize("argv", [["--a", "genius"], ["--games", "0"], ["--scenario", "no-such-battle"]])
def test_arena_cli_refuses_bad_arguments(argv, capsys):
    base = {"--scenario": "tutorial", "--a": "greedy", "--b": "random", "--games": "1"}
    for k, v in zip(argv[::2], argv[1::2]):
        base[k] = v
    rc = main(["arena"] + [x for kv in base.items() for x in kv])
    assert rc == 2


def test_arena_cli_search_level_with_a_node_budget(capsys):
    rc = main(["arena", "--scenario", "tutorial", "--a", "search", "--b", "random", "--games", "1", "--seed", "2",
               "--iterations", "200", "--json"])
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert rc == 0 and data["iterations"] == 200 and data["games"] == 1
    assert data["violations"] == 0 and data["illegal_commands"] == 0
    assert data["decision_time"]["search"]["decisions"] > 0


def test_standard_rules_arena_greedy_beats_random_with_only_legal_commands():
    """Issue 15 on the Standard rules: the greedy level plays the engine's own legal commands one ply deep
    (`GreedyBot._generic`), so it never sends a command the referee refuses, and it beats random play."""
    report = arena(find_scenario("standard-tutorial"), "greedy", "random", games=2, seed=3, iterations=1)
    data = report.to_json()
    assert data["violations"] == 0 and data["illegal_commands"] == 0, data["violation_examples"]
    assert data["a_wins"] == 2, data
    assert data["decision_time"]["greedy"]["decisions"] > 0


def test_quickplay_2013_arena_greedy_beats_random_under_the_chosen_edition(capsys):
    """Issue 41: `vedette arena --ruleset quickplay-2013` plays the tutorial under the 2013 edition it declares
    (`also_rulesets`): greedy wins every game with only legal commands, and an edition the scenario does not declare
    is refused."""
    rc = main(["arena", "--scenario", "tutorial", "--ruleset", "quickplay-2013", "--a", "greedy", "--b", "random",
               "--games", "4", "--seed", "7", "--iterations", "1", "--json"])
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert rc == 0 and data["ruleset"] == "quickplay-2013"
    assert data["violations"] == 0 and data["illegal_commands"] == 0, data["violation_examples"]
    assert data["a_wins"] == 4, data
    # the games are played by the 2013 edition's engine, and the record names it for `vedette replay`
    report = ArenaReport("tutorial", "greedy", "random", 7)
    game = play_game(find_scenario("tutorial"), {"blue": make_bot("greedy"), "red": make_bot("random")},
                     {"blue": "greedy", "red": "random"}, "arena-2013-seed-00000001",
                     {s: random.Random(s) for s in ("blue", "red")}, NO_CLOCK, report, ruleset="quickplay-2013")
    assert game.is_over and game.ruleset.name == "quickplay-2013" and report.violations == 0
    assert game.record()["ruleset"] == "quickplay-2013" and game.result["winner"] == "blue"
    assert main(["arena", "--scenario", "tutorial", "--ruleset", "standard", "--games", "1"]) == 2
    assert "not written for ruleset 'standard'" in capsys.readouterr().err
