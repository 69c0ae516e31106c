"""19.8 C-D hidden movement in the middle of other activities (S74-S76): a retreat or an advance halts hex by hex
where a marker comes into sight, the box deploys, then the retreat or advance completes; the owner's own retreats
and advances never enter a marker's hex; boxed units recover automatically at the end of the phase; a marker's
declared move comes before the owner's other commands.

The ground: builder.py's map all woods, so a marker is in sight only from an adjacent hex (S55); red owns box A
(r-2; real marker at 0205, the dummy at 0908), blue's b-1 stands at 0404 with its HQ and trains out of the way."""

from __future__ import annotations

from typing import Any

from server.rules import Game
from server.rules.kernel.state import STATUS_HIDDEN
from server.rules.standard.advancing import advance_options, task_advance
from server.rules.standard.context import StdCtx
from server.rules.standard.retreating import retreat_task, task_retreat

from .builder import standard_data, unit
from .play import end, load, new_game, refused

INF = {"full": {"cf": 5, "mr": 4, "ma": 4}, "reduced": {"cf": 3, "mr": 3, "ma": 4}}


def _data(markers: tuple[str, str] = ("0205", "0908")) -> dict[str, Any]:
    d = standard_data()
    d["map"]["hexes"] = {f"{c:02d}{r:02d}": "woods" for c in range(1, 11) for r in range(1, 9)}
    d["setup"] = [dict(s, hex={"b-hq": "0108", "b-tr": "0101"}.get(s["unit"], s["hex"])) for s in d["setup"]]
    unit(d, "r-2", hex=None, side="red", kind="infantry", formation="7", name="Hidden brigade", **INF)
    d["hidden_movement"] = {"side": "red", "formations": ["7"],
                            "boxes": [{"name": "A", "units": ["r-2"], "markers": list(markers), "real": 1}]}
    return d


