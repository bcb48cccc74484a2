"""Each REST route's path, query and body are pydantic models that both parse the request
and make its OpenAPI entry: what the document promises is what the route accepts, and
every route the app serves under /v1 is documented."""

from __future__ import annotations

import pytest
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from services.api.operations import json_answer, operation
from services.api.params import GamePath, GameSeatPath, PageQuery
from services.gameplay.payloads import MAX_EVENTS_PAGE, MAX_GAMES_PAGE, Catalog


def parameter(document: dict, path: str, method: str, name: str) -> dict:
    operation_ = document["paths"][path][method]
    return next(p for p in operation_["parameters"] if p["name"] == name)


def test_every_v1_route_the_app_serves_is_documented(client):
    documented = {
        (method.upper(), path)
        for path, methods in client.get("/openapi.json").json()["paths"].items()
        for method in methods
    }
    served = {
        (method, route.path.replace("{version:int}", "{version}").replace("{seat:int}", "{seat}"))
        for route in client.app.routes
        if isinstance(route, Route) and route.path.startswith("/v1/")
        for method in route.methods or ()
        if method != "HEAD"
    }
    assert served == documented


def test_the_documented_page_size_is_the_one_enforced(api):
    document = api.client.get("/openapi.json").json()
    limit = parameter(document, "/v1/games", "get", "limit")["schema"]
    assert (limit["minimum"], limit["maximum"]) == (1, MAX_GAMES_PAGE)
    key = api.auth(api.platform_key)
    assert api.client.get(f"/v1/games?limit={MAX_GAMES_PAGE}", headers=key).status_code == 200
    over = api.client.get(f"/v1/games?limit={MAX_GAMES_PAGE + 1}", headers=key)
    assert over.status_code == 400 and over.json()["code"] == "invalid_query"
    message = f"Input should be less than or equal to {MAX_GAMES_PAGE}"
    assert over.json()["errors"] == [{"location": ["limit"], "message": message}]
    events = parameter(document, "/v1/games/{game_id}/events", "get", "limit")["schema"]
    assert events["maximum"] == MAX_EVENTS_PAGE


@pytest.mark.parametrize("value", ["1.0", "+1", " 1", "1_0", "1e1", "", "0x1"])
def test_a_query_number_is_plain_digits(api, value):
    created = api.create()
    answer = api.client.get(f"/v1/games/{created['id']}/events", params={"since": value})
    assert answer.status_code == 400 and answer.json()["code"] == "invalid_query"
    assert answer.json()["errors"][0]["location"] == ["since"]


def test_a_documented_enum_refuses_what_it_does_not_list(api):
    document = api.client.get("/openapi.json").json()
    status = parameter(document, "/v1/games", "get", "status")["schema"]
    listed = document["components"]["schemas"][status["$ref"].rsplit("/", 1)[1]]["enum"]
    key = api.auth(api.platform_key)
    for value in listed:
        assert api.client.get("/v1/games", params={"status": value}, headers=key).status_code == 200
    bogus = api.client.get("/v1/games", params={"status": "paused"}, headers=key)
    assert bogus.status_code == 400 and bogus.json()["errors"][0]["location"] == ["status"]


def test_an_unknown_query_parameter_names_the_known_ones(api):
    answer = api.client.get("/v1/records?page=2", headers=api.auth(api.platform_key))
    assert answer.status_code == 400 and answer.json()["code"] == "unknown_query_parameter"
    assert "known here: tag, limit, cursor." in answer.json()["detail"]
    catalog = api.client.get("/v1/catalog?x=1")
    assert catalog.status_code == 400 and "known here: none." in catalog.json()["detail"]
    documented = api.client.get("/openapi.json").json()["paths"]["/v1/catalog"]["get"]
    assert "400" in documented["responses"]


def test_a_path_the_model_refuses_is_the_games_404(api):
    answer = api.client.get("/v1/games/" + "a" * 25 + "/legal-moves")
    assert answer.status_code == 404 and answer.json()["code"] == "game_not_found"
    document = api.client.get("/openapi.json").json()
    game_id = parameter(document, "/v1/games/{game_id}", "get", "game_id")
    assert game_id["required"] and game_id["schema"]["pattern"] == "^[a-z2-7]{24}$"


def test_query_parameters_are_never_documented_as_null(client):
    for path_item in client.get("/openapi.json").json()["paths"].values():
        for documented in path_item.values():
            for listed in documented.get("parameters", []):
                assert "null" not in str(listed["schema"]), listed


def test_a_declaration_whose_path_and_model_disagree_is_refused():
    async def claim(request: Request, path: GamePath) -> Response:
        raise AssertionError("never called")

    declare = operation(
        "POST",
        "/v1/games/{game_id}/seats/{seat:int}/claim",
        summary="Claim a seat.",
        tag="seats",
        answers=(json_answer(200, Catalog, "Claimed"),),
    )
    with pytest.raises(TypeError, match="seat"):
        declare(claim)


def test_a_declaration_takes_only_path_query_and_body():
    async def listing(request: Request, query: PageQuery, page: int) -> Response:
        raise AssertionError("never called")

    async def seat(request: Request, path: GameSeatPath, query: GamePath) -> Response:
        raise AssertionError("never called")

    declare = operation("GET", "/v1/things", summary="Things.", tag="games", answers=())
    with pytest.raises(TypeError, match="'page' is not path, query or body"):
        declare(listing)
    seats = operation(
        "GET", "/v1/games/{game_id}/seats/{seat:int}", summary="A.", tag="seats", answers=()
    )
    with pytest.raises(TypeError, match="'query' must be a QueryParams"):
        seats(seat)


def test_a_value_with_a_trailing_newline_does_not_pass_for_a_pattern(api, gql):
    """Python's `$` matches before a final newline: the service checks whole values."""
    key = api.auth(api.platform_key)
    for name, value in (
        ("tag", "league\n"),
        ("game", "dominion\n"),
        ("cursor", "1" * 15 + ":ab\n"),
    ):
        answer = api.client.get("/v1/games", params={name: value}, headers=key)
        assert answer.status_code == 400, (name, answer.text)
        assert answer.json()["code"] == "invalid_query"
    query = 'query { games(tag: "league\\n") { edges { node { id } } } }'
    errors = gql(query, token=api.platform_key)["errors"]
    assert errors[0]["extensions"]["code"] == "invalid_query"
