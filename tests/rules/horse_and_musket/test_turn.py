"""The round and the player turn (turn.py): 1 and R16.7 (initiative with the army's modifier, ties re-rolled), R16.6
(rally, command, charges, other movement, firing, hand-to-hand, then the army-break check; the kernel phases holding
the steps), the steps passed at once when nothing could be done in them, and the end after the last round."""

from __future__ import annotations

import pytest

from server.rules import Game, IllegalCommand
from server.rules.horse_and_musket import turn
from server.rules.horse_and_musket.context import HMCtx
from server.rules.kernel.state import Status
from server.rules_cli import find_scenario

from .builder import Board, ctx_of, events_of


def _fresh(b: Board, dice: list[int]) -> tuple[Game, HMCtx]:
    g = b.game(step="rally", dice=dice)
    ctx = ctx_of(g)
    ctx.x.update(step="", order=[], player_turn=0, command=None)
    return g, ctx


def _board() -> Board:
    return Board().unit("b", "blue", "co", "0610").unit("r", "red", "co", "0603", facing="S")


def test_1_r16_7_initiative_ties_are_rerolled_and_the_higher_plays_first() -> None:
    g, ctx = _fresh(_board(), [3, 3, 2, 5, 4])
    turn.begin_round(ctx)
    assert ctx.x["order"] == ["red", "blue"] and g.state.active == "red"
    assert events_of(ctx.events, "initiative_tie")
    assert ctx.x["initiative"]["red"]["total"] == 5


def test_al_p_2_the_army_modifier_is_added() -> None:
    b = _board()
    b.data["sides"]["blue"]["initiative"] = 1
    _, ctx = _fresh(b, [4, 5, 4])  # 4 + 1 against 5: a tie, re-rolled
    with pytest.raises(AssertionError):  # the loaded dice run out: the tie was re-rolled
        turn.begin_round(ctx)
    _, ctx = _fresh(b, [5, 5, 4])
    turn.begin_round(ctx)
    assert ctx.x["order"][0] == "blue"


def test_r16_6_the_steps_in_order_each_in_its_kernel_phase() -> None:
    g, ctx = _fresh(_board(), [5, 1, 4, 4])
    turn.begin_round(ctx)
    seen = [(ctx.step, g.state.phase)]  # rally had nothing to do; command waits (the C-in-C has a group)
    assert seen == [("command", "recovery")]
    g.submit("blue", {"type": "end_step"})
    seen.append((ctx_of(g).step, g.state.phase))  # no charge possible: straight to the moves
    g.submit("blue", {"type": "end_step"})
    seen.append((ctx_of(g).step, g.state.phase))
    # firing had no target and hand-to-hand nothing: red's player turn, whose lone unit rolled alone (3.3), so no
    # general's roll waits for an Aide-de-camp and red is in its moves
    assert seen == [("command", "recovery"), ("moves", "movement"), ("moves", "movement")]
    assert g.state.active == "red" and ctx_of(g).x["command"]["groups"] == [
        {"general": None, "units": ["r"], "die": 4, "modifier": -1, "total": 3, "result": "half", "cards": 0,
         "allowed": 1}]


def test_r16_6_hand_to_hand_ends_by_itself_and_steps_end_only_by_the_active_side() -> None:
    g, ctx = _fresh(_board(), [5, 1, 4])
    turn.begin_round(ctx)
    with pytest.raises(IllegalCommand):
        g.submit("red", {"type": "end_step"})


def test_r16_18_the_battle_ends_after_the_last_round_on_points() -> None:
    b = _board().objective("0606", owner="red")
    g, ctx = _fresh(b, [])
    g.state.turn = g.scenario.turns
    ctx.x.update(player_turn=2, step="firing", order=["red", "blue"])
    g.state.phase = "combat"
    g.submit("blue", {"type": "end_step"})
    assert g.is_over and g.result is not None
    assert (g.result["winner"], g.result["points"]) == ("red", {"blue": 0, "red": 2})


def test_r16_18_a_broken_army_loses_at_the_end_of_the_player_turn() -> None:
    b = _board().unit("b2", "blue", "co", "0410").unit("b3", "blue", "co", "0810")
    g, ctx = _fresh(b, [])
    ctx.x.update(player_turn=1, step="firing", order=["blue", "red"])
    g.state.phase = "combat"
    for u in ("b", "b2"):  # 2 of 3 lost: at least half, rounded up
        ctx.set_status(u, Status.ELIMINATED)
    g.submit("blue", {"type": "end_step"})
    assert g.is_over and g.result is not None and g.result["winner"] == "red"
    assert "breaks" in g.result["reason"]


def test_r11_r16_7_h22_a_new_battle_rolls_no_die_until_its_first_command() -> None:
    sc = find_scenario("hm-hochdorf")
    g = Game.new(sc, "opening-seed-0000000000", contributions={})  # no seat has contributed yet
    assert (g.awaiting, g.state.extra["step"], g.state.dice_count) == ("prussian", "initiative", 0)
    g.contribute("prussian", "a" * 64)
    g.contribute("austrian", "b" * 64)
    events = g.submit("prussian", {"type": "end_step"})
    assert events_of(events, "initiative") and g.state.extra["order"][0] in sc.side_order
    assert g.state.dice_count > 0
