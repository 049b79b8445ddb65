from evo_mastermind.seeding import game_rng, stream_rng


def test_game_seed_depends_only_on_identity() -> None:
    first = game_rng(7, "Entropy", 3, "ABBC", 6).integers(0, 2**32, 4)
    again = game_rng(7, "Entropy", 3, "ABBC", 6).integers(0, 2**32, 4)
    assert first.tolist() == again.tolist()
    others = [
        game_rng(8, "Entropy", 3, "ABBC", 6),
        game_rng(7, "Random", 3, "ABBC", 6),
        game_rng(7, "Entropy", 4, "ABBC", 6),
        game_rng(7, "Entropy", 3, "ABBD", 6),
        game_rng(7, "Entropy", 3, "ABBC", 7),
        game_rng(7, "Entropy", 3, "ABBC", 6, occurrence=1),
    ]
    for other in others:
        assert other.integers(0, 2**32, 4).tolist() != first.tolist()


def test_named_streams_differ() -> None:
    assert stream_rng(1, "a").integers(0, 2**32) != stream_rng(1, "b").integers(0, 2**32)
