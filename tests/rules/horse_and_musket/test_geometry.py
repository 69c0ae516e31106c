"""R16.4 (geometry.py): faces of a hexside facing, the hexside toward a hex with the tie to the one nearer `f`, the
120-degree fire arc (5.1.3, 5.2.2), enfilade (5.5), towns all front (SR.3), RC.1c's sides of a gap."""

from __future__ import annotations

from server.rules.horse_and_musket import geometry as geo
from server.rules.kernel.hexes import HexGrid

from .builder import step

GRID = HexGrid(12, 12)
HERE = "0606"


def test_r16_4_the_faces_of_a_unit_facing_north() -> None:
    # N is hexside 2: front = NE (1), N (2), NW (3); left flank SW (4); right flank SE (0); rear S (5)
    assert [geo.face_of(k, "N") for k in range(6)] == [geo.RIGHT, geo.FRONT, geo.FRONT, geo.FRONT, geo.LEFT,
                                                        geo.REAR]


def test_r16_4_the_face_toward_an_adjacent_hex_is_the_shared_hexside() -> None:
    for k, d in enumerate(("SE", "NE", "N", "NW", "SW", "S")):
        assert geo.toward(GRID, HERE, "N", step(HERE, d)) == k


def test_r16_4_a_tie_goes_to_the_hexside_nearer_the_facing() -> None:
    target = step(HERE, "NE", "SE")  # on the apex line between NE (1) and SE (0)
    assert geo.toward(GRID, HERE, "N", target) == 1  # NE is nearer N
    assert geo.toward(GRID, HERE, "S", target) == 0  # SE is nearer S
    assert geo.face_toward(GRID, HERE, "N", target) == geo.FRONT
    assert geo.face_toward(GRID, HERE, "S", target) == geo.FRONT
    # facing NW the tie is NE (two hexsides off) against SE (three, the rear): NE wins, the right flank
    assert geo.face_toward(GRID, HERE, "NW", target) == geo.RIGHT


def test_r16_4_sr_3_every_face_is_front_in_a_town() -> None:
    assert geo.face_toward(GRID, HERE, "N", step(HERE, "S"), all_round=True) == geo.FRONT
    assert geo.face_toward(GRID, HERE, "N", step(HERE, "S")) == geo.REAR


def test_5_1_3_r16_4_the_fire_arc_takes_the_front_diagonals_and_their_rows() -> None:
    assert geo.in_fire_arc(GRID, HERE, "N", step(HERE, "N", "N", "N"))
    assert geo.in_fire_arc(GRID, HERE, "N", step(HERE, "NE")) and geo.in_fire_arc(GRID, HERE, "N", step(HERE, "NW"))
    assert geo.in_fire_arc(GRID, HERE, "N", step(HERE, "NE", "NE", "NE"))  # the row out through f-1, included
    assert geo.in_fire_arc(GRID, HERE, "N", step(HERE, "NE", "N"))  # between the rows
    assert not geo.in_fire_arc(GRID, HERE, "N", step(HERE, "SE"))  # the right flank
    assert not geo.in_fire_arc(GRID, HERE, "N", step(HERE, "NE", "SE"))  # 90 degrees off: outside the 120
    assert not geo.in_fire_arc(GRID, HERE, "N", step(HERE, "S"))


def test_5_5_r16_14_enfilade_from_a_lines_flank_or_a_columns_head() -> None:
    east, south, north = step(HERE, "SE", "SE"), step(HERE, "S", "S"), step(HERE, "N", "N")
    assert geo.enfilades(GRID, east, HERE, "N", True, False)
    assert geo.enfilades(GRID, south, HERE, "N", True, False)
    assert not geo.enfilades(GRID, north, HERE, "N", True, False)
    assert not geo.enfilades(GRID, step(HERE, "NE", "NE"), HERE, "N", True, False)  # a front diagonal
    # a column: from its head (f) or its tail (f+3) only
    assert geo.enfilades(GRID, north, HERE, "N", False, True)
    assert geo.enfilades(GRID, south, HERE, "N", False, True)
    assert not geo.enfilades(GRID, east, HERE, "N", False, True)


def test_rc_1c_the_two_sides_of_a_gap() -> None:
    assert geo.beside(2) == ((3, 4), (1, 0))
