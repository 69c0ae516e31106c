"""The greedy bot: one command at a time, each scored with the static evaluation (`evaluate.py`).

* Movement: every group the engine lets move (whole stacks, single units, arrived reinforcements) to
  every hex `game.options` says it can reach; the group is moved on a light copy of the position and
  the whole position re-scored; the best move that improves the score is made, else the phase ends.
* Combat: every attack `game.options` proposes (its default command: the largest legal set of
  attackers, a leader per hex, every gun that may support) and every bombardment, scored by the exact
  distribution of its outcome: each distinct CRT result of the combat die's six rows (the preview's
  odds) and, where that result calls for a morale check, the morale die's pass and fail with their
  exact chances under the primary unit's rating; each branch is played out on a copy of the belief
  game with those dice and the position after it scored. The defender is assumed to choose its
  strongest defence (as the preview assumes). The best attack with a positive expected gain is made,
  else the phase ends. Being called again after each roll, it replans on the new position.
* Decisions (retreat paths, advances, losses, defenders, counterattacks, charges): each option is
  tried on a copy (averaged over a few imagined rolls when it rolls dice) and the best one taken.
* Recovery: every step recovery the engine allows; set-up: the listed hexes.
* Another edition's game (the Standard rules), whose page options these planners do not read: one ply over the
  engine's legal commands (`_generic`), each played on a copy and scored.
"""

from __future__ import annotations

import random
import time
from typing import Any

from server.rules import Game, UnitState

from .belief import copy_game
from .evaluate import Pos, U, eval_pos, evaluate, loss_points

MIN_MOVE_GAIN = 0.5
GENERIC_LIMIT = 400  # the most legal commands `_generic` lists at once
MIN_ATTACK_GAIN = 0.5
# Commands that end the phase or step (an edition may name its own, as Horse and Musket's `end_step`, R16.19) or
# leave the game: the generic ply never weighs them as a gain; ending is what it does when nothing gains enough.
NOT_CANDIDATES = frozenset({"end_phase", "end_step", "undo", "resign"})
DECISION_SAMPLES = 3
FOLLOW_UP_LIMIT = 12


class ScriptedDice:
    """Dice for a branch being imagined: the given values first, then imagined ones from an RNG."""

    def __init__(self, values: list[int], count: int, rng: random.Random, faces: int = 6) -> None:
        self._values = list(values)
        self._start = count
        self.count = count
        self._rng = rng
        self._low = 0 if faces == 10 else 1  # a d10 shows 0..9 (R17.1), a d6 1..6
        self._high = self._low + faces - 1

    def roll(self) -> int:
        i = self.count - self._start
        self.count += 1
        if 0 <= i < len(self._values):
            return self._values[i]
        return self._rng.randint(self._low, self._high)


