"""The playground on a phone (375 x 812): the moves are on the first screen, above the
board, and long or right-to-left seat names do not widen the page."""

from __future__ import annotations

import pytest
from browser_kit import READY_MOVE

pytestmark = pytest.mark.timeout(120)

PHONE = {"width": 375, "height": 812}


def test_on_a_phone_the_moves_come_first_and_names_fit(browser, playground_url):
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"{playground_url}/play")
        page.wait_for_selector("#game-select option", state="attached")
        page.select_option("#game-select", "sky-islands")
        page.fill('input[name="seat-0-name"]', "W" * 64)
        page.fill('input[name="seat-1-name"]', "שלום עולם 123")
        page.fill("#seed-input", "7")
        page.click("#create-button")
        page.wait_for_selector(READY_MOVE)
        page.wait_for_selector("#board svg")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        first = page.locator(READY_MOVE).first.bounding_box()
        board = page.locator("#board").bounding_box()
        assert first["y"] + first["height"] <= PHONE["height"], "the first move is below the fold"
        assert first["y"] < board["y"]
        # the right-to-left name is isolated in the status line
        assert "\u2068שלום עולם 123\u2069" in page.text_content("#game-status") or (
            "\u2068" + "W" * 64 + "\u2069" in page.text_content("#game-status")
        )
    finally:
        context.close()
