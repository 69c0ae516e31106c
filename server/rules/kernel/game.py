"""The game engine every edition shares: one validating `submit` over trusting appliers, a task driver for
multi-step procedures, pending decisions, undo, views, the game record and its verification.

What a command, task or decision does is the edition's (`Game.ruleset`, an `Edition`: kernel/edition.py);
the engine only dispatches, drives, snapshots and records.  It reads the edition's context only as an
`EngineContext` (its events, whether it rolled dice), and builds its views with views.py, both below it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from .dice import (
    LEGACY_SCHEME,
    SCHEME,
    SCHEMES,
    Dice,
    LoadedDice,
    SeededDice,
    check_contribution,
    dice_key,
    die_from_seed,
    seed_hash,
)
from .edition import Edition, EngineContext, find_ruleset
from .errors import IllegalCommand, MalformedCommand, NotYourDecision
from .model import ScenarioModel
from .state import PHASE_OVER, STATUS_OFFBOARD, GameState, StateSnapshot, UnitState
from .views import UnitViewCache, build_view, build_views

MAX_COMMAND_KEYS = 16
# Every field the kernel's own commands may carry besides "type"; an edition adds its commands'
# (`Edition.command_fields`, docs/commands.md). Any other field is refused as malformed, so nothing
# unknown is ever judged or kept in a game's log.
KERNEL_COMMAND_FIELDS: dict[str, frozenset[str]] = {
    "choose": frozenset({"option"}),
    "undo": frozenset(),
    "resign": frozenset(),
}


class Game:
    """A game of one scenario under one ruleset, driven only by commands."""

    def __init__(self, scenario: ScenarioModel, seed: str, state: GameState, log: list[dict[str, Any]],
                 ruleset: Edition | None = None, dice: Dice | None = None,
                 dice_scheme: str = SCHEME, contributions: dict[str, str] | None = None) -> None:
        self.scenario = scenario
        self.ruleset = ruleset or find_ruleset(state.ruleset)
        self._seed = seed
        self._seed_hash = seed_hash(seed)  # in every view after every command: hashed once (issue 16)
        self.state = state
        self.log = log  # every accepted command, undo included, with its dice
        if dice_scheme not in SCHEMES:
            raise ValueError(f"unknown dice scheme {dice_scheme!r}")
        self._dice_scheme = dice_scheme
        # Each seat's contribution to the dice (R11, docs/dice.md): "" for a seat that sent none; a side
        # missing from the dict has not taken its seat yet, and no die is rolled until both are in.
        self._contributions: dict[str, str] = (
            {s: "" for s in scenario.side_order} if contributions is None
            else {s: check_contribution(v) for s, v in contributions.items() if s in scenario.sides})
        self._dice_ready = self._all_contributed()  # asked before every command and view: kept, not recounted
        self._dice: Dice = dice or SeededDice(self._dice_key(), state.dice_count, self.ruleset.die_faces)
        # Undo goes back at most to the last checkpoint (a die roll, a reveal, an opponent's action or a new
        # phase), so only the state there and the own commands since are kept.
        self._stack: list[dict[str, Any]] = []
        # The state undo goes back to: saved JSON (a loaded game's), or a command's own snapshot of the state
        # before it (`GameState.snapshot`).
        self._checkpoint: dict[str, Any] | StateSnapshot | None = None
        # True when the checkpoint is the current state itself, not yet serialised: a command that rolls
        # dice or changes the phase leaves it so, and the next command's own snapshot of the state before it
        # (which `submit` takes anyway) becomes the checkpoint: one copy of the whole state per such command
        # instead of two (issue 16).
        self._checkpoint_is_state = False
        self._base_version = 0  # commands before `log` when the log was left out of the snapshot
        self._barrier = "there is nothing to take back"  # why undo stops at the checkpoint
        # Each unit's view, kept from one call of views.build_views(share_units=True) to the next.
        self.unit_view_cache: UnitViewCache = {}

    # --- construction ------------------------------------------------------------
    @classmethod
    def new(cls, scenario: ScenarioModel, seed: str, ruleset: str | None = None,
            contributions: dict[str, str] | None = None, dice_scheme: str = SCHEME,
            options: Mapping[str, Any] | None = None) -> Game:
        """A new game. `contributions`: each seat's dice contribution (R11, docs/dice.md), "" for none;
        None means no seat contributes (every side ""); a side left out contributes when it takes its seat
        (`contribute`), and until then the game accepts no command and rolls no die. `options`: the game's
        options, each one the scenario offers (`Edition.game_options`, e.g. {"free_setup": true}); kept in
        the state and the record."""
        if not isinstance(seed, str) or len(seed) < 16:
            raise ValueError("a game seed must be a secret string of at least 16 characters")
        rs = find_ruleset(ruleset or scenario.ruleset)
        if not scenario.playable_under(rs.name):
            declared = ", ".join((scenario.ruleset, *scenario.also_rulesets))
            raise ValueError(f"scenario '{scenario.id}' is not written for ruleset '{rs.name}' (it declares: {declared})")
        chosen = check_game_options(rs, scenario, options)
        state = initial_state(scenario, rs)
        state.options = chosen
        game = cls(scenario, seed, state, [], rs, dice_scheme=dice_scheme, contributions=contributions)
        game._start()
        return game

    # --- the dice (R11, docs/dice.md) ---------------------------------------------------------
    def _dice_key(self) -> bytes | None:
        if not self.dice_ready:
            return None
        return dice_key(self._seed, self._contributions, self._dice_scheme)

    @property
    def dice_ready(self) -> bool:
        """Both seats' contributions are in (always, for a game of the old scheme)."""
        return self._dice_ready

    def _all_contributed(self) -> bool:
        return self._dice_scheme == LEGACY_SCHEME or all(s in self._contributions for s in self.scenario.side_order)

    @property
    def dice_scheme(self) -> str:
        return self._dice_scheme

    @property
    def contributions(self) -> dict[str, str]:
        return dict(self._contributions)

    def contribute(self, side: str, value: str | None) -> None:
        """A seat's contribution, given when it takes its seat, before any command or die."""
        if side not in self.scenario.sides:
            raise ValueError(f"unknown side '{side}'")
        if self._dice_scheme == LEGACY_SCHEME:
            raise ValueError("this game's dice come from the seed alone (it was created before contributions)")
        if side in self._contributions:
            raise ValueError(f"{side} has already contributed to the dice")
        if self.version or self.state.dice_count or self.log:
            raise ValueError("contributions come before the first command")
        self._contributions[side] = check_contribution(value)
        self._dice_ready = self._all_contributed()
        if self.dice_ready and isinstance(self._dice, SeededDice):
            self._dice = SeededDice(self._dice_key(), self.state.dice_count, self.ruleset.die_faces)

    def dice_public(self) -> dict[str, Any]:
        """What anyone may know of the dice inputs during the game (the seed hash is in the view too)."""
        out = {"scheme": self._dice_scheme, "ready": self.dice_ready,
               "contributed": {s: bool(self._contributions.get(s)) for s in self.scenario.side_order}}
        if self.ruleset.die_faces != 6:
            out["faces"] = self.ruleset.die_faces
        return out

    def _dice_record(self) -> dict[str, Any]:
        """The record's dice block: the scheme, the contributions and, for a d10 edition (R17.1), its faces (a
        record without `faces` rolled d6s, as every record did before)."""
        out: dict[str, Any] = {"scheme": self._dice_scheme, "contributions": dict(self._contributions)}
        if self.ruleset.die_faces != 6:
            out["faces"] = self.ruleset.die_faces
        return out

    @classmethod
    def for_test(cls, scenario: ScenarioModel, state: GameState, dice: list[int] | None = None) -> Game:
        """A game on a hand-made position with loaded dice. Tests only: the service never calls this."""
        rs = find_ruleset(state.ruleset)
        game = cls(scenario, "test-seed-not-secret", state, [], rs, LoadedDice(dice or [], rs.die_faces))
        game._checkpoint = state.to_json()  # like Game.new: undo may go back to the starting position
        return game

    def _start(self) -> None:
        ctx = self.context()
        self.ruleset.start(ctx)
        self._drive(ctx)
        self._initial_events = ctx.events
        self._checkpoint = self.state.to_json()

    def context(self) -> EngineContext:
        """The edition's context over the current state (`Edition.context`); each edition narrows it to its
        own (`core.Ctx.of`, `standard.context.StdCtx.of`)."""
        return self.ruleset.context(self.scenario, self.state, self._dice)

    # --- the public surface ----------------------------------------------------------
    @property
    def version(self) -> int:
        return self._base_version + len(self.log)

    @property
    def awaiting(self) -> str | None:
        st = self.state
        if st.phase == PHASE_OVER:
            return None
        if st.decision is not None:
            side: str = st.decision["side"]
            return side
        return st.active

    @property
    def is_over(self) -> bool:
        return self.state.phase == PHASE_OVER

    @property
    def result(self) -> dict[str, Any] | None:
        return self.state.result

    @property
    def seed_hash(self) -> str:
        return self._seed_hash

    def revealed_seed(self) -> str | None:
        """The dice seed, once the game is over (it is published then, to verify the record); None before."""
        return self._seed if self.is_over else None

    def submit(self, side: str, command: Any) -> list[dict[str, Any]]:
        """Validate a command from `side` and apply it; IllegalCommand leaves the game untouched."""
        if side not in self.scenario.sides:
            raise MalformedCommand(f"unknown side '{side}'")
        cmd = _check_shape(command, self.ruleset.command_fields())
        ctype = cmd["type"]
        if not self.dice_ready and ctype != "resign":
            raise IllegalCommand("R11", "the game starts when both seats have taken their places and contributed to the dice")
        if ctype == "undo":
            return self.undo(side)
        if ctype == "resign":
            return self.resign(side)
        if self.is_over:
            raise IllegalCommand("3.4", "the game is over")
        if self.awaiting != side:
            who = self.scenario.sides[self.awaiting or side].name
            raise NotYourDecision(f"it is {who}'s decision now, not yours")
        snapshot = self.state.snapshot()
        if self._checkpoint_is_state:  # nothing has changed the state since: this is the checkpoint
            self._checkpoint, self._checkpoint_is_state = snapshot, False
        dice_before = self._dice.count
        ctx = self.context()
        try:
            self._dispatch(ctx, side, cmd)
            self._drive(ctx)
        except IllegalCommand:
            self._restore(snapshot, dice_before)
            raise
        except Exception:
            self._restore(snapshot, dice_before)
            raise
        entry = {"side": side, "command": cmd, "dice": self._dice_since(ctx), "barrier": ctx.rolled,
                 "phase_key": self._phase_key_of(snapshot)}
        self.log.append({"side": side, "command": cmd, "dice": entry["dice"]})
        self._stack.append(entry)
        if ctx.rolled or self._phase_key_of(snapshot) != self._phase_key():
            self._checkpoint, self._checkpoint_is_state = None, True
            self._stack = []
            self._barrier = ("the last action rolled dice or revealed something and cannot be taken back"
                             if ctx.rolled else "only actions of the current phase can be taken back")
        return ctx.events

    def _settle_checkpoint(self) -> None:
        if self._checkpoint_is_state:
            self._checkpoint, self._checkpoint_is_state = self.state.snapshot(), False

    def _checkpoint_json(self) -> dict[str, Any] | None:
        if self._checkpoint_is_state:
            return self.state.to_json()
        if isinstance(self._checkpoint, StateSnapshot):
            return self._checkpoint.to_json()
        return self._checkpoint

    def _restore(self, snapshot: StateSnapshot, dice_before: int) -> None:
        self.state = GameState.restore(snapshot)
        if isinstance(self._dice, LoadedDice):
            if self._dice.count != dice_before:
                raise AssertionError("a test command failed after rolling loaded dice; the dice cannot be put back")
            return
        self._dice.count = dice_before

    def _dice_since(self, ctx: EngineContext) -> list[int]:
        out: list[int] = []
        for e in ctx.events:
            if e["type"] == "dice":
                out.extend(e["dice"])
        return out

    def _phase_key(self) -> list[Any]:
        return [self.state.turn, self.state.phase, self.state.active]

    @staticmethod
    def _phase_key_of(snapshot: StateSnapshot) -> list[Any]:
        rest = snapshot.rest
        return [rest["turn"], rest["phase"], rest["active"]]

    # --- undo (issue: back to the last die roll, reveal or opponent action) -------------------
    def can_undo(self, side: str) -> bool:
        return self._undo_problem(side) is None

    def _undo_problem(self, side: str) -> str | None:
        if self.is_over:
            return "the game is over"
        if not self._stack:
            return self._barrier
        last = self._stack[-1]
        if last["side"] != side:
            return "the last action was your opponent's"
        if last["barrier"]:
            return "the last action rolled dice or revealed something and cannot be taken back"
        if last["phase_key"] != self._phase_key():
            return "only actions of the current phase can be taken back"
        if self._checkpoint is None:
            return "nothing since the last die roll can be taken back"
        return None

    def undo(self, side: str) -> list[dict[str, Any]]:
        problem = self._undo_problem(side)
        if problem is not None:
            raise IllegalCommand("undo", problem)
        assert self._checkpoint is not None
        base_state = self._checkpoint
        keep = self._stack[:-1]
        undone = self._stack[-1]
        self.state = (GameState.restore(base_state) if isinstance(base_state, StateSnapshot)
                      else GameState.from_json(base_state))
        self._dice.count = self.state.dice_count
        for entry in keep:
            ctx = self.context()
            self._dispatch(ctx, entry["side"], entry["command"])
            self._drive(ctx)
        self._stack = keep
        self.log.append({"side": side, "command": {"type": "undo"}, "dice": []})
        text = f"{self.scenario.sides[side].name} takes back: {describe_command(self.scenario, undone['command'])}"
        event = {"type": "undo", "text": text, "side": side, "command": undone["command"]}
        secret = self.ruleset.secret_command(self.scenario, side, undone["command"])
        if secret is not None:  # the command was the side's secret (e.g. a set-up placement): so is its undo
            public, only = secret
            return [{"type": "undo", "text": f"{self.scenario.sides[side].name} takes back {public}", "side": side},
                    {**event, "visible_to": only}]
        return [event]

    def resign(self, side: str) -> list[dict[str, Any]]:
        if self.is_over:
            raise IllegalCommand("3.4", "the game is over")
        ctx = self.context()
        winner = self.scenario.opponent(side)
        self.ruleset.finish_game(ctx, {
            "winner": winner,
            "reason": f"{self.scenario.sides[side].name} resigns; {self.scenario.sides[winner].name} wins",
            "points": self.ruleset.points(ctx), "turn": self.state.turn, "resigned": side,
        })
        self.log.append({"side": side, "command": {"type": "resign"}, "dice": []})
        self._stack = []
        self._checkpoint, self._checkpoint_is_state = None, False
        return ctx.events

    def end_by_referee(self, winner: str | None, reason: str) -> list[dict[str, Any]]:
        """A result the service imposes (a claimed win on an expired deadline); recorded like a command."""
        if self.is_over:
            raise IllegalCommand("3.4", "the game is over")
        self._settle_checkpoint()  # the state changes now, and the checkpoint stays where it was
        ctx = self.context()
        self.ruleset.finish_game(ctx, {"winner": winner, "reason": reason, "points": self.ruleset.points(ctx),
                                       "turn": self.state.turn})
        cmd = {"type": "adjudicate", "winner": winner, "reason": reason}
        self.log.append({"side": "referee", "command": cmd, "dice": []})
        return ctx.events

    # --- command dispatch (validate first; apply only what validated) -------------------
    def _dispatch(self, ctx: EngineContext, side: str, cmd: dict[str, Any]) -> None:
        st = self.state
        ctype = cmd["type"]
        if st.decision is not None:
            if ctype != "choose":
                raise IllegalCommand(st.decision["rule"], f"first answer the pending decision: {st.decision['text']}")
            option_id = cmd.get("option")
            chosen = next((o for o in st.decision["options"] if o["id"] == option_id), None)
            if chosen is None:
                raise IllegalCommand(st.decision["rule"], f"'{option_id}' is not one of the choices offered")
            self._apply_decision(ctx, chosen)
            return
        if ctype == "choose":
            raise IllegalCommand("3.3", "there is no decision pending")
        handler = self.ruleset.commands().get(ctype)
        if handler is None:
            raise MalformedCommand(f"unknown command type '{ctype}'")
        handler(ctx, side, cmd)

    def _apply_decision(self, ctx: EngineContext, option: dict[str, Any]) -> None:
        decision = self.state.decision
        assert decision is not None
        self.state.decision = None
        self.ruleset.decisions()[decision["kind"]](ctx, decision.get("task", {}), option)

    def _drive(self, ctx: EngineContext) -> None:
        """Run queued tasks until a player must decide; take single-option decisions at once (R7)."""
        st = self.state
        tasks = self.ruleset.tasks()
        interrupt = self.ruleset.interrupt
        guard = 0
        while True:
            guard += 1
            if guard > 100000:
                raise AssertionError("the task driver is not making progress")
            if st.phase == PHASE_OVER:
                st.decision = None
                st.tasks = []
                break
            if interrupt(ctx):
                continue
            if st.decision is not None:
                if len(st.decision["options"]) == 1:
                    only = st.decision["options"][0]
                    ctx.emit("auto", f"{st.decision['rule']}: only one choice: {only['label']}", rule=st.decision["rule"])
                    self._apply_decision(ctx, only)
                    continue
                break
            if not st.tasks:
                break
            task = st.tasks.pop()
            tasks[task["t"]](ctx, task)
        self.ruleset.after_command(ctx)

    # --- legal options ---------------------------------------------------------------------
    def options(self, side: str, units: list[str]) -> dict[str, Any]:
        """What the named units may do now (the edition's: reachable hexes, attack targets with odds...)."""
        return self.ruleset.options(self, side, units)

    def preview(self, side: str, command: Any) -> dict[str, Any]:
        """Judge one exact command (an attack, a bombardment) without applying it: its odds, or why it is illegal."""
        return self.ruleset.preview(self, side, command)

    def legal_commands(self, side: str, rng: random.Random | None = None, limit: int = 60) -> Iterator[dict[str, Any]]:
        """Legal commands for `side` now (sampled where the space is large): the bots' and tests' move list."""
        yield from self.ruleset.legal_commands(self, side, rng or random.Random(0), limit)

    # --- views and records --------------------------------------------------------------------
    def view(self, viewer: str) -> dict[str, Any]:
        return build_view(self, viewer)

    def views(self, viewers: list[str], *, share_units: bool = False) -> list[dict[str, Any]]:
        """`view(v)` for each of `viewers`, with what they share worked out once (`share_units`:
        see `views.build_views`)."""
        return build_views(self, viewers, share_units=share_units)

    def to_json(self, include_log: bool = True) -> dict[str, Any]:
        """The complete state, seed included: for the server's database only. Without the log (which the
        service keeps as rows) the snapshot's size does not grow with the game."""
        data: dict[str, Any] = {
            "format": 1, "scenario": self.scenario.id, "ruleset": self.ruleset.name, "seed": self._seed,
            "dice": {"scheme": self._dice_scheme, "contributions": dict(self._contributions)},
            "state": self.state.to_json(), "version": self.version,
            "stack": self._stack, "checkpoint": self._checkpoint_json(), "barrier": self._barrier,
        }
        if include_log:
            data["log"] = self.log
        return data

    @classmethod
    def from_json(cls, scenario: ScenarioModel, data: dict[str, Any], log: list[dict[str, Any]] | None = None) -> Game:
        """Rebuild a game; pass `log` (every logged command, oldest first) when the snapshot was saved without it."""
        if data.get("format") != 1 or data.get("scenario") != scenario.id:
            raise ValueError("this saved game does not belong to that scenario or format")
        state = GameState.from_json(data["state"])
        entries = data.get("log", log)
        dice = data.get("dice") or {"scheme": LEGACY_SCHEME}  # saved before the seats contributed
        game = cls(scenario, data["seed"], state, list(entries) if entries is not None else [],
                   find_ruleset(data["ruleset"]), dice_scheme=dice["scheme"], contributions=dice.get("contributions", {}))
        if entries is None:
            game._base_version = int(data["version"])
        elif "version" in data and len(entries) != int(data["version"]):
            raise ValueError(f"the log has {len(entries)} commands but the snapshot is at version {data['version']}")
        game._stack = list(data.get("stack", []))
        game._checkpoint = data.get("checkpoint")
        game._barrier = data.get("barrier", game._barrier)
        return game

    def record(self) -> dict[str, Any]:
        if self._base_version:
            raise ValueError("this game was loaded without its log; load it with Game.from_json(..., log=...)")
        rec: dict[str, Any] = {
            "format": 1, "scenario": self.scenario.id, "ruleset": self.ruleset.name,
            "seed_hash": self.seed_hash, "commands": self.log, "result": self.state.result,
            "dice": self._dice_record(),
        }
        if self.state.options:
            rec["options"] = dict(self.state.options)
        if self.is_over:
            rec["seed"] = self._seed
        return rec

    def replay_to(self, version: int) -> Game:
        """A fresh game with the first `version` logged commands applied (history views)."""
        game = Game.new(self.scenario, self._seed, self.ruleset.name, dict(self._contributions), self._dice_scheme,
                        self.state.options)
        for entry in self.log[:version]:
            _replay_entry(game, entry)
        return game


