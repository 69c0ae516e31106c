from __future__ import annotations

import secrets
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Depends, Query, Request
from sqlalchemy.ext.asyncio import AsyncSession

from ...errors import ApiError
from ...models import Game, User
from ...notify.clocks import decision_hours_of
from ...schemas import (
    CommandAccepted,
    CommandRequest,
    ContributionAccepted,
    ContributionRequest,
    GameCreate,
    GameCreated,
    GameDetail,
    GameList,
    GameSummary,
    JoinRequest,
    UndoRequest,
)
from ...services import accounts
from ...services.access import Viewer, require_seat, resolve_viewer
from ...services.commands import CommandService
from ...services.engine import rules
from ...services.ratings import RATING_BOUND_MAX, creator_rating, ratings_of, shown
from ...services.store import GameStore, LoadedGame
from ...services.views import (
    build_log_entries,
    build_options,
    build_preview,
    build_record,
    build_summary,
    build_view,
)
from ..deps import (
    CommandsDep,
    CurrentPlayer,
    HubDep,
    InviteToken,
    LobbyDep,
    OptionalPlayer,
    SessionDep,
    SettingsDep,
    SpectatorsDep,
    StoreDep,
    TableDep,
    WatchToken,
    commands_first,
)

# Every game route lets the commands in flight finish first (services/priority.py).
router = APIRouter(prefix="/api/games", tags=["games"], dependencies=[Depends(commands_first)])


def _links(base_url: str | None, row: Game) -> dict[str, str]:
    """The share links: absolute under VEDETTE_BASE_URL, else relative to the site (never built
    from the request's Host header, which the client chooses)."""
    base = (base_url or "").rstrip("/")
    return {
        "invite_url": f"{base}/games/{row.id}?invite={row.invite_token}",
        "watch_url": f"{base}/games/{row.id}?watch={row.watch_token}",
    }


@router.post("", status_code=201, response_model=GameCreated)
async def create_game(
    body: GameCreate,
    request: Request,
    user: CurrentPlayer,
    session: SessionDep,
    lobby: LobbyDep,
    settings: SettingsDep,
) -> dict[str, Any]:
    """Create a game and take a seat ("random" picks one); share the invite link. 429 past the
    account's quotas (VEDETTE_MAX_WAITING_GAMES waiting games, VEDETTE_GAMES_PER_HOUR new ones)."""
    async def quota(write: AsyncSession) -> None:
        await accounts.check_game_quota(write, settings, user)

    row = await lobby.create_game(
        session, user, body.scenario, body.side, body.visibility, decision_hours=body.decision_hours,
        options=body.options, quota=quota, ruleset=body.ruleset,
        # Rated by default between two people; never against the computer, whose play is not a player's.
        rated=body.opponent == "person" and body.rated is not False,
    )
    if body.opponent == "computer":
        runner = request.app.state.bots
        # The computer's seat brings its own dice contribution, like any joiner (docs/dice.md).
        row = await lobby.join_game(session, runner.user(body.computer_level), row.id, row.invite_token,
                                      contribution=secrets.token_hex(32))
        runner.poke(row.id)
    return {**build_summary(row, user.id), **_links(settings.base_url, row)}


@router.get("", response_model=GameList)
async def list_games(
    user: OptionalPlayer, session: SessionDep, lobby: LobbyDep,
    min_rating: Annotated[int | None, Query(
        ge=0, le=RATING_BOUND_MAX,
        description="Open games whose creator's rating in the game's edition is at least this (a player with no "
                    "rated game there counts as 1500, where Glicko-2 starts)")] = None,
    max_rating: Annotated[int | None, Query(
        ge=0, le=RATING_BOUND_MAX, description="Open games whose creator's rating is at most this")] = None,
) -> dict[str, Any]:
    """Your games (whose decision is awaited, since when, results), open games to join (with the time per
    decision a joiner commits to and the ruleset), and open games in progress or finished, to watch or replay.
    Each game names its players' ratings in its edition; `min_rating`/`max_rating` narrow the open games."""
    if min_rating is not None and max_rating is not None and min_rating > max_rating:
        raise ApiError(422, "bad_rating_range", f"min_rating ({min_rating}) is above max_rating ({max_rating}).",
                       field="min_rating")
    mine, open_games = await lobby.list_games(session, user)
    live = await lobby.watchable_games(session, "active")
    finished = await lobby.watchable_games(session, "over")
    uid = user.id if user else None
    hours = await decision_hours_of(session, sorted({g.id for g in [*mine, *open_games, *live]}))
    games = [*mine, *open_games, *live, *finished]
    rating = await ratings_of(session, [(seat.user_id, g.ruleset) for g in games for seat in g.seats])

    def seat_ratings(g: Game) -> dict[str, int | None]:
        return {seat.side: shown(rating.get((seat.user_id, g.ruleset))) for seat in g.seats}

    def summary(g: Game) -> dict[str, Any]:
        return {**build_summary(g, uid), "decision_hours": hours.get(g.id), "ratings": seat_ratings(g)}

    if min_rating is not None or max_rating is not None:
        low, high = min_rating or 0, RATING_BOUND_MAX if max_rating is None else max_rating
        open_games = [g for g in open_games if low <= creator_rating(g, rating) <= high]

    return {
        "mine": [summary(g) for g in mine],
        "open": [summary(g) for g in open_games],
        "live": [summary(g) for g in live],
        "finished": [summary(g) for g in finished],
    }


