"""Views: what each viewer may see (the contract's view shape, hidden reinforcements, prompts, events)."""

from __future__ import annotations

from typing import Any

from position import Position, attack

from server.rules import Game, filter_events, seed_hash

SEED = "views-test-seed-0123456789abcdef"


def hidden_game() -> Game:
    pos = Position()
    pos.unit("b1", "blue", hex="0404")
    pos.unit("bx", "blue", hex=None, turn=3, entry="0104")
    pos.unit("r1", "red", hex="0804")
    pos.unit("rx", "red", hex=None, turn=2, entry="1004")
    data = pos.data()
    data["hidden"] = {"enemy_reinforcements": True}
    from server.rules import parse_scenario

    return Game.new(parse_scenario(data, "hidden.json"), SEED)


def test_view_has_the_contract_fields() -> None:
    game = hidden_game()
    v = game.view("blue")
    for key in ("scenario", "ruleset", "viewer", "turn", "turns", "turn_label", "phase", "active", "awaiting",
                "prompt", "units", "squares", "replacements", "control", "points", "seed_hash", "result"):
        assert key in v, key
    assert v["viewer"] == "blue" and v["phase"] == "movement" and v["awaiting"] == "blue"
    assert v["seed_hash"] == seed_hash(SEED) and "seed" not in v
    assert v["prompt"]["kind"] == "phase" and v["prompt"]["side"] == "blue"
    assert v["units"]["b1"] == {**v["units"]["b1"], "hex": "0404", "status": "map", "reduced": False,
                                "disrupted": False, "ineffective": False, "moved": False}


def test_hidden_enemy_reinforcements_are_left_out_of_the_opponents_view() -> None:
    game = hidden_game()
    assert "rx" not in game.view("blue")["units"] and "bx" in game.view("blue")["units"]
    assert "bx" not in game.view("red")["units"] and "rx" in game.view("red")["units"]
    assert game.view("blue")["units"]["bx"]["entry_turn"] == 3
    admin = game.view("admin")["units"]
    assert "rx" in admin and "bx" in admin
    spectator = game.view("spectator")["units"]
    assert "rx" not in spectator and "bx" not in spectator


def test_reinforcements_are_visible_when_the_scenario_does_not_hide_them() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0404")
    pos.unit("r1", "red", hex="0804")
    pos.unit("rx", "red", hex=None, turn=2, entry="1004")
    game = Game.new(pos.scenario(), SEED)
    assert game.view("blue")["units"]["rx"]["status"] == "offboard"


def test_a_pending_decision_is_the_prompt_for_the_side_that_must_answer() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0504", attack=9)
    pos.unit("r1", "red", hex="0604", defense=6)
    game = pos.game(phase="combat", dice=[4, 6])
    attack(game, "0604", ["b1"])
    for viewer in ("blue", "red"):
        p = game.view(viewer)["prompt"]
        assert p["kind"] == "retreat" and p["side"] == "red" and p["rule"] == "7.7"
        assert {o["id"] for o in p["options"]} >= {"0704"}
    assert game.view("blue")["awaiting"] == "red"


def test_events_marked_for_one_side_are_filtered() -> None:
    events = [{"type": "a", "text": "x"}, {"type": "b", "text": "y", "visible_to": "blue"}]
    assert filter_events(events, "blue") == events
    assert filter_events(events, "red") == events[:1]
    assert filter_events(events, "spectator") == events[:1]
    assert filter_events(events, "admin") == events


# --- 11.4 step recovery with hidden reinforcements: one visibility rule for every event -----------------
def hidden_recovery_game(die: int, hidden: bool = True) -> Game:
    from position import Position as Pos

    from server.rules import find_ruleset, parse_scenario
    from server.rules.kernel.game import initial_state

    pos = Pos(turns=8)
    pos.replacements("blue", 1, return_hexes=["0104"])
    pos.unit("b1", "blue", hex="0204", mr=4)  # reduced mr 3
    pos.unit("b9", "blue", hex="0208")
    pos.unit("r1", "red", hex="0804")
    data = pos.data()
    if hidden:
        data["hidden"] = {"enemy_reinforcements": True}
    sc = parse_scenario(data, "hidden-recovery.json")
    st = initial_state(sc, find_ruleset(sc.ruleset))
    st.phase, st.active = "recovery", "blue"
    game = Game.for_test(sc, st, [die])
    game.state.units["b1"].status = "eliminated"
    game.state.units["b1"].hex = None
    return game