def _replay_entry(game: Game, entry: dict[str, Any]) -> list[dict[str, Any]]:
    cmd = entry["command"]
    if cmd.get("type") == "adjudicate":
        return game.end_by_referee(cmd.get("winner"), cmd.get("reason", "adjudicated"))
    return game.submit(entry["side"], cmd)


def check_fields(cmd: dict[str, Any], required: dict[str, str], optional: dict[str, str]) -> None:
    """Field types of a command ('hex'/'id': a string, 'ids': a list of strings); MalformedCommand otherwise."""
    for name, kind in list(required.items()) + list(optional.items()):
        if name not in cmd or (name in optional and cmd[name] is None):
            if name in required:
                raise MalformedCommand(f"the command needs '{name}'")
            continue
        value = cmd[name]
        if kind == "ids":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise MalformedCommand(f"'{name}' must be a list of unit ids")
        elif not isinstance(value, str):
            what = 'a hex id like "0504"' if kind == "hex" else "a unit id"
            raise MalformedCommand(f"'{name}' must be {what}")


def _check_shape(command: Any, fields: Mapping[str, frozenset[str]] | None = None) -> dict[str, Any]:
    """A command's shape: a JSON object with a 'type' string and, for a known type, only its own fields
    (the kernel's `KERNEL_COMMAND_FIELDS` and the edition's `fields`)."""
    if not isinstance(command, dict):
        raise MalformedCommand("a command must be a JSON object")
    if len(command) > MAX_COMMAND_KEYS:
        raise MalformedCommand("the command has too many fields")
    ctype = command.get("type")
    if not isinstance(ctype, str):
        raise MalformedCommand("a command needs a 'type' string")
    allowed = KERNEL_COMMAND_FIELDS[ctype] if ctype in KERNEL_COMMAND_FIELDS else (fields or {}).get(ctype)
    if allowed is not None:
        unknown = sorted(str(k) for k in command if k != "type" and k not in allowed)
        if unknown:
            known = ", ".join(sorted(allowed)) or "none"
            raise MalformedCommand(
                f"unknown field '{unknown[0][:40]}' in a {ctype} command (its fields: {known})"
            )
    return dict(command)


