"""Request and response bodies (Pydantic), kept apart from the ORM models."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

USERNAME_PATTERN = r"^[A-Za-z0-9_.-]{3,32}$"
# Deliberately loose: one @, something on both sides, a dot in the domain.
EMAIL_PATTERN = r"^[^@\s]{1,64}@[^@\s]+\.[^@\s]+$"


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class UserCreate(StrictModel):
    username: str = Field(pattern=USERNAME_PATTERN, description="3-32 letters, digits, _ . -")
    password: str = Field(min_length=8, max_length=256)
    email: str = Field(max_length=254, pattern=EMAIL_PATTERN)


class UserPublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    username: str
    email: str
    is_admin: bool
    created_at: datetime


class LoginRequest(StrictModel):
    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=256)


class SessionPublic(BaseModel):
    token: str = Field(description="The same token as the cookie, for Authorization: Bearer")
    user: UserPublic


class ScenarioSummary(BaseModel):
    id: str
    title: str
    subtitle: str | None = None
    sides: dict[str, str]
    turns: int


class GameCreate(StrictModel):
    scenario: str = Field(min_length=1, max_length=64)
    side: str = Field(default="random", min_length=1, max_length=32)
    visibility: Literal["private", "open"] = "private"
    decision_hours: int | None = Field(
        default=None, ge=1, le=24 * 30,
        description="Time per decision in hours (asynchronous play); none = no deadline",
    )
    opponent: Literal["person", "computer"] = Field(
        default="person", description="`computer`: the computer takes the other seat at once (issue 15)",
    )
    computer_level: Literal["random", "greedy", "search"] = Field(
        default="greedy", description="How the computer plays: random legal moves, greedy, or searching ahead",
    )
    options: dict[str, bool] = Field(
        default_factory=dict, max_length=8,
        description="The game's options, each one the scenario offers (its listing's `options`), e.g. "
                    "{\"free_setup\": true} (Standard 17.3); kept with the game and in its record",
    )
    ruleset: str | None = Field(
        default=None, min_length=1, max_length=32,
        description="The edition of the rules to play, one of the scenario's listed `rulesets` (e.g. "
                    "`quickplay-2013`); none: the scenario's own `ruleset`",
    )
    rated: bool | None = Field(
        default=None,
        description="Whether the result moves both players' Glicko-2 ratings in the game's edition; default "
                    "true between two people. A game against the computer is never rated (false whatever is sent)",
    )


DICE_CONTRIBUTION_PATTERN = r"^[0-9a-f]{64}$"
DICE_CONTRIBUTION_DOC = ("This seat's own random contribution to the dice: 64 lowercase hex digits (32 random bytes), "
                         "chosen after seeing the game's seed_hash (docs/dice.md). Optional for API clients: a seat "
                         "that sends none contributes \"\" and relies on the server's seed alone.")


class JoinRequest(StrictModel):
    invite_token: str | None = Field(default=None, max_length=64)
    contribution: str | None = Field(default=None, pattern=DICE_CONTRIBUTION_PATTERN, description=DICE_CONTRIBUTION_DOC)


class ContributionRequest(StrictModel):
    contribution: str = Field(pattern=DICE_CONTRIBUTION_PATTERN, description=DICE_CONTRIBUTION_DOC)


class ContributionAccepted(BaseModel):
    game: str
    side: str
    contribution: str
    seed_hash: str = Field(description="The server's commitment this contribution was made against")


class CommandRequest(StrictModel):
    command: dict[str, Any]
    # Strictly a JSON integer: true, "3" or 3.0 are refused, not coerced.
    expected_version: StrictInt = Field(ge=0)
    command_id: str | None = Field(default=None, min_length=1, max_length=100)


class UndoRequest(StrictModel):
    expected_version: StrictInt = Field(ge=0)
    command_id: str | None = Field(default=None, min_length=1, max_length=100)


class SeatInfo(BaseModel):
    side: str
    username: str | None


class GameSummary(BaseModel):
    id: str
    scenario: str
    title: str
    visibility: str
    status: str
    version: int
    seats: dict[str, str | None]
    side_names: dict[str, str] = Field(default_factory=dict, description="Each side's name in this game's scenario")
    your_side: str | None = None
    awaiting: str | None = None
    awaiting_user: str | None = None
    awaiting_since: datetime | None = None
    your_turn: bool = False
    result: dict[str, Any] | None = None
    created_at: datetime
    updated_at: datetime
    invite_token: str | None = Field(default=None, description="Only for the game's players")
    watch_token: str | None = Field(default=None, description="Only for the game's players")
    ruleset: str | None = Field(default=None, description="The rules edition the game is played under")
    decision_hours: int | None = Field(default=None, description="Time per decision in hours (lists only; None: no limit)")
    rated: bool = Field(default=False, description="Whether the result moves the players' ratings (issue 44)")
    ratings: dict[str, int | None] = Field(
        default_factory=dict,
        description="Each seated player's rating in the game's edition (lists only; None: not yet rated)",
    )


class GameCreated(GameSummary):
    invite_url: str
    watch_url: str


class GameList(BaseModel):
    mine: list[GameSummary]
    open: list[GameSummary]
    live: list[GameSummary] = Field(default_factory=list, description="Open games in progress, to watch")
    finished: list[GameSummary] = Field(default_factory=list, description="Open games that are over, to replay")


class CommandAccepted(BaseModel):
    status: Literal["applied"] = "applied"
    command_id: str
    seq: int
    version: int
    events: list[dict[str, Any]]


class GameDetail(BaseModel):
    game: GameSummary
    viewer: str
    version: int
    view: dict[str, Any]


class FieldProblem(BaseModel):
    field: str = Field(description='Where, e.g. "body.expected_version"')
    problem: str


class ErrorBody(BaseModel):
    """Every 4xx/5xx answer. Some errors add data: `version` (409), `rule` (422 of the rules core),
    `limit` (413), `retry_after` (429)..."""

    model_config = ConfigDict(extra="allow", title="Error")

    error: str = Field(description="A stable code, e.g. stale_version")
    message: str = Field(description="A plain sentence for people")
    fields: list[FieldProblem] | None = Field(default=None, description="The invalid fields (422 invalid_request)")