def _opponents_share(game: Game, events: list[dict]) -> tuple[str, str]:
    import json

    return (json.dumps(filter_events(events, "red"), sort_keys=True),
            json.dumps(game.view("red")["units"]["b1"], sort_keys=True))


def test_11_4_the_opponent_cannot_tell_a_returning_unit_from_a_lost_one() -> None:
    """Issue 12 defect 2: the die of an eliminated unit's step recovery was public, and the unit vanished
    from the opponent's view when it passed, so the opponent learnt that (and when) it would return."""
    seen = {}
    for die, outcome in ((1, "returning"), (6, "dead")):
        game = hidden_recovery_game(die)
        before = game.view("red")["units"]["b1"]
        events = game.submit("blue", {"type": "recover", "unit": "b1"})
        assert game.state.units["b1"].status == outcome
        seen[outcome] = _opponents_share(game, events)
        assert game.view("red")["units"]["b1"] == before  # unchanged: "eliminated"
        # the spectator reads exactly what the opponent reads; the owner and the admin see the die
        assert filter_events(events, "spectator") == filter_events(events, "red")
        for viewer in ("blue", "admin"):
            assert any(e["type"] == "dice" and e.get("unit") == "b1" for e in filter_events(events, viewer))
    assert seen["returning"] == seen["dead"]
    events_red = seen["dead"][0]
    assert "b1" not in events_red and "morale die" not in events_red
    assert "recovery_attempt" in events_red  # the attempt itself is public: the replacement step is spent


def test_11_4_without_hidden_reinforcements_the_recovery_die_is_public() -> None:
    game = hidden_recovery_game(1, hidden=False)
    events = game.submit("blue", {"type": "recover", "unit": "b1"})
    assert [e["type"] for e in filter_events(events, "red")] == [e["type"] for e in events]
    assert game.view("red")["units"]["b1"]["status"] == "returning"


def test_every_emitted_event_naming_a_hidden_unit_is_for_its_owner_only() -> None:
    """The one rule applies to whatever emits an event: an event naming an off-map hidden reinforcement
    is tagged for its owner even when the emitting code forgot to."""
    from server.rules.kernel.core import Ctx

    game = hidden_game()
    ctx = Ctx(game.scenario, game.state, game.ruleset, game._dice)
    ctx.emit("note", "rx is waiting", unit="rx")
    ctx.emit("note", "r1 is on the map", unit="r1")
    assert [e.get("visible_to") for e in ctx.events] == ["red", None]
    assert filter_events(ctx.events, "blue") == ctx.events[1:]


def test_the_view_carries_the_definition_of_a_visible_unit_the_public_scenario_leaves_out() -> None:
    from server.rules.kernel.views import scenario_json_for

    game = hidden_game()
    public = scenario_json_for(game.scenario, "spectator")
    assert {u["id"] for u in public["units"]} == {"b1", "r1"} and public["reinforcements"] == []
    blue = scenario_json_for(game.scenario, "blue")
    assert {u["id"] for u in blue["units"]} == {"b1", "bx", "r1"}
    assert [r["unit"] for r in blue["reinforcements"]] == ["bx"]
    assert len(scenario_json_for(game.scenario, "admin")["units"]) == 4
    assert set(game.view("blue")["unit_defs"]) == {"bx"}
    assert game.view("spectator")["unit_defs"] == {}
    # once the red reinforcement is on the map, every viewer gets its definition with it
    game.state.units["rx"].status, game.state.units["rx"].hex = "map", "1004"
    assert set(game.view("blue")["unit_defs"]) == {"bx", "rx"} and set(game.view("spectator")["unit_defs"]) == {"rx"}


def test_the_unit_definitions_stay_one_object_while_the_visible_units_stay_the_same() -> None:
    # The server's patch skips an unchanged part of a view by identity; the definitions of the hidden
    # reinforcements a viewer sees are the same object until another one comes into view.
    game = hidden_game()
    first = game.view("blue")["unit_defs"]
    assert game.view("blue")["unit_defs"] is first
    assert game.view("red")["unit_defs"] is not first and set(game.view("red")["unit_defs"]) == {"rx"}
    game.state.units["rx"].status, game.state.units["rx"].hex = "map", "1004"
    entered = game.view("blue")["unit_defs"]
    assert entered is not first and set(entered) == {"bx", "rx"} and set(first) == {"bx"}


