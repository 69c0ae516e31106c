"""Rollout-based policy improvement over the greedy one-ply player, for any edition's legal commands.

Used by the `search` level on the Standard rules (whose page options the Quick Play planners do not read).
At each decision:

1. **Greedy's ranking.** Every command `legal_commands` lists is played on a copy of the belief game with
   imagined dice and the position after it scored (exactly `GreedyBot._generic`'s one ply); greedy's own
   choice is the best of them (or ending the phase when nothing gains `MIN_MOVE_GAIN`).
2. **Candidates.** Greedy's choice, its `TOP_K` best commands, every attack, bombardment and charge it
   listed (the commands whose worth shows only once the combat they start is resolved), and ending the phase.
3. **Rollouts with common random numbers.** Each candidate is played on `SAMPLES` determinised copies (the
   same imagined dice sequences for every candidate): the command, then every decision it raises answered
   by a cheap policy for whichever side must answer (the option best for that side one ply deep), then the
   side's phase ended, and the decisions that raises answered too; the position then (the same phase
   boundary for every candidate) is scored.
4. **Greedy unless clearly beaten.** The candidate with the best mean is taken only when it beats greedy's
   choice's mean by `MARGIN`; otherwise greedy's choice is made. So search plays as greedy does except where
   its look-ahead clearly disagrees.

The budget counts nodes (one node: one command played on a copy and scored); `Budget` never reads the clock
when it was given a node count. Only the belief game and its copies are read: the dice are imagined from the
bot's own generator.
"""

from __future__ import annotations

import json
import random
from typing import Any

from server.rules import Game

from .belief import copy_game
from .budget import Budget
from .evaluate import evaluate
from .greedy import GENERIC_LIMIT, MIN_MOVE_GAIN, NOT_CANDIDATES, ScriptedDice

TOP_K = 4  # greedy's best commands rolled out besides its choice
MAX_COMBATS = 8  # attacks, bombardments and charges rolled out at most (greedy's best first)
SAMPLES = 4  # imagined dice sequences per candidate (the same for every candidate)
MARGIN = 0.5  # how much a candidate must beat greedy's choice by (tenths of a victory point)
POLICY_OPTIONS = 8  # options of a decision the rollout policy looks at
MAX_STEPS = 30  # commands a rollout plays at most
COMBAT_TYPES = ("attack", "bombard", "charge")


def _key(cmd: dict[str, Any]) -> str:
    return json.dumps(cmd, sort_keys=True)


def generic_search(game: Game, side: str, rng: random.Random, budget: Budget) -> dict[str, Any]:
    """The command for `side` on any edition's belief game: greedy's one ply, improved by rollouts."""
    cmds = list(game.legal_commands(side, rng, GENERIC_LIMIT))
    if not cmds:
        return {"type": "end_phase"}
    rng.shuffle(cmds)
    must_choose = game.state.decision is not None or not game.ruleset.can_end_phase(game, side)
    base = evaluate(game, side)
    ranked: list[tuple[float, dict[str, Any]]] = []
    for cmd in cmds:  # greedy's one ply, always complete (as greedy with no clock)
        if cmd.get("type") in NOT_CANDIDATES:
            continue
        budget.spend()
        trial = copy_game(game, f"generic-{rng.getrandbits(64):016x}")
        try:
            trial.submit(side, cmd)
        except ValueError:
            continue
        ranked.append((evaluate(trial, side) - base + rng.random() * 0.01, cmd))
    ranked.sort(key=lambda r: -r[0])
    end = {"type": "end_phase"}
    if ranked and (must_choose or ranked[0][0] > MIN_MOVE_GAIN):
        greedy_choice = ranked[0][1]
    elif must_choose:
        greedy_choice = next((c for c in cmds if c.get("type") not in ("undo", "resign")), cmds[0])
    else:
        greedy_choice = end
    cands: list[dict[str, Any]] = [greedy_choice]
    cands += [c for _, c in ranked[:TOP_K]]
    cands += [c for _, c in ranked if c.get("type") in COMBAT_TYPES][:MAX_COMBATS]
    if not must_choose:
        cands.append(end)
    seen: set[str] = set()
    unique: list[dict[str, Any]] = []
    for c in cands:
        k = _key(c)
        if k not in seen:
            seen.add(k)
            unique.append(c)
    if len(unique) == 1 or not budget.left():
        return greedy_choice
    seeds = [rng.getrandbits(64) for _ in range(SAMPLES)]
    values: dict[str, float] = {}
    for c in unique:  # greedy's choice first: it is always valued
        if values and not budget.left():
            break
        total = 0.0
        for s in seeds:
            total += rollout(game, side, c, s, budget)
        values[_key(c)] = total / len(seeds)
    g_value = values[_key(greedy_choice)]
    best = max(unique, key=lambda c: values.get(_key(c), -1e18))
    if values.get(_key(best), -1e18) > g_value + MARGIN:
        return best
    return greedy_choice


def rollout(game: Game, side: str, cmd: dict[str, Any], seed: int, budget: Budget) -> float:
    """`cmd` on a determinised copy, its decisions answered, the side's phase ended (and the decisions that
    raises answered): the position's value for `side` then."""
    rs = random.Random(seed)
    g = copy_game(
        game, dice=ScriptedDice([], game.state.dice_count, random.Random(rs.getrandbits(64)), game.ruleset.die_faces)
    )
    start = (g.state.turn, g.state.phase, g.state.active)
    budget.spend()
    try:
        g.submit(side, cmd)
    except ValueError:
        return -1e9
    ended = False
    for _ in range(MAX_STEPS):
        if g.is_over:
            break
        st = g.state
        if st.decision is not None:
            _answer(g, rs, budget)
            continue
        if ended or (st.turn, st.phase, st.active) != start or st.active != side:
            break
        ended = True
        try:
            budget.spend()
            g.submit(side, {"type": "end_phase"})
        except ValueError:
            break
    return evaluate(g, side)


def _answer(g: Game, rs: random.Random, budget: Budget) -> None:
    """The rollout policy for a pending decision: the option best one ply deep for the side that answers."""
    d = g.state.decision
    assert d is not None
    who = d["side"]
    opts = list(d["options"])
    if len(opts) > POLICY_OPTIONS:
        opts = rs.sample(opts, POLICY_OPTIONS)
    best: tuple[float, str] | None = None
    if len(opts) > 1:
        for o in opts:
            budget.spend()
            trial = copy_game(
                g, dice=ScriptedDice([], g.state.dice_count, random.Random(rs.getrandbits(64)), g.ruleset.die_faces)
            )
            try:
                trial.submit(who, {"type": "choose", "option": o["id"]})
            except ValueError:
                continue
            v = evaluate(trial, who)
            if best is None or v > best[0]:
                best = (v, o["id"])
    choice = best[1] if best is not None else opts[0]["id"]
    g.submit(who, {"type": "choose", "option": choice})
