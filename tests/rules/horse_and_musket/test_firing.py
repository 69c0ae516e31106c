"""Firing (firing.py): 5.1-5.6, SR.2, SR.4 and RC.2 as R16.14 reads them on hexes: targets (nearest, arc, range, path),
small arms' needs and their modifiers, First Fire and Volley, artillery's shots, enfilade, saves, breaches, generals."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules import Game, IllegalCommand
from server.rules.horse_and_musket import firing
from server.rules.horse_and_musket.tables import VOLLEY
from server.rules.kernel import cards as kcards

from .builder import Board, ctx_of, events_of, step

F = "0610"


def _fire(g: Game, firer: str = "f", target: str = "t", **kw: Any) -> list[dict[str, Any]]:
    return g.submit("blue", {"type": "fire", "unit": firer, "target": target, **kw})


def _hits(events: list[dict[str, Any]]) -> int:
    (e,) = events_of(events, "fire")
    return int(e["hits"])


def _used(g: Game, *units: str) -> Game:
    ctx_of(g).x["first_fire"] = list(units)  # 5.1.10 already spent
    return g


def test_5_1_4_r16_14_close_order_needs_4_at_short_range() -> None:
    b = Board().unit("f", "blue", "co", F).unit("t", "red", "co", step(F, "N", "N"), facing="S")
    g = _used(b.game(step="firing", dice=[4, 6, 3, 1]), "f")
    assert _hits(_fire(g)) == 2
    assert ctx_of(g).hits("t") == 2


@pytest.mark.parametrize(("why", "need"), [("long range", 5), ("moved", 5), ("staggered", 5), ("all three", 7)])
def test_5_1_6_to_5_1_8_each_modifier_adds_one_to_the_need(why: str, need: int) -> None:
    far = why in ("long range", "all three")
    target = step(F, "N", "N", "N") if far else step(F, "N", "N")
    b = Board().unit("f", "blue", "co", F).unit("t", "red", "co", target, facing="S")
    g = _used(b.game(step="firing", dice=[4, 5, 6, 6], moved=("f",) if why in ("moved", "all three") else (),
                     staggered=("f",) if why in ("staggered", "all three") else ()), "f")
    events = _fire(g)
    assert events_of(events, "fire")[0]["need"] == need
    assert _hits(events) == sum(1 for d in (4, 5, 6, 6) if d >= need)  # R16.20(30): above 6 never hits


def test_5_1_4_light_infantry_needs_5_light_cavalry_6() -> None:
    b = Board().unit("f", "blue", "li", F).unit("t", "red", "co", step(F, "N", "N"), facing="S")
    assert _hits(_fire(b.game(step="firing", dice=[4, 5, 6, 1]))) == 2
    b = Board().unit("f", "blue", "lc", F).unit("t", "red", "co", step(F, "N"), facing="S")
    assert _hits(_fire(b.game(step="firing", dice=[5, 5, 6, 1]))) == 1


def test_5_1_10_first_fire_rerolls_the_misses_once_for_non_levy_close_order() -> None:
    b = Board().unit("f", "blue", "co", F).unit("t", "red", "co", step(F, "N", "N"), facing="S")
    g = b.game(step="firing", dice=[4, 1, 1, 1, 6, 6, 2])
    events = _fire(g)
    assert _hits(events) == 3 and events_of(events, "first_fire")
    assert ctx_of(g).x["first_fire"] == ["f"]
    levy = Board().unit("f", "blue", "co", F, grade="levy").unit("t", "red", "co", step(F, "N", "N"), facing="S")
    assert _hits(_fire(levy.game(step="firing", dice=[4, 1, 1, 1]))) == 1


def test_r16_10_volley_rerolls_the_misses_but_never_with_first_fire() -> None:
    b = Board().unit("f", "blue", "co", F).unit("t", "red", "co", step(F, "N", "N"), facing="S")
    g = b.game(step="firing", dice=[4, 1, 1, 1], hands={"blue": [VOLLEY]})
    with pytest.raises(IllegalCommand) as err:
        _fire(g, card=VOLLEY)
    assert err.value.rule == "R16.10"
    g = _used(b.game(step="firing", dice=[4, 1, 1, 1, 5, 1, 1], hands={"blue": [VOLLEY]}), "f")
    assert _hits(_fire(g, card=VOLLEY)) == 2
    assert kcards.pile(g.state.extra, "blue", "discard") == [VOLLEY]


def test_rc_2b_r16_14_only_the_nearest_enemy_in_arc_and_range() -> None:
    b = (Board().unit("f", "blue", "co", F).unit("t", "red", "co", step(F, "N", "N", "N"), facing="S")
         .unit("near", "red", "co", step(F, "NE", "NE"), facing="S")
         .unit("flank", "red", "co", step(F, "SE"), facing="N"))
    g = _used(b.game(step="firing", dice=[1, 1, 1, 1]), "f")
    assert firing.targets(ctx_of(g), "f") == ["near"]  # the flank unit is nearer but outside the 120 degrees
    with pytest.raises(IllegalCommand) as err:
        _fire(g)
    assert err.value.rule == "RC.2b"


def test_r16_14_a_musket_reaches_3_hexes_a_rifle_5() -> None:
    b = Board().unit("f", "blue", "co", F).unit("t", "red", "co", step(F, "N", "N", "N", "N"), facing="S")
    assert firing.targets(ctx_of(b.game(step="firing")), "f") == []
    b = Board().unit("f", "blue", "li", F, weapon="rifle").unit("t", "red", "co", step(F, *["N"] * 5), facing="S")
    assert firing.targets(ctx_of(b.game(step="firing")), "f") == ["t"]


@pytest.mark.parametrize(("between", "blocks"), [
    ("friendly unit", True), ("general", False), ("woods", True), ("town", True), ("hill", True), ("hedge", False)])
def test_5_2_7_r16_14_what_blocks_a_firing_path(between: str, blocks: bool) -> None:
    mid = step(F, "N")
    b = Board().unit("f", "blue", "co", F).unit("t", "red", "co", step(F, "N", "N"), facing="S")
    if between == "friendly unit":
        b.unit("m", "blue", "co", mid)
    elif between == "general":
        b.general("g", "blue", mid)
    elif between == "hedge":
        b.hedge(F, mid)
    else:
        b.terrain(mid, between, 1 if between == "hill" else None)
    assert (firing.targets(ctx_of(b.game(step="firing")), "f") == []) is blocks


def test_5_4_r16_14_artillery_at_long_range_fires_over_lower_units() -> None:
    low = "0613"
    b = (Board(rows=14).terrain(low, "hill", 1).unit("f", "blue", "artillery", low, formation="deployed")
         .unit("m", "blue", "co", step(low, "N", rows=14))
         .unit("t", "red", "co", step(low, *["N"] * 6, rows=14), facing="S"))
    assert firing.targets(ctx_of(b.game(step="firing")), "f") == ["t"]
    short = (Board().terrain(F, "hill", 1).unit("f", "blue", "artillery", F, formation="deployed")
             .unit("m", "blue", "co", step(F, "N")).unit("t", "red", "co", step(F, *["N"] * 5), facing="S"))
    assert firing.targets(ctx_of(short.game(step="firing")), "f") == []


def test_5_2_3_r16_14_artillery_shots_are_2d6_or_1d6_halved_rounded_up() -> None:
    b = (Board().unit("f", "blue", "artillery", F, formation="deployed")
         .unit("t", "red", "co", step(F, "N", "N"), facing="S"))
    g = b.game(step="firing", dice=[3, 4, 4, 1, 6, 2])  # 7 -> 4 shots: 4, 1, 6, 2 -> 2 hits
    assert _hits(_fire(g)) == 2
    b = (Board(rows=14).unit("f", "blue", "artillery", "0614", formation="deployed")
         .unit("t", "red", "co", step("0614", *["N"] * 7, rows=14), facing="S"))
    g = b.game(step="firing", dice=[5, 4, 4, 3])  # long: 5 -> 3 shots
    assert events_of(_fire(g), "fire")[0]["dice_count"] == 3


def test_5_5_enfilade_doubles_the_dice() -> None:
    b = Board().unit("f", "blue", "co", F).unit("t", "red", "co", step(F, "N", "N"), facing="NE")
    g = _used(b.game(step="firing", dice=[4] * 8), "f")
    events = _fire(g)
    assert events_of(events, "fire")[0]["enfilade"] and _hits(events) == 8


@pytest.mark.parametrize("cover", ["woods", "town", "fieldwork", "hedge", "artillery"])
def test_5_3_5_2_6_r16_14_saves_on_4_to_6(cover: str) -> None:
    t = step(F, "N")
    b = Board().unit("f", "blue", "co", F)
    if cover == "artillery":
        b.unit("t", "red", "artillery", t, facing="S", formation="deployed")
    else:
        b.unit("t", "red", "co", t, facing="S")
    if cover in ("woods", "town"):
        b.terrain(t, cover)
    elif cover == "fieldwork":
        b.fieldwork(t)
    elif cover == "hedge":
        b.hedge(F, t)
    g = _used(b.game(step="firing", dice=[6, 6, 6, 1, 4, 3, 5]), "f")
    events = _fire(g)
    assert (_hits(events), events_of(events, "fire")[0]["saved"]) == (1, 2)


def test_sr_4_an_artillery_hit_on_a_fieldwork_may_breach_it() -> None:
    t = step(F, "N", "N")
    b = (Board().unit("f", "blue", "artillery", F, formation="deployed").fieldwork(t)
         .unit("t", "red", "co", t, facing="S"))
    g = b.game(step="firing", dice=[6, 6] + [4] * 6 + [1] * 6 + [6])  # 6 shots, 6 hits, no save, the breach
    events = _fire(g)
    assert events_of(events, "breached") and ctx_of(g).x["breached"] == [t]


def test_5_6_three_hits_risk_the_attached_general() -> None:
    t = step(F, "N")
    b = Board().unit("f", "blue", "co", F).unit("t", "red", "co", t, facing="S").general("r-1", "red", t)
    g = _used(b.game(step="firing", dice=[5, 5, 5, 1, 6]), "f")
    events = _fire(g)
    assert events_of(events, "general_lost") and g.state.units["r-1"].status == "dead"


def test_5_1_2_rc_2a_columns_heavy_cavalry_and_engaged_units_do_not_fire() -> None:
    t = step(F, "N")
    for kind, formation in (("co", "column"), ("hc", "ranks"), ("artillery", "limbered")):
        b = Board().unit("f", "blue", kind, F, formation=formation).unit("t", "red", "co", t, facing="S")
        assert firing.targets(ctx_of(b.game(step="firing")), "f") == []
    b = Board().unit("f", "blue", "co", F).unit("t", "red", "co", t, facing="S")
    g = b.game(step="firing")
    ctx_of(g).x["contacts"] = [{"charger": "t", "target": "x", "counter": False, "river": False, "card": False}]
    assert firing.targets(ctx_of(g), "f") == []
