"""Registration fails loudly: everything under the games package must be a game, and
no two games may share an id. Checked on throw-away packages in a temporary directory."""

import textwrap
import uuid
from pathlib import Path

import pytest

from services.engine import RegistrationError, UnknownGame, all_games, get_game, register, registry

GAME_SOURCE = """
from blind_bid import BlindBid


class {cls}(BlindBid):
    id = "{game_id}"


game = {cls}()
"""


@pytest.fixture
def games_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """add(name, source) writes a subpackage of a fresh games package, which discovery
    then reads instead of services.games."""
    name = f"scratch_games_{uuid.uuid4().hex[:8]}"
    root = tmp_path / name
    root.mkdir()
    (root / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "GAMES_PACKAGE", name)
    monkeypatch.setattr(registry, "_games", {})
    monkeypatch.setattr(registry, "_discovered", False)

    def add(package: str, source: str) -> None:
        (root / package).mkdir()
        (root / package / "__init__.py").write_text(textwrap.dedent(source))

    return add


def a_game(cls: str, game_id: str) -> str:
    return GAME_SOURCE.format(cls=cls, game_id=game_id)


def test_packages_that_expose_a_game_are_discovered(games_package):
    games_package("first", a_game("First", "first-game"))
    games_package("second", a_game("Second", "second-game"))
    assert [g.id for g in all_games()] == ["first-game", "second-game"]
    assert get_game("second-game").id == "second-game"


def test_a_package_without_a_game_stops_discovery(games_package):
    games_package("good", a_game("Good", "good-game"))
    games_package("half_done", "RULES = 'not written yet'\n")
    with pytest.raises(RegistrationError, match=r"half_done has no module-level `game`"):
        all_games()
    with pytest.raises(RegistrationError, match="half_done"):
        get_game("good-game")  # still refused: nothing is served from a broken package


def test_a_game_attribute_that_is_not_a_game_stops_discovery(games_package):
    games_package("wrong", "game = 'sky-islands'\n")
    with pytest.raises(RegistrationError, match=r"wrong.game is a str, not a services.engine"):
        all_games()


def test_two_games_with_one_id_stop_discovery(games_package):
    games_package("one", a_game("One", "same-id"))
    games_package("other", a_game("Other", "same-id"))
    with pytest.raises(RegistrationError, match="two games are called 'same-id'") as error:
        all_games()
    assert ".one.One" in str(error.value) and ".other.Other" in str(error.value)


def test_register_refuses_a_second_game_with_a_taken_id(games_package):
    from blind_bid import BlindBid

    register(BlindBid())
    with pytest.raises(RegistrationError, match="two games are called 'blind-bid'"):
        register(BlindBid())


def test_unknown_game_ids_still_name_the_known_ones(games_package):
    games_package("only", a_game("Only", "only-game"))
    with pytest.raises(UnknownGame) as error:
        get_game("chess")
    assert error.value.details["known"] == ["only-game"]


def test_every_entry_of_the_real_games_package_is_a_registered_game():
    import pkgutil

    import services.games

    entries = [m.name for m in pkgutil.iter_modules(services.games.__path__)]
    assert len(all_games()) == len(entries) >= 2
