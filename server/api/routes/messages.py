"""The players' table of one game (issue 44): its messages (the seats' channel and the spectators'), a
player's mute of the opponent's messages, and each player's private note. Who reads which channel:
services/messages.py and docs/rulings.md "Messages in a game". A message is never a command: it is stored and
shown as plain text, and nothing here reads it for anything else."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from ...errors import ApiError
from ...services.access import require_seat, resolve_viewer
from ..deps import (
    CurrentPlayer,
    HubDep,
    InviteToken,
    OptionalPlayer,
    SessionDep,
    StoreDep,
    TableDep,
    WatchToken,
    commands_first,
)

router = APIRouter(prefix="/api/games", tags=["messages"], dependencies=[Depends(commands_first)])


class MessageRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # The length is checked by the service (its own message names the limit); this only bounds the body, within
    # the request guard's 64 KiB however the characters are escaped (12 bytes for a JSON surrogate pair).
    text: str = Field(max_length=2000, description="Plain text, one line, at most 500 characters")


class MuteRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    muted: StrictBool  # true or false, not 0 or "yes"


class NoteRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=5000, description="Plain text, at most 4000 characters")


@router.get("/{game_id}/messages")
async def read_messages(
    game_id: str,
    user: OptionalPlayer,
    session: SessionDep,
    store: StoreDep,
    table: TableDep,
    at: Annotated[int | None, Query(ge=0, description="Only the messages said up to this version")] = None,
    watch: WatchToken = None,
    invite: InviteToken = None,
) -> dict[str, Any]:
    """The messages you may read: a seat its own channel, a spectator the spectators', both once the game is
    over (the admin both always); a muted opponent's left out."""
    row = await store.get_row(session, game_id, light=True)
    viewer = resolve_viewer(row, user, watch_token=watch, invite_token=invite)
    if at is not None and at > row.version:  # as the history's `at`: and no database meets a number past its integers
        raise ApiError(422, "bad_version", f"The game is only at version {row.version}.", field="at",
                       version=row.version)
    return await table.listing(session, row, viewer, upto=at)


@router.post("/{game_id}/messages", status_code=201)
async def post_message(
    game_id: str,
    body: MessageRequest,
    user: CurrentPlayer,
    session: SessionDep,
    store: StoreDep,
    table: TableDep,
    hub: HubDep,
    watch: WatchToken = None,
    invite: InviteToken = None,
) -> dict[str, Any]:
    """Say something: a seat in the seats' channel, a logged-in spectator in the spectators'. 422 for an empty or
    too long message or a control character, 429 past 5 messages in 10 seconds."""
    row = await store.get_row(session, game_id, light=True)
    viewer = resolve_viewer(row, user, watch_token=watch, invite_token=invite)
    message = await table.post(session, row, viewer, user, body.text)
    await hub.publish_chat(game_id, message["channel"], row.status == "over")
    return message


@router.put("/{game_id}/mute")
async def mute(
    game_id: str, body: MuteRequest, user: CurrentPlayer, session: SessionDep, store: StoreDep, table: TableDep,
) -> dict[str, Any]:
    """Mute (or hear again) your opponent's messages in this game: muted ones are neither shown nor mailed to you."""
    row = await store.get_row(session, game_id, light=True)
    resolve_viewer(row, user)
    require_seat(row, user)
    return {"muted": await table.set_muted(session, game_id, user.id, body.muted)}


@router.get("/{game_id}/note")
async def read_note(
    game_id: str, user: CurrentPlayer, session: SessionDep, store: StoreDep, table: TableDep,
) -> dict[str, Any]:
    """Your private note on this game (a player's only): nobody else ever reads it, not even the admin."""
    row = await store.get_row(session, game_id, light=True)
    resolve_viewer(row, user)
    _note_holder(row, user)
    return await table.note(session, game_id, user.id)


@router.put("/{game_id}/note")
async def write_note(
    game_id: str, body: NoteRequest, user: CurrentPlayer, session: SessionDep, store: StoreDep, table: TableDep,
) -> dict[str, Any]:
    row = await store.get_row(session, game_id, light=True)
    resolve_viewer(row, user)
    _note_holder(row, user)
    return await table.set_note(session, game_id, user.id, body.text)


def _note_holder(row: Any, user: Any) -> None:
    try:
        require_seat(row, user)
    except ApiError:
        raise ApiError(403, "not_a_player", "Only the game's two players keep notes on it.") from None
