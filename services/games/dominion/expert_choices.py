"""The expert's answers to the decisions cards put to it: what to discard, trash, gain,
play twice, and which options to take. Each candidate answer is scored as the sum of its
picks' scores, so "up to 2" and "exactly 3" are handled alike: optional picks are taken
only when they score above nothing.
"""

from __future__ import annotations

import re

from services.engine import Prompt

from . import card_values
from .card_traits import junk, traits
from .card_values import (
    Deck,
    buy_phase_play_value,
    cost_of,
    discard_score,
    gain_value,
    greening,
    play_value,
    trash_score,
    treasures_are_actions,
)
from .cards import CARDS
from .moves import Choose
from .observation import Observation
from .playing import picked_card

PLUS_COINS = re.compile(r"\+\$(\d+)")
PLUS_ACTIONS = re.compile(r"\+(\d+) Actions?")
DEBT_QUESTION = re.compile(r"\+(\d+) Debt")
DEBT_FOR_DIFFERENCE = re.compile(r"\+debt equal to the difference", re.I)
BASE_COST = re.compile(r"\(\$(\d+)\)")


def source_of(prompt: Prompt) -> str:
    """The card or Event asking ("Tanuki: trash a card..." → "Tanuki")."""
    return prompt.text.split(":", 1)[0]


def answer(prompt: Prompt, choices: list[Choose], seen: Observation, deck: Deck) -> Choose:
    scores: dict[str, float] = {}

    def score(option: str) -> float:
        if option not in scores:
            scores[option] = pick_score(prompt, option, seen, deck)
        return scores[option]

    return max(choices, key=lambda choice: sum(score(option) for option in choice.picks))


def pick_score(prompt: Prompt, option: str, seen: Observation, deck: Deck) -> float:
    name = picked_card(option)  # a Shadow from the deck: "Ninja (deck position 2)"
    if name not in CARDS:
        return option_score(prompt, option, seen, deck)
    kind = prompt.kind
    if kind == "discard":
        return discard_score(name, deck, seen)
    if kind == "trash":
        source = source_of(prompt)
        remodel = source in CARDS and traits(source).remodels
        return trash_score(name, deck, seen, remodel)
    if kind == "gain":
        return gain_value(name, deck, seen) - gain_debt(prompt, name, seen)
    if kind == "reveal":
        return type_count(name, seen)
    if kind == "play":
        if seen.phase == "buy":
            return buy_phase_play_value(name, seen, deck) + 0.1
        return play_value(name, deck, seen) + 0.1
    return 0.0


def type_count(name: str, seen: Observation) -> float:
    """Courtier rewards each type of the card revealed: the card with the most (a Treasure
    counts Action too once the Prophecy making Treasures Actions is active)."""
    types = set(CARDS[name].types)
    if "Treasure" in types and seen.prophecy and treasures_are_actions(seen):
        types.add("Action")
    return float(len(types))


def gain_debt(prompt: Prompt, name: str, seen: Observation) -> float:
    """A gain paid for in Debt (Change: "+Debt equal to the difference in $") is a buy
    with the next turns' $: its Debt counts against it, and a Victory card is worth it
    only once the greening has begun."""
    source = source_of(prompt)
    base = BASE_COST.search(prompt.text)
    if source not in CARDS or not base or not DEBT_FOR_DIFFERENCE.search(CARDS[source].text):
        return 0.0
    debt = max(0, cost_of(seen, name).coins - int(base.group(1)))
    penalty = card_values.W.debt_carried * debt
    if junk(name) and greening(seen) < card_values.W.debt_green:
        penalty += 100.0
    return penalty


def option_score(prompt: Prompt, option: str, seen: Observation, deck: Deck) -> float:
    """Labelled options ("+$2", "Each other player gains a Curse", "Yes"...), read by what
    they say."""
    question = prompt.text
    if option in ("Yes", "No"):
        yes = yes_score(question, seen, deck)
        return yes if option == "Yes" else 0.0
    if "Curse" in option:
        if "other" in option:
            return 3.0 if seen.supply.get("Curse", 0) else 0.0
        return -3.0  # gaining one oneself
    if option.startswith("Discard"):
        return -1.0
    coins = PLUS_COINS.search(option)
    if coins:
        return float(coins.group(1))
    actions = PLUS_ACTIONS.search(option)
    if actions:
        terminals = sum(traits(c).terminal for c in seen.hand if c in CARDS)
        return 2.5 if terminals else 0.2
    if option.startswith("Gain a "):
        card = option.removeprefix("Gain a ").removeprefix("n ").strip(".")
        return gain_value(card, deck, seen) if card in CARDS else 0.5
    return 0.0


def yes_score(question: str, seen: Observation, deck: Deck) -> float:
    """Above 0: answer Yes."""
    if "Curse" in question:
        return 1.0 if seen.supply.get("Curse", 0) else -1.0
    debt = DEBT_QUESTION.search(question)
    if debt:
        return 1.0 if takes_debt(int(debt.group(1)), seen, deck) else -1.0
    return 0.5


def takes_debt(amount: int, seen: Observation, deck: Deck) -> bool:
    """Debt is paid before buying: take it (for a Gold, say) only while the game is young
    and it leaves this turn's buy as good — no Province lost for it. (Weighing the Gold
    and what the rest still buys against the one card the whole would buy, with
    `expert_buys`, measured no better over the recommended sets: the $ a turn expects is
    a guess, and a wrong one carries the Debt into the next turn.)"""
    if greening(seen) >= 0.6 or seen.debt:
        return False
    money = hand_money(seen, deck)
    return money < 8 or money - amount >= 8


def hand_money(seen: Observation, deck: Deck) -> float:
    """$ this turn: what is made so far, the Treasures still in hand, and what the
    Actions still in hand should add (their +$ and draws), if there are Actions to play them."""
    treasures = sum(traits(c).coins for c in seen.hand if traits(c).treasure)
    if seen.phase != "action":
        return seen.coins + treasures
    actions = [c for c in seen.hand if traits(c).action and not traits(c).treasure]
    actions.sort(key=lambda c: -traits(c).actions)
    plays, budget = 0.0, seen.actions
    for c in actions:
        if budget <= 0:
            break
        budget += traits(c).actions - 1
        plays += max(0.0, play_value(c, deck, seen))
    return seen.coins + treasures + card_values.W.hand_actions * plays
