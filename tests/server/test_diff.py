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


@given(st.dictionaries(st.text(alphabet="ab", max_size=2), json_values, max_size=5),
       st.dictionaries(st.text(alphabet="ab", max_size=2), json_values, max_size=5), st.data())
@settings(max_examples=300, deadline=None)
def test_children_shared_by_identity_are_skipped_and_the_patch_still_applies(old_units, changed, data):
    """The hub's views share unchanged units between one command's views and the next (the very same
    objects); the differ skips those without comparing them, and the patch still gives the new view."""
    keep = data.draw(st.sets(st.sampled_from(sorted(old_units)) if old_units else st.nothing()))
    new_units = {k: v for k, v in old_units.items() if k in keep} | {k: v for k, v in changed.items() if k not in keep}
    old = {"units": old_units, "turn": 1}
    new = {"units": new_units, "turn": 2}
    patch = make_patch(old, new)
    assert jsonpatch.apply_patch(old, patch) == new
    assert not any(op["path"].startswith(tuple(f"/units/{k}/" for k in keep)) for op in patch)


def test_an_identical_child_is_not_compared_at_all():
    class Exploding(dict):
        def __eq__(self, other):
            raise AssertionError("compared")

        __hash__ = None

    shared = Exploding(hex="0305")
    assert make_patch({"units": {"a": shared, "b": {"hex": "0101"}}},
                      {"units": {"a": shared, "b": {"hex": "0102"}}}) == [
        {"op": "replace", "path": "/units/b/hex", "value": "0102"}]


def test_the_same_keys_in_another_order_are_still_matched_by_key():
    # The differ pairs children by position only when both dicts list the same keys in the same order;
    # here the order differs and one shared small int sits at the other key's position.
    old = {"a": 1, "b": 2, "c": {"hex": "0101"}}
    new = {"b": 1, "a": 1, "c": {"hex": "0102"}}
    patch = make_patch(old, new)
    assert jsonpatch.apply_patch(old, patch) == new
    assert {"op": "replace", "path": "/b", "value": 1} in patch
