"""The view differ makes valid RFC 6902 patches: the jsonpatch library applies them to give the new view."""

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

from server.realtime.diff import make_patch

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(alphabet="ab/~", max_size=3),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(alphabet="ab/~", max_size=3), children, max_size=4),
    max_leaves=20,
)


@given(json_values, json_values)
@settings(max_examples=400, deadline=None)
def test_patch_applied_by_jsonpatch_turns_old_into_new(old, new):
    patch = make_patch(old, new)
    assert jsonpatch.apply_patch(old, patch) == new


def test_equal_views_give_an_empty_patch_and_changes_are_targeted():
    old = {"units": {"b-1": {"hex": "0305", "disrupted": False}}, "turn": 1, "prompt": {"options": [1, 2]}}
    new = {"units": {"b-1": {"hex": "0405", "disrupted": False}}, "turn": 1, "prompt": {"options": [1, 2]}}
    assert make_patch(old, old) == []
    assert make_patch(old, new) == [{"op": "replace", "path": "/units/b-1/hex", "value": "0405"}]


def test_a_bool_replacing_an_int_is_a_change():
    assert make_patch({"a": 1}, {"a": True}) == [{"op": "replace", "path": "/a", "value": True}]
