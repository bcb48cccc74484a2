"""The solo game's virtual opponent (rulebook "Solo Game", "Scenario I: The Dead Mine",
"Scenario II: The Burning Hut").

The opponent is not a seat: after each of the player's turns the game plays its turn —
reveal a Solo Mode card, take a die by the card, carry out the scenario's action for the
die's value. When that action lets the player choose, a `@rival:<value>` frame asks the
player, like any other decision.
"""

from __future__ import annotations

from . import effects as fx
from .components import CARDS, INFLUENCE_COLOURS, SOLO_CARDS, TILES, SoloCard
from .effects import LANTERN_COLOURS
from .resolver import DRAW, RIVAL_CHOICE, draw, side_spaces
from .resources import gain, has, pay
from .state import Die, Frame, Rival, RivalStep, SkyLanternsState

CAP = 10
LANTERNS_AT_SCORING = 4
""""the virtual opponent is considered to have 4 lanterns of each of the three colors"."""
NAMES = {"dead-mine": "the ghost", "burning-hut": "the Raiders"}
POSSESSIVES = {"dead-mine": "the ghost's", "burning-hut": "the Raiders'"}
OPPONENTS = {"dead-mine": "The ghost of the Dead Mine", "burning-hut": "The Raiders"}
"""The opponent's name in the result."""
BASICS = ("indigo", "tea", "yam", "coal")
"""The order that breaks ties for "the player's most plentiful basic resource"."""
NAMED = {
    "indigo": "Indigo",
    "tea": "Tea",
    "yam": "Dyeing Yams",
    "coal": "Coal",
    "coins": "Coins",
    "camphor": "Camphor",
    "vp": "VP",
}
"""Resources as the rulebook names them, for the log's words."""
CHOICES = {2: ("camphor", 2, "indigo"), 5: ("coal", 2, "coal")}
"""Dead Mine die values where "the player chooses to either pay 2 X, or let the ghost gain
2 Y": value -> (X, amount, Y)."""


def demand_value(frame: Frame) -> int:
    """The die value of a `@rival:<value>` frame: what the ghost's demand is for."""
    return int(frame.key.split(":")[1])


def demand(frame: Frame) -> tuple[str, str]:
    """The ghost's demand of a `@rival:<value>` frame in words: what paying costs ("2
    Camphor") and what the ghost gains if the player does not pay ("2 Indigo")."""
    resource, amount, gained = CHOICES[demand_value(frame)]
    return f"{amount} {NAMED[resource]}", f"{amount} {NAMED[gained]}"


def new_rival(scenario: str, challenge: bool, deck: list[str], upgrades: list[str]) -> Rival:
    """ "Set the ghost's Coal to 0 and Indigo to 1" (Challenge Mode: Indigo 2); "Set the
    starting amount of each basic resource for The Raiders to 1" (Challenge Mode: 2)."""
    start = 2 if challenge else 1
    if scenario == "dead-mine":
        basics = {"coal": 0, "indigo": start}
    else:
        basics = {resource: start for resource in ("coal", "indigo", "tea", "yam")}
    return Rival(
        scenario=scenario,  # type: ignore[arg-type]
        challenge=challenge,
        basics=basics,
        deck=deck,
        upgrades=list(upgrades),
        vp={"die_actions": 0, "income": 0, "final": 0},
    )


def is_rival_turn(state: SkyLanternsState) -> bool:
    """ "The player is always the First Player": the player's turns are the even ones."""
    return state.rival is not None and state.turn % 2 == 1


def rival_turn(state: SkyLanternsState) -> None:
    rival = state.rival
    assert rival is not None
    card = rival.deck.pop(0)
    rival.revealed.append(card)
    space = choose_die(state, SOLO_CARDS[card])
    value = state.spaces[space]
    assert value is not None
    state.spaces[space] = None
    colour = space.split("-")[0]
    rival.dice.append(Die(colour=colour, value=value))  # type: ignore[arg-type]
    if colour in INFLUENCE_COLOURS:
        rival.chosen.append(colour)
    verbs = ("reveals", "takes") if rival.scenario == "dead-mine" else ("reveal", "take")
    name = NAMES[rival.scenario]
    text = f"{name} {verbs[0]} {card} and {verbs[1]} the {value} on {space}"
    rival.log.append(RivalStep(action="take_die", text=text, card=card, space=space, value=value))
    if rival.scenario == "dead-mine":
        die_action(state, value)
    else:
        raid(state, value)
    if not state.over:
        state.step = "end"


def fallback_order(state: SkyLanternsState) -> list[str]:
    """ "right to left, top to bottom": columns from the board's right (black, green,
    blue, red), each from its top space down, over the spaces that hold a die."""
    spaces = side_spaces(state)
    columns = list(dict.fromkeys(s.colour for s in spaces))
    ordered = sorted(spaces, key=lambda s: (-columns.index(s.colour), -s.position))
    return [s.id for s in ordered if state.spaces.get(s.id) is not None]


