"""The turn (R17.21-R17.29): initiative, orders changes (5.7), activation, preemption (4.4) and continuation (4.3),
each a decision to the side that decides, in plain words with its rule and its odds."""

from __future__ import annotations

import random

import pytest

from server.rules import Game
from server.rules.kernel.dice import die_from_seed
from server.rules.kernel.randomplayer import RandomPlayer
from server.rules.musket_and_pike.context import MPCtx
from server.rules.musket_and_pike.scenario import MPScenario
from server.rules.musket_and_pike.tables import chance_at_most
from server.rules_cli import find_scenario


@pytest.fixture(scope="module")
def lindau() -> MPScenario:
    sc = find_scenario("mp-lindau")
    assert isinstance(sc, MPScenario)
    return sc


def opened(sc: MPScenario, seed: str) -> Game:
    """M19: a new battle waits for its first side to open it; turn 1's initiative is rolled then."""
    g = Game.new(sc, seed)
    assert g.state.dice_count == 0 and g.awaiting == "imperial"
    g.submit("imperial", {"type": "end_segment"})
    return g


def test_m19_no_die_is_rolled_before_both_seats_contribute(lindau: MPScenario) -> None:
    g = Game.new(lindau, "contribution-seed-0000001", contributions={"imperial": "ab" * 32})
    assert not g.dice_ready and g.state.dice_count == 0
    g.contribute("swedish", "")
    g.submit("imperial", {"type": "end_segment"})
    assert g.state.dice_count == 2 and g.state.extra["initiative"] in ("imperial", "swedish")


@pytest.mark.parametrize("seed", [f"initiative-seed-{i:04d}-xxxx" for i in range(6)])
def test_r17_21_the_lower_total_with_the_ac_rating_has_the_initiative(lindau: MPScenario, seed: str) -> None:
    g = opened(lindau, seed)
    imp = die_from_seed(seed, 0, {"imperial": "", "swedish": ""}, faces=10) + 0  # Holk 0
    swe = die_from_seed(seed, 1, {"imperial": "", "swedish": ""}, faces=10) - 1  # Horn -1
    want = "imperial" if imp <= swe else "swedish"  # a tie on turn 1: the scenario's first side
    assert g.state.extra["initiative"] == want


def test_5_7_the_initiative_side_decides_its_orders_first_with_the_odds(lindau: MPScenario) -> None:
    g = opened(lindau, "orders-change-seed-000001")
    d = g.state.decision
    assert d is not None and d["kind"] == "orders_change" and d["rule"] == "5.7"
    assert d["side"] == g.state.extra["initiative"]
    assert "(rules 5.7, R17.24)" in d["text"]
    keep, *tries = d["options"]
    assert keep["id"] == "keep"
    for o in tries:
        assert o["odds"] == chance_at_most(o["need"], sum(m["value"] for m in o["modifiers"]))
        assert f"0-{o['need']}" in o["label"]


def test_r17_13_a_cavalry_wing_changing_to_charge_takes_minus_one(lindau: MPScenario) -> None:
    g = opened(lindau, "orders-change-seed-000002")
    ctx = MPCtx.of(g)
    from server.rules.musket_and_pike.command import change_mods
    from server.rules.musket_and_pike.tables import Order
    labels = {m["label"]: m["value"] for m in change_mods(ctx, "imp-horse", Order.CHARGE)}
    assert labels == {"WC Piccolomini's rating": -1, "Cavalry Wing changing to Charge": -1}


def test_4_3_4_4_preemption_and_continuation_are_offered_with_their_odds(lindau: MPScenario) -> None:
    seen: dict[str, dict] = {}
    for i in range(6):
        g = Game.new(lindau, f"preempt-seed-{i:06d}-xx")
        p = RandomPlayer(random.Random(i))
        while not g.is_over and len(seen) < 2 and g.state.turn <= 2:
            d = g.state.decision
            if d is not None and d["kind"] in ("preempt", "continue") and d["kind"] not in seen:
                seen[d["kind"]] = d
                ctx = MPCtx.of(g)
                for o in d["options"]:
                    if "need" in o:
                        assert o["odds"] == chance_at_most(o["need"], sum(m["value"] for m in o["modifiers"]))
                if d["kind"] == "preempt":
                    assert d["side"] != ctx.sc.wings[d["task"]["wing"]].side  # the opponent decides
                else:
                    assert d["side"] == ctx.sc.wings[d["task"]["wing"]].side  # the owner decides
            s = g.awaiting
            assert s is not None
            g.submit(s, p.choose(g, s))
        if len(seen) == 2:
            break
    assert set(seen) == {"preempt", "continue"}
    assert seen["preempt"]["rule"] == "4.4" and seen["continue"]["rule"] == "4.3"
