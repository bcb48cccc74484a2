"""Hidden information never leaves through any door.

Whole games are played through the API. At every version, for every seat's token and
for a spectator, everything that reader can get — the game view, legal moves, move
answers, errors, the event log as JSON, the SSE stream and GraphQL — is searched for
what that reader must not know at that version: other seats' hands and the draw pile
(Sky Islands: tile ids; Hidden Numbers: card ids), taking into account what the rules
have revealed to everyone (a hand shown before a forced discard); for Dominion, whose
card names every player shares, by structure: other hands, any deck, others' drawn
cards and others' prompt options.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson
import pytest
import redis as sync_redis
from graphql import GraphQLObjectType, GraphQLUnionType, get_named_type

from services.engine import Game, get_game
from services.store import LogEntry

Document = Any
Secrets = set


# --- what each game hides, and how its documents name hidden things ----------------------


class HiddenNumbersSecrets:
    game_id = "hidden-numbers"
    options = {"rounds": 3}
    _card = re.compile(r"\b(c\d\d)\b")  # anywhere, a label's text included

    def secrets(self, game: Game, state: Any, viewer: int | None, revealed: set) -> set:
        hidden = set(state.deck)
        for seat in range(state.players):
            if seat != viewer:
                hidden |= set(state.hands[seat])
                if state.discards[seat] is not None:
                    hidden.add(state.discards[seat])
        return hidden - revealed

    def references(self, document: Document) -> set:
        return set(self._card.findall(orjson.dumps(document).decode()))

    def revealed_by(self, full_events: list[dict]) -> set:
        return {e["card"] for e in full_events if e["kind"] == "played"}


class SkyIslandsSecrets:
    game_id = "sky-islands"
    options: dict = {}
    tile_keys = frozenset({"tile", "tiles", "hand", "pile", "returned", "discarded"})

    def secrets(self, game: Game, state: Any, viewer: int | None, revealed: set) -> set:
        hidden = set(state.pile) | set(state.returned)
        for seat, merchant in enumerate(state.merchants):
            if seat != viewer:
                hidden |= set(merchant.hand)
        return hidden - revealed

    def references(self, document: Document) -> set:
        found: set[int] = set()
        self._walk(document, False, found)
        return found

    def _walk(self, node: Any, tile_context: bool, found: set) -> None:
        if isinstance(node, dict):
            if tile_context and isinstance(node.get("id"), int):
                found.add(node["id"])
            for key, value in node.items():
                self._walk(value, tile_context or key in self.tile_keys, found)
        elif isinstance(node, list):
            for item in node:
                self._walk(item, tile_context, found)
        elif tile_context and isinstance(node, int) and not isinstance(node, bool):
            found.add(node)

    def revealed_by(self, full_events: list[dict]) -> set:
        shown = set()
        for event in full_events:
            if event["kind"] == "hand_revealed":
                shown |= set(event["tiles"])
        return shown


class DominionSecrets:
    """Card names are shared by every player, so Dominion is checked by structure: no
    reader sees another seat's hand, anybody's deck, another seat's drawn (private)
    cards, or another seat's prompt options (which list its hand)."""

    game_id = "dominion"
    options: dict = {}
    private_kinds = frozenset({"cards_drawn", "cards_to_hand", "cards_set_aside"})

    def secrets(self, game: Game, state: Any, viewer: int | None, revealed: set) -> set:
        others = [s for s in range(state.players) if s != viewer]
        hidden = {("hand", s) for s in others} | {("private cards", s) for s in others}
        hidden |= {("prompt options", s) for s in others}
        return hidden | {("deck", s) for s in range(state.players)}

    def references(self, document: Document) -> set:
        found: set = set()
        self._walk(document, found)
        return found

    def _walk(self, node: Any, found: set) -> None:
        if isinstance(node, dict):
            seat = node.get("seat")
            if isinstance(seat, int):
                if node.get("hand") is not None:
                    found.add(("hand", seat))
                if isinstance(node.get("deck"), list):
                    found.add(("deck", seat))
                if node.get("kind") in self.private_kinds and "cards" in node:
                    found.add(("private cards", seat))
                is_prompt = "min_picks" in node or "minPicks" in node
                if is_prompt and node.get("options"):
                    found.add(("prompt options", seat))
            for value in node.values():
                self._walk(value, found)
        elif isinstance(node, list):
            for item in node:
                self._walk(item, found)

    def revealed_by(self, full_events: list[dict]) -> set:
        return set()