def choose_die(state: SkyLanternsState, card: SoloCard) -> str:
    """The card's white condition, then its coloured one, then the fallback; ties go to
    the first in the fallback order."""
    order = fallback_order(state)
    matching = [s for s in order if state.spaces[s] == card.value]
    if matching:
        return matching[0]
    of_colour = [s for s in order if s.startswith(f"{card.colour}-")]
    if of_colour:
        values = [state.spaces[s] or 0 for s in of_colour]
        wanted = max(values) if card.pick == "largest" else min(values)
        return next(s for s in of_colour if state.spaces[s] == wanted)
    return order[0]


# --- Scenario I: The Dead Mine ------------------------------------------------------------


def die_action(state: SkyLanternsState, value: int) -> None:
    rival = state.rival
    assert rival is not None
    if value == 1:
        ghost_gains(state, "indigo", 1)
        gain(state, 0, "coins", 1)  # "the player may gain $1": never worse to take
        rival.log.append(ghost_gained("indigo", 1, ("coins", 1)))
    elif value in CHOICES:
        resource, amount, _ = CHOICES[value]
        if has(state, 0, resource) >= amount:
            state.stack.append(Frame(key=f"{RIVAL_CHOICE}:{value}", seat=0))
        else:
            refuse_to_pay(state, value)
    elif value == 3:
        ghost_gains(state, "coal", 1)
        rival.log.append(ghost_gained("coal", 1))
    elif value == 4:
        ghost_gains(state, "coal", 2)
        rival.log.append(ghost_gained("coal", 2, ("cards", 1)))
        if not state.over:
            player_draws(state)  # "the player may draw one card": never worse to take
    else:
        rival.vp["die_actions"] += 6
        rival.log.append(ghost_gained("vp", 6))


PLAYER_GAINS = {"coins": "; you gain $1", "cards": "; you draw a card"}


def ghost_gained(
    resource: str, amount: int, player_gains: tuple[str, int] | None = None
) -> RivalStep:
    """The log's step for the ghost gaining `amount` of `resource` (the player gaining
    `player_gains` with it), its words made from its data."""
    text = f"the ghost gains {amount} {NAMED[resource]}"
    if player_gains is not None:
        text += PLAYER_GAINS[player_gains[0]]
    return RivalStep(
        action="gain", text=text, resource=resource, amount=amount, player_gains=player_gains
    )


def answer_choice(state: SkyLanternsState, frame: Frame, pays: bool) -> None:
    """The player's answer to a `@rival:<value>` frame (already checked affordable)."""
    value = demand_value(frame)
    state.stack.pop()
    if not pays:
        refuse_to_pay(state, value)
        return
    resource, amount, _ = CHOICES[value]
    pay(state, 0, resource, amount)
    assert state.rival is not None
    text = f"you pay {amount} {NAMED[resource]} to the ghost's demand"
    state.rival.log.append(RivalStep(action="pay", text=text, resource=resource, amount=amount))


def refuse_to_pay(state: SkyLanternsState, value: int) -> None:
    _, amount, gained = CHOICES[value]
    ghost_gains(state, gained, amount)
    assert state.rival is not None
    state.rival.log.append(ghost_gained(gained, amount))


def ghost_gains(state: SkyLanternsState, resource: str, amount: int) -> None:
    """ "If the ghost's Coal has reached its maximum capacity of 10, it gains an equal
    amount of Indigo instead", and the other way round; both full: the player loses."""
    rival = state.rival
    assert rival is not None
    other = "indigo" if resource == "coal" else "coal"
    for _ in range(amount):
        target = resource if rival.basics[resource] < CAP else other
        if rival.basics[target] < CAP:
            rival.basics[target] += 1
    if rival.basics["coal"] >= CAP and rival.basics["indigo"] >= CAP:
        lose(state, f"the ghost's Coal and Indigo were both full in round {state.round}")


def lose(state: SkyLanternsState, reason: str) -> None:
    assert state.rival is not None
    if state.rival.lost is None:
        state.rival.lost = reason
    state.stack.clear()
    state.step = "over"
    state.over = True


def scenario_vp(rival: Rival) -> int:
    """ "the ghost gains bonus VP equal to its Coal multiplied by its Indigo"; "the Raiders
    gain bonus VP equal to the sum of all basic resources and special resources"."""
    if rival.scenario == "dead-mine":
        return rival.basics["coal"] * rival.basics["indigo"]
    return sum(rival.basics.values()) + rival.coins + rival.camphor


# --- Scenario II: The Burning Hut -----------------------------------------------------------

PLUNDER = {1: ("indigo", 1), 2: ("tea", 2), 3: ("yam", 3), 5: ("coins", 2)}
BLOCKADE = {2: "tea", 3: "yam"}