def check_game_options(rs: Edition, scenario: ScenarioModel, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The game's options as stored: each one the scenario offers (`Edition.game_options`), a yes/no value; the
    ones left off are not stored. ValueError naming an option the scenario does not offer."""
    if not options:
        return {}
    if not isinstance(options, Mapping):
        raise ValueError("a game's options are an object of yes/no choices")  # noqa: TRY004
    offered = rs.game_options(scenario)
    chosen: dict[str, Any] = {}
    for name, value in options.items():
        if name not in offered:
            known = ", ".join(sorted(offered)) or "none"
            raise ValueError(f"scenario '{scenario.id}' offers no game option '{name}' (its options: {known})")
        if not isinstance(value, bool):
            raise ValueError(f"the game option '{name}' is a yes/no choice (true or false)")  # noqa: TRY004
        if value:
            chosen[name] = True
    return chosen


def initial_state(scenario: ScenarioModel, rs: Edition) -> GameState:
    """A new game's state before its first phase: the edition's (`Edition.initial_state`)."""
    return rs.initial_state(scenario)


def setup_units(scenario: ScenarioModel) -> dict[str, UnitState]:
    """Every unit of the set-up on its hex and every reinforcement off the map with its turn and entry hex:
    the start both editions share (sorted by id)."""
    units: dict[str, UnitState] = {}
    for p in scenario.setup:
        units[p.unit] = UnitState(id=p.unit, hex=p.hex, reduced=p.reduced, disrupted=p.disrupted,
                                  ineffective=p.ineffective)
    for r in scenario.reinforcements:
        units[r.unit] = UnitState(id=r.unit, hex=None, status=STATUS_OFFBOARD, entry_turn=r.turn, entry_hex=r.hex)
    return dict(sorted(units.items()))


def verify_record(record: dict[str, Any], scenario: ScenarioModel) -> list[str]:
    """Check a finished game's record: the seed matches its published hash, and replaying the
    commands with that seed reproduces every die and the result. [] means the record is sound."""
    problems: list[str] = []
    seed = record.get("seed")
    if not isinstance(seed, str):
        return ["the record has no seed: the game is not over, so it cannot be verified yet"]
    if seed_hash(seed) != record.get("seed_hash"):
        problems.append("the published seed does not match the seed hash announced at the start")
    if record.get("scenario") != scenario.id:
        problems.append(f"the record is for scenario '{record.get('scenario')}', not '{scenario.id}'")
        return problems
    dice = record.get("dice") or {"scheme": LEGACY_SCHEME}
    if not isinstance(dice, dict) or dice.get("scheme") not in SCHEMES:
        return problems + [f"the record's dice scheme is not one of {', '.join(SCHEMES)}"]
    contributions = dice.get("contributions", {})
    if dice["scheme"] == SCHEME and (not isinstance(contributions, dict)
                                     or set(contributions) != set(scenario.side_order)):
        return problems + ["the record does not carry both seats' dice contributions"]
    try:
        game = Game.new(scenario, seed, record.get("ruleset"), contributions if dice["scheme"] == SCHEME else {},
                        dice["scheme"], record.get("options"))
    except ValueError as e:
        return problems + [str(e)]
    faces = dice.get("faces", 6)
    if faces != game.ruleset.die_faces:
        return problems + [(f"the record says its dice have {faces} faces, but {game.ruleset.name} rolls "
                            f"d{game.ruleset.die_faces}s")]
    for i, entry in enumerate(record.get("commands", [])):
        try:
            _replay_entry(game, entry)
        except (IllegalCommand, ValueError) as e:
            problems.append(f"command {i + 1} is illegal on replay: {e}")
            return problems
        got = game.log[-1]["dice"]
        if got != entry.get("dice", []):
            problems.append(f"command {i + 1}: the record shows dice {entry.get('dice')} but the seed gives {got}")
    if game.result != record.get("result"):
        problems.append("replaying the commands does not reach the recorded result")
    return problems


def describe_command(scenario: ScenarioModel, cmd: dict[str, Any]) -> str:
    t = cmd.get("type")
    if t == "move" and isinstance(cmd.get("unit"), str) and "path" not in cmd:  # a move of one unit by legs (R16.11)
        return f"move {scenario.units[cmd['unit']].name if cmd['unit'] in scenario.units else cmd['unit']}"
    if t == "move":
        return f"move {', '.join(scenario.units[u].name for u in cmd.get('units', []) if u in scenario.units)} to {cmd.get('path', ['?'])[-1]}"
    if t == "place":
        return f"placement of {cmd.get('unit')}"
    if t == "form_square":
        return f"square at {cmd.get('hex')}"
    return str(t)


__all__ = ["Game", "check_fields", "check_game_options", "die_from_seed", "initial_state", "setup_units", "verify_record"]
