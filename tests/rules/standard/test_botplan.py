"""The bots' operational plan on a large Standard rules field (server/rules/standard/botplan.py, `Edition.bot_plan`;
issue 40, docs/bots.md "The Standard rules"): Königgrätz's Prussians march on 19.6's works and 2030 by the map's MP
costs, a Prussian unit in a works hex breaks 18.2 for the evaluation, and the battles on a small field have no plan
(their bots play as before)."""

from __future__ import annotations

import random

import pytest

from server.bots.evaluate import (
    W_MARCH,
    GroupScan,
    Pos,
    _static,
    eval_pos,
    evaluate,
    loss_points,
    plan_terms,
)
from server.rules import Game, find_ruleset
from server.rules.standard import botplan
from server.rules.standard.scenario import StandardScenario
from server.rules_cli import find_scenario

SEED = "koniggratz-botplan-seed-0000"
WORKS = {"2712", "2812", "2913", "3013", "3114", "3213", "3314", "3414", "3514", "3515", "3615", "3616", "3617",
         "3718", "3719", "3720", "3721", "3722", "3723"}  # 19.6 (S84), 18.2's no_enemy_in
UNIT = "p-14-g1"  # a group of the 14th Division (CF 7, MA 4), off the map until 17.4 brings it on


@pytest.fixture(scope="module")
def sc() -> StandardScenario:
    scenario: StandardScenario = find_scenario("koniggratz")
    return scenario


@pytest.fixture
def game(sc: StandardScenario) -> Game:
    """Austria set up on its printed hexes (17.2); Prussia's turn 1 movement, nothing of it on the map yet."""
    g = Game.new(sc, SEED)
    g.submit("austria", {"type": "place_printed"})
    g.submit("austria", {"type": "end_phase"})
    assert (g.state.turn, g.state.phase, g.awaiting) == (1, "movement", "prussia")
    return g


def _at(game: Game, hex_: str) -> float:
    s = game.state.units[UNIT]
    s.status, s.hex = "map", hex_
    return evaluate(game, "prussia")


def test_the_plan_is_koniggratz_prussians_and_no_small_battles() -> None:
    std = find_ruleset("standard")
    plan = std.bot_plan(find_scenario("koniggratz"))
    assert plan is not None and set(plan.march) == {"prussia"}  # Austria scores no hex: it holds
    assert set(plan.march["prussia"]) == {"infantry", "cavalry", "artillery"}
    assert [(s, set(h), p) for s, h, p in plan.breach] == [("prussia", WORKS, 10.0)]
    # the Swiepwald battle (20x15, its sides on average 13 MP or less from their objectives) and the tutorial
    assert std.bot_plan(find_scenario("standard-1866")) is None
    assert std.bot_plan(find_scenario("standard-tutorial")) is None


def test_march_costs_are_the_maps_mp_to_the_nearest_works_hex_or_2030(sc: StandardScenario) -> None:
    costs = botplan.march_costs(sc, "infantry", WORKS | {"2030"})
    assert all(costs[h] == 0 for h in WORKS | {"2030"})
    # 4.6: the chaussée from entry F (3601) to Sadowa, one MP a road hex
    assert [costs[h] for h in ("3601", "3602", "3603", "3604")] == [14, 13, 12, 11]
    # the plan charges nothing for the last MARCH_FREE MP
    plan = botplan.bot_plan(sc)
    assert plan is not None
    table = plan.march["prussia"]["infantry"]
    assert table["3601"] == costs["3601"] - botplan.MARCH_FREE and table["3712"] == costs["3712"] - botplan.MARCH_FREE == 1.0 and table["3013"] == 0.0
    # every Prussian start is on average beyond MARCH_FAR: the reason it has a plan
    starts = [costs[h] for h in botplan._starts(sc, "prussia")]
    assert sum(starts) / len(starts) > botplan.MARCH_FAR


def test_a_marching_prussian_unit_scores_better_toward_the_works_and_best_in_them(game: Game) -> None:
    static = _static(game)
    assert static.plan is not None
    road = [_at(game, h) for h in ("3601", "3602", "3603", "3604")]
    assert road == sorted(road) and len(set(road)) == 4  # each road hex nearer the works is worth more
    # the march term alone: W_MARCH for each turn of the unit's MA (4) nearer
    pos = Pos(game)
    u = pos.units[UNIT]
    u.hex = "3601"
    far = plan_terms(static, {"prussia": [u], "austria": []})["prussia"]
    u.hex = "3603"
    near = plan_terms(static, {"prussia": [u], "austria": []})["prussia"]
    assert near - far == pytest.approx(W_MARCH * 2 / 4)
    # 3013 is a works hex the printed set-up leaves empty: standing in it breaks 18.2 (the breach's 10 points);
    # beside it, outside the works, it is worth far less, for Prussia and (zero-sum) against Austria
    beside = _at(game, "3012")
    inside = _at(game, "3013")
    assert "3012" not in WORKS and inside - beside > 90
    assert evaluate(game, "austria") == pytest.approx(-inside)


