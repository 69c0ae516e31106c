"""The command step (command.py): 3, 3.t, 3.1-3.4 as R16.9 reads them: the groups, one roll per general with a group
and per independent unit, the modifiers, the table, who may act, Aide-de-camp (R16.10) and the cards drawn when the
step ends."""

from __future__ import annotations

import pytest

from server.rules import IllegalCommand
from server.rules.horse_and_musket import command
from server.rules.horse_and_musket.tables import AIDE
from server.rules.kernel import cards as kcards

from .builder import Board, ctx_of, events_of, step

B = "0610"


def _groups(board: Board, dice: list[int], rallied: tuple[str, ...] = ()) -> list[dict[str, object]]:
    g = board.game(step="command", dice=dice)
    ctx = ctx_of(g)
    ctx.x["rallied"] = list(rallied)
    command.roll_groups(ctx, "blue")
    return [dict(x) for x in ctx.x["command"]["groups"]]


def test_r16_9_3_4_groups_own_brigadier_then_the_best_other_general_then_independent() -> None:
    b = (Board().general("b-1", "blue", "0206", quality="incompetent").general("b-2", "blue", "1006",
                                                                              quality="gifted")
         .unit("near", "blue", "co", "0205", brigade="b-1")
         .unit("far", "blue", "co", "1005", brigade="b-1")  # 8 from b-1, 1 from b-2
         .unit("lost", "blue", "co", "0601", brigade="b-1"))  # 7 from each, 13 from the C-in-C (0112)
    groups = _groups(b, [4, 4, 4])
    assert [(gr["general"], gr["units"]) for gr in groups] == [("b-1", ["near"]), ("b-2", ["far"]),
                                                               (None, ["lost"])]


def test_3_4_the_best_other_general_is_the_better_quality_then_the_nearer() -> None:
    b = (Board().general("b-1", "blue", "0104", quality="competent").general("b-2", "blue", "0304",
                                                                           quality="gifted")
         .general("b-own", "blue", "1212").unit("u", "blue", "co", "0204", brigade="b-own"))
    groups = _groups(b, [4])
    assert [(gr["general"], gr["units"]) for gr in groups] == [("b-2", ["u"])]


@pytest.mark.parametrize(("quality", "die", "result", "allowed", "cards"), [
    ("incompetent", 1, "none", 0, 0), ("incompetent", 3, "half", 2, 0), ("incompetent", 5, "all", 3, 1),
    ("competent", 1, "half", 2, 0), ("competent", 4, "all", 3, 0), ("competent", 6, "all", 3, 1),
    ("gifted", 1, "all", 3, 0), ("gifted", 2, "all", 3, 1), ("gifted", 5, "all", 3, 2)])
def test_3_t_r16_9_the_table_by_quality_half_rounded_up(quality: str, die: int, result: str, allowed: int,
                                                        cards: int) -> None:
    b = Board().general("b-1", "blue", B, quality=quality)
    for i, h in enumerate((step(B, "N"), step(B, "NE"), step(B, "NW"))):
        b.unit(f"u{i}", "blue", "co", h, brigade="b-1")
    (gr,) = _groups(b, [die])
    assert (gr["result"], gr["allowed"], gr["cards"]) == (result, allowed, cards)


def test_3_1_3_2_r16_9_rallying_costs_one_and_the_c_in_c_within_3_adds_one() -> None:
    b = (Board().general("b-1", "blue", B).general("chief", "blue", step(B, "N", "N", "N"), role="c-in-c")
         .unit("u", "blue", "co", step(B, "S"), brigade="b-1"))
    (gr,) = _groups(b, [1])
    assert (gr["modifier"], gr["total"], gr["result"]) == (1, 2, "all")  # 3.2: chief 3 hexes away
    (gr,) = _groups(b, [1], rallied=("b-1",))
    assert (gr["modifier"], gr["total"]) == (0, 1)  # 3.1 -1, 3.2 +1
    (gr,) = _groups(b, [1], rallied=("chief",))
    assert gr["modifier"] == 0  # R16.20(15): a C-in-C who rallied gives nobody +1
    far = (Board().general("b-1", "blue", B).general("chief", "blue", step(B, "N", "N", "N", "N"), role="c-in-c")
           .unit("u", "blue", "co", step(B, "S"), brigade="b-1"))
    assert _groups(far, [1])[0]["modifier"] == 0


def test_3_3_r16_9_an_independent_unit_rolls_as_incompetent_less_one_and_draws_no_card() -> None:
    b = Board().unit("lost", "blue", "co", "0102")
    assert [(g["result"], g["cards"]) for g in _groups(b, [2])] == [("none", 0)]
    assert [(g["result"], g["allowed"], g["cards"]) for g in _groups(b, [3])] == [("half", 1, 0)]  # R16.20(16)
    assert [(g["result"], g["cards"]) for g in _groups(b, [6])] == [("all", 0)]


def test_r16_10_aide_de_camp_rerolls_a_generals_roll_and_the_new_roll_stands() -> None:
    b = (Board().general("b-1", "blue", B, quality="incompetent").unit("u", "blue", "co", step(B, "N"),
                                                                       brigade="b-1"))
    g = b.game(step="command", dice=[1, 6, 2, 3], hands={"blue": [AIDE]})
    command.roll_groups(ctx_of(g), "blue")
    assert ctx_of(g).x["command"]["groups"][0]["result"] == "none"
    events = g.submit("blue", {"type": "play_card", "card": AIDE, "general": "b-1"})
    gr = ctx_of(g).x["command"]["groups"][0]
    assert (gr["die"], gr["result"], gr["cards"]) == (6, "all", 1)
    assert events_of(events, "card_played")[0]["card"] == AIDE
    with pytest.raises(IllegalCommand):  # the card is spent
        g.submit("blue", {"type": "play_card", "card": AIDE, "general": "b-1"})
    # R16.9: the cards are drawn when the step ends, the re-roll's included; the draw is the owner's secret
    events = g.submit("blue", {"type": "end_step"})
    assert len(kcards.hand(g.state.extra, "blue")) == 1
    drawn = events_of(events, "card_drawn")
    assert len(drawn) == 1 and drawn[0]["visible_to"] == "blue"
    assert all(e.get("visible_to") == "blue" for e in events if e["type"] == "dice")
    assert [e["count"] for e in events_of(events, "cards_drawn")] == [1] and "visible_to" not in \
        events_of(events, "cards_drawn")[0]


def test_r16_10_aide_de_camp_is_not_for_an_independent_unit_or_outside_the_command_step() -> None:
    b = Board().unit("lost", "blue", "co", "0102")
    g = b.game(step="command", dice=[1], hands={"blue": [AIDE]})
    command.roll_groups(ctx_of(g), "blue")
    with pytest.raises(IllegalCommand):
        g.submit("blue", {"type": "play_card", "card": AIDE, "general": "b-cinc"})
    g = Board().general("b-1", "blue", B).game(step="moves", hands={"blue": [AIDE]})
    with pytest.raises(IllegalCommand) as err:
        g.submit("blue", {"type": "play_card", "card": AIDE, "general": "b-1"})
    assert err.value.rule == "R16.10"
