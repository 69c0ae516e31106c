"""Hex geometry (R1): Red Blob known answers, CCRR ids, grid tables, properties."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.kernel.hexes import (
    DIRECTION_NAMES,
    HEX_DIAGONALS,
    HEX_DIRECTIONS,
    LOS_EPSILON,
    FractionalHex,
    Hex,
    HexGrid,
    OffsetCoord,
    hex_lerp,
    hex_linedraw,
    hexside_key,
)

SHIFTS = ("even", "odd")
NUDGES = (0.0, LOS_EPSILON, -LOS_EPSILON)


def fh(h: Hex) -> FractionalHex:
    return FractionalHex.from_hex(h)


# --- Red Blob Games' known-answer tests, ported -------------------------------------------


def test_r1_redblob_hex_arithmetic() -> None:
    assert Hex(1, -3, 2) + Hex(3, -7, 4) == Hex(4, -10, 6)
    assert Hex(1, -3, 2) - Hex(3, -7, 4) == Hex(-2, 4, -2)
    assert Hex(1, -3, 2).scale(2) == Hex(2, -6, 4)


def test_r1_redblob_hex_direction() -> None:
    assert HEX_DIRECTIONS[2] == Hex(0, -1, 1)
    assert len(HEX_DIRECTIONS) == 6 == len(set(HEX_DIRECTIONS)) == len(DIRECTION_NAMES)


def test_r1_redblob_hex_neighbor() -> None:
    assert Hex(1, -2, 1).neighbor(2) == Hex(1, -3, 2)
    assert Hex(1, -2, 1).neighbors() == tuple(Hex(1, -2, 1) + d for d in HEX_DIRECTIONS)


def test_r1_redblob_hex_diagonal() -> None:
    assert Hex(1, -2, 1).diagonal_neighbor(3) == Hex(-1, -1, 2)
    assert all(d.length() == 2 for d in HEX_DIAGONALS)


def test_r1_redblob_hex_distance() -> None:
    assert Hex(3, -7, 4).distance(Hex(0, 0, 0)) == 7
    assert Hex(3, -7, 4).length() == 7


def test_r1_redblob_hex_round() -> None:
    a, b, c = fh(Hex(0, 0, 0)), fh(Hex(1, -1, 0)), fh(Hex(0, -1, 1))
    assert hex_lerp(fh(Hex(0, 0, 0)), fh(Hex(10, -20, 10)), 0.5).round() == Hex(5, -10, 5)
    assert hex_lerp(a, b, 0.499).round() == a.round()
    assert hex_lerp(a, b, 0.501).round() == b.round()
    assert a.lerp(b, 0.501).round() == b.round()
    assert (
        FractionalHex(
            a.q * 0.4 + b.q * 0.3 + c.q * 0.3,
            a.r * 0.4 + b.r * 0.3 + c.r * 0.3,
            a.s * 0.4 + b.s * 0.3 + c.s * 0.3,
        ).round()
        == a.round()
    )
    assert (
        FractionalHex(
            a.q * 0.3 + b.q * 0.3 + c.q * 0.4,
            a.r * 0.3 + b.r * 0.3 + c.r * 0.4,
            a.s * 0.3 + b.s * 0.3 + c.s * 0.4,
        ).round()
        == c.round()
    )


@pytest.mark.parametrize("nudge", NUDGES)
def test_r1_redblob_hex_linedraw(nudge: float) -> None:
    assert hex_linedraw(Hex(0, 0, 0), Hex(1, -5, 4), nudge) == [
        Hex(0, 0, 0),
        Hex(0, -1, 1),
        Hex(0, -2, 2),
        Hex(1, -3, 2),
        Hex(1, -4, 3),
        Hex(1, -5, 4),
    ]


def test_r1_redblob_offset_from_cube() -> None:
    # Red Blob's 0-based EVEN/ODD q-offset answers, moved to 1-based CCRR
    # numbers: their odd-q is our shifted="even" and their even-q our "odd".
    assert OffsetCoord.from_hex(Hex(1, 2, -3), "odd") == OffsetCoord(2, 4)
    assert OffsetCoord.from_hex(Hex(1, 2, -3), "even") == OffsetCoord(2, 3)


def test_r1_redblob_offset_to_cube() -> None:
    assert OffsetCoord(2, 4).to_hex("odd") == Hex(1, 2, -3)
    assert OffsetCoord(2, 3).to_hex("even") == Hex(1, 2, -3)


@pytest.mark.parametrize("shifted", SHIFTS)
def test_r1_redblob_offset_roundtrip(shifted: str) -> None:
    a = Hex(3, 4, -7)
    b = OffsetCoord(1, -3)
    assert OffsetCoord.from_hex(a, shifted).to_hex(shifted) == a
    assert OffsetCoord.from_hex(b.to_hex(shifted), shifted) == b


# --- Value types ---------------------------------------------------------------------------


def test_r1_hex_rejects_coordinates_off_the_plane() -> None:
    with pytest.raises(ValueError):
        Hex(1, 1, 1)
    with pytest.raises(ValueError):
        FractionalHex(0.5, 0.5, 0.5)


def test_r1_hexes_are_frozen_hashable_values() -> None:
    h = Hex(1, -1, 0)
    with pytest.raises(AttributeError):
        h.q = 2  # type: ignore[misc]
    assert {h, Hex(1, -1, 0)} == {h}
    assert not hasattr(h, "__dict__")


def test_r1_direction_names_match_flat_top_layout() -> None:
    # r grows down a column, so (0, 1, -1) is due south of the same column.
    assert dict(zip(DIRECTION_NAMES, HEX_DIRECTIONS)) == {
        "SE": Hex(1, 0, -1),
        "NE": Hex(1, -1, 0),
        "N": Hex(0, -1, 1),
        "NW": Hex(-1, 0, 1),
        "SW": Hex(-1, 1, 0),
        "S": Hex(0, 1, -1),
    }


# --- CCRR ids ------------------------------------------------------------------------------


@pytest.mark.parametrize("shifted", SHIFTS)
def test_r1_ccrr_round_trip_every_hex_of_40x30(shifted: str) -> None:
    seen: set[Hex] = set()
    for col in range(1, 41):
        for row in range(1, 31):
            ccrr = f"{col:02d}{row:02d}"
            h = Hex.from_ccrr(ccrr, shifted)
            assert h.ccrr(shifted) == ccrr
            assert OffsetCoord.from_ccrr(ccrr) == OffsetCoord(col, row)
            assert OffsetCoord(col, row).ccrr() == ccrr
            seen.add(h)
    assert len(seen) == 1200


@pytest.mark.parametrize("shifted", SHIFTS)
def test_r1_0101_is_the_cube_origin(shifted: str) -> None:
    assert Hex.from_ccrr("0101", shifted) == Hex(0, 0, 0)


def test_r1_default_shift_is_even() -> None:
    assert Hex.from_ccrr("0202") == Hex.from_ccrr("0202", "even")
    assert Hex(1, 1, -2).ccrr() == "0202"
    assert OffsetCoord(2, 2).to_hex() == Hex(1, 1, -2)
    assert HexGrid(5, 5).shifted == "even"


@pytest.mark.parametrize(
    "bad", ["12", "ab01", "0000", "0100", "0001", "01010", " 101", "+101", "０１０１", ""]
)
def test_r1_malformed_ids_raise(bad: str) -> None:
    with pytest.raises(ValueError, match="bad hex id"):
        Hex.from_ccrr(bad)
    with pytest.raises(ValueError, match="bad hex id"):
        OffsetCoord.from_ccrr(bad)


def test_r1_malformed_id_message_quotes_the_id() -> None:
    with pytest.raises(ValueError) as err:
        Hex.from_ccrr("ab01")
    assert str(err.value) == "bad hex id 'ab01'"


def test_r1_hexes_outside_01_99_have_no_ccrr() -> None:
    with pytest.raises(ValueError):
        Hex(-1, 0, 1).ccrr()
    with pytest.raises(ValueError):
        OffsetCoord(100, 1).ccrr()
    assert OffsetCoord(99, 99).ccrr() == "9999"


def test_r1_bad_shift_raises() -> None:
    with pytest.raises(ValueError):
        Hex.from_ccrr("0101", "left")
    with pytest.raises(ValueError):
        Hex(0, 0, 0).ccrr("ODD")
    with pytest.raises(ValueError):
        HexGrid(10, 10, "both")


# --- Hand-worked neighbours and distances --------------------------------------------------


@pytest.fixture(scope="module")
def even() -> HexGrid:
    return HexGrid(40, 30, "even")


@pytest.fixture(scope="module")
def odd() -> HexGrid:
    return HexGrid(40, 30, "odd")


def test_r1_even_shift_neighbours_of_0202(even: HexGrid) -> None:
    # Column 02 sits lower, so it touches rows 2 and 3 of columns 01 and 03.
    assert set(even.neighbors("0202")) == {"0201", "0203", "0102", "0103", "0302", "0303"}


def test_r1_even_shift_neighbours_of_0302(even: HexGrid) -> None:
    assert set(even.neighbors("0302")) == {"0301", "0303", "0201", "0202", "0401", "0402"}


def test_r1_odd_shift_neighbours_of_0302(odd: HexGrid) -> None:
    # Column 03 sits lower under shifted="odd".
    assert set(odd.neighbors("0302")) == {"0301", "0303", "0202", "0203", "0402", "0403"}


def test_r1_odd_shift_neighbours_of_0202(odd: HexGrid) -> None:
    assert set(odd.neighbors("0202")) == {"0201", "0203", "0101", "0102", "0301", "0302"}


def test_r1_corner_neighbours_depend_on_shift(even: HexGrid, odd: HexGrid) -> None:
    assert set(even.neighbors("0101")) == {"0102", "0201"}
    assert set(odd.neighbors("0101")) == {"0102", "0201", "0202"}
    # Column 40 is even: lower under "even", so it reaches one row further down column 39.
    assert set(even.neighbors("4030")) == {"4029", "3930"}
    assert set(odd.neighbors("4030")) == {"4029", "3930", "3929"}


def test_r1_neighbours_follow_direction_order(even: HexGrid) -> None:
    # 0302 is in a column that is not lowered: SE, NE, N, NW, SW, S.
    assert even.neighbors("0302") == ("0402", "0401", "0301", "0201", "0202", "0303")


@pytest.mark.parametrize(
    ("shifted", "a", "b", "expected"),
    [
        ("even", "0101", "0303", 3),
        ("even", "0101", "0301", 2),
        ("even", "0101", "0202", 2),
        ("even", "0102", "0201", 1),
        ("even", "0101", "0130", 29),
        ("even", "0101", "4001", 39),
        # 39 steps east with alternate steps dropping a row reach 4020, then 10 more south.
        ("even", "0101", "4030", 49),
        ("odd", "0101", "0303", 3),
        ("odd", "0102", "0201", 2),
        ("odd", "0102", "0203", 1),
        # Under "odd" the first step east already drops a row: 20 drops, 4021, then 9 south.
        ("odd", "0101", "4030", 48),
        ("odd", "0130", "4001", 49),
    ],
)
def test_r1_hand_checked_distances(shifted: str, a: str, b: str, expected: int) -> None:
    grid = HexGrid(40, 30, shifted)
    assert grid.distance(a, b) == expected
    assert Hex.from_ccrr(a, shifted).distance(Hex.from_ccrr(b, shifted)) == expected


def test_r1_range_is_cube_distance_counting_target_not_firer(even: HexGrid) -> None:
    # 8.3: an adjacent target is at range 1; the firer's own hex is range 0.
    assert even.distance("0505", "0506") == 1
    assert even.distance("0505", "0505") == 0
    assert even.distance("0505", "0510") == 5


# --- HexGrid tables ------------------------------------------------------------------------


def test_r1_grid_rejects_bad_sizes() -> None:
    for cols, rows in ((0, 10), (10, 0), (100, 10), (10, 100)):
        with pytest.raises(ValueError):
            HexGrid(cols, rows)
    assert len(HexGrid(99, 99).all_hexes()) == 99 * 99


def test_r1_grid_membership(even: HexGrid) -> None:
    assert "0101" in even and "4030" in even
    assert "4031" not in even and "4101" not in even and "0000" not in even
    assert "zz" not in even and 101 not in even and [] not in even


def test_r1_all_hexes_column_major(even: HexGrid) -> None:
    ids = even.all_hexes()
    assert len(ids) == 1200 == len(set(ids))
    assert ids[:3] == ("0101", "0102", "0103")
    assert ids[29:31] == ("0130", "0201")
    assert ids[-1] == "4030"


@pytest.mark.parametrize("shifted", SHIFTS)
def test_r1_grid_neighbour_table_matches_cube_math(shifted: str) -> None:
    grid = HexGrid(40, 30, shifted)
    offsets = {OffsetCoord(c, r) for c in range(1, 41) for r in range(1, 31)}
    for hid in grid.all_hexes():
        around = [OffsetCoord.from_hex(n, shifted) for n in grid.cube(hid).neighbors()]
        expected = tuple(o.ccrr() for o in around if o in offsets)
        assert grid.neighbors(hid) == expected
        for n in expected:
            assert hid in grid.neighbors(n)
            assert grid.is_adjacent(hid, n)
        # Interior hexes have all six.
        if not grid.is_edge(hid):
            assert len(expected) == 6


def test_r1_grid_cube_and_id_of(even: HexGrid) -> None:
    assert even.cube("0202") == Hex(1, 1, -2)
    assert even.id_of(Hex(1, 1, -2)) == "0202"
    assert even.id_of(Hex(-1, 0, 1)) is None


def test_r1_unknown_ids_raise_value_error(even: HexGrid) -> None:
    for call in (
        lambda: even.neighbors("4101"),
        lambda: even.distance("0101", "4101"),
        lambda: even.distance("4101", "0101"),
        lambda: even.cube("0000"),
        lambda: even.is_edge("0131"),
        lambda: even.within("9999", 1),
        lambda: even.line("0101", "4101", LOS_EPSILON),
    ):
        with pytest.raises(ValueError, match="not on this 40x30 map"):
            call()


def test_r1_is_adjacent(even: HexGrid) -> None:
    assert even.is_adjacent("0202", "0103")
    assert not even.is_adjacent("0202", "0101")
    assert not even.is_adjacent("0202", "0202")


def test_r1_is_edge(even: HexGrid) -> None:
    assert even.is_edge("0101") and even.is_edge("0115") and even.is_edge("4015")
    assert even.is_edge("2001") and even.is_edge("2030")
    assert not even.is_edge("0202") and not even.is_edge("3929")
    assert sum(even.is_edge(h) for h in even.all_hexes()) == 2 * 40 + 2 * 30 - 4


def test_r1_edges_in_order_along_the_edge() -> None:
    grid = HexGrid(4, 3)
    assert grid.edge("north") == ("0101", "0201", "0301", "0401")
    assert grid.edge("south") == ("0103", "0203", "0303", "0403")
    assert grid.edge("west") == ("0101", "0102", "0103")
    assert grid.edge("east") == ("0401", "0402", "0403")
    with pytest.raises(ValueError):
        grid.edge("up")


def test_r1_edges_cover_exactly_the_edge_hexes(even: HexGrid) -> None:
    on_edges = {h for name in ("north", "south", "west", "east") for h in even.edge(name)}
    assert on_edges == {h for h in even.all_hexes() if even.is_edge(h)}


def test_r1_within(even: HexGrid) -> None:
    assert even.within("0505", 0) == ("0505",)
    assert set(even.within("0202", 1)) == {"0202", *even.neighbors("0202")}
    assert len(even.within("1010", 2)) == 19
    assert len(even.within("1010", 3)) == 37
    assert set(even.within("0101", 1)) == {"0101", "0102", "0201"}
    with pytest.raises(ValueError):
        even.within("0101", -1)


def test_r1_within_is_column_major_and_matches_distance(even: HexGrid) -> None:
    got = even.within("0303", 4)
    assert list(got) == sorted(got)
    assert set(got) == {h for h in even.all_hexes() if even.distance("0303", h) <= 4}


def test_r1_hexside_key_is_unordered() -> None:
    assert hexside_key("0202", "0103") == ("0103", "0202") == hexside_key("0103", "0202")
    with pytest.raises(ValueError):
        hexside_key("0101", "0101")


def test_r1_grid_line_in_ids(even: HexGrid) -> None:
    assert even.line("0505", "0508", LOS_EPSILON) == ["0505", "0506", "0507", "0508"]
    assert even.line("0505", "0505", -LOS_EPSILON) == ["0505"]


# --- Property tests ------------------------------------------------------------------------

coord = st.integers(min_value=-60, max_value=60)


@st.composite
def hexes(draw: st.DrawFn) -> Hex:
    q = draw(coord)
    r = draw(coord)
    return Hex(q, r, -q - r)


GRID_40x30 = {s: HexGrid(40, 30, s) for s in SHIFTS}
grid_ids = st.sampled_from(GRID_40x30["even"].all_hexes())


@given(hexes(), hexes())
def test_r1_property_distance_symmetric(a: Hex, b: Hex) -> None:
    assert a.distance(b) == b.distance(a)
    assert (a.distance(b) == 0) == (a == b)


@given(hexes(), hexes(), hexes())
def test_r1_property_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(hexes())
def test_r1_property_neighbours_at_distance_1(h: Hex) -> None:
    ns = h.neighbors()
    assert len(set(ns)) == 6
    assert all(h.distance(n) == 1 for n in ns)
    assert all(h.distance(h.diagonal_neighbor(i)) == 2 for i in range(6))


@given(hexes(), hexes(), st.sampled_from(NUDGES))
def test_r1_property_linedraw_length_and_adjacency(a: Hex, b: Hex, nudge: float) -> None:
    line = hex_linedraw(a, b, nudge)
    assert len(line) == a.distance(b) + 1
    assert all(x.distance(y) == 1 for x, y in itertools.pairwise(line))


@given(hexes(), hexes())
def test_r2_property_both_nudged_walks_start_and_end_at_endpoints(a: Hex, b: Hex) -> None:
    for nudge in (LOS_EPSILON, -LOS_EPSILON):
        line = hex_linedraw(a, b, nudge)
        assert line[0] == a and line[-1] == b


@given(hexes(), st.sampled_from(SHIFTS))
def test_r1_property_offset_round_trip(h: Hex, shifted: str) -> None:
    assert OffsetCoord.from_hex(h, shifted).to_hex(shifted) == h


@given(grid_ids, grid_ids, st.sampled_from(SHIFTS))
def test_r1_property_grid_distance_is_cube_distance(a: str, b: str, shifted: str) -> None:
    grid = GRID_40x30[shifted]
    assert grid.distance(a, b) == Hex.from_ccrr(a, shifted).distance(Hex.from_ccrr(b, shifted))
    assert grid.distance(a, b) == grid.distance(b, a)


@given(grid_ids, grid_ids, st.sampled_from(SHIFTS))
def test_r1_property_grid_line_walks_on_the_map(a: str, b: str, shifted: str) -> None:
    grid = GRID_40x30[shifted]
    plus = grid.line(a, b, LOS_EPSILON)
    minus = grid.line(a, b, -LOS_EPSILON)
    assert plus[0] == minus[0] == a and plus[-1] == minus[-1] == b
    assert len(plus) == len(minus) == grid.distance(a, b) + 1
    for p, m in zip(plus, minus):
        # The map's hexes cover the hull of its centres, so at most one walk
        # can step off it, and only onto the far side of an edge hexside.
        assert p is not None or m is not None
        if p is not None and m is not None and p != m:
            assert grid.is_adjacent(p, m)


@given(hexes(), hexes(), st.sampled_from(NUDGES))
def test_r2_property_linedraw_is_nudged_lerp_then_round(a: Hex, b: Hex, nudge: float) -> None:
    # hex_linedraw runs on bare floats for speed; it must match the plain
    # FractionalHex formulation sample for sample.
    n = a.distance(b)
    fa = FractionalHex(a.q + nudge, a.r + 2 * nudge, a.s - 3 * nudge)
    fb = FractionalHex(b.q + nudge, b.r + 2 * nudge, b.s - 3 * nudge)
    step = 1.0 / max(n, 1)
    expected = [hex_lerp(fa, fb, step * i).round() for i in range(n + 1)]
    assert hex_linedraw(a, b, nudge) == expected
