"""The playground keeps a seat beyond its tab: a resume link, carrying the seat token in
the URL fragment (never sent to the server), opens the seat in any browser; and the
create form sends the seed as typed, not rounded to a float."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from browser_kit import READY_MOVE

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def context(browser) -> Iterator[object]:
    opened = browser.new_context(viewport={"width": 1200, "height": 900})
    opened.set_default_timeout(15_000)
    yield opened
    opened.close()


def start(page, url: str) -> None:
    page.goto(f"{url}/play")
    page.wait_for_selector("#game-select option", state="attached")
    page.select_option("#game-select", "sky-lanterns")
    page.select_option("#players-select", "1")


def test_a_resume_link_opens_the_seat_in_another_browser(context, browser, playground_url):
    page = context.new_page()
    start(page, playground_url)
    page.fill("#seed-input", "3")
    page.click("#create-button")
    page.wait_for_selector(READY_MOVE)
    game_id = re.fullmatch(r"#game=([a-z2-7]{24})", page.evaluate("location.hash")).group(1)
    token = page.evaluate(f"JSON.parse(sessionStorage.getItem('skyport:{game_id}'))[0]")
    page.click("#resume summary")
    link = page.input_value("#resume-link")
    assert link == f"{playground_url}/play#game={game_id}&token={token}"
    assert page.text_content("#resume-token") == token
    page.click("#resume-copy")
    page.wait_for_selector("#notice:has-text('cop')")

    elsewhere = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        other = elsewhere.new_page()
        other.set_default_timeout(15_000)
        sent: list[str] = []
        other.on("request", lambda request: sent.append(request.url))
        other.goto(link)
        other.wait_for_selector(READY_MOVE)
        assert other.input_value("#viewer-select") == "0"
        # the token left the address bar (and its history), and no address carried it
        assert other.evaluate("location.hash") == f"#game={game_id}"
        assert sent and not any(token in url for url in sent)
        other.reload()
        other.wait_for_selector(READY_MOVE)
        assert other.input_value("#viewer-select") == "0"
    finally:
        elsewhere.close()


def test_a_long_seed_is_sent_as_typed(context, playground_url):
    page = context.new_page()
    start(page, playground_url)
    bodies: list[dict] = []
    page.on(
        "request",
        lambda request: request.method == "POST" and bodies.append(json.loads(request.post_data)),
    )
    page.fill("#seed-input", str(2**63))  # one past the largest seed
    page.click("#create-button")
    page.wait_for_selector("#start-error:has-text('The seed is a whole number')")
    assert bodies == []
    seed = 2**53 + 1  # a double would round it to 2**53
    page.fill("#seed-input", str(seed))
    page.click("#create-button")
    page.wait_for_selector("#board svg")
    assert [body.get("seed") for body in bodies] == [seed]
