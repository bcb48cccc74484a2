"""The one resolver: it works through the stack of effect frames in the state.

`resolve` runs effects until the stack is empty or its top effect needs the player's
choice; the choice is then answered by a move (`answers.py`) and `resolve` goes on.
Effects that offer no real choice pass without asking (a Development with an empty hand,
a conversion one cannot pay); a Development is asked of any hand that holds a card, even
with nothing affordable, since whether one is asked is public (RULES-NOTES).
"""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from . import effects as fx
from .components import (
    BOARD,
    CARDS,
    EFFECTS,
    ERAS,
    PLAYER_BOARDS,
    TILES,
    TWO_PLAYER,
    DiceSpace,
    InfluenceColour,
)
from .effects import Effect
from .resources import DONOR, amount_words, gain, has, pay, payer
from .state import Frame, SkyLanternsState

TRAIN_STEP = "@step"
"""A frame key for one step of a train, pushed once per space an effect advances."""
RIVAL_CHOICE = "@rival"
"""Solo: a choice the virtual opponent's action gives the player (see `solo.py`)."""
DRAW = "@draw"
"""teapot_market: a frame key for one card to draw, from the market or the deck."""


def right_of(state: SkyLanternsState, seat: int) -> int:
    """Play goes clockwise, to the left, so the player on your right played before you."""
    return (seat - 1) % state.players


def push(state: SkyLanternsState, key: str, seat: int, card: str | None = None) -> None:
    state.stack.append(Frame(key=key, seat=seat, card=card))


def resolve(state: SkyLanternsState) -> None:
    while state.stack:
        frame = state.stack[-1]
        if frame.key.startswith(DONOR) or frame.key.startswith(RIVAL_CHOICE):
            return
        if frame.key == DRAW:
            if state.market or state.deck or state.discard:
                return
            state.stack.pop()
            continue
        if frame.key == TRAIN_STEP:
            state.stack.pop()
            train_step(state, frame.seat)
            continue
        effects = EFFECTS[frame.key]
        if frame.index >= len(effects):
            state.stack.pop()
            continue
        effect = effects[frame.index]
        if asks(state, frame.seat, effect):
            return
        state.stack[-1] = replace(frame, index=frame.index + 1)
        execute(state, frame, effect)


def done_with_choice(state: SkyLanternsState) -> Frame:
    """Step past the effect that was just decided; returns its frame."""
    frame = state.stack[-1]
    state.stack[-1] = replace(frame, index=frame.index + 1)
    return frame


# --- effects that need no choice -----------------------------------------------------


def amount(state: SkyLanternsState, seat: int, value: int | str) -> int:
    return state.seats[seat].core_dice() if value == "core_dice" else int(value)


def execute(state: SkyLanternsState, frame: Frame, effect: Effect) -> None:
    seat, player = frame.seat, state.seats[frame.seat]
    if isinstance(effect, fx.Gain):
        for resource, value in effect.res.items():
            gain(state, seat, resource, amount(state, seat, value))
    elif isinstance(effect, fx.Train):
        for _ in range(effect.steps):
            push(state, TRAIN_STEP, seat)
    elif isinstance(effect, fx.Lanterns):
        for colour, count in effect.colours.items():
            player.lantern_tokens[colour] += count
    elif isinstance(effect, fx.Draw):
        if state.market is None:
            draw(state, seat, effect.cards)
        else:  # teapot_market: each card is a choice between the market and the deck
            for _ in range(effect.cards):
                push(state, DRAW, seat)
    elif isinstance(effect, fx.VpPer):
        if effect.what == "railway_card":
            player.vp += player.railway_cards()
        else:
            player.vp += player.lanterns("yellow")
    elif isinstance(effect, fx.CardRailway):
        if frame.card is not None:
            push(state, f"card:{frame.card}:railway", seat, frame.card)
    elif isinstance(effect, fx.FirstPlayer):
        state.first_player = seat
    elif isinstance(effect, fx.PlayerToRight):
        if state.rival is None:  # solo: the opponent on your right gains only by its scenario
            push(state, _inner(frame), right_of(state, seat), frame.card)
    elif isinstance(effect, fx.Income):
        player.incomes.append(_inner(frame))
        push(state, _inner(frame), seat, frame.card)
    else:  # a choice effect that `asks` let pass: nothing to do
        assert effect.kind in fx.DECISIONS or effect.kind == "upgrade", effect


