"""How hard the property tests look: the CI profile's counts, or ten times them at night.

``HYPOTHESIS_PROFILE=nightly`` (``make test-long``) multiplies every test's own example count
(set with :func:`examples`) and the default for tests that set none; CI runs the ``ci`` profile.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
SCALE = 10 if PROFILE == "nightly" else 1

settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("nightly", parent=settings.get_profile("ci"), max_examples=100 * SCALE)
settings.load_profile(PROFILE)


def examples(count: int) -> int:
    """A property test's example count in the current profile."""
    return count * SCALE
