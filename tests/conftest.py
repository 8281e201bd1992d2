"""Hypothesis profiles: ``fuzz``, the default (the same inputs on every run,
so that CI is stable), and ``deep`` (new random inputs on every run, for
hunting: ``HYPOTHESIS_PROFILE=deep HEXHOP_FUZZ_SCALE=20 pytest tests/test_fuzz_*``).

The quick tier (``pytest -m "not slow"``) runs the fuzz tests, and the
property tests whose budget is ``fuzz_support.examples(n)``, with a small
budget (``QUICK_FUZZ_SCALE`` of their inputs) unless ``HEXHOP_FUZZ_SCALE``
is set; the full run keeps the whole budget."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).resolve().parent))  # fuzz_support, notation_helpers

_SLOW_INPUTS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]
settings.register_profile(
    "fuzz", derandomize=True, deadline=None, database=None, suppress_health_check=_SLOW_INPUTS
)
settings.register_profile("deep", deadline=None, suppress_health_check=_SLOW_INPUTS)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fuzz"))

QUICK_FUZZ_SCALE = "0.02"

# the tests pin English messages, on a German machine too (the tests of
# German messages choose it themselves)
os.environ["HEXHOP_LANG"] = "en"


def pytest_configure(config: pytest.Config) -> None:
    # before the test modules import fuzz_support, which reads the scale once
    if "not slow" in (config.option.markexpr or ""):
        os.environ.setdefault("HEXHOP_FUZZ_SCALE", QUICK_FUZZ_SCALE)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # the server that runs hexhop commands for the tests (safety_runner.shared)
    import safety_runner

    safety_runner.close_shared()