class SkyLanternsSecrets:
    """Starting (S..), Teapot (T..) cards and Upgrade Tiles (U..) by id: the deck, the
    Starting cards left out unseen, other seats' hands and drafting packets and picks,
    and every face-down Upgrade Tile (even its owner's, and the solo opponent's) unless
    the arrangement variant laid them face up."""

    game_id = "sky-lanterns"
    options: dict = {"starting_card_draft": True, "teapot_market": True}

    def __init__(self) -> None:
        self.seen_in_market: set[str] = set()
        """Cards that lay face up in the Teapot market at some version: one drawn from
        there is known by everyone to be in that hand (solo games keep no note of it)."""

    _component = re.compile(r"\b([STU]\d\d)\b")  # anywhere, a label's text included

    def secrets(self, game: Game, state: Any, viewer: int | None, revealed: set) -> set:
        self.seen_in_market |= set(state.market or ())
        drawn_from_market = {c for p in state.seats for c in p.hand} & self.seen_in_market
        hidden = set(state.deck) | set(state.unused_starting)
        for seat, player in enumerate(state.seats):
            if seat != viewer:
                hidden |= set(player.hand)
                if state.draft_packets:
                    hidden |= set(state.draft_packets[seat])
                if state.draft_picks and state.draft_picks[seat] is not None:
                    hidden.add(state.draft_picks[seat])
            if not state.tiles_face_up:
                hidden |= {tile for tile in player.upgrades if tile is not None}
        if state.rival is not None:  # solo: the virtual opponent's face-down tiles
            hidden |= {tile for tile in state.rival.upgrades if tile is not None}
        passed = {c for k in state.known_cards if viewer in k.knowers for c in k.cards}
        return hidden - revealed - drawn_from_market - passed

    def references(self, document: Document) -> set:
        return set(self._component.findall(orjson.dumps(document).decode()))

    def revealed_by(self, full_events: list[dict]) -> set:
        return set()


# --- the game being played, and what was secret when --------------------------------------


@dataclass
class Reader:
    name: str
    seat: int | None
    token: str | None


@dataclass
class Table:
    api: Any
    rules: Any
    game: Game
    game_id: str
    readers: list[Reader]
    redis: sync_redis.Redis
    prefix: str
    secrets_at: dict[tuple[int, str], set] = field(default_factory=dict)
    revealed: set = field(default_factory=set)
    checked: int = 0

    def record_secrets(self) -> int:
        raw = self.redis.hgetall(f"{self.prefix}:{{{self.game_id}}}:game")
        version = int(raw[b"version"])
        for _, fields in self.redis.xrange(
            f"{self.prefix}:{{{self.game_id}}}:log", min=f"{version}-0", max=f"{version}-0"
        ):
            entry = LogEntry.from_json(fields[b"entry"])
            self.revealed |= self.rules.revealed_by(entry.events.full)
        state = self.game.load_state(raw[b"state"])
        for reader in self.readers:
            self.secrets_at[(version, reader.name)] = self.rules.secrets(
                self.game, state, reader.seat, self.revealed
            )
        return version

    def check(self, reader: Reader, version: int, document: Document, door: str) -> None:
        leaked = self.rules.references(document) & self.secrets_at[(version, reader.name)]
        assert not leaked, f"{door} showed {reader.name} hidden {sorted(leaked)} at v{version}"
        self.checked += 1


def rest_doors(table: Table, reader: Reader, version: int) -> Iterator[tuple[str, Document]]:
    client, auth = table.api.client, table.api.auth(reader.token)
    base = f"/v1/games/{table.game_id}"
    game = client.get(base, headers=auth).json()
    assert game["version"] == version
    yield "GET game", game
    latest = client.get(f"{base}/events", params={"since": max(version - 1, 0)}, headers=auth)
    yield "GET events", latest.json()
    if reader.seat is not None:
        yield "GET legal-moves", client.get(f"{base}/legal-moves", headers=auth).json()
    else:
        yield "legal-moves refused", client.get(f"{base}/legal-moves", headers=auth).json()


def sse_frames(api, game_id: str, token: str | None) -> Iterator[tuple[int | None, Any]]:
    """The whole SSE stream of a finished game (it ends by itself): (version, data)."""
    headers = {**api.auth(token), "Accept": "text/event-stream"}
    body = api.client.get(f"/v1/games/{game_id}/events", headers=headers).text
    frames = 0
    for block in body.split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "data" in lines:
            frames += 1
            version = lines["id"].removesuffix("-end")
            yield int(version), orjson.loads(lines["data"])
    assert frames > 1 and '"status":"finished"' in body


