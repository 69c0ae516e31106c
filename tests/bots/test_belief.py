"""Issue 15: a bot is a seat, not a cheat. It plays through a belief game built from what its side may
see (views.py's hidden information: the seed, the enemy's hidden reinforcements and their schedule,
the fate of its eliminated units' step recovery (11.4), its unfinished 'w/1' placements (3.2))."""

from __future__ import annotations

import copy
import json
import random

import pytest

from server.bots import belief_game, make_bot
from server.bots.belief import belief_state_json
from server.rules import Game, parse_scenario
from server.rules.kernel.randomplayer import RandomPlayer
from server.rules_cli import find_scenario

BIG_BUDGET = 60.0  # never cut short by the clock: the choices below must be deterministic


@pytest.fixture(scope="module")
def tutorial():
    return find_scenario("tutorial")


def _hidden_variant(sc):
    """The tutorial with Red's hidden reinforcement changed: later, elsewhere and much stronger."""
    raw = copy.deepcopy(sc.raw)
    for r in raw["reinforcements"]:
        if r["unit"] == "r-2":
            r["turn"], r["hex"] = 5, "1202"
    for u in raw["units"]:
        if u["id"] == "r-2":
            u["full"] = {"attack": 9, "defense": 9, "mr": 6, "ma": 6}
            u["name"] = "Guard Brigade"
    return parse_scenario(raw, "tutorial-variant")


def _hidden_ids(game, side):
    """Enemy units `side` may not see now (their view leaves them out)."""
    return {u for u in game.scenario.units if u not in game.view(side)["units"]}


def test_views_hidden_reinforcements_belief_shows_what_the_view_shows(tutorial):
    """The belief game is faithful: its view for the side equals the real view, over a whole random game."""
    game = Game.new(tutorial, "real-seed-0123456789abcdef")
    rng = random.Random(5)
    player = RandomPlayer(rng)
    checked = 0
    while not game.is_over:
        side = game.awaiting
        real = game.view(side)
        mine = belief_game(game, side, random.Random(1)).view(side)
        for key in ("turn", "phase", "active", "awaiting", "prompt", "control", "points", "squares", "replacements",
                    "dice_rolled", "combat"):
            assert mine[key] == real[key], key
        strip = lambda us: {u: {k: v for k, v in d.items() if k != "placement_hidden"} for u, d in us.items()}
        assert strip(mine["units"]) == strip(real["units"])
        checked += 1
        game.submit(side, player.choose(game, side))
    assert checked > 50


def test_views_hidden_reinforcements_belief_holds_no_seed_and_no_hidden_unit(tutorial):
    seed = "the-real-secret-seed-" + "7" * 20
    game = Game.new(tutorial, seed)
    rng = random.Random(11)
    player = RandomPlayer(rng)
    saw_hidden = 0
    while not game.is_over and game.state.turn <= 4:
        side = game.awaiting
        hidden = _hidden_ids(game, side)
        belief = belief_game(game, side, random.Random(3))
        text = json.dumps(belief.to_json()) + json.dumps(belief.scenario.raw)
        assert seed not in text
        for uid in hidden:
            assert uid not in belief.scenario.units
            assert f'"{uid}"' not in text, uid
            saw_hidden += 1
        game.submit(side, player.choose(game, side))
    assert saw_hidden > 0  # Red's brigade was hidden from Blue for a while (and Blue's from Red)


def _drive_and_compare(games, seat, stop):
    """Play the same commands in every game (each side's bot chooses on the first game) and check that
    `seat`'s bot sees the same belief and makes the same choice in all of them, until `stop(game)`."""
    bots = {s: make_bot("greedy") for s in games[0].scenario.side_order}
    compared = 0
    step = 0
    while not games[0].is_over and not stop(games[0]):
        side = games[0].awaiting
        assert all(g.awaiting == side for g in games)
        step += 1
        if side == seat:
            states = [belief_state_json(g, side)[0] for g in games]
            assert all(s == states[0] for s in states), f"belief differs at step {step}"
            cmds = [bots[side].choose(belief_game(g, side, random.Random(step)), side, random.Random(step), BIG_BUDGET)
                    for g in games]
            assert all(c == cmds[0] for c in cmds), f"choice differs at step {step}: {cmds}"
            compared += 1
            cmd = cmds[0]
        else:
            cmd = bots[side].choose(belief_game(games[0], side, random.Random(step)), side, random.Random(step), BIG_BUDGET)
        for g in games:
            g.submit(side, cmd)
    return compared


def test_views_greedy_bot_choice_does_not_depend_on_the_enemys_hidden_reinforcements(tutorial):
    """Same seed, same commands; Red's hidden brigade differs in strength, entry turn and entry hex: Blue's
    bot sees the same belief and makes the same choices, dice and combats included, for two turns."""
    a = Game.new(tutorial, "shared-seed-0123456789abcdef")
    b = Game.new(_hidden_variant(tutorial), "shared-seed-0123456789abcdef")
    compared = _drive_and_compare([a, b], "blue", lambda g: g.state.turn >= 3)
    assert compared >= 5
    assert a.state.dice_count > 0  # the comparison ran through rolled dice


def test_r11_greedy_bot_choice_does_not_depend_on_the_seed(tutorial):
    """Different seeds (so different future dice): identical beliefs and choices until a die is rolled."""
    a = Game.new(tutorial, "first-seed-0123456789abcdef")
    b = Game.new(tutorial, "other-seed-fedcba9876543210")
    compared = _drive_and_compare([a, b], "blue", lambda g: g.state.dice_count > 0)
    compared += _drive_and_compare([Game.new(tutorial, "first-seed-0123456789abcdef"),
                                    Game.new(tutorial, "other-seed-fedcba9876543210")], "red",
                                   lambda g: g.state.dice_count > 0)
    assert compared >= 3


def test_standard_rules_belief_game_keeps_the_editions_bookkeeping_and_its_legal_commands():
    """The Standard rules keep their procedure state (inactive HQs, declared moves and charges, fortunes of war owed)
    in `GameState.extra`; the belief game must carry it, or the bot would judge moves by the wrong rules (12.1:
    an inactive HQ makes every move of its army roll its MA first, 4.4) and send commands the referee refuses."""
    sc = find_scenario("standard-tutorial")
    game = Game.new(sc, "real-seed-0123456789abcdef")
    rng = random.Random(7)
    player = RandomPlayer(rng)
    checked = 0
    while not game.is_over and checked < 150:
        side = game.awaiting
        belief = belief_game(game, side, random.Random(1))
        assert belief.state.extra == game.state.extra
        assert belief.view(side)["standard"] == game.view(side)["standard"]
        want = list(game.legal_commands(side, random.Random(3), 200))
        assert list(belief.legal_commands(side, random.Random(3), 200)) == want
        game.submit(side, player.choose(game, side))
        checked += 1
    assert checked == 150 or game.is_over
