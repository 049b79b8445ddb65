"""The player registry: plugin modules, entry points, presets, and one-line errors."""

import ast
import subprocess
import sys
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest

from evo_mastermind.codes import Code, CodeSpace
from evo_mastermind.game import PlayerStats
from evo_mastermind.players import (
    BUILTIN_PLAYERS,
    ENTRY_POINT_GROUP,
    PLAYERS,
    Player,
    PlayerParams,
    PluginError,
    Preset,
    UnknownPlayerError,
    UnknownPresetError,
    import_plugins,
    known_player,
    make_player,
    preset_options,
    register_player,
    validate_params,
)
from evo_mastermind.scoring import Response
from tests.distributions import install


class Fixed(Player):
    """Always plays the first code."""

    def start(self, rng: np.random.Generator) -> None:
        pass

    def ask(self) -> Code:
        return np.zeros(self.space.pegs, dtype=np.uint8)

    def tell(self, guess: Code, response: Response) -> None:
        pass


def test_a_name_clashing_with_a_built_in_player_is_refused(registry: None) -> None:
    with pytest.raises(
        PluginError, match=r"player name 'entropy' of .*Fixed clashes with a built-in"
    ):
        register_player("entropy")(Fixed)
    assert PLAYERS["entropy"] is not Fixed


def test_only_player_classes_register(registry: None) -> None:
    with pytest.raises(PluginError, match=r"not a subclass of evo_mastermind\.players\.Player"):
        register_player("thing")(dict)  # type: ignore[type-var]


def test_a_preset_is_checked_when_its_player_registers(registry: None) -> None:
    class Bad(Fixed):
        presets: ClassVar[Mapping[str, Preset]] = {"broken": Preset({"mu": 3})}

    with pytest.raises(PluginError, match="preset 'broken' is invalid: mu: unknown option"):
        register_player("bad_presets")(Bad)


def test_unknown_names_suggest_the_closest() -> None:
    with pytest.raises(
        UnknownPlayerError, match="unknown player 'entropi' \\(did you mean 'entropy'"
    ):
        validate_params("entropi", {})
    with pytest.raises(UnknownPresetError, match="no preset 'papr' \\(did you mean 'paper'\\?\\)"):
        preset_options("entropy", "papr")
    with pytest.raises(UnknownPresetError, match="player 'fcol' has no presets"):
        preset_options("fcol", "best")


def test_presets_are_read_only_and_not_inherited() -> None:
    assert preset_options("archive", "best_8x12")["mu"] == 2000
    with pytest.raises(TypeError):
        PLAYERS["entropy"].presets["paper"].options["mu"] = 3  # type: ignore[index]
    assert "paper" in PLAYERS["worst_case"].presets
    with pytest.raises(UnknownPresetError):
        preset_options("knuth", "paper")  # knuth extends worst_case: not its settings


def write_module(directory: Path, name: str, body: str) -> None:
    (directory / f"{name}.py").write_text(textwrap.dedent(body))


def test_plugin_modules_register_their_players_once(
    registry: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_module(
        tmp_path,
        "lab_plugin",
        """
        from tests.players.test_registry import Fixed
        from evo_mastermind.players import register_player

        register_player("lab_fixed")(type("LabFixed", (Fixed,), {}))
        """,
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import_plugins(["lab_plugin", "lab_plugin"])
    assert make_player("lab_fixed", CodeSpace(3, 3)).name == "lab_fixed"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (None, "plugin 'absent_plugin' does not import: ModuleNotFoundError"),
        ("raise RuntimeError('no licence')", "does not import: RuntimeError: no licence"),
        (
            "from tests.players.test_registry import Fixed\n"
            "from evo_mastermind.players import register_player\n"
            "@register_player('random')\n"
            "class Mine(Fixed):\n"
            "    pass\n",
            "plugin 'absent_plugin': player name 'random' of absent_plugin.Mine clashes",
        ),
    ],
    ids=["missing", "raises", "clashes"],
)
def test_a_broken_plugin_is_one_line_naming_it(
    registry: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    body: str | None,
    message: str,
) -> None:
    if body is not None:
        write_module(tmp_path, "absent_plugin", body)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError, match=message) as caught:
        import_plugins(["absent_plugin"])
    assert "\n" not in str(caught.value)


def fake_distribution(directory: Path, entry_point: str) -> None:
    """An installed distribution declaring one player entry point."""
    install(directory, "fakelab", ENTRY_POINT_GROUP, entry_point)


