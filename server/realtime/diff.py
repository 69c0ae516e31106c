"""RFC 6902 patches between two views, made for the shape our views have.

Views are nested objects whose lists are small (prompt options, paths). The
`jsonpatch` library's `make_patch` matches list items to produce minimal list
edits, which costs milliseconds per viewer per command; here a changed list is
replaced whole, which keeps patches valid RFC 6902 (and `jsonpatch.apply_patch`
reproduces the new view exactly, as the property test checks) at a fraction of
the cost. Applying patches, in tests and the client, stays with proper
implementations.
"""

from __future__ import annotations

from itertools import compress
from operator import is_not
from typing import Any

import orjson


def _same_json(old: Any, new: Any) -> bool:
    try:
        return orjson.dumps(old) == orjson.dumps(new)
    except TypeError:  # not JSON (not from a view): walk it
        return False


def _escape(key: str) -> str:
    if "~" not in key and "/" not in key:  # nearly every key: no copy
        return key
    return key.replace("~", "~0").replace("/", "~1")


def make_patch(old: Any, new: Any) -> list[dict[str, Any]]:
    ops: list[dict[str, Any]] = []
    _diff(old, new, "", ops)
    return ops


_MISSING = object()


def _same_children(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether every child of `new` is the very object `old` holds under the same key."""
    if len(old) != len(new):
        return False
    get = old.get
    for key, value in new.items():
        if get(key, _MISSING) is not value:
            return False
    return True


def _diff(old: Any, new: Any, path: str, ops: list[dict[str, Any]]) -> None:
    if old is new:  # the same object (a unit the views share from one command to the next)
        return
    if type(old) is type(new) and isinstance(old, dict):
        # Most of a view is unchanged by one command: comparing a whole unchanged subtree in C is
        # far cheaper than walking it key by key. Python's == takes True for 1, JSON does not, so
        # an equal subtree is confirmed by its JSON text before it is skipped, unless every child is
        # the very same object.
        if old == new and (_same_children(old, new) or _same_json(old, new)):
            return
        keys = list(new)
        if len(old) == len(keys) and list(old) == keys:
            # The same keys in the same order (nearly always: a view's fields, its units): only a child
            # that is not the very same object can have changed, and those are found in C, without a
            # Python step per unit (issue 16: the walk over every unit was most of a patch's cost).
            for key in compress(keys, map(is_not, old.values(), new.values())):
                _diff(old[key], new[key], f"{path}/{_escape(key)}", ops)
            return
        for key, value in old.items():
            if key not in new:
                ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        for key, value in new.items():
            if key not in old:
                ops.append({"op": "add", "path": f"{path}/{_escape(key)}", "value": value})
            else:
                previous = old[key]
                if previous is not value:
                    _diff(previous, value, f"{path}/{_escape(key)}", ops)
        return
    # bool is a subclass of int: compare types too, so True -> 1 is still a change
    if type(old) is type(new) and old == new:
        return
    ops.append({"op": "replace", "path": path, "value": new})
