"""The game state: plain, compact data that serialises to JSON between any two moves.

Cards are their names. A card that stops for a decision keeps its progress in a `Frame`
on `DominionState.stack` (what is resolving, how far it got, what it remembers); the
decision itself is an `Ask` on that frame, answered by a `choose` move.

Every class is a slotted dataclass: `services.engine.state` copies, (de)serialises and
compares them from their annotations, so the annotations must be precise.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.engine import GameState

TURN_LIMIT = 100
"""Turns per player before the service ends a game (RULES-NOTES.md, "Turn limit")."""

FrameVar = int | str | bool | None | list[str]
"""What a frame remembers between steps: counters, flags, a card name, a list of names."""


@dataclass(slots=True, kw_only=True)
class Ask:
    """One open decision of one seat: pick between `min` and `max` of `options`.

    Options are card names (a multiset: a hand with two Coppers lists "Copper" twice) or,
    with `distinct`, labels that may each be picked once. `sizes`, when set, lists the only
    allowed numbers of picks ("discard 2 cards, or none"). A `stepwise` ask takes its
    picks one move at a time (used when the combinations would be too many to list).
    """

    seat: int
    kind: str
    text: str
    options: list[str]
    min: int = 1
    max: int = 1
    distinct: bool = False
    sizes: list[int] | None = None
    stepwise: bool = False
    picked: list[str] = field(default_factory=list)
    from_hand: bool = True
    """Whether answering rests on cards of the asked seat's hand: options that are hand
    cards (unless they are the whole hand, they show part of it), or a hand card picked a
    moment before (Secret Passage's position). False for options the hand has no part in
    (piles, revealed cards, Yes/No): bots' searches deal hidden hands anew around those."""
    from_discard: bool = False
    """Whether the options are the asked seat's whole discard pile (Harbinger): bots'
    searches deal that pile's unseen cards anew, and the options with them."""


@dataclass(slots=True, kw_only=True)
class Frame:
    """Something in the middle of resolving: a card being played, an Event, a gain
    trigger, the start of a turn, a Clean-up."""

    op: str
    seat: int
    card: str = ""
    pc: int = 0
    sub: int = 0
    vars: dict[str, FrameVar] = field(default_factory=dict)
    asks: list[Ask] = field(default_factory=list)
    answers: dict[str, list[str]] = field(default_factory=dict)


def seats_mask(seats: list[int]) -> int:
    """A set of seats as one int (bit `seat` set)."""
    mask = 0
    for seat in seats:
        mask |= 1 << seat
    return mask


@dataclass(slots=True, kw_only=True)
class PlayerState:
    deck: list[str] = field(default_factory=list)
    """Top of the deck is the END of the list."""
    hand: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    """Top of the discard pile is the end of the list."""
    discard_unseen: tuple[int, ...] = ()
    """Where in `discard` (0 = bottom), in ascending order, lie cards the other players
    have not seen since the pile was last shuffled: the hand discarded in Clean-up, and
    the whole pile under its top once Harbinger took a card from it that only its owner
    knows. Never the top card: everyone sees that one. For bots' searches (`determinize`
    deals these anew with the hand and deck); no view shows it. A tuple, replaced rather
    than edited, so the copy every move makes shares it. (A state saved before this field
    existed loads with none: it knows of no unseen card until its next shuffle.)"""
    in_play: list[str] = field(default_factory=list)
    """Cards played this turn that are still in play."""
    durations: list[list[str]] = field(default_factory=list)
    """Cards still in play from earlier turns, as [card, "next_turn" | "game"]."""
    debt: int = 0
    turns: int = 0
    extra_turns: int = 0
    """Extra turns (Outpost) among `turns`: they do not count for the tiebreaker."""
    gained_gold: bool = False
    samurai: int = 0
    """Samurai plays so far: +$1 each at the start of each of this player's turns."""
    riverboats: int = 0
    """Riverboat plays last turn: each plays the set-aside card at the start of the next."""
    corsairs: list[int] = field(default_factory=list)
    """One entry per Corsair play still waiting for this player's next turn: the players
    its Attack hits until then, as a bit set (`seats_mask`). Flat ints, not lists of
    seats, because every move copies the state."""
    blockades: list[str] = field(default_factory=list)
    """Cards Blockade gained and set aside (face up) until this player's next turn..."""
    blockade_victims: list[int] = field(default_factory=list)
    """...and, at the same index, the players each Blockade's Attack hits (bit set)."""
    aside: list[str] = field(default_factory=list)
    """Cards set aside face up while a card resolves (Library's skipped Actions, the
    cards Bandit reveals)."""
    looking: list[str] = field(default_factory=list)
    """Cards taken off the deck that only this player looks at (Sentry)."""
    foresight: list[str] = field(default_factory=list)
    biding: list[str] = field(default_factory=list)
    rapid: list[str] = field(default_factory=list)
    shadow_order: list[str] = field(default_factory=list)
    """The order this player wants their Shadows in at the bottom of the deck when
    shuffled, bottom-most first ("they can go in any order at the bottom")."""


@dataclass(slots=True, kw_only=True)
class TurnState:
    seat: int = 0
    phase: str = "start"
    """start | action | buy | cleanup | over"""
    shadows_ordered: list[str] = field(default_factory=list)
    """Shadow kinds this player has put bottom-most this turn (each at most once a turn)."""
    actions: int = 1
    buys: int = 1
    coins: int = 0
    daimyo: int = 0
    river_shrines: int = 0
    gained: int = 0
    gained_in_buy: bool = False
    continue_used: bool = False
    treasures_locked: bool = False
    treasures_played: list[str] = field(default_factory=list)
    actions_played: int = 0
    """Plays of Action cards this turn, replays included (Conspirator)."""
    merchants: int = 0
    silver_or_gold_played: bool = False
    """Corsair: only the first Silver or Gold a player plays each turn is trashed."""
    outposts: int = 0
    plays: int = 0
    """Cards played this turn, each play of a card counted once however often it is
    replayed: the number of the next play (`Frame.vars["play"]`), so that what stays in
    play names the very play it stays with."""
    blockades_holding_plays: list[str] = field(default_factory=list)
    """The plays (numbers, as text) of Blockades that set a card aside this turn (a
    replayed one once): other Blockades have nothing left to do and are discarded in this
    Clean-up."""
    extra: bool = False
    """This is an extra turn (Outpost): the previous turn was this player's too."""
    staying: list[list[str]] = field(default_factory=list)
    """What played this turn may stay in play after Clean-up: [Duration, lasting, "", its
    play] for a Duration; [Throne Room or Daimyo, lasting, the Duration it played, the
    plays of that Duration it stays with, space-separated] for those two."""


@dataclass(slots=True, kw_only=True)
class DominionState(GameState):
    kingdom: list[str]
    supply: dict[str, int]
    events: list[str] = field(default_factory=list)
    prophecy: str | None = None
    sun: int = 0
    riverboat_card: str | None = None
    army_pile: str | None = None
    pile_debt: dict[str, int] = field(default_factory=dict)
    trash: list[str] = field(default_factory=list)
    removed_piles: dict[str, int] = field(default_factory=dict)
    dealt: list[str] = field(default_factory=list)
    """Every kingdom pile ever put in the Supply (Divine Wind deals more)."""
    card_sets: list[str] = field(default_factory=lambda: ["rising-sun"])
    """The card sets this game's kingdom comes from (Divine Wind deals from them)."""
    player_states: list[PlayerState]
    turn: TurnState = field(default_factory=TurnState)
    stack: list[Frame] = field(default_factory=list)
    turn_count: int = 0
    turn_limit: int = TURN_LIMIT
    """Turns per player after which the service ends the game (not a rulebook rule)."""
    end_reason: str | None = None
    """Why the game ended, once it has."""
