"""The OpenAPI document says what the API really answers: every error status a route can give, each
with the one error body `{error, message, fields?, ...}` (schemas.ErrorBody).

Most statuses follow from what a route is: every request can be refused for a NUL byte (400), a
body can be too large (413), a logged-in route answers 401, an admin route 403, a route about a
game (or scenario) 404, a state-changing one 403 for a cross-site request. The rest, which depend on
what the route does (409 conflicts, 429 limits, 503 when notifications are off), are listed in
`ROUTE_ERRORS`; tests/server/test_schemathesis.py holds the document to the server's answers.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute

from ..schemas import ErrorBody
from .deps import get_admin, get_current_player, get_current_user

ERROR_REF = {"$ref": "#/components/schemas/Error"}

DESCRIPTIONS = {
    400: "bad_input: a NUL byte (\\u0000) in the path, query, a header or the body",
    401: "not_authenticated (no or unknown token) or bad_credentials",
    403: "forbidden, not_a_player, admin_only, record_not_available, cross_site_request (a state-changing "
    "request with the session cookie from another site)",
    404: "not_found: unknown id, or a private game the caller may not see",
    409: "a conflict with the game's state (stale_version and others carry the current `version`)",
    413: "body_too_large (+ limit)",
    422: "invalid_request (+ fields), or a refusal of the rules core (+ rule)",
    429: "too many attempts or games (+ retry_after, and the Retry-After header)",
    503: "notifications_unavailable: the notification runtime is not running",
}

_NOTIFY = (503,)
ROUTE_ERRORS: dict[tuple[str, str], tuple[int, ...]] = {
    ("POST", "/api/users"): (409, 429),
    ("POST", "/api/session"): (401, 429),
    ("POST", "/api/games"): (429,),
    ("POST", "/api/games/{game_id}/join"): (403, 409),
    ("GET", "/api/games/{game_id}/options"): (403,),
    ("GET", "/api/games/{game_id}/preview"): (403,),
    ("POST", "/api/games/{game_id}/commands"): (403, 409),
    ("POST", "/api/games/{game_id}/undo"): (403, 409),
    ("POST", "/api/games/{game_id}/resign"): (403, 409, 422),
    ("GET", "/api/games/{game_id}/history"): (422,),
    ("GET", "/api/games/{game_id}/record"): (403,),
    ("GET", "/api/games/{game_id}/clock"): _NOTIFY,
    ("POST", "/api/games/{game_id}/claim"): (403, 409, *_NOTIFY),
    ("POST", "/api/games/{game_id}/extend"): (403, 409, *_NOTIFY),
    ("POST", "/api/games/{game_id}/pause"): (403, 409, 422, *_NOTIFY),
    ("POST", "/api/games/{game_id}/pause/accept"): (403, 409, *_NOTIFY),
    ("POST", "/api/games/{game_id}/pause/decline"): (403, 409, *_NOTIFY),
    ("POST", "/api/games/{game_id}/resume"): (403, 409, *_NOTIFY),
    ("GET", "/api/games/{game_id}/standing-orders"): (403,),
    ("PUT", "/api/games/{game_id}/standing-orders"): (403, 422, *_NOTIFY),
    ("GET", "/api/me/notifications"): _NOTIFY,
    ("PUT", "/api/me/notifications"): _NOTIFY,
    ("GET", "/api/notifications/unsubscribe"): (404, *_NOTIFY),
    ("POST", "/api/notifications/unsubscribe"): (404, *_NOTIFY),
    ("GET", "/api/me/awaiting"): _NOTIFY,
    ("POST", "/api/games/{game_id}/messages"): (429,),
    ("PUT", "/api/games/{game_id}/mute"): (403,),
    ("GET", "/api/games/{game_id}/note"): (403,),
    ("PUT", "/api/games/{game_id}/note"): (403,),
}


def _depends_on(dependant: Any, target: Any) -> bool:
    stack = [dependant]
    while stack:
        node = stack.pop()
        if getattr(node, "call", None) is target:
            return True
        stack.extend(getattr(node, "dependencies", ()))
    return False


def route_errors(route: APIRoute, method: str) -> set[int]:
    codes = {400}
    if _depends_on(route.dependant, get_current_user) or _depends_on(route.dependant, get_current_player):
        codes.add(401)
    if _depends_on(route.dependant, get_admin):
        codes.add(403)
    if "{" in route.path_format:
        codes.add(404)
    if method not in ("GET", "HEAD"):
        codes.update((403, 413))
        if "{game_id}" in route.path_format:
            codes.update((409, 422))  # any action on a game can meet a game in another state
    codes.update(ROUTE_ERRORS.get((method, route.path_format), ()))
    return codes


def _api_routes(routes: Any) -> Any:
    """Every APIRoute, also those inside included routers (FastAPI keeps those as wrappers)."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from _api_routes(inner.routes)


def allowed_methods(app: FastAPI, path: str) -> list[str]:
    """Every method some route serves at `path` (for a 405's Allow header: Starlette lists only
    the first matching route's, and GET and POST of one path are separate routes here)."""
    methods: set[str] = set()
    for route in _api_routes(app.routes):
        if route.path_regex.match(path):
            methods.update(route.methods)
    return sorted(methods)


# Routes that answer people in a browser with HTML (and scripts with JSON, by Accept).
HTML_ROUTES = frozenset({("GET", "/api/notifications/unsubscribe"), ("POST", "/api/notifications/unsubscribe")})
HTML_CONTENT = {"text/html": {"schema": {"type": "string"}}}


def document_errors(app: FastAPI, schema: dict[str, Any]) -> dict[str, Any]:
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    error_schema = ErrorBody.model_json_schema(ref_template="#/components/schemas/{model}")
    for name, sub in error_schema.pop("$defs", {}).items():
        components[name] = sub
    components["Error"] = error_schema
    for route in _api_routes(app.routes):
        if not route.include_in_schema:
            continue
        for method in route.methods:
            operation = schema.get("paths", {}).get(route.path_format, {}).get(method.lower())
            if operation is None:
                continue
            responses = operation.setdefault("responses", {})
            codes = route_errors(route, method)
            if "422" in responses or operation.get("parameters") or operation.get("requestBody"):
                codes.add(422)
            for code in sorted(codes):
                responses[str(code)] = {
                    "description": DESCRIPTIONS[code],
                    "content": {"application/json": {"schema": ERROR_REF}},
                }
            if (method, route.path_format) in HTML_ROUTES:
                for code in ("200", "404"):
                    responses[code].setdefault("content", {}).update(HTML_CONTENT)
    # FastAPI's own validation-error shape is never sent (server/main.py answers invalid_request).
    for unused in ("HTTPValidationError", "ValidationError"):
        components.pop(unused, None)
    return schema


def install_openapi_errors(app: FastAPI) -> None:
    original = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = document_errors(app, original())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
