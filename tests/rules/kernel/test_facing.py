"""Facing as a kernel mechanism (kernel/facing.py): directions and apexes, turning, the direction between
adjacent hexes, and arcs by the line's direction, for Standard 19.7 B (apex facing), R16.4 (Horse and
Musket's faces and fire arc) and R17.16 (Musket & Pike's arcs); a unit's facing in the state, undo and view."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from position import Position

from server.rules import Game, parse_scenario
from server.rules.kernel.facing import (
    Arc,
    ArcRule,
    Direction,
    Facing,
    Vertex,
    adjacent_in_arc,
    arc_of,
    arc_of_delta,
    arc_of_id,
    bearing_of,
    direction_between,
    direction_between_ids,
    facing_name,
    hexsides_toward,
    parse_facing,
)
from server.rules.kernel.hexes import DIRECTION_NAMES, HEX_DIRECTIONS, Hex, HexGrid
from server.rules.kernel.state import GameState, UnitState

# The arc definitions the rulings give, as an edition would pass them.
APEX_19_7_B = ArcRule(60, 120)
R17_16 = ArcRule(60, 120)
R16_4_FACES = ArcRule(90, 150)
R16_4_FIRE = ArcRule(60, 60)

directions = st.sampled_from(list(Direction))
vertices = st.sampled_from(list(Vertex))
facings: st.SearchStrategy[Facing] = st.one_of(directions, vertices)
limits = st.sampled_from(range(0, 181, 30))
rules = st.builds(lambda a, b, inc: ArcRule(min(a, b), max(a, b), inc), limits, limits, st.booleans())
deltas = st.builds(lambda q, r: Hex(q, r, -q - r), st.integers(-12, 12), st.integers(-12, 12)).filter(
    lambda h: (h.q, h.r) != (0, 0))


def rotate_left(h: Hex, times: int) -> Hex:
    """Red Blob's 60-degree rotation, which takes direction k to k+1 in this layout."""
    for _ in range(times % 6):
        h = Hex(-h.s, -h.q, -h.r)
    return h


def pixel(col: int, row: int, shifted: str) -> tuple[float, float]:
    """A hex centre on the page, from the offset layout alone (R1; web/js/hexgeom.js), y pointing down."""
    lowered = (col % 2 == 0) if shifted == "even" else (col % 2 == 1)
    return 1.5 * col, math.sqrt(3) * (row + (0.5 if lowered else 0.0))


def cube_pixel(h: Hex) -> tuple[float, float]:
    return 1.5 * h.q, math.sqrt(3) * (h.r + h.q / 2)


def screen_angle(facing: Facing) -> float:
    """The facing's direction on the page in degrees, clockwise from east (y down)."""
    return 30.0 - 60.0 * facing if isinstance(facing, Direction) else -60.0 * facing


# --- the vocabulary ------------------------------------------------------------------------------------
def test_r16_4_directions_are_the_kernels_in_red_blobs_order() -> None:
    assert [d.name for d in Direction] == list(DIRECTION_NAMES)
    assert [d.vector for d in Direction] == list(HEX_DIRECTIONS)
    assert Direction.N.left() is Direction.NW and Direction.N.right() is Direction.NE  # f+1 is the unit's left


def test_19_7_b_each_apex_joins_two_hexsides_and_names_differ_from_them() -> None:
    assert [tuple(d.name for d in v.hexsides) for v in Vertex] == [
        ("SE", "NE"), ("NE", "N"), ("N", "NW"), ("NW", "SW"), ("SW", "S"), ("S", "SE")]
    assert all(v.vector == v.hexsides[0].vector + v.hexsides[1].vector for v in Vertex)
    assert not {d.name for d in Direction} & {v.name for v in Vertex}


@given(facings)
def test_a_facing_is_saved_as_its_name_and_read_back(facing: Facing) -> None:
    assert parse_facing(facing_name(facing)) is facing


@pytest.mark.parametrize("bad", ["n", "", "NORTH", None, 2])
def test_an_unknown_facing_name_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="facing must be one of"):
        parse_facing(bad)  # type: ignore[arg-type]


@given(facings)
def test_turning_six_times_either_way_returns(facing: Facing) -> None:
    f, g = facing, facing
    for _ in range(6):
        f, g = f.left(), g.right()
    assert f is facing and g is facing


@given(facings, st.integers(-20, 20))
def test_about_face_twice_returns_and_left_undoes_right(facing: Facing, n: int) -> None:
    assert facing.about().about() is facing
    assert facing.about() is not facing and facing.about() is facing.turned(3) is facing.turned(-3)
    assert facing.left().right() is facing and facing.turned(n).turned(-n) is facing
    assert type(facing.turned(n)) is type(facing)


