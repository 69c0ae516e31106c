"""A player's profile (issue 44): their running and finished games as the viewer may see them, their
wins, losses and draws by edition and by scenario, their rating in each edition and what each rated game
did to it, and how each game ended (played out, resigned, lost on time, a claimed timeout).

A private game is listed only to its two players and to admins (services/access.py: a stranger may not
learn that it exists), and the counts are made of the listed games alone, so they tell a stranger nothing
about private games either.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import defer

from ..errors import ApiError
from ..models import Game, GameSeat, PlayerRating, RatingChange, User
from .ratings import shown

# The most games a profile lists (newest first); the counts are over these.
PROFILE_GAMES = 300


def outcome_of(game: Game, side: str) -> str | None:
    """"win", "loss" or "draw" for the player of `side` in a finished game between two players; None for a
    running game or one called off before anyone joined (nobody played it)."""
    if game.status != "over" or game.result is None or len(game.seats) != 2:
        return None
    winner = game.result.get("winner")
    return "draw" if winner is None else "win" if winner == side else "loss"


def ending_of(game: Game, side: str) -> str | None:
    """How a finished game ended, as the player of `side` tells it: "resigned" / "opponent resigned",
    "lost on time" / "claimed timeout" (services/commands.py `referee`, server/notify/clocks.py `claim`),
    "called off" (nobody joined), or "played out" (the rules decided it)."""
    if game.status != "over" or game.result is None:
        return None
    result = game.result
    if len(game.seats) != 2:
        return "called off"
    if result.get("resigned"):
        return "resigned" if result["resigned"] == side else "opponent resigned"
    if result.get("lost_on_time"):
        return "lost on time" if result["lost_on_time"] == side else "claimed timeout"
    return "played out"


def visible_to(game: Game, viewer: User | None) -> bool:
    """services/access.py `resolve_viewer` without tokens: open games to anyone, private ones to their
    players and admins (a watch link is the game's own page's business, not a profile's)."""
    if game.visibility == "open":
        return True
    return viewer is not None and (viewer.is_admin or any(s.user_id == viewer.id for s in game.seats))


def _tally() -> dict[str, int]:
    return {"win": 0, "loss": 0, "draw": 0}


async def build_profile(session: AsyncSession, username: str, viewer: User | None) -> dict[str, Any]:
    user = await session.scalar(select(User).where(User.username == username.strip().lower()))
    if user is None:
        raise ApiError(404, "unknown_player", f"There is no player named '{username}'.")
    games = [
        g for g in (await session.scalars(
            select(Game)
            .options(defer(Game.snapshot), defer(Game.initial_snapshot))
            .where(Game.id.in_(select(GameSeat.game_id).where(GameSeat.user_id == user.id)),
                   Game.status.in_(("active", "over")))
            .order_by(Game.updated_at.desc())
            .limit(PROFILE_GAMES)
        )).unique().all()
        if visible_to(g, viewer)
    ]
    changes = {c.game_id: c for c in (await session.scalars(
        select(RatingChange).where(RatingChange.user_id == user.id,
                                   RatingChange.game_id.in_([g.id for g in games]))
    )).all()} if games else {}
    ratings = (await session.scalars(
        select(PlayerRating).where(PlayerRating.user_id == user.id).order_by(PlayerRating.ruleset)
    )).all()
    by_edition: dict[str, dict[str, int]] = {}
    by_scenario: dict[str, dict[str, Any]] = {}
    listed = []
    for g in games:
        side = next(s.side for s in g.seats if s.user_id == user.id)
        opponent = next((s.user.username for s in g.seats if s.user_id != user.id), None)
        outcome = outcome_of(g, side)
        if outcome is not None:
            by_edition.setdefault(g.ruleset, _tally())[outcome] += 1
            scenario = by_scenario.setdefault(
                g.scenario_id, {"title": g.scenario_json.get("title", g.scenario_id), **_tally()})
            scenario[outcome] += 1
        change = changes.get(g.id)
        sides = g.scenario_json.get("sides", {}) or {}
        listed.append({
            "id": g.id, "title": g.scenario_json.get("title", g.scenario_id), "scenario": g.scenario_id,
            "ruleset": g.ruleset, "status": g.status, "visibility": g.visibility, "rated": bool(g.rated),
            "side": side, "side_name": str((sides.get(side) or {}).get("name", side)), "opponent": opponent,
            "outcome": outcome, "ending": ending_of(g, side),
            "reason": g.result.get("reason") if g.result else None,
            "rating_change": None if change is None else {
                "before": round(change.rating_before, 1), "after": round(change.rating_after, 1),
                "delta": round(change.rating_after - change.rating_before, 1),
            },
            "updated_at": g.updated_at,
            "links": {"game": f"/games/{g.id}", "replay": f"/games/{g.id}", "record": f"/api/games/{g.id}/record"},
        })
    return {
        "username": user.username,
        "since": user.created_at,
        "ratings": [
            {"ruleset": r.ruleset, "rating": shown(r.rating), "rd": round(r.rd), "games": r.games} for r in ratings
        ],
        "record": {
            "by_edition": by_edition,
            "by_scenario": by_scenario,
            "total": {k: sum(t[k] for t in by_edition.values()) for k in _tally()},
        },
        "running": [g for g in listed if g["status"] == "active"],
        "finished": [g for g in listed if g["status"] == "over"],
    }


__all__ = ["PROFILE_GAMES", "build_profile", "ending_of", "outcome_of", "visible_to"]
