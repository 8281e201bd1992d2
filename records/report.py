"""The output formats of ``hexhop check``: text, json, jsonl, junit.

Each reporter is fed the results of one file at a time, in input order,
and writes the summary at the end. A file's result may come in pieces
(:meth:`Reporter.add`, then :meth:`Reporter.end`): its report is written
to a spool as the pieces come (memory up to :data:`SPOOL_BYTES`, a
temporary file beyond) and copied out whole when the file ends, so that
memory stays flat however many games a file holds, and the report is the
same byte for byte as when the file came whole. ``junit`` holds its test
suites in such a spool until the end: the totals come first.
"""

from __future__ import annotations

import shutil
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any, TextIO
from xml.etree import ElementTree as ET

from hexhop.messages import N_, _
from hexhop.messages import number as decimal

from .checking import FileResult
from .text import counted, json_text, printable, source_window, style, writes_unicode

#: Columns of a source line shown under a finding.
SOURCE_COLUMNS = 100
#: Files named in the summary line of games that are valid with warnings.
WARNED_SHOWN = 10
#: The severity words of the text report (the machine formats keep the English ones).
SEVERITIES = {"error": N_("error"), "warning": N_("warning")}
#: Characters of a report held in memory before its spool moves to a temporary file.
SPOOL_BYTES = 1024 * 1024


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
        """Count one whole file."""
        self.add_file(result.error)
        self.add_games(result.path, result.games, len(result.games) > 1)

    def add_file(self, error: dict[str, Any] | None) -> None:
        self.files += 1
        if error:
            self.unreadable += 1
            self.findings[error["code"]] += 1

    def add_games(self, path: str, games: list[dict[str, Any]], several: bool) -> None:
        """Count games of the file ``path``; ``several``: it holds more than one."""
        for game in games:
            self.games += 1
            self.plies += game["plies"]
            if game["valid"]:
                self.valid += 1
                if game["findings"]:
                    self._warned(path, game["index"], several)
            else:
                self.invalid += 1
            self.findings.update(f["code"] for f in game["findings"])

    def add_counts(self, other: Summary) -> None:
        """Add the game counts of ``other`` (the games of one file)."""
        self.games += other.games
        self.valid += other.valid
        self.invalid += other.invalid
        self.plies += other.plies
        self.findings.update(other.findings)
        self.warned += other.warned
        self.warned_files.extend(other.warned_files[: WARNED_SHOWN - len(self.warned_files)])

    def _warned(self, path: str, index: int, several: bool) -> None:
        self.warned += 1
        if len(self.warned_files) < WARNED_SHOWN:
            game = _(" (game {index})").format(index=index) if several else ""
            self.warned_files.append(path + game)

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


@dataclass
class _OpenFile:
    """The file whose pieces are coming in: what is known of it so far."""

    path: str
    error: dict[str, Any] | None = None
    games: int = 0
    held: FileResult | None = None  # the first piece, until it is known whether more follow
    tally: Summary = field(default_factory=Summary)  # its games, counted when it ends
    spool: IO[str] | None = None  # its report so far


class Reporter:
    """Base: count everything; subclasses write.

    A file comes whole (:meth:`file`) or in pieces, each a
    :class:`FileResult` of the same path with the next games
    (:meth:`add`), then :meth:`end`. A piece with ``replaces`` set stands
    for the whole file: what came before it is dropped.
    """

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
        self._open: _OpenFile | None = None

    def file(self, result: FileResult) -> None:
        """One file's whole result."""
        self.add(result)
        self.end()

    def add(self, piece: FileResult) -> None:
        """The next piece of the current file's result."""
        if self._open is None or piece.replaces:
            self._drop(self._open)
            self._open = _OpenFile(piece.path)
        current = self._open
        current.error = current.error or piece.error
        if not piece.games:
            return
        if current.held is None and not current.games:
            current.held = piece  # whether the file has several games decides the words
        else:
            self._release(current, several=True)
            self._piece(current, piece, several=True)
        current.games += len(piece.games)

    def end(self) -> None:
        """The current file is complete: count it and write its report."""
        current, self._open = self._open, None
        if current is None:
            return
        self._release(current, several=current.games > 1)
        self.summary.add_file(current.error)
        self.summary.add_counts(current.tally)
        self._write(current)
        self._drop(current)

    def finish(self) -> None:
        """Write the summary; a file not ended (the run was stopped) is left out."""
        self._drop(self._open)
        self._open = None

    def _release(self, current: _OpenFile, several: bool) -> None:
        if current.held is not None:
            held, current.held = current.held, None
            self._piece(current, held, several)

    def _piece(self, current: _OpenFile, piece: FileResult, several: bool) -> None:
        """Count the games of ``piece`` and write their report to the spool."""
        current.tally.add_games(piece.path, piece.games, several)

    def _spool(self, current: _OpenFile) -> IO[str]:
        if current.spool is None:
            current.spool = _new_spool()
        return current.spool

    def _copy(self, spool: IO[str] | None, out: IO[str]) -> None:
        if spool is not None:
            spool.seek(0)
            shutil.copyfileobj(spool, out)

    def _write(self, current: _OpenFile) -> None:
        pass

    @staticmethod
    def _drop(current: _OpenFile | None) -> None:
        if current is not None and current.spool is not None:
            current.spool.close()
            current.spool = None


