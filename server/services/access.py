"""Who is looking at a game: a side's seat, a spectator, or the admin."""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Literal

from ..errors import ApiError, not_found
from ..models import Game, User

Role = Literal["seat", "spectator", "admin"]


@dataclass(frozen=True, slots=True)
class Viewer:
    role: Role
    side: str | None = None
    user_id: int | None = None

    @property
    def engine_viewer(self) -> str:
        """The viewer id the rules core's view()/filter_events() take."""
        if self.role == "seat":
            assert self.side is not None
            return self.side
        return self.role

    @property
    def label(self) -> str:
        return self.engine_viewer


def _token_matches(given: str | None, expected: str) -> bool:
    return bool(given) and hmac.compare_digest(str(given).encode(), expected.encode())


def seat_of(game: Game, user: User | None) -> str | None:
    if user is None:
        return None
    for seat in game.seats:
        if seat.user_id == user.id:
            return seat.side
    return None


def resolve_viewer(
    game: Game,
    user: User | None,
    *,
    watch_token: str | None = None,
    invite_token: str | None = None,
    as_admin: bool = True,
) -> Viewer:
    """The viewer a request acts as; a private game the caller may not see is a 404.

    A seated player always sees their own side's view, even an admin, so an
    admin playing a game gets no peek at the enemy.
    """
    side = seat_of(game, user)
    if side is not None:
        assert user is not None
        return Viewer("seat", side, user.id)
    if user is not None and user.is_admin and as_admin:
        return Viewer("admin", None, user.id)
    uid = user.id if user else None
    if game.visibility == "open":
        return Viewer("spectator", None, uid)
    if _token_matches(watch_token, game.watch_token) or _token_matches(invite_token, game.invite_token):
        return Viewer("spectator", None, uid)
    raise not_found()


def require_seat(game: Game, user: User | None) -> str:
    """The side the user plays in this game, or 403 (spectators and admins only read)."""
    if user is None:
        raise ApiError(401, "not_authenticated", "Log in to play.")
    side = seat_of(game, user)
    if side is None:
        raise ApiError(403, "not_a_player", "Only the game's two players may send commands.")
    return side
