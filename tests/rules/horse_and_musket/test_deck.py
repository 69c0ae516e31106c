"""The designed deck (deck.py, R16.10, R16.19): draws in the owner's secret, the hand limit, the refill from the played
cards, a played card public and in the discard, one card per unit per step."""

from __future__ import annotations

import pytest

from server.rules import IllegalCommand
from server.rules.horse_and_musket import deck
from server.rules.horse_and_musket.tables import COLD_STEEL, FORCED_MARCH, VOLLEY
from server.rules.kernel import cards as kcards

from .builder import Board, ctx_of, events_of


def test_r16_10_a_draw_over_the_hand_limit_is_not_made() -> None:
    g = Board().game(step="command", dice=[1, 1], hands={"blue": [VOLLEY, VOLLEY]})
    ctx = ctx_of(g)
    assert deck.draw(ctx, "blue", 2, "3.t") == 1
    assert len(kcards.hand(ctx.x, "blue")) == 3
    assert events_of(ctx.events, "card_limit")  # public: the hand count is public


def test_r16_10_an_empty_deck_is_refilled_from_the_played_cards() -> None:
    g = Board().game(step="command", dice=[2])
    ctx = ctx_of(g)
    x = ctx.x
    played = kcards.pile(x, "blue", "deck")[:]
    kcards.pile(x, "blue", "deck").clear()
    kcards.pile(x, "blue", "discard").extend(played[:4])
    kcards.hand(x, "blue").extend(played[4:6])
    assert deck.draw(ctx, "blue", 1, "3.t") == 1
    assert events_of(ctx.events, "deck_refilled")[0]["count"] == 4
    assert len(kcards.pile(x, "blue", "deck")) == 3 and not kcards.pile(x, "blue", "discard")


def test_r16_19_what_a_draw_tells_whom() -> None:
    g = Board().game(step="command", dice=[3, 4])
    ctx = ctx_of(g)
    deck.draw(ctx, "blue", 1, "3.t")
    private = [e for e in ctx.events if e.get("visible_to") == "blue"]
    public = [e for e in ctx.events if "visible_to" not in e]
    assert {e["type"] for e in private} == {"dice", "card_drawn"}
    assert [e["type"] for e in public] == ["cards_drawn"]
    assert all("card" not in e for e in public)


def test_r16_10_one_card_per_unit_per_step() -> None:
    g = Board().unit("b", "blue", "hc", "0608").game(step="charges", hands={"blue": [COLD_STEEL, FORCED_MARCH]})
    ctx = ctx_of(g)
    deck.spend(ctx, "blue", COLD_STEEL, "b")
    with pytest.raises(IllegalCommand) as err:
        deck.check(ctx, "blue", FORCED_MARCH, "b", (FORCED_MARCH,))
    assert "already" in err.value.message
    assert kcards.pile(ctx.x, "blue", "discard") == [COLD_STEEL]