@router.post("/{game_id}/join", response_model=GameSummary)
async def join_game(
    game_id: str,
    user: CurrentPlayer,
    session: SessionDep,
    lobby: LobbyDep,
    hub: HubDep,
    body: JoinRequest | None = None,
) -> dict[str, Any]:
    """Take the free seat: with the invite token for a private game, without for an open one."""
    row = await lobby.join_game(
        session, user, game_id, body.invite_token if body else None, body.contribution if body else None
    )
    await hub.publish(row.id, row.version)
    return build_summary(row, user.id)


@router.post("/{game_id}/contribution", response_model=ContributionAccepted)
async def contribute(
    game_id: str,
    body: ContributionRequest,
    user: CurrentPlayer,
    session: SessionDep,
    lobby: LobbyDep,
    store: StoreDep,
    hub: HubDep,
) -> dict[str, Any]:
    """The creator's own random contribution to the dice, sent after seeing the game's seed_hash and
    before the second player joins (the joiner sends its own with the join). See docs/dice.md."""
    answer = await lobby.contribute(session, user, game_id, body.contribution)
    row = await store.get_row(session, game_id, light=True)
    await hub.publish(row.id, row.version)
    return answer


async def _viewer_state(
    session: Any, store: GameStore, game_id: str, user: User | None, watch: str | None, invite: str | None
) -> tuple[LoadedGame, Viewer]:
    loaded = await store.load(session, game_id)
    viewer = resolve_viewer(loaded.row, user, watch_token=watch, invite_token=invite)
    return loaded, viewer


@router.get("/{game_id}", response_model=GameDetail)
async def get_game(
    game_id: str,
    user: OptionalPlayer,
    session: SessionDep,
    store: StoreDep,
    spectators: SpectatorsDep,
    watch: WatchToken = None,
    invite: InviteToken = None,
) -> dict[str, Any]:
    """The game as the caller may see it: their side's view, the spectator view, or the admin's."""
    loaded, viewer = await _viewer_state(session, store, game_id, user, watch, invite)
    watching = await spectators.spectator_count(session, game_id)
    return {
        "game": build_summary(loaded.row, user.id if user else None),
        "viewer": viewer.label,
        "version": loaded.row.version,
        "view": build_view(loaded.row, loaded.engine, viewer, spectators=watching),
    }


@router.get("/{game_id}/options")
async def get_options(
    game_id: str,
    user: CurrentPlayer,
    session: SessionDep,
    store: StoreDep,
    units: Annotated[str, Query(max_length=2000, description="Comma-separated unit ids")] = "",
) -> dict[str, Any]:
    """Legal options (reachable hexes, targets...) for some of your own units now."""
    loaded = await store.load(session, game_id)
    resolve_viewer(loaded.row, user)  # private games stay invisible to strangers
    side = require_seat(loaded.row, user)
    unit_ids = [u for u in (p.strip() for p in units.split(",")) if u]
    try:
        return build_options(loaded.engine, Viewer("seat", side, user.id), unit_ids, loaded.row.version)
    except ApiError:
        raise
    except Exception as exc:  # noqa: BLE001 whatever the unit list does to the engine, the answer is a 422 naming it
        if isinstance(exc, rules().IllegalCommand):
            raise ApiError(422, "illegal_command", exc.message, rule=exc.rule) from None
        raise ApiError(422, "bad_units", f"Cannot list options for {unit_ids}.") from None


