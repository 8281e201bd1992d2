"""The board tables of engine.dice_geometry, checked against plane geometry.

Every cell is drawn as a real equilateral triangle (side 1): a cell's
neighbours are the triangles that share a vertex with it, a straight line
is the set of cells whose centres lie on a half-line from the centre, and a
corner direction is one that points from the centre at a vertex. None of
this uses the step table of rules.md §1, so the tables are checked against
an independent computation, not against a copy of themselves.
"""

from __future__ import annotations

import math

import pytest

from hexhop.engine.dice import geometry as g

H = math.sqrt(3) / 2
ANGLES = {"N": 90, "NE": 30, "SE": -30, "S": -90, "SW": -150, "NW": 150}


def vertices(i: int) -> set[tuple[int, int]]:
    """Vertices in exact units: x in half sides, y in rows (downward)."""
    r, c = g.COORDS[i]
    if g.UP[i]:
        return {(c, r), (c - 1, r + 1), (c + 1, r + 1)}
    return {(c - 1, r), (c + 1, r), (c, r + 1)}


def centre(i: int) -> tuple[float, float]:
    """Centre with y pointing up (row A on top)."""
    xs, ys = zip(*vertices(i), strict=True)
    return sum(xs) / 6, -sum(ys) / 3 * H


def unit(direction: str) -> tuple[float, float]:
    a = math.radians(ANGLES[direction])
    return math.cos(a), math.sin(a)


def cells_on_half_line(i: int, direction: str) -> list[int]:
    (x0, y0), (ux, uy) = centre(i), unit(direction)
    found = []
    for j in range(g.CELL_COUNT):
        x, y = centre(j)
        dx, dy = x - x0, y - y0
        along, across = dx * ux + dy * uy, dx * uy - dy * ux
        if j != i and along > 1e-9 and abs(across) < 1e-9:
            found.append((along, j))
    return [j for _, j in sorted(found)]


def sharing_side(i: int) -> set[int]:
    """The cells that share a whole side with ``i``."""
    return {j for j in range(g.CELL_COUNT) if len(vertices(i) & vertices(j)) == 2}


def opposite(direction: int) -> int:
    """The direction pointing back: N <-> S, NE <-> SW, SE <-> NW."""
    return (direction + 3) % 6


def names(cells) -> list[str]:
    return [g.CELLS[i] for i in cells]


def test_cells_rows_and_orientation():
    assert g.CELL_COUNT == 66
    assert [sum(1 for r in g.ROW if r == row) for row in range(6)] == [9, 11, 13, 13, 11, 9]
    assert sum(g.UP) == 33
    assert g.CELLS[0] == "A3" and g.CELLS[-1] == "F11"
    up = {name: g.UP[g.INDEX[name]] for name in ("A7", "B7", "A4", "C13", "F3")}
    assert up == {"A7": True, "B7": False, "A4": False, "C13": True, "F3": False}


def test_triangles_tile_the_hexagon():
    """Every interior side is shared by exactly two cells (a proper tiling)."""
    sides: dict[frozenset, int] = {}
    for i in range(g.CELL_COUNT):
        vs = sorted(vertices(i))
        for k in range(3):
            side = frozenset(vs[:k] + vs[k + 1 :])
            sides[side] = sides.get(side, 0) + 1
    assert set(sides.values()) == {1, 2}
    # the rim: 4 sides on top and at the bottom, 3 on each slanted edge
    assert sum(1 for n in sides.values() if n == 1) == 4 + 4 + 4 * 3


@pytest.mark.parametrize("i", range(66))
def test_neighbours_share_a_vertex(i):
    touching = {j for j in range(g.CELL_COUNT) if j != i and vertices(i) & vertices(j)}
    assert set(g.NEIGHBOURS[i]) == touching
    assert len(g.NEIGHBOURS[i]) <= 12 and len(sharing_side(i)) <= 3


@pytest.mark.parametrize("i", range(66))
def test_rays_are_straight_lines_through_centres(i):
    for d, direction in enumerate(g.DIRECTIONS):
        assert list(g.RAYS[i][d]) == cells_on_half_line(i, direction), (g.CELLS[i], direction)


