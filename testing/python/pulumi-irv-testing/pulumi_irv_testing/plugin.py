"""The pytest plugin (entry point ``pytest11``): the ``irv_emulator`` and ``irv_env`` fixtures.

Example::

    def test_org(irv_emulator):
        stack = auto.create_or_select_stack(...)
        irv_emulator.configure_stack(stack)

    @pytest.mark.irv_fixtures("fixtures.json")
    def test_seeded(irv_emulator): ...
"""

from __future__ import annotations

from typing import Iterator

import pytest

from .emulator import Emulator, start_emulator


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "irv_fixtures(path): seed the test's emulator from this JSON fixtures file (relative to the test file)"
    )


@pytest.fixture
def irv_emulator(request: pytest.FixtureRequest) -> Iterator[Emulator]:
    """A fresh emulator for the test (``IRV_EMULATOR`` or ``irv-emulator`` from PATH), stopped and its data
    removed at teardown, whether the test passed or failed."""
    marker = request.node.get_closest_marker("irv_fixtures")
    fixtures = None
    if marker is not None:
        fixtures = request.path.parent / str(marker.args[0])
    running = start_emulator(fixtures=fixtures)
    try:
        yield running.emulator
    finally:
        running.stop()


@pytest.fixture
def irv_env(irv_emulator: Emulator, monkeypatch: pytest.MonkeyPatch) -> Emulator:
    """``irv_emulator`` with ``IRV_BASE_URL``, ``IRV_AUTH_URL`` and ``IRV_TOKEN`` set for the test."""
    for key, value in irv_emulator.env().items():
        monkeypatch.setenv(key, value)
    return irv_emulator
