"""The checked-in SDL (schema/schema.graphql) is exactly the schema the service serves."""

from __future__ import annotations

from schema.export import SDL_PATH, current_sdl


def test_the_checked_in_sdl_matches_the_schema():
    assert SDL_PATH.read_text() == current_sdl(), (
        "schema/schema.graphql is out of date: run `python -m schema.export` and commit it"
    )


def test_every_registered_game_has_a_typed_view_in_the_sdl():
    from schema.views import pascal
    from services.engine import all_games

    sdl = SDL_PATH.read_text()
    union = next(line for line in sdl.splitlines() if line.startswith("union GameView"))
    for game in all_games():
        assert f"{pascal(game.id)}View" in union
        assert f"type {pascal(game.id)}View {{" in sdl
