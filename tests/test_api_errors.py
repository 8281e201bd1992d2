"""Issue 24, section 3: actions as text, and one exception root."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import hexhop
from hexhop.notation import CubeAnswer, CubeOffer

START = "N: A7=1 C7=2; S: F7=1 D6=2; turn: N"
# the library's packages; cli/ keeps click's exceptions, messages/ has none
LIBRARY = ("notation", "engine", "records", "archive", "render")


@pytest.fixture
def p() -> hexhop.Position:
    return hexhop.position("Hexalit", START)


def test_check_takes_the_text_of_every_legal_action(p: hexhop.Position) -> None:
    rules = hexhop.rules_for("Hexalit")
    texts = hexhop.legal_actions(p)
    assert "C7W1" in texts
    assert all(rules.check(p, text) is None for text in texts)


def test_play_takes_text(p: hexhop.Position) -> None:
    rules = hexhop.rules_for("Hexalit")
    after = rules.play(p, "C7°D6")
    assert after.position.text() == "N: A7=1 D6=2; S: F7=1; turn: S"
    assert rules.check(p, "C7XD6").code == "IL01"


@pytest.mark.parametrize("text", ["C7XD6", "C7°D7", "Z9W1", "=", "d", "C7W1 C7W2", "zz", ""])
def test_play_refuses_with_illegal_action(p: hexhop.Position, text: str) -> None:
    rules = hexhop.rules_for("Hexalit")
    with pytest.raises(hexhop.IllegalAction) as caught:
        rules.play(p, text)
    error = caught.value
    assert isinstance(error, ValueError) and isinstance(error, hexhop.Error)
    assert error.action == text and error.code and error.reason
    assert error.reason in str(error)
    if error.illegal is not None:  # an action the rules forbid: check's reason
        assert rules.check(p, text) == error.illegal


def test_text_that_is_no_action_is_refused_by_check(p: hexhop.Position) -> None:
    with pytest.raises(hexhop.IllegalAction) as caught:
        hexhop.rules_for("Hexalit").check(p, "C7W1 C7W2")
    assert caught.value.code.startswith("SY") and caught.value.illegal is None


def test_cube_events_are_checked_before_they_are_played(p: hexhop.Position) -> None:
    rules = hexhop.rules_for("Hexalit")
    with pytest.raises(hexhop.IllegalAction) as caught:
        rules.play(p, CubeAnswer(take=True))  # was AssertionError: no offer to answer
    assert caught.value.code == "IL03"
    offered = rules.play(p, CubeOffer()).position
    assert rules.play(offered, CubeAnswer(take=True)).position.winner is None
    with pytest.raises(hexhop.IllegalAction):
        hexhop.rules_for("Trigeo").play(hexhop.position("Trigeo", START), CubeOffer())


def test_huepfer_takes_text_and_refuses_with_illegal_action() -> None:
    rules = hexhop.rules_for("Hüpfer")
    start = rules.start({}, None)
    first = hexhop.legal_actions(start)[0]
    assert rules.check(start, first) is None
    assert rules.play(start, first).position.ply == 1
    for text in ("a1-c1", "C7W1", "zz"):
        with pytest.raises(hexhop.IllegalAction):
            rules.play(start, text)


def test_a_missing_file_is_a_hexhop_error(tmp_path) -> None:
    with pytest.raises(hexhop.Error) as caught:
        list(hexhop.read_games(tmp_path / "missing.hxl"))
    assert isinstance(caught.value, hexhop.NotationError)
    assert caught.value.finding.code.startswith("IO")


def _library_exceptions() -> list[type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for name in LIBRARY:
        package = importlib.import_module(f"hexhop.{name}")
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if info.name.rsplit(".", 1)[-1] == "__main__":
                continue  # a program, not a module to import
            module = importlib.import_module(info.name)
            for value in vars(module).values():
                if (
                    inspect.isclass(value)
                    and issubclass(value, Exception)
                    and value.__module__ == module.__name__
                ):
                    found[f"{value.__module__}.{value.__qualname__}"] = value
    return list(found.values())


def test_every_library_exception_is_a_hexhop_error() -> None:
    classes = _library_exceptions()
    names = {cls.__name__ for cls in classes}
    assert {"NotationError", "HeaderError", "IllegalAction", "RecordsError"} <= names
    outside = sorted(
        c.__module__ + "." + c.__qualname__ for c in classes if not issubclass(c, hexhop.Error)
    )
    assert outside == []


def test_the_root_and_its_exports() -> None:
    assert hexhop.Error.__module__ == "hexhop.notation.errors"
    assert {"Error", "IllegalAction"} <= set(hexhop.__all__)
    assert issubclass(hexhop.IllegalAction, ValueError)
    for name in hexhop.__all__:
        value = getattr(hexhop, name)
        if inspect.isclass(value) and issubclass(value, BaseException):
            assert issubclass(value, hexhop.Error), name