@pytest.mark.parametrize("i", range(66))
def test_corner_directions_point_at_vertices(i):
    x0, y0 = centre(i)
    corner = set()
    for direction in g.DIRECTIONS:
        ux, uy = unit(direction)
        for vx, vy in vertices(i):
            dx, dy = vx / 2 - x0, -vy * H - y0
            if dx * ux + dy * uy > 0 and abs(dx * uy - dy * ux) < 1e-9:
                corner.add(direction)
    assert {g.DIRECTIONS[d] for d in g.CORNER_DIRS[i]} == corner
    assert {g.DIRECTIONS[d] for d in g.SIDE_DIRS[i]} == set(g.DIRECTIONS) - corner


def test_side_direction_first_step_crosses_a_side():
    for i in range(g.CELL_COUNT):
        for d in g.SIDE_DIRS[i]:
            if g.RAYS[i][d]:
                assert g.RAYS[i][d][0] in sharing_side(i)
        for d in g.CORNER_DIRS[i]:
            if g.RAYS[i][d]:
                assert g.RAYS[i][d][0] not in sharing_side(i)


def test_jump_fields_are_the_six_cells_nearest_the_centre():
    xs, ys = zip(*(centre(i) for i in range(g.CELL_COUNT)), strict=True)
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    by_distance = sorted(range(g.CELL_COUNT), key=lambda i: math.dist(centre(i), (mx, my)))
    assert set(by_distance[:6]) == g.JUMP_FIELDS
    assert sorted(names(g.JUMP_FIELDS)) == ["C6", "C7", "C8", "D6", "D7", "D8"]


def test_line_to_agrees_with_rays():
    for i in range(g.CELL_COUNT):
        for t, (d, k) in g.LINE_TO[i].items():
            assert g.RAYS[i][d][k - 1] == t
            assert i in g.RAYS[t][opposite(d)]  # lines run both ways


# --- the worked examples of rules.md §7 -------------------------------------------


def ray(cell: str, direction: str) -> list[str]:
    return names(g.RAYS[g.INDEX[cell]][g.DIRECTIONS.index(direction)])


def test_a7_directions_and_rays():
    a7 = g.INDEX["A7"]
    assert [g.DIRECTIONS[d] for d in g.SIDE_DIRS[a7]] == ["S", "NE", "NW"]
    assert [g.DIRECTIONS[d] for d in g.CORNER_DIRS[a7]] == ["N", "SE", "SW"]
    assert ray("A7", "N") == []
    assert ray("A7", "SE") == ["B9", "B10", "C12", "C13"]
    assert ray("A7", "SW") == ["B5", "B4", "C2", "C1"]


def test_a7_neighbours():
    assert names(g.NEIGHBOURS[g.INDEX["A7"]]) == [
        "A5",
        "A6",
        "A8",
        "A9",
        "B5",
        "B6",
        "B7",
        "B8",
        "B9",
    ]


def test_c7_side_rays():
    assert ray("C7", "S") == ["D7", "E7", "F7"]
    assert ray("C7", "NE") == ["C8", "B10", "B11"]
    assert ray("C7", "NW") == ["C6", "B4", "B3"]


def test_leaps_of_a3():
    """The 3 on A6 (down) leaps S to B6 or C6; NE and NW leave the board. A9: B11 B12 B7 B6."""
    assert names(g.LEAPS[g.INDEX["A6"]]) == ["B6", "C6"]
    assert sorted(names(g.LEAPS[g.INDEX["A9"]])) == ["B11", "B12", "B6", "B7"]


def test_forward_and_pawn_cells():
    b6 = g.INDEX["B6"]
    assert g.CELLS[g.FORWARD[g.NORTH][b6]] == "C6"
    assert names(g.PAWN_CAPTURES[g.NORTH][b6]) == ["C5", "C7"]
    e2, c1 = g.INDEX["E2"], g.INDEX["C1"]
    assert g.FORWARD[g.NORTH][e2] == -1 and names(g.PAWN_CAPTURES[g.NORTH][e2]) == ["F3"]
    assert g.FORWARD[g.SOUTH][c1] == -1 and names(g.PAWN_CAPTURES[g.SOUTH][c1]) == ["B2"]
    assert g.FORWARD[g.NORTH][g.INDEX["F5"]] == -1


def test_reverse_tables():
    for i in range(g.CELL_COUNT):
        for x in g.LEAPS[i]:
            assert i in g.LEAPS_FROM[x]
        for side in (g.NORTH, g.SOUTH):
            for x in g.PAWN_CAPTURES[side][i]:
                assert i in g.PAWN_ATTACKERS[side][x]
