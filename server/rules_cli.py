"""`vedette simulate`, `vedette validate-scenario` and `vedette replay`: rules tools needing no server."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .rules import ScenarioError, find_ruleset, scenario_from_json_text, verify_record
from .rules.kernel.randomplayer import simulate

SCENARIO_DIR = Path(__file__).resolve().parent.parent / "scenarios"


def load_scenario_file(path: Path) -> Any:
    return scenario_from_json_text(path.read_text("utf-8"), str(path))


def find_scenario(ident: str) -> Any:
    path = Path(ident)
    if not path.exists():
        path = SCENARIO_DIR / f"{ident}.json"
    if not path.exists():  # an edition's own folder (scenarios/standard/...)
        path = next(iter(sorted(SCENARIO_DIR.glob(f"*/{ident}.json"))), path)
    if not path.exists():
        raise ScenarioError(ident, [("", f"no scenario file {ident} (looked in {SCENARIO_DIR} and its folders)")])
    return load_scenario_file(path)


def scenario_and_edition(args: argparse.Namespace, command: str) -> tuple[Any, str] | None:
    """The scenario `vedette <command> --scenario` names and the edition it is played under: its own, or `--ruleset`
    when the scenario declares it (`also_rulesets`) and the rules core plays it; None (the reason printed) otherwise."""
    try:
        scenario = find_scenario(args.scenario)
    except ScenarioError as e:
        print(e, file=sys.stderr)
        return None
    ruleset = args.ruleset or scenario.ruleset
    if not scenario.playable_under(ruleset):
        declared = ", ".join((scenario.ruleset, *scenario.also_rulesets))
        print(f"vedette {command}: scenario '{scenario.id}' is not written for ruleset '{ruleset}' (it declares: "
              f"{declared})", file=sys.stderr)
        return None
    try:
        find_ruleset(ruleset)
    except ValueError as e:
        print(f"vedette {command}: {e}", file=sys.stderr)
        return None
    return scenario, str(ruleset)


def cmd_simulate(args: argparse.Namespace) -> int:
    played = scenario_and_edition(args, "simulate")
    if played is None:
        return 2
    scenario, ruleset = played
    report = simulate(scenario, args.games, args.seed, check=not args.no_check, ruleset=ruleset)
    data = report.to_json()
    data["scenario"] = scenario.id
    data["ruleset"] = ruleset
    data["seed"] = args.seed
    if args.json:
        print(json.dumps(data))
    else:
        print(f"{scenario.title}: {data['games']} games, {data['commands']} commands in {data['seconds']} s "
              f"({data['games_per_second']} games/s, {data['commands_per_second']} commands/s)")
        print(f"wins: {data['wins']}, draws: {data['draws']}, average turns {data['average_turns']}")
        print(f"invariant violations: {data['violations']}")
        for ex in data["violation_examples"]:
            print(f"  {ex}")
    return 1 if report.violations else 0


def cmd_arena(args: argparse.Namespace) -> int:
    from .bots import LEVELS
    from .bots.arena import arena

    played = scenario_and_edition(args, "arena")
    if played is None:
        return 2
    scenario, ruleset = played
    for level in (args.a, args.b):
        if level not in LEVELS:
            print(f"vedette arena: unknown bot level '{level}' (levels: {', '.join(LEVELS)})", file=sys.stderr)
            return 2
    if args.games < 1:
        print("vedette arena: --games must be at least 1", file=sys.stderr)
        return 2

    def progress(i: int, r: Any) -> None:
        print(f"game {i + 1}/{args.games}: {args.a} {r.a_wins}, {args.b} {r.b_wins}, draws {r.draws} "
              f"({r.seconds:.0f} s)", file=sys.stderr, flush=True)

    report = arena(scenario, args.a, args.b, args.games, args.seed, args.budget, progress, args.iterations, ruleset)
    data = report.to_json()
    lo, hi = data["a_share_ci95"]
    decisive = data["a_wins"] + data["b_wins"]
    print(f"{scenario.title} ({ruleset}): {data['games']} games of {args.a} (a) against {args.b} (b), seed {args.seed}, "
          f"{data['seconds']} s")
    print(f"a wins {data['a_wins']}, b wins {data['b_wins']}, draws {data['draws']}; a won "
          f"{data['a_wins']}/{decisive} decisive games, 95% interval {lo:.1%} to {hi:.1%}")
    for side, row in data["by_side"].items():
        print(f"  a as {side}: a {row['a']}, b {row['b']}, draws {row['draw']}")
    for label, t in data["decision_time"].items():
        print(f"  {label}: {t['decisions']} decisions, median {t['median_ms']} ms, max {t['max_ms']} ms")
    print(f"invariant violations: {data['violations']}, illegal bot commands: {data['illegal_commands']}")
    for ex in data["violation_examples"]:
        print(f"  {ex}")
    if args.json:
        print(json.dumps(data))
    return 1 if report.violations or report.illegal else 0


def cmd_validate(args: argparse.Namespace) -> int:
    status = 0
    for f in args.files:
        try:
            sc = load_scenario_file(Path(f))
        except FileNotFoundError:
            print(f"{f}: no such file", file=sys.stderr)
            status = 2
        except ScenarioError as e:
            print(e, file=sys.stderr)
            status = 1
        else:
            print(f"{f}: ok ({sc.title}: {sc.grid.columns}x{sc.grid.rows} map, {len(sc.units)} units, {sc.turns} turns)")
    return status


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        record = json.loads(Path(args.file).read_text("utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        print(f"{args.file}: cannot read the record: {e}", file=sys.stderr)
        return 2
    if not isinstance(record, dict) or "scenario" not in record:
        print(f"{args.file}: not a game record", file=sys.stderr)
        return 2
    try:
        scenario = find_scenario(str(record["scenario"]))
    except ScenarioError as e:
        print(e, file=sys.stderr)
        return 2
    problems = verify_record(record, scenario)
    if problems:
        for p in problems:
            print(f"FAIL: {p}")
        return 1
    result = record.get("result") or {}
    dice = record.get("dice") or {"scheme": "vedette-dice-1"}
    rolled = sum(len(e.get("dice", [])) for e in record.get("commands", []))
    print(f"OK: {len(record.get('commands', []))} commands replayed; all {rolled} dice match the published seed "
          f"and the seats' contributions ({dice['scheme']}, docs/dice.md); result: {result.get('reason', 'none')}")
    for side, value in sorted((dice.get("contributions") or {}).items()):
        print(f"  {side}: {'contributed ' + value if value else 'sent no contribution (the seed alone decides)'}")
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("simulate", help="play random legal games and check invariants after every command")
    p.add_argument("--scenario", required=True, help="scenario id (scenarios/ID.json) or a file path")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ruleset", default=None,
                   help="play under this edition, one the scenario declares (its `ruleset` or `also_rulesets`)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--no-check", action="store_true", help="skip invariant checks (for speed measurements)")
    p.set_defaults(handler=cmd_simulate)
    p = sub.add_parser("arena", help="play bot against bot, alternating sides, invariants checked (docs/bots.md)")
    p.add_argument("--scenario", required=True, help="scenario id (scenarios/ID.json) or a file path")
    p.add_argument("--a", default="greedy", help="level of bot a (random, greedy, search)")
    p.add_argument("--b", default="random", help="level of bot b (random, greedy, search)")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--budget", type=float, default=1.0, help="seconds a bot may think per decision")
    p.add_argument("--iterations", type=int, default=None,
                   help="search's budget in nodes per decision instead of the clock (reproducible; greedy then "
                        "runs to completion)")
    p.add_argument("--ruleset", default=None,
                   help="play under this edition, one the scenario declares (its `ruleset` or `also_rulesets`)")
    p.add_argument("--json", action="store_true", help="end with one JSON line")
    p.set_defaults(handler=cmd_arena)
    p = sub.add_parser("validate-scenario", help="check scenario files against the schema and the rules")
    p.add_argument("files", nargs="+")
    p.set_defaults(handler=cmd_validate)
    p = sub.add_parser("replay", help="verify a finished game's record against its published seed")
    p.add_argument("file")
    p.set_defaults(handler=cmd_replay)
