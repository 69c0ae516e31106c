"""What the computer opponent weighs in a Musket & Pike position (`heuristics.py`, issue 43): heuristics, never rules,
but each reads the rule it is about, so each test names that rule."""

from __future__ import annotations

import pytest

from server.rules.musket_and_pike import heuristics
from server.rules.musket_and_pike.command import activation_mods
from server.rules.musket_and_pike.tables import CONTINUATION, Order, chance_at_most

from .builder import Board, ctx_of


def test_4_3_a_pending_continuation_is_worth_its_odds_of_another_activation() -> None:
    b = Board()
    b.unit("b-hi", "blue", "hi", "0606", pikes=True)
    g = b.game(wing="b-foot", segment="close_combat")
    ctx = ctx_of(g)
    ctx.x["segment"], ctx.x["wing"] = None, None  # the activation has ended
    before = heuristics.tempo(ctx)["blue"]
    g.state.tasks.append({"t": "mp_continuation", "wing": "b-foot"})
    after = heuristics.tempo(ctx)["blue"]
    odds = chance_at_most(CONTINUATION[Order.CHARGE], sum(int(m["value"]) for m in activation_mods(ctx, "b-foot",
                                                                                                   False)))
    assert odds > 0
    assert after - before == pytest.approx(heuristics.TEMPO * odds)


def test_r17_26_a_wing_marked_no_continue_is_worth_less_tempo() -> None:
    b = Board()
    b.unit("b-hi", "blue", "hi", "0606", pikes=True)
    g = b.game(wing="b-foot", segment="movement")
    ctx = ctx_of(g)
    fresh = heuristics.tempo(ctx)["blue"]
    ctx.wing("b-horse")["no_continue"] = True
    assert heuristics.tempo(ctx)["blue"] < fresh


def test_r17_24_a_wing_more_than_half_shaken_fits_rally() -> None:
    b = Board()
    b.unit("b-hi", "blue", "hi", "0610", pikes=True, state={"morale": "shaken"})
    b.unit("b-hi2", "blue", "hi", "0810", pikes=True, state={"morale": "shaken"})
    b.unit("r-hi", "red", "hi", "0602", facing="S", pikes=True)
    b.order("b-foot", "rally")
    g = b.game(wing="r-foot", segment="movement")
    rally = heuristics.orders(ctx_of(g), behind="blue")["blue"]
    b.order("b-foot", "make_ready")
    g = b.game(wing="r-foot", segment="movement")
    assert rally > heuristics.orders(ctx_of(g), behind="blue")["blue"]


def test_r17_35_the_side_behind_wants_charge_only_where_close_combat_pays() -> None:
    """Close combat is declared only under Charge (R17.35): it fits a wing that would win its fights (HI against an
    enemy LI in the open), not one whose units would lose them (cavalry against pikes in Hedgehog, 11.3.8)."""
    def fit(attacker: str, order: str, **kw: object) -> float:
        b = Board()
        if attacker == "hi":
            b.unit("b-x", "blue", "hi", "0606", pikes=True)
            b.unit("r-y", "red", "li", "0604", facing="S")
        else:
            b.unit("b-x", "blue", "cavalry", "0606", wing="b-foot", **kw)
            b.unit("r-y", "red", "hi", "0604", facing="S", pikes=True, state={"mode": "hedgehog"})
        b.order("b-foot", order)
        return heuristics.orders(ctx_of(b.game(wing="r-foot", segment="movement")), behind="blue")["blue"]

    assert fit("hi", "charge") > fit("hi", "make_ready")
    assert fit("cavalry", "charge") < fit("cavalry", "make_ready")


def test_11_0_cc_value_reads_the_close_combat_table() -> None:
    b = Board()
    b.unit("b-hi", "blue", "hi", "0606", pikes=True, morale=8)
    b.unit("r-li", "red", "li", "0605", facing="S", morale=6)
    b.unit("r-art", "red", "artillery", "0707", facing="S")
    ctx = ctx_of(b.game(wing="b-foot", segment="close_combat"))
    assert heuristics.cc_value(ctx, "b-hi", "r-li") > 0
    assert heuristics.cc_value(ctx, "b-hi", "r-art") == 2.0  # overrun (R17.80): the battery's Original Strength


def test_r17_80_a_unit_bound_to_attack_counts_its_fight_at_once() -> None:
    """A Charge unit that moved next to an enemy unit must attack (R17.80): its expected fight is in the position."""
    b = Board()
    b.unit("b-cav", "blue", "cavalry", "0606", wing="b-foot", **{"class": "arquebusier"})
    b.unit("r-hi", "red", "hi", "0605", facing="S", pikes=True, state={"mode": "hedgehog"})
    g = b.game(wing="b-foot", segment="action")
    g.state.units["b-cav"].moved = True
    ctx = ctx_of(g)
    assert heuristics.forced(ctx)["blue"] < 0
    g.state.units["b-cav"].moved = False
    ctx.dirty()
    assert heuristics.forced(ctx)["blue"] == 0


