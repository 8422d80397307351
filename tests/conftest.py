"""Settings shared by the whole test suite.

Property tests have no time limit per example: speed is measured by the benchmarks in ``bench/``,
never asserted by a test, and these machines are shared (a deadline would only make the suite
flaky when a neighbour is busy)."""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("gmkit", deadline=None)
settings.load_profile("gmkit")
