"""Hands of cards: each side's deck, hand and discard, and who may read them (R16.10, R16.19).

An edition with cards keeps them here, in `GameState.extra["cards"]`:

* ``sides``: side -> ``{"hand": [...], "deck": [...], "discard": [...]}``, each a list of card ids. The deck is kept
  sorted: a draw picks a card uniformly with the game's dice (`draw_index`), so the deck has no order to hide.

What is public and what is secret (R16.19): the cards in a hand are its owner's secret; the hand and deck counts and
the discards (played cards) are public. So is nothing else: the deck's contents are the side's cards less its hand
and discard, as secret as the hand. Everything a viewer reads of the block goes through `view` (the kernel's one view
filter, views.py, adds it to every view), every event naming a drawn card is emitted inside the owner's
`private_to` (the edition's draw), and a non-owner's belief of the game (the bots') holds the block `redacted`: the
other side's hand and deck as so many unknown cards.

Hands are revealed when the game ends (`view` with ``everything``).

The edition decides what its cards do, when they are drawn and played; this module only keeps them and says who may
read them. It imports nothing of the kernel.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

KEY = "cards"  # GameState.extra's key
UNKNOWN = "unknown"  # a card a non-owner's belief holds in place of one it may not know


def initial(decks: Mapping[str, Iterable[str]]) -> dict[str, Any]:
    """The block a new game starts with: each side's whole deck, sorted, no hand, no discard."""
    return {"sides": {side: {"hand": [], "deck": sorted(cards), "discard": []} for side, cards in decks.items()}}


def block(extra: Mapping[str, Any]) -> dict[str, Any] | None:
    got = extra.get(KEY)
    return got if isinstance(got, dict) else None


def pile(extra: Mapping[str, Any], side: str, which: str) -> list[str]:
    """A side's "hand", "deck" or "discard" (the list itself, to change in place)."""
    b = block(extra)
    if b is None:
        return []
    cards: list[str] = b["sides"][side][which]
    return cards


def hand(extra: Mapping[str, Any], side: str) -> list[str]:
    return pile(extra, side, "hand")


def holds(extra: Mapping[str, Any], side: str, card: str) -> bool:
    return card in hand(extra, side)


def counts(extra: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """Side -> its hand, deck and discard counts (public, R16.19)."""
    b = block(extra)
    if b is None:
        return {}
    return {side: {k: len(p[k]) for k in ("hand", "deck", "discard")} for side, p in b["sides"].items()}


def draw_index(n: int, roll: Callable[[], int]) -> int:
    """A uniform index into a deck of `n` cards (1..36) from six-sided dice: one die for up to six cards, two read as
    0..35 otherwise, rolling again when the value lands beyond the last whole multiple of `n` (no bias). How many dice
    were rolled depends on the dice alone and the public deck count, never on which cards the deck holds."""
    if not 1 <= n <= 36:
        raise ValueError(f"a deck of {n} cards cannot be drawn from with two dice")
    if n == 1:
        return 0
    faces = 6 if n <= 6 else 36
    limit = faces - faces % n
    while True:
        value = roll() - 1 if faces == 6 else (roll() - 1) * 6 + (roll() - 1)
        if value < limit:
            return value % n


def take(extra: Mapping[str, Any], side: str, index: int) -> str:
    """Move the deck's card at `index` into the hand; the card."""
    card = pile(extra, side, "deck").pop(index)
    hand(extra, side).append(card)
    return card


def refill(extra: Mapping[str, Any], side: str) -> int:
    """An empty deck is refilled from the side's discard (R16.10): the number of cards put back."""
    deck, discard = pile(extra, side, "deck"), pile(extra, side, "discard")
    moved = len(discard)
    deck.extend(discard)
    deck.sort()
    discard.clear()
    return moved


def discard(extra: Mapping[str, Any], side: str, card: str) -> None:
    """A played card leaves the hand for the discard (public from now on)."""
    hand(extra, side).remove(card)
    pile(extra, side, "discard").append(card)


def view(extra: Mapping[str, Any], viewer: str, *, everything: bool) -> dict[str, Any] | None:
    """The cards as `viewer` may read them: its own hand (every hand for the admin and once the game is over), every
    side's counts and discards."""
    b = block(extra)
    if b is None:
        return None
    sides = b["sides"]
    out: dict[str, Any] = {
        "counts": counts(extra),
        "discards": {side: list(p["discard"]) for side, p in sides.items()},
    }
    if everything:
        out["hands"] = {side: sorted(p["hand"]) for side, p in sides.items()}
    elif viewer in sides:
        out["hands"] = {viewer: sorted(sides[viewer]["hand"])}
    else:
        out["hands"] = {}
    return out


def redacted(extra: Mapping[str, Any], viewer: str) -> dict[str, Any]:
    """The edition's bookkeeping as `viewer` may hold it (the bots' belief games): every other side's hand and deck
    replaced by as many unknown cards, which no command can play."""
    out = dict(extra)
    b = block(extra)
    if b is None:
        return out
    sides = {}
    for side, p in b["sides"].items():
        if side == viewer:
            sides[side] = {k: list(v) for k, v in p.items()}
        else:
            sides[side] = {"hand": [UNKNOWN] * len(p["hand"]), "deck": [UNKNOWN] * len(p["deck"]),
                           "discard": list(p["discard"])}
    out[KEY] = {**b, "sides": sides}
    return out


__all__ = ["KEY", "UNKNOWN", "block", "counts", "discard", "draw_index", "hand", "holds", "initial", "pile",
           "redacted", "refill", "take", "view"]
