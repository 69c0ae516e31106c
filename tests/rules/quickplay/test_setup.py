"""Set-up (3.2): 'w/1' placements, hidden from the opponent until both sides have set up, then revealed."""

from __future__ import annotations

import pytest
from position import Position

from server.rules import Game, IllegalCommand, filter_events

SEED = "setup-test-seed-0123456789"


def setup_game() -> Game:
    pos = Position()
    pos.terrain("0403", "lake")
    pos.unit("b1", "blue", hex="0404", within=1)
    pos.unit("b2", "blue", hex="0204")
    pos.unit("r1", "red", hex="0804", within=1)
    return Game.new(pos.scenario(), SEED)


def place(game, side, uid, hex_):
    return game.submit(side, {"type": "place", "unit": uid, "hex": hex_})


def test_3_2_the_game_starts_with_the_first_players_set_up() -> None:
    game = setup_game()
    assert (game.state.phase, game.state.active, game.awaiting) == ("setup", "blue", "blue")


def test_3_2_a_w1_unit_may_be_placed_within_one_hex_only() -> None:
    game = setup_game()
    for bad in ("0604", "0204", "0403"):  # too far, too far, prohibited terrain
        with pytest.raises(IllegalCommand) as exc:
            place(game, "blue", "b1", bad)
        assert exc.value.rule == "3.2"
    with pytest.raises(IllegalCommand):
        place(game, "blue", "b2", "0205")  # b2 sets up exactly at its hex
    with pytest.raises(IllegalCommand):
        place(game, "red", "r1", "0805")  # not red's set-up yet
    place(game, "blue", "b1", "0405")
    place(game, "blue", "b1", "0404")  # may be moved again during the set-up
    assert game.state.units["b1"].hex == "0404"


def test_3_2_a_placement_that_leaves_the_counter_where_it_is_is_refused() -> None:
    """Our reading (docs/rulings.md): an empty placement is refused, so the log holds only real ones."""
    game = setup_game()
    version = game.version
    with pytest.raises(IllegalCommand) as exc:
        place(game, "blue", "b1", "0404")
    assert exc.value.rule == "3.2" and "already" in exc.value.message
    assert game.version == version
    assert all(c["hex"] != "0404" for c in game.legal_commands("blue") if c["type"] == "place")


def test_3_2_placements_are_hidden_from_the_opponent_until_their_side_has_set_up() -> None:
    """V23: placements stay private while a side places, and are revealed when it ends its set-up."""
    game = setup_game()
    events = place(game, "blue", "b1", "0505")
    assert filter_events(events, "red") == []
    assert filter_events(events, "spectator") == []
    assert [e["type"] for e in filter_events(events, "blue")] == ["place"]
    assert game.view("blue")["units"]["b1"]["hex"] == "0505"
    for viewer in ("red", "spectator"):
        v = game.view(viewer)["units"]["b1"]
        assert v["hex"] == "0404" and v["placement_hidden"] is True
    events = game.submit("blue", {"type": "end_phase"})
    assert "reveal" in [e["type"] for e in filter_events(events, "red")]
    assert (game.state.phase, game.state.active) == ("setup", "red")
    assert game.view("red")["units"]["b1"]["hex"] == "0505"  # blue's finished set-up is shown to red
    place(game, "red", "r1", "0805")
    assert game.view("blue")["units"]["r1"]["hex"] == "0804"  # red's is private while red places
    events = game.submit("red", {"type": "end_phase"})
    assert "reveal" in [e["type"] for e in events]
    assert (game.state.phase, game.state.active) == ("movement", "blue")
    for viewer in ("blue", "red", "spectator"):
        units = game.view(viewer)["units"]
        assert units["b1"]["hex"] == "0505" and units["r1"]["hex"] == "0805"
        assert "placement_hidden" not in units["b1"]


def test_3_2_a_unit_left_where_listed_is_revealed_there() -> None:
    game = setup_game()
    game.submit("blue", {"type": "end_phase"})
    game.submit("red", {"type": "end_phase"})
    assert game.view("red")["units"]["b1"]["hex"] == "0404"
    assert not game.state.units["b1"].provisional


def test_3_2_without_w1_placements_the_game_starts_in_movement() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0404")
    pos.unit("r1", "red", hex="0804")
    game = Game.new(pos.scenario(), SEED)
    assert (game.state.phase, game.state.active) == ("movement", "blue")


def test_3_2_a_hidden_placement_cannot_be_found_by_probing() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0604", within=1)
    pos.unit("r1", "red", hex="0804", within=1)
    game = Game.new(pos.scenario(), SEED)
    place(game, "blue", "b1", "0704")
    game.submit("blue", {"type": "end_phase"})
    before = game.view("red")
    # V23: blue's finished placement is visible before red places, so the refusal tells red nothing new.
    assert before["units"]["b1"]["hex"] == "0704"
    with pytest.raises(IllegalCommand, match="3.2"):
        place(game, "red", "r1", "0704")
