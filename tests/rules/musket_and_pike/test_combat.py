"""Close combat (11.0, R17.80-R17.89): who declares, the modifiers with the +4/-4 cap, the results."""

from __future__ import annotations

import pytest

from server.rules import IllegalCommand

from .builder import Board, ctx_of, events


def _cc(g, defender: str, attackers: list[str], lead: str | None = None) -> list[dict]:  # type: ignore[no-untyped-def]
    return g.submit("blue", {"type": "close_combat", "defender": defender, "attackers": attackers,
                             "lead": lead or attackers[0], "pistols": []})


def test_r17_84_the_modifiers_are_capped_at_plus_four() -> None:
    b = Board()
    b.unit("b-cav", "blue", "cavalry", "0606", wing="b-foot", sp=4, morale=7)
    b.unit("r-li", "red", "li", "0605", facing="S", sp=1, morale=7, state={"cond": "broken"})
    g = b.game(segment="close_combat", dice=[5, 0])
    evs = _cc(g, "r-li", ["b-cav"])
    (c,) = events(evs, "close_combat")
    labels = {m["label"]: m["value"] for m in c["modifiers"]}
    assert labels["matrix Curassier vs Lt Inf"] == 2 and labels["strength 4:1"] == 2
    assert labels["defender Formation Broken"] == 2
    assert c["raw"] == 6 and c["total_modifier"] == 4 and c["total"] == 9 and c["result"] == "DE"
    assert not ctx_of(g).on_map("r-li")


def test_r17_35_only_a_charge_wing_declares_close_combat() -> None:
    b = Board().order("b-foot", "make_ready")
    b.unit("b-hi", "blue", "hi", "0606", pikes=True).unit("r-hi", "red", "hi", "0605", facing="S", pikes=True)
    g = b.game(segment="close_combat")
    with pytest.raises(IllegalCommand) as e:
        _cc(g, "r-hi", ["b-hi"])
    assert "R17.35" in e.value.message


def test_11_6_light_infantry_attacks_only_light_infantry() -> None:
    b = Board()
    b.unit("b-li", "blue", "li", "0606").unit("r-hi", "red", "hi", "0605", facing="S", pikes=True)
    g = b.game(segment="close_combat")
    with pytest.raises(IllegalCommand) as e:
        _cc(g, "r-hi", ["b-li"])
    assert "11.6" in e.value.message


def test_r17_80_the_defender_must_be_in_the_front_arc() -> None:
    b = Board()
    b.unit("b-hi", "blue", "hi", "0606", facing="S", pikes=True)
    b.unit("r-hi", "red", "hi", "0605", facing="S", pikes=True)
    g = b.game(segment="close_combat")
    with pytest.raises(IllegalCommand) as e:
        _cc(g, "r-hi", ["b-hi"])
    assert "front arc" in e.value.message


def test_r17_74_a_morale_broken_defender_is_eliminated_without_a_roll() -> None:
    b = Board()
    b.unit("b-hi", "blue", "hi", "0606", pikes=True)
    b.unit("r-hi", "red", "hi", "0605", facing="S", pikes=True, state={"morale": "broken"})
    g = b.game(segment="close_combat", dice=[])
    evs = _cc(g, "r-hi", ["b-hi"])
    assert not ctx_of(g).on_map("r-hi")
    assert not events(evs, "dice")
    assert g.state.decision is not None and g.state.decision["kind"] == "advance"  # the attacker MAY advance


def test_11_3_7_flank_attack_and_r17_89_formation_hits_after() -> None:
    b = Board()
    b.unit("b-hi", "blue", "hi", "0606", pikes=True)
    b.unit("r-hi", "red", "hi", "0605", facing="N", pikes=True)  # blue attacks its rear
    g = b.game(segment="close_combat", dice=[4])
    evs = _cc(g, "r-hi", ["b-hi"])
    (c,) = events(evs, "close_combat")
    assert {"label": "attacked from flank/rear hexes", "value": 1, "rule": "11.3.7"} in c["modifiers"]
    assert c["result"] == "DMS1"
    # the retreat decision comes first; its only path is taken at once when there is one (R7)
    while g.state.decision is not None:
        g.submit(g.awaiting, {"type": "choose", "option": g.state.decision["options"][0]["id"]})
    assert ctx_of(g).cond("b-hi").value == "shaken" and ctx_of(g).cond("r-hi").value == "shaken"
    assert ctx_of(g).morale("r-hi").value == "shaken"


def test_r17_80_a_charge_unit_that_moved_next_to_an_enemy_must_attack() -> None:
    b = Board()
    b.unit("b-hi", "blue", "hi", "0607", pikes=True).unit("r-hi", "red", "hi", "0605", facing="S", pikes=True)
    g = b.game()
    g.submit("blue", {"type": "move", "unit": "b-hi", "path": ["0607", "0606"]})
    while g.state.decision is not None:  # the enemy's reactions: none
        g.submit(g.awaiting, {"type": "choose", "option": g.state.decision["options"][0]["id"]})
    g.submit("blue", {"type": "end_segment"})
    g.submit("blue", {"type": "end_segment"})
    with pytest.raises(IllegalCommand) as e:
        g.submit("blue", {"type": "end_segment"})
    assert e.value.rule == "R17.80"
