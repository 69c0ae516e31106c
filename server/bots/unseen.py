"""Reasoning about the enemy's reinforcements the bot cannot see.

When a scenario hides each side's reinforcements from the other (`"hidden": {"enemy_reinforcements":
true}`), the belief game knows only what is public: the enemy's **entry hexes** (in the scenario's
`sides`, which every player reads), the enemy units already seen on the map (those that have entered
are listed in the belief scenario), and the bot's *own* reinforcement schedule. Which enemy units will
come, how strong they are and when, is hidden.

`unseen_prior(game, side)` turns that public knowledge into an expectation, with no peek at the real
scenario (it reads only the belief game):

* **how many**: as many as the side's own reinforcements (a symmetric prior: scenario designers give
  both sides comparable reserves), less the enemy reinforcements already seen entering;
* **how strong**: the mean full attack factor of the enemy's combat units the side knows of;
* **when**: on the side's own schedule (the i-th unseen enemy reinforcement is expected on the turn of
  the side's own i-th reinforcement); an expected arrival whose turn has passed without an enemy unit
  appearing is dropped (the enemy did not have it);
* **where**: spread evenly over the enemy's public entry hexes.

`unseen_term(game, pos, side, prior)` is what the search bot adds to its evaluation of a plan: a
penalty for each of its combat units standing near an enemy entry hex where unseen enemies are
expected this turn or the next two (more the nearer, the sooner and the weaker the unit's defence).
So the bot does not park a weak unit on the enemy's road in just before enemy reserves are likely to
arrive, and it stops ignoring what it cannot see. When the scenario does not hide reinforcements,
the belief game holds the real schedule and there is nothing to guess (`unseen_prior` returns None).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from server.rules import Game, UnitState

from .evaluate import Pos

W_UNSEEN = 2.5
REACH = 4  # hexes from an entry hex within which a unit is exposed to arrivals


@dataclass(frozen=True)
class UnseenPrior:
    side: str
    entry_hexes: tuple[str, ...]
    expected: tuple[tuple[int, float], ...]  # (turn, attack factor) of each expected unseen arrival
    by_hex: dict[int, float] = field(default_factory=dict)  # turn -> expected attack per entry hex

    def strength_near(self, turn: int) -> float:
        """Expected unseen attack factor per entry hex arriving on `turn` or within two turns after it,
        the sooner the heavier."""
        return sum(self.by_hex.get(turn + k, 0.0) * w for k, w in ((0, 1.0), (1, 0.7), (2, 0.4)))


def unseen_prior(game: Game, side: str) -> UnseenPrior | None:
    """The expectation of the enemy's unseen reinforcements, from the belief game's public data only."""
    sc = game.scenario
    if not sc.hide_enemy_reinforcements:
        return None
    enemy = sc.opponent(side)
    entries = tuple(sc.sides[enemy].entry_hexes)
    if not entries:
        return None
    own = sorted(r.turn for r in sc.reinforcements
                 if sc.units[r.unit].side == side and sc.units[r.unit].kind.is_combat)
    seen = sum(1 for r in sc.reinforcements if sc.units[r.unit].side == enemy and sc.units[r.unit].kind.is_combat)
    attacks = [game.ruleset.bot_factors(sc, UnitState(u, None))[0] for u, d in sc.units.items()
               if d.side == enemy and d.kind.is_combat]
    if not attacks:
        return None
    mean_attack = sum(attacks) / len(attacks)
    turn = game.state.turn
    expected = tuple((t, mean_attack) for t in own[seen:] if t >= turn)
    by_hex: dict[int, float] = {}
    for t, a in expected:
        by_hex[t] = by_hex.get(t, 0.0) + a / len(entries)
    return UnseenPrior(side, entries, expected, by_hex)


def unseen_term(game: Game, pos: Pos, side: str, prior: UnseenPrior) -> float:
    """The (non-positive) value of `side`'s exposure to the expected unseen arrivals."""
    strength = prior.strength_near(pos.turn)
    if strength <= 0.0:
        return 0.0
    grid = game.scenario.grid
    penalty = 0.0
    for u in pos.units.values():
        if u.side != side or u.leader or u.hex is None:
            continue
        d = min(grid.distance(u.hex, e) for e in prior.entry_hexes)
        if d > REACH:
            continue
        penalty += W_UNSEEN * strength / (1.0 + d) / max(u.defense, 1) * min(u.steps, 2)
    return -penalty
