"""kernel/cards.py: hands of cards kept in `extra`, drawn uniformly with six-sided dice, each hand read by its owner
alone (R16.10, R16.19): the view, the belief redaction and the draw's fairness."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from server.rules.kernel import cards


def _extra() -> dict[str, object]:
    x: dict[str, object] = {"cards": cards.initial({"a": ["x", "y", "y", "z"], "b": ["x", "z"]})}
    cards.take(x, "a", 1)  # a y into a's hand
    cards.take(x, "b", 0)  # b's x
    cards.discard(x, "b", "x")
    return x


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 11, 13, 16])
def test_r16_19_a_draw_is_uniform_over_the_deck_whatever_its_size(n: int) -> None:
    """Every first roll (one die up to six cards, a pair above) the draw accepts, each as likely: each index comes up
    equally often, and every index comes up."""
    dice = 1 if n <= 6 else 2
    outcomes: Counter[int] = Counter()
    for seq in itertools.product(range(1, 7), repeat=dice):
        value = seq[0] - 1 if dice == 1 else (seq[0] - 1) * 6 + seq[1] - 1
        if value >= 6 ** dice - 6 ** dice % n:
            continue  # rejected: rolled again, so it weighs nothing
        outcomes[cards.draw_index(n, iter(seq).__next__)] += 1
    assert sorted(outcomes) == list(range(n))
    assert len(set(outcomes.values())) == 1


def test_a_rejected_value_rolls_again() -> None:
    rolls = iter([6, 6, 1, 2])  # 35 is beyond 30 for a deck of 15: rolled again, then 1
    assert cards.draw_index(15, lambda: next(rolls)) == 1


def test_r16_19_each_hand_is_seen_by_its_owner_alone_until_the_end() -> None:
    x = _extra()
    assert cards.view(x, "a", everything=False)["hands"] == {"a": ["y"]}
    assert cards.view(x, "b", everything=False)["hands"] == {"b": []}
    assert cards.view(x, "spectator", everything=False)["hands"] == {}
    assert cards.view(x, "spectator", everything=True)["hands"] == {"a": ["y"], "b": []}
    v = cards.view(x, "b", everything=False)
    assert v["counts"] == {"a": {"hand": 1, "deck": 3, "discard": 0}, "b": {"hand": 0, "deck": 1, "discard": 1}}
    assert v["discards"] == {"a": [], "b": ["x"]}
    assert "y" not in str({k: val for k, val in v.items()})  # nothing of a's hand in b's view


def test_r16_19_a_non_owners_belief_holds_the_other_hand_and_deck_unknown() -> None:
    x = _extra()
    red = cards.redacted(x, "b")
    sides = red["cards"]["sides"]
    assert sides["a"] == {"hand": [cards.UNKNOWN], "deck": [cards.UNKNOWN] * 3, "discard": []}
    assert sides["b"] == {"hand": [], "deck": ["z"], "discard": ["x"]}
    assert x["cards"]["sides"]["a"]["hand"] == ["y"]  # the real block is untouched


def test_r16_10_an_empty_deck_is_refilled_from_the_discard() -> None:
    x = _extra()
    cards.take(x, "b", 0)
    assert cards.pile(x, "b", "deck") == []
    assert cards.refill(x, "b") == 1
    assert cards.pile(x, "b", "deck") == ["x"] and cards.pile(x, "b", "discard") == []
