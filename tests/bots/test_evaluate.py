"""Issue 15: `GroupScan` (server/bots/evaluate.py) scores a group's counters at each reachable hex
incrementally; its values must be `eval_pos`'s (the same terms of the evaluation: objectives and their
control as 14.0 updates it, the CRT-shaped threat of R6, over-stacking (5.0, R4)) up to floating-point
rounding, in the movement phases of a random game of every shipped Quick Play scenario."""

from __future__ import annotations

import random

import pytest

from server.bots import belief_game, make_bot
from server.bots.evaluate import GroupScan, Pos, eval_pos, loss_points
from server.bots.greedy import GreedyBot
from server.bots.search import _place_arrivals
from server.rules import Game
from server.rules_cli import find_scenario

ROUNDING = 1e-9  # values are a few hundred to a few thousand; the terms differ only in summation order


def _compare_scans(game: Game, side: str) -> int:
    """Every group of `side` at every hex it can reach: GroupScan against eval_pos; the number compared."""
    groups = GreedyBot()._groups(game, side)
    pos = Pos(game)
    _place_arrivals(game, side, groups, pos)
    losses = loss_points(game)
    compared = 0
    for group in groups:
        reach = game.options(side, group).get("reachable") or {}
        if not reach:
            continue
        scan = GroupScan(game, pos, side, losses, group)
        start = {u: pos.units[u].hex for u in group}
        for dest in reach:
            fast = scan.value(dest)
            for u in group:
                pos.units[u].hex = dest
            full = eval_pos(game, pos, side, losses)
            for u in group:
                pos.units[u].hex = start[u]
            assert fast == pytest.approx(full, abs=ROUNDING), (group, dest)
            compared += 1
        # the scan leaves the position as it found it
        assert {u: pos.units[u].hex for u in group} == start
    return compared


@pytest.mark.parametrize("scenario", ["tutorial", "salem-church", "hougoumont"])
def test_group_scan_equals_eval_pos_through_a_random_game(scenario: str) -> None:
    sc = find_scenario(scenario)
    game = Game.new(sc, f"group-scan-{scenario}-0123456789")
    bots = {s: make_bot("random") for s in sc.side_order}
    rng = random.Random(11)
    compared = 0
    commands = 0
    while not game.is_over and commands < 400:
        side = game.awaiting
        assert side is not None
        st = game.state
        if st.phase == "movement" and st.decision is None and commands % 5 == 0:
            compared += _compare_scans(game, side)
        game.submit(side, bots[side].choose(belief_game(game, side, rng), side, rng, 3600))
        commands += 1
    assert compared > 30  # the game really reached movement phases with groups to scan
