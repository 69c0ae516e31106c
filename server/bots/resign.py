"""Resigning hopeless games politely.

`should_resign(game, side)` reads a belief game (what `side` may see, built by `belief.py`; the service
calls `server.bots.resign_check(real, side)`, which builds it) and says whether `side`'s bot should offer
its resignation now. It is deliberately conservative: a bot that resigns a game it could still draw is
worse company than one that plays a lost game out. All of these must hold:

* the game is not over and at most `RESIGN_TURNS` turns remain after the current one;
* the enemy's lead in victory points (the engine's own count, as the view shows it) is so large that
  even the most `side` could still score cannot bring the result to a draw: every objective it scores
  and does not hold that one of its combat units can still reach in the turns left, plus two enemy
  steps eliminated per turn left (the current one included), would leave it behind by at least the
  scenario's draw margin;
* the static evaluation agrees: the position is worth at least `RESIGN_EVAL` tenths of a point to
  the enemy (so a side about to complete a sudden-death set, which the points do not show, plays on).

The service decides what to do with the answer (resign on the bot's behalf, say so in the chat); this
module only decides.
"""

from __future__ import annotations

from server.rules import Game

from .evaluate import Pos, evaluate

RESIGN_TURNS = 2
RESIGN_EVAL = -80.0
STEPS_PER_TURN = 2


def hopeless_margin(game: Game, side: str) -> int | None:
    """How far `side` would still be from a draw after its best imaginable finish (positive: lost
    by that many points even then); None when the game is over or too many turns remain."""
    sc, st = game.scenario, game.state
    if game.is_over:
        return None
    turns_left = sc.turns - st.turn
    if turns_left > RESIGN_TURNS:
        return None
    enemy = sc.opponent(side)
    points = game.view(side)["points"]
    deficit = int(points.get(enemy, 0)) - int(points.get(side, 0))
    pos = Pos(game)
    mine = [u for u in pos.units.values() if u.side == side and not u.leader and u.hex is not None]
    reachable = 0
    for o in sc.victory.objectives:
        if st.control.get(o.hex) == side or (o.scorer is not None and o.scorer != side):
            continue
        if any(sc.grid.distance(u.hex, o.hex) <= u.ma * (turns_left + 1) for u in mine):  # type: ignore[arg-type]
            reachable += o.points
    best_finish = reachable + sc.victory.step_eliminated * STEPS_PER_TURN * (turns_left + 1)
    return deficit - best_finish - sc.victory.draw_margin + 1


def should_resign(game: Game, side: str) -> bool:
    """True when `side` has decisively lost: few turns left, a points deficit it cannot make up, and
    an evaluation that agrees."""
    margin = hopeless_margin(game, side)
    if margin is None or margin <= 0:
        return False
    return evaluate(game, side) <= RESIGN_EVAL
