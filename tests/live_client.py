"""A client that plays a game through REST, shared by the live-update tests (SSE and the
GraphQL subscription), which watch the moves it makes."""

from __future__ import annotations


async def play_one(http, game_id: str, tokens: list[str]) -> bool:
    """Make one move (the first legal one) for whoever is prompted. False once over."""
    game = (await http.get(f"/v1/games/{game_id}")).json()
    if game["status"] != "active":
        return False
    seat = game["turn"][0]
    auth = {"Authorization": f"Bearer {tokens[seat]}"}
    moves = (await http.get(f"/v1/games/{game_id}/legal-moves", headers=auth)).json()["moves"]
    answer = await http.post(f"/v1/games/{game_id}/moves", json={"move": moves[0]}, headers=auth)
    assert answer.status_code == 200, answer.text
    return True
