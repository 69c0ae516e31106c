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