class GreedyBot:
    level = "greedy"

    def choose(self, game: Game, side: str, rng: random.Random, budget_s: float = 1.0) -> dict[str, Any]:
        deadline = time.perf_counter() + max(budget_s, 0.001)
        st = game.state
        if not game.ruleset.planner_options:
            return self._generic(game, side, rng, deadline)
        if st.decision is not None:
            return self._decide(game, side, rng, deadline)
        if st.phase == "setup":
            return {"type": "end_phase"}
        if st.phase == "recovery":
            for c in game.legal_commands(side, rng, 1000):
                if c["type"] == "recover":
                    return c
            return {"type": "end_phase"}
        if st.phase == "movement":
            return self._move(game, side, rng, deadline)
        if st.phase == "combat":
            return self.greedy_combat(game, side, rng, deadline)
        return {"type": "end_phase"}

    # --- any edition: one ply over the engine's own legal commands ------------------------------
    def _generic(self, game: Game, side: str, rng: random.Random, deadline: float) -> dict[str, Any]:
        """For an edition whose page options the planners below do not read (the Standard rules): each legal
        command the engine lists (shuffled; as many as the time allows) is played on a copy of the belief game
        with imagined dice and the position after it scored; the best is taken — a decision's best option, or
        else the best command that gains at least MIN_MOVE_GAIN over ending the phase."""
        cmds = list(game.legal_commands(side, rng, GENERIC_LIMIT))
        if not cmds:
            return {"type": "end_phase"}
        rng.shuffle(cmds)
        must_choose = game.state.decision is not None or not game.ruleset.can_end_phase(game, side)
        if game.ruleset.bot_expects(game.scenario):
            return self._expected_ply(game, side, rng, deadline, cmds, must_choose)
        base = evaluate(game, side)
        samples = max(1, int(getattr(game.ruleset, "bot_dice_samples", 1)))
        best: tuple[float, dict[str, Any]] | None = None
        for i, cmd in enumerate(cmds):
            # The clock bounds the search for the best command, not for any gain: a scan cut short before it found
            # one would end the phase with gains unseen (on Königgrätz's field, a whole army's turn at 0.3 s a
            # decision). Without a clock (`--iterations`, the pinned games) the scan always completes.
            if i and time.perf_counter() > deadline and (must_choose or (best is not None and best[0] > MIN_MOVE_GAIN)):
                break
            if cmd.get("type") in NOT_CANDIDATES:
                continue
            v0 = _tried(game, side, cmd, rng, samples)
            if v0 is None:  # IllegalCommand: a command the belief game refuses is no candidate
                continue
            v = v0 - base + rng.random() * 0.01
            if best is None or v > best[0]:
                best = (v, cmd)
        if best is not None and (must_choose or best[0] > MIN_MOVE_GAIN):
            return best[1]
        if must_choose:
            return next((c for c in cmds if c.get("type") not in ("undo", "resign")), cmds[0])
        return {"type": "end_phase"}

    def _expected_ply(self, game: Game, side: str, rng: random.Random, deadline: float, cmds: list[dict[str, Any]],
                      must_choose: bool) -> dict[str, Any]:
        """`_generic` for an edition with `bot_expectation`: each command's value is the evaluation after it, and for
        one that rolls dice the mean over its first die (`expected_value`), each branch played on
        through the edition's `bot_follow_up` decisions (the decider taking its best option) and its `bot_reactions`
        (the enemy taking the first reaction offered); the best command is taken as in `_generic`."""
        base = evaluate(game, side)
        best: tuple[float, dict[str, Any]] | None = None
        for i, cmd in enumerate(cmds):
            # as in `_generic`: past the clock the scan goes on until it finds a gain (no clock: it always completes)
            if i and time.perf_counter() > deadline and (must_choose or (best is not None and best[0] > MIN_MOVE_GAIN)):
                break
            if cmd.get("type") in NOT_CANDIDATES:
                continue
            v = self.expected_value(game, side, cmd, rng)
            if v is None:
                continue
            v += rng.random() * 0.01 - base
            if best is None or v > best[0]:
                best = (v, cmd)
        if best is not None and (must_choose or best[0] > MIN_MOVE_GAIN):
            return best[1]
        if must_choose:
            return next((c for c in cmds if c.get("type") not in ("undo", "resign")), cmds[0])
        return {"type": "end_phase"}

    def expected_value(self, game: Game, side: str, cmd: dict[str, Any], rng: random.Random) -> float | None:
        """The evaluation for `side` after `cmd`: its mean over the first die it rolls, stratified (every face of a d6;
        one face of each pair of a d10; later dice imagined),
        the decisions that finish resolving it played on (`bot_follow_up`); None when the belief game refuses it."""
        faces = game.ruleset.die_faces
        first = self._played(game, side, cmd, ScriptedDice([], game.state.dice_count, random.Random(rng.random()),
                                                           faces), rng)
        if first is None:
            return None
        if first.state.dice_count == game.state.dice_count:
            return evaluate(first, side)
        low = 0 if faces == 10 else 1
        width = 2 if faces >= 10 else 1  # a d10 in five strata of two faces (one drawn in each): half the plays
        total = 0.0
        strata = range(low, low + faces, width)
        for start in strata:
            face = start + rng.randrange(width)
            g = self._played(game, side, cmd, ScriptedDice([face], game.state.dice_count,
                                                           random.Random(rng.random()), faces), rng)
            if g is None:
                return None
            total += evaluate(g, side)
        return total / len(strata)

    def _played(self, game: Game, side: str, cmd: dict[str, Any], dice: ScriptedDice,
                rng: random.Random) -> Game | None:
        g = copy_game(game, dice=dice)
        follow, assume = game.ruleset.bot_follow_up, game.ruleset.bot_reactions
        try:
            g.submit(side, cmd)
            for _ in range(FOLLOW_UP_LIMIT):
                d = g.state.decision
                if g.is_over or d is None:
                    break
                if d["kind"] in assume and d["side"] != side and len(d["options"]) > 1:
                    g.submit(d["side"], {"type": "choose", "option": d["options"][1]["id"]})
                    continue
                if d["kind"] not in follow:
                    break
                g.submit(d["side"], {"type": "choose", "option": self._follow_choice(g, d, rng)})
        except ValueError:  # IllegalCommand: a command the belief game refuses is no candidate
            return None
        return g

    def _follow_choice(self, g: Game, d: dict[str, Any], rng: random.Random) -> str:
        """The decider's best option of a decision that finishes resolving a command, each tried on a copy with
        imagined dice (the first option when there is one or more than the edition's `bot_follow_up_choices`)."""
        opts = d["options"]
        if len(opts) == 1 or len(opts) > g.ruleset.bot_follow_up_choices:
            return str(opts[0]["id"])
        best: tuple[float, str] | None = None
        for o in opts:
            t = copy_game(g, dice=ScriptedDice([], g.state.dice_count, random.Random(rng.random()),
                                               g.ruleset.die_faces))
            try:
                t.submit(d["side"], {"type": "choose", "option": o["id"]})
            except ValueError:
                continue
            v = evaluate(t, d["side"])
            if best is None or v > best[0]:
                best = (v, str(o["id"]))
        return best[1] if best is not None else str(opts[0]["id"])

    # --- movement ---------------------------------------------------------------------------
    def _groups(self, game: Game, side: str) -> list[list[str]]:
        st, sc = game.state, game.scenario
        by_hex: dict[str, list[str]] = {}
        groups: list[list[str]] = []
        for uid in sc.side_units[side]:
            s = st.units[uid]
            if s.moved or s.charging is not None:
                continue
            if s.status == "map" and s.hex is not None:
                by_hex.setdefault(s.hex, []).append(uid)
            elif s.status in ("offboard", "returning") and s.entry_turn is not None and s.entry_turn <= st.turn:
                groups.append([uid])
        for h, uids in sorted(by_hex.items()):
            groups.append(sorted(uids))
            if len(uids) > 1 and h not in st.squares:
                groups.extend([u] for u in sorted(uids))
        return groups

    def _move(self, game: Game, side: str, rng: random.Random, deadline: float) -> dict[str, Any]:
        sc = game.scenario
        losses = loss_points(game)
        pos = Pos(game)
        base = eval_pos(game, pos, side, losses)
        best: tuple[float, dict[str, Any]] | None = None
        groups = self._groups(game, side)
        rng.shuffle(groups)
        for g in groups:
            if time.perf_counter() > deadline and best is not None:
                break
            opts = game.options(side, g)
            reach = opts.get("reachable") or {}
            if not reach:
                continue
            saved = {u: (pos.units[u].hex if u in pos.units else None) for u in g}
            added = [u for u in g if u not in pos.units]
            if added:  # a reinforcement entering: put a light counter for it in the position
                tmp = Pos.__new__(Pos)
                tmp.game, tmp.control, tmp.turn = game, pos.control, pos.turn
                tmp.units = dict(pos.units)
                for u in added:
                    d = sc.units[u]
                    att, dfn, ma = game.ruleset.bot_factors(sc, UnitState(u, None))
                    tmp.units[u] = U(u, side, None, d.kind.value == "leader", att, dfn, ma, d.steps, False, d.kind)
                work = tmp
            else:
                work = pos
            for dest, r in reach.items():
                for u in g:
                    work.units[u].hex = dest
                v = eval_pos(game, work, side, losses) - base + rng.random() * 0.01
                if best is None or v > best[0]:
                    best = (v, {"type": "move", "units": list(g), "path": list(r["path"])})
            for u in g:
                if u in pos.units:
                    pos.units[u].hex = saved[u]
        if best is not None and best[0] > MIN_MOVE_GAIN:
            return best[1]
        return {"type": "end_phase"}

    # --- combat -----------------------------------------------------------------------------
    def greedy_combat(self, game: Game, side: str, rng: random.Random, deadline: float) -> dict[str, Any]:
        """Greedy's combat-phase command (Quick Play): the attack, bombardment or declared charge of best
        expected gain (a declared charge must be made, 9.2), or ending the phase when none gains
        MIN_ATTACK_GAIN. The search bot plays it while a charge is pending (`SearchBot._search_combat`)."""
        st, sc = game.state, game.scenario
        if st.ca_stage:
            return self._fallback(game, side, rng)
        mine = [u for u in sc.side_units[side] if st.units[u].status == "map"]
        opts = game.options(side, mine)
        cands: list[dict[str, Any]] = []
        for a in opts.get("attacks", []):
            if a.get("legal"):
                cands.append({"cmd": a["command"], "results": a["results"],
                              "assumed": a.get("defenders_assumed")})
        guns = [u for u in mine if sc.units[u].kind.value == "artillery" and not st.units[u].attacked]
        for g in guns:
            for b in game.options(side, [g]).get("bombard", []):
                cands.append({"cmd": b["command"], "results": None, "assumed": None})
        pending = [c for c in game.legal_commands(side, rng, 1000) if c["type"] == "charge"]
        for c in pending:  # a declared charge must be made (9.2)
            cands.append({"cmd": c, "results": None, "assumed": None})
        if not cands:
            return {"type": "end_phase"}
        base = evaluate(game, side)
        best: tuple[float, dict[str, Any]] | None = None
        rng.shuffle(cands)
        for c in cands:
            if time.perf_counter() > deadline and best is not None:
                break
            if c["results"] is not None:
                v = self._attack_value(game, side, c["cmd"], c["results"], c["assumed"], rng)
            else:
                v = self._sampled_value(game, side, c["cmd"], rng)
            if v is None:
                continue
            if best is None or v - base > best[0]:
                best = (v - base, c["cmd"])
        if pending and (best is None or best[1]["type"] != "charge"):
            return pending[0] if best is None or best[0] <= MIN_ATTACK_GAIN else best[1]
        if best is not None and best[0] > MIN_ATTACK_GAIN:
            return best[1]
        return {"type": "end_phase"}

    def _attack_value(self, game: Game, side: str, cmd: dict[str, Any], results: list[str],
                      assumed: dict[str, Any] | None, rng: random.Random) -> float | None:
        """Expected evaluation after the attack, exact over the combat die's six rows and the morale die."""
        rows: dict[str, int] = {}
        fallback = rng.getrandbits(64)  # the same imagined later dice (leader checks...) in every branch
        for i, r in enumerate(results):
            rows.setdefault(r, i + 1)
        total = 0.0
        for r, die in rows.items():
            w = results.count(r) / 6
            if r == "-":
                out = self._branch(game, side, cmd, [die, 1], assumed, fallback)
                if out is None:
                    return None
                total += w * out[0]
                continue
            passed = self._branch(game, side, cmd, [die, 1], assumed, fallback)
            failed = self._branch(game, side, cmd, [die, 6], assumed, fallback)
            if passed is None or failed is None:
                return None
            rating = passed[1]
            if rating is None:
                p = 1.0
            else:
                p = sum(1 for m in range(1, 7) if game.ruleset.morale_passes(m, rating)) / 6
            total += w * (p * passed[0] + (1 - p) * failed[0])
        return total

    def _branch(self, game: Game, side: str, cmd: dict[str, Any], dice: list[int], assumed: dict[str, Any] | None,
                fallback: int) -> tuple[float, int | None] | None:
        """The evaluation after `cmd` rolled with `dice` first (then imagined dice seeded by `fallback`),
        follow-up decisions taken by their first option (the defender's: the strongest defence), and the
        morale rating the first morale check was made against (None when there was none)."""
        g = copy_game(game, dice=ScriptedDice(dice, game.state.dice_count, random.Random(fallback),
                                                   game.ruleset.die_faces))
        try:
            events = g.submit(side, cmd)
            rating = None
            for _ in range(FOLLOW_UP_LIMIT):
                rating = rating if rating is not None else _morale_rating(events)
                d = g.state.decision
                if g.is_over or d is None:
                    break
                opt = d["options"][0]
                if d["kind"] == "defenders" and assumed is not None:
                    want = f"{assumed['primary']}|{'+'.join(sorted(assumed['units']))}|{assumed.get('leader') or '-'}"
                    opt = next((o for o in d["options"] if o["id"] == want), opt)
                events = g.submit(d["side"], {"type": "choose", "option": opt["id"]})
            rating = rating if rating is not None else _morale_rating(events)
        except ValueError:
            return None
        return evaluate(g, side), rating

    def _sampled_value(self, game: Game, side: str, cmd: dict[str, Any], rng: random.Random,
                       samples: int = DECISION_SAMPLES) -> float | None:
        """Mean evaluation after `cmd` over a few imagined rolls (one when it rolls no die)."""
        total = 0.0
        n = 0
        for i in range(samples):
            g = copy_game(game, dice=ScriptedDice([], game.state.dice_count, random.Random(rng.random()),
                                                        game.ruleset.die_faces))
            try:
                g.submit(side, cmd)
                for _ in range(FOLLOW_UP_LIMIT):
                    d = g.state.decision
                    if g.is_over or d is None:
                        break
                    g.submit(d["side"], {"type": "choose", "option": d["options"][0]["id"]})
            except ValueError:
                return None
            total += evaluate(g, side)
            n += 1
            if g.state.dice_count == game.state.dice_count:
                break
        return total / n if n else None

    # --- decisions ------------------------------------------------------------------------------
    def _decide(self, game: Game, side: str, rng: random.Random, deadline: float) -> dict[str, Any]:
        d = game.state.decision
        assert d is not None
        best: tuple[float, dict[str, Any]] | None = None
        for o in d["options"]:
            cmd = {"type": "choose", "option": o["id"]}
            if time.perf_counter() > deadline and best is not None:
                break
            v = self._sampled_value(game, side, cmd, rng)
            if v is not None and (best is None or v > best[0]):
                best = (v, cmd)
        if best is None:
            return {"type": "choose", "option": d["options"][0]["id"]}
        return best[1]

    def _fallback(self, game: Game, side: str, rng: random.Random) -> dict[str, Any]:
        cmds = list(game.legal_commands(side, rng, 1000))
        for c in cmds:
            if c["type"] == "end_phase":
                return c
        return cmds[0]


def _tried(game: Game, side: str, cmd: dict[str, Any], rng: random.Random, samples: int) -> float | None:
    """The evaluation after `cmd` on a copy of the belief game with imagined dice (None: refused); a command that rolls
    dice is tried `samples` times and the mean taken (the edition's `bot_dice_samples`: one for the editions whose
    pinned games were played so, more where one imagined roll decides too much, as a charge's test)."""
    total = 0.0
    for i in range(samples):
        trial = copy_game(game, f"generic-{rng.getrandbits(64):016x}")
        try:
            trial.submit(side, cmd)
        except ValueError:
            return None
        total += evaluate(trial, side)
        if trial.state.dice_count == game.state.dice_count:
            return total / (i + 1)
    return total / samples


def _morale_rating(events: list[dict[str, Any]]) -> int | None:
    for e in events:
        if e.get("type") == "morale" and "rating" in e:
            r = e["rating"]
            return int(r) if isinstance(r, int) else None
    return None
