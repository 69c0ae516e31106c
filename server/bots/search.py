"""The search bot: greedy's play, improved where play-outs through the enemy's reply clearly disagree.

* **Movement (Quick Play): rollout policy improvement over greedy** (`_improve_move`). Greedy's own
  scan (every group that may move to every hex `game.options` says it can reach, scored alone on the
  light position copy; the same generator calls in the same order, so the same move) gives greedy's
  move and its best alternatives: the best move of each of the next `ALT_MOVES` groups and greedy's
  group's second-best hex, plus ending the phase. Each candidate first move is followed by a light
  greedy continuation of the rest of the phase (each remaining group among its `CONT_OPTIONS` best
  hexes, best gain first while it gains `MIN_MOVE_GAIN`), then **played out on determinised copies of
  the belief game**: the moves submitted in order (any the engine refuses dropped), the phase ended,
  the bot's combat phase played by a quick attack policy, and then **the enemy's reply**: it moves by a
  light greedy policy (`_light_moves`: one scan of its groups on the light copy, then its best moves
  while they gain; `ENEMY_MOVES`) and attacks with the same quick policy whatever is then within its
  reach; the position at the start of the bot's next turn is scored. Every candidate is played with the same `MOVE_SAMPLES`
  sequences of imagined dice (common random numbers). Greedy's move is made unless another candidate's
  mean beats it by `MOVE_MARGIN` (so the search is greedy except where its look-ahead clearly
  disagrees). The older evolutionary whole-phase planner (`_plan_move`, `MOVE_MODE = "evolve"`) is kept
  for comparison.
* **Combat (Quick Play): expectimax over chance, two attacks deep.** Every attack is valued by the exact
  distribution of its outcome (the CRT die's rows and the morale die, as `greedy`); for the most
  promising attacks each outcome branch is also given the value of the best attack that would follow
  it (again exact over its dice), so an attack that opens the way for another is preferred.
* **Any other edition (the Standard rules):** `rollout.generic_search`, the same policy improvement over
  greedy's one ply over `legal_commands` (see `rollout.py`).
* Decisions, recovery and set-up (Quick Play): as `greedy`.

The budget: `budget_s` seconds of wall clock per decision, or, when the bot is made with
`iterations=N`, N *nodes* (one node: one position scored on the light copy or one command tried on a
copy; a play-out or an exact attack valuation costs several), with no clock at all: the same belief,
rng and N always give the same command, whatever the machine's load (the tests and the arena use this).
Greedy's own scan always completes, as greedy's decision does (for Quick Play movement it is not
counted); the budget decides how many alternatives are played out (greedy's choice and ending the phase
first).

The bot never sees the real game: it plays on the belief game (`belief.py`) and its copies, whose
dice are imagined (`ScriptedDice` seeded from the bot's own rng).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from server.rules import Game, UnitState

from .belief import copy_game
from .budget import Budget
from .evaluate import GroupScan, Pos, U, eval_pos, evaluate, loss_points
from .greedy import MIN_ATTACK_GAIN, MIN_MOVE_GAIN, GreedyBot, ScriptedDice
from .rollout import generic_search
from .unseen import UnseenPrior, unseen_prior, unseen_term

CANDIDATES = (
    16  # destinations per group scored alone: the NEAREST to enemies and objectives, the STRONG
)
NEAREST = 8  # ground near them, and a random rest
STRONG = 3
KEEP = 5  # destinations per group the evolution may choose from
POPULATION = 24
ELITE = 4
MUTATION = 0.15
ROLLOUT_PLANS = 4  # distinct plans played out on the engine
ROLLOUT_SAMPLES = 2  # imagined dice sequences per plan
ROLLOUT_NODES = 40  # what a play-out costs in nodes
ATTACK_NODES = 12  # what an exact attack valuation costs in nodes
MIN_PLAN_GAIN = 0.5
PRUNE = 0.25  # a move adding less than this to its plan is dropped
MAX_GENERATIONS = 60
FOLLOW_UP_ATTACKS = 3  # first attacks given a second-level look-ahead
ENEMY_REPLY = True  # play-outs go on through the enemy's combat phase
ENEMY_MOVES = True  # ... and the enemy moves first (a light greedy policy) instead of standing
MOVE_MODE = (
    "improve"  # "improve": greedy's move checked by play-outs; "evolve": whole phases evolved
)
CONT_OPTIONS = 3  # each group's best hexes the light continuation chooses among
CONT_STEPS = 8  # moves the light continuation makes at most
ALT_MOVES = 3  # greedy's best alternatives (other groups) played out besides its own move
MOVE_SAMPLES = 3  # imagined dice sequences per candidate
MOVE_MARGIN = 0.5  # how much an alternative must beat greedy's move by

# A rough value of each CRT result for the attacker (rollout policy only).
RESULT_VALUE = {
    "Dm": 3.0,
    "Dx": 2.0,
    "Dr": 1.5,
    "Dc": 1.0,
    "-": 0.0,
    "Ac": -1.0,
    "Ar": -1.5,
    "Ax": -2.0,
    "Am": -3.0,
}


@dataclass
class Option:
    dest: str | None  # None: stay
    path: list[str]
    solo: float  # evaluation gain of this move alone


def _moves_in_turn(
    game: Game, pos: Pos, side: str, losses: Any, groups: list[list[str]],
    per_group: dict[int, list[tuple[float, str, list[str]]]], unit_groups: list[set[str]], taken: set[str],
    cur: float, spend: Callable[[], Any] | None,
) -> list[tuple[int, int]]:
    """Greedy's continuation of a movement phase on the light copy: among each untaken group's kept
    options (best first, none that loses alone), the move adding most to the position, made on `pos`,
    then the next, while a move gains more than MIN_MOVE_GAIN. Returns (group, option) in order; `pos`
    and `taken` keep the moves made. `spend` is called once per position scored (the node budget)."""
    chosen: list[tuple[int, int]] = []
    for _ in range(CONT_STEPS):
        best: tuple[float, int, int] | None = None
        for gi, opts in per_group.items():
            if unit_groups[gi] & taken:
                continue
            for oi, (solo, dest, _path) in enumerate(opts):
                if solo <= 0.0:
                    break
                saved = [(u, pos.units[u].hex) for u in groups[gi]]
                for u in groups[gi]:
                    pos.units[u].hex = dest
                if spend is not None:
                    spend()
                v = eval_pos(game, pos, side, losses) - cur
                for u, h in saved:
                    pos.units[u].hex = h
                if best is None or v > best[0]:
                    best = (v, gi, oi)
        if best is None or best[0] <= MIN_MOVE_GAIN:
            break
        _, gi, oi = best
        taken |= unit_groups[gi]
        for u in groups[gi]:
            pos.units[u].hex = per_group[gi][oi][1]
        cur += best[0]
        chosen.append((gi, oi))
    return chosen


class SearchBot(GreedyBot):
    level = "search"

    def __init__(self, iterations: int | None = None, unseen: bool = True) -> None:
        self.iterations = iterations
        self.unseen = unseen
        self.search_move = True  # ablation switches: False plays that part as greedy does
        self.search_combat = True

    def choose(
        self, game: Game, side: str, rng: random.Random, budget_s: float = 1.0
    ) -> dict[str, Any]:
        budget = Budget(budget_s, self.iterations)
        st = game.state
        if not game.ruleset.planner_options:  # e.g. the Standard rules: greedy's one ply, improved by rollouts
            return generic_search(game, side, rng, budget)
        if st.decision is None and st.phase == "movement" and self.search_move:
            if MOVE_MODE == "evolve":
                return self._plan_move(game, side, rng, budget)
            return self._improve_move(game, side, rng, budget)
        if st.decision is None and st.phase == "combat" and not st.ca_stage and self.search_combat:
            return self._search_combat(game, side, rng, budget)
        return GreedyBot.choose(
            self, game, side, rng, budget_s if self.iterations is None else 3600.0
        )

    # --- movement: greedy's move, checked against its alternatives by play-outs ---------------------
    def _improve_move(
        self, game: Game, side: str, rng: random.Random, budget: Budget
    ) -> dict[str, Any]:
        """Rollout policy improvement over greedy's movement. Greedy's scan (every group to every reachable
        hex, scored alone on the light copy) gives greedy's own move and its best alternatives; each
        candidate first move (and ending the phase) is followed by a light greedy continuation of the rest
        of the phase, then played out on the engine through the bot's combat phase and the enemy's reply
        with the same imagined dice for every candidate. Greedy's move is kept unless an alternative's
        mean beats it by MOVE_MARGIN."""
        end: dict[str, Any] = {"type": "end_phase"}
        groups = self._groups(game, side)
        if not groups:
            return end
        losses = loss_points(game)
        pos = Pos(game)
        _place_arrivals(game, side, groups, pos)
        start = {u: pos.units[u].hex for g in groups for u in g}
        base = eval_pos(game, pos, side, losses)
        # greedy's scan (always complete, as greedy's own decision; not counted against the budget)
        order = list(range(len(groups)))
        rng.shuffle(order)
        per_group: dict[int, list[tuple[float, str, list[str]]]] = {}
        for gi in order:
            g = groups[gi]
            reach = game.options(side, g).get("reachable") or {}
            scored: list[tuple[float, str, list[str]]] = []
            if reach:
                scan = GroupScan(game, pos, side, losses, g)
                for dest, r in reach.items():
                    scored.append((scan.value(dest) - base + rng.random() * 0.01, dest, list(r["path"])))
            scored.sort(key=lambda x: -x[0])
            if scored:
                per_group[gi] = scored[:CONT_OPTIONS]
        firsts = sorted(
            ((opts[0][0], gi, 0) for gi, opts in per_group.items()), key=lambda x: -x[0]
        )
        if not firsts:
            return end
        g_gain, g_gi, _ = firsts[0]
        greedy_choice: tuple[int, int] | None = (g_gi, 0) if g_gain > MIN_MOVE_GAIN else None
        cands: list[tuple[int, int] | None] = (
            [greedy_choice, None] if greedy_choice is not None else [None]
        )
        for gain, gi, oi in firsts[: ALT_MOVES + 1]:
            if gain > 0.0 and (gi, oi) not in cands:
                cands.append((gi, oi))
        if (
            len(per_group.get(g_gi, [])) > 1
            and per_group[g_gi][1][0] > 0.0
            and (g_gi, 1) not in cands
        ):
            cands.append((g_gi, 1))
        if len(cands) == 1:
            return end
        unit_groups = [set(g) for g in groups]

        def cmd_of(gi: int, oi: int) -> dict[str, Any]:
            return {"type": "move", "units": list(groups[gi]), "path": list(per_group[gi][oi][2])}

        def continuation(first: tuple[int, int]) -> list[dict[str, Any]]:
            """The first move, then greedy's next moves on the light copy (among each group's best hexes)."""
            taken = set(unit_groups[first[0]])
            moves = [cmd_of(*first)]
            for u in groups[first[0]]:
                pos.units[u].hex = per_group[first[0]][first[1]][1]
            cur = eval_pos(game, pos, side, losses)
            steps = _moves_in_turn(game, pos, side, losses, groups, per_group, unit_groups, taken, cur, budget.spend)
            moves.extend(cmd_of(gi, oi) for gi, oi in steps)
            for u, h in start.items():
                pos.units[u].hex = h
            return moves

        seeds = [rng.getrandbits(64) for _ in range(MOVE_SAMPLES)]
        values: dict[tuple[int, int] | None, float] = {}
        last_play_out = 0.0  # seconds the last play-out took (the clock's guess at the next one)
        for c in cands:
            if values and not budget.left():
                break
            moves = [] if c is None else continuation(c)
            total = 0.0
            done = 0
            for sd in seeds:
                # on the clock, stop within a candidate too (its partial mean is dropped), and do not
                # start a play-out that the last one's duration says would end past the budget
                if budget.nodes is None and not (budget.left() and budget.room_for(last_play_out)):
                    break
                budget.spend(ROLLOUT_NODES)
                started = time.perf_counter()
                total += self._play_out(game, side, moves, sd)
                last_play_out = time.perf_counter() - started
                done += 1
            if done < len(seeds):
                break
            values[c] = total / len(seeds)
        chosen = greedy_choice
        if greedy_choice not in values or len(values) < 2:
            # on the clock, with time for less than greedy's move and one alternative: greedy's move
            return end if chosen is None else cmd_of(*chosen)
        best_c = max(values, key=lambda k: values[k])
        if values[best_c] > values[greedy_choice] + MOVE_MARGIN:
            chosen = best_c
        return end if chosen is None else cmd_of(*chosen)

    # --- movement: evolving whole phases ---------------------------------------------------------
    def _plan_move(
        self, game: Game, side: str, rng: random.Random, budget: Budget
    ) -> dict[str, Any]:
        groups = self._groups(game, side)
        if not groups:
            return {"type": "end_phase"}
        losses = loss_points(game)
        pos = Pos(game)
        prior = unseen_prior(game, side) if self.unseen else None
        _place_arrivals(game, side, groups, pos)
        start = {u: pos.units[u].hex for g in groups for u in g}

        def score() -> float:
            budget.spend()
            v = eval_pos(game, pos, side, losses)
            if prior is not None:
                v += unseen_term(game, pos, side, prior)
            return v

        base = score()
        options: list[list[Option]] = []
        for g in groups:
            reach = game.options(side, g).get("reachable") or {}
            opts = [Option(None, [], 0.0)]
            dests = self._screen(game, side, g, list(reach), pos, rng)
            scored: list[Option] = []
            for dest in dests:
                for u in g:
                    pos.units[u].hex = dest
                scored.append(Option(dest, list(reach[dest]["path"]), score() - base))
                for u in g:
                    pos.units[u].hex = start[u]
            scored.sort(key=lambda o: -o.solo)
            opts.extend(o for o in scored[:KEEP] if o.solo > -5.0)
            options.append(opts)
        # units shared between a stack group and its single-unit groups: the earlier group wins
        unit_groups = [set(g) for g in groups]

        def apply(plan: tuple[int, ...]) -> list[int]:
            """Move the plan's counters on the light copy; the groups that actually move, in order."""
            taken: set[str] = set()
            moved: list[int] = []
            for gi, oi in enumerate(plan):
                if oi == 0 or unit_groups[gi] & taken:
                    continue
                taken |= unit_groups[gi]
                for u in groups[gi]:
                    pos.units[u].hex = options[gi][oi].dest
                moved.append(gi)
            return moved

        def undo() -> None:
            for u, h in start.items():
                pos.units[u].hex = h

        cache: dict[tuple[int, ...], float] = {}

        def fitness(plan: tuple[int, ...]) -> float:
            key = canon(plan)
            if key in cache:
                return cache[key]
            apply(key)
            v = score()
            undo()
            cache[key] = v
            return v

        def canon(plan: tuple[int, ...]) -> tuple[int, ...]:
            taken: set[str] = set()
            out = []
            for gi, oi in enumerate(plan):
                if oi != 0 and not unit_groups[gi] & taken:
                    taken |= unit_groups[gi]
                    out.append(oi)
                else:
                    out.append(0)
            return tuple(out)

        def prune(plan: tuple[int, ...]) -> tuple[int, ...]:
            """Drop every move whose absence costs the plan less than PRUNE (weakest moves first)."""
            plan = canon(plan)
            for gi in sorted(
                (gi for gi, oi in enumerate(plan) if oi), key=lambda gi: options[gi][plan[gi]].solo
            ):
                trial = plan[:gi] + (0,) + plan[gi + 1 :]
                if fitness(trial) >= fitness(plan) - PRUNE:
                    plan = trial
            return plan

        n = len(groups)
        stay = tuple([0] * n)
        # the greedy sequence: groups by their best solo gain, each kept if the whole plan improves
        order = sorted(range(n), key=lambda i: -max((o.solo for o in options[i][1:]), default=-1e9))
        plan = list(stay)
        cur = fitness(stay)
        for gi in order:
            for oi in range(1, len(options[gi])):
                trial = list(plan)
                trial[gi] = oi
                v = fitness(tuple(trial))
                if v > cur + 0.01:
                    plan, cur = trial, v
                    break
            if not budget.fraction_left(0.35):
                break
        greedy_plan = tuple(plan)
        pop: list[tuple[int, ...]] = [stay, greedy_plan]
        while len(pop) < POPULATION:
            p = list(greedy_plan)
            for gi in range(n):
                if rng.random() < 0.3:
                    p[gi] = rng.randrange(len(options[gi]))
            pop.append(tuple(p))
        best = max(pop, key=fitness)
        generations = 0
        while budget.fraction_left(0.6) and generations < MAX_GENERATIONS:
            generations += 1
            budget.spend(
                POPULATION // 2
            )  # a generation costs nodes even when its plans were all seen
            ranked = sorted(pop, key=lambda p: -fitness(p))
            nxt = ranked[:ELITE]
            while len(nxt) < POPULATION:
                a = min(rng.sample(ranked, 3), key=ranked.index)
                b = min(rng.sample(ranked, 3), key=ranked.index)
                child = [a[i] if rng.random() < 0.5 else b[i] for i in range(n)]
                for gi in range(n):
                    if rng.random() < MUTATION:
                        child[gi] = rng.randrange(len(options[gi]))
                nxt.append(tuple(child))
            pop = nxt
            gen_best = max(pop, key=fitness)
            if fitness(gen_best) > fitness(best):
                best = gen_best
            # a local step on the best: every single change of one group's option
            gi = rng.randrange(n)
            for oi in range(len(options[gi])):
                trial = list(best)
                trial[gi] = oi
                if fitness(tuple(trial)) > fitness(best):
                    best = tuple(trial)
        # prune the best distinct plans (a move that adds nothing is not made: no neutral drift of
        # garrisons), then play them out on the engine with the same imagined dice for each
        ranked_plans: list[tuple[int, ...]] = []
        for cand in sorted(cache, key=lambda k: -cache[k]):
            cand = prune(cand)
            if cand not in ranked_plans and cand != stay:
                ranked_plans.append(cand)
            if len(ranked_plans) >= ROLLOUT_PLANS:
                break
        ranked_plans = [p for p in ranked_plans if fitness(p) >= fitness(stay) + MIN_PLAN_GAIN]
        if not ranked_plans:
            return {"type": "end_phase"}
        seeds = [rng.getrandbits(64) for _ in range(ROLLOUT_SAMPLES)]
        results: list[tuple[float, tuple[int, ...]]] = []
        for cand in ranked_plans:
            if results and not budget.left():
                break
            moved = self._ordered_moves(cand, groups, options)
            total = 0.0
            for s in seeds:
                budget.spend(ROLLOUT_NODES)
                total += self._play_out(game, side, moved, s)
            results.append((total / len(seeds) + 1e-6 * fitness(cand), cand))
        chosen = max(results, key=lambda r: r[0])[1]
        # make first the move the plan would miss most
        full = fitness(chosen)
        first = max(
            (gi for gi, oi in enumerate(chosen) if oi),
            key=lambda gi: (full - fitness(chosen[:gi] + (0,) + chosen[gi + 1 :]), -gi),
        )
        o = options[first][chosen[first]]
        return {"type": "move", "units": list(groups[first]), "path": list(o.path)}

    def _screen(
        self,
        game: Game,
        side: str,
        group: list[str],
        dests: list[str],
        pos: Pos,
        rng: random.Random,
    ) -> list[str]:
        """At most CANDIDATES destinations worth scoring: the nearest to enemies and objectives, the
        strongest ground (terrain defence) near them, and a random few."""
        if len(dests) <= CANDIDATES:
            return dests
        sc = game.scenario
        grid = sc.grid
        targets = [
            u.hex
            for u in pos.units.values()
            if u.side != side and u.hex is not None and not u.leader
        ]
        targets += [o.hex for o in sc.victory.objectives]
        if not targets:
            rng.shuffle(dests)
            return dests[:CANDIDATES]
        near = {h: min(grid.distance(h, t) for t in targets) for h in dests}
        ranked = sorted(dests, key=lambda h: (near[h], h))
        keep = ranked[:NEAREST]
        strong = sorted(dests, key=lambda h: (-game.ruleset.bot_terrain_defence(sc, h), near[h], h))
        keep += [h for h in strong if h not in keep][:STRONG]
        rest = [h for h in ranked if h not in keep]
        rng.shuffle(rest)
        return keep + rest[: CANDIDATES - len(keep)]

    @staticmethod
    def _ordered_moves(
        plan: tuple[int, ...], groups: list[list[str]], options: list[list[Option]]
    ) -> list[dict[str, Any]]:
        """The plan's moves, best solo gain first; a group sharing units with an earlier one is skipped."""
        taken: set[str] = set()
        chosen: list[tuple[float, dict[str, Any]]] = []
        for gi, oi in enumerate(plan):
            if oi == 0 or set(groups[gi]) & taken:
                continue
            taken |= set(groups[gi])
            o = options[gi][oi]
            chosen.append(
                (o.solo, {"type": "move", "units": list(groups[gi]), "path": list(o.path)})
            )
        chosen.sort(key=lambda c: -c[0])
        return [c[1] for c in chosen]

    def _light_moves(self, g: Game, who: str) -> list[dict[str, Any]]:
        """A whole movement phase for `who` on a play-out copy, as greedy would roughly play it: one scan
        of every group to every reachable hex on the light copy (each group's CONT_OPTIONS best hexes
        kept), then the best move first, each later move re-scored on the light copy with the earlier ones
        made, while a move gains more than MIN_MOVE_GAIN. No generator is used (ties by the scan order)."""
        groups = self._groups(g, who)
        if not groups:
            return []
        losses = loss_points(g)
        pos = Pos(g)
        _place_arrivals(g, who, groups, pos)
        base = eval_pos(g, pos, who, losses)
        per_group: dict[int, list[tuple[float, str, list[str]]]] = {}
        for gi, gr in enumerate(groups):
            reach = g.options(who, gr).get("reachable") or {}
            scored: list[tuple[float, str, list[str]]] = []
            if reach:
                scan = GroupScan(g, pos, who, losses, gr)
                for dest, r in reach.items():
                    v = scan.value(dest) - base
                    if v > MIN_MOVE_GAIN:
                        scored.append((v, dest, r["path"]))
            if scored:
                scored.sort(key=lambda x: -x[0])
                per_group[gi] = scored[:CONT_OPTIONS]
        unit_groups = [set(gr) for gr in groups]
        # Every kept option gains more than MIN_MOVE_GAIN (> 0) alone, so none is cut by its solo gain.
        steps = _moves_in_turn(g, pos, who, losses, groups, per_group, unit_groups, set(), base, None)
        return [
            {"type": "move", "units": list(groups[gi]), "path": list(per_group[gi][oi][2])} for gi, oi in steps
        ]

    def _play_out(self, game: Game, side: str, moves: list[dict[str, Any]], seed: int) -> float:
        """Make the moves on a determinised copy (dropping any the engine refuses), end the phase and
        play the coming combat phase with a quick policy and imagined dice; score the result."""
        g = copy_game(game, dice=ScriptedDice([], game.state.dice_count, random.Random(seed), game.ruleset.die_faces))
        for cmd in moves:
            try:
                g.submit(side, cmd)
            except ValueError:
                continue
            if g.state.decision is not None:
                _settle(g)
        enemy = game.scenario.opponent(side)
        enemy_moved = False
        try:
            g.submit(side, {"type": "end_phase"})
            for _ in range(80):
                if g.is_over:
                    break
                if g.state.decision is not None:
                    _settle(g)
                    continue
                st = g.state
                if st.active == side:
                    if st.phase not in ("recovery", "combat"):
                        break
                    if st.phase == "recovery" or st.ca_stage:
                        g.submit(side, {"type": "end_phase"})
                        continue
                    g.submit(side, _quick_attack(g, side))
                    continue
                if not ENEMY_REPLY:
                    break
                # the enemy's reply: it moves (a light greedy policy, if ENEMY_MOVES) and attacks
                # what is within its reach after that
                if st.phase == "movement" and ENEMY_MOVES and not enemy_moved:
                    enemy_moved = True
                    for cmd in self._light_moves(g, enemy):
                        try:
                            g.submit(enemy, cmd)
                        except ValueError:
                            continue
                        if g.state.decision is not None:
                            _settle(g)
                        if g.is_over or g.state.phase != "movement" or g.state.active != enemy:
                            break
                    continue
                if st.phase != "combat" or st.ca_stage:
                    g.submit(enemy, {"type": "end_phase"})
                    continue
                g.submit(enemy, _quick_attack(g, enemy))
        except ValueError:
            pass
        return evaluate(g, side)

    # --- combat: expectimax two attacks deep ---------------------------------------------------
    def _search_combat(
        self, game: Game, side: str, rng: random.Random, budget: Budget
    ) -> dict[str, Any]:
        st, sc = game.state, game.scenario
        mine = [u for u in sc.side_units[side] if st.units[u].status == "map"]
        pending = [c for c in game.legal_commands(side, rng, 1000) if c["type"] == "charge"]
        if pending:  # a declared charge must be made (9.2): as greedy
            return self.greedy_combat(game, side, rng, math.inf)
        attacks = [a for a in game.options(side, mine).get("attacks", []) if a.get("legal")]
        guns = [
            u for u in mine if sc.units[u].kind.value == "artillery" and not st.units[u].attacked
        ]
        bombards = [
            b["command"] for gun in guns for b in game.options(side, [gun]).get("bombard", [])
        ]
        if not attacks and not bombards:
            return {"type": "end_phase"}
        base = evaluate(game, side)
        scored: list[tuple[float, dict[str, Any], Any]] = []
        rng.shuffle(attacks)
        for a in attacks:
            if scored and not budget.left():
                break
            budget.spend(ATTACK_NODES)
            v = self._attack_value(
                game, side, a["command"], a["results"], a.get("defenders_assumed"), rng
            )
            if v is not None:
                scored.append((v - base, a["command"], a))
        for b in bombards:
            if scored and not budget.left():
                break
            budget.spend(ATTACK_NODES // 2)
            v = self._sampled_value(game, side, b, rng)
            if v is not None:
                scored.append((v - base, b, None))
        if not scored:
            return {"type": "end_phase"}
        scored.sort(key=lambda s: -s[0])
        best_gain, best_cmd = scored[0][0], scored[0][1]
        # second level: the best attacks, each outcome followed by the best next attack (if it gains)
        deep: list[tuple[float, dict[str, Any]]] = []
        for gain, cmd, a in scored[:FOLLOW_UP_ATTACKS]:
            if a is None or not budget.left():
                continue
            v = self._two_deep(game, side, a, rng, budget)
            if v is not None:
                deep.append((v - base, cmd))
        if deep:
            deep.sort(key=lambda d: -d[0])
            if deep[0][0] > best_gain:
                best_gain, best_cmd = deep[0]
        if best_gain > MIN_ATTACK_GAIN:
            return best_cmd
        return {"type": "end_phase"}

    def _two_deep(
        self, game: Game, side: str, a: dict[str, Any], rng: random.Random, budget: Budget
    ) -> float | None:
        """Expected value of attack `a` when each of its outcomes is followed by the best next attack
        (exact over the combat and morale dice at both levels; later dice imagined)."""
        results: list[str] = a["results"]
        rows: dict[str, int] = {}
        for i, r in enumerate(results):
            rows.setdefault(r, i + 1)
        fallback = rng.getrandbits(64)
        total = 0.0
        for r, die in rows.items():
            w = results.count(r) / 6
            branch_total = 0.0
            for mdie, mw in ((1, 1.0),) if r == "-" else ((1, None), (6, None)):
                g = copy_game(
                    game,
                    dice=ScriptedDice([die, mdie], game.state.dice_count, random.Random(fallback)),
                )
                try:
                    events = g.submit(side, a["command"])
                    rating = _settle_defended(g, a.get("defenders_assumed"), events)
                except ValueError:
                    return None
                v = self._after(g, side, rng, budget)
                if r == "-":
                    branch_total += v
                    continue
                if rating is None:
                    p = 1.0
                else:
                    p = sum(1 for m in range(1, 7) if game.ruleset.morale_passes(m, rating)) / 6
                branch_total += (p if mdie == 1 else 1 - p) * v
            total += w * branch_total
        return total

    def _after(self, g: Game, side: str, rng: random.Random, budget: Budget) -> float:
        """The value of a position in `side`'s combat phase: the better of stopping and the best attack."""
        here = evaluate(g, side)
        st = g.state
        if (
            g.is_over
            or st.decision is not None
            or st.phase != "combat"
            or st.active != side
            or not budget.left()
        ):
            return here
        mine = [u for u in g.scenario.side_units[side] if st.units[u].status == "map"]
        attacks = [x for x in g.options(side, mine).get("attacks", []) if x.get("legal")]
        attacks.sort(key=lambda x: -_table_value(x["results"]))
        best = here
        for x in attacks[:2]:
            if not budget.left():
                break
            budget.spend(ATTACK_NODES)
            v = self._attack_value(
                g, side, x["command"], x["results"], x.get("defenders_assumed"), rng
            )
            if v is not None and v - MIN_ATTACK_GAIN > best:
                best = v
        return best


def _place_arrivals(game: Game, side: str, groups: list[list[str]], pos: Pos) -> None:
    """Arriving reinforcements: counters off the map on the light copy until a move places them."""
    sc = game.scenario
    for g in groups:
        for u in g:
            if u not in pos.units:
                d = sc.units[u]
                att, dfn, ma = game.ruleset.bot_factors(sc, UnitState(u, None))
                pos.units[u] = U(
                    u, side, None, d.kind.value == "leader", att, dfn, ma, d.steps, False, d.kind
                )


def _table_value(results: list[str]) -> float:
    return sum(RESULT_VALUE.get(r, 0.0) for r in results) / max(len(results), 1)


def _quick_attack(g: Game, side: str) -> dict[str, Any]:
    """The rollout policy: the legal attack with the best rough CRT value, if it is worth making."""
    st = g.state
    mine = [u for u in g.scenario.side_units[side] if st.units[u].status == "map"]
    best: tuple[float, dict[str, Any]] | None = None
    for a in g.options(side, mine).get("attacks", []):
        if not a.get("legal"):
            continue
        v = _table_value(a["results"])
        if v > 0.4 and (best is None or v > best[0]):
            best = (v, a["command"])
    return best[1] if best is not None else {"type": "end_phase"}


def _settle(g: Game) -> None:
    """Answer pending decisions of a play-out with their first option."""
    for _ in range(12):
        d = g.state.decision
        if g.is_over or d is None:
            return
        g.submit(d["side"], {"type": "choose", "option": d["options"][0]["id"]})


def _settle_defended(
    g: Game, assumed: dict[str, Any] | None, events: list[dict[str, Any]]
) -> int | None:
    """As greedy's branches: the defender takes the preview's assumed defence, other decisions their
    first option; the rating of the first morale check, if any."""
    rating = _rating(events)
    for _ in range(12):
        d = g.state.decision
        if g.is_over or d is None:
            break
        opt = d["options"][0]
        if d["kind"] == "defenders" and assumed is not None:
            want = f"{assumed['primary']}|{'+'.join(sorted(assumed['units']))}|{assumed.get('leader') or '-'}"
            opt = next((o for o in d["options"] if o["id"] == want), opt)
        events = g.submit(d["side"], {"type": "choose", "option": opt["id"]})
        rating = rating if rating is not None else _rating(events)
    return rating


def _rating(events: list[dict[str, Any]]) -> int | None:
    for e in events:
        if e.get("type") == "morale" and isinstance(e.get("rating"), int):
            return int(e["rating"])
    return None


__all__ = ["Budget", "SearchBot", "UnseenPrior"]
