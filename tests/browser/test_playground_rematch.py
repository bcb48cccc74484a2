"""The playground's "Play again" in a real browser: under a finished game it opens the
rematch with the seats the tab holds, says when a player has asked already, and is not
offered under a platform's game, which has no rematch."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import httpx
import pytest
from browser_kit import embedded_settings

from services.api.app import create_app

pytestmark = pytest.mark.timeout(120)

PLATFORM_KEY = "platform-key-for-the-browser-tests"


@pytest.fixture(scope="module")
def playground_url(serve) -> Iterator[str]:
    with serve(create_app(embedded_settings(api_keys=PLATFORM_KEY))) as server:
        yield server.url


def finished_game(url: str, headers: dict[str, str] | None = None) -> tuple[str, str]:
    """A Sky Islands game of Ann and a bot that Ann resigned: its id and Ann's token."""
    created = httpx.post(
        f"{url}/v1/games",
        json={"game": "sky-islands", "seats": [{"name": "Ann"}, {"name": "Robo", "bot": "random"}]},
        headers=headers or {},
        timeout=10,
    ).json()
    token = created["seats"][0]["token"]
    resigned = httpx.post(
        f"{url}/v1/games/{created['id']}/resign",
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert resigned.status_code == 200, resigned.text
    return created["id"], token


def test_play_again_seats_the_player_in_the_rematch(page, playground_url):
    game_id, token = finished_game(playground_url)
    page.goto(f"{playground_url}/play#game={game_id}&token={token}")
    page.wait_for_selector("#rematch-button", state="visible")
    assert page.text_content("#rematch-button") == "Play again"
    page.click("#rematch-button")
    deadline = time.monotonic() + 20
    while game_id in page.evaluate("location.hash"):
        assert time.monotonic() < deadline, "the rematch did not open"
        time.sleep(0.1)
    page.wait_for_selector("#board svg")
    rematch_id = re.fullmatch(r"#game=([a-z2-7]{24})", page.evaluate("location.hash")).group(1)
    rematch = httpx.get(f"{playground_url}/v1/games/{rematch_id}", timeout=10).json()
    assert rematch["status"] == "active"
    assert [seat["name"] for seat in rematch["seats"]] == ["Robo", "Ann"]
    assert page.input_value("#viewer-select") == "1", "the page plays Ann's new seat"
    assert page.is_hidden("#rematch-button")

    page.goto(f"{playground_url}/play#game={game_id}")
    page.wait_for_selector("#rematch-button", state="visible")
    assert page.text_content("#rematch-button") == "Join the rematch", "Ann's first seat is kept"
    assert page.errors == []


def test_a_platforms_game_offers_no_rematch(page, playground_url):
    game_id, token = finished_game(
        playground_url, headers={"Authorization": f"Bearer {PLATFORM_KEY}"}
    )
    answered: list[int] = []
    page.on(
        "response",
        lambda response: answered.append(response.status) if "/rematch" in response.url else None,
    )
    page.goto(f"{playground_url}/play#game={game_id}&token={token}")
    page.wait_for_selector("#result-panel", state="visible")
    deadline = time.monotonic() + 10
    while not answered:
        assert time.monotonic() < deadline, "the page did not look the rematch up"
        page.wait_for_timeout(100)
    assert answered == [409] and page.is_hidden("#rematch-button")
    assert page.errors == []