def play_and_check(
    api,
    rules,
    redis_url: str,
    prefix: str,
    players: int,
    seed: int,
    extra_doors: Callable | None = None,
    final_doors: Callable | None = None,
    every: int = 1,
) -> Table:
    """Checks every door at every `every`-th version, and every move answer."""
    game = api.client.app.state.service.games[rules.game_id]
    created = api.create(rules.game_id, players, options=rules.options, seed=seed)
    readers = [Reader(f"seat {s['seat']}", s["seat"], s["token"]) for s in created["seats"]]
    readers.append(Reader("spectator", None, None))
    table = Table(
        api, rules, game, created["id"], readers, sync_redis.Redis.from_url(redis_url), prefix
    )
    chooser = random.Random(seed)
    tokens = {r.seat: r.token for r in readers if r.seat is not None}
    try:
        while True:
            version = table.record_secrets()
            for reader in readers if version % every == 0 else []:
                for door, document in rest_doors(table, reader, version):
                    table.check(reader, version, document, door)
                if extra_doors:
                    for door, document in extra_doors(table, reader, version):
                        table.check(reader, version, document, door)
            state = api.game(created["id"])
            if state["status"] != "active":
                break
            mover = state["turn"][0]
            idle = next((s for s in tokens if s not in state["turn"]), None)
            if (
                idle is not None and version % every == 0
            ):  # a refused move says nothing it should not
                moves_of_mover = api.legal(created["id"], tokens[mover])
                refused = api.move(created["id"], tokens[idle], moves_of_mover[0])
                assert refused.status_code == 422
                table.check(readers[idle], version, refused.json(), "refused move")
            move = chooser.choice(api.legal(created["id"], tokens[mover]))
            answer = api.move(created["id"], tokens[mover], move, expected_version=version)
            assert answer.status_code == 200, answer.text
            new_version = table.record_secrets()
            table.check(readers[mover], new_version, answer.json(), "move answer")
        final = api.wait_until(created["id"], lambda d: d["status"] == "finished")
        for reader in readers:
            every = api.events(created["id"], reader.token)
            for entry in every["entries"]:
                table.check(reader, entry["version"], entry, "event log")
            result = api.client.get(f"/v1/games/{created['id']}/result").json()
            table.check(reader, final["version"], result, "result")
            for version, frame in sse_frames(api, created["id"], reader.token):
                table.check(reader, version or final["version"], frame, "SSE")
            for door, version, document in final_doors(table, reader) if final_doors else []:
                table.check(reader, version, document, door)
    finally:
        table.redis.close()
    return table


# --- GraphQL doors: every field of every type, and the subscription -----------------------


def selection(graphql_type: Any, view_type: str, seen: tuple = ()) -> str:
    """A selection set asking for every field under `graphql_type`, taking only the
    `view_type` member of the GameView union (other members would clash on names)."""
    named = get_named_type(graphql_type)
    if isinstance(named, GraphQLUnionType):
        members = [m for m in named.types if named.name != "GameView" or m.name == view_type]
        parts = [f"... on {m.name} {selection(m, view_type, seen)}" for m in members]
        return "{ __typename " + " ".join(parts) + " }"
    if not isinstance(named, GraphQLObjectType) or named.name in seen:
        return ""
    fields = [
        f"{name} {selection(field.type, view_type, (*seen, named.name))}"
        for name, field in named.fields.items()
    ]
    return "{ " + " ".join(fields) + " }"


def graphql_doors(rules) -> tuple[Callable, Callable]:
    view_type = "".join(p.capitalize() for p in rules.game_id.split("-")) + "View"

    def queries(table: Table) -> tuple[str, str, str]:
        schema = next(
            route.app.schema
            for route in table.api.client.app.routes
            if getattr(route, "name", "") == "graphql"
        )._schema
        query = schema.query_type.fields
        subscription = schema.subscription_type.fields["gameEvents"]
        read = (
            "query($id: ID!, $since: Int!) { "
            f"game(id: $id) {selection(query['game'].type, view_type)} "
            f"events(gameId: $id, sinceVersion: $since) "
            f"{selection(query['events'].type, view_type)} }}"
        )
        legal = (
            "query($id: ID!) { legalMoves(gameId: $id) "
            f"{selection(query['legalMoves'].type, view_type)} }}"
        )
        follow = (
            "subscription($id: ID!) { gameEvents(gameId: $id, sinceVersion: 0) "
            f"{selection(subscription.type, view_type)} }}"
        )
        return read, legal, follow

    def each_version(table: Table, reader: Reader, version: int):
        read, legal, _ = queries(table)
        variables = {"id": table.game_id, "since": max(version - 1, 0)}
        yield "GraphQL game+events", _gql(table, read, variables, reader.token)
        yield "GraphQL legalMoves", _gql(table, legal, {"id": table.game_id}, reader.token)

    def at_the_end(table: Table, reader: Reader):
        _, _, follow = queries(table)
        with table.api.client.websocket_connect(
            "/graphql", subprotocols=["graphql-transport-ws"]
        ) as socket:
            params = {"Authorization": f"Bearer {reader.token}"} if reader.token else {}
            socket.send_json({"type": "connection_init", "payload": params})
            assert socket.receive_json()["type"] == "connection_ack"
            socket.send_json(
                {
                    "id": "1",
                    "type": "subscribe",
                    "payload": {"query": follow, "variables": {"id": table.game_id}},
                }
            )
            while (message := socket.receive_json())["type"] == "next":
                update = message["payload"]["data"]["gameEvents"]
                yield "GraphQL subscription", update["version"], update

    return each_version, at_the_end


