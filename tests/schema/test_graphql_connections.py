"""GraphQL lists that grow are Relay connections: `edges { cursor node }` and `pageInfo`,
paged with `first` and `after` over the store's own paging. Cursors are opaque and
checked; a bad one, or a page too large, is a clear error and never a 500."""

from __future__ import annotations

import base64

import pytest

GAMES = """
query($first: Int!, $after: String) {
  games(tag: "paged", first: $first, after: $after) {
    edges { cursor node { id } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}"""

EVENTS = """
query($id: ID!, $first: Int!, $after: String) {
  events(gameId: $id, first: $first, after: $after) {
    gameId version status
    edges { cursor node { version seat action } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}"""


def walk(gql, query: str, variables: dict, token: str | None, field: str) -> list[dict]:
    """Every page of a connection, following `endCursor` until `hasNextPage` is false."""
    pages = []
    after = None
    for _ in range(100):
        page = gql.data(query, {**variables, "after": after}, token)[field]
        pages.append(page)
        info = page["pageInfo"]
        assert info["hasPreviousPage"] is (after is not None)
        if page["edges"]:
            assert info["startCursor"] == page["edges"][0]["cursor"]
            assert info["endCursor"] == page["edges"][-1]["cursor"]
        if not info["hasNextPage"]:
            return pages
        after = info["endCursor"]
    raise AssertionError("more than 100 pages")


def ids(page: dict) -> list[str]:
    return [edge["node"]["id"] for edge in page["edges"]]


def test_games_page_newest_first_and_the_last_page_says_nothing_follows(api, gql):
    platform = api.auth(api.platform_key)
    created = [api.create(tags=["paged"], headers=platform)["id"] for _ in range(5)]
    pages = walk(gql, GAMES, {"first": 2}, api.platform_key, "games")
    assert [len(page["edges"]) for page in pages] == [2, 2, 1]
    assert [game for page in pages for game in ids(page)] == list(reversed(created))
    exact = gql.data(GAMES, {"first": 5}, api.platform_key)["games"]
    assert ids(exact) == list(reversed(created)) and exact["pageInfo"]["hasNextPage"] is False


def test_a_games_cursor_survives_newer_games_being_created(api, gql):
    platform = api.auth(api.platform_key)
    older = [api.create(tags=["paged"], headers=platform)["id"] for _ in range(3)]
    first = gql.data(GAMES, {"first": 1}, api.platform_key)["games"]
    api.create(tags=["paged"], headers=platform)
    variables = {"first": 10, "after": first["pageInfo"]["endCursor"]}
    rest = gql.data(GAMES, variables, api.platform_key)["games"]
    assert ids(first) + ids(rest) == list(reversed(older))


def test_an_empty_listing_has_no_cursors(api, gql):
    page = gql.data(GAMES, {"first": 3}, api.platform_key)["games"]
    assert page == {
        "edges": [],
        "pageInfo": {
            "hasNextPage": False,
            "hasPreviousPage": False,
            "startCursor": None,
            "endCursor": None,
        },
    }


@pytest.mark.timeout(60)
def test_a_games_events_page_oldest_first_by_cursor_or_version(api, gql):
    seats = [{"name": "Bot A", "bot": "random"}, {"name": "Bot B", "bot": "random"}]
    created = api.create(seats=seats, seed=5)
    final = api.wait_until(created["id"], lambda d: d["status"] == "finished")
    pages = walk(gql, EVENTS, {"id": created["id"], "first": 3}, None, "events")
    versions = [edge["node"]["version"] for page in pages for edge in page["edges"]]
    assert versions == list(range(1, final["version"] + 1))
    assert {(page["gameId"], page["version"], page["status"]) for page in pages} == {
        (created["id"], final["version"], "FINISHED")
    }
    by_version = gql.data(
        """query($id: ID!) { events(gameId: $id, sinceVersion: 3, first: 3) {
        edges { cursor } pageInfo { hasPreviousPage } } }""",
        {"id": created["id"]},
    )["events"]
    assert by_version["edges"] == [{"cursor": edge["cursor"]} for edge in pages[1]["edges"]]
    assert by_version["pageInfo"]["hasPreviousPage"] is True


def test_after_and_since_version_together_are_refused(api, gql):
    created = api.create()
    cursor = base64.urlsafe_b64encode(b"events:0").decode()
    answer = gql(
        """query($id: ID!, $after: String) { events(gameId: $id, after: $after,
        sinceVersion: 0) { version } }""",
        {"id": created["id"], "after": cursor},
    )
    assert answer["errors"][0]["extensions"] == {"code": "invalid_query", "status": 400}
    assert "not both" in answer["errors"][0]["message"]


def _cursor(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode()


@pytest.mark.parametrize(
    "after",
    [
        "garbage",
        "%%%",
        "",
        "é",
        "A" * 5000,
        _cursor("records:000001700000000:abc"),  # another list's cursor
        _cursor("games:"),
        _cursor("games:'; DROP"),
        _cursor("games:+"),  # a Redis range bound, not a position
        _cursor("games:000001700000000:abc") + "\n",
        _cursor("games:000001700000000:abc").rstrip("="),  # not as this list writes them
    ],
)
def test_a_cursor_this_list_did_not_give_is_a_clear_error(api, gql, after):
    answer = gql(GAMES, {"first": 2, "after": after}, api.platform_key)
    [error] = answer["errors"]
    assert error["extensions"] == {"code": "invalid_cursor", "status": 400}
    assert "not a cursor of this list" in error["message"]
    assert answer["data"] == {"games": None}  # the field alone, not the whole answer


@pytest.mark.parametrize("after", [_cursor("events:-1"), _cursor("events:01"), _cursor("x:1")])
def test_an_events_cursor_must_hold_a_version(api, gql, after):
    created = api.create()
    answer = gql(EVENTS, {"id": created["id"], "first": 2, "after": after})
    assert answer["errors"][0]["extensions"] == {"code": "invalid_cursor", "status": 400}


def test_a_well_formed_cursor_of_a_game_long_gone_just_pages_on(api, gql):
    """A cursor is a position in the list, not a game: one whose game expired (or that a
    client wrote itself) pages on from where it would be."""
    api.create(tags=["paged"], headers=api.auth(api.platform_key))
    after = _cursor("games:999999999999999:zzzz")
    page = gql.data(GAMES, {"first": 2, "after": after}, api.platform_key)["games"]
    assert len(page["edges"]) == 1 and page["pageInfo"]["hasPreviousPage"] is True


@pytest.mark.parametrize(
    ("query", "limit"),
    [
        ("{ games(first: 0) { edges { cursor } } }", 100),
        ("{ games(first: 101) { edges { cursor } } }", 100),
        ("{ records(first: -3) { edges { cursor } } }", 100),
        ('{ events(gameId: "aaaaaaaaaaaaaaaaaaaaaaaa", first: 1001) { version } }', 1000),
    ],
)
def test_first_outside_its_bounds_is_a_clear_error(api, gql, query, limit):
    answer = gql(query, token=api.platform_key)
    [error] = answer["errors"]
    assert error["extensions"] == {"code": "invalid_query", "status": 400, "limit": limit}
    assert error["message"] == f"first must be a whole number from 1 to {limit}."
