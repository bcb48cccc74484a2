"""GET /v1/games/{id}/board.svg: a valid SVG drawn from the reader's own view — never
more than the JSON shows that reader — readable on a phone, with the same errors as
GET /v1/games/{id}."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from services.api import pictures
from services.api.pictures.scene import seat_colour
from services.api.pictures.svg import Svg

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE_NAME = "<i>&'\"]]>Zoë"
SCRIPT_NAME = '<script>alert("x")</script>'


def tokens_of(created: dict) -> dict[int, str]:
    return {seat["seat"]: seat["token"] for seat in created["seats"] if seat["token"]}


def picture(api, game_id: str, token: str | None = None) -> ET.Element:
    response = api.client.get(f"/v1/games/{game_id}/board.svg", headers=api.auth(token))
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "image/svg+xml"
    assert response.headers["x-content-type-options"] == "nosniff"
    root = ET.fromstring(response.content)
    assert root.tag == f"{SVG}svg"
    return root


def texts(root: ET.Element) -> list[str]:
    """Every line of text in the picture, as a reader sees it."""
    lines = []
    for element in root.iter(f"{SVG}text"):
        spans = list(element.iter(f"{SVG}tspan"))
        lines.extend(span.text or "" for span in spans) if spans else lines.append(element.text)
    return [line for line in lines if line]


def hand_chips(root: ET.Element) -> list[str]:
    """The card names drawn in the reader's hand (Dominion), in order."""
    return [
        element.text or ""
        for element in root.iter(f"{SVG}text")
        if element.get("class") == "hand-card"
    ]


def play_some(api, created: dict, moves: int, prefer: str | tuple[str, ...] = ()) -> None:
    """Make `moves` moves for the human seats: the first legal one, or the first of the
    earliest kind in `prefer` that has one."""
    kinds = (prefer,) if isinstance(prefer, str) else prefer
    tokens = tokens_of(created)
    for _ in range(moves):
        document = api.wait_until(
            created["id"], lambda d: d["status"] != "active" or bool(set(d["turn"]) & set(tokens))
        )
        if document["status"] != "active":
            return
        seat = next(s for s in document["turn"] if s in tokens)
        legal = api.legal(created["id"], tokens[seat])
        move = next((m for kind in kinds for m in legal if m["kind"] == kind), legal[0])
        assert api.move(created["id"], tokens[seat], move)


def test_sky_islands_picture_shows_the_readers_hand_and_no_one_elses(api):
    created = api.create("sky-islands", [{"name": "Ann"}, {"name": "Ben"}], seed=21)
    play_some(api, created, 6)
    tokens = tokens_of(created)
    hands = {seat: api.game(created["id"], tokens[seat])["view"]["hand"] for seat in (0, 1)}
    assert hands[0] and hands[1]
    for seat, other in ((0, 1), (1, 0)):
        lines = texts(picture(api, created["id"], tokens[seat]))
        assert "Your hand" in lines
        assert {f"tile {tile['id']}" for tile in hands[seat]} <= set(lines)
        assert not {f"tile {tile['id']}" for tile in hands[other]} & set(lines)
    spectator = texts(picture(api, created["id"]))
    assert "Your hand" not in spectator
    assert not any(re.fullmatch(r"tile \d+", line) for line in spectator)


def test_sky_islands_picture_draws_the_board_players_and_supply(api):
    created = api.create("sky-islands", [{"name": "Ann"}, {"name": "Ben"}], seed=4)
    play_some(api, created, 10)
    document = api.game(created["id"])
    root = picture(api, created["id"])
    lines = texts(root)
    view = document["view"]
    assert len(root.findall(f".//{SVG}rect[@stroke='#4f7390']")) == len(view["board"])
    for player in view["players"]:
        assert f"{player['victory_points']} VP" in lines
    assert any(line.startswith("Draw pile ") for line in lines)
    houses = sum(
        island["trading_house"] is not None for tile in view["board"] for island in tile["islands"]
    )
    assert houses > 0
    assert any(f"Version {document['version']}" in line for line in lines)


BUILDS = ("build_tower", "build_harbour", "build_trading_house")


def drawn(root: ET.Element, tag: str, kind: str) -> list[ET.Element]:
    return root.findall(f".//{SVG}{tag}[@class='{kind}']")


