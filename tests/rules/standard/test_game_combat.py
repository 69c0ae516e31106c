"""The Standard rules' combat phase played through the kernel's `Game` (seed 002 7.1-7.12, R12, 12.1, 14.2): the
attack, the defender's choice (7.4), the pre-combat check (7.3(2)), the owner's choices (7.8), retreat (7.9), rout
(7.10), step losses (7.11) and the advance (7.12), each as the seed demands."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules import Game

from .builder import standard_data, unit
from .play import choose, end, hex_of, new_game, refused, submit

ATTACK = {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1"}


def contact(data: dict[str, Any] | None = None, dice: list[int] | None = None) -> Game:
    """b-1 (CF 6) at 0604 next to r-1 (CF 5) at 0704; blue's combat phase of turn 1."""
    data = data or standard_data()
    data["setup"] = [dict(s, hex="0604") if s["unit"] == "b-1" else s for s in data["setup"]]
    game = new_game(data, [])
    end(game)
    from .play import load

    load(game, dice or [])
    return game


def decision(game: Game) -> dict[str, Any]:
    d = game.state.decision
    assert d is not None
    return d


def test_7_1_an_attack_is_refused_outside_the_combat_phase_and_against_an_empty_hex() -> None:
    data = standard_data()
    data["setup"] = [dict(s, hex="0604") if s["unit"] == "b-1" else s for s in data["setup"]]
    game = new_game(data, [])
    assert refused(game, "blue", ATTACK).rule == "7.1"
    end(game)
    assert refused(game, "blue", {**ATTACK, "target": "0705"}).rule == "7.1"


def test_7_8_dr_the_owner_chooses_disruption_or_retreat_and_7_12_the_attacker_advances() -> None:
    game = contact(dice=[5, 3])  # +1: die 5 = Dr
    events = submit(game, "blue", ATTACK)
    assert any(e["type"] == "combat" and e["result"] == "Dr" for e in events)
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"]) == ("result", "red", "7.8")
    assert {o["id"] for o in d["options"]} == {"disrupt", "retreat"}
    choose(game, "red", "retreat")
    d = decision(game)
    assert d["kind"] == "retreat" and all(o["safe"] for o in d["options"])
    path = next(o for o in d["options"] if len(o["path"]) == 1)
    choose(game, "red", path["id"])
    assert hex_of(game, "r-1") == path["path"][-1]
    d = decision(game)
    assert (d["kind"], d["side"]) == ("advance", "blue") and "0704" in d["hexes"]
    choose(game, "blue", "0704")
    assert hex_of(game, "b-1") == "0704" and game.state.combat is None


def test_7_9_7_12_the_retreat_and_the_advance_name_every_hex_from_where_they_began() -> None:
    """The events name the hex a retreat began in (7.9) and an advance's whole path from its start (7.12): the page
    draws the other side's moves from them."""
    game = contact(dice=[5, 3])  # +1: die 5 = Dr
    submit(game, "blue", ATTACK)
    choose(game, "red", "retreat")
    option = next(o for o in decision(game)["options"] if len(o["path"]) == 1)
    retreat = next(e for e in choose(game, "red", option["id"]) if e["type"] == "retreat")
    assert retreat["start"] == "0704" and retreat["path"] == option["path"] and retreat["rule"] == "7.9"
    advance = next(e for e in choose(game, "blue", "0704") if e["type"] == "advance")
    assert advance["path"] == ["0604", "0704"] and advance["rule"] == "7.12"


def test_7_8_dr_disruption_instead_of_retreat() -> None:
    game = contact(dice=[5, 3])
    submit(game, "blue", ATTACK)
    choose(game, "red", "disrupt")
    assert game.state.units["r-1"].disrupted and hex_of(game, "r-1") == "0704"
    assert game.state.decision is None and game.state.combat is None


def test_7_8_dx_passed_the_owner_may_lose_a_step_or_disrupt_and_retreat() -> None:
    game = contact(dice=[6, 1])  # +1: die 6 = Dx; the morale die 1 passes
    submit(game, "blue", ATTACK)
    d = decision(game)
    assert {o["id"] for o in d["options"]} == {"step_loss", "disrupt_retreat"}
    choose(game, "red", "step_loss")
    assert game.state.units["r-1"].reduced and hex_of(game, "r-1") == "0704"
    assert game.state.decision is None  # 7.8: no advance after a step loss


def test_7_8_dx_failed_all_are_disrupted_and_retreat() -> None:
    game = contact(dice=[6, 6])
    submit(game, "blue", ATTACK)
    d = decision(game)
    assert d["kind"] == "retreat"
    assert game.state.units["r-1"].disrupted
    assert all(len(o["path"]) >= 2 for o in d["options"])  # 2.8(6): a disrupted unit retreats two hexes


