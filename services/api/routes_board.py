"""REST: the board as a picture (SVG), drawn from the reader's own view."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from services.gameplay.problems import Problem

from . import pictures
from .inputs import credentials, service
from .operations import BEARER_OR_NONE, Answer, operation
from .params import GamePath

SVG_HEADERS = {
    "Cache-Control": "private, no-store",
    "Vary": "Authorization",
    "X-Content-Type-Options": "nosniff",
    # Opened on its own, the picture may not run or fetch anything.
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
}


@operation(
    "GET",
    "/v1/games/{game_id}/board.svg",
    summary="The board as an SVG picture, drawn from the view for your token "
    "(a spectator's without one). 404 no_picture for a game without a drawing.",
    security=BEARER_OR_NONE,
    answers=(Answer(200, "The picture", {"image/svg+xml": {"type": "string"}}),),
    problems=(401,),
    operation_id="boardPicture",
)
async def board_svg(request: Request, path: GamePath) -> Response:
    gameplay = service(request)
    # The same read, checks and redaction as GET /v1/games/{id}: the picture is drawn
    # from the view in that document and from nothing else.
    document = await gameplay.get_game(path.game_id, credentials(request))
    game = gameplay.games[document.game]
    if not pictures.has_picture(document.game):
        raise Problem(404, "no_picture", f"There is no board picture for {game.title} yet.")
    svg = pictures.draw(document, game.view_model, game.title)
    return Response(svg, media_type="image/svg+xml", headers=SVG_HEADERS)


operations = [board_svg]
