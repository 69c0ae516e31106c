"""JSON on the service's hot paths (database columns, websocket messages, view copies) through
orjson, several times faster than the standard library, with the standard library's shapes:
non-string keys become strings and tuples lists. A value orjson declines (an integer beyond
64 bits, say) falls back to the standard library, so no input is refused here that was accepted
before."""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any, *, sort_keys: bool = False) -> str:
    try:
        return orjson.dumps(value, option=_OPTIONS | orjson.OPT_SORT_KEYS if sort_keys else _OPTIONS).decode()
    except TypeError:
        if sort_keys:
            return json.dumps(value, sort_keys=True, separators=(",", ":"))
        return json.dumps(value, separators=(",", ":"))


def loads(text: str | bytes) -> Any:
    return orjson.loads(text)


def plain(value: Any) -> Any:
    """A deep, JSON-shaped copy (tuples become lists), detached from engine objects."""
    try:
        return orjson.loads(orjson.dumps(value, option=_OPTIONS))
    except TypeError:
        return json.loads(json.dumps(value))
