"""The edition object (ruleset.py): the hooks the kernel and the bots call. The view's `horse-and-musket` block
(R16.19), one unit to a hex (R16.3) for the bots' stacking check, and the bots' weights (heuristics, never rules):
hits as twelfths of a lost unit, the combats a declared charge will bring, the ground around the objectives."""

from __future__ import annotations

import pytest

from server.rules import find_ruleset
from server.rules.horse_and_musket.tables import Kind

from .builder import Board, ctx_of, step

C = "0608"
T = step(C, "N", "N", "N")


def test_r16_19_each_unit_carries_facing_formation_hits_staggered_moved_fired() -> None:
    g = Board().unit("b", "blue", "co", C).unit("r", "red", "hc", T, facing="S").game(hits={"b": 2}, moved=("b",))
    block = g.view("red")["horse-and-musket"]
    assert block["units"]["b"] == {"facing": "N", "formation": "line", "hits": 2, "staggered": False, "moved": True,
                                   "fired": False}
    assert (block["step"], block["order"], block["break_at"]) == ("moves", ["blue", "red"], {"blue": 1, "red": 1})
    assert "cards" not in block  # the hands are the kernel's view filter's (kernel/cards.py)


def test_r16_3_one_unit_to_a_hex_any_number_of_generals() -> None:
    edition = find_ruleset("horse-and-musket")
    assert edition.stacking_ok([Kind.CO, Kind.GENERAL, Kind.GENERAL])
    assert not edition.stacking_ok([Kind.CO, Kind.HC])


def test_the_bots_weigh_hits_and_the_charges_declared() -> None:
    b = Board().unit("c", "blue", "hc", C).unit("t", "red", "co", T, facing="S")
    g = b.game(step="charges", hits={"t": 3})
    edition = find_ruleset("horse-and-musket")
    before = edition.bot_loss_points(g)
    unhit = edition.bot_loss_points(Board().unit("c", "blue", "hc", C).unit("t", "red", "co", T, facing="S")
                                    .game(step="charges"))
    # R16.15/R16.18: three hits on the enemy are a quarter of a lost unit to the side that dealt them (the rest of
    # botvalue's terms, the fire and the charges to come, are the same in both positions)
    assert before["blue"] - unhit["blue"] == pytest.approx(3 / 12)
    assert before["red"] <= unhit["red"]
    ctx_of(g).x["charges"] = [{"unit": "c", "target": "t", "path": [C, step(C, "N"), step(C, "N", "N")],
                               "face": "front", "need": 3, "card": False, "passed": True}]
    after = edition.bot_loss_points(g)
    assert after["blue"] > before["blue"] and after["red"] > before["red"]


def test_the_bots_play_toward_the_ground_around_an_objective() -> None:
    sc = Board().unit("b", "blue", "co", C).objective("0606", owner="red").scenario()
    objectives = find_ruleset("horse-and-musket").bot_objectives(sc)
    assert objectives[0].hex == "0606" and objectives[0].points == 2
    ring = {o.hex: (o.points, o.scorer) for o in objectives[1:]}
    assert ring[step("0606", "N")] == (2, "blue") and ring[step("0606", "N", "N")] == (1, "blue")
    assert all(sc.grid.distance(h, "0606") <= 2 for h in ring)