def test_3_2_undoing_a_secret_placement_tells_the_opponent_nothing_of_it() -> None:
    from server.rules import parse_scenario

    pos = Position()
    pos.unit("b1", "blue", hex="0404", within=1)
    pos.unit("r1", "red", hex="0804")
    game = Game.new(parse_scenario(pos.data(), "setup.json"), SEED)
    assert game.state.phase == "setup"
    target = next(h for h in ("0403", "0405", "0304") if h != "0404")
    game.submit("blue", {"type": "place", "unit": "b1", "hex": target})
    events = game.submit("blue", {"type": "undo"})
    assert target not in str(filter_events(events, "red")) and target in str(filter_events(events, "blue"))


def test_views_built_together_equal_each_built_alone() -> None:
    """`Game.views` shares what every viewer sees alike (units that look the same to all, the score,
    the prompt): the batch must equal each view built on its own, for every viewer, including the
    scenarios that hide reinforcements and the Standard edition, at many points of random games."""
    import json
    import random
    from pathlib import Path

    from server.rules import parse_scenario
    from server.rules.kernel.randomplayer import RandomPlayer

    root = Path(__file__).resolve().parents[3] / "scenarios"
    for path in [root / "tutorial.json", root / "hougoumont.json", root / "standard" / "standard-tutorial.json"]:
        scenario = parse_scenario(json.loads(path.read_text()), path.name)
        rng = random.Random(11)
        game = Game.new(scenario, "views-batch-seed")
        viewers = [*scenario.side_order, "spectator", "admin"]
        player = RandomPlayer(rng)
        for step in range(300):
            if step % 7 == 0 or game.is_over:
                alone = [game.view(v) for v in viewers]
                assert game.views(viewers) == alone, (path.name, step)
                assert game.views(viewers, share_units=True) == alone, (path.name, step)
            if game.is_over:
                break
            side = game.awaiting
            assert side is not None
            game.submit(side, player.choose(game, side))


def test_shared_unit_views_are_kept_while_the_unit_is_unchanged_and_rebuilt_when_it_changes() -> None:
    """`share_units=True` (the server's fan-out): a unit that looks the same to all is one object in
    every viewer's view, and the same object at the next call while its visible fields are unchanged,
    so the server's patches skip it by identity; a unit that moved is a new object. Without it, every
    view has copies of its own that a caller may change without touching the next view."""
    game = Game.new(_tutorial(), SEED)
    while game.state.phase == "setup":
        game.submit(game.awaiting, {"type": "end_phase"})
    side = game.awaiting
    before = game.views([*game.scenario.side_order, "spectator"], share_units=True)
    mover, path = _a_legal_move(game, side)
    assert all(v["units"][mover] is before[0]["units"][mover] for v in before)  # one object for all viewers
    game.submit(side, {"type": "move", "units": [mover], "path": path})
    after = game.views([*game.scenario.side_order, "spectator"], share_units=True)
    assert after[0]["units"][mover] is not before[0]["units"][mover]
    assert after[0]["units"][mover]["hex"] == path[-1]
    # (units off the map in this scenario look different to each side: built for each viewer, every time)
    unchanged = [u for u, s in game.state.units.items() if u != mover and s.on_map and before[0]["units"][u] == after[0]["units"][u]]
    assert unchanged and all(after[0]["units"][u] is before[0]["units"][u] for u in unchanged)

    own = game.views([side])[0]
    own["units"][mover]["hex"] = "9999"
    assert game.views([side])[0]["units"][mover]["hex"] == path[-1]
    assert game.views([side], share_units=True)[0]["units"][mover]["hex"] == path[-1]


def _tutorial() -> Any:
    import json
    from pathlib import Path

    from server.rules import parse_scenario

    path = Path(__file__).resolve().parents[3] / "scenarios" / "tutorial.json"
    return parse_scenario(json.loads(path.read_text()), path.name)


def _a_legal_move(game: Game, side: str) -> tuple[str, list[str]]:
    for command in game.legal_commands(side):
        if command.get("type") == "move" and len(command["units"]) == 1:
            return command["units"][0], list(command["path"])
    raise AssertionError("no legal move")
