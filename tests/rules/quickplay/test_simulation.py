"""Property tests: random legal play never breaks an invariant, and replaying the log reproduces the game (R11)."""

from __future__ import annotations

import pytest

from server.rules.kernel.randomplayer import play_random_game, simulate
from server.rules_cli import find_scenario


@pytest.fixture(scope="module")
def tutorial():
    return find_scenario("tutorial")


@pytest.mark.slow
def test_r11_500_random_tutorial_games_have_no_invariant_violations_and_replay_exactly(tutorial):
    report = simulate(tutorial, games=500, seed=20261122, check=True)
    assert report.games == 500
    assert report.violations == 0, report.examples[:5]
    assert sum(report.wins.values()) + report.draws == 500
    assert report.commands > 500 * 20


def test_r11_same_seed_same_game(tutorial):
    a = play_random_game(tutorial, seed=7)
    b = play_random_game(tutorial, seed=7)
    assert a.to_json() == b.to_json()
    assert a.is_over and a.result is not None


def test_r11_different_seeds_differ(tutorial):
    a = play_random_game(tutorial, seed=1)
    b = play_random_game(tutorial, seed=2)
    assert a.log != b.log


def test_3_4_random_game_reaches_a_result_with_a_reason(tutorial):
    game = play_random_game(tutorial, seed=3)
    assert game.state.phase == "over"
    assert game.result["reason"]
    assert set(game.result["points"]) == {"blue", "red"}