def _inner(frame: Frame) -> str:
    """The key of the nested list held by the effect at `frame.index`."""
    return f"{frame.key}/{frame.index}"


def draw(state: SkyLanternsState, seat: int, cards: int) -> None:
    for _ in range(cards):
        card = top_card(state)
        if card is None:
            return
        state.seats[seat].hand.append(card)


def top_card(state: SkyLanternsState) -> str | None:
    """ "If the deck is empty when you need to draw, shuffle the discard pile to form a new
    draw deck." With both empty, there is no card."""
    if not state.deck and state.discard:
        state.deck, state.discard = state.discard, []
        state.rng.shuffle(state.deck)
    return state.deck.pop() if state.deck else None


def refill_market(state: SkyLanternsState) -> None:
    """teapot_market: "At the end of each player's action turn, refill the market back to
    3 cards from the deck." """
    while state.market is not None and len(state.market) < 3:
        card = top_card(state)
        if card is None:
            return
        state.market.append(card)


def train_step(state: SkyLanternsState, seat: int) -> None:
    """Move the train one space (looping from the rightmost to the leftmost), then gain the
    space's reward and the railway rewards of every card in the zone below it."""
    player = state.seats[seat]
    track = PLAYER_BOARDS[player.board].track
    player.train = (player.train + 1) % len(track)
    space = track[player.train]
    if space.zone is not None:
        for card in reversed(player.railway_zones[space.zone]):
            push(state, f"card:{card}:railway", seat, card)
    push(state, f"board:{player.board}:track:{player.train}", seat)


# --- effects that ask: whether they do, and what they offer ---------------------------


def asks(state: SkyLanternsState, seat: int, effect: Effect) -> bool:
    """Whether `effect` stops to ask `seat`. A payment passes without asking only when no
    answer but "no" could come of it, Coal Trades included ("You may at any time convert
    1 Coal"): one that a trade would make affordable is asked, and the prompt offers the
    trades. A Development is asked of anyone holding a card, affordable or not: whether
    a player is asked is public, and must not tell what their hidden hand costs."""
    if isinstance(effect, fx.Develop):
        return bool(state.seats[seat].hand)
    if isinstance(effect, fx.Convert):
        return payable_after_trades(state, seat, conversion_prices(state, seat, effect))
    if isinstance(effect, fx.ChangeDie):
        return state.held is not None
    if isinstance(effect, fx.Upgrade):
        return any(tile is not None for tile in state.seats[seat].upgrades)
    return isinstance(effect, fx.Contract | fx.OneOf | fx.AnySpace)


def develop_options(state: SkyLanternsState, seat: int, track: str) -> list[str]:
    """Hand cards whose development cost `seat` can pay (any of the 3 zones takes them)."""
    player = state.seats[seat]
    cost = "lantern_cost" if track == "lantern" else "railway_cost"
    return [c for c in dict.fromkeys(player.hand) if getattr(CARDS[c], cost) <= player.coins]


def conversion_prices(state: SkyLanternsState, seat: int, effect: fx.Convert) -> dict[str, int]:
    """What one conversion costs, by what pays it (a blockaded resource is paid in Coal)."""
    prices: dict[str, int] = {}
    for resource, value in effect.pay.items():
        paid_with = payer(state, resource)
        prices[paid_with] = prices.get(paid_with, 0) + amount(state, seat, value)
    return prices


