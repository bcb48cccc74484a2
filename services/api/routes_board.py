"""REST: the board as a picture (SVG), drawn from the reader's own view."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from services.gameplay.problems import Problem

from . import pictures
from .compression import encode
from .inputs import credentials, service
from .operations import BEARER_OR_NONE, Answer, operation
from .params import CACHE_CONTROL, ETAG, IF_NONE_MATCH, VARY_AUTHORIZATION, GamePath
from .preconditions import not_modified

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
    tag="games",
    security=BEARER_OR_NONE,
    headers=(IF_NONE_MATCH,),
    answers=(
        Answer(
            200,
            "The picture (weak ETag, Vary: Authorization)",
            {"image/svg+xml": {"type": "string"}},
            headers=(ETAG, VARY_AUTHORIZATION, CACHE_CONTROL),
        ),
        Answer(
            304,
            "Unchanged since the ETag in If-None-Match",
            headers=(ETAG, VARY_AUTHORIZATION, CACHE_CONTROL),
        ),
    ),
    problems=(401, 409),
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
    # Tagged by the document's version and reader (and the drawing code), so a client
    # that holds this picture gets a 304 and nothing is drawn.
    headers = {**SVG_HEADERS, "ETag": pictures.entity_tag(document)}
    if not_modified(request, headers["ETag"]):
        return Response(status_code=304, headers=headers)
    svg = pictures.draw(document, game.view_model, game.title).encode()
    return Response(encode(request, svg, headers), media_type="image/svg+xml", headers=headers)


operations = [board_svg]