def test_r17_94_advance_draws_every_unit_toward_an_objective_its_side_does_not_hold() -> None:
    b = Board()
    b.unit("b-hi", "blue", "hi", "0610", pikes=True)
    b.unit("b-hi2", "blue", "hi", "0810", pikes=True)
    b.data["victory"]["objectives"] = [{"hex": "0603", "points": 4, "owner": "red"}]
    g = b.game(wing="b-foot", segment="movement")
    ctx = ctx_of(g)
    far = heuristics.advance(ctx)["blue"]
    g.state.units["b-hi2"].hex = "0806"
    ctx.dirty()
    assert heuristics.advance(ctx)["blue"] == pytest.approx(far + 4 * heuristics.ADVANCE)


def _objective_board(red_next_to_it: bool) -> Board:
    """Blue (behind) three hexes from an empty objective red holds (R17.94); red's foot near it or far from it."""
    b = Board()
    b.unit("b-hi", "blue", "hi", "0608", pikes=True)
    b.unit("r-hi", "red", "hi", "0604" if red_next_to_it else "1001", facing="S", pikes=True)
    b.data["victory"]["objectives"] = [{"hex": "0605", "points": 4, "owner": "red"}]
    return b


def test_5_6_an_empty_objective_clear_of_the_enemy_fits_make_ready_not_charge() -> None:
    """Note 2 lets a Make Ready unit walk into a hex no enemy stands next to; under Charge note 1 binds every move to
    its nearest enemy, which may lead away from the objective: the empty objective calls for Make Ready."""
    def fit(order: str, red_next_to_it: bool) -> float:
        b = _objective_board(red_next_to_it)
        b.order("b-foot", order)
        return heuristics.orders(ctx_of(b.game(wing="r-foot", segment="movement")), behind="blue")["blue"]

    ctx = ctx_of(_objective_board(False).game(wing="r-foot"))
    assert heuristics.walk_in(ctx, "b-foot") and not heuristics.storm(ctx, "b-foot")
    assert fit("make_ready", False) > fit("charge", False)
    # an enemy next to the objective: Make Ready may not enter it (note 2), only a Charge can take it
    ctx = ctx_of(_objective_board(True).game(wing="r-foot"))
    assert not heuristics.walk_in(ctx, "b-foot") and heuristics.storm(ctx, "b-foot")
    assert fit("charge", True) > fit("make_ready", True)


def test_6_3_formation_broken_units_pull_a_charge_wing_toward_make_ready() -> None:
    """A Formation Broken unit cannot move (6.3) and a Charge wing cannot Reform (5.6, R17.30): the more of the wing
    so stuck, the less Charge fits it, even where its fights would pay."""
    def fit(order: str, stuck: bool) -> float:
        b = Board()
        b.unit("b-hi", "blue", "hi", "0606", pikes=True)
        b.unit("b-hi2", "blue", "hi", "0807", pikes=True, state={"cond": "broken"} if stuck else None)
        b.unit("r-li", "red", "li", "0604", facing="S")
        b.order("b-foot", order)
        return heuristics.orders(ctx_of(b.game(wing="r-foot", segment="movement")), behind="blue")["blue"]

    assert fit("charge", False) > fit("make_ready", False)
    assert fit("charge", True) < fit("charge", False)
    assert fit("make_ready", True) >= fit("charge", True)


def test_r17_94_taking_an_objective_keeps_the_pull_toward_it() -> None:
    """Were the advance toward an objective dropped once a side holds it, a wing round an empty village would lose more
    by walking in than the village's points: taking it must never lower the term."""
    b = Board()
    b.unit("b-hi", "blue", "hi", "0606", pikes=True)
    b.unit("b-hi2", "blue", "hi", "0806", pikes=True)
    b.data["victory"]["objectives"] = [{"hex": "0605", "points": 4, "owner": "red"}]
    g = b.game(wing="b-foot", segment="movement")
    ctx = ctx_of(g)
    before = heuristics.advance(ctx)["blue"]
    g.state.control["0605"] = "blue"
    ctx.dirty()
    assert before > 0
    assert heuristics.advance(ctx)["blue"] == pytest.approx(before)


