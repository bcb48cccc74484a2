from collections import Counter

import pytest

from services.engine import Rng, dump_state, load_state


def test_same_seed_gives_same_sequence():
    a, b = Rng.from_seed(42), Rng.from_seed(42)
    assert [a.next64() for _ in range(50)] == [b.next64() for _ in range(50)]


def test_different_seeds_differ():
    assert Rng.from_seed(1).next64() != Rng.from_seed(2).next64()


def test_state_round_trips_through_json_mid_sequence():
    rng = Rng.from_seed(7)
    rng.below(10)
    copy = load_state(Rng, dump_state(rng))
    assert [copy.below(1000) for _ in range(20)] == [rng.below(1000) for _ in range(20)]


def test_below_is_uniform_enough():
    rng = Rng.from_seed(3)
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(9_500 < c < 10_500 for c in counts.values())


def test_shuffle_is_a_permutation_and_moves_things():
    rng = Rng.from_seed(5)
    items = list(range(40))
    rng.shuffle(items)
    assert sorted(items) == list(range(40))
    assert items != list(range(40))


def test_below_refuses_an_empty_range():
    with pytest.raises(AssertionError):
        Rng.from_seed(1).below(0)


@pytest.mark.parametrize("size", [0, 1, 2, 17, 1023, 1024, 1500])
def test_shuffle_is_fisher_yates_with_below(size):
    """`shuffle` writes `below` out for speed: it must deal exactly what Fisher–Yates with
    `below` deals (stored games replay from their seed), past its table of bounds too."""
    fast, slow = Rng.from_seed(11), Rng.from_seed(11)
    items, expected = list(range(size)), list(range(size))
    fast.shuffle(items)
    for i in range(size - 1, 0, -1):
        j = slow.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected and fast.state == slow.state
