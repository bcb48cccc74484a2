"""The playground under a real network's troubles, in a real browser: each click costs one
refresh (not one per way the page hears of the move), a rate-limited page says so and
tries again, a click made offline does not leave the page stuck, and a stale click is
explained rather than dropped. Each test is a solo Valley of Sky Lanterns game, where
only this page moves, so the versions it sees are its own."""

from __future__ import annotations

import re
from collections import Counter

import httpx
import pytest
from browser_kit import READY_MOVE

pytestmark = pytest.mark.timeout(120)


def solo_game(page, url: str, seed: int = 3) -> str:
    page.goto(f"{url}/play")
    page.wait_for_selector("#game-select option", state="attached")
    page.select_option("#game-select", "sky-lanterns")
    page.select_option("#players-select", "1")
    page.fill("#seed-input", str(seed))
    page.click("#create-button")
    page.wait_for_selector(READY_MOVE)
    found = re.fullmatch(r"#game=([a-z2-7]{24})", page.evaluate("location.hash"))
    assert found
    return found.group(1)


def shown_version(page) -> int:
    return int(page.locator("#moves").get_attribute("data-version"))


def server_version(url: str, game_id: str) -> int:
    return httpx.get(f"{url}/v1/games/{game_id}", timeout=10).json()["version"]


def kind_of(request) -> str:
    path = request.url.split("?")[0]
    return f"{request.method} {re.sub(r'^.*/v1/games/[a-z2-7]{24}', '', path) or '/'}"


def test_a_click_costs_one_refresh_not_two(page, playground_url):
    """The POST's answer and the move's own event on the live stream both announce the
    new version: only one of them may fetch the game, its picture and its moves again."""
    game_id = solo_game(page, playground_url)
    asked: Counter[str] = Counter()
    page.on("request", lambda request: asked.update([kind_of(request)]))
    for _ in range(3):
        before = shown_version(page)
        page.locator(READY_MOVE).first.click()
        page.wait_for_function(
            "v => +document.querySelector('#moves').dataset.version > v", arg=before
        )
        page.wait_for_selector(READY_MOVE)
        # the move's event is in the log: the stream has said all it will about it
        page.wait_for_selector(f'#log > li[value="{shown_version(page)}"]', state="attached")
        page.wait_for_timeout(400)
    assert shown_version(page) == server_version(playground_url, game_id)
    assert asked["POST /moves"] == 3
    for kind in ("GET /", "GET /board.svg", "GET /legal-moves"):
        assert asked[kind] == 3, (kind, dict(asked))
    assert page.errors == []


def test_a_rate_limited_page_says_so_and_tries_again(page, playground_url):
    solo_game(page, playground_url)
    refused: list[str] = []

    def limit_once(route) -> None:
        if refused:
            route.continue_()
            return
        refused.append(route.request.url)
        route.fulfill(
            status=429,
            headers={"Retry-After": "2", "Content-Type": "application/problem+json"},
            body='{"title": "Too many requests", "code": "rate_limited"}',
        )

    page.route("**/legal-moves", limit_once)
    page.locator(READY_MOVE).first.click()
    page.wait_for_selector("#notice:has-text('Rate limited, retrying in')")
    page.wait_for_selector(READY_MOVE)
    assert refused and page.is_hidden("#notice") and page.is_hidden("#table-error")
    assert page.errors == []


def test_a_click_made_offline_recovers_when_the_network_is_back(page, playground_url):
    game_id = solo_game(page, playground_url)
    version = shown_version(page)
    page.context.set_offline(True)
    page.locator(READY_MOVE).first.click()
    page.wait_for_selector("#notice:has-text('offline')")
    assert page.locator(READY_MOVE).count() == 0
    page.context.set_offline(False)
    page.wait_for_selector(READY_MOVE, timeout=8_000)
    page.wait_for_selector("#notice", state="hidden")
    # the click never left the browser: the game is where it was, and playable again
    assert shown_version(page) == version == server_version(playground_url, game_id)
    page.locator(READY_MOVE).first.click()
    page.wait_for_function(
        "v => +document.querySelector('#moves').dataset.version > v", arg=version
    )
    assert page.errors == []


def test_a_stale_click_says_it_was_not_played(page, playground_url):
    game_id = solo_game(page, playground_url)
    token = page.evaluate(f"JSON.parse(sessionStorage.getItem('skyport:{game_id}'))[0]")
    # Hold the live stream back, so the page does not hear of a move made elsewhere.
    page.route("**/events", lambda route: None)
    page.reload()
    page.wait_for_selector(READY_MOVE)
    headers = {"Authorization": f"Bearer {token}"}
    base = f"{playground_url}/v1/games/{game_id}"
    legal = httpx.get(f"{base}/legal-moves", headers=headers, timeout=10).json()
    made = httpx.post(
        f"{base}/moves",
        headers=headers,
        json={"move": legal["moves"][0], "expected_version": legal["version"]},
        timeout=10,
    )
    assert made.status_code == 200, made.text
    page.locator(READY_MOVE).first.click()
    page.wait_for_selector("#notice:has-text('the game moved on; your click was not played')")
    page.wait_for_function(
        "v => +document.querySelector('#moves').dataset.version >= v",
        arg=made.json()["version"],
    )
    assert page.is_hidden("#table-error")
    assert page.errors == []


def test_the_log_reads_like_the_moves(page, playground_url):
    """Your own move is logged by its button's label, seats by name, and the commonest
    events in words rather than as their fields."""
    solo_game(page, playground_url)
    button = page.locator(READY_MOVE).first
    label = button.text_content()
    before = shown_version(page)
    button.click()
    entry = page.locator(f'#log > li[value="{before + 1}"]')
    entry.wait_for(state="attached")
    assert entry.locator(".head").text_content() == f" \u2068Player 1\u2069 (you): {label}"
    events = entry.locator("ul > li").all_text_contents()
    assert events and not any(text.startswith("move made") for text in events), events
    assert page.errors == []