def test_sky_islands_picture_draws_every_ship_island_edge_house_tower_and_harbour(api):
    """Building whenever it can, a game soon has a trading house with a tower and one with
    a harbour: the picture draws each piece the view holds, in its owner's colour, and one
    ship and one land arm per island edge on every tile (the reader's hand included)."""
    created = api.create("sky-islands", [{"name": "Ann"}, {"name": "Ben"}], seed=4)
    tokens = tokens_of(created)

    def houses(view: dict) -> list[dict]:
        return [
            island["trading_house"]
            for tile in view["board"]
            for island in tile["islands"]
            if island["trading_house"] is not None
        ]

    for _ in range(300):
        built = houses(api.game(created["id"])["view"])
        if any(h["tower"] for h in built) and any(h["harbour"] for h in built):
            break
        play_some(api, created, 1, prefer=BUILDS)
    view = api.game(created["id"], tokens[0])["view"]
    built = houses(view)
    assert any(h["tower"] for h in built) and any(h["harbour"] for h in built)
    root = picture(api, created["id"], tokens[0])
    colours = [house.get("fill") for house in drawn(root, "polygon", "trading-house")]
    assert sorted(colours) == sorted(seat_colour(h["owner"]) for h in built)
    assert len(drawn(root, "rect", "tower")) == sum(h["tower"] for h in built)
    assert len(drawn(root, "rect", "harbour")) == sum(h["harbour"] for h in built)
    tiles = [*view["board"], *view["hand"]]
    assert len(drawn(root, "polygon", "ship")) == len(tiles)
    assert len(drawn(root, "circle", "island")) == sum(len(t["islands"]) for t in tiles)
    edges = sum(len(i["edges"]) for t in view["board"] for i in t["islands"]) + sum(
        len(island) for t in view["hand"] for island in t["islands"]
    )
    assert len(drawn(root, "path", "island-edge")) == edges


def test_dominion_picture_shows_supply_events_prophecy_and_only_your_hand(api):
    created = api.create("dominion", [{"name": "Ann"}, {"name": "Ben"}], seed=8)
    play_some(api, created, 5)
    tokens = tokens_of(created)
    mine = api.game(created["id"], tokens[0])["view"]
    root = picture(api, created["id"], tokens[0])
    lines = texts(root)
    for pile in mine["supply"]:
        assert pile["card"] in lines
        assert f"{pile['left']} left" in lines or pile["left"] == 0
    for event in mine["events"]:
        assert event["event"] in lines
    if mine["prophecy"]:
        assert f"Prophecy: {mine['prophecy']}" in lines
        suns = root.findall(f".//{SVG}circle[@fill='#f5a623']")
        assert len(suns) == min(mine["sun_tokens"], 14)
    assert hand_chips(root) == mine["players"][0]["hand"]
    for player in mine["players"]:
        assert any(line.startswith(f"Hand {player['hand_size']} · Deck ") for line in lines)
    theirs = picture(api, created["id"], tokens[1])
    assert hand_chips(theirs) == api.game(created["id"], tokens[1])["view"]["players"][1]["hand"]
    assert "Your hand" not in texts(picture(api, created["id"]))


def test_dominion_picture_prices_every_pile_and_shows_what_is_in_play(api):
    """Each Supply pile reads name, cost, pile size; with treasures played, the acting
    player's panel lists them as in play (for every reader: it is public)."""
    created = api.create("dominion", [{"name": "Ann"}, {"name": "Ben"}], seed=8)
    play_some(api, created, 1, prefer="play_treasures")
    view = api.game(created["id"])["view"]
    played = view["players"][view["turn"]["seat"]]["in_play"]
    assert played
    lines = texts(picture(api, created["id"]))
    assert any(pile["debt"] for pile in view["supply"])
    for pile in view["supply"]:
        # A price in Debt alone (Daimyo: 6D) shows no $0 coin beside it.
        price = [pile["coins"]] if pile["coins"] or not pile["debt"] else []
        price += [pile["debt"]] if pile["debt"] else []
        shown = [*map(str, price), f"{pile['left']} left"]
        at = lines.index(pile["card"])
        assert lines[at + 1 : at + 1 + len(shown)] == shown, pile
    counts = {card: played.count(card) for card in played}
    listing = ", ".join(f"{card} ×{n}" if n > 1 else card for card, n in counts.items())
    assert f"In play: {listing}" in lines


