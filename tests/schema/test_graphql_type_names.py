"""Generated GraphQL type names never clash: two games (or two models of one game) that
would get the same name stop the schema from being built, instead of one of them being
renamed with a counter suffix that depends on which games happen to be registered."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from pydantic import BaseModel
from strawberry.exceptions import DuplicatedTypeName

from schema.schema import build_schema
from schema.views import TypeNameClash

sys.path.insert(0, str(Path(__file__).parents[1] / "engine"))
from blind_bid import BlindBid, BlindBidView  # noqa: E402


def game_called(game_id: str, view_model: type[BaseModel] = BlindBidView) -> BlindBid:
    cls = type(f"Game_{game_id}", (BlindBid,), {"id": game_id, "view_model": view_model})
    return cls()


def test_two_game_ids_with_the_same_graphql_name_are_refused():
    games = {"blind-bid": game_called("blind-bid"), "blind_bid": game_called("blind_bid")}
    with pytest.raises(TypeNameClash, match="games 'blind-bid' and 'blind_bid' would both"):
        build_schema(games)


class SecondView(BlindBidView):
    pass


def test_two_view_models_that_would_share_a_name_are_refused():
    # Game "bx" names its nested model SecondView "BxSecondView", the very name game
    # "bx-second" needs for its own view.
    games = {"bx": game_called("bx", TwoViewsView), "bx-second": game_called("bx-second")}
    with pytest.raises(TypeNameClash, match="GraphQL type name BxSecondView") as error:
        build_schema(games)
    assert "'bx'" in str(error.value) and "'bx-second'" in str(error.value)


def test_a_game_whose_view_would_be_named_like_the_view_union_is_refused():
    with pytest.raises(TypeNameClash, match="GameView would be made both from the union"):
        build_schema({"game": game_called("game")})


class TwoViewsView(BaseModel):
    second: SecondView


class Marker(BaseModel):
    colour: str


OtherMarker = type("Marker", (BaseModel,), {"__annotations__": {"size": int}})


class TwoMarkersView(BaseModel):
    mine: Marker
    theirs: OtherMarker  # type: ignore[valid-type]


def test_two_models_of_one_game_with_one_name_are_refused():
    with pytest.raises(TypeNameClash, match="GraphQL type name TokensMarker"):
        build_schema({"tokens": game_called("tokens", TwoMarkersView)})


class Entry(BaseModel):
    text: str


class JournalView(BaseModel):
    entry: Entry


def test_a_generated_name_taken_by_a_fixed_type_is_refused():
    # Game "log" would name its Entry model LogEntry, which the schema already has.
    with pytest.raises(DuplicatedTypeName, match="LogEntry"):
        build_schema({"log": game_called("log", JournalView)})


def test_the_served_games_get_one_distinct_type_each(games):
    from blind_bid import blind_bid, blind_bid_solo

    schema = build_schema({**games, "blind-bid": blind_bid, "blind-bid-solo": blind_bid_solo})
    sdl = schema.as_str()
    for name in ("BlindBidView", "BlindBidSoloView", "HiddenNumbersView", "SkyIslandsView"):
        assert f"type {name} {{" in sdl