def _new_spool() -> IO[str]:
    # surrogatepass: a name that is not UTF-8 comes back out as it went in
    return tempfile.SpooledTemporaryFile(
        max_size=SPOOL_BYTES, mode="w+", encoding="utf-8", errors="surrogatepass", newline=""
    )


class TextReporter(Reporter):
    """``path:line:col: CODE message``, a window of the source line with a
    caret, at most ``max_findings`` findings per game, a summary."""

    def _piece(self, current: _OpenFile, piece: FileResult, several: bool) -> None:
        super()._piece(current, piece, several)
        if self.quiet:
            return
        lines: list[str] = []
        for game in piece.games:
            findings = game["findings"]
            shown = findings if self.max_findings is None else findings[: self.max_findings]
            where = _(" (game {index})").format(index=game["index"]) if several else ""
            for finding in shown:
                lines.append(self._finding(piece.path, finding, where, piece.sources))
            if len(findings) > len(shown):
                lines.append(
                    _(
                        "{path}: ... {count} more findings{where} not shown "
                        "(--max-findings {limit})"
                    ).format(
                        path=printable(piece.path),
                        count=len(findings) - len(shown),
                        where=_(" of game {index}").format(index=game["index"]) if several else "",
                        limit=self.max_findings,
                    )
                )
        if lines:
            self._spool(current).write("".join(line + "\n" for line in lines))

    def _write(self, current: _OpenFile) -> None:
        if self.quiet:
            return
        if current.error:
            self._echo(self._finding(current.path, current.error, "", {}))
        elif not current.games:
            self._echo(
                _("{path}: this file holds no game (it is empty, or holds only comments)").format(
                    path=self._style(printable(current.path), bold=True)
                )
            )
        self._copy(current.spool, self.out)

    def _finding(
        self, path: str, finding: dict[str, Any], where: str, sources: dict[int, str]
    ) -> str:
        """The lines of one finding (without the last line end)."""
        place = printable(path)
        if finding["line"]:
            place += f":{finding['line']}:{finding['column']}"
        severity = finding["severity"]
        code = self._style(
            f"{_(SEVERITIES.get(severity, severity))} {finding['code']}",
            fg="red" if severity == "error" else "yellow",
            bold=True,
        )
        text = f"{self._style(place, bold=True)}: {code} {printable(finding['message'])}{where}"
        source = sources.get(finding["line"] or 0)
        if source is not None:
            text += "\n" + caret_lines(
                source, finding["column"], finding.get("action"), self._style
            )
        return text

    def _style(self, text: str, **styles: Any) -> str:
        return style(text, **styles) if self.color else text

    def _echo(self, text: str) -> None:
        self.out.write(text + "\n")

    def finish(self) -> None:
        super().finish()
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
                seconds=decimal(s.seconds, 2),
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


class _JsonWriter(Reporter):
    """Base of the JSON reports: JSON that a terminal cannot act on
    (:func:`.text.json_text`), ASCII with escapes for an output that is
    not Unicode (``PYTHONIOENCODING=latin-1``), so that it stays JSON."""

    def __init__(self, out: TextIO, **options: Any) -> None:
        super().__init__(out, **options)
        self.ascii_only = not writes_unicode(out)

    def _json(self, obj: object, indent: int | None = None) -> str:
        return json_text(obj, indent=indent, ascii_only=self.ascii_only)

    def _nested(self, obj: object, depth: int) -> str:
        """``obj`` as JSON with ``indent=1``, as it is written ``depth`` levels deep."""
        return self._json(obj, indent=1).replace("\n", "\n" + " " * depth)


