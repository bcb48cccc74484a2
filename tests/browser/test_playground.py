"""The playground in a real browser: a whole Sky Islands game against a bot and a whole
Valley of Sky Lanterns game against two, played by clicking the move buttons, a few
Dominion turns, and watching a bots' game by its id — with the board picture, the live
event log and the result on the page, and not one error in the browser's console."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from browser_kit import READY_MOVE

pytestmark = pytest.mark.timeout(420)

WIDE = {"width": 1200, "height": 900}
PHONE = {"width": 390, "height": 844}


class Console:
    """Everything the page logged as an error, or threw."""

    def __init__(self, page) -> None:
        self.errors: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))

    def _console(self, message) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text}")


@pytest.fixture
def page(browser) -> Iterator[object]:
    context = browser.new_context(viewport=WIDE)
    opened = context.new_page()
    opened.set_default_timeout(20_000)
    opened.console = Console(opened)
    yield opened
    context.close()


def open_playground(page, url: str) -> None:
    response = page.goto(f"{url}/play")
    assert response.status == 200
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    page.wait_for_selector("#game-select option", state="attached")


def create(page, game: str, seed: int, bot: str = "random", players: int = 2) -> str:
    """A game with this page playing seat 1 and `bot`s in every other seat."""
    page.select_option("#game-select", game)
    page.select_option("#players-select", str(players))
    for seat in range(1, players):
        page.select_option(f'select[name="seat-{seat}-who"]', bot)
    page.fill("#seed-input", str(seed))
    page.click("#create-button")
    page.wait_for_selector("#board svg")
    game_id = re.fullmatch(r"#game=([a-z2-7]{24})", page.evaluate("location.hash"))
    assert game_id, page.evaluate("location.hash")
    return game_id.group(1)


def play_first_moves(
    page, until, limit: int, deadline: float, prefer: re.Pattern[str] | None = None
) -> int:
    """Click the first legal move (the first matching `prefer`, if any does) until
    `until()` or the result shows; returns the clicks."""
    clicks = 0
    while clicks < limit and not until():
        if page.is_visible("#result-panel"):
            break
        assert time.monotonic() < deadline, "the game did not end in time"
        ready = page.locator(READY_MOVE)
        if prefer is not None and ready.filter(has_text=prefer).count():
            ready = ready.filter(has_text=prefer)
        try:
            ready.first.click(timeout=5_000)
        except Exception:  # noqa: BLE001 - no move is ready yet (a bot's turn): look again
            continue
        clicks += 1
    return clicks


def spectator_document(url: str, game_id: str) -> dict:
    return httpx.get(f"{url}/v1/games/{game_id}", timeout=10).json()


def seat_token(page, game_id: str, seat: int = 0) -> str:
    return page.evaluate(f"JSON.parse(sessionStorage.getItem('skyport:{game_id}'))[{seat}]")


def legal_moves(url: str, game_id: str, token: str) -> dict:
    headers = {"Authorization": f"Bearer {token}"}
    return httpx.get(f"{url}/v1/games/{game_id}/legal-moves", headers=headers, timeout=10).json()


def check_result_table(page, url: str, game_id: str, players: int) -> None:
    """The result panel lists every standing with its score and breakdown."""
    rows = page.locator("#result tbody tr")
    assert rows.count() == players
    result = httpx.get(f"{url}/v1/games/{game_id}/result", timeout=10).json()
    for row, standing in zip(rows.all(), result["standings"], strict=True):
        cells = [cell.text_content() for cell in row.locator("td").all()]
        assert cells[0] == str(standing["rank"]) and cells[2] == str(standing["score"])
        assert standing["name"] in cells[1]
        for category, points in standing["breakdown"].items():
            assert f"{category.replace('_', ' ')} {points}" in cells[3]


def test_a_whole_sky_islands_game_against_a_bot(page, playground_url, shots: Path):
    open_playground(page, playground_url)
    page.screenshot(path=shots / "playground-start.png")
    game_id = create(page, "sky-islands", seed=7)
    assert "Your hand" in page.text_content("#board svg")
    deadline = time.monotonic() + 300
    builds = re.compile(r"^Build")  # so that the pictures show houses, towers and harbours
    clicks = play_first_moves(page, lambda: False, 8, deadline, builds)
    page.wait_for_selector(READY_MOVE)
    page.screenshot(path=shots / "playground.png", full_page=True)
    clicks += play_first_moves(page, lambda: False, 10_000, deadline, builds)

    page.wait_for_selector("#result-panel", state="visible")
    page.wait_for_function(
        "document.querySelector('#game-status').textContent.startsWith('finished')"
    )
    page.wait_for_function("document.querySelector('#board svg').textContent.includes('Final')")
    check_result_table(page, playground_url, game_id, 2)
    finished = spectator_document(playground_url, game_id)
    assert clicks >= 8 and finished["status"] == "finished"
    # The live log shows every version the game went through, newest first.
    versions = [int(v.strip("v")) for v in page.locator("#log > li .version").all_text_contents()]
    assert versions == list(range(finished["version"], 0, -1))
    assert "No more moves" in page.text_content("#moves-note")
    page.locator("#board svg").screenshot(path=shots / "sky-islands.png")
    assert page.console.errors == []


def test_a_few_dominion_turns(page, playground_url, shots: Path):
    open_playground(page, playground_url)
    game_id = create(page, "dominion", seed=12)
    token = seat_token(page, game_id)
    page.wait_for_selector(READY_MOVE)
    legal = legal_moves(playground_url, game_id, token)
    labels = page.locator("#moves button").all_text_contents()
    assert labels == [move["label"] for move in legal["moves"]]
    assert "Supply" in page.text_content("#board svg")

    def my_turns() -> int:
        return spectator_document(playground_url, game_id)["view"]["players"][0]["turns"]

    clicks = play_first_moves(page, lambda: my_turns() >= 4, 120, time.monotonic() + 180)
    assert my_turns() >= 4 and clicks > 3
    page.wait_for_selector(READY_MOVE)
    picture = page.text_content("#board svg")
    view = spectator_document(playground_url, game_id)["view"]
    assert "Your hand" in picture and f"Turns {view['players'][0]['turns']}" in picture
    assert all(f"{pile['card']}" in picture for pile in view["supply"])
    assert page.locator("#log > li").count() >= 6
    page.locator("#board svg").screenshot(path=shots / "dominion.png")
    assert page.console.errors == []


def test_a_whole_sky_lanterns_game_against_two_bots(page, playground_url, shots: Path):
    """Valley of Sky Lanterns' base game (3 players) from setup to the final scoring: the
    buttons read like the moves, the picture shows the dice spaces, the Era cards, each
    player board and the reader's own hand, and the board screenshot is taken mid-game
    while dice fill the slots."""
    open_playground(page, playground_url)
    game_id = create(page, "sky-lanterns", seed=4, players=3)
    token = seat_token(page, game_id)
    deadline = time.monotonic() + 300
    seen_labels: set[str] = set()

    def buttons_match_the_legal_moves() -> None:
        page.wait_for_selector(READY_MOVE)
        legal = legal_moves(playground_url, game_id, token)
        labels = page.locator("#moves button").all_text_contents()
        if legal["version"] == int(page.locator("#moves").get_attribute("data-version")):
            assert labels == [move["label"] for move in legal["moves"]]
        assert len(set(labels)) == len(labels), labels
        seen_labels.update(labels)

    def dice_in_slots(view: dict) -> int:
        return sum(
            die is not None
            for player in view["players"]
            for die in player["core_slots"] + player["compensation_slots"]
        )

    def slots_filling() -> bool:
        """Round 2 with dice in the slots (round 3's Upkeep sends them back to the bag)."""
        view = spectator_document(playground_url, game_id)["view"]
        return view["round"] >= 3 or (view["round"] == 2 and dice_in_slots(view) >= 9)

    buttons_match_the_legal_moves()
    picture = page.text_content("#board svg")
    assert "Dice spaces" in picture and "Your hand" in picture and "Era E" in picture
    # Taking dice and placing them in Core Slots is what fills the picture.
    fills = re.compile(r"^(Take the die|Place the die in Core|Develop)")
    clicks = 0
    while not slots_filling():
        clicks += play_first_moves(page, slots_filling, 3, deadline, fills)
        buttons_match_the_legal_moves()
    page.wait_for_selector(READY_MOVE)  # the bots are done: the game waits for this page
    document = spectator_document(playground_url, game_id)
    view = document["view"]
    assert view["round"] == 2, "the picture is taken while the slots hold dice"
    page.wait_for_function(
        "v => document.querySelector('#board svg title').textContent.includes(`version ${v},`)",
        arg=document["version"],
    )
    board = page.locator("#board svg")
    assert board.locator("rect.train").count() == 3
    assert board.locator("circle.lantern").count() == 3 * 3
    assert board.locator("rect.die").count() >= dice_in_slots(view) >= 9
    picture = board.text_content()
    for player in view["players"]:
        assert f"Train {player['train']}" in picture and f"{player['score_now']} pts" in picture
    board.screenshot(path=shots / "sky-lanterns.png")
    # On a phone the picture fits the screen, and its smallest text stays legible.
    page.set_viewport_size(PHONE)
    width = page.evaluate("document.querySelector('#board svg').getBoundingClientRect().width")
    assert 300 <= width <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    smallest = page.evaluate(
        "(() => { const svg = document.querySelector('#board svg');"
        " const sizes = [...svg.querySelectorAll('text')].map(t => +t.getAttribute('font-size'));"
        " return Math.min(...sizes) * svg.getScreenCTM().a; })()"
    )
    assert smallest >= 7, f"the smallest text is {smallest:.1f} px on a phone"
    page.set_viewport_size(WIDE)

    clicks += play_first_moves(page, lambda: False, 10_000, deadline, fills)
    page.wait_for_selector("#result-panel", state="visible")
    page.wait_for_function(
        "document.querySelector('#game-status').textContent.startsWith('finished')"
    )
    page.wait_for_function(
        "document.querySelector('#board svg').textContent.includes('Final scores')"
    )
    check_result_table(page, playground_url, game_id, 3)
    finished = spectator_document(playground_url, game_id)
    assert finished["status"] == "finished" and finished["view"]["round"] == 6
    assert clicks >= 30
    assert any(label.startswith("Take the die on") for label in seen_labels)
    assert any(label.startswith("Place the die in") for label in seen_labels)
    versions = [int(v.strip("v")) for v in page.locator("#log > li .version").all_text_contents()]
    assert versions == list(range(finished["version"], 0, -1))
    assert page.console.errors == []


def test_watching_a_bots_game_by_its_id(page, playground_url, shots: Path):
    created = httpx.post(
        f"{playground_url}/v1/games",
        json={
            "game": "sky-islands",
            "seats": [
                {"name": "Robo <Ann>", "bot": "random"},
                {"name": "Robo Ben", "bot": "greedy"},
            ],
            "seed": 3,
        },
        timeout=10,
    ).json()
    page.set_viewport_size(PHONE)
    open_playground(page, playground_url)
    page.fill("#watch-id", created["id"])
    page.click("#watch-form button[type=submit]")
    page.wait_for_selector("#board svg")
    assert "Spectating" in page.text_content("#moves-note")
    assert page.locator("#moves button").count() == 0
    page.wait_for_selector("#result-panel", state="visible", timeout=120_000)
    assert "Robo <Ann>" in page.text_content("#result")
    assert page.locator("#log > li").count() > 10
    width = page.evaluate("document.querySelector('#board svg').getBoundingClientRect().width")
    assert 300 <= width <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=shots / "playground-phone.png", full_page=True)
    assert page.console.errors == []


