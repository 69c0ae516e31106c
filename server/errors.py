"""One error shape for every 4xx/5xx answer: {"error": code, "message": text, ...extra}."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    # Positional-only: an error may carry any extra key, even "status" or "message" of its own.
    def __init__(self, status: int, error: str, message: str, /, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.error = error
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": self.error, "message": self.message, **self.extra}


def not_found(what: str = "game") -> ApiError:
    # Private games the caller may not see answer exactly like missing ones.
    return ApiError(404, "not_found", f"No such {what}.")


def forbidden(message: str) -> ApiError:
    return ApiError(403, "forbidden", message)


def unauthorized(message: str = "Log in first (session cookie or Authorization: Bearer token).") -> ApiError:
    return ApiError(401, "not_authenticated", message)


class Overloaded(ApiError):
    """503 with Retry-After: the database's pool had no connection free in time (issue 38). Nothing of the
    request was applied, so retrying it (a command by its same command id) is safe."""

    def __init__(self, why: str = "the database is busy", retry_after: int = 1) -> None:
        super().__init__(503, "overloaded", f"The server is busy ({why}); try again in a moment.",
                         retry_after=retry_after)