class JsonReporter(_JsonWriter):
    """One JSON document, each file's object written as the file ends (the
    summary comes last): the text of ``json.dumps(document, indent=1)``."""

    def __init__(self, out: TextIO, **options: Any) -> None:
        super().__init__(out, **options)
        self.started = False

    def _piece(self, current: _OpenFile, piece: FileResult, several: bool) -> None:
        written = current.tally.games
        super()._piece(current, piece, several)
        spool = self._spool(current)
        for number, game in enumerate(piece.games, written):
            spool.write((",\n" if number else "") + "    " + self._nested(game, 4))

    def _write(self, current: _OpenFile) -> None:
        out = self.out
        out.write(",\n  {\n" if self.started else '{\n "files": [\n  {\n')
        self.started = True
        out.write(f'   "path": {self._json(current.path)},\n   "games": ')
        if current.games:
            out.write("[\n")
            self._copy(current.spool, out)
            out.write("\n   ]")
        else:
            out.write("[]")
        if current.error:
            out.write(f',\n   "error": {self._nested(current.error, 3)}')
        out.write("\n  }")

    def finish(self) -> None:
        super().finish()
        summary = self._nested(self.summary.as_dict(), 1)
        head = "\n ],\n" if self.started else '{\n "files": [],\n'
        self.out.write(f'{head} "summary": {summary}\n}}\n')


class JsonLinesReporter(_JsonWriter):
    """One game object per line, each with its ``path``, as files finish."""

    def _piece(self, current: _OpenFile, piece: FileResult, several: bool) -> None:
        super()._piece(current, piece, several)
        spool = self._spool(current)
        for game in piece.games:
            spool.write(self._json({"path": piece.path, **game}) + "\n")

    def _write(self, current: _OpenFile) -> None:
        if current.error:
            self.out.write(self._json({"path": current.path, "error": current.error}) + "\n")
        self._copy(current.spool, self.out)
        self.out.flush()

    def finish(self) -> None:
        super().finish()
        self.out.write(self._json({"summary": self.summary.as_dict()}) + "\n")
        self.out.flush()


class JunitReporter(Reporter):
    """JUnit XML: a test suite per file, a test case per game; the text of
    ``ElementTree.indent`` and ``tostring`` on the whole document."""

    def __init__(self, out: TextIO, **options: Any) -> None:
        super().__init__(out, **options)
        self.suites: IO[str] | None = None  # the test suites so far

    def _piece(self, current: _OpenFile, piece: FileResult, several: bool) -> None:
        super()._piece(current, piece, several)
        path = _xml(piece.path)
        spool = self._spool(current)
        for game in piece.games:
            spool.write("\n    " + _tag(_case(path, game), 2))

    def _write(self, current: _OpenFile) -> None:
        path = _xml(current.path)
        tests = current.games + bool(current.error)
        attributes = {
            "name": path,
            "tests": str(tests),
            "failures": str(current.tally.invalid),
            "errors": str(int(bool(current.error))),
        }
        if self.suites is None:
            self.suites = _new_spool()
        suites = self.suites
        if not tests:
            suites.write("\n  " + _tag(ET.Element("testsuite", attributes), 1))
            return
        suites.write("\n  " + _tag(ET.Element("testsuite", attributes), 1, start=True))
        if current.error:
            case = ET.Element("testcase", classname=path, name="read")
            error = current.error
            ET.SubElement(case, "error", message=_xml(error["message"]), type=error["code"])
            suites.write("\n    " + _tag(case, 2))
        self._copy(current.spool, suites)
        suites.write("\n  </testsuite>")

    def finish(self) -> None:
        super().finish()
        s = self.summary
        root = ET.Element("testsuites", name="hexhop check")
        root.set("tests", str(s.games + s.unreadable))
        root.set("failures", str(s.invalid))
        root.set("errors", str(s.unreadable))
        root.set("time", f"{s.seconds:.3f}")
        self.out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        if self.suites is None:
            self.out.write(_tag(root, 0) + "\n")
            return
        self.out.write(_tag(root, 0, start=True))
        self._copy(self.suites, self.out)
        self.suites.close()
        self.suites = None
        self.out.write("\n</testsuites>\n")


def _case(path: str, game: dict[str, Any]) -> ET.Element:
    players = " vs ".join(game.get("players") or [])
    name = f"game {game['index']}" + (f": {players}" if players else "")
    case = ET.Element("testcase", classname=path, name=_xml(name))
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
    return case


def _tag(element: ET.Element, level: int, start: bool = False) -> str:
    """``element`` as ``ElementTree.indent`` at ``level`` and ``tostring``
    write it; ``start``: only its start tag (its children follow apart)."""
    if start:
        return ET.tostring(element, encoding="unicode")[: -len(" />")] + ">"
    ET.indent(element, level=level)
    return ET.tostring(element, encoding="unicode")


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
