"""Debt: taking it, paying it off at any time in your turn, blocking buys, and comparing
costs in coins and Debt exactly as the rulebook's examples say."""

import pytest
from dominion_kit import act, buy, choose, me, new_game, play, prompt, start, with_prophecy

from services.engine import IllegalMove
from services.games.dominion.cards import Cost
from services.games.dominion.costs import cheaper, up_to, up_to_more_than


def test_kates_daimyo():
    """Kate has 4 coins and buys Daimyo, which costs 6 Debt. She takes 6 Debt, then pays off
    4 Debt with her 4 coins. On her next turn she has 5 coins, pays off the remaining 2
    Debt and buys a Silver with the 3 coins left."""
    state = start(new_game("Daimyo"), hand=["Copper"] * 4, phase="buy", buys=1)
    state = act(state, kind="play_treasures")
    state = buy(state, "Daimyo")
    assert me(state).debt == 6 and state.turn.coins == 4
    state = act(state, kind="pay_debt", amount=4)
    assert me(state).debt == 2
    assert state.turn.seat == 1  # nothing left to do: the turn ended
    state = start(state, 0, hand=["Copper"] * 5, phase="buy")
    with pytest.raises(IllegalMove) as error:
        buy(state, "Copper")
    assert error.value.code == "cannot_buy_with_debt"
    state = act(state, kind="play_treasures")
    state = act(state, kind="pay_debt", amount=2)
    state = buy(state, "Silver")
    assert me(state).debt == 0 and state.supply["Silver"] == 39


def test_debt_blocks_buying_events_too():
    state = start(new_game(events=["Amass"]), hand=["Silver"], phase="buy", coins=0)
    me(state).debt = 1
    state = act(state, kind="play_treasures")
    with pytest.raises(IllegalMove) as error:
        act(state, kind="buy_event", event="Amass")
    assert error.value.code == "cannot_buy_with_debt"


def test_debt_can_be_paid_off_in_the_action_phase():
    state = start(new_game("Fishmonger", "Change"), hand=["Fishmonger", "Change"], actions=2)
    me(state).debt = 1
    state = play(state, "Fishmonger")
    state = act(state, kind="pay_debt", amount=1)
    assert me(state).debt == 0 and state.turn.coins == 0


def test_paying_debt_you_lack_is_refused():
    state = start(new_game(), hand=["Gold"], phase="buy", coins=3)
    me(state).debt = 2
    with pytest.raises(IllegalMove) as error:
        act(state, kind="pay_debt", amount=3)
    assert error.value.code == "debt_payment_exceeds_debt"


def test_paying_more_than_your_coins_is_refused():
    state = start(new_game(), hand=["Gold"], phase="buy", coins=1)
    me(state).debt = 5
    with pytest.raises(IllegalMove) as error:
        act(state, kind="pay_debt", amount=2)
    assert error.value.code == "not_enough_coins"


@pytest.mark.parametrize("amount", [0, -3])
def test_taking_debt_for_no_reason_is_refused(amount):
    state = start(new_game(), hand=["Gold"], phase="buy", coins=3)
    with pytest.raises(IllegalMove) as error:
        act(state, kind="pay_debt", amount=amount)
    assert error.value.code == "cannot_take_debt"
    assert "no reason" in error.value.message


def test_debt_does_nothing_at_the_end_of_the_game():
    state = start(new_game(), hand=["Gold", "Gold", "Gold"], phase="buy")
    state.supply["Province"] = 1
    me(state).debt = 0
    state = act(state, kind="play_treasures")
    state = buy(state, "Province")
    me(state).debt = 30
    assert state.over and state.player_states[0].debt == 30


def test_up_to_5_coins_does_not_include_costs_with_debt():
    """Craftsman can't gain a Mountain Shrine, because 5 Debt is not "up to 5 coins"."""
    assert not up_to(Cost(debt=5), 5)
    state = start(new_game("Craftsman", "Mountain Shrine", prophecy="Progress"), hand=["Craftsman"])
    state = play(state, "Craftsman")
    assert "Mountain Shrine" not in prompt(state).options
    assert "Duchy" in prompt(state).options


def test_poet_cannot_take_a_mountain_shrine_into_hand():
    """5 Debt is not "up to 3 coins"."""
    state = start(
        new_game("Poet", "Mountain Shrine"), hand=["Poet"], deck=["Copper", "Mountain Shrine"]
    )
    state = play(state, "Poet")
    assert me(state).hand == ["Copper"]
    assert me(state).deck[-1] == "Mountain Shrine"


def test_change_can_never_gain_a_mountain_shrine():
    """Mountain Shrine doesn't cost any coins, so never "more coins" than the trashed card."""
    state = start(new_game("Change", "Mountain Shrine"), hand=["Change", "Curse"])
    state = play(state, "Change")  # the Curse is the only card to trash: no question asked
    assert state.trash == ["Curse"]
    assert "Mountain Shrine" not in prompt(state).options
    assert "Silver" in prompt(state).options and "Copper" not in prompt(state).options


def test_flourishing_trade_lowers_coin_costs_but_not_daimyos():
    state = with_prophecy("Flourishing Trade", "Daimyo", "Mountain Shrine")
    view = {
        p.card: (p.coins, p.debt) for p in __import__("dominion_kit").game.view(state, 0).supply
    }
    assert view["Daimyo"] == (0, 6) and view["Mountain Shrine"] == (0, 5)
    assert view["Province"] == (7, 0) and view["Copper"] == (0, 0)


def test_tanuki_trashing_an_artist_can_gain_a_daimyo():
    """Daimyo costs "up to 2 coins and 8 Debt" more than nothing."""
    assert up_to_more_than(Cost(debt=6), Cost(debt=8), 2)
    state = start(new_game("Tanuki", "Artist", "Daimyo"), hand=["Tanuki", "Artist", "Gold"])
    state = play(state, "Tanuki")
    state = choose(state, "Artist")
    assert {"Daimyo", "Artist", "Estate", "Fishmonger"} <= set(prompt(state).options)
    assert "Silver" not in prompt(state).options  # $3 is more than $0 + $2


def test_debt_and_coins_are_not_comparable():
    """A card costing 4 coins and one costing 6 Debt: neither costs more than the other;
    6 Debt does cost more than 0 coins."""
    four, six_debt, zero = Cost(coins=4), Cost(debt=6), Cost()
    assert not cheaper(four, six_debt) and not cheaper(six_debt, four)
    assert cheaper(zero, six_debt)
    assert cheaper(Cost(debt=6), Cost(debt=8))


def test_buying_a_card_with_debt_in_its_cost_gives_that_much_debt():
    state = start(new_game("Artist"), hand=[], phase="buy")
    state = buy(state, "Artist")
    assert me(state).debt == 8 and "Artist" in me(state).discard


def test_plus_debt_cards_work_even_with_debt_already():
    state = start(new_game("Root Cellar"), hand=["Root Cellar"], deck=["Copper"] * 3)
    me(state).debt = 4
    state = play(state, "Root Cellar")
    assert me(state).debt == 7 and len(me(state).hand) == 3