@router.get("/{game_id}/preview")
async def get_preview(
    game_id: str,
    user: CurrentPlayer,
    session: SessionDep,
    store: StoreDep,
    command: Annotated[str, Query(max_length=4000, description="An attack or bombard command as JSON")],
) -> dict[str, Any]:
    """Judge one exact attack or bombardment of yours without making it: its odds, or the rule that
    refuses it (the page's attack builder). Nothing changes."""
    loaded = await store.load(session, game_id)
    resolve_viewer(loaded.row, user)  # private games stay invisible to strangers
    side = require_seat(loaded.row, user)
    try:
        parsed = orjson.loads(command)
    except orjson.JSONDecodeError:
        raise ApiError(422, "malformed_command", "'command' must be a JSON object.") from None
    try:
        return build_preview(loaded.engine, Viewer("seat", side, user.id), parsed, loaded.row.version)
    except ApiError:
        raise
    except Exception as exc:  # noqa: BLE001 a command the engine cannot preview is the caller's 422, never a 500
        if isinstance(exc, rules().IllegalCommand):
            raise ApiError(422, "illegal_command", exc.message, rule=exc.rule) from None
        raise ApiError(422, "malformed_command", "That command cannot be previewed.") from None


@router.post("/{game_id}/commands", response_model=CommandAccepted)
async def post_command(
    game_id: str,
    body: CommandRequest,
    user: CurrentPlayer,
    session: SessionDep,
    commands: CommandsDep,
    store: StoreDep,
    hub: HubDep,
) -> dict[str, Any]:
    """Submit a command; the rules core judges it. 422 illegal, 409 stale version."""
    await _visible(session, commands, store, game_id, user)
    answer, applied = await commands.submit(
        session, game_id, user, body.command, body.expected_version, body.command_id
    )
    if applied:
        await hub.publish(game_id, answer["version"])
    return answer


@router.post("/{game_id}/undo", response_model=CommandAccepted)
async def post_undo(
    game_id: str,
    body: UndoRequest,
    user: CurrentPlayer,
    session: SessionDep,
    commands: CommandsDep,
    store: StoreDep,
    hub: HubDep,
) -> dict[str, Any]:
    """Take back your last decision where the rules allow it (logged like a command)."""
    await _visible(session, commands, store, game_id, user)
    answer, applied = await commands.submit(
        session, game_id, user, {"type": "undo"}, body.expected_version, body.command_id, undo=True
    )
    if applied:
        await hub.publish(game_id, answer["version"])
    return answer


@router.post("/{game_id}/resign", response_model=GameSummary)
async def resign(
    game_id: str, user: CurrentPlayer, session: SessionDep, commands: CommandsDep, store: StoreDep, hub: HubDep
) -> dict[str, Any]:
    await _visible(session, commands, store, game_id, user)
    row = await commands.resign(session, game_id, user)
    await hub.publish(row.id, row.version)
    return build_summary(row, user.id)


async def _visible(session: Any, commands: CommandService, store: GameStore, game_id: str, user: User) -> None:
    """A private game the caller cannot see is a 404 before anything else is said about it
    (answered from the live game when this process serves it: a command reads nothing first)."""
    if commands.visible_live(game_id, user):
        return
    row = await store.get_row(session, game_id, light=True)
    resolve_viewer(row, user)


@router.get("/{game_id}/history")
async def history(
    game_id: str,
    user: OptionalPlayer,
    session: SessionDep,
    store: StoreDep,
    table: TableDep,
    at: Annotated[int | None, Query(ge=0, description="Version to rebuild")] = None,
    watch: WatchToken = None,
    invite: InviteToken = None,
) -> dict[str, Any]:
    """The log filtered for you; with `at=N`, also your view as it was at version N and the messages you may
    read that were said up to then (the replay shows each message at the point it was said)."""
    row = await store.get_row(session, game_id)
    viewer = resolve_viewer(row, user, watch_token=watch, invite_token=invite)
    if at is not None and at > row.version:
        raise ApiError(
            422, "bad_version", f"The game is only at version {row.version}.",
            field="at", version=row.version,
        )
    upto = row.version if at is None else at
    rows = await store.log_rows(session, game_id, upto=upto)
    scenario = store.scenario_of(row)
    body: dict[str, Any] = {
        "version": upto,
        "current_version": row.version,
        "log": build_log_entries(row, rows, viewer, scenario),
    }
    if at is not None:
        engine_game = store.replay(row, rows)
        body["view"] = build_view(row, engine_game, viewer, spectators=0, version=at)
        body["messages"] = (await table.listing(session, row, viewer, upto=at))["messages"]
    return body


@router.get("/{game_id}/record")
async def record(
    game_id: str,
    user: OptionalPlayer,
    session: SessionDep,
    store: StoreDep,
    table: TableDep,
    watch: WatchToken = None,
    invite: InviteToken = None,
) -> dict[str, Any]:
    """The game record `vedette replay FILE` verifies (the seed only once the game is over), with the messages
    of both channels, each at the version it was said (`vedette replay` reads none of them)."""
    loaded, viewer = await _viewer_state(session, store, game_id, user, watch, invite)
    record = build_record(loaded.row, await store.engine_with_log(session, loaded.row), viewer)
    record["messages"] = await table.record_messages(session, game_id)
    return record