def test_7_8_ex_each_primary_loses_a_step() -> None:
    game = contact(dice=[3, 2])  # +1: die 3 = Ex Leader (no leaders here)
    submit(game, "blue", ATTACK)
    assert game.state.units["b-1"].reduced and game.state.units["r-1"].reduced
    assert hex_of(game, "r-1") == "0704" and game.state.decision is None


def test_7_8_ac_fail_the_attacker_retreats_and_7_12_the_victorious_defender_may_advance() -> None:
    game = contact(dice=[1, 6])  # +1: die 1 = Ac(NE) Ammo; blue's primary fails
    submit(game, "blue", ATTACK)
    d = decision(game)
    assert (d["kind"], d["side"]) == ("result", "blue")
    choose(game, "blue", "retreat")
    d = decision(game)
    assert d["kind"] == "retreat" and d["side"] == "blue"
    choose(game, "blue", d["options"][0]["id"])
    assert hex_of(game, "b-1") != "0604"
    d = decision(game)
    assert (d["kind"], d["side"]) == ("advance", "red")  # 7.12: the victorious player, here the defender
    choose(game, "red", "stay")
    assert hex_of(game, "r-1") == "0704" and game.state.decision is None


def test_7_4_the_defender_names_its_units_and_primary() -> None:
    data = standard_data()
    unit(data, "r-bn", "0704", side="red", kind="battalion", formation="7", full={"cf": 2, "mr": 4, "ma": 5},
         ineffective={"cf": 0, "mr": 2, "ma": 5})
    game = contact(data, dice=[4, 6])  # CF 6 - (5+2) = -1: die 4 = Ex; or -1 alone... see below
    submit(game, "blue", ATTACK)
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"]) == ("defenders", "red", "7.4")
    ids = {o["id"] for o in d["options"]}
    assert {"r-1+r-bn:r-1", "r-1+r-bn:r-bn", "r-1:r-1", "r-bn:r-bn"} <= ids
    choose(game, "red", "r-1+r-bn:r-1")
    assert game.state.units["b-1"].reduced and game.state.units["r-1"].reduced  # -1: die 4 = Ex


def test_7_11_a_stacked_battalion_of_the_formation_may_absorb_the_step() -> None:
    data = standard_data()
    unit(data, "r-bn", "0704", side="red", kind="battalion", formation="7", full={"cf": 2, "mr": 4, "ma": 5},
         ineffective={"cf": 0, "mr": 2, "ma": 5})
    game = contact(data, dice=[6, 1])  # r-1 alone: +1, die 6 = Dx, passed
    submit(game, "blue", ATTACK)
    choose(game, "red", "r-1:r-1")
    choose(game, "red", "step_loss")
    d = decision(game)
    assert (d["kind"], d["rule"]) == ("absorb", "7.11") and {o["id"] for o in d["options"]} == {"r-1", "r-bn"}
    choose(game, "red", "r-bn")
    assert game.state.units["r-bn"].status == "eliminated" and not game.state.units["r-1"].reduced


def test_7_8_dm_failed_the_defender_routs_and_the_attacker_gets_a_fortune_of_war() -> None:
    data = standard_data()
    unit(data, "r-1", "0704", side="red", kind="infantry", formation="7", full={"cf": 1, "mr": 4, "ma": 4},
         reduced={"cf": 1, "mr": 3, "ma": 4})
    game = contact(data, dice=[6, 6])  # +5: die 6 = Dm(Dx); the morale die fails
    submit(game, "blue", ATTACK)
    assert any(f["side"] == "blue" and f["rule"] == "7.8" for f in game.state.extra["fow_owed"])
    d = decision(game)
    assert d["kind"] == "retreat" and d["rule"] == "7.10"
    assert all(o["safe"] and len(o["path"]) == 3 for o in d["options"])  # 7.10: with an SLR, three hexes
    choose(game, "red", d["options"][0]["id"])
    assert game.state.units["r-1"].disrupted
    d = decision(game)
    assert d["kind"] == "advance" and "two hexes" in d["text"]  # 7.12: two hexes after a rout


def test_7_3_2_without_an_slr_a_disrupted_defender_that_fails_routs_and_with_no_line_is_captured() -> None:
    data = standard_data()
    data["setup"] = [dict(s, inactive=True) if s["unit"] in ("r-hq", "r-tr") else s for s in data["setup"]]
    data["setup"] = [dict(s, disrupted=True) if s["unit"] == "r-1" else s for s in data["setup"]]
    unit(data, "b-cav", "1003", kind="cavalry", formation="1", full={"cf": 3, "mr": 4, "ma": 8, "charge": 4},
         ineffective={"cf": 1, "mr": 2, "ma": 10})
    game = contact(data, dice=[6])
    events = submit(game, "blue", ATTACK)
    assert any(e["type"] == "morale" and e["rule"] == "7.3(2)" and not e["passed"] for e in events)
    assert game.state.units["r-1"].status == "captured"  # 7.10: no line of retreat at all
    d = decision(game)
    assert d["kind"] == "advance" and "two hexes" not in d["text"]  # 7.12: no two-hex advance after a capture