@pytest.mark.parametrize("shifted", ["even", "odd"])
def test_r1_the_direction_between_adjacent_hexes_reads_on_the_page(shifted: str) -> None:
    grid = HexGrid(6, 6, shifted)
    for at in ("0303", "0403"):  # an odd and an even column
        col, row = int(at[:2]), int(at[2:])
        x0, y0 = pixel(col, row, shifted)
        for other in grid.neighbors(at):
            d = direction_between_ids(grid, at, other)
            x1, y1 = pixel(int(other[:2]), int(other[2:]), shifted)
            assert math.isclose(math.degrees(math.atan2(y1 - y0, x1 - x0)) % 360, screen_angle(d) % 360)
            assert direction_between(grid.cube(other), grid.cube(at)) is d.about()
    with pytest.raises(ValueError, match="not adjacent"):
        direction_between(Hex(0, 0, 0), Hex(2, -1, -1))


# --- arcs ----------------------------------------------------------------------------------------------
@settings(max_examples=200)
@given(facings, rules)
def test_every_adjacent_hex_falls_in_exactly_one_arc(facing: Facing, rule: ArcRule) -> None:
    grid = HexGrid(5, 5)
    parts = [adjacent_in_arc(grid, "0303", facing, rule, arc) for arc in Arc]
    assert sorted(h for part in parts for h in part) == sorted(grid.neighbors("0303"))


@settings(max_examples=300)
@given(facings, deltas, st.integers(0, 5), rules)
def test_arcs_turn_with_the_facing(facing: Facing, delta: Hex, k: int, rule: ArcRule) -> None:
    assert arc_of_delta(facing.turned(k), rotate_left(delta, k), rule) is arc_of_delta(facing, delta, rule)
    assert bearing_of(facing.turned(k), rotate_left(delta, k)) == bearing_of(facing, delta)


@settings(max_examples=300)
@given(facings, deltas, rules)
def test_arcs_are_the_same_on_the_left_and_the_right(facing: Facing, delta: Hex, rule: ArcRule) -> None:
    # Mirror in the facing's own line: a bearing of +x becomes -x, and the arc stays.
    mirrored = _mirror(facing, delta)
    assert bearing_of(facing, mirrored).steps % 24 == (-bearing_of(facing, delta).steps) % 24
    assert arc_of_delta(facing, mirrored, rule) is arc_of_delta(facing, delta, rule)


def _mirror(facing: Facing, delta: Hex) -> Hex:
    """``delta`` mirrored in the facing's own line: turned so that line is N's (x -> -x on the page:
    (q, r, s) -> (-q, -s, -r)) or E's apex line (y -> -y: (q, r, s) -> (q, s, r)), mirrored, turned back."""
    if isinstance(facing, Direction):
        turns = 2 - facing
        h = rotate_left(delta, turns)
        h = Hex(-h.q, -h.s, -h.r)
    else:
        turns = -facing
        h = rotate_left(delta, turns)
        h = Hex(h.q, h.s, h.r)
    return rotate_left(h, -turns)


@pytest.mark.parametrize("shifted", ["even", "odd"])
@pytest.mark.parametrize("at", ["0303", "0404", "0403", "0304"])
def test_19_7_b_the_two_hexes_beside_the_apex_are_the_front(shifted: str, at: str) -> None:
    """On odd and even columns of both offset layouts: the front hexes are exactly the two neighbours
    whose corners meet the faced apex (found on the page, from the offset layout alone)."""
    grid = HexGrid(7, 7, shifted)
    col, row = int(at[:2]), int(at[2:])
    x0, y0 = pixel(col, row, shifted)
    for vertex in Vertex:
        a = math.radians(screen_angle(vertex))
        apex = (x0 + math.cos(a), y0 + math.sin(a))  # hexes of size 1: corners 1 from the centre
        sharing = {n for n in grid.neighbors(at)
                   if math.isclose(math.dist(pixel(int(n[:2]), int(n[2:]), shifted), apex), 1.0)}
        assert len(sharing) == 2
        assert set(adjacent_in_arc(grid, at, vertex, APEX_19_7_B, Arc.FRONT)) == sharing
        assert {direction_between_ids(grid, at, n) for n in sharing} == set(vertex.hexsides)


