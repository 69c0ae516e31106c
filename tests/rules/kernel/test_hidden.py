"""The kernel's hidden movement (kernel/hidden.py) and its secret (visibility.SECRET_HIDDEN), edition-neutral: the
boxes' block in the state, what a viewer reads of it, its redaction for the opponent's bots and the events' tags."""

from __future__ import annotations

import json

from server.rules import parse_scenario, scenario_json_for
from server.rules.kernel import hidden as kh
from server.rules.kernel.state import STATUS_HIDDEN, STATUS_MAP, GameState, UnitState
from server.rules.kernel.visibility import SECRET_HIDDEN, audience, tag_event
from tests.rules.standard.hidden_ground import hidden_data


def _state() -> tuple[object, GameState]:
    sc = parse_scenario(hidden_data(), "t")
    assert sc.hidden_movement is not None
    units = {u: UnitState(id=u, hex="0101") for u in sc.units}
    block = kh.initial(sc.hidden_movement, units)
    st = GameState(scenario=sc.id, ruleset="standard", turn=1, phase="movement", active="blue", units=units,
                   extra={kh.KEY: block})
    return sc, st


def test_marker_ids_tell_nothing_and_the_real_one_is_kept_apart() -> None:
    _, st = _state()
    assert sorted(kh.markers(st)) == ["HM-A1", "HM-A2", "HM-B1", "HM-B2"]
    assert all(set(m) == {"hex", "box", "moved"} for m in kh.markers(st).values())
    assert kh.real_marker(st, "A") == "HM-A2" and kh.real_marker(st, "B") == "HM-B1"
    assert st.units["b-2"].status == STATUS_HIDDEN and st.units["b-2"].hex is None


def test_a_viewer_other_than_the_owner_reads_both_markers_alike() -> None:
    _, st = _state()
    red = kh.view(st, "red", everything=False)
    assert red is not None
    for m in red["markers"]:
        assert set(m) == {"id", "hex", "box", "moved"}
    blue = kh.view(st, "blue", everything=False)
    assert blue is not None and {m["id"]: m["real"] for m in blue["markers"]}["HM-A2"] is True
    over = kh.view(st, "spectator", everything=True)
    assert over is not None and "real" in over["markers"][0]


def test_revealing_a_box_takes_both_markers_off_and_stands_its_units_on_the_real_hex() -> None:
    _, st = _state()
    where, units = kh.reveal(st, "A")
    assert where == "0206" and units == ["b-2", "b-3"]
    assert sorted(kh.markers(st)) == ["HM-B1", "HM-B2"]
    assert all(st.units[u].status == STATUS_MAP for u in units)
    assert kh.block(st)["revealed"] == ["A"]  # type: ignore[index]


def test_the_redacted_block_is_the_same_whichever_marker_is_real() -> None:
    blocks = []
    for real in (1, 2):
        data = hidden_data(real_a=real, real_b=real)
        sc = parse_scenario(data, "t")
        units = {u: UnitState(id=u, hex=None) for u in sc.units}
        blocks.append(kh.redacted_extra({kh.KEY: kh.initial(sc.hidden_movement, units)}, "red"))
    assert blocks[0] == blocks[1]
    assert blocks[0][kh.KEY]["boxes"] == {"A": [], "B": []}
    assert kh.redacted_extra(blocks[0], "blue") == blocks[0]  # the owner's own is left as it is


def test_events_naming_a_boxed_unit_are_for_its_owner_only() -> None:
    sc, st = _state()
    assert audience(sc, "blue", SECRET_HIDDEN) == "blue"  # type: ignore[arg-type]
    assert tag_event(sc, st, {"type": "x", "unit": "b-2"})["visible_to"] == "blue"  # type: ignore[arg-type]
    assert "visible_to" not in tag_event(sc, st, {"type": "x", "unit": "b-1"})  # type: ignore[arg-type]


def test_the_scenario_file_a_non_owner_reads_has_no_box_contents() -> None:
    sc = parse_scenario(hidden_data(), "t")
    for viewer in ("red", "spectator"):
        raw = scenario_json_for(sc, viewer)
        assert all(b["units"] == [] and "real" not in b for b in raw["hidden_movement"]["boxes"])
        assert "b-3" not in json.dumps(raw)
        parse_scenario(raw, "redacted")  # still a scenario: the bots' belief reads it