def _deploy(game: Game, where: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while game.state.decision is not None and game.state.decision["kind"] == "hm_deploy":
        events += game.submit(game.state.decision["side"], {"type": "choose", "option": where})
    return events


def _retreat(game: Game, units: list[str], length: int) -> dict[str, Any]:
    ctx = StdCtx.of(game)
    task_retreat(ctx, retreat_task(ctx, units, "7.9", length))
    d = game.state.decision
    assert d is not None and d["kind"] == "retreat"
    return d


# --- 19.8 D: a retreat halts where the marker comes into sight ------------------------------------------------------
def test_19_8_D_a_retreat_halts_in_sight_the_box_deploys_then_the_retreat_completes_S74() -> None:
    game = new_game(_data())
    assert game.state.units["r-2"].status == STATUS_HIDDEN
    d = _retreat(game, ["b-1"], 3)
    assert "0304-0204-0104" in [o["id"] for o in d["options"]]
    events = game.submit("blue", {"type": "choose", "option": "0304-0204-0104"})
    assert game.state.units["b-1"].hex == "0204"  # 0204 is beside the marker at 0205: halted there
    kinds = [e["type"] for e in events]
    assert kinds.index("hm_reveal") > max(i for i, k in enumerate(kinds) if k == "retreat")
    assert game.state.decision is not None and game.state.decision["kind"] == "hm_deploy"
    assert "0204" not in game.state.decision["hexes"]  # never on the enemy (S53)
    _deploy(game, "0206")
    d = game.state.decision  # the rest of the retreat: each hex still farther from 0404
    assert d is not None and d["kind"] == "retreat" and d["side"] == "blue"
    assert all(len(o["path"]) == 1 for o in d["options"]) and "0104" in d["hexes"]
    game.submit("blue", {"type": "choose", "option": "0104"})
    assert game.state.units["b-1"].hex == "0104"


def test_19_8_D_a_halted_retreat_long_enough_ends_where_it_halted_when_no_path_is_left_S74() -> None:
    game = new_game(_data())
    _retreat(game, ["b-1"], 2)
    game.submit("blue", {"type": "choose", "option": "0304-0204-0104"})
    assert game.state.units["b-1"].hex == "0204"
    load(game, [1, 1, 1, 1])  # the morale checks pass
    events = _deploy(game, "0105")  # r-2's zone of control now closes 0104 (no line of retreat goes on from it)
    assert game.state.decision is None and game.state.units["b-1"].hex == "0204"  # 2 hexes owed, 2 retreated
    assert [e for e in events if e["type"] == "retreat"][-1]["path"] == ["0304", "0204"]


def test_19_8_D_an_advance_after_a_rout_halts_in_the_vacated_hex_then_completes_S74() -> None:
    data = _data(("0203", "0908"))
    game = new_game(data)
    ctx = StdCtx.of(game)
    game.state.units["b-1"].hex = "0404"
    assert "0204" in advance_options(ctx, "b-1", "0304", True)
    task_advance(ctx, {"t": "advance", "units": ["b-1"], "vacated": "0304", "rout": True})
    game.state.tasks.pop()  # the rest of the advancers: none
    game.submit("blue", {"type": "choose", "option": "0204"})
    assert game.state.units["b-1"].hex == "0304"  # 0304 is beside 0203: halted in the vacated hex
    assert game.state.decision is not None and game.state.decision["kind"] == "hm_deploy"
    _deploy(game, "0202")
    assert game.state.units["b-1"].hex == "0204"  # 0204 is still vacant: the advance completes


def test_19_8_D_a_halted_advance_ends_where_it_halted_when_its_hex_is_taken_S74() -> None:
    game = new_game(_data(("0203", "0908")))
    ctx = StdCtx.of(game)
    task_advance(ctx, {"t": "advance", "units": ["b-1"], "vacated": "0304", "rout": True})
    game.state.tasks.pop()
    game.submit("blue", {"type": "choose", "option": "0204"})
    _deploy(game, "0204")
    assert game.state.units["b-1"].hex == "0304" and game.state.units["r-2"].hex == "0204"


# --- 19.8 C: the owner's own units never enter a marker's hex --------------------------------------------------------
def test_19_8_C_the_owners_retreat_never_enters_its_markers_hex() -> None:
    game = new_game(_data(("0205", "0804")))
    end(game, 2)  # red's movement phase
    d = _retreat(game, ["r-1"], 1)
    assert d["options"] and not any("0804" in o["path"] for o in d["options"])


def test_19_8_C_the_owners_advance_never_enters_its_markers_hex() -> None:
    game = new_game(_data(("0205", "0603")))
    ctx = StdCtx.of(game)
    game.state.units["b-1"].hex = "0101"
    game.state.units["b-tr"].hex = "0102"
    options = advance_options(ctx, "r-1", "0604", True)
    assert "0604" in options and "0603" not in options


# --- 19.8 C: automatic recovery covers boxed units -------------------------------------------------------------------
def test_19_8_C_boxed_units_recover_automatically_at_the_end_of_the_movement_phase() -> None:
    game = new_game(_data())
    game.state.units["r-2"].disrupted = True
    game.state.units["r-2"].ineffective = True
    end(game, 2)  # blue's phases
    end(game)  # red's movement phase ends: r-2 did not move (19.8 C) and recovers
    assert not game.state.units["r-2"].disrupted and not game.state.units["r-2"].ineffective


# --- 19.8 C with 4.4: a marker's declared move comes first -----------------------------------------------------------
def test_19_8_C_a_markers_declared_move_is_carried_out_before_other_commands() -> None:
    game = new_game(_data(("0205", "0908")))
    end(game, 2)
    ctx = StdCtx.of(game)
    ctx.x["hm_declared"] = {"marker": "HM-A2", "ma": 2, "march": False}
    e = refused(game, "red", {"type": "move", "units": ["r-1"], "path": ["0704", "0804"]})
    assert e.rule == "4.4" and "HM-A2" in e.message
    e = refused(game, "red", {"type": "hm_reveal", "marker": "HM-A1"})
    assert e.rule == "4.4"
    load(game, [])
    game.submit("red", {"type": "hm_move", "marker": "HM-A2", "path": ["0908"]})  # stays
    game.submit("red", {"type": "move", "units": ["r-1"], "path": ["0704", "0804"]})
    assert game.state.units["r-1"].hex == "0804"


# --- S77: a decision set aside by a reveal is judged anew -------------------------------------------------------------
def test_19_8_D_a_retreat_decision_set_aside_by_a_reveal_comes_back_judged_anew_S77() -> None:
    from server.rules.standard.hidden_resume import task_resume

    game = new_game(_data())
    d = _retreat(game, ["b-1"], 3)
    assert any("0204" in o["path"] for o in d["options"])
    game.state.decision = None
    ctx = StdCtx.of(game)
    ctx.move_unit("r-2", "0204")  # as a deployment would: r-2 now stands in the path
    game.state.units["r-2"].status = "map"
    task_resume(ctx, {"t": "hm_resume", "decision": d})
    again = game.state.decision
    assert again is not None and again["kind"] == "retreat"
    assert again["options"] and not any("0204" in o["path"] for o in again["options"])


def test_19_8_D_an_advance_decision_set_aside_keeps_only_the_hexes_still_open_S77() -> None:
    from server.rules.standard.hidden_resume import task_resume

    game = new_game(_data(("0208", "0908")))
    ctx = StdCtx.of(game)
    task_advance(ctx, {"t": "advance", "units": ["b-1"], "vacated": "0304", "rout": True})
    game.state.tasks.pop()
    d = game.state.decision
    assert d is not None and "0204" in d["hexes"]
    game.state.decision = None
    ctx.move_unit("r-2", "0204")
    game.state.units["r-2"].status = "map"
    task_resume(ctx, {"t": "hm_resume", "decision": d})
    again = game.state.decision
    assert again is not None and "0204" not in again["hexes"] and "0304" in again["hexes"]


def test_19_8_D_a_leader_moving_alone_halts_in_sight_then_goes_on_with_the_mp_left_S75() -> None:
    data = _data()
    unit(data, "b-ldr", hex="0404", side="blue", kind="leader", formation="1", name="General Blau",
         leader={"combat": 1, "morale": 1, "movement": 2}, leader_ineffective={"combat": 0, "morale": 0, "movement": 1})
    game = new_game(data)
    game.submit("blue", {"type": "move", "units": ["b-ldr"], "path": ["0404", "0304", "0204", "0104"]})
    assert game.state.units["b-ldr"].hex == "0204"  # beside the marker at 0205: halted
    assert game.state.decision is not None and game.state.decision["kind"] == "hm_deploy"
    _deploy(game, "0206")
    d = game.state.extra["declared"]
    assert d["units"] == ["b-ldr"] and d["ma"] == 10 and d["halted"]  # 10.1's 12 MP less the 2 spent
    game.submit("blue", {"type": "move", "units": ["b-ldr"], "path": ["0204", "0104"]})
    assert game.state.units["b-ldr"].hex == "0104"


def test_19_8_D_an_hq_entering_halts_in_sight_then_goes_on_unflipped_S54() -> None:
    """13.1 with S54: an HQ arriving as a reinforcement (17.4's Elbe Army HQ) needs no 12.1 flip to enter; halted at
    the entry hex beside a marker, it goes on with its MP left, still without one (the continuation was refused, and
    the random player's legal moves raised, before)."""
    data = _data(markers=("0205", "0908"))
    data["sides"]["blue"]["entry_hexes"] = ["0104", "0105"]
    data["setup"] = [s for s in data["setup"] if s["unit"] != "b-hq"]
    data["reinforcements"] = [{"unit": "b-hq", "turn": 1, "hex": "0105"}]
    game = new_game(data)
    game.submit("blue", {"type": "move", "units": ["b-hq"], "path": ["0105", "0104", "0103"]})
    assert game.state.units["b-hq"].hex == "0105"  # beside the marker at 0205: halted on entering
    _deploy(game, "0206")
    d = game.state.extra["declared"]
    assert d["units"] == ["b-hq"] and d["halted"]
    game.submit("blue", {"type": "move", "units": ["b-hq"], "path": ["0105", "0104", "0103"]})
    assert game.state.units["b-hq"].hex == "0103"
