"""Recovery (11.3, 11.4, R10): the order, automatic recovery, morale-check recovery, step recovery and
the return of eliminated units."""

from __future__ import annotations

import pytest
from position import Position, dice_left, unit

from server.rules import IllegalCommand


def end(game, side="blue"):
    return game.submit(side, {"type": "end_phase"})


def recovery_game(extra, dice=None, turn=1, replacements=0):
    pos = Position()
    if replacements:
        pos.replacements("blue", replacements, return_hexes=["0104"])
    extra(pos)
    return pos.game(phase="movement", dice=list(dice or []), turn=turn)


def test_11_3_a_unit_that_did_not_move_and_is_two_hexes_from_the_enemy_recovers_automatically() -> None:
    game = recovery_game(lambda p: (p.unit("b1", "blue", hex="0204", disrupted=True),
                                    p.unit("bn", "blue", "battalion", hex="0205", ineffective=True),
                                    p.unit("r1", "red", hex="0404")))
    end(game)  # movement -> recovery; nothing for step recovery, so the phase runs and ends at once
    assert game.state.phase == "combat"
    assert not unit(game, "b1").disrupted and not unit(game, "bn").ineffective
    assert dice_left(game) == 0


def test_11_3_a_unit_next_to_an_enemy_does_not_recover() -> None:
    game = recovery_game(lambda p: (p.unit("b1", "blue", hex="0204", disrupted=True), p.unit("r1", "red", hex="0304")))
    end(game)
    assert unit(game, "b1").disrupted


@pytest.mark.parametrize("die,recovers", [(2, True), (3, False), (1, True)])
def test_11_3_a_unit_that_moved_outside_ezoc_recovers_on_a_morale_check(die, recovers) -> None:
    # mr 4, disrupted: checks at 2 (11.1(2))
    game = recovery_game(lambda p: (p.unit("b1", "blue", hex="0204", disrupted=True, mr=4),
                                    p.unit("r1", "red", hex="0804")), dice=[die])
    game.submit("blue", {"type": "move", "units": ["b1"], "path": ["0204", "0205"]})
    end(game)
    assert dice_left(game) == 0
    assert unit(game, "b1").disrupted is not recovers


def test_10_0_5_a_leader_adds_its_morale_to_a_recovery_check() -> None:
    def extra(p):
        p.unit("b1", "blue", hex="0204", disrupted=True, mr=4)
        p.leader("bl", "blue", hex="0204", morale=1)
        p.unit("r1", "red", hex="0804")
    game = recovery_game(extra, dice=[3])
    game.submit("blue", {"type": "move", "units": ["b1", "bl"], "path": ["0204", "0205"]})
    end(game)
    assert not unit(game, "b1").disrupted  # 3 against 2 + 1


def test_11_3_a_unit_that_started_its_move_in_an_ezoc_does_not_recover() -> None:
    game = recovery_game(lambda p: (p.unit("b1", "blue", hex="0504", disrupted=True), p.unit("r1", "red", hex="0604")))
    game.submit("blue", {"type": "move", "units": ["b1"], "path": ["0504", "0404"]})
    events = end(game)
    assert unit(game, "b1").disrupted and "dice" not in [e["type"] for e in events]


def test_r10_order_disrupted_then_ineffective_then_leaders() -> None:
    def extra(p):
        p.leader("bl", "blue", hex="0104", ineffective=True)
        p.unit("bn", "blue", "battalion", hex="0102", ineffective=True)
        p.unit("b1", "blue", hex="0108", disrupted=True)
        p.unit("r1", "red", hex="1004")
    game = recovery_game(extra)
    events = end(game)
    order = [e["unit"] for e in events if e["type"] == "recovered"]
    assert order == ["b1", "bn", "bl"]


def test_r10_a_reinforcement_that_entered_counts_as_moved() -> None:
    def extra(p):
        p.unit("rf", "blue", hex=None, turn=1, entry="0104")
        p.unit("r1", "red", hex="1004")
    game = recovery_game(extra, dice=[6])
    game.submit("blue", {"type": "move", "units": ["rf"], "path": ["0104"]})
    game.state.units["rf"].disrupted = True
    end(game)
    assert unit(game, "rf").disrupted and dice_left(game) == 0


# --- 11.4 step recovery ----------------------------------------------------------------------------------
def step_game(dice, extra=None, replacements=1, turn=1):
    def build(p):
        p.unit("b1", "blue", hex="0204", reduced=True, mr=4)  # reduced mr 3
        p.unit("r1", "red", hex="0804")
        if extra:
            extra(p)
    game = recovery_game(build, dice=dice, replacements=replacements, turn=turn)
    end(game)  # into the recovery phase: step recovery is possible, so it waits
    assert game.state.phase == "recovery"
    return game


def test_11_4_a_reduced_unit_recovers_its_step_on_a_passed_check_spending_a_replacement() -> None:
    game = step_game([3])
    game.submit("blue", {"type": "recover", "unit": "b1"})
    assert not unit(game, "b1").reduced
    assert game.state.replacements["blue"] == 0
    assert game.state.phase == "combat"  # nothing more to do: the phase ends itself


def test_11_4_a_failed_step_recovery_still_spends_the_replacement() -> None:
    game = step_game([4], replacements=2)
    game.submit("blue", {"type": "recover", "unit": "b1"})
    assert unit(game, "b1").reduced and game.state.replacements["blue"] == 1
    with pytest.raises(IllegalCommand):  # once per phase
        game.submit("blue", {"type": "recover", "unit": "b1"})


