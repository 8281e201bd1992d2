"""Drawing a PNG or PDF runs no other program: cairocffi's library search
(ctypes' ``find_library``) would run ldconfig and gcc, and a signal sent to
the whole process group could leave gcc's temporary file behind."""

from __future__ import annotations

import subprocess
import sys

import pytest

CHILD = """
import subprocess, sys
started = []
original = subprocess.Popen.__init__
def recording(self, args, *rest, **kwargs):
    started.append(args)
    original(self, args, *rest, **kwargs)
subprocess.Popen.__init__ = recording
import hexhop
from hexhop.render.sequence import pdf
picture = hexhop.svg(hexhop.position("Trigeo", "N: A7=1; S: F7=1; turn: N"))
assert hexhop.png(hexhop.position("Trigeo", "N: A7=1; S: F7=1; turn: N")).startswith(b"\\x89PNG")
assert pdf([str(picture)]).startswith(b"%PDF-")
print(started)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the soname is Linux's")
def test_png_and_pdf_start_no_other_program():
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout
