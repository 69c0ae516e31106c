"""The designed deck (R16.10): drawing in secret and playing in public, over the kernel's hands (kernel/cards.py).

A draw's die rolls and the card drawn are emitted inside `private_to(owner)` (R16.19), so only the owner (and the
admin) reads them; everybody reads that a card was drawn, and the hand and deck counts. A played card is public and
goes to its side's discard. No procedure asks whether a side holds a card: cards are played only as fields of, or
commands next to, the holder's own commands (R16.19's "no timing leaks").
"""

from __future__ import annotations

from typing import Any

from ..kernel import cards as kcards
from ..kernel.errors import IllegalCommand, MalformedCommand
from .context import HMCtx
from .tables import CARD_NAMES, DECK, HAND_LIMIT


def initial(side_order: tuple[str, str]) -> dict[str, Any]:
    return kcards.initial({s: DECK for s in side_order})


def draw(ctx: HMCtx, side: str, n: int, rule: str) -> int:
    """Draw `n` cards for `side` (3.t, R16.10): a draw that would go over the hand limit is not made; an empty deck is
    refilled from the side's played cards first. The number drawn."""
    x = ctx.x
    drawn = 0
    for _ in range(n):
        if len(kcards.hand(x, side)) >= HAND_LIMIT:
            ctx.emit("card_limit", f"R16.10: {ctx.sc.sides[side].name} holds {HAND_LIMIT} cards and draws no more",
                     side=side, rule="R16.10")
            break
        if not kcards.pile(x, side, "deck"):
            back = kcards.refill(x, side)
            ctx.emit("deck_refilled", f"R16.10: {ctx.sc.sides[side].name}'s deck is refilled with its {back} "
                                      "played cards", side=side, count=back, rule="R16.10")
        deck_size = len(kcards.pile(x, side, "deck"))
        if deck_size == 0:
            break
        with ctx.private_to(side):
            index = kcards.draw_index(deck_size, lambda: ctx.roll(1, "card drawn", ["d6"], "R16.10", side=side)[0])
            card = kcards.take(x, side, index)
            ctx.emit("card_drawn", f"{rule}, R16.10: you draw {CARD_NAMES[card]}", side=side, card=card,
                     rule="R16.10")
        drawn += 1
    if drawn:
        ctx.emit("cards_drawn", f"{rule}, R16.10: {ctx.sc.sides[side].name} draws {drawn} card"
                                f"{'s' if drawn != 1 else ''}", side=side, count=drawn, rule="R16.10")
    return drawn


def check(ctx: HMCtx, side: str, card: Any, holder: str, allowed: tuple[str, ...]) -> str:
    """Whether `side` may play `card` now for `holder` (a unit or a general): it is one of `allowed` here, the side
    holds it, and `holder` has played no card this step (R16.10). The card id."""
    if card not in CARD_NAMES:
        raise MalformedCommand(f"'card' is one of {', '.join(CARD_NAMES)}")
    if card not in allowed:
        raise IllegalCommand("R16.10", f"{CARD_NAMES[card]} is not played with this command")
    if not kcards.holds(ctx.x, side, card):
        raise IllegalCommand("R16.10", f"you hold no {CARD_NAMES[card]} card")
    if any(h == holder for h, _ in ctx.x.get("played", [])):
        raise IllegalCommand("R16.10", f"{ctx.says(holder)} has already had a card played this step")
    return str(card)


def spend(ctx: HMCtx, side: str, card: str, holder: str) -> None:
    """Play a checked card: public from now on, in the side's discard."""
    kcards.discard(ctx.x, side, card)
    ctx.listed("played").append([holder, card])
    ctx.emit("card_played", f"R16.10: {ctx.sc.sides[side].name} plays {CARD_NAMES[card]} for {ctx.says(holder)}",
             side=side, card=card, unit=holder, rule="R16.10")
