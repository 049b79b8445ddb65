"""The ``first_guess`` option: the one way every player that has it turns it into a code.

A player that has the option opens with the code written (``first_guess: AABC``), or with its
own default when the option is unset: a documented pattern spread over the game size
(:meth:`~evo_mastermind.codes.CodeSpace.patterned_code`, e.g. ``aabc``), or :data:`AUTO`
for players whose strategy chooses the first guess like any other. Those players also take
``first_guess: auto``.
"""

from __future__ import annotations

from evo_mastermind.codes import Code, CodeSpace, InvalidGameError

AUTO = "auto"
"""``first_guess: auto`` (or a default of ``AUTO``) lets the strategy choose the first guess."""


def opening_code(
    space: CodeSpace, written: str | None, default: str, player: str, chooses: bool = False
) -> Code | None:
    """The code a player opens with on ``space``; ``None`` when its strategy chooses.

    Args:
        space: the game size.
        written: the ``first_guess`` option as given (``None``: unset).
        default: what an unset option means: a pattern of
            :meth:`~evo_mastermind.codes.CodeSpace.patterned_code`, or :data:`AUTO` (the
            strategy chooses).
        player: the player's name, for the error.
        chooses: whether the player's strategy can choose a first guess, so that it takes
            ``first_guess: auto`` (implied by a default of :data:`AUTO`).

    Raises:
        InvalidGameError: the code written does not fit the space, one line naming the
            player and the option.
    """
    chooses = chooses or default == AUTO
    try:
        if written is None:
            return None if default == AUTO else space.patterned_code(default)
        if chooses and written.strip().lower() == AUTO:
            return None
        return space.parse(written)
    except InvalidGameError as error:
        raise InvalidGameError(f"player {player!r}: first_guess: {error}") from None
