"""The lobby in a real browser: one player creates a game with a seat left open to the
lobby and waits; another finds it on the start page, joins under their name, and both
are playing the same game."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import httpx
import pytest

pytestmark = pytest.mark.timeout(120)


def opened_page(browser) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.errors = errors
    yield page
    context.close()


@pytest.fixture
def host(browser) -> Iterator[object]:
    yield from opened_page(browser)


@pytest.fixture
def guest(browser) -> Iterator[object]:
    yield from opened_page(browser)


def game_in_address(page, deadline: float) -> str:
    while True:
        found = re.fullmatch(r"#game=([a-z2-7]{24})", page.evaluate("location.hash"))
        if found:
            return found.group(1)
        assert time.monotonic() < deadline, "no game opened"
        time.sleep(0.05)


def open_lobby(page, url: str, game: str) -> None:
    """The start page with `game`'s lobby picked."""
    page.goto(f"{url}/play")
    page.wait_for_selector("#lobby-game option", state="attached")
    page.select_option("#lobby-game", game)


def lobby_entry(page, url: str, game: str, text: str):
    """The entry of `game`'s lobby that shows `text`, once it is drawn."""
    open_lobby(page, url, game)
    entry = page.locator("#lobby-list li").filter(has_text=text)
    entry.wait_for()
    return entry


def test_a_player_joins_an_open_seat_from_the_lobby(host, guest, playground_url):
    deadline = time.monotonic() + 60
    host.goto(f"{playground_url}/play")
    host.wait_for_selector("#game-select option", state="attached")
    host.select_option("#game-select", "sky-islands")
    host.select_option("#players-select", "2")
    host.select_option('select[name="seat-1-who"]', "open")
    assert host.is_disabled('input[name="seat-1-name"]')
    host.click("#create-button")
    game_id = game_in_address(host, deadline)
    host.wait_for_selector("#moves-note:has-text('Waiting for players to take the open seats')")
    assert "waiting" in host.text_content("#game-status")

    entry = lobby_entry(guest, playground_url, "sky-islands", "1 open seat")
    assert "Player 1" in entry.text_content()
    guest.fill("#lobby-name", "Gil")
    entry.get_by_role("button", name=re.compile("^Join")).click()
    assert game_in_address(guest, deadline) == game_id
    guest.wait_for_selector("#board svg")
    assert guest.input_value("#viewer-select") == "1", "the guest plays the seat it took"

    document = httpx.get(f"{playground_url}/v1/games/{game_id}", timeout=10).json()
    assert document["status"] == "active"
    assert [seat["name"] for seat in document["seats"]] == ["Player 1", "Gil"]
    # The host's page hears that the game started, without a reload.
    host.wait_for_selector("#game-status:has-text('active')")

    open_lobby(guest, playground_url, "sky-islands")
    guest.wait_for_selector("#lobby-status:has-text('No game is waiting')")
    assert guest.locator("#lobby-list li").count() == 0
    assert host.errors == [] and guest.errors == []


def test_the_lobby_shows_a_games_clock_before_joining(guest, playground_url):
    created = httpx.post(
        f"{playground_url}/v1/games",
        json={
            "game": "dominion",
            "seats": [{"name": "Timed host"}, {"open": True}],
            "clock": {"initial_seconds": 600, "increment_seconds": 5},
            "lobby": True,
        },
        timeout=10,
    )
    assert created.status_code == 201, created.text
    entry = lobby_entry(guest, playground_url, "dominion", "Timed host")
    assert "clock 10 min + 5 s" in entry.text_content()
    assert guest.errors == []


def test_one_click_takes_the_first_open_seat_and_says_when_there_is_none(guest, playground_url):
    created = httpx.post(
        f"{playground_url}/v1/games",
        json={"game": "sky-lanterns", "seats": [{"name": "Host"}, {"open": True}], "lobby": True},
        timeout=10,
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    deadline = time.monotonic() + 60
    lobby_entry(guest, playground_url, "sky-lanterns", "Host")
    guest.fill("#lobby-name", "Gil")
    guest.click("#lobby-quick")
    assert game_in_address(guest, deadline) == game_id
    guest.wait_for_selector("#board svg")
    assert guest.input_value("#viewer-select") == "1", "the guest plays the seat it took"
    document = httpx.get(f"{playground_url}/v1/games/{game_id}", timeout=10).json()
    assert [seat["name"] for seat in document["seats"]] == ["Host", "Gil"]

    open_lobby(guest, playground_url, "sky-lanterns")
    guest.wait_for_selector("#lobby-status:has-text('No game is waiting')")
    guest.click("#lobby-quick")
    guest.wait_for_selector("#lobby-status:has-text('no_open_seat')")
    # Chromium logs the 404 answer itself; nothing else may go wrong.
    assert [error for error in guest.errors if "status of 404" not in error] == []


def test_the_lobby_shows_a_new_game_by_itself_and_polls_it_as_304(guest, playground_url):
    statuses: list[int] = []
    guest.on(
        "response",
        lambda response: statuses.append(response.status) if "/v1/lobby/" in response.url else None,
    )
    open_lobby(guest, playground_url, "sky-islands")
    guest.wait_for_selector("#lobby-status:has-text('waiting')")
    created = httpx.post(
        f"{playground_url}/v1/games",
        json={
            "game": "sky-islands",
            "seats": [{"name": "Polled host"}, {"open": True}],
            "lobby": True,
        },
        timeout=10,
    )
    assert created.status_code == 201, created.text
    # No click: the start page looks again every few seconds.
    guest.locator("#lobby-list li").filter(has_text="Polled host").wait_for(timeout=15_000)
    deadline = time.monotonic() + 15
    while 304 not in statuses:
        assert time.monotonic() < deadline, f"no unchanged poll answered 304: {statuses}"
        guest.wait_for_timeout(250)
    assert guest.locator("#lobby-list li").filter(has_text="Polled host").count() == 1
    assert guest.errors == []
