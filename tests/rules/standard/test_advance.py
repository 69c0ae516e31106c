"""Step losses and advance after combat in the Standard rules (seed 002 7.11, 7.12)."""

from __future__ import annotations

from typing import Any

from server.rules.standard.advance import absorbers, advance_hexes, advance_problem

from .builder import find, standard_data, unit
from .ground import board

INF = {"full": {"cf": 4, "mr": 4, "ma": 4}, "reduced": {"cf": 2, "mr": 3, "ma": 4}}
BN = {"full": {"cf": 1, "mr": 4, "ma": 5}, "ineffective": {"cf": 0, "mr": 2, "ma": 5}}
ART = {"full": {"attack": 3, "defense": 2, "range": 3, "ma": 3}, "ineffective": {"attack": 1, "defense": 1, "range": 2, "ma": 3}}


def vacated() -> dict[str, Any]:
    """b-1 at 0604 next to 0704, which red has just left (r-1 moved off to 1008)."""
    data = standard_data()
    next(s for s in data["setup"] if s["unit"] == "b-1")["hex"] = "0604"
    next(s for s in data["setup"] if s["unit"] == "r-1")["hex"] = "1008"
    return data


def test_7_11_a_stacked_non_participating_battalion_of_the_formation_may_absorb() -> None:
    data = vacated()
    unit(data, "b-bn", kind="battalion", formation="1", hex="0604", **BN)
    unit(data, "b-bn2", kind="battalion", formation="2", hex="0604", **BN)
    sc, units = board(data)
    assert absorbers(sc, units, "b-1", participants=["b-1"]) == ["b-bn"]
    assert absorbers(sc, units, "b-1", participants=["b-1", "b-bn"]) == []


def test_2_4_7_11_an_a_battalion_belongs_to_the_formation_of_any_primary() -> None:
    data = vacated()
    unit(data, "b-bn", kind="battalion", formation="A", hex="0604", **BN)
    unit(data, "b-bn0", kind="battalion", formation="0", hex="0604", **BN)
    unit(data, "b-1", kind="infantry", formation="A", hex="0604", **INF)
    unit(data, "b-bn2", kind="battalion", formation="2", hex="0604", **BN)
    sc, units = board(data)
    assert absorbers(sc, units, "b-1", participants=["b-1"]) == ["b-bn", "b-bn2"]  # an A primary: any formation
    assert absorbers(sc, units, "b-bn2", participants=["b-bn2"]) == ["b-bn"]  # an A battalion absorbs for formation 2
    assert absorbers(sc, units, "b-bn0", participants=["b-bn0"]) == []  # an independent shares no formation


def test_7_11_a_full_sized_unit_with_the_same_id_absorbs_the_loss() -> None:
    data = vacated()
    find(data, "b-1")["unit_id"] = "27"
    unit(data, "b-27", kind="infantry", formation="1", unit_id="27", hex="0604", **INF)  # the regiment's other counter
    unit(data, "b-28", kind="infantry", formation="1", unit_id="28", hex="0604", **INF)  # another regiment
    unit(data, "b-cav", kind="cavalry", formation="1", unit_id="27", hex="0503",
         full={"cf": 3, "mr": 4, "ma": 8, "charge": 4}, ineffective={"cf": 1, "mr": 2, "ma": 10})  # not stacked
    sc, units = board(data)
    assert absorbers(sc, units, "b-1", participants=["b-1"]) == ["b-27"]
    assert absorbers(sc, units, "b-27", participants=["b-27"]) == ["b-1"]
    units["b-27"].reduced = True  # full-sized is its size (2.7: not a battalion or squadron), not its strength
    assert absorbers(sc, units, "b-1", participants=["b-1"]) == ["b-27"]


def test_7_11_another_full_sized_unit_absorbs_only_for_a_full_sized_primary() -> None:
    data = vacated()
    find(data, "b-1")["unit_id"] = "27"
    unit(data, "b-bn", kind="battalion", formation="1", unit_id="27", hex="0604", **BN)
    sc, units = board(data)
    assert absorbers(sc, units, "b-1", participants=["b-1"]) == ["b-bn"]  # a battalion of the formation
    assert absorbers(sc, units, "b-bn", participants=["b-bn"]) == []  # 7.11 "another": b-1 takes no battalion's loss


