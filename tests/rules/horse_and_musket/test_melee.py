"""Hand-to-hand (melee.py): 6.1-6.11 and SR.1 as R16.16 reads them: the charger's blow then the strike-back, every
extra die of 6.6, the defender's saves (6.7), the result and ties (6.8, 6.10), artillery overrun (4.1.7, 6.2),
colours and their recapture (SR.1)."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules.horse_and_musket import melee
from server.rules.horse_and_musket.context import HMCtx

from .builder import Board, ctx_of, events_of, step

A = "0608"
D = step(A, "N")


def _contact(**kw: Any) -> dict[str, Any]:
    return {"charger": "c", "target": "t", "counter": False, "river": False, "card": False, **kw}


def _ctx(b: Board, dice: list[int] | None = None, **kw: Any) -> HMCtx:
    g = b.game(step="firing", dice=dice or [], **kw)
    ctx = ctx_of(g)
    ctx.x["contacts"] = [_contact()]
    return ctx


def _dice(ctx: HMCtx, me: str, foe: str, contact: dict[str, Any] | None = None, charging: bool = True
          ) -> dict[str, int]:
    return {rule: n for n, rule, _ in melee.dice_for(ctx, me, foe, contact or _contact(), charging)}


def _pair(charger: str = "co", target: str = "co", **kw: Any) -> Board:
    return Board().unit("c", "blue", charger, A, **kw).unit("t", "red", target, D, facing="S")


def test_6_1_6_6_1_the_charger_rolls_4d6_and_2_for_charging_the_defender_4d6() -> None:
    ctx = _ctx(_pair())
    assert _dice(ctx, "c", "t") == {"6.1": 4, "6.6.1": 2}
    assert _dice(ctx, "t", "c", charging=False) == {"6.1": 4}


def test_4_1_8_4_r16_20_26_a_column_fights_with_its_front_element() -> None:
    ctx = _ctx(_pair(formation="column"))
    assert _dice(ctx, "c", "t")["6.1"] == 1
    assert "6.6.6" not in _dice(ctx, "t", "c", charging=False)  # 6.6.6's column bonus is the attacker's alone
    ctx = _ctx(Board().unit("c", "blue", "co", A).unit("t", "red", "co", D, facing="S", formation="column"))
    assert _dice(ctx, "c", "t")["6.6.6"] == 2


def test_6_4_no_charge_bonus_in_difficult_going() -> None:
    assert "6.6.1" not in _dice(_ctx(_pair().terrain(D, "crops")), "c", "t")
    assert "6.6.1" not in _dice(_ctx(_pair().hedge(A, D)), "c", "t")


@pytest.mark.parametrize(("setup", "rule", "n"), [
    ("staggered foe", "6.6.2", 2), ("close order on light infantry", "6.6.3", 2), ("HC on LC", "6.6.4", 1),
    ("flank", "6.6.6", 2), ("higher ground", "6.6.7", 1), ("general", "6.6.9", 1), ("superior", "6.6.10", 2),
    ("cold steel", "R16.10", 2)])
def test_6_6_the_chargers_extra_dice(setup: str, rule: str, n: int) -> None:
    kind, target = "co", "co"
    b = Board()
    if setup == "close order on light infantry":
        target = "li"
    elif setup == "HC on LC":
        kind, target = "hc", "lc"
    elif setup == "superior":
        kind = "hc"  # average heavy cavalry counts as elite against infantry (UG)
    b.unit("c", "blue", kind, A).unit("t", "red", target, D, facing="NE" if setup == "flank" else "S")
    if setup == "higher ground":
        b.terrain(A, "hill", 1)
    if setup == "general":
        b.general("b-g", "blue", A)
    ctx = _ctx(b, staggered=("t",) if setup == "staggered foe" else ())
    assert _dice(ctx, "c", "t", _contact(card=setup == "cold steel")).get(rule) == n


def test_6_6_5_6_6_8_6_6_11_the_defenders_extra_dice_and_supports() -> None:
    b = _pair().fieldwork(D).unit("s1", "red", "co", step(D, "NE"), facing="S").unit(
        "s2", "red", "lc", step(D, "N"), facing="S")
    ctx = _ctx(b)
    got = _dice(ctx, "t", "c", _contact(river=True), charging=False)
    assert (got["6.6.5"], got["6.6.8"], got["6.6.11"]) == (2, 1, 2)  # s1 across its flank, s2 its rear
    ctx.x["breached"] = [D]
    assert "6.6.5" not in _dice(ctx, "t", "c", charging=False)  # SR.4
    town = _pair().terrain(D, "town").unit("s1", "red", "co", step(D, "N"), facing="S")
    assert "6.6.11" not in _dice(_ctx(town), "t", "c", charging=False)  # R16.12: no supports in a town


def test_6_6_10_superiority_by_grade() -> None:
    ctx = _ctx(_pair(grade="elite"))
    assert _dice(ctx, "c", "t").get("6.6.10") == 2 and "6.6.10" not in _dice(ctx, "t", "c", charging=False)


def test_6_8_r16_16_more_hits_wins_the_loser_retreats_no_advance() -> None:
    ctx = _ctx(_pair(), dice=[4, 5, 6, 1, 1, 1] + [4, 1, 1, 1] + [6, 5])
    melee.melee_step(ctx)
    assert (ctx.hits("t"), ctx.hits("c")) == (3, 1)
    assert ctx.hex_of("c") == A  # nobody advances
    assert ctx.hex_of("t") == step(D, "N", "N")  # a full move straight back, facing the winner
    assert ctx.facing("t") == "S"
    assert ctx.x["contacts"] == []


def test_6_10_a_tie_loses_for_the_defender_but_a_town_holds() -> None:
    ctx = _ctx(_pair(), dice=[4, 1, 1, 1, 1, 1] + [4, 1, 1, 1] + [1, 1])
    melee.melee_step(ctx)
    assert ctx.hex_of("t") != D and ctx.hex_of("c") == A
    ctx = _ctx(_pair().terrain(D, "town"), dice=[4, 4, 1, 1] + [4, 1] + [4, 1, 1, 1] + [1, 1])
    melee.melee_step(ctx)  # 4d6 (no charge bonus into difficult going): two hits, one saved; one back
    assert ctx.hex_of("t") == D and ctx.hex_of("c") == step(A, "S", "S")


def test_6_7_2_close_order_infantry_charged_frontally_by_cavalry_saves() -> None:
    ctx = _ctx(_pair(charger="hc"), dice=[6] * 8 + [5, 5, 5, 5, 1, 1, 1, 1])
    assert melee.strike(ctx, "c", "t", _contact(), True) == 4  # 8 dice (4 + 2 charging + 2 superior), 4 saved


def test_4_1_7_6_2_artillery_contacted_is_overrun_with_no_dice() -> None:
    b = Board().unit("c", "blue", "hc", A).unit("t", "red", "artillery", D, facing="S", formation="deployed")
    ctx = _ctx(b)
    melee.melee_step(ctx)
    assert ctx.st.units["t"].status == "captured" and ctx.x["guns"] == {"blue": 1}
    assert not [e for e in ctx.events if e["type"] == "dice"]


def test_sr_1_colours_captured_from_a_removed_unit_on_a_6() -> None:
    ctx = _ctx(_pair(), dice=[6] * 8 + [6], hits={"t": 5}, staggered=("t",))  # 8 dice: +2 on a staggered foe
    melee.melee_step(ctx)
    assert ctx.st.units["t"].status == "eliminated"
    assert ctx.x["colours"] == [{"of": "t", "side": "blue", "carrier": "c", "held": True}]


def test_sr_1_colours_of_a_retreating_unit_need_a_12() -> None:
    ctx = _ctx(_pair(), dice=[4, 5, 6, 1, 1, 1] + [4, 1, 1, 1] + [6, 6])
    melee.melee_step(ctx)
    assert events_of(ctx.events, "colours") and ctx.x["colours"][0]["of"] == "t"


def test_sr_1_r16_16_colours_carried_by_a_beaten_unit_are_recaptured_and_count_for_nobody() -> None:
    b = Board().unit("c", "blue", "co", A).unit("r2", "red", "co", D, facing="S")
    ctx = ctx_of(b.game(step="firing", dice=[4, 4, 4, 1, 1, 1] + [1, 1, 1, 1] + [1, 1] + [6, 6]))
    ctx.x["contacts"] = [{"charger": "r2", "target": "c", "counter": False, "river": False, "card": False}]
    ctx.x["colours"] = [{"of": "r2", "side": "blue", "carrier": "c", "held": True}]
    melee.melee_step(ctx)
    assert ctx.hex_of("c") == step(A, "S", "S")
    assert ctx.x["colours"] == [{"of": "r2", "side": "blue", "carrier": None, "held": False}]