def _horse_before_a_tercio(order: str) -> Board:
    """Blue (behind on points) has Arquebusiers five hexes from a red Tercio standing next to the objective red holds
    (R17.94): the only enemy near them, so under Charge note 1 would drive them at it (R17.31)."""
    b = Board()
    b.unit("b-arq", "blue", "cavalry", "0609", **{"class": "arquebusier", "sp": 3, "morale": 7, "ma": 8,
                                                  "pistols": 1})
    b.unit("r-tercio", "red", "hi", "0604", facing="S", pikes=True, large=True, sp=12, morale=7, ma=3)
    b.leader_at("r-wc", "0604")
    b.data["victory"]["objectives"] = [{"hex": "0605", "points": 4, "owner": "red"}]
    b.order("b-horse", order)
    return b


def test_r17_31_note_1_binds_a_charge_unit_to_its_nearest_enemy_s_fight() -> None:
    """Under Charge a unit not next to an enemy must end nearer its nearest one (R17.31) and, once next to it with it
    in front, attack it (R17.80): `bound_fight` reads that fight on the 11.0 table, and only under Charge."""
    ctx = ctx_of(_horse_before_a_tercio("charge").game(wing="r-foot"))
    fight = heuristics.bound_fight(ctx, "b-arq")
    assert fight is not None and fight < 0  # Arquebusier against Hv Inf (11.3.8 -2), 3 against 12 (11.3.4 -2)
    assert heuristics.bound(ctx)["blue"] == pytest.approx(heuristics.BOUND * fight)
    ctx = ctx_of(_horse_before_a_tercio("make_ready").game(wing="r-foot"))
    assert heuristics.bound_fight(ctx, "b-arq") is None and heuristics.bound(ctx)["blue"] == 0


def test_r17_31_a_unit_next_to_the_enemy_or_out_of_reach_is_not_bound() -> None:
    b = _horse_before_a_tercio("charge")
    g = b.game(wing="r-foot")
    ctx = ctx_of(g)
    g.state.units["b-arq"].hex = "0605"  # next to the Tercio: note 1 no longer moves it, R17.80 binds only a mover
    ctx.dirty()
    assert heuristics.bound_fight(ctx, "b-arq") is None
    g.state.units["b-arq"].hex = "0612"
    g.state.units["r-tercio"].hex = "0601"  # eleven hexes off: it cannot come next to it in one move (MA 8, + 1)
    ctx.dirty()
    assert heuristics.bound_fight(ctx, "b-arq") is None


def test_r17_31_the_side_behind_keeps_its_horse_off_charge_before_a_tercio() -> None:
    """The objective with a Tercio next to it called the wing to Charge (`storm`), but Charge would only bind the
    Arquebusiers to a fight they lose: in every term the bots weigh, Make Ready is now worth more to blue."""
    def weight(order: str) -> float:
        ctx = ctx_of(_horse_before_a_tercio(order).game(wing="r-foot"))
        return heuristics.bonus(ctx, {"blue": 0, "red": 4})["blue"]

    assert heuristics.storm(ctx_of(_horse_before_a_tercio("charge").game(wing="r-foot")), "b-horse")
    assert weight("make_ready") > weight("charge")


def test_6_3_a_formation_broken_unit_costs_its_side_whatever_its_strength() -> None:
    """6.3: Formation Broken holds a unit still until it Reforms (R17.76): STUCK a unit, artillery aside, and nothing
    for a Morale Broken unit (R17.74: no formation)."""
    def cost(kind: str, state: dict[str, str], **values: object) -> float:
        b = Board()
        b.unit("b-x", "blue", kind, "0610", state=state, **values)
        return heuristics.stuck(ctx_of(b.game(wing="r-foot")))["blue"]

    small = cost("cavalry", {"cond": "broken"}, **{"class": "arquebusier", "sp": 3})
    assert small == pytest.approx(-heuristics.STUCK) == cost("hi", {"cond": "broken"}, pikes=True, sp=6)
    assert cost("cavalry", {"cond": "shaken"}) == 0
    assert cost("artillery", {"cond": "broken"}) == 0
    assert cost("hi", {"morale": "broken", "cond": "normal"}, pikes=True) == 0


def test_r17_76_bringing_a_unit_back_under_rally_keeps_the_wing_s_fit() -> None:
    """Rally and Reform are what the Rally order is for (R17.76, 5.6): a unit Reformed under it must not cost its wing
    the order's fit (it did when Rally fitted only a wing more than half shaken)."""
    def fit(second_cond: str) -> float:
        b = Board()
        b.unit("b-hi", "blue", "hi", "0610", pikes=True, state={"cond": "broken"})
        b.unit("b-hi2", "blue", "hi", "0810", pikes=True, state={"cond": second_cond})
        b.unit("r-hi", "red", "hi", "0602", facing="S", pikes=True)
        b.order("b-foot", "rally")
        return heuristics.orders(ctx_of(b.game(wing="b-foot", segment="action")), behind="blue")["blue"]

    assert fit("normal") == pytest.approx(fit("broken"))
