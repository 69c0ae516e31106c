"""19.8 B creating the hidden movement boxes in the owner's set-up (S76): setupground.py's red sets up in areas,
with woods along column 06 hiding its side of the river from blue's units (a marker next to one is in sight)."""

from __future__ import annotations

from typing import Any

from server.rules import Game, filter_events, parse_scenario
from server.rules.kernel.state import STATUS_HIDDEN, STATUS_UNPLACED

from .play import refused
from .setupground import setup_data

SEED = "standard-test-seed-0000"


def _data(**hm: Any) -> dict[str, Any]:
    d = setup_data()
    d["map"]["hexes"] = {**d["map"]["hexes"], **{f"06{r:02d}": "woods" for r in range(1, 9)}}
    d["hidden_movement"] = {"side": "red", "formations": ["7"], "boxes": [], **hm}
    return d


def _game(data: dict[str, Any], **options: Any) -> Game:
    return Game.new(parse_scenario(data, "test"), SEED, options=options or None)


def test_19_8_B_the_owner_fills_a_box_and_places_its_markers_in_secret() -> None:
    game = _game(_data())
    assert game.state.phase == "setup" and game.state.active == "red"
    events = game.submit("red", {"type": "hm_box", "box": "A", "units": ["r-1", "r-2", "r-ldr"]})
    assert all(game.state.units[u].status == STATUS_HIDDEN for u in ("r-1", "r-2", "r-ldr"))
    events += game.submit("red", {"type": "hm_markers", "box": "A", "hexes": ["0805", "0706"], "real": 2})
    assert not filter_events(events, "blue")  # nothing told to blue
    assert game.view("blue")["hidden"]["markers"] == []  # the markers wait for the end of red's set-up
    assert game.view("red")["hidden"]["setup"]["markers"]["A"] == {"hexes": ["0805", "0706"], "real": 2}
    game.submit("red", {"type": "place_printed"})
    events = game.submit("red", {"type": "end_phase"})
    placed = next(e for e in filter_events(events, "blue") if e["type"] == "hm_placed")
    assert "0805" in placed["text"] and "0706" in placed["text"]
    markers = game.view("blue")["hidden"]["markers"]
    assert [m["hex"] for m in markers] == ["0805", "0706"] and all("real" not in m for m in markers)
    assert game.state.extra["hidden"]["real"]["A"] == "HM-A2"
    assert "setup" not in game.state.extra["hidden"]


def test_19_8_B_one_formation_a_box_unless_shared() -> None:
    game = _game(_data(formations=["7", "8"]))
    e = refused(game, "red", {"type": "hm_box", "box": "A", "units": ["r-1", "r-cav"]})
    assert e.rule == "19.8 B" and "one formation" in e.message
    game = _game(_data(formations=["7", "8"], shared=[["7", "8"]]))
    game.submit("red", {"type": "hm_box", "box": "A", "units": ["r-1", "r-cav"]})
    game.submit("red", {"type": "hm_box", "box": "B", "units": ["r-2"]})  # a formation split among boxes
    assert game.state.extra["hidden"]["boxes"]["B"] == ["r-2"]


def test_19_8_B_only_the_hidden_formations_units_unless_the_free_set_up() -> None:
    game = _game(_data())
    e = refused(game, "red", {"type": "hm_box", "box": "A", "units": ["r-cav"]})
    assert e.rule == "19.8 B" and "formation" in e.message
    e = refused(game, "red", {"type": "hm_box", "box": "A", "units": ["r-hq"]})
    assert e.rule == "19.8 B"
    game = _game(_data(), free_setup=True)
    game.submit("red", {"type": "hm_box", "box": "A", "units": ["r-cav"]})  # 19.8 B: any units under 17.3
    assert game.state.units["r-cav"].status == STATUS_HIDDEN


def test_19_8_B_markers_go_beside_an_assigned_hex_in_a_hidden_hex_unstacked() -> None:
    game = _game(_data())
    game.submit("red", {"type": "hm_box", "box": "A", "units": ["r-1"]})
    e = refused(game, "red", {"type": "hm_markers", "box": "A", "hexes": ["0805", "0505"], "real": 1})
    assert e.rule == "19.8 B" and "sight" in e.message  # 0505 is next to blue's b-1
    e = refused(game, "red", {"type": "hm_markers", "box": "A", "hexes": ["0805", "0801"], "real": 1})
    assert "adjacent" in e.message  # far from the area of 0805
    e = refused(game, "red", {"type": "hm_markers", "box": "A", "hexes": ["0805", "0805"], "real": 1})
    assert "unstacked" in e.message
    e = refused(game, "red", {"type": "hm_markers", "box": "B", "hexes": ["0805", "0806"], "real": 1})
    assert "holds no units" in e.message


def test_19_8_B_the_set_up_ends_only_with_every_filled_box_marked() -> None:
    game = _game(_data())
    game.submit("red", {"type": "hm_box", "box": "A", "units": ["r-2"]})
    game.submit("red", {"type": "place_printed"})
    e = refused(game, "red", {"type": "end_phase"})
    assert e.rule == "19.8 B" and "markers" in e.message
    game.submit("red", {"type": "hm_box", "box": "A", "units": []})  # emptied: r-2 goes back to its area
    assert game.state.units["r-2"].status == STATUS_UNPLACED
    game.submit("red", {"type": "place", "unit": "r-2", "hex": "0806"})
    game.submit("red", {"type": "end_phase"})
    assert game.state.phase == "movement"


def test_19_8_B_the_bots_fill_and_mark_boxes_and_end_the_set_up() -> None:
    import random

    game = _game(_data())
    rng = random.Random(3)
    for _ in range(200):
        if game.state.phase != "setup":
            break
        cmds = list(game.legal_commands("red", rng))
        kinds = {c["type"] for c in cmds}
        pick = next((c for c in cmds if c["type"].startswith("hm_")), None) if rng.random() < 0.5 else None
        game.submit("red", pick or (next((c for c in cmds if c["type"] == "end_phase"), None) or rng.choice(cmds)))
        assert kinds
    assert game.state.phase != "setup"


def test_19_8_D_a_marker_the_enemys_set_up_puts_in_sight_is_revealed_when_the_set_up_ends_S76() -> None:
    data = _data(side="blue", formations=["1"])
    data["setup"] = [dict(s, area={"within": 1, "of": "0404"}) if s["unit"] == "b-1" else s for s in data["setup"]]
    game = _game(data)
    assert game.state.active == "blue"  # the first player sets up first (S57)
    game.submit("blue", {"type": "hm_box", "box": "A", "units": ["b-1"]})
    game.submit("blue", {"type": "hm_markers", "box": "A", "hexes": ["0505", "0304"], "real": 1})
    game.submit("blue", {"type": "end_phase"})
    assert game.state.active == "red" and len(game.state.extra["hidden"]["markers"]) == 2
    game.submit("red", {"type": "place", "unit": "r-1", "hex": "0605"})  # beside the marker at 0505
    assert game.state.extra["hidden"]["revealed"] == []  # red's placement is its secret until its set-up ends
    game.submit("red", {"type": "place_printed"})
    game.submit("red", {"type": "place", "unit": "r-ldr", "hex": "0605"})  # 17.2: with a unit of his span
    game.submit("red", {"type": "end_phase"})
    assert game.state.extra["hidden"]["revealed"] == ["A"]
    assert game.state.decision is not None and game.state.decision["kind"] == "hm_deploy"
