"""The single gate for game state leaving the server.

Everything a client receives about a game (snapshots, patches, log entries,
history, the record, command answers) is built here from the rules core's own
per-viewer view and event filter. The snapshot stored in the database (with
the secret seed) never passes through anything else on its way out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..errors import ApiError
from ..models import Game, GameCommand
from .access import Viewer
from .engine import rules


@dataclass(frozen=True, slots=True)
class GameMeta:
    """What the views need of a game's row besides the engine state, detached from the database:
    the committing process builds one from the values it wrote, so its own viewers are served
    without reading the row back."""

    id: str
    version: int
    status: str
    visibility: str
    awaiting_since: datetime | None
    result: dict[str, Any] | None
    ruleset: str  # the edition the game is played under (its row's, migration 0008)
    seat_names: tuple[tuple[str, str], ...]  # (side, username) of every taken seat
    seat_ids: tuple[tuple[str, int], ...] = ()  # (side, user id) of every taken seat
    rated: bool = False  # the creator's choice: its end moves the players' ratings (migration 0010)

    @classmethod
    def of(cls, game_row: Game) -> GameMeta:
        return cls(
            id=game_row.id,
            version=game_row.version,
            status=game_row.status,
            visibility=game_row.visibility,
            awaiting_since=game_row.awaiting_since,
            result=game_row.result,
            ruleset=game_row.ruleset,
            seat_names=tuple((seat.side, seat.user.username) for seat in game_row.seats),
            seat_ids=tuple((seat.side, seat.user_id) for seat in game_row.seats),
            rated=bool(game_row.rated),
        )


def seat_names(game_row: Game | GameMeta, sides: list[str] | None = None) -> dict[str, str | None]:
    if isinstance(game_row, GameMeta):
        names: dict[str, str | None] = {side: None for side in sides or ()}
        names.update(game_row.seat_names)
        return names
    if sides is None:
        sides = list(game_row.scenario_json.get("sides", {}).keys())
    names = {side: None for side in sides}
    for seat in game_row.seats:
        names[seat.side] = seat.user.username
    return names


def build_view(
    game_row: Game | GameMeta,
    engine_game: Any,
    viewer: Viewer,
    *,
    spectators: int,
    version: int | None = None,
    share_units: bool = False,
) -> dict[str, Any]:
    """What `viewer` may see of the game at `version` (default: the row's current version)."""
    return build_views(game_row, engine_game, [viewer], spectators=spectators, version=version,
                       share_units=share_units)[0]


def build_views(
    game_row: Game | GameMeta,
    engine_game: Any,
    viewers: list[Viewer],
    *,
    spectators: int,
    version: int | None = None,
    share_units: bool = False,
) -> list[dict[str, Any]]:
    """`build_view` for several viewers at once (the rules core shares their common parts;
    `share_units`: the units that look the same to all are shared, read-only objects, see
    `rules.kernel.views.build_views`)."""
    cores = engine_game.views([v.engine_viewer for v in viewers], share_units=share_units)
    return [
        _dress(dict(core), game_row, engine_game, viewer, spectators, version)
        for core, viewer in zip(cores, viewers, strict=True)
    ]


def _dress(
    view: dict[str, Any], game_row: Game | GameMeta, engine_game: Any, viewer: Viewer, spectators: int,
    version: int | None,
) -> dict[str, Any]:
    at_version = game_row.version if version is None else version
    view["version"] = at_version
    view["seats"] = seat_names(game_row, list(engine_game.scenario.side_order))
    view["spectators"] = spectators
    view["game"] = {
        "id": game_row.id,
        "status": game_row.status if version is None else _status_at(game_row, engine_game),
        "visibility": game_row.visibility,
        "you": viewer.side if viewer.role == "seat" else viewer.role,
        "awaiting_since": (
            game_row.awaiting_since.isoformat()
            if game_row.awaiting_since and version is None
            else None
        ),
        "result": game_row.result if version is None else getattr(engine_game, "result", None),
    }
    return view


def _status_at(game_row: Game | GameMeta, engine_game: Any) -> str:
    if engine_game.is_over:
        return "over"
    return "active" if game_row.status != "waiting" else "waiting"


def _game_over(game_row: Game | GameMeta) -> bool:
    return game_row.status == "over"


def build_log_entries(
    game_row: Game | GameMeta, rows: Iterable[GameCommand], viewer: Viewer, scenario: Any
) -> list[dict[str, Any]]:
    """Log entries for `viewer`: events through the rules' filter; the command itself only
    for the side that gave it and the admin (its details may name hidden units)."""
    over = _game_over(game_row)
    filter_events = rules().filter_events
    # The edition names the commands that are a side's secret (a set-up placement, a hidden box's filling): to the
    # other side even their type is hidden (19.8, 17.2), so the log does not show that one was given.
    # The game's edition, which may be another than the scenario's own (`also_rulesets`, issue 41).
    edition = rules().find_ruleset(game_row.ruleset)
    out = []
    for row in rows:
        entry: dict[str, Any] = {
            "seq": row.seq,
            "side": row.side,
            "created_at": row.created_at.isoformat() if row.created_at else None,
            "events": filter_events(list(row.events), viewer.engine_viewer),
        }
        if over or viewer.role == "admin" or viewer.side == row.side:
            entry["command"] = row.command
        elif _secret_to(edition, scenario, row.side, row.command, viewer):
            entry["command"] = {"type": "secret"}
        else:
            entry["command"] = {"type": row.command.get("type")}
        out.append(entry)
    return out


def _secret_to(edition: Any, scenario: Any, side: str, command: dict[str, Any], viewer: Viewer) -> bool:
    """Whether `command` of `side` is a secret `viewer` may not read (the edition's `secret_command`)."""
    secret = edition.secret_command(scenario, side, command)
    return secret is not None and secret[1] is not None and secret[1] != viewer.side


def build_command_answer(row: GameCommand, viewer: Viewer, scenario: Any) -> dict[str, Any]:
    """The answer to an accepted command; a repeated command_id gets exactly this again."""
    return {
        "status": "applied",
        "command_id": row.command_id,
        "seq": row.seq,
        "version": row.seq,
        "events": rules().filter_events(list(row.events), viewer.engine_viewer),
    }


def build_record(game_row: Game, engine_game: Any, viewer: Viewer) -> dict[str, Any]:
    """The game record (for `vedette replay`). While the game runs it lists both sides'
    commands, so only the admin gets it then; once over anyone who may view the game."""
    if not _game_over(game_row) and viewer.role != "admin":
        raise ApiError(
            403,
            "record_not_available",
            "The game record is published once the game is over.",
        )
    record = dict(engine_game.record())
    if not engine_game.is_over:
        # An admin's look at a running game: the rules core already leaves the seed out.
        record.pop("seed", None)
    return record


def build_summary(game_row: Game, viewer_user_id: int | None) -> dict[str, Any]:
    """Lobby row: no game state beyond whose turn it is and the result."""
    seats = seat_names(game_row)
    your_side = None
    for seat in game_row.seats:
        if viewer_user_id is not None and seat.user_id == viewer_user_id:
            your_side = seat.side
    awaiting_user = None
    for seat in game_row.seats:
        if seat.side == game_row.awaiting_side:
            awaiting_user = seat.user.username
    return {
        "id": game_row.id,
        "scenario": game_row.scenario_id,
        "title": game_row.scenario_json.get("title", game_row.scenario_id),
        "visibility": game_row.visibility,
        "status": game_row.status,
        "version": game_row.version,
        "seats": seats,
        "side_names": {
            side: str((spec or {}).get("name", side))
            for side, spec in (game_row.scenario_json.get("sides", {}) or {}).items()
        },
        "your_side": your_side,
        "awaiting": game_row.awaiting_side if game_row.status == "active" else None,
        "awaiting_user": awaiting_user if game_row.status == "active" else None,
        "awaiting_since": game_row.awaiting_since if game_row.status == "active" else None,
        "your_turn": bool(
            your_side and game_row.status == "active" and game_row.awaiting_side == your_side
        ),
        "result": game_row.result,
        "created_at": game_row.created_at,
        "updated_at": game_row.updated_at,
        # Tokens are for the players to pass on; nobody else gets them.
        "invite_token": game_row.invite_token if your_side else None,
        "watch_token": game_row.watch_token if your_side else None,
        "ruleset": game_row.ruleset,
        "rated": bool(game_row.rated),
    }


def build_scenario(scenario: Any, viewer: Viewer | None) -> dict[str, Any]:
    """The scenario JSON as `viewer` may read it (None: anyone): hidden reinforcements left out."""
    return dict(rules().scenario_json_for(scenario, viewer.engine_viewer if viewer else "spectator"))


def build_options(engine_game: Any, viewer: Viewer, units: list[str], version: int) -> dict[str, Any]:
    """Legal options for the viewer's own units (seats only; the rules core checks ownership)."""
    assert viewer.role == "seat" and viewer.side is not None
    return {"version": version, "options": engine_game.options(viewer.side, units)}


def build_preview(engine_game: Any, viewer: Viewer, command: Any, version: int) -> dict[str, Any]:
    """The odds of one exact attack or bombardment of the viewer's own (seats only), or its refusal."""
    assert viewer.role == "seat" and viewer.side is not None
    return {"version": version, "preview": engine_game.preview(viewer.side, command)}