def _gql(table: Table, query: str, variables: dict, token: str | None) -> Document:
    answer = table.api.client.post(
        "/graphql", json={"query": query, "variables": variables}, headers=table.api.auth(token)
    )
    assert answer.status_code == 200
    document = answer.json()
    errors = document.get("errors") or []
    assert all(e["extensions"]["code"] != "invalid_query" for e in errors), errors
    return document


@pytest.mark.parametrize("players,seed", [(2, 3), (4, 8)])
def test_hidden_numbers_hands_never_leak_through_any_door(api, redis_url, settings, players, seed):
    rules = HiddenNumbersSecrets()
    each_version, at_the_end = graphql_doors(rules)
    table = play_and_check(
        api, rules, redis_url, settings.key_prefix, players, seed, each_version, at_the_end
    )
    assert table.checked > 100


@pytest.mark.parametrize("players,seed", [(2, 21), (4, 5)])
def test_sky_islands_hand_tiles_never_leak_through_any_door(
    api, redis_url, settings, players, seed
):
    rules = SkyIslandsSecrets()
    each_version, at_the_end = graphql_doors(rules)
    table = play_and_check(
        api, rules, redis_url, settings.key_prefix, players, seed, each_version, at_the_end
    )
    assert table.checked > 400


def test_dominion_hands_decks_and_draws_never_leak_through_any_door(api, redis_url, settings):
    rules = DominionSecrets()
    each_version, at_the_end = graphql_doors(rules)
    table = play_and_check(
        api, rules, redis_url, settings.key_prefix, 2, 17, each_version, at_the_end, every=40
    )
    assert table.checked > 500


@pytest.mark.parametrize("players,seed", [(1, 2), (2, 6), (3, 4), (4, 9)])
def test_sky_lanterns_hands_deck_and_face_down_tiles_never_leak_through_any_door(
    api, redis_url, settings, players, seed
):
    rules = SkyLanternsSecrets()
    each_version, at_the_end = graphql_doors(rules)
    table = play_and_check(
        api,
        rules,
        redis_url,
        settings.key_prefix,
        players,
        seed,
        each_version,
        at_the_end,
        every=25,
    )
    assert table.checked > 300


def test_the_checker_would_see_a_leak(hidden_numbers):
    """The search is not vacuous: a seat's own view names cards a spectator must not see."""
    rules = HiddenNumbersSecrets()
    state = hidden_numbers.setup({}, 2, 1)
    mine = hidden_numbers.view(state, 0).model_dump(mode="json")
    assert rules.references(mine) & rules.secrets(hidden_numbers, state, None, set())
    sky = get_game("sky-islands")
    sky_state = sky.setup({}, 2, 1)
    own = sky.view(sky_state, 0).model_dump(mode="json")
    rules_sky = SkyIslandsSecrets()
    assert rules_sky.references(own) & rules_sky.secrets(sky, sky_state, 1, set())
    dominion = get_game("dominion")
    dominion_state = dominion.setup({}, 2, 1)
    rules_dominion = DominionSecrets()
    seat_view = dominion.view(dominion_state, 0).model_dump(mode="json")
    assert rules_dominion.references(seat_view) & rules_dominion.secrets(
        dominion, dominion_state, 1, set()
    )
    lanterns = get_game("sky-lanterns")
    lanterns_state = lanterns.setup({"starting_card_draft": True}, 3, 1)
    rules_lanterns = SkyLanternsSecrets()
    drafting = lanterns.view(lanterns_state, 0).model_dump(mode="json")
    assert rules_lanterns.references(drafting) & rules_lanterns.secrets(
        lanterns, lanterns_state, 1, set()
    )
    face_down = rules_lanterns.secrets(lanterns, lanterns_state, 0, set())
    assert {t for t in face_down if t.startswith("U")}, "its own face-down tiles are secret"
    # An id inside a sentence (a label, a prompt's text) is found too, not only as a value.
    said = {"label": "Pass c07 and U12 to the left", "at": "2026-12-05T04:55:45Z"}
    assert rules.references(said) == {"c07"}
    assert rules_lanterns.references(said) == {"U12"}
