from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ...errors import not_found
from ...schemas import ScenarioSummary
from ..deps import RegistryDep

router = APIRouter(prefix="/api/scenarios", tags=["scenarios"])


@router.get("", response_model=list[ScenarioSummary])
async def list_scenarios(registry: RegistryDep) -> list[dict[str, Any]]:
    return [entry.summary for entry in registry.entries()]


@router.get("/{scenario_id}")
async def get_scenario(scenario_id: str, registry: RegistryDep) -> dict[str, Any]:
    """The full scenario JSON (map, units, TEC) the client draws from."""
    entry = registry.get(scenario_id)
    if entry is None:
        raise not_found("scenario")
    return entry.raw
