"""A real browser (Debian's chromium, driven by Playwright) on the playground, served by
the API in embedded mode on a free loopback port.

Chromium comes from the system (`make chromium` installs it as root); Playwright's own
browser downloads cannot be fetched here, so it is never asked for one. Without chromium
the tests are skipped only when we are not root (so cannot install it); as root — CI —
a missing chromium is a failure.

SKYPORT_SCREENSHOTS_DIR=<dir> keeps the screenshots there (`make screenshots` writes
docs/screenshots/); otherwise they go to a temporary directory.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_kit import embedded_settings

from services.api.app import create_app

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def find_chromium() -> str | None:
    for candidate in (os.environ.get("SKYPORT_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("chromium")


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        if os.geteuid() != 0:
            pytest.skip("chromium is not installed and only root can install it (make chromium)")
        pytest.fail("chromium is missing: `make chromium` installs Debian's package as root")
    return path


@pytest.fixture(scope="module")
def browser(chromium_path: str) -> Iterator[object]:
    """Module-scoped: Playwright's sync API runs an event loop in this thread while it is
    open, which would break later tests that run their own loop."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=chromium_path, args=CHROMIUM_ARGS, headless=True, timeout=60_000
        )
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def playground_url(serve) -> Iterator[str]:
    with serve(create_app(embedded_settings())) as server:
        yield server.url


@pytest.fixture
def page(browser) -> Iterator[object]:
    """A fresh 1200x900 page keeping its uncaught errors (`page.errors`); modules with
    pages of their own define `page` themselves."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    opened = context.new_page()
    opened.set_default_timeout(15_000)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    opened.errors = errors
    yield opened
    context.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    where = os.environ.get("SKYPORT_SCREENSHOTS_DIR")
    folder = Path(where) if where else tmp_path / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
