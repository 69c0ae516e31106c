"""Issue 5: the shipped battles are valid, generated from their sources, and play cleanly under random play."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from server.rules.kernel.randomplayer import simulate
from server.rules_cli import find_scenario

ROOT = Path(__file__).resolve().parents[2]
HISTORICAL = ("hougoumont", "salem-church")


@pytest.mark.parametrize("path", sorted((ROOT / "scenarios").glob("*.json")), ids=lambda p: p.stem)
def test_every_shipped_scenario_validates(path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "server.cli", "validate-scenario", str(path)],
                            capture_output=True, text=True, cwd=ROOT, check=False)
    assert result.returncode == 0, result.stderr
    assert ": ok (" in result.stdout


def test_the_battle_files_are_exactly_what_their_generator_builds() -> None:
    result = subprocess.run([sys.executable, "scenarios/tools/build_scenarios.py", "--check"],
                            capture_output=True, text=True, cwd=ROOT, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("ident", HISTORICAL)
def test_each_battle_says_it_was_designed_for_vedette_and_briefs_both_sides(ident: str) -> None:
    data = json.loads((ROOT / "scenarios" / f"{ident}.json").read_text())
    assert "designed for vedette" in data["provenance"].lower()
    assert "not taken from" in data["provenance"] or "not from" in data["provenance"]
    for side in data["sides"]:
        assert len(data["briefing"][side]) > 100
    assert 20 <= data["map"]["columns"] <= 30 and 25 <= data["map"]["rows"] <= 35
    assert 30 <= len(data["units"]) <= 50


@pytest.mark.slow
@pytest.mark.parametrize("ident", HISTORICAL)
def test_random_play_of_each_battle_has_no_invariant_violations(ident: str) -> None:
    report = simulate(find_scenario(ident), games=12, seed=4242, check=True)
    assert report.games == 12
    assert report.violations == 0, report.examples[:5]