def test_entry_points_make_installed_players_known(
    registry: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_module(
        tmp_path,
        "fakelab_players",
        """
        from tests.players.test_registry import Fixed

        class Unregistered(Fixed):
            '''Registered under its entry point's name.'''
        """,
    )
    fake_distribution(tmp_path, "fake_fixed = fakelab_players:Unregistered")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "fake_fixed" not in PLAYERS
    player = make_player("fake_fixed", CodeSpace(3, 3))
    assert type(player).__name__ == "Unregistered" and player.name == "fake_fixed"


@pytest.mark.parametrize(
    ("body", "point", "message"),
    [
        (
            "class Thing:\n    pass\n",
            "thing = fakelab_things:Thing",
            "entry point 'thing' = 'fakelab_things:Thing' (group evo_mastermind.players): "
            "cannot register <class 'fakelab_things.Thing'> as player 'thing': it is not a "
            "subclass of evo_mastermind.players.Player",
        ),
        (
            "from tests.players.test_registry import Fixed\n",
            "entropy = fakelab_things:Fixed",
            "entry point 'entropy' = 'fakelab_things:Fixed' (group evo_mastermind.players): "
            "player name 'entropy' of tests.players.test_registry.Fixed clashes with a "
            "built-in player; register it under another name",
        ),
    ],
    ids=["not-a-player", "built-in-name"],
)
def test_an_entry_point_that_cannot_register_is_one_line(
    registry: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    body: str,
    point: str,
    message: str,
) -> None:
    write_module(tmp_path, "fakelab_things", body)
    fake_distribution(tmp_path, point)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError) as caught:
        validate_params("no_such_player", {})
    assert str(caught.value) == message
    assert PLAYERS["entropy"].__module__ == "evo_mastermind.players.one_ply"


def test_params_of_a_plugin_player_are_validated(registry: None) -> None:
    class WidthParams(PlayerParams):
        width: int = 3

    @register_player("with_width")
    class WithWidth(Fixed):
        """Has one option."""

        Params = WidthParams

    with pytest.raises(Exception, match="player 'with_width': widht: unknown option"):
        validate_params("with_width", {"widht": 4})
    assert isinstance(make_player("with_width", CodeSpace(3, 3), {"width": 5}), WithWidth)


def test_the_built_in_table_names_every_built_in_player_and_its_module() -> None:
    built_in = {name for name, cls in PLAYERS.items() if cls.__module__.startswith("evo_")}
    assert built_in == set(BUILTIN_PLAYERS)
    for name, module in BUILTIN_PLAYERS.items():
        assert known_player(name).__module__ == module and known_player(name).name == name


def in_a_fresh_interpreter(code: str) -> str:
    """What ``code`` prints in a new Python: nothing of this session's registry is loaded."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=True
    )
    return done.stdout


def test_a_player_asked_for_by_name_imports_only_its_module() -> None:
    printed = in_a_fresh_interpreter(
        """
        import sys
        from evo_mastermind.codes import CodeSpace
        from evo_mastermind.players import make_player

        make_player("entropy", CodeSpace(4, 6))
        print(sorted(m for m in sys.modules if m.startswith("evo_mastermind.players.")))
        print("deap" in sys.modules)
        """
    )
    loaded, deap = printed.splitlines()
    players = {module for module in ast.literal_eval(loaded) if module in BUILTIN_PLAYERS.values()}
    assert players == {"evo_mastermind.players.one_ply"} and deap == "False"


def test_reading_the_registry_or_listing_players_loads_every_built_in_one() -> None:
    printed = in_a_fresh_interpreter(
        """
        from evo_mastermind.players import base
        print(len(base.PLAYERS))
        """
    )
    assert printed == f"{len(BUILTIN_PLAYERS)}\n"
    listed = in_a_fresh_interpreter("from evo_mastermind.cli import main; main(['players'])")
    players, heuristics = listed.split("\n\n")  # the players, then the heuristics they take
    names = {line.split()[0] for line in players.splitlines() if not line.startswith(" ")}
    assert names == set(BUILTIN_PLAYERS)
    assert {line.split()[0] for line in heuristics.splitlines()[1:]} == {
        "entropy",
        "most_parts",
        "expected_size",
        "worst_case",
    }


def test_a_clash_with_a_built_in_not_yet_imported_is_refused() -> None:
    printed = in_a_fresh_interpreter(
        """
        import sys
        from evo_mastermind.players import Player, PluginError, register_player

        class Mine(Player):
            start = ask = tell = print

        assert "evo_mastermind.players.one_ply" not in sys.modules
        try:
            register_player("most_parts")(Mine)
        except PluginError as error:
            print(error)
        """
    )
    assert "player name 'most_parts' of __main__.Mine clashes with a built-in" in printed


def test_the_protocol_and_the_registry_are_where_users_import_them() -> None:
    import evo_mastermind.players as players
    from evo_mastermind.players import base, protocol
    from evo_mastermind.players import registry as player_registry

    assert players.PlayerStats is PlayerStats and protocol.PlayerStats is PlayerStats
    for name in ("Player", "PlayerParams", "Preset"):
        assert getattr(players, name) is getattr(protocol, name) is getattr(base, name)
    for name in ("register_player", "make_player", "known_player", "PluginError"):
        assert getattr(players, name) is getattr(player_registry, name) is getattr(base, name)
    assert players.PLAYERS is base.PLAYERS is player_registry.PLAYER_REGISTRY