def raid(state: SkyLanternsState, value: int) -> None:
    rival = state.rival
    assert rival is not None
    if value in PLUNDER:
        plunder(state, *PLUNDER[value])
        if value in BLOCKADE and BLOCKADE[value] not in rival.blockades:
            rival.blockades.append(BLOCKADE[value])
            blockaded = BLOCKADE[value]
            text = f"the Raiders blockade your {NAMED[blockaded]}"
            rival.log.append(RivalStep(action="blockade", text=text, resource=blockaded))
    elif value == 4:
        rival.log.append(
            RivalStep(action="draw", text="you draw a card", player_gains=("cards", 1))
        )
        player_draws(state)
    else:
        basics = state.seats[0].basics
        richest = max(BASICS, key=lambda r: basics[r])  # max keeps the first of a tie
        plunder(state, richest, (basics[richest] + 1) // 2)


def player_draws(state: SkyLanternsState) -> None:
    """Die value 4 makes the player draw a card. With the Teapot market that draw is theirs
    to make ("whenever a player draws cards from the deck, they may instead choose to take
    them from the market"): a `@draw` frame naming the Solo Mode card it came from, which
    `drawn` follows up once answered."""
    assert state.rival is not None
    if state.market is not None:
        state.stack.append(Frame(key=DRAW, seat=0, card=state.rival.revealed[-1]))
        return
    hand = state.seats[0].hand
    before = len(hand)
    draw(state, 0, 1)
    if len(hand) > before:
        drawn(state, hand[-1])


def drawn(state: SkyLanternsState, card: str) -> None:
    """After the player's die-4 draw. "The player draws 1 card, and is plundered of
    resources equal to the contract requirements of that card": what its contract asks to
    pay, once. The ghost asks nothing more."""
    assert state.rival is not None
    if state.rival.scenario == "burning-hut":
        for resource, amount in contract_price(card).items():
            plunder(state, resource, amount)


def contract_price(card: str) -> dict[str, int]:
    for effect in CARDS[card].contract:
        if isinstance(effect, fx.Convert):
            return {r: v for r, v in effect.pay.items() if isinstance(v, int)}
    return {}


def plunder(state: SkyLanternsState, resource: str, amount: int) -> None:
    """ "The player pays the specified resources, and The Raiders gain an equal amount ...
    If the player does not have enough, pay all available resources." Blockades do not
    protect a resource from plunder."""
    rival = state.rival
    assert rival is not None
    player = state.seats[0]
    if resource in player.basics:
        taken = min(amount, player.basics[resource])
        player.basics[resource] -= taken
        rival.basics[resource] = min(CAP, rival.basics[resource] + taken)
    else:  # Coins and Camphor go from the player's board to the Raiders'
        taken = min(amount, getattr(player, resource))
        setattr(player, resource, getattr(player, resource) - taken)
        setattr(rival, resource, getattr(rival, resource) + taken)
    text = f"the Raiders plunder {taken} {NAMED[resource]}"
    rival.log.append(RivalStep(action="plunder", text=text, resource=resource, amount=taken))
    if resource in rival.basics and rival.basics[resource] >= CAP:
        lose(state, f"the Raiders' {NAMED[resource]} reached {CAP} in round {state.round}")


# --- the round's hooks ----------------------------------------------------------------------


def after_income(state: SkyLanternsState) -> None:
    """After the Income Event: the ghost's bonus VP, the influence dice pushed back 1 space
    per die of their colour it chose (no effects), and one of its tiles flipped at random
    onto the Main Board."""
    rival = state.rival
    assert rival is not None
    rival.vp["income"] += scenario_vp(rival)
    for colour in rival.chosen:
        state.influence[colour] = max(0, state.influence[colour] - 1)
    rival.chosen = []
    face_down = [i for i, t in enumerate(rival.upgrades) if t is not None]
    if face_down:
        position = face_down[state.rng.below(len(face_down))]
        tile = rival.upgrades[position]
        assert tile is not None
        rival.upgrades[position] = None
        state.covered[TILES[tile].space] = tile
        space = TILES[tile].space
        flips = "flips" if rival.scenario == "dead-mine" else "flip"
        text = f"{NAMES[rival.scenario]} {flips} {tile} onto {space}"
        rival.log.append(RivalStep(action="flip_tile", text=text, tile=tile, space=space))


def upkeep(state: SkyLanternsState) -> None:
    """Rounds 3 and 5: its dice go back to the bag and its revealed cards are reshuffled
    into its deck."""
    rival = state.rival
    assert rival is not None
    for die in rival.dice:
        state.bag[die.colour] += 1
    rival.dice = []
    rival.deck += rival.revealed
    rival.revealed = []
    state.rng.shuffle(rival.deck)


def final_scoring(state: SkyLanternsState) -> None:
    assert state.rival is not None
    if state.rival.lost is None:
        state.rival.vp["final"] = scenario_vp(state.rival)


def rival_breakdown(state: SkyLanternsState, player_lanterns: dict[str, int]) -> dict[str, int]:
    """The opponent's score by category; it counts 4 lanterns of each colour."""
    rival = state.rival
    assert rival is not None
    parts = {
        "die_actions": rival.vp["die_actions"],
        "income_bonus": rival.vp["income"],
        "final_bonus": rival.vp["final"],
    }
    for colour in LANTERN_COLOURS:
        mine = player_lanterns[colour]
        parts[f"{colour}_lanterns"] = (
            5 if mine < LANTERNS_AT_SCORING else 2 if mine == LANTERNS_AT_SCORING else 0
        )
    return parts