def test_7_11_a_unit_with_the_same_id_absorbs_a_step_in_play() -> None:
    from .play import choose, end, load, new_game, submit

    data = standard_data()
    find(data, "r-1")["unit_id"] = "7G"
    unit(data, "r-1b", "0704", side="red", kind="infantry", formation="7", unit_id="7G", **INF)
    next(s for s in data["setup"] if s["unit"] == "b-1")["hex"] = "0604"
    game = new_game(data, [])
    end(game)
    load(game, [6, 1])  # r-1 alone defends: 6 - 5 = +1, die 6 = Dx, passed: a step lost
    submit(game, "blue", {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1"})
    choose(game, "red", "r-1:r-1")
    choose(game, "red", "step_loss")
    d = game.state.decision
    assert d is not None and (d["kind"], d["rule"]) == ("absorb", "7.11")
    assert {o["id"] for o in d["options"]} == {"r-1", "r-1b"}
    choose(game, "red", "r-1b")
    assert game.state.units["r-1b"].reduced and not game.state.units["r-1"].reduced


def test_7_12_advance_one_hex_into_the_vacated_hex_or_next_to_it() -> None:
    sc, units = board(vacated())
    got = advance_hexes(sc, units, "b-1", "0704")
    assert "0704" in got
    assert all(sc.grid.is_adjacent("0604", h) for h in got)
    assert all(h == "0704" or sc.grid.is_adjacent("0704", h) for h in got)


def test_7_12_two_hexes_after_a_rout_but_not_after_a_capture() -> None:
    sc, units = board(vacated())
    one = set(advance_hexes(sc, units, "b-1", "0704"))
    two = set(advance_hexes(sc, units, "b-1", "0704", rout=True))
    assert one < two and "0804" in two
    assert set(advance_hexes(sc, units, "b-1", "0704", rout=True, captured=True)) == one


def test_7_12_who_may_not_advance() -> None:
    data = vacated()
    unit(data, "b-art", kind="artillery", formation="1", hex="0603", **ART)
    sc, units = board(data)
    assert "artillery" in (advance_problem(sc, units, "b-art") or "")
    units["b-1"].disrupted = True
    assert "2.8(4)" in (advance_problem(sc, units, "b-1") or "")
    data = vacated()
    find(data, "b-1")["full"]["parenthesized"] = True
    sc, units = board(data)
    assert advance_hexes(sc, units, "b-1", "0704") == []


def test_7_12_r13_no_advance_from_terrain_the_tec_names() -> None:
    data = vacated()
    data["map"]["hexes"]["0604"] = "woods"
    unit(data, "b-cav", kind="cavalry", formation="1", hex="0604", full={"cf": 3, "mr": 4, "ma": 8, "charge": 4},
         ineffective={"cf": 1, "mr": 2, "ma": 10})
    sc, units = board(data)
    assert "R13" in (advance_problem(sc, units, "b-cav") or "")
    assert advance_problem(sc, units, "b-1") is None


def test_7_12_the_first_hex_is_vacant_and_no_advance_overstacks_a_hex() -> None:
    data = vacated()
    unit(data, "b-x", kind="infantry", formation="1", hex="0603", **INF)
    sc, units = board(data)
    assert "0603" not in advance_hexes(sc, units, "b-1", "0704")  # not vacant
    unit(data, "b-y", kind="infantry", formation="1", hex="0804", **INF)
    sc, units = board(data)
    assert "0804" in advance_hexes(sc, units, "b-1", "0704", rout=True)  # the second hex may hold friends
    for i in range(2):
        unit(data, f"b-z{i}", kind="infantry", formation="1", hex="0804", **INF)
    sc, units = board(data)
    assert "0804" not in advance_hexes(sc, units, "b-1", "0704", rout=True)  # but not three counting units


# --- 7.12, 14.2(4): the victorious defender's advance, played in a game ------------------------------------------------
def _defender_wins(data: dict[str, Any], dice: list[int], defenders: str | None = None) -> Any:
    """b-1 (CF 6) at 0604 attacks 0704 and the result sends it back: blue retreats (7.8) and 0604 is vacated."""
    from .fight import combat, decision
    from .play import choose, submit

    game = combat(data, dice)
    submit(game, "blue", {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1"})
    if defenders is not None:
        choose(game, "red", defenders)
    d = decision(game)
    assert (d["kind"], d["side"]) == ("result", "blue")
    choose(game, "blue", "retreat")
    d = decision(game)
    assert (d["kind"], d["side"]) == ("retreat", "blue")
    choose(game, "blue", d["options"][0]["id"])
    assert game.state.units["b-1"].hex != "0604"
    return game


def test_7_12_a_victorious_defender_may_advance_by_day() -> None:
    from .fight import decision, ground
    from .play import choose

    game = _defender_wins(ground(), [1, 6])  # +1: die 1 = Ac(NE) Ammo; blue's primary fails: blue retreats
    d = decision(game)
    assert (d["kind"], d["side"], d["rule"]) == ("advance", "red", "7.12")
    assert "0604" in d["hexes"] and "stay" in {o["id"] for o in d["options"]}  # into the vacated hex, or stay
    assert all(h == "0604" or h in ("0603", "0705") for h in d["hexes"])  # one hex: next to the vacated hex
    choose(game, "red", "0604")
    assert game.state.units["r-1"].hex == "0604" and game.state.decision is None
    assert (game.state.active, game.state.phase) == ("blue", "combat")


def test_7_12_artillery_and_defenders_in_terrain_the_tec_bars_do_not_advance() -> None:
    from .fight import ARTILLERY, decision, ground

    data = ground()
    unit(data, "r-art", "0704", side="red", formation="7", **ARTILLERY)
    game = _defender_wins(data, [1, 6], "r-1+r-art:r-1")  # 6 - (5 + 1) = 0: die 1 = Ar Ammo; blue retreats
    d = decision(game)
    assert (d["kind"], d["side"]) == ("advance", "red") and d["task"]["unit"] == "r-1"  # not the artillery (8.3)
    data = ground()
    data["map"]["hexes"]["0704"] = "woods"
    unit(data, "r-sq", "0704", side="red", kind="squadron", formation="7",
         full={"cf": 3, "mr": 4, "ma": 8, "charge": 4}, ineffective={"cf": 1, "mr": 2, "ma": 10})
    game = _defender_wins(data, [2, 6], "r-1+r-sq:r-1")  # 6 - (5 + 3) = -2: die 2 = Ar; blue retreats
    d = decision(game)
    assert (d["kind"], d["side"]) == ("advance", "red") and d["task"]["unit"] == "r-1"  # no cavalry from woods (R13)
    game.submit("red", {"type": "choose", "option": "stay"})
    assert game.state.decision is None and game.state.units["r-sq"].hex == "0704"


def test_14_2_4_no_defender_advance_at_night() -> None:
    """The same held charge by day and at night: by day red may advance into the hex blue leaves; at night not."""
    from .fight import decision, ground, light
    from .play import choose, end, load, new_game

    for when in ("day", "night"):
        data = ground("0504")
        light(data, when)
        game = new_game(data, [])
        game.submit("blue", {"type": "charge", "units": ["b-1"], "path": ["0504", "0604"], "target": "0704"})
        end(game)
        load(game, [1, 1, 1])  # the charge check passes; +1: die 1 = Ac(NE) Ammo, read Ax (7.13(3)); passed
        game.submit("blue", {"type": "attack", "target": "0704", "attackers": ["b-1"], "primary": "b-1",
                             "tactic": "charge"})
        game.submit("red", {"type": "choose", "option": "none"})
        choose(game, "blue", "disrupt_retreat")  # all disrupted and retreat (7.8)
        d = decision(game)
        assert (d["kind"], d["side"]) == ("retreat", "blue")
        choose(game, "blue", d["options"][0]["id"])
        assert game.state.units["b-1"].hex != "0604"
        d = game.state.decision
        if when == "day":
            assert d is not None and (d["kind"], d["side"]) == ("advance", "red") and "0604" in d["hexes"]
        else:
            assert d is None  # 14.2(4): the defender may not advance (and the chargers retreat only once)
            assert (game.state.active, game.state.phase) == ("blue", "combat")
