"""Issue 13 (shape): the ruleset registry picks the edition package by the scenario's `ruleset`; only
playable editions are registered (`horse-and-musket`, `musket-and-pike`, `quickplay`, `quickplay-2013`, `standard`), so an edition still
being built cannot be chosen, and a game is played under another edition only where its scenario declares it
(`also_rulesets`)."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules import (
    Edition,
    Game,
    QuickPlay,
    Standard,
    find_ruleset,
    known_rulesets,
    parse_scenario,
)
from server.rules.horse_and_musket import HorseAndMusket
from server.rules.kernel.edition import register


def test_only_playable_editions_are_known() -> None:
    assert known_rulesets() == ("horse-and-musket", "musket-and-pike", "quickplay", "quickplay-2013", "standard")
    assert isinstance(find_ruleset("quickplay"), QuickPlay)
    assert isinstance(find_ruleset("standard"), Standard)
    assert isinstance(find_ruleset("horse-and-musket"), HorseAndMusket)
    assert find_ruleset("musket-and-pike").die_faces == 10  # R17.1


@pytest.mark.parametrize("name", ["chess", ""])
def test_an_unbuilt_edition_cannot_be_chosen(name: str) -> None:
    with pytest.raises(ValueError, match="not implemented yet"):
        find_ruleset(name)


def test_game_uses_the_edition_named_by_the_scenario(tutorial_data: dict[str, Any]) -> None:
    game = Game.new(parse_scenario(tutorial_data, "tutorial"), "x" * 32)
    assert isinstance(game.ruleset, QuickPlay)
    assert game.view("spectator")["ruleset"] == "quickplay"
    with pytest.raises(ValueError, match="not written for ruleset 'standard'"):
        Game.new(parse_scenario(tutorial_data, "tutorial"), "x" * 32, ruleset="standard")
    with pytest.raises(ValueError, match="not written for ruleset 'horse-and-musket'"):
        Game.new(parse_scenario(tutorial_data, "tutorial"), "x" * 32, ruleset="horse-and-musket")
    with pytest.raises(ValueError, match="not written for ruleset 'musket-and-pike'"):
        Game.new(parse_scenario(tutorial_data, "tutorial"), "x" * 32, ruleset="musket-and-pike")
    with pytest.raises(ValueError, match="not implemented yet"):
        Game.new(parse_scenario(tutorial_data, "tutorial"), "x" * 32, ruleset="chess")


def test_an_edition_registers_once_and_needs_an_id() -> None:
    class Nameless(Edition):
        pass

    with pytest.raises(ValueError, match="ruleset id"):
        register(Nameless)

    class Impostor(Edition):
        name = "quickplay"

    with pytest.raises(ValueError, match="registered twice"):
        register(Impostor)
    assert isinstance(find_ruleset("quickplay"), QuickPlay)


def test_an_edition_hook_left_out_refuses_loudly() -> None:
    """The base class supplies no rules: an edition that forgets a hook fails, it never plays Quick Play."""
    with pytest.raises(NotImplementedError):
        Edition().crt_result(0, 3)


def test_parse_scenario_reads_with_the_editions_reader(tutorial_data: dict[str, Any]) -> None:
    from server.rules import ScenarioError

    assert parse_scenario(tutorial_data, "tutorial").ruleset == "quickplay"
    assert parse_scenario({**tutorial_data, "ruleset": "quickplay-2013"}, "t").ruleset == "quickplay-2013"
    for name in ("chess",):
        with pytest.raises(ScenarioError) as e:
            parse_scenario({**tutorial_data, "ruleset": name}, "t")
        assert e.value.problems == [("ruleset", (f"ruleset '{name}' is not implemented yet (available: "
                                                 "horse-and-musket, musket-and-pike, quickplay, quickplay-2013, standard)"))]
    with pytest.raises(ScenarioError) as e:  # the Standard reader refuses Quick Play's fields, naming them
        parse_scenario({**tutorial_data, "ruleset": "standard"}, "t")
    assert any("Quick Play scenario field" in r for _, r in e.value.problems)
    with pytest.raises(ScenarioError) as e:
        parse_scenario({k: v for k, v in tutorial_data.items() if k != "ruleset"}, "t")
    assert any("'ruleset' is a required property" in r for _, r in e.value.problems)