CARD_ID = re.compile(r"[STU]\d\d")
LANTERN_OPTIONS = {"starting_card_draft": True, "teapot_market": True}


def lantern_game(api, seed: int, moves: int) -> dict:
    seats = [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cy"}]
    created = api.create("sky-lanterns", seats, options=LANTERN_OPTIONS, seed=seed)
    play_some(api, created, moves)
    return created


def drawn_dice(root: ET.Element) -> int:
    return len(root.findall(f".//{SVG}rect[@class='die']"))


def test_sky_lanterns_picture_draws_dice_boards_and_your_own_hand(api):
    created = lantern_game(api, seed=6, moves=20)
    token = tokens_of(created)[0]
    view = api.game(created["id"], token)["view"]
    root = picture(api, created["id"], token)
    lines = texts(root)
    assert "Dice spaces" in lines and "Players" in lines
    slotted = sum(
        die is not None
        for player in view["players"]
        for die in player["core_slots"] + player["compensation_slots"]
    )
    on_spaces = sum(space["die"] is not None for space in view["dice_spaces"])
    held = view["held_die"] is not None
    assert slotted and drawn_dice(root) == on_spaces + slotted + held
    assert len(root.findall(f".//{SVG}rect[@class='train']")) == 3
    assert len(root.findall(f".//{SVG}circle[@class='lantern']")) == 3 * 3
    for player in view["players"]:
        assert f"{player['score_now']} pts" in lines
        assert f"Train {player['train']}" in lines
        assert f"Coins ${player['coins']} · Camphor {player['camphor']}" in lines
        for colour, count in player["lanterns"].items():
            assert f"{colour} {count}" in lines
    assert "Your hand" in lines
    assert hand_chips(root) == view["players"][0]["hand"]
    spectator = picture(api, created["id"])
    assert "Your hand" not in texts(spectator) and not hand_chips(spectator)
    assert drawn_dice(spectator) == drawn_dice(root)
    assert root.get("width") == "100%" and root.get("viewBox").split()[2] == "480"
    assert min(float(t.get("font-size")) for t in root.iter(f"{SVG}text")) * 360 / 480 >= 6.7


@pytest.mark.parametrize("moves", [0, 12])
def test_sky_lanterns_picture_never_shows_another_seats_cards(api, moves):
    """Every card or tile id in a reader's picture is one their own view names, and no
    other seat's hand (or draft packet) reaches it — for seats and for a spectator."""
    created = lantern_game(api, seed=9, moves=moves)
    tokens = tokens_of(created)
    own = {seat: api.game(created["id"], tokens[seat])["view"]["players"][seat] for seat in tokens}
    secret = {
        seat: set(player["hand"]) | set(player["draft_packet"] or [])
        for seat, player in own.items()
    }
    assert all(secret.values())
    for reader in [*tokens, None]:
        token = tokens[reader] if reader is not None else None
        raw = api.client.get(f"/v1/games/{created['id']}/board.svg", headers=api.auth(token)).text
        document = api.client.get(f"/v1/games/{created['id']}", headers=api.auth(token)).text
        drawn = set(CARD_ID.findall(raw))
        assert drawn <= set(CARD_ID.findall(document))
        for seat, cards in secret.items():
            if seat != reader:
                assert not drawn & cards, (reader, seat)
        if reader is not None:
            assert secret[reader] <= drawn


def current_era_drawn(root: ET.Element) -> str:
    """The Era card drawn outlined (the bold one of the three)."""
    (line,) = [
        element.text or ""
        for element in root.iter(f"{SVG}text")
        if (element.text or "").startswith("Era ") and element.get("font-weight") == "bold"
    ]
    return line.split(" ")[1]


def test_sky_lanterns_picture_lays_the_eras_by_year_and_marks_the_current_one(api):
    """ "Randomly flip the 3 Era Cards to either side. Arrange them ... in ascending order
    of the year": with seed 2 cards 1 and 2 show their later B sides, so card 3's side A
    (1874) lies first and is the Era of rounds 1-2."""
    seats = [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cy"}]
    created = api.create("sky-lanterns", seats, seed=2)
    view = api.game(created["id"])["view"]
    root = picture(api, created["id"])
    eras = [line for line in texts(root) if re.fullmatch(r"Era E\d[AB] · \d{4}", line)]
    assert [line.split(" ")[1] for line in eras] == view["eras"]
    assert view["eras"][0] == "E3A" and view["current_era"] == "E3A"
    years = [int(line.rsplit(" ", 1)[1]) for line in eras]
    assert years == sorted(years)
    assert current_era_drawn(root) == "E3A"
    assert len(root.findall(f".//{SVG}rect[@class='era-current']")) == 1
    assert [line.split(" · ")[0] for line in texts(root) if line.startswith("rounds ")] == [
        "rounds 1–2",
        "rounds 3–4",
        "rounds 5–6",
    ]
    tokens = tokens_of(created)
    while api.game(created["id"])["view"]["round"] < 3:
        play_some(api, created, 1)
    assert current_era_drawn(picture(api, created["id"], tokens[0])) == view["eras"][1]


def test_sky_lanterns_two_player_picture_draws_the_influence_tracks(api):
    created = api.create("sky-lanterns", [{"name": "Ann"}, {"name": "Ben"}], seed=3)
    play_some(api, created, 30, prefer="influence_contract")
    view = api.game(created["id"])["view"]
    root = picture(api, created["id"])
    assert "Influence tracks" in texts(root)
    assert "← Ann's end" in texts(root) and "Ben's end →" in texts(root)
    dice = root.findall(f".//{SVG}rect[@class='influence-die']")
    cells = {float(rect.get("y")): [] for rect in dice}
    assert len(dice) == len(view["influence"]) == len(cells) == 3
    # Each die sits on its space, counted from Ann's end (the leftmost cell is space 0).
    first_cell = min(
        float(rect.get("x"))
        for rect in root.iter(f"{SVG}rect")
        if rect.get("fill") and float(rect.get("y")) in cells
    )
    step = float(dice[0].get("width")) + 6
    positions = [round((float(rect.get("x")) - first_cell) / step) for rect in dice]
    assert positions == list(view["influence"].values()) and set(positions) != {3}


def test_sky_lanterns_solo_picture_draws_the_virtual_opponent(api):
    created = api.create(
        "sky-lanterns", [{"name": "Ann"}], options={"scenario": "burning-hut"}, seed=5
    )
    token = tokens_of(created)[0]
    play_some(api, created, 25)
    view = api.game(created["id"], token)["view"]
    rival = view["opponent"]
    root = picture(api, created["id"], token)
    lines = texts(root)
    assert "Virtual opponent" in lines and "The Raiders" in lines
    assert f"{sum(rival['vp'].values())} VP" in lines
    player = view["players"][0]
    on_board = sum(space["die"] is not None for space in view["dice_spaces"])
    slotted = sum(d is not None for d in player["core_slots"] + player["compensation_slots"])
    held = view["held_die"] is not None
    assert rival["dice"] and drawn_dice(root) == on_board + slotted + held + len(rival["dice"])
    created, token = played_out_with_an_income(api, created)
    raw = api.client.get(f"/v1/games/{created['id']}/board.svg", headers=api.auth(token)).text
    lines = texts(ET.fromstring(raw))
    assert "Final scores" in lines and "Virtual opponent" in lines
    # Incomes in words ("$2"), never the engine's effect keys ("board:P-00:income:1").
    assert any(line.startswith("Incomes") or "Incomes:" in line for line in lines)
    assert not re.search(r"\b(board|card|tile|influence|project|era|space2?):", raw)


def test_a_lost_solo_game_shows_the_opponents_final_score_and_the_summary(api):
    """The ghost's end-game bonuses are in the result, not in the view's VP: the picture
    shows the score it won with, ranks it among the final scores and says why."""
    created = api.create("sky-lanterns", [{"name": "Ann", "bot": "random"}], seed=5)
    document = api.wait_until(created["id"], lambda d: d["status"] == "finished", timeout=60)
    result, view = document["result"], document["view"]
    rival = result["opponent"]
    assert result["winners"] == [] and rival["rank"] == 1, "seed 5 is a lost game"
    assert rival["score"] != sum(view["opponent"]["vp"].values())
    lines = texts(picture(api, created["id"]))
    assert f"{rival['score']} VP" in lines
    finals = lines[lines.index("Final scores") + 1 :]
    ann = result["standings"][0]
    assert finals[:2] == [
        f"1. ★ {rival['name']}: {rival['score']} pts",
        f"2. Ann: {ann['score']} pts",
    ]
    assert " ".join(finals[2:]).startswith("You lost")


def played_out_with_an_income(api, created: dict) -> tuple[dict, str]:
    """Play `created` to its end, flipping Upgrade Tiles first (what gains incomes); if it
    ends with none (a solo game may be lost early), play new games of the next seeds."""
    upgrades_first = random.Random(4)
    for seed in range(6, 26):
        token = tokens_of(created)[0]
        api.play_out(
            created,
            lambda moves: next(
                (m for m in moves if m["kind"] == "upgrade"), upgrades_first.choice(moves)
            ),
        )
        if api.game(created["id"], token)["view"]["players"][0]["incomes"]:
            return created, token
        created = api.create(
            "sky-lanterns", [{"name": "Ann"}], options={"scenario": "burning-hut"}, seed=seed
        )
    raise AssertionError("no game of 20 seeds gained an income")


def test_sky_lanterns_picture_says_what_a_pending_conversion_pays_for(api):
    """A "Convert 2 times" button means little alone: the picture names the conversion."""
    created = lantern_game(api, seed=6, moves=0)
    for _ in range(150):
        pending = api.game(created["id"])["view"]["pending"]
        if pending and pending["question"] == "convert":
            break
        play_some(api, created, 1)
    else:
        pytest.fail("no conversion was asked in 150 moves")
    asked = " ".join(texts(picture(api, created["id"])))
    pay = pending["effect"]["pay"]
    assert "to decide: convert (pay " in asked and all(name in asked for name in pay)


def test_a_picture_is_a_function_of_the_view_alone(api):
    """Two readers with the same view get the same picture, so nothing hidden from the
    view can reach the drawing: a spectator and a platform key on a live game."""
    created = api.create("dominion", [{"name": "Ann"}, {"name": "Ben"}], seed=3)
    spectator = api.client.get(f"/v1/games/{created['id']}/board.svg").content
    platform = api.client.get(
        f"/v1/games/{created['id']}/board.svg", headers=api.auth(api.platform_key)
    ).content
    assert spectator == platform


def test_seat_names_are_escaped_text_not_markup(api):
    created = api.create(
        "sky-islands", [{"name": HOSTILE_NAME}, {"name": SCRIPT_NAME, "bot": "random"}], seed=2
    )
    token = tokens_of(created)[0]
    raw = api.client.get(f"/v1/games/{created['id']}/board.svg", headers=api.auth(token)).text
    root = ET.fromstring(raw)
    assert not root.findall(f".//{SVG}script") and "<script>" not in raw
    lines = texts(root)
    assert any(HOSTILE_NAME + " (you)" in line for line in lines)
    assert any('<script>alert("x' in line for line in lines)  # cut short, as text


def test_the_picture_scales_to_a_phone(api):
    created = api.create("sky-islands", [{"name": "Ann"}, {"name": "Ben"}], seed=1)
    root = picture(api, created["id"])
    assert root.get("width") == "100%"
    _, _, width, height = (float(n) for n in root.get("viewBox").split())
    assert width <= 480 and height > 0
    sizes = [float(t.get("font-size")) for t in root.iter(f"{SVG}text")]
    # At 360 CSS pixels wide the smallest text is still at least 6.75 px... and most is 9+.
    assert min(sizes) * 360 / width >= 6.7


def test_a_finished_game_shows_its_final_scores(api):
    created = api.create(
        "sky-islands",
        [{"name": "A", "bot": "random"}, {"name": "B", "bot": "random"}],
        seed=5,
    )
    api.wait_until(created["id"], lambda d: d["status"] == "finished", timeout=60)
    lines = texts(picture(api, created["id"]))
    assert "Final scores" in lines and any("Game over" in line for line in lines)


@pytest.mark.parametrize(
    ("path", "headers", "status", "code"),
    [
        ("/v1/games/aaaaaaaaaaaaaaaaaaaaaaaa/board.svg", {}, 404, "game_not_found"),
        ("/v1/games/not-an-id/board.svg", {}, 404, "game_not_found"),
        ("{game}/board.svg", {"Authorization": "Bearer sps_nope"}, 401, "invalid_token"),
        ("{game}/board.svg", {"Authorization": "Basic abc"}, 401, "invalid_authorization"),
        ("{game}/board.svg?seat=1", {}, 400, "unknown_query_parameter"),
    ],
)
def test_errors_are_problems_like_the_game_documents(api, path, headers, status, code):
    created = api.create("sky-islands", [{"name": "Ann"}, {"name": "Ben"}], seed=1)
    url = path.replace("{game}", f"/v1/games/{created['id']}")
    response = api.client.get(url, headers=headers)
    assert response.status_code == status
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == code
    document = api.client.get(url.replace("/board.svg", ""), headers=headers)
    assert document.status_code == status and document.json()["code"] == code


def test_a_game_without_a_drawing_says_so(api):
    # Every real game has a picture now; Hidden Numbers, the tests' own game, has none.
    assert all(pictures.has_picture(g) for g in ("sky-islands", "dominion", "sky-lanterns"))
    created = api.create()
    assert not pictures.has_picture("hidden-numbers")
    response = api.client.get(f"/v1/games/{created['id']}/board.svg")
    assert response.status_code == 404 and response.json()["code"] == "no_picture"


def test_the_route_is_in_the_openapi_document(api):
    paths = api.client.get("/openapi.json").json()["paths"]
    operation = paths["/v1/games/{game_id}/board.svg"]["get"]
    assert "image/svg+xml" in operation["responses"]["200"]["content"]


def test_text_xml_cannot_hold_is_dropped_not_a_broken_picture():
    """Seat names are checked at creation, but the builder does not rely on it."""
    svg = Svg(100, "t\x01itle")
    svg.text(0, 10, "a\x00b\x1bc\ud800d <&>")
    root = ET.fromstring(svg.render(20))
    assert root.find(f"{SVG}text").text == "abcd <&>"
    assert root.find(f"{SVG}title").text == "title"


def test_wrapped_lines_keep_the_space_between_their_words():
    """A screen reader (or a copy) reads a wrapped paragraph as its text content: the
    words at the ends of two lines must not run together."""
    svg = Svg(480, "t")
    words = "Board P-00 · 0 VP · Hand 3 · Lantern project L4A · Railway project R3A"
    svg.paragraph(12, 20, words, 30)
    text = ET.fromstring(svg.render(100)).find(f"{SVG}text")
    assert text is not None and len(list(text)) > 1
    assert "".join(text.itertext()) == words


def test_the_picture_is_gzipped_when_asked_and_tagged_by_version_and_reader(api):
    """board.svg (SVG text) is gzipped for a client that takes it — the game's JSON is
    not: its CPU per move is what bounds the service — and its ETag names the version
    and the reader, so a client holding the picture gets a 304 without a drawing."""
    created = api.create("sky-islands", [{"name": "Ann"}, {"name": "Ben"}], seed=2)
    tokens = tokens_of(created)
    path = f"/v1/games/{created['id']}/board.svg"

    def get(token: str | None = None, **headers: str):
        return api.client.get(path, headers={**api.auth(token), **headers})

    zipped = get(tokens[0], **{"Accept-Encoding": "gzip"})
    assert zipped.headers["content-encoding"] == "gzip"
    assert {"Authorization", "Accept-Encoding"} <= {
        v.strip() for v in zipped.headers["vary"].split(",")
    }
    assert int(zipped.headers["content-length"]) * 3 < len(zipped.content)
    plain = get(tokens[0], **{"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == zipped.content
    document = api.client.get(f"/v1/games/{created['id']}", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in document.headers

    tags = {get(token).headers["etag"] for token in (None, tokens[0], tokens[1])}
    assert len(tags) == 3
    tag = plain.headers["etag"]
    again = get(tokens[0], **{"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b""
    play_some(api, created, 1)
    moved = get(tokens[0], **{"If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["etag"] != tag
