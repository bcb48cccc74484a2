"""Fixtures of the deployment tests; the helpers live in skyport_deploy.py."""

from __future__ import annotations

import pytest
from skyport_deploy import KUSTOMIZATIONS, Doc, render


@pytest.fixture(scope="session", params=sorted(KUSTOMIZATIONS))
def rendered(request: pytest.FixtureRequest) -> tuple[str, list[Doc]]:
    """(name, objects) of each kustomization, rendered by the test renderer."""
    return request.param, render(KUSTOMIZATIONS[request.param])
