"""The one registry class: reserved names, clashes, built-ins on first use, entry points."""

import sys
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from evo_mastermind.codes import InvalidGameError
from evo_mastermind.heuristics import HEURISTIC_REGISTRY
from evo_mastermind.players.registry import PLAYER_REGISTRY
from evo_mastermind.registry import PluginError, Registry, import_plugins, origin
from tests.distributions import install

GROUP = "evo_mastermind_tests.things"
"""An entry-point group of the tests' own: no installed package declares it."""


class UnknownThingError(InvalidGameError):
    """A thing name that is not registered."""


@dataclass(frozen=True)
class Thing:
    """A registered thing: its name and the function that defines it."""

    name: str
    function: Callable[[], object]


def thing_entry(name: str, definition: object) -> Thing:
    """Any function is a thing."""
    if not callable(definition):
        raise PluginError(f"cannot register {definition!r} as thing {name!r}: not a function")
    return Thing(name, definition)


def built_in() -> str:
    return "ours"


def users() -> str:
    return "yours"


def things(**reserved: str) -> Registry[Thing]:
    return Registry(
        "thing",
        GROUP,
        entry=thing_entry,
        defined_by=lambda item: item.function if isinstance(item, Thing) else item,
        builtins={"built_in": __name__},
        reserved=reserved,
        unknown=UnknownThingError,
        hint="a thing of your own: register it",
    )


def test_both_kinds_share_the_one_class() -> None:
    assert type(PLAYER_REGISTRY) is Registry and type(HEURISTIC_REGISTRY) is Registry
    assert PLAYER_REGISTRY.kind == "player" and HEURISTIC_REGISTRY.kind == "heuristic"


def test_a_built_in_registers_from_its_own_module_as_a_users_thing_does() -> None:
    table = things()
    assert table.register("built_in")(built_in) is built_in
    assert table.add("mine", users) == Thing("mine", users)
    assert dict(table) == {"built_in": Thing("built_in", built_in), "mine": Thing("mine", users)}


def test_a_built_in_name_is_refused_from_elsewhere_in_one_line() -> None:
    table = things()
    with pytest.raises(PluginError) as caught:
        table.add("built_in", textwrap.dedent)  # any function of another module
    assert str(caught.value) == (
        "thing name 'built_in' of textwrap.dedent clashes with a built-in thing; "
        "register it under another name"
    )
    assert "built_in" not in table
    assert origin(built_in) == f"{__name__}.built_in"


def test_a_reserved_name_is_refused_though_nothing_is_registered_under_it() -> None:
    table = things(special="the special mode of the tests")
    with pytest.raises(PluginError, match=r"^thing name 'special' of .*users clashes with a "):
        table.add("special", users)
    with pytest.raises(
        UnknownThingError,
        match=r"^unknown thing 'special': the name is the special mode of the tests; known",
    ):
        table.known("special")


def test_a_second_definition_of_a_name_clashes_and_the_same_one_again_is_quiet() -> None:
    table = things()
    table.add("mine", users)
    table.add("mine", users)  # a module reloaded registers the same definition again
    with pytest.raises(PluginError, match=r"thing name 'mine' of .*built_in clashes with .*users"):
        table.add("mine", built_in)
    with pytest.raises(PluginError, match="not a function"):
        table.add("three", 3)


def test_an_unknown_name_is_one_line_with_one_suggestion() -> None:
    table = things()
    table.add("mine", users)
    with pytest.raises(UnknownThingError) as caught:
        table.known("mien")
    message = str(caught.value)
    assert message == (
        "unknown thing 'mien' (did you mean 'mine'?); known things: mine "
        "(a thing of your own: register it)"
    )


def write_module(directory: Path, name: str, body: str) -> None:
    (directory / f"{name}.py").write_text(textwrap.dedent(body))


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on sys.path, for an installed distribution and its modules."""
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in [name for name in sys.modules if name.startswith("thingslab")]:
        del sys.modules[name]


def declare(folder: Path, *points: str) -> None:
    install(folder, "thingslab", GROUP, *points)


def test_an_installed_packages_thing_is_found_once(installed: Path) -> None:
    write_module(installed, "thingslab", "def answer():\n    return 42\n")
    declare(installed, "answer = thingslab:answer")
    table = things()
    assert "answer" not in table
    assert table.known("answer").function() == 42
    table.load_entry_points()  # loaded once: a second look registers nothing again
    assert list(table) == ["answer"]


@pytest.mark.parametrize(
    ("point", "body", "message"),
    [
        (
            "built_in = thingslab:mine",
            "def mine():\n    return 1\n",
            r"^entry point 'built_in' = 'thingslab:mine' \(group evo_mastermind_tests.things\): "
            r"thing name 'built_in' of thingslab.mine clashes with a built-in thing; ",
        ),
        (
            "broken = thingslab:mine",
            "raise RuntimeError('no licence')\n",
            r"^entry point 'broken' = 'thingslab:mine' .* does not load: RuntimeError: no licence",
        ),
        ("three = thingslab:THREE", "THREE = 3\n", r"cannot register 3 as thing 'three'"),
    ],
    ids=["reserved", "raises", "not-a-thing"],
)
def test_a_bad_entry_point_is_one_line_naming_it(
    installed: Path, point: str, body: str, message: str
) -> None:
    write_module(installed, "thingslab", body)
    declare(installed, point)
    with pytest.raises(PluginError, match=message) as caught:
        things().known("anything")
    assert "\n" not in str(caught.value)


def test_a_plugin_that_registers_something_refused_is_one_line_naming_it(
    registry: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_module(
        tmp_path,
        "lookahead_plugin",
        """
        from evo_mastermind import register_heuristic

        @register_heuristic("lookahead")
        def mine(counts):
            return counts.sum(axis=1)
        """,
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError) as caught:
        import_plugins(["lookahead_plugin"])
    assert str(caught.value) == (
        "plugin 'lookahead_plugin': heuristic name 'lookahead' of lookahead_plugin.mine clashes "
        "with a built-in name (the two-ply choice of the archive and sampler players); "
        "register it under another name"
    )
    assert "lookahead" not in HEURISTIC_REGISTRY
