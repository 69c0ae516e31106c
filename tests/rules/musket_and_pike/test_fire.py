"""Fire (10.0-10.8, R17.60-R17.67): the tables, their printed modifiers, the results and the checks they cause; every
fire event names its table, column, modifiers, die and row."""

from __future__ import annotations

import pytest

from server.rules import IllegalCommand

from .builder import Board, ctx_of, events


def _duel(**blue: object) -> Board:
    b = Board().order("b-foot", "make_ready")
    b.unit("b-hi", "blue", "hi", "0606", pikes=True, **blue)
    b.unit("r-hi", "red", "hi", "0605", facing="S", pikes=True)
    return b


def test_10_0_front_fire_reads_the_front_column_and_names_every_modifier() -> None:
    g = _duel().game(segment="action", dice=[7, 3])
    evs = g.submit("blue", {"type": "fire", "unit": "b-hi", "target": "r-hi"})
    (f,) = events(evs, "fire")
    assert (f["table"], f["column"], f["die"], f["total"], f["row"], f["result"]) == \
        ("Heavy Infantry Musketry Tables (10.0)", "front", 7, 7, "7", "2")
    assert ctx_of(g).cp("r-hi") == 2
    (mc,) = events(evs, "morale_check")  # 10.6.2: Original Morale 7 and two hits
    assert mc["causes"] == ["10.6.2"] and mc["passed"]


def test_10_0_firer_modifiers_formation_shaken_and_casualty_points() -> None:
    g = _duel(state={"cond": "shaken", "cp": 2}).game(segment="action", dice=[9])
    evs = g.submit("blue", {"type": "fire", "unit": "b-hi", "target": "r-hi"})
    (f,) = events(evs, "fire")
    assert {m["label"]: m["value"] for m in f["modifiers"]} == {"Formation Shaken or Open Order": -2,
                                                                "Casualty Points": -2}
    assert f["total"] == 5 and f["result"] == "1"


def test_10_4_salvo_marks_the_unit_and_adds_a_check() -> None:
    g = _duel().game(segment="action", dice=[6, 0])
    evs = g.submit("blue", {"type": "fire", "unit": "b-hi", "target": "r-hi", "salvo": True})
    (f,) = events(evs, "fire")
    assert f["column"] == "salvo" and f["result"] == "2"
    (mc,) = events(evs, "morale_check")
    assert mc["causes"] == ["10.6.2", "10.6.3"]  # 10.6.5: one check, +1 for the second cause
    assert {m["label"]: m["value"] for m in mc["modifiers"]} == {"more than one cause": 1}
    assert ctx_of(g).info("b-hi")["salvo"] is True


def test_r17_34_note4_a_unit_that_moved_may_not_fire_outside_charge() -> None:
    b = Board().order("b-foot", "make_ready")
    b.unit("b-hi", "blue", "hi", "0607", pikes=True).unit("r-hi", "red", "hi", "0604", facing="S", pikes=True)
    g = b.game()
    g.submit("blue", {"type": "move", "unit": "b-hi", "path": ["0607", "0606"]})
    g.submit("blue", {"type": "end_segment"})
    with pytest.raises(IllegalCommand) as e:
        g.submit("blue", {"type": "fire", "unit": "b-hi", "target": "r-hi"})
    assert e.value.rule == "5.6" and "note 4" in e.value.message


def test_10_3_2_advancing_fire_under_charge_takes_minus_three() -> None:
    b = Board()  # Charge
    b.unit("b-hi", "blue", "hi", "0607", pikes=True).unit("r-hi", "red", "hi", "0604", facing="S", pikes=True)
    g = b.game(dice=[9])
    g.submit("blue", {"type": "move", "unit": "b-hi", "path": ["0607", "0606"]})
    g.submit("blue", {"type": "end_segment"})
    evs = g.submit("blue", {"type": "fire", "unit": "b-hi", "target": "r-hi"})
    (f,) = events(evs, "fire")
    assert f["kind"] == "advancing" and {"label": "Advancing or Retreating Fire", "value": -3,
                                         "rule": "10.3.2"} in f["modifiers"]


def test_10_6_6_a_formation_hit_on_a_formation_broken_unit_is_a_casualty_point() -> None:
    b = Board().order("b-foot", "make_ready")
    b.unit("b-art", "blue", "artillery", "0609", calibre="4-8lb")
    b.unit("r-hi", "red", "hi", "0606", facing="S", pikes=True, state={"cond": "broken"})
    g = b.game(segment="action", dice=[9, 2])
    evs = g.submit("blue", {"type": "fire", "unit": "b-art", "target": "r-hi"})
    (f,) = events(evs, "fire")
    assert f["table"] == "Artillery Fire Table (10.8)" and f["result"] == "FH+MC"
    assert ctx_of(g).cp("r-hi") == 1
    assert events(evs, "morale_check")[0]["causes"] == ["10.6.5"]


def test_10_8_2_beyond_range_is_refused() -> None:
    b = Board(columns=12, rows=14).order("b-foot", "make_ready")
    b.unit("b-art", "blue", "artillery", "0613", calibre="3lb")
    b.unit("r-hi", "red", "hi", "0603", facing="S", pikes=True)
    g = b.game(segment="action")
    with pytest.raises(IllegalCommand) as e:
        g.submit("blue", {"type": "fire", "unit": "b-art", "target": "r-hi"})
    assert e.value.rule == "10.8.2"


def test_r17_63_woods_help_against_muskets_and_hurt_against_artillery() -> None:
    b = Board().order("b-foot", "make_ready").terrain("0605", "woods")
    b.unit("b-hi", "blue", "hi", "0606", pikes=True).unit("b-art", "blue", "artillery", "0607")
    b.unit("r-hi", "red", "hi", "0605", facing="S", pikes=True)
    g = b.game(segment="action", dice=[0, 0])
    f1 = events(g.submit("blue", {"type": "fire", "unit": "b-hi", "target": "r-hi"}), "fire")[0]
    assert {"label": "TEC: woods", "value": -1, "rule": "TEC"} in f1["modifiers"]
    from server.rules.musket_and_pike.fire import SKIRMISH, judge
    shot = judge(ctx_of(g), "b-art", "r-hi", SKIRMISH)
    assert {"label": "TEC: woods", "value": 1, "rule": "TEC"} in shot.modifiers
