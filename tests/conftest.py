"""pytest configuration for the whole suite: hypothesis profiles.

The core tests' helpers live in ``core_support.py`` (a plain module, so that test directories
with their own ``conftest.py`` cannot shadow them).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# Hypothesis: small by default (the machine is shared); `HYPOTHESIS_PROFILE=thorough` for more.
settings.register_profile(
    "fast", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fast"))