def test_19_7_b_two_flank_and_two_rear_hexes_either_side_of_the_opposite_apex() -> None:
    # 19.7 C moves the unit "backwards into either rear hex": the two hexes beside the opposite apex.
    grid = HexGrid(5, 5)
    for vertex in Vertex:
        rear = adjacent_in_arc(grid, "0303", vertex, APEX_19_7_B, Arc.REAR)
        flank = adjacent_in_arc(grid, "0303", vertex, APEX_19_7_B, Arc.FLANK)
        assert {direction_between_ids(grid, "0303", h) for h in rear} == set(vertex.about().hexsides)
        assert {direction_between_ids(grid, "0303", h) for h in flank} == {vertex.hexsides[0].right(),
                                                                           vertex.hexsides[1].left()}


@given(directions)
def test_r17_16_three_front_two_flank_one_rear_adjacent(facing: Direction) -> None:
    arcs = {d: arc_of_delta(facing, d.vector, R17_16) for d in Direction}
    assert {d for d, a in arcs.items() if a is Arc.FRONT} == {facing.right(), facing, facing.left()}
    assert {d for d, a in arcs.items() if a is Arc.FLANK} == {facing.turned(2), facing.turned(-2)}
    assert {d for d, a in arcs.items() if a is Arc.REAR} == {facing.about()}


@settings(max_examples=400)
@given(facings, deltas)
def test_r17_16_a_far_hexs_arc_is_its_bearing_on_the_page(facing: Facing, delta: Hex) -> None:
    """Front up to 60 degrees either side, flank up to 120, rear beyond, both limits inclusive; checked
    against the angle measured on the page, away from the limits, and exactly on them."""
    x, y = cube_pixel(delta)
    theta = abs((math.degrees(math.atan2(y, x)) - screen_angle(facing) + 180) % 360 - 180)
    arc = arc_of_delta(facing, delta, R17_16)
    if min(abs(theta - 60), abs(theta - 120)) < 1e-6:
        assert arc is (Arc.FRONT if theta < 90 else Arc.FLANK)
    else:
        assert arc is (Arc.FRONT if theta < 60 else Arc.FLANK if theta < 120 else Arc.REAR)
    assert math.isclose(theta, bearing_of(facing, delta).degrees, abs_tol=15.0)


@settings(max_examples=300)
@given(directions, st.integers(0, 10), st.integers(0, 10))
def test_r16_4_the_fire_arc_is_the_sector_between_the_front_diagonal_rows(f: Direction, a: int, b: int) -> None:
    delta = f.right().vector.scale(a) + f.left().vector.scale(b)
    if (a, b) != (0, 0):
        assert arc_of_delta(f, delta, R16_4_FIRE) is Arc.FRONT


@settings(max_examples=300)
@given(directions, deltas)
def test_r16_4_outside_the_fire_arc_no_sum_of_the_front_diagonals_reaches(f: Direction, delta: Hex) -> None:
    x, y = f.right().vector, f.left().vector
    det = x.q * y.r - x.r * y.q
    a, b = (delta.q * y.r - delta.r * y.q) * det, (x.q * delta.r - x.r * delta.q) * det
    assert (arc_of_delta(f, delta, R16_4_FIRE) is Arc.FRONT) == (a >= 0 and b >= 0)
    assert arc_of_delta(f, delta, R16_4_FIRE) is not Arc.FLANK  # in the fire arc or not


@settings(max_examples=300)
@given(deltas)
def test_r16_4_the_hexside_toward_a_hex_maximises_the_cube_dot_product(delta: Hex) -> None:
    dots = {d: delta.q * d.vector.q + delta.r * d.vector.r + delta.s * d.vector.s for d in Direction}
    best = max(dots.values())
    assert set(hexsides_toward(delta)) == {d for d, v in dots.items() if v == best}


@settings(max_examples=400)
@given(directions, deltas)
def test_r16_4_a_far_hexs_face_is_its_toward_hexsides_with_ties_nearer_the_facing(f: Direction, delta: Hex) -> None:
    def off(d: Direction) -> int:
        return min((d - f) % 6, (f - d) % 6)

    side = min(hexsides_toward(delta), key=off)
    face = {0: Arc.FRONT, 1: Arc.FRONT, 2: Arc.FLANK, 3: Arc.REAR}[off(side)]
    assert arc_of_delta(f, delta, R16_4_FACES) is face
    bearing = bearing_of(f, delta)
    if face is Arc.FLANK:  # left flank f+2, right flank f-2
        assert (side is f.turned(2)) == bearing.left and (side is f.turned(-2)) == bearing.right


def test_r16_4_and_r17_16_all_round_front_in_a_town_or_hedgehog() -> None:
    grid = HexGrid(5, 5)
    assert adjacent_in_arc(grid, "0303", Direction.S, ArcRule(180, 180), Arc.FRONT) == grid.neighbors("0303")


