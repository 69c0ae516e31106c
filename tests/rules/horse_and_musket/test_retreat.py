"""Retreats and retirements (retreat.py): 6.8, 6.9, 4.1.5, 4.2.8, RC.3b, RC.4 and R16.17: facing the winner then
straight back a full move, friends passed through at a hit each, destroyed by an enemy, the edge or forbidden ground,
stopped before a river or a fieldwork, generals along."""

from __future__ import annotations

from server.rules.horse_and_musket.context import HMCtx
from server.rules.horse_and_musket.retreat import fall_back

from .builder import Board, ctx_of, step

U = "0606"


def _ctx(b: Board) -> HMCtx:
    return ctx_of(b.game(step="melee"))


def test_6_8_r16_20_44_a_loser_beaten_on_its_flank_turns_to_face_the_winner_then_goes_straight_back() -> None:
    winner = step(U, "SE")
    ctx = _ctx(Board().unit("u", "blue", "co", U).unit("w", "red", "co", winner, facing="NW"))
    assert fall_back(ctx, "u", winner, "6.8") == step(U, "NW", "NW")
    assert ctx.facing("u") == "SE"


def test_4_1_5_a_retirement_keeps_the_facing() -> None:
    ctx = _ctx(Board().unit("u", "blue", "hc", U))
    assert fall_back(ctx, "u", None, "4.1.5") == step(U, "S", "S", "S", "S", "S")
    assert ctx.facing("u") == "N"


def test_r16_17_difficult_going_within_the_good_rate_shortens_the_whole_retreat() -> None:
    ctx = _ctx(Board().unit("u", "blue", "li", U).terrain(step(U, "S", "S", "S"), "crops"))
    assert fall_back(ctx, "u", None, "4.1.5") == step(U, "S", "S")


def test_4_2_8_6_9_friends_in_the_way_are_passed_through_at_a_hit_each() -> None:
    b = Board().unit("u", "blue", "co", U).unit("f1", "blue", "co", step(U, "S")).unit("f2", "blue", "co",
                                                                                      step(U, "S", "S"))
    ctx = _ctx(b)
    assert fall_back(ctx, "u", None, "4.1.5") == step(U, "S", "S", "S")  # on past the last friend
    assert (ctx.hits("u"), ctx.hits("f1"), ctx.hits("f2")) == (2, 1, 1)


def test_rc_4_6_9_an_enemy_the_edge_or_forbidden_ground_destroys_the_unit() -> None:
    ctx = _ctx(Board().unit("u", "blue", "co", U).unit("e", "red", "co", step(U, "S", "S"), facing="N"))
    assert fall_back(ctx, "u", None, "4.1.5") is None and ctx.st.units["u"].status == "eliminated"
    ctx = _ctx(Board().unit("u", "blue", "co", "0611"))
    assert fall_back(ctx, "u", None, "4.1.5") is None
    ctx = _ctx(Board().unit("u", "blue", "hc", U).terrain(step(U, "S", "S"), "town"))
    assert fall_back(ctx, "u", None, "4.1.5") is None


def test_r16_17_a_river_or_fieldwork_stops_the_retreat_before_it_unless_a_friend_is_there() -> None:
    ctx = _ctx(Board().unit("u", "blue", "hc", U).terrain(step(U, "S", "S"), "river"))
    assert fall_back(ctx, "u", None, "4.1.5") == step(U, "S")
    b = Board().unit("u", "blue", "hc", U).fieldwork(step(U, "S", "S")).unit("f", "blue", "co", step(U, "S"))
    ctx = _ctx(b)
    assert fall_back(ctx, "u", None, "4.1.5") is None


def test_r16_3_r16_17_attached_generals_go_with_the_unit() -> None:
    ctx = _ctx(Board().unit("u", "blue", "co", U).general("g", "blue", U))
    fall_back(ctx, "u", None, "4.1.5")
    assert ctx.hex_of("g") == ctx.hex_of("u") == step(U, "S", "S")