def most_conversions(state: SkyLanternsState, seat: int, effect: fx.Convert) -> int:
    most = effect.times
    for paid_with, price in conversion_prices(state, seat, effect).items():
        if price > 0:
            most = min(most, has(state, seat, paid_with) // price)
    return most


def payable_after_trades(state: SkyLanternsState, seat: int, prices: dict[str, int]) -> bool:
    """Whether `seat` can pay `prices` now, or once it has traded Coal: 1 Coal for 1 of
    Indigo, Tea or Dyeing Yam, or on P-03 2 Coal for $2."""
    coal = has(state, seat, "coal") - prices.get("coal", 0)
    to_coins = PLAYER_BOARDS[state.seats[seat].board].coal_trade == "coins"
    for resource, price in prices.items():
        short = price - has(state, seat, resource)
        if resource == "coal" or short <= 0:
            continue
        if to_coins and resource == "coins":
            coal -= (short + 1) // 2 * 2
        elif not to_coins and resource in fx.COAL_TRADES_INTO:
            coal -= short
        else:
            return False
    return coal >= 0


def contract_options(state: SkyLanternsState, seat: int) -> list[tuple[str, str | int]]:
    """("hand", card), ("era", option) and ("exclusive", option) a player may resolve: those
    whose conversion they can pay (see `unpaid_price`)."""
    player = state.seats[seat]
    options: list[tuple[str, str | int]] = [("hand", c) for c in dict.fromkeys(player.hand)]
    era = current_era(state)
    options += [("era", i) for i in range(len(era_contracts(era)))]
    board = PLAYER_BOARDS[player.board]
    options += [("exclusive", i) for i in range(len(board.exclusive_contracts))]
    return [
        (source, option)
        for source, option in options
        if unpaid_price(state, seat, contract_key(state, seat, source, option)) is None
    ]


def contract_key(state: SkyLanternsState, seat: int, source: str, option: str | int) -> str:
    """The effect key of a contract: a hand card's, the current Era card's or the board's."""
    if source == "hand":
        return f"card:{option}:contract"
    if source == "era":
        return era_contracts(current_era(state))[int(option)]
    return f"board:{state.seats[seat].board}:exclusive:{option}"


def unpaid_price(state: SkyLanternsState, seat: int, key: str) -> dict[str, int] | None:
    """The price of the conversion of contract `key` if `seat` cannot pay it even once,
    Coal Trades included (as `asks` counts them), else None. "You cannot perform the
    conversion if you do not have enough resources", and a contract holding a conversion
    is that conversion alone (checked at load), so such a contract cannot be resolved at
    all: not even a Hand Contract card played for nothing."""
    for effect in EFFECTS[key]:
        if isinstance(effect, fx.Convert):
            prices = conversion_prices(state, seat, effect)
            if not payable_after_trades(state, seat, prices):
                return prices
    return None


def current_era(state: SkyLanternsState) -> str:
    """The Era card beside the Round Marker: rounds 1–2, 3–4 and 5–6 each have one."""
    return state.eras[min(state.round, 6) - 1 >> 1]


def era_contracts(era: str) -> list[str]:
    return [f"era:{era}:contract:{i}" for i in range(len(ERAS[era].contracts))]


# --- carrying out what was chosen -------------------------------------------------------


def develop(state: SkyLanternsState, seat: int, card: str, track: str, zone: int) -> None:
    """Pay the card's cost, tuck it into a new row of `zone`, and queue the Project Card
    rewards it triggers: "only ... the first three rows", per tuck and for a full row."""
    player = state.seats[seat]
    data = CARDS[card]
    pay(state, seat, "coins", data.lantern_cost if track == "lantern" else data.railway_cost)
    player.hand.remove(card)
    if state.known_cards:
        out_of_hand(state, card)
    zones = player.lantern_zones if track == "lantern" else player.railway_zones
    zones[zone].append(card)
    if track == "lantern" and state.rival is not None:
        # "Once a Sky Lantern Development is completed, lift all blockades."
        state.rival.blockades = []
    row = len(zones[zone])
    if row > 3:
        return
    project = player.lantern_project if track == "lantern" else player.railway_project
    if all(len(z) >= row for z in zones):
        push(state, f"project:{project}:row{row}:full", seat, card)
    push(state, f"project:{project}:row{row}:tuck", seat, card)


def out_of_hand(state: SkyLanternsState, card: str) -> None:
    """`card` left its hand in view: what was known of its place is moot (a reshuffled
    discard pile may bring it back into a hand unseen)."""
    known = []
    for entry in state.known_cards:
        if card in entry.cards:
            entry = replace(entry, cards=tuple(c for c in entry.cards if c != card))
        if entry.cards:
            known.append(entry)
    state.known_cards = known


def contract(state: SkyLanternsState, seat: int, source: str, option: str | int) -> None:
    """Resolve one contract: a hand card (discarded, or removed if a Starting card), an
    option of the current Era card, or an exclusive contract of the player board."""
    key = contract_key(state, seat, source, option)
    if source == "hand":
        card = str(option)
        state.seats[seat].hand.remove(card)
        if state.known_cards:
            out_of_hand(state, card)
        (state.removed if CARDS[card].starting else state.discard).append(card)
        push(state, key, seat, card)
    else:
        push(state, key, seat)


def upgrade(state: SkyLanternsState, seat: int, position: int) -> str:
    """Flip the tile on `position` onto its dice space and gain the income it uncovers."""
    player = state.seats[seat]
    tile = player.upgrades[position]
    assert tile is not None
    player.upgrades[position] = None
    state.covered[TILES[tile].space] = tile
    key = f"board:{player.board}:income:{position}"
    player.incomes.append(key)
    push(state, key, seat)
    return tile


def space_effects(state: SkyLanternsState, space: str) -> str:
    """The effect key of a dice space: its Upgrade Tile's if one covers it."""
    tile = state.covered.get(space)
    if tile is not None:
        return f"tile:{tile}"
    return f"space2:{space}" if state.players <= 2 else f"space:{space}"


def side_spaces(state: SkyLanternsState) -> list[DiceSpace]:
    """The dice spaces of the Main Board side in play: 1-2 players, or 3-4 players."""
    return TWO_PLAYER.spaces if state.players <= 2 else BOARD.spaces


INFLUENCE_PAYMENT = {"blue": "indigo", "green": "tea", "red": "yam"}
""""spend 2 Indigo, 2 Tea, or 2 Dyeing Yams to advance the die on the blue, green, or red
influence track" """
INFLUENCE_PRICE = 2
INFLUENCE_MOST = 2


def influence_direction(seat: int) -> int:
    """Seat 0 pushes each die towards seat 1's end (up the track), seat 1 towards seat 0's."""
    return 1 if seat == 0 else -1


def influence_problem(state: SkyLanternsState, seat: int, tracks: list[str]) -> str | None:
    """Why `seat` may not push the dice of `tracks` (in order), or None."""
    if not state.influence:
        return "Influence tracks are only on the 1-2 player side of the Main Board."
    if not 1 <= len(tracks) <= INFLUENCE_MOST:
        return f"The influence contract moves a die 1 to {INFLUENCE_MOST} times."
    positions = dict(state.influence)
    spent: dict[str, int] = {}
    for colour in tracks:
        resource = payer(state, INFLUENCE_PAYMENT[colour])
        spent[resource] = spent.get(resource, 0) + INFLUENCE_PRICE
        if spent[resource] > has(state, seat, resource):
            price = amount_words(resource, INFLUENCE_PRICE)
            total = amount_words(resource, spent[resource])
            held = has(state, seat, resource)
            return (
                f"Moving the {colour} die costs {price} each time ({total} in all); "
                f"you have {held}."
            )
        positions[colour] += influence_direction(seat)
        if not 0 <= positions[colour] < len(TWO_PLAYER.influence[cast(InfluenceColour, colour)]):
            return f"The {colour} die is already at the end of its track."
    return None


def influence_contract(state: SkyLanternsState, seat: int, tracks: list[str]) -> None:
    """Pay for and move each die one space; queue what each space reached gives, in order
    ("You immediately gain all the rewards the die passes through")."""
    reached = []
    for colour in tracks:
        pay(state, seat, INFLUENCE_PAYMENT[colour], INFLUENCE_PRICE)
        state.influence[colour] += influence_direction(seat)
        reached.append(f"influence:{colour}:{state.influence[colour]}:passed")
    for key in reversed(reached):
        push(state, key, seat)