def test_a_lost_solo_game_says_who_won(page, playground_url):
    """A solo Valley of Sky Lanterns game lost to the ghost: the result ranks the virtual
    opponent above the player, with its final score, and says why."""
    created = httpx.post(
        f"{playground_url}/v1/games",
        json={"game": "sky-lanterns", "seats": [{"name": "Ann", "bot": "random"}], "seed": 5},
        timeout=10,
    ).json()
    deadline = time.monotonic() + 60
    while (finished := spectator_document(playground_url, created["id"]))["status"] == "active":
        assert time.monotonic() < deadline, "the bot's solo game did not end"
        time.sleep(0.2)
    result = finished["result"]
    rival = result["opponent"]
    assert result["winners"] == [] and rival["rank"] == 1
    page.goto(f"{playground_url}/play#game={created['id']}")
    page.wait_for_selector("#result-panel", state="visible")
    rows = [
        [cell.text_content() for cell in row.locator("td").all()]
        for row in page.locator("#result tbody tr").all()
    ]
    assert [row[:3] for row in rows] == [
        ["1", f"★ {rival['name']} (virtual opponent)", str(rival["score"])],
        ["2", "Ann", str(result["standings"][0]["score"])],
    ]
    assert page.text_content("#result-summary") == result["summary"]
    assert page.console.errors == []