def test_an_arc_at_distance_by_id_and_by_cube_agree_and_a_hex_has_no_arc_of_its_own() -> None:
    grid = HexGrid(9, 9, "odd")
    assert arc_of_id(grid, "0505", Direction.N, "0501", R17_16) is Arc.FRONT
    assert arc_of_id(grid, "0505", Direction.N, "0509", R17_16) is Arc.REAR
    assert arc_of_id(grid, "0505", Direction.N, "0905", R17_16) is arc_of(
        grid.cube("0505"), Direction.N, grid.cube("0905"), R17_16)
    with pytest.raises(ValueError, match="no bearing"):
        arc_of_id(grid, "0505", Direction.N, "0505", R17_16)


@pytest.mark.parametrize(("front", "flank"), [(45, 90), (90, 60), (-30, 60), (0, 210)])
def test_an_arc_rule_takes_multiples_of_30_degrees_in_order(front: int, flank: int) -> None:
    with pytest.raises(ValueError):
        ArcRule(front, flank)


def test_a_hex_on_a_limit_goes_outward_when_the_rule_says_so() -> None:
    # The diagonal between hexsides NE and N from a unit facing the apex NNW lies 60 degrees off: a limit.
    delta = Vertex.NNE.vector
    assert bearing_of(Vertex.NNW, delta).exact and bearing_of(Vertex.NNW, delta).degrees == 60
    assert arc_of_delta(Vertex.NNW, delta, ArcRule(60, 120)) is Arc.FRONT
    assert arc_of_delta(Vertex.NNW, delta, ArcRule(60, 120, inclusive=False)) is Arc.FLANK


# --- the state, undo and the view ----------------------------------------------------------------------
def test_a_facing_is_saved_restored_and_left_out_when_there_is_none() -> None:
    faced = UnitState(id="a", hex="0101", facing="NNE")
    plain = UnitState(id="b", hex="0102")
    assert faced.to_json()["facing"] == "NNE" and "facing" not in plain.to_json()
    state = GameState(scenario="s", ruleset="r", turn=1, phase="movement", active="blue",
                      units={"a": faced, "b": plain})
    data = state.to_json()
    assert GameState.from_json(data).units["a"].facing == "NNE"
    assert GameState.from_json(data).units["b"].facing is None
    snap = state.snapshot()
    assert snap.to_json() == data and "facing" not in snap.to_json()["units"]["b"]
    state.units["a"].facing = "S"
    assert GameState.restore(snap).units["a"].facing == "NNE"


def _game() -> Game:
    pos = Position()
    pos.unit("b1", "blue", hex="0304")
    pos.unit("r1", "red", hex="0604")
    return pos.game()


def test_undo_brings_a_facing_back() -> None:
    start = _game()
    state = start.state.copy()
    state.units["b1"].facing = "N"
    game = Game.for_test(start.scenario, state)  # a position whose unit faces N from the start
    game.submit("blue", {"type": "move", "units": ["b1"], "path": ["0304", "0404"]})
    game.state.units["b1"].facing = "SE"  # as a command that turns the unit would
    game.submit("blue", {"type": "undo"})
    assert game.state.units["b1"].facing == "N" and game.state.units["b1"].hex == "0304"
    saved = Game.from_json(game.scenario, game.to_json())
    assert saved.state.units["b1"].facing == "N"


def test_the_view_shows_a_facing_to_every_viewer_when_the_unit_has_one() -> None:
    game = _game()
    game.state.units["b1"].facing = "NNW"
    for viewer in ("blue", "red", "spectator"):
        view = game.view(viewer)
        assert view["units"]["b1"]["facing"] == "NNW" and "facing" not in view["units"]["r1"]
    assert game.views(["blue", "red"], share_units=True)[1]["units"]["b1"]["facing"] == "NNW"
    game.state.units["b1"].facing = "S"  # a turn alone rebuilds the kept unit view
    assert game.views(["blue", "red"], share_units=True)[1]["units"]["b1"]["facing"] == "S"


def test_3_2_a_placement_the_opponent_has_not_seen_keeps_its_facing_too() -> None:
    pos = Position()
    pos.unit("b1", "blue", hex="0404", within=1)
    pos.unit("r1", "red", hex="0804")
    game = Game.new(parse_scenario(pos.data(), "setup.json"), "facing-test-seed-0123456789abcdef")
    game.submit("blue", {"type": "place", "unit": "b1", "hex": "0403"})
    game.state.units["b1"].facing = "W"
    assert game.view("blue")["units"]["b1"]["facing"] == "W"
    hidden = game.view("red")["units"]["b1"]
    assert hidden.get("placement_hidden") and "facing" not in hidden
