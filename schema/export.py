"""Write the SDL of the schema for every registered game to schema/schema.graphql.

python -m schema.export          # rewrite the checked-in SDL
python -m schema.export --check  # exit 1 if it is out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

from services.engine import all_games

from .schema import sdl

SDL_PATH = Path(__file__).with_name("schema.graphql")


def current_sdl() -> str:
    return sdl({game.id: game for game in all_games()})


def main(argv: list[str]) -> int:
    text = current_sdl()
    if "--check" in argv:
        if SDL_PATH.read_text() != text:
            print(f"{SDL_PATH} is out of date: run python -m schema.export", file=sys.stderr)
            return 1
        return 0
    SDL_PATH.write_text(text)
    print(f"wrote {SDL_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
