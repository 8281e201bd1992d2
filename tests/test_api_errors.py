"""Actions as text, and one exception root."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

import click
import pytest

import hexhop
from hexhop.messages.catalogue import package_dir
from hexhop.notation import CubeAnswer, CubeOffer

START = "N: A7=1 C7=2; S: F7=1 D6=2; turn: N"
# every package of hexhop, as pyproject.toml maps the folders: the facade's
# own modules (hexhop.games…) and the subpackages
PACKAGES = tuple(package_dir(Path(__file__).resolve().parent.parent / "pyproject.toml"))
# the exceptions that are not errors of the library, each with the reason
NOT_ERRORS = {
    # BaseException-based signals that unwind a run; ``except hexhop.Error`` must not stop them
    "hexhop.engine.deadline.OutOfTime": "the deadline passed, caught where the work began",
    "hexhop.cli.interrupt.Terminated": "SIGTERM raised as Ctrl-C (a KeyboardInterrupt)",
    # click's exceptions of the command line, printed by click with exit 1 or 2
    "hexhop.cli.render_cmd.Unreadable": "a click.ClickException of the render command",
    "hexhop.cli.render_cmd.MissingExtra": "a click.ClickException of the render command",
    "hexhop.cli.stats_cmd.Refused": "a click.ClickException of the stats command",
    "hexhop.cli.crosstable_cmd.NamesRefused": "a click.ClickException of the standings commands",
    "hexhop.cli.safe_write.ExistsError": "a click.ClickException of the commands that write",
}


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


def _modules() -> list[str]:
    """Every module of every package of hexhop (programs, ``__main__``, aside)."""
    names: list[str] = []
    for name in PACKAGES:
        package = importlib.import_module(name)
        names.append(package.__name__)
        walk = pkgutil.iter_modules if name == "hexhop" else pkgutil.walk_packages
        for info in walk(package.__path__, f"{package.__name__}."):
            if info.name.rsplit(".", 1)[-1] != "__main__":
                names.append(info.name)
    return names


def _exceptions() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for name in _modules():
        module = importlib.import_module(name)
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == module.__name__
            ):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return found


def test_every_exception_of_the_package_is_a_hexhop_error() -> None:
    found = _exceptions()
    assert {
        "hexhop.notation.findings.NotationError",
        "hexhop.engine.base.HeaderError",
        "hexhop.engine.base.IllegalAction",
        "hexhop.records.errors.RecordsError",
        "hexhop.notation.games.UnknownGame",
        "hexhop.games.NoSuchPly",
        "hexhop.archive.writing.WriteError",
        "hexhop.archive.writing.Exists",
        "hexhop.archive.writing.OverInputError",
    } <= set(found)
    outside = sorted(name for name, cls in found.items() if not issubclass(cls, hexhop.Error))
    assert outside == sorted(NOT_ERRORS)
    for name in NOT_ERRORS:  # signals that are no Exception, or click's own
        cls = found[name]
        assert not issubclass(cls, Exception) or issubclass(cls, click.ClickException), name


def test_the_root_and_its_exports() -> None:
    assert hexhop.Error.__module__ == "hexhop.notation.errors"
    assert {"Error", "IllegalAction"} <= set(hexhop.__all__)
    assert issubclass(hexhop.IllegalAction, ValueError)
    for name in hexhop.__all__:
        value = getattr(hexhop, name)
        if inspect.isclass(value) and issubclass(value, BaseException):
            assert issubclass(value, hexhop.Error), name


def test_no_module_of_the_library_raises_a_bare_builtin_value_error() -> None:
    """A wrong value given to a function is an ArgumentError (a hexhop.Error
    and a ValueError), never a plain ValueError no ``except hexhop.Error`` sees."""
    root = Path(__file__).resolve().parent.parent
    folders = ("api", "notation", "engine", "render", "records", "archive")
    raising = [
        f"{path.relative_to(root)}:{number}"
        for folder in folders
        for path in sorted((root / folder).rglob("*.py"))
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if "raise ValueError(" in line
    ]
    assert raising == []


@pytest.mark.parametrize(
    "call",
    [
        lambda: hexhop.ReadLimits(max_depth=0),
        lambda: hexhop.svg(
            hexhop.position("Hexalit", "N: A7=1; S: F7=1; turn: N"), colors={"darkk": "red"}
        ),
        lambda: __import__("hexhop.render.sequence", fromlist=["gif"]).gif([], size=100),
    ],
    ids=["limits", "colour-role", "no-frames"],
)
def test_a_value_a_function_does_not_take_is_an_argument_error(call) -> None:
    with pytest.raises(hexhop.ArgumentError) as raised:
        call()
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, hexhop.Error)