def test_11_4_step_recovery_needs_a_replacement_step() -> None:
    game = recovery_game(lambda p: (p.unit("b1", "blue", hex="0204", reduced=True), p.unit("r1", "red", hex="0804")))
    end(game)
    assert game.state.phase == "combat"  # no replacements: no step recovery possible
    assert unit(game, "b1").reduced


def test_11_4_a_unit_that_moved_or_is_next_to_the_enemy_may_not_recover_a_step() -> None:
    game = step_game([], extra=lambda p: (p.unit("b2", "blue", hex="0206", reduced=True),
                                          p.unit("r2", "red", hex="0306")))
    with pytest.raises(IllegalCommand) as exc:
        game.submit("blue", {"type": "recover", "unit": "b2"})
    assert exc.value.rule == "11.4"
    pos_game = recovery_game(lambda p: (p.unit("b1", "blue", hex="0204", reduced=True), p.unit("r1", "red", hex="0804")),
                             replacements=1)
    pos_game.submit("blue", {"type": "move", "units": ["b1"], "path": ["0204", "0205"]})
    end(pos_game)
    assert pos_game.state.phase == "combat" and unit(pos_game, "b1").reduced


def test_11_4_a_full_strength_unit_has_nothing_to_recover() -> None:
    game = step_game([], extra=lambda p: p.unit("b2", "blue", hex="0206"))
    with pytest.raises(IllegalCommand):
        game.submit("blue", {"type": "recover", "unit": "b2"})


def test_11_4_step_recovery_comes_before_disruption_recovery() -> None:
    game = step_game([3], extra=lambda p: p.unit("b2", "blue", hex="0206", disrupted=True))
    events = game.submit("blue", {"type": "recover", "unit": "b1"})
    kinds = [(e["type"], e.get("unit")) for e in events if e["type"] in ("recovered_step", "recovered")]
    assert kinds == [("recovered_step", "b1"), ("recovered", "b2")]


# --- eliminated units returning ------------------------------------------------------------------------------
def eliminated_game(dice, turn=1, turns=8, status="eliminated"):
    pos = Position(turns=turns)
    pos.replacements("blue", 1, return_hexes=["0104"])
    pos.unit("b1", "blue", hex="0204", mr=4)  # reduced mr 3
    pos.unit("b9", "blue", hex="0208")
    pos.unit("r1", "red", hex="0804")
    game = pos.game(phase="recovery", dice=dice, turn=turn)
    game.state.units["b1"].status = status
    game.state.units["b1"].hex = None
    return game


def test_11_4_an_eliminated_unit_returns_die_roll_turns_later_at_reduced_strength() -> None:
    game = eliminated_game([3])
    events = game.submit("blue", {"type": "recover", "unit": "b1"})
    b1 = unit(game, "b1")
    assert (b1.status, b1.entry_turn, b1.entry_hex, b1.reduced) == ("returning", 4, "0104", True)
    assert game.state.replacements["blue"] == 0
    assert any(e["type"] == "returns" for e in events)
    # it enters like a reinforcement on turn 4, not before
    later = eliminated_game([3])
    later.submit("blue", {"type": "recover", "unit": "b1"})
    later.state.turn = 4
    later.state.phase = "movement"
    later.submit("blue", {"type": "move", "units": ["b1"], "path": ["0104", "0204"]})
    assert unit(later, "b1").status == "map" and unit(later, "b1").hex == "0204"


def test_11_4_a_failed_return_check_removes_the_unit_for_good() -> None:
    game = eliminated_game([4])  # reduced mr 3
    game.submit("blue", {"type": "recover", "unit": "b1"})
    assert unit(game, "b1").status == "dead" and game.state.replacements["blue"] == 0


def test_11_4_a_unit_that_would_return_after_the_last_turn_is_lost() -> None:
    game = eliminated_game([3], turn=6, turns=8)
    game.submit("blue", {"type": "recover", "unit": "b1"})
    assert unit(game, "b1").status == "dead"
    game = eliminated_game([2], turn=6, turns=8)
    game.submit("blue", {"type": "recover", "unit": "b1"})
    assert unit(game, "b1").status == "returning" and unit(game, "b1").entry_turn == 8


def test_11_4_a_captured_unit_never_returns() -> None:
    game = eliminated_game([], status="captured")
    with pytest.raises(IllegalCommand) as exc:
        game.submit("blue", {"type": "recover", "unit": "b1"})
    assert exc.value.rule == "11.4"
    assert unit(game, "b1").status == "captured" and game.state.replacements["blue"] == 1


def test_11_4_recovery_possible_agrees_with_asking_every_unit_in_positions_of_random_play() -> None:
    # recovery_possible passes over units that cannot recover before asking recover_problem (issue 16);
    # it must answer as asking every unit would.
    from position import random_play_contexts

    from server.rules.quickplay.phases import recover_problem, recovery_possible

    asked = possible = 0
    for ctx in random_play_contexts():
        for side in ctx.sc.side_order:
            plain = any(recover_problem(ctx, side, uid) is None
                        for uid in ctx.sc.side_units[side] if not ctx.is_leader(uid))
            assert recovery_possible(ctx, side) == plain
            asked += 1
            possible += plain
    assert asked > 1000 and possible > 0  # the positions include some where a unit can recover
