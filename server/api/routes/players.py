"""Player profiles (issue 44): a player's games, record and ratings, as the caller may see them."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path

from ...services.profiles import build_profile
from ..deps import OptionalPlayer, SessionDep, commands_first

# Like the lobby, a profile lets the commands in flight finish first (services/priority.py).
router = APIRouter(prefix="/api/players", tags=["players"], dependencies=[Depends(commands_first)])


@router.get("/{username}")
async def get_player(
    username: Annotated[str, Path(min_length=1, max_length=32)], user: OptionalPlayer, session: SessionDep,
) -> dict[str, Any]:
    """The player's running and finished games (open ones to anyone; private ones only to their players and
    admins), wins/losses/draws by edition and by scenario over those games, the rating in each edition, and
    for each finished rated game its change of the rating; how each game ended (`ending`: "played out",
    "resigned", "opponent resigned", "lost on time", "claimed timeout", "called off") and links to its page
    (to replay it) and its record. 404 `unknown_player` for a name nobody has."""
    return await build_profile(session, username, user)