def test_7_2_an_unattacked_triggered_defender_receives_a_fortune_of_war() -> None:
    data = standard_data()
    unit(data, "r-2", "0704", side="red", kind="infantry", formation="7", full={"cf": 3, "mr": 4, "ma": 4},
         reduced={"cf": 2, "mr": 3, "ma": 4})
    data["setup"] = [dict(s, disrupted=True) if s["unit"] == "r-2" else s for s in data["setup"]]
    game = contact(data, dice=[1])
    assert game.state.extra["triggered"] == {"r-1": ["b-1"]}
    submit(game, "blue", {"type": "end_phase"})
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"]) == ("fow", "red", "7.2")
    assert {o["id"] for o in d["options"]} == {"pass", "recover:r-2", "move", "charge:r-1"}  # R13, 12.4
    choose(game, "red", "recover:r-2")
    assert not game.state.units["r-2"].disrupted
    assert (game.state.active, game.state.phase) == ("red", "movement")


def test_7_2_r13_one_unit_of_the_unattacked_hex_charges_ignoring_ezoc() -> None:
    data = standard_data()
    unit(data, "r-2", "0704", side="red", kind="infantry", formation="7", full={"cf": 3, "mr": 4, "ma": 4},
         reduced={"cf": 2, "mr": 3, "ma": 4})
    data["setup"] = [dict(s, disrupted=True) if s["unit"] == "r-2" else s for s in data["setup"]]
    game = contact(data, dice=[])
    submit(game, "blue", {"type": "end_phase"})
    choose(game, "red", "charge:r-1")
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"]) == ("fow_charge", "red", "12.4")
    assert d["options"] and all(o["units"] == ["r-1"] for o in d["options"])  # that one unit, out of the EZOC
    assert all(o["path"][0] == "0704" and len(o["path"]) in (2, 3) for o in d["options"])


def test_7_4_a_hex_is_the_target_of_one_attack_and_7_5_a_unit_attacks_once() -> None:
    game = contact(dice=[2, 3])  # +1: die 2 = Ac(NE); pass: no effect
    submit(game, "blue", ATTACK)
    assert refused(game, "blue", ATTACK).rule == "7.4"


def test_12_1_an_attacked_hq_alone_is_captured_by_the_advance_and_owes_two_fortunes_of_war() -> None:
    data = standard_data()
    data["setup"] = [dict(s, hex="0504") if s["unit"] == "r-hq" else s for s in data["setup"]]
    game = new_game(data, [])
    end(game)
    submit(game, "blue", {"type": "attack", "target": "0504", "attackers": ["b-1"], "primary": "b-1"})
    assert [f["rule"] for f in game.state.extra["fow_owed"]] == ["12.1", "12.1"]
    d = decision(game)
    assert d["kind"] == "advance" and "0504" in d["hexes"]
    choose(game, "blue", "0504")
    assert game.state.units["r-hq"].status == "captured"


def test_14_2_no_combat_at_night() -> None:
    game = contact()
    game.state.turn = 4  # the builder's TRT: turn 4 is a night turn
    assert refused(game, "blue", ATTACK).rule == "14.2(4)"


@pytest.mark.parametrize("viewer", ["blue", "red", "spectator"])
def test_views_show_the_combat_and_the_standard_fields(viewer: str) -> None:
    game = contact(dice=[5, 3])
    submit(game, "blue", ATTACK)
    view = game.view(viewer)
    assert view["prompt"]["kind"] == "result" and view["combat"]["result"] == "Dr"
    assert {"light", "inactive", "declared", "trt", "fow_owed"} <= set(view["standard"])


def test_7_7_preview_gives_the_differential_and_the_crt_column() -> None:
    game = contact()
    p = game.preview("blue", ATTACK)
    assert p["legal"] and p["differential"] == 1 and p["results"][4] == "Dr"
    bad = game.preview("blue", {**ATTACK, "target": "0705"})
    assert not bad["legal"] and bad["rule"] == "7.1"


def test_7_2_the_unattacked_defenders_fortune_may_move_the_units_of_its_hex() -> None:
    data = standard_data()
    game = contact(data, dice=[])
    submit(game, "blue", {"type": "end_phase"})
    from .play import load

    load(game, [1])  # r-1's MA die
    choose(game, "red", "move")
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"]) == ("fow_move", "red", "12.4") and "1 MP" in d["text"]
    dest = next(o for o in d["options"] if o["hex"])
    choose(game, "red", dest["id"])
    assert hex_of(game, "r-1") == dest["hex"] and (game.state.active, game.state.phase) == ("red", "movement")
