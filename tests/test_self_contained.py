"""The project speaks only of itself: no file names an issue by its number.

Code, tests and documents name the promise they keep (the web app's safety,
flat memory, the rules' own position listing), never the request that asked
for it. CHANGELOG.md is the history and may say anything; the records of
tests/corpus/ are data.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ISSUE = re.compile(r"\bissues? #?[0-9]+|\bissue-[0-9]+", re.IGNORECASE)
EXEMPT = ("CHANGELOG.md",)
EXEMPT_FOLDERS = ("tests/corpus/",)


def tracked_files() -> list[str]:
    listing = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    return [name for name in listing.decode("utf-8", "surrogateescape").split("\0") if name]


def issue_references(text: str) -> list[tuple[int, str]]:
    """The lines of ``text`` (numbered from 1) that name an issue by number."""
    return [
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), 1)
        if ISSUE.search(line)
    ]


def test_the_pattern_finds_what_it_is_meant_to_find() -> None:
    # spelled in parts, so that this file does not hold what it looks for
    numbered = ["({} 27)", "{} 26: faster", "{}s #3 and 4", "see {}-12", "{}s 3"]
    for word in ("issue", "Issue", "ISSUE"):
        assert all(issue_references(text.format(word)) for text in numbered), word
    words = ["the issue's complaint", "tis" + "sue 3", "issued 2 warnings", "an issue of 12 pages"]
    assert not any(issue_references(text) for text in words)


def test_no_tracked_file_names_an_issue_by_number() -> None:
    files = tracked_files()
    assert "README.md" in files
    found = []
    for name in files:
        if name in EXEMPT or name.startswith(EXEMPT_FOLDERS):
            continue
        path = ROOT / name
        if not path.is_file():  # a symbolic link that leads nowhere, a file deleted
            continue
        data = path.read_bytes()
        if b"\0" in data:  # a picture or another binary file
            continue
        text = data.decode("utf-8", "replace")
        found += [f"{name}:{number}: {line}" for number, line in issue_references(text)]
    assert not found, "name the promise, not the issue:\n" + "\n".join(found)
