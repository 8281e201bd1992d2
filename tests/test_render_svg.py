"""board_svg and describe_last, on small stand-in positions (and on the
engines' positions once those exist)."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

import pytest

from hexhop.notation.model import DiceAction, HopAction
from hexhop.render import DEFAULT_COLORS, LastAction, board_svg, describe_last

NS = "{http://www.w3.org/2000/svg}"


# ---------------------------------------------------------------------------
# Stand-ins with the attributes the renderer reads


@dataclass(frozen=True)
class Die:
    side: str
    face: int
    home: int | None = None


@dataclass(frozen=True)
class DicePosition:
    game: str
    dice: dict[str, Die]
    to_move: str = "North"
    cube: int | None = None
    winner: str | None = None


@dataclass(frozen=True)
class HopPosition:
    game: str
    size: int
    pieces: dict[str, str]
    reserves: dict[str, int] = field(default_factory=lambda: {"Red": 12, "Turquoise": 12})
    to_move: str = "Red"
    winner: str | None = None


START = (
    "N: A4=5 A5=4 A6=3 A7=1 A8=4 A9=3 A10=5 B4=2 B5=2 B6=2 B7=6 B8=2 B9=2 B10=2 C7=2; "
    "S: F4=5 F5=4 F6=3 F7=1 F8=4 F9=3 F10=5 E4=2 E5=2 E6=2 E7=6 E8=2 E9=2 E10=2 D7=2"
)


def dice_position(text: str, game: str = "Hexalit", **kw: object) -> DicePosition:
    """``N: A7=1 C5=4/2; S: F7=1`` → a stand-in position."""
    dice = {}
    for part in text.split(";"):
        side, _, items = part.strip().partition(":")
        for item in items.split():
            cell, _, value = item.partition("=")
            face, _, home = value.partition("/")
            dice[cell] = Die(
                "North" if side == "N" else "South", int(face), int(home) if home else None
            )
    return DicePosition(game, dice, **kw)  # type: ignore[arg-type]


def hop_position(red: str, turquoise: str, size: int = 6, **kw: object) -> HopPosition:
    pieces = {p: "Red" for p in red.split()}
    pieces.update({p: "Turquoise" for p in turquoise.split()})
    return HopPosition("Hüpfer", size, pieces, **kw)  # type: ignore[arg-type]


def hop_start(size: int) -> HopPosition:
    a, b = "abcdefghij"[size - 2], "abcdefghij"[size - 1]
    far = f"{a}{size - 1} {b}{size - 1} {a}{size} {b}{size}"
    return hop_position("a1 b1 a2 b2", far, size)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def having(root: ET.Element, *classes: str) -> list[ET.Element]:
    """Elements whose class list holds every one of ``classes``."""
    wanted = set(classes)
    return [e for e in root.iter() if wanted <= set(e.get("class", "").split())]


def polygon_points(node: ET.Element) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in node.get("points", "").split()]  # type: ignore


def translate(node: ET.Element) -> tuple[float, float]:
    match = re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\)", node.get("transform", ""))
    assert match, node.get("transform")
    return float(match.group(1)), float(match.group(2))


def area(points: list[tuple[float, float]]) -> float:
    return (
        abs(
            sum(
                x1 * y2 - x2 * y1
                for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1], strict=True)
            )
        )
        / 2
    )


# ---------------------------------------------------------------------------
# Hexalit / Trigeo board


def test_hexagon_has_66_cells_in_two_shades() -> None:
    root = parse(board_svg(dice_position(START)))
    cells = having(root, "cell")
    assert len(cells) == 66
    assert len(having(root, "cell", "up", "light")) == 33
    assert len(having(root, "cell", "down", "dark")) == 33
    names = {c.get("class", "").split()[-1] for c in cells}
    assert len(names) == 66 and {"A3", "A11", "C1", "D13", "F3", "F11"} <= names
    assert having(root, "cell", "up", "light", "A7")
    assert having(root, "cell", "down", "dark", "B7")
    assert having(root, "cell", "down", "dark", "A4")


@pytest.mark.parametrize("flip", [False, True])
def test_triangles_tile_the_hexagon_exactly(flip: bool) -> None:
    root = parse(board_svg(dice_position(START), flip=flip))
    outline = polygon_points(having(root, "outline")[0])
    triangles = [polygon_points(c) for c in having(root, "cell")]
    side = math.dist(triangles[0][0], triangles[0][1])
    for corners in triangles:
        sides = [math.dist(a, b) for a, b in zip(corners, corners[1:] + corners[:1], strict=True)]
        assert all(abs(s - side) < 0.2 for s in sides)  # equilateral, one size
    assert abs(sum(area(t) for t in triangles) - area(outline)) < 1.0
    edges = zip(outline, outline[1:] + outline[:1], strict=True)
    sides = [math.dist(a, b) / side for a, b in edges]
    assert [round(s, 2) for s in sides] == [4, 3, 3, 4, 3, 3]


def test_dice_sit_on_the_centroid_of_their_cell() -> None:
    root = parse(board_svg(dice_position(START)))
    cells = {c.get("class", "").split()[-1]: polygon_points(c) for c in having(root, "cell")}
    dice = having(root, "die")
    assert len(dice) == 30
    for die in dice:
        corners = cells[die.get("data-cell", "")]
        cx = sum(p[0] for p in corners) / 3
        cy = sum(p[1] for p in corners) / 3
        x, y = translate(die)
        assert abs(x - cx) < 0.1 and abs(y - cy) < 0.1


def test_dice_by_side_face_and_cell() -> None:
    position = dice_position(START)
    root = parse(board_svg(position))
    assert len(having(root, "die", "north")) == 15
    assert len(having(root, "die", "south")) == 15
    assert {d.get("data-cell") for d in having(root, "die")} == set(position.dice)
    ones = having(root, "die", "face-1")
    assert sorted(d.get("data-cell", "") for d in ones) == ["A7", "F7"]
    six = having(root, "die", "north", "face-6")[0]
    assert six.get("data-cell") == "B7"
    assert len(having(six, "pip")) == 6


def test_rolled_die_shows_its_home_face() -> None:
    """The rolled face big, the home face on a small die
    towards the apex, and no arrow label that needs a legend."""
    root = parse(board_svg(dice_position("N: A7=1 C5=4/2; S: F7=1")))
    rolled = having(root, "die", "rolled")
    assert [d.get("data-cell") for d in rolled] == ["C5"]
    assert rolled[0].get("data-home") == "2"
    [home] = having(rolled[0], "home")
    assert home.get("data-face") == "2" and len(having(home, "pip")) == 2
    big = rolled[0].find(f"{NS}rect")
    small = home.find(f"{NS}rect")
    assert big is not None and small is not None
    assert float(small.get("width", "")) < float(big.get("width", "")) / 1.5
    # C5 points up: the small die sits above the big one
    assert float(small.get("y", "")) < float(big.get("y", ""))
    assert len(having(rolled[0], "pip")) == 4 + 2
    assert not [t for t in root.iter(f"{NS}text") if "\u2192" in (t.text or "")]
    assert not having(root, "die", "face-1", "rolled")


def test_north_and_south_dice_differ_in_body_and_pips() -> None:
    svg = board_svg(dice_position(START))
    root = parse(svg)
    north = having(root, "die", "north")[0]
    south = having(root, "die", "south")[0]
    body = lambda d: having(d, "body")[0].get("fill")  # noqa: E731
    pip = lambda d: having(d, "pip")[0].get("fill")  # noqa: E731
    assert body(north) == DEFAULT_COLORS["north"] and pip(north) == DEFAULT_COLORS["north-pip"]
    assert body(south) == DEFAULT_COLORS["south"] and pip(south) == DEFAULT_COLORS["south-pip"]


def test_jump_fields_only_in_trigeo() -> None:
    trigeo = parse(board_svg(dice_position(START, "Trigeo")))
    marks = having(trigeo, "jump")
    assert sorted(m.get("class", "").split()[-1] for m in marks) == [
        "C6",
        "C7",
        "C8",
        "D6",
        "D7",
        "D8",
    ]
    assert len(having(trigeo, "cell", "jump-field")) == 6
    hexalit = parse(board_svg(dice_position(START)))
    assert not having(hexalit, "jump") and not having(hexalit, "jump-field")


def test_cube_status_and_winner() -> None:
    root = parse(board_svg(dice_position(START, to_move="South", cube=8)))
    cube = having(root, "cube")
    assert cube and cube[0].get("data-value") == "8"
    assert having(root, "status")[0].text == "South to move"
    assert having(root, "to-move", "south")
    root = parse(board_svg(dice_position(START, winner="North")))
    assert not having(root, "cube")
    assert having(root, "status", "winner")[0].text == "North wins"


def test_flip_turns_the_board_half_round() -> None:
    plain = parse(board_svg(dice_position(START)))
    turned = parse(board_svg(dice_position(START), flip=True))
    view = plain.get("viewBox", "").split()
    width, height = float(view[2]), float(view[3])

    def a7(root: ET.Element) -> tuple[float, float]:
        return translate(having(root, "die", "face-1", "north")[0])

    (x1, y1), (x2, y2) = a7(plain), a7(turned)
    assert y1 < height / 3 < 2 * height / 3 < y2
    assert abs((x1 + x2) - width) < 0.2


# ---------------------------------------------------------------------------
# Hüpfer board


@pytest.mark.parametrize("size", [6, 8, 10])
def test_huepfer_points_lines_and_start(size: int) -> None:
    root = parse(board_svg(hop_start(size)))
    points = having(root, "point")
    assert len(points) == size * size
    assert len(having(root, "line")) == 2 * size
    assert len(having(root, "piece", "red")) == 4
    assert len(having(root, "piece", "turquoise")) == 4
    far = f"{'abcdefghij'[size - 1]}{size}"
    assert having(root, "piece", "turquoise", far)[0].get("data-point") == far
    reserves = {r.get("data-side"): r.get("data-count") for r in having(root, "reserve")}
    assert reserves == {"Red": "12", "Turquoise": "12"}


@pytest.mark.parametrize("size", [6, 8])
def test_click_points_add_a_disc_for_every_point_and_change_nothing_else(size: int) -> None:
    plain = board_svg(hop_start(size))
    clickable = board_svg(hop_start(size), click_points=True)
    assert board_svg(hop_start(size), click_points=False) == plain
    assert clickable.startswith(plain[: -len("</svg>")])
    root = parse(clickable)
    hits = having(root, "hit")
    assert len(hits) == size * size
    assert {h.get("data-point") for h in hits} == {
        f"{f}{r}" for f in "abcdefghij"[:size] for r in range(1, size + 1)
    }
    assert list(root)[-1] is hits[-1]  # on top of everything
    assert all(h.get("fill") == "transparent" for h in hits)
    # a dice board has no such layer: its cells carry data-cell already
    dice = board_svg(dice_position(START))
    assert board_svg(dice_position(START), click_points=True) == dice


def test_huepfer_diamond_orientation() -> None:
    root = parse(board_svg(hop_start(6)))
    at = {
        p.get("class", "").split()[-1]: (float(p.get("cx", 0)), float(p.get("cy", 0)))
        for p in having(root, "point")
    }
    a1, f1, a6, f6 = at["a1"], at["f1"], at["a6"], at["f6"]
    assert a1[1] == max(y for _, y in at.values())  # a1 is the bottom corner
    assert f1[0] > a1[0] and f1[1] < a1[1]  # files run up to the right
    assert a6[0] < a1[0] and a6[1] < a1[1]  # ranks run up to the left
    assert abs(f6[0] - a1[0]) < 0.1 and f6[1] == min(y for _, y in at.values())
    flipped = parse(board_svg(hop_start(6), flip=True))
    a1_flipped = [p for p in having(flipped, "point", "a1")][0]
    assert float(a1_flipped.get("cy", 0)) == pytest.approx(f6[1], abs=0.1)


def test_huepfer_pieces_are_told_apart_without_colour() -> None:
    root = parse(board_svg(hop_start(6)))
    red = having(root, "piece", "red")[0]
    turquoise = having(root, "piece", "turquoise")[0]
    assert red.get("fill") == DEFAULT_COLORS["red"]
    assert turquoise.get("fill") == DEFAULT_COLORS["turquoise-fill"]  # a ring
    assert float(turquoise.get("stroke-width", 0)) >= 6


# ---------------------------------------------------------------------------
# Last action, arrows, highlights


def test_dice_last_action_classes() -> None:
    last = LastAction(
        origin="B6", target="C7", path=("B6", "C7"), captured=("C7",), threatened=("F7",)
    )
    position = dice_position("N: A7=1 C7=2; S: F7=1")
    root = parse(board_svg(position, last=last, arrows=[("C7", "E9")], highlights=["D10"]))
    assert having(root, "last-from", "B6") and having(root, "last-to", "C7")
    assert having(root, "captured", "C7")
    assert having(root, "threat", "F7") and not having(root, "win")
    assert having(root, "arrow", "C7-E9")
    assert having(root, "highlight", "D10")
    won = LastAction(origin="B6", target="C7", threatened=("F7",), win=True)
    assert having(parse(board_svg(position, last=won)), "threat", "win", "F7")


def test_roll_is_marked_on_its_die() -> None:
    position = dice_position("N: A7=1 B5=4/2; S: F7=1")
    root = parse(board_svg(position, last=LastAction(origin="B5", rolled="B5")))
    assert having(root, "last-from", "last-roll", "B5")
    assert having(root, "roll-frame", "B5")


def test_cells_off_the_board_are_not_drawn() -> None:
    position = dice_position("N: A7=1; S: F7=1")
    root = parse(board_svg(position, arrows=[("G1", "A7")], highlights=["A2", "Z9"]))
    assert not having(root, "arrow") and not having(root, "highlight")


def test_huepfer_last_turn_path_and_captures() -> None:
    before = hop_position("a2 b2", "c3 e5", size=6)
    after = hop_position("c4 b2", "e5", size=6, to_move="Turquoise")
    last = describe_last(before, after, HopAction(("a2", "c2", "c4"), ("-", "x")))
    assert last.path == ("a2", "c2", "c4") and last.captured == ("c3",)
    root = parse(board_svg(after, last=last))
    assert having(root, "last-from", "a2") and having(root, "last-to", "c4")
    assert having(root, "captured", "c3") and not having(root, "birth")
    line = having(root, "path")[0].find(f"{NS}polyline")
    assert line is not None and len(line.get("points", "").split()) == 3


def test_huepfer_newborn_piece_is_marked() -> None:
    after = hop_position("c1 b1 a2 b2 d1", "e5 f5 e6 f6")
    last = LastAction(origin="a1", target="c1", path=("a1", "c1"), birth="d1")
    root = parse(board_svg(after, last=last))
    assert having(root, "birth", "d1") and having(root, "piece", "red", "d1")


def test_describe_last_dice_move_capture_and_roll() -> None:
    before = dice_position("N: A7=1 B6=2; S: C7=2 F7=1")
    after = dice_position("N: A7=1 C7=2; S: F7=1", to_move="South")
    last = describe_last(before, after, DiceAction("B6", "capture", "C7", mark="^"))
    assert last == LastAction(
        origin="B6",
        target="C7",
        path=("B6", "C7"),
        captured=("C7",),
        threatened=("F7",),
        captured_side="South",
    )
    last = describe_last(before, after, DiceAction("B6", "capture", "C7"), threatened=["F8"])
    assert last.threatened == ("F8",) and not last.win
    rolled = dice_position("N: A7=1 B6=5/2; S: C7=2 F7=1", to_move="South")
    last = describe_last(before, rolled, DiceAction("B6", "roll", face=5))
    assert last == LastAction(origin="B6", rolled="B6", rolled_home=True)
    won = dice_position("N: A7=1 C7=2; S: F7=1", winner="North")
    assert describe_last(before, won, DiceAction("B6", "capture", "C7", mark="+")).win


def test_describe_last_hop_with_birth_and_captures() -> None:
    before = hop_position("a1 b1 a2 b2", "e5 f5 e6 f6")
    after = hop_position("c1 b1 a2 b2 d1", "e5 f5 e6 f6", to_move="Turquoise")
    last = describe_last(before, after, HopAction(("a1", "c1"), ("-",), "d1"))
    assert last == LastAction(origin="a1", target="c1", path=("a1", "c1"), birth="d1")
    before = hop_position("c3", "c4 d5")
    after = hop_position("e5", "", winner="Red")
    last = describe_last(before, after, HopAction(("c3", "c5", "e5"), ("x", "x")))
    assert last.captured == ("c4", "d5") and last.win and last.target == "e5"
    assert last.captured_side == "Turquoise"


# ---------------------------------------------------------------------------
# Output properties


def test_same_input_same_bytes() -> None:
    position = dice_position(START, cube=2)
    last = LastAction(origin="B6", target="C6", path=("B6", "C6"))
    one = board_svg(position, last=last, title="Round 3", ply=7, position_text="N: A7=1")
    two = board_svg(
        dice_position(START, cube=2), last=last, title="Round 3", ply=7, position_text="N: A7=1"
    )
    assert one == two
    reordered = DicePosition("Hexalit", dict(reversed(list(position.dice.items()))), cube=2)
    assert board_svg(reordered) == board_svg(position)
    hop = hop_start(8)
    assert board_svg(hop, flip=True) == board_svg(hop_start(8), flip=True)


def test_text_is_escaped() -> None:
    evil = '<script>alert("x")</script> & co'
    svg = board_svg(dice_position(START), title=evil, position_text='N: "A7=1" <b>')
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    root = parse(svg)
    assert having(root, "title")[0].text == evil
    assert root.find(f"{NS}title").text == evil  # type: ignore[union-attr]
    assert root.get("data-position") == 'N: "A7=1" <b>'
    hop = parse(board_svg(hop_start(6), title=evil))
    assert having(hop, "title")[0].text == evil


def test_root_size_and_data_attributes() -> None:
    root = parse(board_svg(hop_start(6), size=321, ply=12, position_text="R: a1"))
    assert root.get("width") == "321" and root.get("data-ply") == "12"
    assert root.get("data-position") == "R: a1" and root.get("data-game") == "Hüpfer"
    assert root.find(f"{NS}style") is not None
    assert "data-ply" not in board_svg(hop_start(6))


def test_colour_overrides() -> None:
    svg = board_svg(dice_position(START), colors={"light": "#123456"})
    assert having(parse(svg), "cell", "light")[0].get("fill") == "#123456"
    with pytest.raises(ValueError, match="unknown colour role"):
        board_svg(dice_position(START), colors={"lite": "#123456"})


def test_unknown_game_is_refused() -> None:
    with pytest.raises(ValueError, match="Hüpfer"):
        board_svg(DicePosition("Chess", {}))


# ---------------------------------------------------------------------------
# With the engines' own positions


@pytest.mark.parametrize("game", ["Hexalit", "Trigeo"])
def test_engine_dice_start_position(game: str) -> None:
    from hexhop.engine.games import rules_for

    root = parse(board_svg(rules_for(game).start({}, None)))
    assert len(having(root, "die", "north")) == 15 and len(having(root, "die", "south")) == 15
    assert sorted(d.get("data-cell", "") for d in having(root, "die", "face-1")) == ["A7", "F7"]


@pytest.mark.parametrize("board,size", [("6x6", 6), ("8x8", 8), ("10x10", 10)])
def test_engine_huepfer_start_position(board: str, size: int) -> None:
    from hexhop.engine.games import rules_for

    root = parse(board_svg(rules_for("Hüpfer").start({"Board": board}, None)))
    assert len(having(root, "point")) == size * size
    assert len(having(root, "piece")) == 8
