"""Scenario registry: every scenarios/*.json and every scenarios/<edition>/*.json (one folder per edition of the
rules other than Quick Play, e.g. scenarios/standard/), parsed by the rules core at startup.

A broken file is logged with every problem the loader names and skipped; it
never stops the server.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .services.engine import rules
from .services.views import build_scenario

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ScenarioEntry:
    scenario: Any
    raw: dict[str, Any]
    path: Path
    _public: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def public(self) -> dict[str, Any]:
        """The scenario as anyone may read it: without the reinforcements it hides (`hidden`)."""
        if not self._public:
            self._public.update(build_scenario(self.scenario, None))
        return self._public

    @property
    def summary(self) -> dict[str, Any]:
        sides = {sid: s.get("name", sid) for sid, s in self.raw.get("sides", {}).items()}
        return {
            "id": self.raw["id"],
            "title": self.raw.get("title", self.raw["id"]),
            "subtitle": self.raw.get("subtitle"),
            "sides": sides,
            "turns": self.raw.get("turns", 0),
            "ruleset": self.ruleset,
            "ruleset_title": _ruleset_title(self.ruleset),
            "options": _game_options(self.ruleset, self.scenario),
            "rulesets": [
                {"ruleset": r, "title": _ruleset_title(r), "options": _game_options(r, self.scenario)}
                for r in self.rulesets
            ],
        }

    @property
    def ruleset(self) -> str:
        """The edition of the rules a game of this scenario is played by (`quickplay`, `standard`)."""
        return str(getattr(self.scenario, "ruleset", None) or self.raw.get("ruleset") or "quickplay")

    @property
    def rulesets(self) -> list[str]:
        """The editions a game of this scenario may be created under: its own first, then each further one it
        declares (`also_rulesets`) that the rules core plays (issue 41)."""
        declared = [self.ruleset, *getattr(self.scenario, "also_rulesets", ())]
        return [r for r in dict.fromkeys(declared) if r == self.ruleset or _playable(r)]


def _game_options(ruleset: str, scenario: Any) -> dict[str, Any]:
    """The options a game of the scenario may be created with (Standard 17.3's free set-up), for the lobby's form."""
    try:
        return dict(rules().find_ruleset(ruleset).game_options(scenario))
    except (AttributeError, ValueError):
        return {}


def _playable(ruleset: str) -> bool:
    try:
        rules().find_ruleset(ruleset)
    except ValueError:
        return False
    return True


def _ruleset_title(ruleset: str) -> str:
    """The edition's own name for the lobby ("Quick Play", "Standard rules")."""
    try:
        return str(rules().find_ruleset(ruleset).title)
    except (AttributeError, ValueError):
        return ruleset


class ScenarioRegistry:
    def __init__(self, entries: dict[str, ScenarioEntry] | None = None) -> None:
        self._entries = dict(entries or {})
        self.problems: dict[str, str] = {}

    def get(self, scenario_id: str) -> ScenarioEntry | None:
        return self._entries.get(scenario_id)

    def add(self, entry: ScenarioEntry) -> None:
        """Offer a loaded scenario under its id (the loader refuses a second file with the same id)."""
        self._entries[entry.scenario.id] = entry

    def ids(self) -> list[str]:
        return list(self._entries)

    def entries(self) -> list[ScenarioEntry]:
        return [self._entries[k] for k in sorted(self._entries)]

    def __len__(self) -> int:
        return len(self._entries)


_cache: dict[tuple[str, tuple[tuple[str, int, int], ...]], ScenarioRegistry] = {}


def scenario_files(directory: Path) -> list[Path]:
    """The scenario files of a directory: its own *.json, then each edition folder's (scenarios/standard/*.json)."""
    if not directory.is_dir():
        return []
    return sorted(directory.glob("*.json")) + sorted(directory.glob("*/*.json"))


def _fingerprint(directory: Path) -> tuple[tuple[str, int, int], ...]:
    out = []
    for path in scenario_files(directory):
        stat = path.stat()
        out.append((str(path.relative_to(directory)), stat.st_mtime_ns, stat.st_size))
    return tuple(out)


def load_scenarios(directory: Path) -> ScenarioRegistry:
    """Load (or reuse, if no file changed since) the registry of a scenarios directory."""
    key = (str(directory.resolve()), _fingerprint(directory))
    cached = _cache.get(key)
    if cached is None:
        cached = _cache[key] = _load(directory)
    return cached


def _load(directory: Path) -> ScenarioRegistry:
    parse_scenario = rules().parse_scenario
    ScenarioError = rules().ScenarioError
    registry = ScenarioRegistry()
    if not directory.is_dir():
        log.warning("scenario directory %s does not exist; no scenarios loaded", directory)
        return registry
    for path in scenario_files(directory):
        name = str(path.relative_to(directory))
        try:
            raw = json.loads(path.read_text("utf-8"))
            scenario = parse_scenario(raw, str(path))
        except ScenarioError as exc:
            registry.problems[name] = str(exc)
            log.error("skipping scenario %s:\n%s", path, exc)
            continue
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            registry.problems[name] = str(exc)
            log.error("skipping scenario %s: %s", path, exc)
            continue
        except Exception as exc:  # a loader bug must not take the server down
            registry.problems[name] = repr(exc)
            log.exception("skipping scenario %s: unexpected error", path)
            continue
        if registry.get(scenario.id) is not None:
            registry.problems[name] = f"duplicate scenario id '{scenario.id}'"
            log.error("skipping scenario %s: id '%s' already loaded", path, scenario.id)
            continue
        registry.add(ScenarioEntry(scenario, raw, path))
    log.info("loaded %d scenario(s) from %s", len(registry), directory)
    return registry