def test_group_scan_adds_the_plans_terms_as_eval_pos_does(game: Game) -> None:
    """`GroupScan` (the Quick Play planners' incremental evaluation) keeps equal to `eval_pos` with a plan."""
    s = game.state.units[UNIT]
    s.status, s.hex = "map", "3601"
    pos, losses = Pos(game), loss_points(game)
    scan = GroupScan(game, pos, "prussia", losses, [UNIT])
    for dest in ("3601", "3603", "3712", "3013", "2030"):
        pos.units[UNIT].hex = dest
        full = eval_pos(game, pos, "prussia", losses)
        pos.units[UNIT].hex = "3601"
        assert scan.value(dest) == pytest.approx(full, abs=1e-9), dest


def test_a_large_armys_commands_are_offered_group_by_group_in_turn(game: Game) -> None:
    """legal.LARGE_ARMY: with every Prussian unit due on turn 1 the army lists about 300 commands (two declarations a
    group: 12.1's roll while its HQ is off the map), far more than a limit of 100 (the bots' is 400, which an army
    of 40 groups on the map passes at 16 moves a group); the families are shuffled, so successive listings offer
    different groups and, together, nearly all of them (in the fixed order the same first groups filled every
    listing and the rest were never offered)."""
    for uid in game.scenario.side_units["prussia"]:
        s = game.state.units[uid]
        if s.status == "offboard":
            s.entry_turn = 1
    offered: list[set[str]] = []
    for k in range(12):
        cmds = list(game.legal_commands("prussia", random.Random(k), 100))
        assert len(cmds) == 100
        offered.append({u for c in cmds for u in c.get("units", ())})
    due = {u for u in game.scenario.side_units["prussia"] if game.state.units[u].status == "offboard"}
    assert len(offered[0]) < len(due) / 2  # one listing reaches a minority of the army
    assert offered[0] != offered[1]
    assert len(set().union(*offered) & due) > 0.9 * len(due)


def test_on_a_spent_clock_the_generic_ply_still_looks_for_a_gain(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """greedy._generic: the clock bounds the search for the best command, not for any gain. With the clock always
    past, Prussia's turn 1 (its arrivals due, each a gain of the march) is still a move, never the phase's end."""
    from server.bots import greedy

    ticks = iter(range(10**9))
    monkeypatch.setattr(greedy.time, "perf_counter", lambda: float(next(ticks)) * 1000.0)
    bot = greedy.GreedyBot()
    for k in range(6):
        cmd = bot.choose(game, "prussia", random.Random(k), 0.001)
        assert cmd["type"] in ("move", "declare"), cmd


def test_only_the_large_field_weighs_commands_by_expectation() -> None:
    """`Edition.bot_expects`: the Standard rules' bots play an attack on through its follow-up decisions only on a
    battle with a march plan (Königgrätz); the Swiepwald battle and the tutorial keep one imagined roll (their pinned
    games unchanged)."""
    std = find_ruleset("standard")
    assert std.bot_expects(find_scenario("koniggratz"))
    assert not std.bot_expects(find_scenario("standard-1866"))
    assert not std.bot_expects(find_scenario("standard-tutorial"))
    assert {"tactic", "retreat", "advance"} <= std.bot_follow_up


def test_an_attack_on_the_works_is_valued_through_the_tactic_the_roll_and_the_advance(game: Game) -> None:
    """7.13's tactic is the defender's decision before the roll (7.3), so one imagined roll of an attack sees nothing
    (the ply's old value: 0, and greedy never attacked); played on through the tactic, the combat and 7.9/7.12's
    retreat and advance, two groups of the 14th Division attacking X Corps' battery alone in works hex 2712 gain, the
    advance after a won combat putting them in the works (18.2 broken), and greedy attacks."""
    from server.bots import greedy

    for uid, hex_ in ((UNIT, "2711"), ("p-14-g2", "2611")):
        s = game.state.units[uid]
        s.status, s.hex = "map", hex_
    game.submit("prussia", {"type": "end_phase"})
    assert (game.state.phase, game.awaiting) == ("combat", "prussia")
    attack = {"type": "attack", "target": "2712", "attackers": ["p-14-g2", UNIT], "primary": "p-14-g2"}
    base = evaluate(game, "prussia")
    bot = greedy.GreedyBot()
    assert greedy._tried(game, "prussia", attack, random.Random(1), 1) == pytest.approx(base)
    value = bot.expected_value(game, "prussia", attack, random.Random(1))
    assert value is not None and value - base > 10 * greedy.MIN_ATTACK_GAIN
    advanced = []
    for face in range(1, 7):
        dice = greedy.ScriptedDice([face], game.state.dice_count, random.Random(face), 6)
        after = bot._played(game, "prussia", attack, dice, random.Random(face))
        assert after is not None
        advanced += [face for u in (UNIT, "p-14-g2") if after.state.units[u].hex == "2712"]
    assert advanced  # the defender retreated on some face and the attackers advanced into the works (7.12)
    cmd = bot.choose(game, "prussia", random.Random(5), 3600.0)
    assert cmd["type"] == "attack" and cmd["target"] == "2712", cmd
