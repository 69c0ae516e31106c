"""Line of sight (R2 / rule 8.2) on top of the R1 geometry, and the editions' readings of it (`LosRules`).

The `sees` helper and every R2 test use the kernel's default, `R2_LOS`, which is Quick Play's reading. The tests at
the end check the geometry (`sight_line`) and judge it by Standard 8.6's reading too (S29): hexside terrain ignored
along a hexside, and a hexside met at its midpoint by any other line crossed, with both its hexes passed through."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.rules.kernel.hexes import (
    HEX_DIAGONALS,
    LOS_EPSILON,
    FractionalHex,
    Hex,
    HexGrid,
    hex_lerp,
    hexside_key,
)
from server.rules.kernel.los import (
    R2_LOS,
    LosRules,
    SightLine,
    line_of_sight,
    los_trace,
    sight_line,
)

GRID = HexGrid(40, 30, "even")


def hexes_block(*ids: str) -> Callable[[str], bool]:
    blocking = frozenset(ids)
    return lambda h: h in blocking


def sides_block(*pairs: tuple[str, str]) -> Callable[[str, str], bool]:
    blocking = frozenset(hexside_key(a, b) for a, b in pairs)
    return lambda a, b: (a, b) in blocking


CLEAR_HEX = hexes_block()
CLEAR_SIDE = sides_block()


# Standard 8.6's reading as the tests name it (the kernel names no edition's rules but R2's default).
READING_8_6 = LosRules(splits_along=False, side_along_blocks=False, corner_sides_block=False)


def sees(
    a: str,
    b: str,
    blocking_hexes: Iterable[str] = (),
    blocking_sides: Iterable[tuple[str, str]] = (),
    grid: HexGrid = GRID,
    rules: LosRules = R2_LOS,
) -> bool:
    return line_of_sight(grid, a, b, hexes_block(*blocking_hexes), sides_block(*blocking_sides), rules)


# --- Hexes along the line ------------------------------------------------------------------


def test_r2_clear_line_is_seen() -> None:
    assert sees("0505", "0510")
    assert sees("0505", "1215")


def test_r2_same_hex_always_sees_itself() -> None:
    assert sees("0505", "0505", blocking_hexes=["0505"])


def test_r2_blocking_hex_in_the_middle_blocks() -> None:
    assert not sees("0505", "0510", blocking_hexes=["0507"])
    assert not sees("0510", "0505", blocking_hexes=["0507"])


def test_r2_blocking_hex_beside_the_line_does_not_block() -> None:
    assert sees("0505", "0510", blocking_hexes=["0607", "0407"])


def test_r2_blocking_firer_and_target_hexes_never_block() -> None:
    assert sees("0505", "0510", blocking_hexes=["0505", "0510"])
    assert sees("0505", "0506", blocking_hexes=["0505", "0506"])


def test_r2_terrain_is_never_asked_about_firer_or_target() -> None:
    asked: list[str] = []

    def record(h: str) -> bool:
        asked.append(h)
        return False

    assert line_of_sight(GRID, "0505", "0510", record, CLEAR_SIDE)
    assert asked == ["0506", "0507", "0508", "0509"]


def test_r2_side_blocks_is_called_with_hexside_keys() -> None:
    asked: list[tuple[str, str]] = []

    def record(a: str, b: str) -> bool:
        asked.append((a, b))
        return False

    assert line_of_sight(GRID, "0510", "0505", CLEAR_HEX, record)
    assert asked
    assert all((a, b) == hexside_key(a, b) for a, b in asked)


# --- Hexsides crossed ----------------------------------------------------------------------


def test_r2_crossed_blocking_hexside_blocks() -> None:
    assert not sees("0505", "0510", blocking_sides=[("0507", "0508")])


def test_r2_crossed_hexsides_next_to_firer_and_target_still_block() -> None:
    assert not sees("0505", "0510", blocking_sides=[("0505", "0506")])
    assert not sees("0505", "0510", blocking_sides=[("0509", "0510")])


def test_r2_hexside_not_crossed_does_not_block() -> None:
    assert sees("0505", "0510", blocking_sides=[("0507", "0607"), ("0407", "0507")])


def test_r2_adjacent_hexes_see_each_other() -> None:
    for n in GRID.neighbors("0505"):
        assert sees("0505", n, blocking_hexes=["0505", n])


def test_r2_adjacent_hexes_with_blocking_hexside_between_them() -> None:
    assert not sees("0202", "0103", blocking_sides=[("0202", "0103")])
    assert not sees("0103", "0202", blocking_sides=[("0202", "0103")])
    assert sees("0202", "0103", blocking_sides=[("0202", "0102")])


# --- Lines that run along a hexside ---------------------------------------------------------
# 0102 -> 0302 (shifted="even") is due east, a diagonal of the flat-topped grid:
# its centre line runs along the hexside between 0201 and the lowered 0202.


def test_r2_east_west_line_runs_along_a_hexside() -> None:
    assert GRID.cube("0302") - GRID.cube("0102") == Hex(2, -1, -1)
    assert los_trace(GRID, "0102", "0302") == [("0102", "0102"), ("0202", "0201"), ("0302", "0302")]


def test_r2_along_hexside_one_blocking_side_hex_does_not_block() -> None:
    assert sees("0102", "0302", blocking_hexes=["0201"])
    assert sees("0102", "0302", blocking_hexes=["0202"])


def test_r2_along_hexside_both_side_hexes_block() -> None:
    assert not sees("0102", "0302", blocking_hexes=["0201", "0202"])
    assert not sees("0302", "0102", blocking_hexes=["0201", "0202"])


def test_r2_along_hexside_blocking_hexside_it_runs_along_blocks() -> None:
    assert not sees("0102", "0302", blocking_sides=[("0201", "0202")])


def test_r2_along_hexside_corner_blocks_only_when_both_hexsides_block() -> None:
    # Leaving 0102 the line goes out through the corner it shares with 0201
    # and 0202: a wall on one of those two sides ends at the corner and is
    # only grazed; walls on both close the corner.
    assert sees("0102", "0302", blocking_sides=[("0102", "0201")])
    assert sees("0102", "0302", blocking_sides=[("0102", "0202")])
    assert not sees("0102", "0302", blocking_sides=[("0102", "0201"), ("0102", "0202")])
    assert not sees("0102", "0302", blocking_sides=[("0201", "0302"), ("0202", "0302")])


def test_r2_long_hexside_line_alternates_centres_and_hexsides() -> None:
    trace = los_trace(GRID, "0104", "0904")
    assert [p == m for p, m in trace] == [True, False] * 4 + [True]
    # The lowered even columns straddle row 4 with their rows 3 and 4.
    assert trace[1] == ("0204", "0203") and trace[7] == ("0804", "0803")
    assert sees("0104", "0904", blocking_hexes=["0204", "0403", "0604", "0803"])
    assert not sees("0104", "0904", blocking_hexes=["0604", "0603"])


def test_r2_steep_diagonal_runs_along_a_hexside() -> None:
    # (1, 1, -2) is the diagonal axis parallel to Red Blob's (1, 1, -2) nudge:
    # nudging along it cannot split the walks, which is why hexes.py nudges
    # along (1, 2, -3). 0102 -> 0203 runs along the 0103|0202 hexside.
    assert GRID.cube("0203") - GRID.cube("0102") == Hex(1, 1, -2)
    assert los_trace(GRID, "0102", "0203") == [("0102", "0102"), ("0103", "0202"), ("0203", "0203")]
    assert sees("0102", "0203", blocking_hexes=["0103"])
    assert sees("0102", "0203", blocking_hexes=["0202"])
    assert not sees("0102", "0203", blocking_hexes=["0103", "0202"])
    assert not sees("0102", "0203", blocking_sides=[("0103", "0202")])


def test_r2_literal_red_blob_nudge_merges_the_walks_on_that_axis() -> None:
    # Records why R2's epsilon is applied along (1, 2, -3): with (1, 1, -2)
    # float noise, not the nudge, breaks the tie, and both walks take 0103.
    a, b = GRID.cube("0102"), GRID.cube("0203")

    def walk(eps: float) -> list[Hex]:
        fa = FractionalHex(a.q + eps, a.r + eps, a.s - 2 * eps)
        fb = FractionalHex(b.q + eps, b.r + eps, b.s - 2 * eps)
        return [hex_lerp(fa, fb, i / 2).round() for i in range(3)]

    assert walk(LOS_EPSILON) == walk(-LOS_EPSILON) == [a, GRID.cube("0103"), b]


@pytest.mark.parametrize("shifted", ["even", "odd"])
def test_r2_every_diagonal_line_splits_at_its_hexsides(shifted: str) -> None:
    grid = HexGrid(40, 30, shifted)
    for a in grid.all_hexes():
        for d in HEX_DIAGONALS:
            for k in (1, 3):
                b = grid.id_of(grid.cube(a) + d.scale(k))
                if b is None:
                    continue
                trace = los_trace(grid, a, b)
                # Odd steps sit on hexside midpoints, even steps on hex centres.
                assert [p != m for p, m in trace] == [i % 2 == 1 for i in range(2 * k + 1)], (a, b)


def test_r2_non_diagonal_lines_walk_one_hex_at_a_time() -> None:
    assert all(p == m for p, m in los_trace(GRID, "0505", "0510"))
    assert all(p == m for p, m in los_trace(GRID, "0101", "0603"))


# --- Map edges -----------------------------------------------------------------------------


def test_r2_line_along_the_zigzag_map_edge() -> None:
    # Column 02 is lowered, so 0101 -> 0301 runs along the top of 0201,
    # whose far side is off the map: nothing there can block.
    assert los_trace(GRID, "0101", "0301") == [("0101", "0101"), ("0201", None), ("0301", "0301")]
    assert sees("0101", "0301", blocking_hexes=["0201"])
    assert sees("0101", "0301", blocking_sides=[("0101", "0201")])
    # Walls on 0201's upper sides end at the corners the line passes through.
    assert sees("0101", "0301", blocking_sides=[("0201", "0301"), ("0101", "0201")])


def test_r2_unknown_ids_raise() -> None:
    with pytest.raises(ValueError):
        sees("0101", "4101")
    with pytest.raises(ValueError):
        sees("4101", "4101")


# --- Properties ----------------------------------------------------------------------------

SMALL = HexGrid(10, 8, "even")
SMALL_ODD = HexGrid(9, 7, "odd")
small_ids = st.sampled_from(SMALL.all_hexes())


@st.composite
def small_sides(draw: st.DrawFn) -> frozenset[tuple[str, str]]:
    hexes = draw(st.lists(small_ids, max_size=25))
    return frozenset(
        hexside_key(h, n) for h in hexes for n in SMALL.neighbors(h)[: draw(st.integers(0, 6))]
    )


@settings(max_examples=200)
@given(small_ids, small_ids, st.frozensets(small_ids, max_size=30), small_sides())
def test_r2_property_los_is_symmetric(
    a: str, b: str, blocking: frozenset[str], sides: frozenset[tuple[str, str]]
) -> None:
    def hb(h: str) -> bool:
        return h in blocking

    def sb(x: str, y: str) -> bool:
        return (x, y) in sides

    assert line_of_sight(SMALL, a, b, hb, sb) == line_of_sight(SMALL, b, a, hb, sb)


@pytest.mark.parametrize("grid", [SMALL, SMALL_ODD], ids=["even", "odd"])
def test_r2_trace_reversed_is_trace_of_reverse_line(grid: HexGrid) -> None:
    for a in grid.all_hexes():
        for b in grid.all_hexes():
            assert los_trace(grid, b, a) == los_trace(grid, a, b)[::-1]


@pytest.mark.parametrize("grid", [SMALL, SMALL_ODD], ids=["even", "odd"])
def test_r2_clear_map_sees_everywhere_and_walled_map_only_along_its_edge(grid: HexGrid) -> None:
    every_side = frozenset(hexside_key(h, n) for h in grid.all_hexes() for n in grid.neighbors(h))
    for a in grid.all_hexes():
        for b in grid.all_hexes():
            assert line_of_sight(grid, a, b, CLEAR_HEX, CLEAR_SIDE)
            # With every hexside walled, only lines that never leave a hexside
            # (those skimming the zigzag map edge) get through.
            skims_edge = any(None in pair for pair in los_trace(grid, a, b))
            walled = line_of_sight(grid, a, b, CLEAR_HEX, lambda x, y: (x, y) in every_side)
            assert walled == (a == b or skims_edge)


# --- The geometry an edition judges: sight_line --------------------------------------------------------------------


def test_sight_line_of_a_straight_line_lists_the_hexes_and_hexsides_it_crosses() -> None:
    assert sight_line(GRID, "0505", "0508") == SightLine(
        through=("0506", "0507"),
        crossed=(("0505", "0506"), ("0506", "0507"), ("0507", "0508")),
        along=(),
        corners=(),
    )
    assert sight_line(GRID, "0505", "0505") == SightLine((), (), (), ())


def test_sight_line_along_a_hexside_names_the_two_hexes_beside_it_and_its_corners() -> None:
    assert sight_line(GRID, "0102", "0302") == SightLine(
        through=(),
        crossed=(),
        along=(("0201", "0202"),),
        corners=((("0102", "0201"), ("0102", "0202")), (("0201", "0302"), ("0202", "0302"))),
    )
    long = sight_line(GRID, "0104", "0904")
    assert long.through == ("0304", "0504", "0704") and not long.crossed
    assert long.along == (("0203", "0204"), ("0403", "0404"), ("0603", "0604"), ("0803", "0804"))
    assert len(long.corners) == 8


def test_sight_line_crossing_a_hexside_at_its_midpoint_passes_through_both_hexes() -> None:
    # 0505 -> 0612 is no diagonal, yet its centre line meets the 0509|0608 hexside exactly at its midpoint, where
    # R2's two walks split. It crosses that hexside there: 0508, then 0608, then 0509, then 0609.
    assert ("0509", "0608") in los_trace(GRID, "0505", "0612")
    line = sight_line(GRID, "0505", "0612")
    assert line.through == ("0506", "0507", "0508", "0608", "0509", "0609", "0610", "0611")
    assert line.crossed[3:6] == (("0508", "0608"), ("0509", "0608"), ("0509", "0609"))
    assert line.along == () and line.corners == ()


@pytest.mark.parametrize("grid", [SMALL, SMALL_ODD], ids=["even", "odd"])
def test_sight_line_meets_the_two_hexes_of_a_midpoint_crossing_in_line_order(grid: HexGrid) -> None:
    # Just before the midpoint the unnudged line is in the first hex, just after it in the second.
    for a in grid.all_hexes():
        for b in grid.all_hexes():
            line = sight_line(grid, a, b)
            trace = los_trace(grid, a, b)
            if line.along:
                continue
            fa, fb = FractionalHex.from_hex(grid.cube(a)), FractionalHex.from_hex(grid.cube(b))
            n = len(trace) - 1
            for j, (p, m) in enumerate(trace):
                if p == m:
                    continue
                before = grid.id_of(hex_lerp(fa, fb, (j - 0.01) / n).round())
                after = grid.id_of(hex_lerp(fa, fb, (j + 0.01) / n).round())
                assert {before, after} == {p, m}, (a, b)
                i = line.through.index(before)
                assert line.through[i + 1] == after and hexside_key(p, m) in line.crossed, (a, b)


def test_sight_line_along_the_map_edge_has_no_hex_beyond_it() -> None:
    assert sight_line(GRID, "0101", "0301").along == (("0201", None),)
    assert sight_line(GRID, "0101", "0301").corners == ()  # the corners' other sides are off the map (V3)


@pytest.mark.parametrize("grid", [SMALL, SMALL_ODD], ids=["even", "odd"])
def test_sight_line_runs_along_hexsides_exactly_on_the_diagonals(grid: HexGrid) -> None:
    for a in grid.all_hexes():
        for b in grid.all_hexes():
            line = sight_line(grid, a, b)
            d = grid.cube(b) - grid.cube(a)
            diagonal = a != b and any(d == g.scale(d.length() // 2) for g in HEX_DIAGONALS)
            assert bool(line.along) == diagonal, (a, b)
            assert a not in line.through and b not in line.through
            assert all(a not in pair and b not in pair for pair in line.along)
            assert all(hexside_key(x, y) == (x, y) for x, y in line.crossed)


# --- The editions' readings: LosRules ------------------------------------------------------------------------------


def test_r2_is_the_default_reading_a_blocking_hexside_along_the_line_blocks() -> None:
    assert R2_LOS == LosRules(splits_along=True, side_along_blocks=True, corner_sides_block=True)
    wall = [("0201", "0202")]
    assert line_of_sight(GRID, "0102", "0302", CLEAR_HEX, sides_block(*wall)) is False
    assert sees("0102", "0302", blocking_sides=wall, rules=R2_LOS) is False


def test_8_6_los_along_a_hexside_is_blocked_only_if_both_hexes_block() -> None:
    rules = READING_8_6
    assert sees("0102", "0302", blocking_sides=[("0201", "0202")], rules=rules)
    assert sees("0102", "0302", blocking_hexes=["0201"], blocking_sides=[("0201", "0202")], rules=rules)
    assert not sees("0102", "0302", blocking_hexes=["0201", "0202"], rules=rules)
    assert not sees("0104", "0904", blocking_hexes=["0603", "0604"], rules=rules)
    assert sees("0104", "0904", blocking_hexes=["0204", "0403", "0604", "0803"], rules=rules)


def test_8_6_hexside_terrain_ignored_at_the_corners_of_a_line_along_a_hexside() -> None:
    corners = [("0102", "0201"), ("0102", "0202"), ("0201", "0302"), ("0202", "0302")]
    assert sees("0102", "0302", blocking_sides=[*corners, ("0201", "0202")], rules=READING_8_6)
    assert not sees("0102", "0302", blocking_sides=corners[:2])
    assert not sees("0102", "0302", blocking_sides=corners[2:])


def test_r2_reads_a_hexside_crossed_at_its_midpoint_as_a_hexside_run_along() -> None:
    assert sees("0505", "0612", blocking_hexes=["0509"])
    assert sees("0505", "0612", blocking_sides=[("0508", "0608")])  # read as one side of a corner
    assert not sees("0505", "0612", blocking_hexes=["0509", "0608"])
    assert not sees("0505", "0612", blocking_sides=[("0509", "0608")])


def test_8_6_a_hexside_crossed_at_its_midpoint_is_crossed_and_both_hexes_are_passed() -> None:
    rules = READING_8_6
    assert not sees("0505", "0612", blocking_hexes=["0509"], rules=rules)
    assert not sees("0505", "0612", blocking_hexes=["0608"], rules=rules)
    for side in [("0508", "0608"), ("0509", "0608"), ("0509", "0609")]:
        assert not sees("0505", "0612", blocking_sides=[side], rules=rules)
        assert not sees("0612", "0505", blocking_sides=[side], rules=rules)
    assert sees("0505", "0612", blocking_sides=[("0508", "0509"), ("0608", "0609")], rules=rules)  # not crossed


def test_8_6_crossed_hexsides_and_intervening_hexes_still_block() -> None:
    rules = READING_8_6
    assert not sees("0505", "0510", blocking_sides=[("0507", "0508")], rules=rules)
    assert not sees("0505", "0510", blocking_hexes=["0507"], rules=rules)
    assert not sees("0202", "0103", blocking_sides=[("0202", "0103")], rules=rules)
    assert not sees("0104", "0904", blocking_hexes=["0504"], rules=rules)  # a hex the line passes centre to centre


@settings(max_examples=200)
@given(small_ids, small_ids, st.frozensets(small_ids, max_size=30), small_sides())
def test_readings_differ_only_where_the_walks_split_and_along_a_hexside_8_6_sees_more(
    a: str, b: str, blocking: frozenset[str], sides: frozenset[tuple[str, str]]
) -> None:
    def hb(h: str) -> bool:
        return h in blocking

    def sb(x: str, y: str) -> bool:
        return (x, y) in sides

    r2 = line_of_sight(SMALL, a, b, hb, sb, R2_LOS)
    s86 = line_of_sight(SMALL, a, b, hb, sb, READING_8_6)
    assert s86 == line_of_sight(SMALL, b, a, hb, sb, READING_8_6)
    if all(p == m for p, m in los_trace(SMALL, a, b)):
        assert r2 == s86
    if sight_line(SMALL, a, b).along:
        assert s86 or not r2  # along a hexside, ignoring hexside terrain never blocks a line R2 lets through


@pytest.mark.parametrize("grid", [SMALL, SMALL_ODD], ids=["even", "odd"])
def test_8_6_a_walled_map_is_seen_along_every_hexside_line(grid: HexGrid) -> None:
    every_side = frozenset(hexside_key(h, n) for h in grid.all_hexes() for n in grid.neighbors(h))
    for a in grid.all_hexes():
        for b in grid.all_hexes():
            walled = line_of_sight(grid, a, b, CLEAR_HEX, lambda x, y: (x, y) in every_side, READING_8_6)
            assert walled == (a == b or bool(sight_line(grid, a, b).along)), (a, b)
