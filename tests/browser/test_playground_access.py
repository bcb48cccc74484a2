"""The playground for keyboard and screen-reader users: the filter box has a name, the
moves note and the notices are live regions, the focus follows the game after a move
made from the keyboard, and the board has a text alternative from the reader's view."""

from __future__ import annotations

import re

import pytest
from browser_kit import READY_MOVE

pytestmark = pytest.mark.timeout(120)


def test_keyboard_and_screen_reader_basics(page, playground_url):
    page.goto(f"{playground_url}/play")
    page.wait_for_selector("#game-select option", state="attached")
    page.select_option("#game-select", "sky-lanterns")
    page.select_option("#players-select", "1")
    page.fill("#seed-input", "3")
    page.click("#create-button")
    page.wait_for_selector(READY_MOVE)
    assert page.get_attribute("#moves-filter", "aria-label") == "Filter moves"
    assert page.get_attribute("#moves-note", "aria-live") == "polite"
    assert page.get_attribute("#notice", "role") == "status"
    summary = page.text_content("#board-summary")
    assert "To act: \u2068Player 1\u2069 (you)." in summary
    assert re.search(r"\u2068Player 1\u2069 \(you\): \d+ points, 3 in hand", summary)
    assert "Your hand: " in summary
    assert page.get_attribute("#board", "aria-describedby") == "board-summary"

    for _ in range(3):
        version = int(page.get_attribute("#moves", "data-version"))
        page.locator(READY_MOVE).first.focus()
        page.keyboard.press("Enter")
        page.wait_for_function(
            "v => +document.querySelector('#moves').dataset.version > v", arg=version
        )
        page.wait_for_selector(READY_MOVE)
        page.wait_for_function(
            "() => document.activeElement && document.activeElement.closest('#moves') !== null"
        )
