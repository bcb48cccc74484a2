"""The create form offers each game's options, built from the catalog's options_schema:
booleans as checkboxes, enums as selects, integers as number inputs, strings and lists
as text; an option left at its default is not sent."""

from __future__ import annotations

import json

import httpx
import pytest

pytestmark = pytest.mark.timeout(120)


def test_game_options_can_be_chosen(page, playground_url):
    sent: list[dict] = []
    page.on(
        "request",
        lambda request: (
            request.method == "POST"
            and request.url.endswith("/v1/games")
            and sent.append(json.loads(request.post_data))
        ),
    )
    page.goto(f"{playground_url}/play")
    page.wait_for_selector("#game-select option", state="attached")
    page.select_option("#game-select", "dominion")
    page.click("#options summary")
    assert page.input_value('input[name="option-turn_limit"]') == ""
    assert page.get_attribute('input[name="option-turn_limit"]', "placeholder") == "100"
    assert page.is_visible('input[name="option-kingdom"]')

    page.select_option("#game-select", "sky-lanterns")
    page.select_option("#players-select", "1")
    scenario = 'select[name="option-scenario"]'
    assert page.locator(f"{scenario} option").all_text_contents() == [
        "(default)",
        "dead-mine",
        "burning-hut",
    ]
    page.select_option(scenario, "burning-hut")
    page.check('input[name="option-challenge"]')
    page.fill("#seed-input", "8")
    page.click("#create-button")
    page.wait_for_selector("#board svg")
    assert sent[-1]["options"] == {"scenario": "burning-hut", "challenge": True}
    game_id = page.evaluate("location.hash").removeprefix("#game=")
    opponent = httpx.get(f"{playground_url}/v1/games/{game_id}", timeout=10).json()["view"][
        "opponent"
    ]
    assert opponent["scenario"] == "burning-hut" and opponent["challenge"] is True
    assert "The Raiders · Challenge Mode" in page.text_content("#board svg")

    # back on the form, the options left alone are not sent
    page.evaluate("location.hash = ''")
    page.select_option("#game-select", "sky-islands")
    page.click("#create-button")
    page.wait_for_selector("#board svg")
    assert "options" not in sent[-1]
    assert page.errors == []
