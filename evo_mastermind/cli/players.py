"""``evo-mastermind players``: the players, their options and presets; the heuristics."""

from __future__ import annotations

import argparse


def _players(args: argparse.Namespace) -> int:
    from evo_mastermind.cli.plain_text import plain_text
    from evo_mastermind.players import PLAYERS, load_entry_points, presets_of

    load_entry_points()  # installed packages' players are listed too
    for name in sorted(PLAYERS):
        cls = PLAYERS[name]
        summary = ((cls.__doc__ or "").strip().splitlines() or ["(no description)"])[0]
        origin = "" if cls.__module__.startswith("evo_mastermind.") else f" [{cls.__module__}]"
        print(f"{name:<18} {plain_text(summary)}{origin}")
        for option, spec in cls.Params.model_fields.items():
            default = "required" if spec.is_required() else f"default {spec.default!r}"
            about = (
                f": {plain_text(' '.join(spec.description.split()))}" if spec.description else ""
            )
            print(f"{'':<4}{option} ({default}){about}")
        for preset, settings in presets_of(name).items():
            written = ", ".join(f"{key}={value}" for key, value in settings.options.items())
            about = plain_text(settings.about or "named settings")
            print(f"{'':<4}preset {preset} ({written}): {about}")
    _print_heuristics()
    return 0


def _print_heuristics() -> None:
    """The registered heuristics, after the players that take them (``heuristic: NAME``)."""
    from evo_mastermind.cli.plain_text import plain_text
    from evo_mastermind.heuristics import registered_heuristics

    print("\nheuristics (one_ply and archive: heuristic NAME):")
    for name, entry in sorted(registered_heuristics().items()):
        module = entry.score.__module__
        origin = "" if module.startswith("evo_mastermind.") else f" [{module}]"
        speed = "compiled" if entry.compiled else "numpy on compiled counts"
        print(f"{name:<18} {plain_text(entry.about or '(no description)')} ({speed}){origin}")
