"""Fortunes of war (seed 002 12.4): owed by DF, a Dm rout, an attacked HQ or trains and a missing second step, and
played at once by their receiver when the combat ends — also inside the other player's combat phase."""

from __future__ import annotations

from server.rules import Game

from .builder import unit
from .fight import add_infantry, combat, decision, flag, ground
from .play import choose, load, submit

ATTACK = {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1"}


def test_12_4_a_dm_rout_gives_the_attacker_a_fortune_of_war_played_when_the_combat_ends() -> None:
    data = ground()
    unit(data, "r-1", "0704", side="red", kind="infantry", formation="7", full={"cf": 1, "mr": 4, "ma": 4},
         reduced={"cf": 1, "mr": 3, "ma": 4})
    add_infantry(data, "r-2", "0906", formation="7", side="red")
    game = combat(data, [6, 6])  # +5: die 6 = Dm(Dx); the morale die fails: rout
    submit(game, "blue", ATTACK)
    choose(game, "red", decision(game)["options"][0]["id"])  # the rout's path
    choose(game, "blue", "stay")  # no advance
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"]) == ("fortune", "blue", "12.4") and d["fow"]["rule"] == "7.8"
    ids = {o["id"] for o in d["options"]}
    assert {"pass", "morale:r-2"} <= ids and "morale:r-1" not in ids  # r-1 is disrupted by its rout
    load(game, [6])
    choose(game, "blue", "morale:r-2")
    assert game.state.units["r-2"].disrupted  # 12.4: the enemy unit fails and is disrupted
    assert game.state.extra["fow_owed"][0]["played"] == "morale:r-2" and game.state.decision is None


def test_12_4_df_the_defender_plays_its_fortune_inside_the_attackers_combat_phase() -> None:
    data = ground()
    add_infantry(data, "r-1", "0704", formation="7", side="red", full={"cf": 11, "mr": 4, "ma": 4})
    add_infantry(data, "r-3", "0906", formation="7", side="red")
    flag(data, "r-3", disrupted=True)
    game = combat(data, [2, 1])  # 6 - 11 = -5: die 2 = Ax DF; b-1 passes
    submit(game, "blue", ATTACK)
    choose(game, "blue", "step_loss")
    d = decision(game)
    assert (d["kind"], d["side"]) == ("fortune", "red") and game.state.active == "blue"
    assert "recover:r-3" in {o["id"] for o in d["options"]}
    load(game, [1])
    choose(game, "red", "recover:r-3")
    assert not game.state.units["r-3"].disrupted and game.awaiting == "blue"  # the phase resumes


def test_12_1_an_attacked_hq_gives_two_fortunes_of_war_played_in_turn() -> None:
    data = ground()
    data["setup"] = [dict(s, hex="0704") if s["unit"] == "r-hq" else s for s in data["setup"]]
    game = combat(data, [2, 1])  # +1: die 2 = Ac(NE): passed, NE
    submit(game, "blue", ATTACK)
    for _ in range(2):
        d = decision(game)
        assert (d["kind"], d["side"], d["fow"]["rule"]) == ("fortune", "blue", "12.1")
        choose(game, "blue", "pass")
    assert game.state.decision is None


def _dm_rout_fortune() -> Game:
    data = ground()
    unit(data, "r-1", "0704", side="red", kind="infantry", formation="7", full={"cf": 1, "mr": 4, "ma": 4},
         reduced={"cf": 1, "mr": 3, "ma": 4})
    add_infantry(data, "r-2", "0906", formation="7", side="red")
    game = combat(data, [6, 6])
    submit(game, "blue", ATTACK)
    choose(game, "red", decision(game)["options"][0]["id"])
    choose(game, "blue", "stay")
    assert decision(game)["kind"] == "fortune"
    return game


def test_12_4_move_an_enemy_unit_on_a_1_or_2_with_a_rolled_ma() -> None:
    game = _dm_rout_fortune()
    load(game, [3])
    choose(game, "blue", "enemy_move:r-2")  # die 3: no move
    assert game.state.units["r-2"].hex == "0906" and game.state.decision is None
    game = _dm_rout_fortune()
    load(game, [2, 2])  # die 2: moved; its MA die 2
    choose(game, "blue", "enemy_move:r-2")
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"]) == ("fow_move", "blue", "12.4") and "2 MP" in d["text"]
    far = next(o for o in d["options"] if o["hex"] and len(o["path"]) == 3)
    choose(game, "blue", far["id"])
    assert game.state.units["r-2"].hex == far["hex"]


def test_12_4_move_a_friendly_stack_with_the_slowest_units_rolled_ma() -> None:
    game = _dm_rout_fortune()
    load(game, [1])
    choose(game, "blue", f"friendly_move:{game.state.units['b-1'].hex}")
    d = decision(game)
    assert d["kind"] == "fow_move" and "1 MP" in d["text"]
    assert all(len(o["path"]) <= 2 for o in d["options"])
