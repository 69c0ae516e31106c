from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from ...errors import not_found
from ...schemas import ScenarioSummary
from ...services.access import resolve_viewer
from ...services.views import build_scenario
from ..deps import InviteToken, OptionalUser, RegistryDep, SessionDep, StoreDep, WatchToken

router = APIRouter(prefix="/api/scenarios", tags=["scenarios"])


class EditionChoice(BaseModel):
    """One edition of the rules a game of the scenario may be created under (`GameCreate.ruleset`)."""

    ruleset: str = Field(description="the edition's ruleset id, e.g. `quickplay`, `quickplay-2013`, `standard`")
    title: str = Field(description="the edition's name, for the lobby")
    options: dict[str, dict[str, Any]] = Field(default_factory=dict, description="the options a game of it under "
                                               "this edition may be created with (as `options` above)")


class ScenarioListing(ScenarioSummary):
    """A scenario in the lobby's list, with the edition of the rules its games are played by."""

    ruleset: str = Field(default="quickplay", description="the edition's ruleset id: `quickplay` or `standard`")
    ruleset_title: str = Field(default="Quick Play (revised)", description="the edition's name, for the lobby")
    learning: bool = Field(default=False, description="a learning battle, made to teach its edition's rules (the "
                           "scenario `tutorial`, or any whose id ends in `-tutorial`); the lobby lists these first")
    options: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="the options a game of it may be created with (`GameCreate.options`): "
        "name -> {label, rule, text}; e.g. `free_setup` (Standard 17.3)")
    rulesets: list[EditionChoice] = Field(
        default_factory=list, description="every edition a game of it may be created under, its own `ruleset` "
        "first, then each further one the scenario declares (`also_rulesets`): the lobby's edition select")


@router.get("", response_model=list[ScenarioListing])
async def list_scenarios(registry: RegistryDep) -> list[dict[str, Any]]:
    """Every scenario the service offers: scenarios/*.json (Quick Play) and scenarios/standard/*.json (the
    Standard rules), each naming its edition (`ruleset`, `ruleset_title`) and whether it is a learning battle."""
    return [{**entry.summary, "learning": is_learning_battle(entry.summary["id"])} for entry in registry.entries()]


def is_learning_battle(scenario_id: str) -> bool:
    """The learning battles go by their ids: Quick Play's `tutorial` and each edition's `<edition>-tutorial`
    (docs/scenarios.md)."""
    return scenario_id == "tutorial" or scenario_id.endswith("-tutorial")


@router.get("/{scenario_id}")
async def get_scenario(
    scenario_id: str,
    registry: RegistryDep,
    user: OptionalUser,
    session: SessionDep,
    store: StoreDep,
    game: Annotated[str | None, Query(max_length=32, description="A game of this scenario: the scenario as "
                                      "its viewer may read it (a seat also gets its own hidden reinforcements)")] = None,
    watch: WatchToken = None,
    invite: InviteToken = None,
) -> dict[str, Any]:
    """The scenario JSON (map, units, TEC) the client draws from, without what the scenario hides
    (`hidden.enemy_reinforcements`: the reinforcements' units and schedule). With `game`, the
    scenario as that game's viewer may read it: a seat gets its own side's reinforcements."""
    if game is None:
        entry = registry.get(scenario_id)
        if entry is None:
            raise not_found("scenario")
        return entry.public
    loaded = await store.load(session, game)
    if loaded.row.scenario_id != scenario_id:
        raise not_found("scenario")
    viewer = resolve_viewer(loaded.row, user, watch_token=watch, invite_token=invite)
    return build_scenario(loaded.scenario, viewer)
