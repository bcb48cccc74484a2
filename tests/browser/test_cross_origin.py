"""A web app on another origin plays through the API in a real browser (Chromium), as
SKYPORT_CORS_ALLOW_ORIGINS allows: its script creates a game, reads it with a token,
makes a move with an Idempotency-Key and If-Match, and reads the headers it needs. A page
of an origin not allowed cannot read anything."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from browser_kit import embedded_settings
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from services.api.app import create_app

PLAY = """
async (api) => {
  const json = {"Content-Type": "application/json"};
  const created = await fetch(api + "/v1/games", {method: "POST", headers: json,
    body: JSON.stringify({game: "sky-islands", seats: [{name: "A"}, {name: "B"}]})});
  const game = await created.json();
  const first = {"Authorization": "Bearer " + game.seats[0].token};
  const read = await fetch(api + created.headers.get("Location"), {headers: first});
  const turn = (await read.json()).turn;
  const auth = {"Authorization": "Bearer " + game.seats[turn[0]].token};
  const legal = await (await fetch(api + "/v1/games/" + game.id + "/legal-moves",
    {headers: auth})).json();
  const {label, ...move} = legal.moves[0];
  const moved = await fetch(api + "/v1/games/" + game.id + "/moves", {method: "POST",
    headers: {...json, ...auth, "Idempotency-Key": crypto.randomUUID(),
              "If-Match": read.headers.get("ETag")},
    body: JSON.stringify({move})});
  return {created: created.status, read: read.status, etag: read.headers.get("ETag"),
          moved: moved.status, answer: await moved.json(),
          requestId: moved.headers.get("X-Request-Id")};
}
"""

READ = """
async (api) => {
  try {
    const answer = await fetch(api + "/v1/catalog", {headers: {"Authorization": "Bearer x"}});
    return "read " + answer.status;
  } catch (error) {
    return "blocked: " + error.name;
  }
}
"""


@pytest.fixture(scope="module")
def page_server(serve) -> Iterator[str]:
    """The web app's own origin: a page of its own, served apart from the API."""
    app = Starlette(routes=[Route("/", lambda request: HTMLResponse("<title>an app</title>"))])
    with serve(app) as server:
        yield server.url


@pytest.fixture(scope="module")
def api_url(serve, page_server: str) -> Iterator[str]:
    with serve(create_app(embedded_settings(cors_allow_origins=page_server))) as server:
        yield server.url


@pytest.fixture
def page(browser) -> Iterator[object]:
    context = browser.new_context()
    opened = context.new_page()
    opened.set_default_timeout(20_000)
    yield opened
    context.close()


def test_a_page_of_an_allowed_origin_plays_through_the_api(page, page_server, api_url):
    page.goto(page_server)
    played = page.evaluate(PLAY, api_url)
    assert played["created"] == 201 and played["read"] == 200
    assert played["etag"].startswith('W/"v')
    assert played["moved"] == 200, played["answer"]
    assert played["answer"]["version"] == 1
    assert played["requestId"]


def test_a_page_of_another_origin_reads_nothing(page, page_server, api_url):
    other = page_server.replace("127.0.0.1", "localhost")  # same server, another origin
    page.goto(other)
    assert page.evaluate(READ, api_url) == "blocked: TypeError"
    page.goto(page_server)
    assert page.evaluate(READ, api_url) == "read 200"
