"""The output formats of ``hexhop check``: text, json, jsonl, junit.

Each reporter is fed one :class:`FileResult` at a time, in input order,
and writes the summary at the end. Only ``json`` and ``junit`` hold the
results until the end (they are single documents); the others stream.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO
from xml.etree import ElementTree as ET

from hexhop.messages import N_, _

from .checking import FileResult
from .text import counted, printable, source_window, style

#: Characters XML 1.0 cannot hold, not even escaped (ElementTree writes them
#: as they are, which makes the document unreadable).
#: Lone surrogates: bytes of file or member names that are not UTF-8, which
#: no UTF-8 output can hold.
_SURROGATE = re.compile("[\ud800-\udfff]")
#: Columns of a source line shown under a finding.
SOURCE_COLUMNS = 100
#: Files named in the summary line of games that are valid with warnings.
WARNED_SHOWN = 10
#: The severity words of the text report (the machine formats keep the English ones).
SEVERITIES = {"error": N_("error"), "warning": N_("warning")}


@dataclass
class Summary:
    files: int = 0
    unreadable: int = 0
    games: int = 0
    valid: int = 0
    invalid: int = 0
    plies: int = 0
    findings: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    # games valid but with warnings, and the first files (with game numbers) they are in
    warned: int = 0
    warned_files: list[str] = field(default_factory=list)

    def add(self, result: FileResult) -> None:
        self.files += 1
        if result.error:
            self.unreadable += 1
            self.findings[result.error["code"]] += 1
        for game in result.games:
            self.games += 1
            self.plies += game["plies"]
            if game["valid"]:
                self.valid += 1
                if game["findings"]:
                    self._warned(result, game["index"])
            else:
                self.invalid += 1
            self.findings.update(f["code"] for f in game["findings"])

    def _warned(self, result: FileResult, index: int) -> None:
        self.warned += 1
        if len(self.warned_files) < WARNED_SHOWN:
            game = _(" (game {index})").format(index=index) if len(result.games) > 1 else ""
            self.warned_files.append(result.path + game)

    def as_dict(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "unreadable": self.unreadable,
            "games": self.games,
            "valid": self.valid,
            "invalid": self.invalid,
            "plies": self.plies,
            "findings": dict(sorted(self.findings.items())),
            "seconds": round(self.seconds, 3),
        }


class Reporter:
    """Base: count everything; subclasses write."""

    def __init__(
        self,
        out: TextIO,
        *,
        color: bool = False,
        quiet: bool = False,
        max_findings: int | None = None,
    ) -> None:
        self.out = out
        self.color = color
        self.quiet = quiet
        self.max_findings = max_findings
        self.summary = Summary()

    def file(self, result: FileResult) -> None:
        self.summary.add(result)

    def finish(self) -> None:
        pass


class TextReporter(Reporter):
    """``path:line:col: CODE message``, a window of the source line with a
    caret, at most ``max_findings`` findings per game, a summary."""

    def file(self, result: FileResult) -> None:
        super().file(result)
        if self.quiet:
            return
        if result.error:
            self._finding(result, result.error)
        elif not result.games:
            self._echo(
                _("{path}: this file holds no game (it is empty, or holds only comments)").format(
                    path=self._style(printable(result.path), bold=True)
                )
            )
        for game in result.games:
            findings = game["findings"]
            shown = findings if self.max_findings is None else findings[: self.max_findings]
            for finding in shown:
                self._finding(result, finding, game["index"])
            if len(findings) > len(shown):
                where = (
                    _(" of game {index}").format(index=game["index"])
                    if len(result.games) > 1
                    else ""
                )
                self._echo(
                    _(
                        "{path}: ... {count} more findings{where} not shown "
                        "(--max-findings {limit})"
                    ).format(
                        path=printable(result.path),
                        count=len(findings) - len(shown),
                        where=where,
                        limit=self.max_findings,
                    )
                )

    def _finding(
        self, result: FileResult, finding: dict[str, Any], game: int | None = None
    ) -> None:
        place = printable(result.path)
        if finding["line"]:
            place += f":{finding['line']}:{finding['column']}"
        severity = finding["severity"]
        code = self._style(
            f"{_(SEVERITIES.get(severity, severity))} {finding['code']}",
            fg="red" if severity == "error" else "yellow",
            bold=True,
        )
        where = _(" (game {index})").format(index=game) if game and len(result.games) > 1 else ""
        self._echo(
            f"{self._style(place, bold=True)}: {code} {printable(finding['message'])}{where}"
        )
        source = result.sources.get(finding["line"] or 0)
        if source is not None:
            self._echo(caret_lines(source, finding["column"], finding.get("action"), self._style))

    def _style(self, text: str, **styles: Any) -> str:
        return style(text, **styles) if self.color else text

    def _echo(self, text: str) -> None:
        self.out.write(text + "\n")

    def finish(self) -> None:
        s = self.summary
        if not self.quiet and s.findings.total():
            self._echo("")
        invalid = _("{count} invalid").format(count=s.invalid)
        verdict = self._style(invalid, fg="red", bold=True) if s.invalid else invalid
        warned = _(" ({count} with warnings)").format(count=s.warned) if s.warned else ""
        unreadable = _(", {count} unreadable").format(count=s.unreadable) if s.unreadable else ""
        self._echo(
            _(
                "Checked {files}, {games}, {plies} in {seconds} s: "
                "{valid} valid{warned}, {invalid}{unreadable}."
            ).format(
                files=counted(s.files, "file"),
                games=counted(s.games, "game"),
                plies=counted(s.plies, "ply"),
                seconds=f"{s.seconds:.2f}",
                valid=s.valid,
                warned=warned,
                invalid=verdict,
                unreadable=unreadable,
            )
        )
        if s.warned:
            more = s.warned - len(s.warned_files)
            self._echo(
                _("Valid with warnings: {files}").format(
                    files=", ".join(printable(path) for path in s.warned_files)
                )
                + (_(" and {count} more").format(count=more) if more else "")
            )
        if s.findings:
            counts = ", ".join(f"{code} ×{n}" for code, n in sorted(s.findings.items()))
            self._echo(_("Findings: {counts}").format(counts=counts))


def caret_lines(
    source: str, column: int | None, action: str | None, style: Callable[..., str]
) -> str:
    """A window of the source line and a caret (or a run of carets under the action)."""
    col = max(1, column or 1)
    length = len(action) if action and source[col - 1 : col - 1 + len(action)] == action else 1
    text, before, width = source_window(source, col, length, SOURCE_COLUMNS)
    gutter = "    | "
    return f"{gutter}{text}\n{gutter}{' ' * before}{style('^' * width, fg='green', bold=True)}"


class JsonReporter(Reporter):
    """One JSON document, written at the end."""

    def __init__(self, out: TextIO, **options: Any) -> None:
        super().__init__(out, **options)
        self.files: list[dict[str, Any]] = []

    def file(self, result: FileResult) -> None:
        super().file(result)
        self.files.append(file_dict(result))

    def finish(self) -> None:
        self.out.write(
            _json({"files": self.files, "summary": self.summary.as_dict()}, indent=1) + "\n"
        )


class JsonLinesReporter(Reporter):
    """One game object per line, each with its ``path``, as files finish."""

    def file(self, result: FileResult) -> None:
        super().file(result)
        if result.error:
            self._line({"path": result.path, "error": result.error})
        for game in result.games:
            self._line({"path": result.path, **game})

    def _line(self, obj: dict[str, Any]) -> None:
        self.out.write(_json(obj) + "\n")
        self.out.flush()

    def finish(self) -> None:
        self._line({"summary": self.summary.as_dict()})


class JunitReporter(Reporter):
    """JUnit XML: a test suite per file, a test case per game."""

    def __init__(self, out: TextIO, **options: Any) -> None:
        super().__init__(out, **options)
        self.root = ET.Element("testsuites", name="hexhop check")

    def file(self, result: FileResult) -> None:
        super().file(result)
        path = _xml(result.path)
        suite = ET.SubElement(self.root, "testsuite", name=path)
        if result.error:
            case = ET.SubElement(suite, "testcase", classname=path, name="read")
            ET.SubElement(
                case, "error", message=_xml(result.error["message"]), type=result.error["code"]
            )
        for game in result.games:
            self._case(suite, path, game)
        failures = sum(1 for g in result.games if not g["valid"])
        suite.set("tests", str(len(result.games) + bool(result.error)))
        suite.set("failures", str(failures))
        suite.set("errors", str(int(bool(result.error))))

    def _case(self, suite: ET.Element, path: str, game: dict[str, Any]) -> None:
        players = " vs ".join(game.get("players") or [])
        name = f"game {game['index']}" + (f": {players}" if players else "")
        case = ET.SubElement(suite, "testcase", classname=path, name=_xml(name))
        if not game["valid"]:
            text = "\n".join(
                f"{f['line']}:{f['column']}: {f['code']} {f['message']}" for f in game["findings"]
            )
            first = next(
                (f for f in game["findings"] if f["severity"] == "error"),
                game["findings"][0] if game["findings"] else None,
            )
            failure = ET.SubElement(
                case,
                "failure",
                message=_xml(first["message"]) if first else "invalid",
                type=first["code"] if first else "invalid",
            )
            failure.text = _xml(text)

    def finish(self) -> None:
        s = self.summary
        self.root.set("tests", str(s.games + s.unreadable))
        self.root.set("failures", str(s.invalid))
        self.root.set("errors", str(s.unreadable))
        self.root.set("time", f"{s.seconds:.3f}")
        ET.indent(self.root)
        self.out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        self.out.write(ET.tostring(self.root, encoding="unicode") + "\n")


def _json(obj: object, indent: int | None = None) -> str:
    """``obj`` as JSON that UTF-8 can hold: a byte of a name that is not
    UTF-8 becomes U+FFFD."""
    return _SURROGATE.sub("\ufffd", json.dumps(obj, ensure_ascii=False, indent=indent))


def _xml(text: str) -> str:
    """``text`` with the characters XML cannot hold replaced by U+FFFD, as
    in every picture and page hexhop writes."""
    from hexhop.render.svg_parts import xml_chars

    return xml_chars(text)


def file_dict(result: FileResult) -> dict[str, Any]:
    data: dict[str, Any] = {"path": result.path, "games": result.games}
    if result.error:
        data["error"] = result.error
    return data


REPORTERS = {
    "text": TextReporter,
    "json": JsonReporter,
    "jsonl": JsonLinesReporter,
    "junit": JunitReporter,
}
