"""Charges (charges.py): 4.1.1-4.1.9, 6.2, SR.2-SR.4 and R16.13: who may charge whom, the path, the test, Steady Lads
and Cold Steel (R16.10), and the resolution: the defender's decision asked of its side in the middle of the charger's
turn (fire, countercharge, hold), defensive fire read at long range, the staggered charger's retirement, contact."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules import Game, IllegalCommand
from server.rules.horse_and_musket.tables import COLD_STEEL, STEADY_LADS
from server.rules.kernel import cards as kcards

from .builder import Board, ctx_of, events_of, step

C = "0608"
T = step(C, "N", "N", "N")
PATH = [C, step(C, "N"), step(C, "N", "N")]


def _charge(g: Game, unit: str = "c", target: str = "t", path: list[str] | None = None, **kw: Any
            ) -> list[dict[str, Any]]:
    return g.submit("blue", {"type": "charge", "unit": unit, "target": target, "path": path or PATH, **kw})


def _refused(g: Game, rule: str, **kw: Any) -> None:
    with pytest.raises(IllegalCommand) as err:
        _charge(g, **kw)
    assert err.value.rule == rule, err.value


def test_4_1_1_4_1_9_r16_13_a_passed_charge_asks_the_defender_in_the_chargers_turn() -> None:
    g = Board().unit("c", "blue", "hc", C).unit("t", "red", "co", T, facing="S").game(step="charges", dice=[3])
    events = _charge(g)
    assert events_of(events, "charge")
    g.submit("blue", {"type": "end_step"})
    d = g.state.decision
    assert d is not None and d["kind"] == "charge_reaction" and d["side"] == "red"
    assert g.awaiting == "red" and g.state.active == "blue"
    assert [o["id"] for o in d["options"]] == ["fire", "hold"]  # CO infantry in line: no countercharge
    events = g.submit("red", {"type": "choose", "option": "hold"})
    assert events_of(events, "contact")
    assert (g.state.units["c"].hex, g.state.units["c"].facing) == (PATH[-1], "N")
    assert ctx_of(g).engaged() == {"c", "t"}
    assert ctx_of(g).step == "moves" and g.awaiting == "blue"
    assert g.state.units["c"].moved  # R16.11: a charger has moved


def test_4_1_1_a_failed_test_declares_no_charge_but_counts_as_acting() -> None:
    g = Board().unit("c", "blue", "hc", C).unit("t", "red", "co", T, facing="S").game(step="charges", dice=[2])
    events = _charge(g)
    assert events_of(events, "charge_failed")
    assert ctx_of(g).x["acted"] == ["c"]
    g.submit("blue", {"type": "end_step"})
    assert g.state.decision is None and g.state.units["c"].hex == C
    g.submit("blue", {"type": "move", "unit": "c", "legs": [{"steps": 1}]})  # R16.20(22): it may still move


def test_r16_10_steady_lads_rerolls_a_failed_test_right_after_it() -> None:
    b = Board().unit("c", "blue", "hc", C).unit("t", "red", "co", T, facing="S")
    g = b.game(step="charges", dice=[1, 5], hands={"blue": [STEADY_LADS]})
    _charge(g)
    events = g.submit("blue", {"type": "play_card", "card": STEADY_LADS, "unit": "c"})
    assert events_of(events, "charge") and ctx_of(g).x["charges"][0]["passed"]
    g = b.game(step="charges", dice=[1], hands={"blue": [STEADY_LADS]})
    _charge(g)
    g.submit("blue", {"type": "end_step"})  # any other command first
    g2 = b.game(step="charges", dice=[1], hands={"blue": [STEADY_LADS]})
    _charge(g2)
    with pytest.raises(IllegalCommand):
        g2.submit("blue", {"type": "play_card", "card": STEADY_LADS, "unit": "t"})
    assert kcards.holds(g2.state.extra, "blue", STEADY_LADS)


def test_r16_10_cold_steel_is_spent_even_when_the_test_fails() -> None:
    b = Board().unit("c", "blue", "hc", C).unit("t", "red", "co", T, facing="S")
    g = b.game(step="charges", dice=[1], hands={"blue": [COLD_STEEL]})
    _charge(g, card=COLD_STEEL)
    assert kcards.pile(g.state.extra, "blue", "discard") == [COLD_STEEL]


def test_4_1_3_4_1_5_defensive_fire_at_long_range_staggers_and_the_charger_retires() -> None:
    b = Board().unit("c", "blue", "co", C).unit("t", "red", "co", T, facing="S")
    g = b.game(step="charges", dice=[4, 5, 5, 1, 1], hits={"c": 4, "t": 4})
    ctx_of(g).x["first_fire"] = ["t"]
    _charge(g)
    g.submit("blue", {"type": "end_step"})
    events = g.submit("red", {"type": "choose", "option": "fire"})
    fire = events_of(events, "fire")[0]
    assert (fire["need"], fire["hits"], fire["long"]) == (5, 2, True)  # long range, whatever the distance (4.1.3)
    assert g.state.units["c"].reduced
    assert (g.state.units["c"].hex, g.state.units["c"].facing) == (step(C, "S", "S"), "N")  # straight back
    assert ctx_of(g).engaged() == set()


def test_4_1_4_r16_13_cavalry_may_countercharge_and_counts_as_charging() -> None:
    b = Board().unit("c", "blue", "hc", C).unit("t", "red", "lc", T, facing="S")
    g = b.game(step="charges", dice=[3])
    _charge(g)
    g.submit("blue", {"type": "end_step"})
    assert [o["id"] for o in g.state.decision["options"]] == ["fire", "countercharge", "hold"]  # type: ignore[index]
    g.submit("red", {"type": "choose", "option": "countercharge"})
    assert ctx_of(g).x["contacts"][0]["counter"] is True


def test_r16_13_hold_alone_is_taken_at_once() -> None:
    b = Board().unit("c", "blue", "hc", C).unit("t", "red", "hc", T, facing="S")
    g = b.game(step="charges", dice=[3], staggered=("t",))  # no weapon, and staggered: no countercharge
    _charge(g)
    events = g.submit("blue", {"type": "end_step"})
    assert g.state.decision is None and events_of(events, "auto") and events_of(events, "contact")


def test_r16_13_a_path_blocked_since_the_declaration_does_not_take_place() -> None:
    h = PATH[-1]  # c's last hex, next to t; d's last hex too, next to u
    z = step(h, "SW")
    b = (Board().unit("c", "blue", "hc", C, formation="column").unit("d", "blue", "hc", z, facing="NE")
         .unit("t", "red", "co", T, facing="S").unit("u", "red", "co", step(h, "NE"), facing="S"))
    g = b.game(step="charges", dice=[3, 3])
    _charge(g)
    _charge(g, unit="d", target="u", path=[z, h])
    g.submit("blue", {"type": "end_step"})
    events = g.submit("red", {"type": "choose", "option": "hold"})  # c makes contact first; d's hex is taken
    assert events_of(events, "contact")[0]["unit"] == "c"
    assert events_of(events, "charge_blocked")[0]["unit"] == "d"
    assert g.state.units["d"].hex == z and not g.state.units["d"].moved
    with pytest.raises(IllegalCommand):  # its move is spent
        g.submit("blue", {"type": "move", "unit": "d", "legs": [{"steps": 1, "back": True}]})


@pytest.mark.parametrize(("charger", "target", "rule"), [
    ("li", "co", "4.1.6"), ("li", "lc", "4.1.6"), ("co", "hc", "4.1.8.1"), ("co", "lc", "4.1.8.1"),
    ("artillery", "co", "6.2")])
def test_4_1_6_4_1_8_1_6_2_who_may_never_charge_whom(charger: str, target: str, rule: str) -> None:
    b = Board().unit("c", "blue", charger, C, formation="limbered" if charger == "artillery" else None)
    g = b.unit("t", "red", target, T, facing="S").game(step="charges")
    _refused(g, rule)


def test_4_1_8_3_close_order_may_charge_dragoons_and_light_infantry() -> None:
    for kind, extra in (("hc", {"dragoon": True}), ("li", {})):
        g = (Board().unit("c", "blue", "co", C).unit("t", "red", kind, T, facing="S", **extra)
             .game(step="charges", dice=[4]))
        assert events_of(_charge(g), "charge")


def test_4_1_8_2_close_order_infantry_needs_equal_strength_against_close_order() -> None:
    b = Board().unit("c", "blue", "co", C).unit("t", "red", "co", T, facing="S")
    _refused(b.game(step="charges", hits={"c": 1}), "4.1.8.2")
    assert events_of(_charge(b.game(step="charges", dice=[4], hits={"c": 1, "t": 1})), "charge")


def test_4_1_7_a_battery_next_to_close_order_infantry_is_not_charged() -> None:
    b = (Board().unit("c", "blue", "hc", C).unit("t", "red", "artillery", T, facing="S", formation="deployed")
         .unit("g", "red", "co", step(T, "NE"), facing="S"))
    _refused(b.game(step="charges"), "4.1.7")


@pytest.mark.parametrize("ground", ["woods", "town", "fieldwork"])
def test_sr_2_to_sr_4_cavalry_does_not_charge_woods_towns_or_fieldworks(ground: str) -> None:
    b = Board().unit("c", "blue", "hc", C).unit("t", "red", "co", T, facing="S")
    b.fieldwork(T) if ground == "fieldwork" else b.terrain(T, ground)
    _refused(b.game(step="charges"), "SR.2")


def test_4_1_1_staggered_levy_infantry_may_not_charge() -> None:
    b = Board().unit("c", "blue", "co", C, grade="levy").unit("t", "red", "li", T, facing="S")
    _refused(b.game(step="charges", staggered=("c",)), "4.1.1")


def test_r16_13_the_path_straight_ahead_facing_the_target_none_but_the_last_next_to_an_enemy() -> None:
    b = Board().unit("c", "blue", "hc", C).unit("t", "red", "co", T, facing="S")
    _refused(b.game(step="charges"), "4.1.2", path=[C, step(C, "N")])  # not next to the target
    _refused(b.game(step="charges"), "4.2.1", path=[C, step(C, "N"), step(C, "N", "NE"), step(C, "N", "N")])  # bends
    b.unit("x", "red", "co", step(C, "N", "SE"), facing="S")  # next to the path's middle hex
    _refused(b.game(step="charges"), "4.1.9")


def test_4_1_2a_one_charge_per_face() -> None:
    b = (Board().unit("c", "blue", "hc", C).unit("d", "blue", "hc", step(C, "NE"), facing="N")
         .unit("t", "red", "co", T, facing="S"))
    g = b.game(step="charges", dice=[3])
    _charge(g)
    _refused(g, "4.1.2a", unit="d", path=[step(C, "NE"), step(C, "NE", "N"), step(C, "NE", "N", "N")])
