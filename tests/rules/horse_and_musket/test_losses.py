"""Hits and their end (losses.py): 5.1.9, 5.2.5, 6.5, 7 and R16.15 (staggered at 6, the count restarting with the
excess, routed at 6 more), generals' casualties (5.6, 6.11), a lone general meeting the enemy (R16.3)."""

from __future__ import annotations

import pytest

from server.rules.horse_and_musket.losses import apply_hits, entered, general_casualties

from .builder import Board, ctx_of, events_of


@pytest.mark.parametrize(("start", "staggered", "hits", "after", "now_staggered", "status"), [
    (3, False, 2, 5, False, "map"), (5, False, 2, 1, True, "map"), (0, False, 10, 4, True, "map"),
    (0, False, 12, 0, True, "eliminated"), (4, True, 2, 0, True, "eliminated"), (4, True, 1, 5, True, "map")])
def test_5_1_9_r16_15_r16_20_34_hits_stagger_and_rout(start: int, staggered: bool, hits: int, after: int,
                                                        now_staggered: bool, status: str) -> None:
    ctx = ctx_of(Board().unit("u", "blue", "co", "0606").game(hits={"u": start},
                                                             staggered=("u",) if staggered else ()))
    apply_hits(ctx, "u", hits, "5.1.4")
    assert (ctx.hits("u"), ctx.staggered("u"), ctx.st.units["u"].status) == (after, now_staggered, status)


@pytest.mark.parametrize(("hits", "die", "lost"), [(2, 6, False), (3, 5, False), (3, 6, True)])
def test_5_6_6_11_r16_15_three_hits_and_a_six_remove_an_attached_general(hits: int, die: int, lost: bool) -> None:
    ctx = ctx_of(Board().general("g", "blue", "0606").game(dice=[die]))
    general_casualties(ctx, ["g"], hits, "5.6")
    assert (ctx.st.units["g"].status == "dead") is lost


def test_r16_3_only_the_enemys_lone_generals_move_away() -> None:
    b = Board().general("own", "blue", "0605").general("foe", "red", "0606").unit("f", "red", "co", "0603",
                                                                                  facing="S")
    b.unit("u", "blue", "co", "0607")
    ctx = ctx_of(b.game())
    entered(ctx, "u", "0605")
    entered(ctx, "u", "0606")
    assert (ctx.hex_of("own"), ctx.hex_of("foe")) == ("0605", "0603")
    assert [e["unit"] for e in events_of(ctx.events, "general_flees")] == ["foe"]
