"""The package's layers: no import circle, and the compiled engine at the bottom."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "evo_mastermind"


def module_of(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """The modules of ours ``path`` imports anywhere (functions too), type checking aside."""
    tree = ast.parse(path.read_text())
    typing_only = {
        id(node)
        for branch in ast.walk(tree)
        if isinstance(branch, ast.If) and "TYPE_CHECKING" in ast.unparse(branch.test)
        for statement in branch.body
        for node in ast.walk(statement)
    }
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("evo_mastermind")}


def graph() -> dict[str, set[str]]:
    modules = {module_of(path): path for path in PACKAGE.rglob("*.py")}
    return {
        name: {target for target in imports(path) if target in modules and target != name}
        for name, path in modules.items()
    }


def test_no_module_imports_itself_back_through_others() -> None:
    edges = graph()
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done

    def walk(name: str, path: list[str]) -> None:
        state[name] = 1
        for target in sorted(edges[name]):
            if state.get(target) == 1:
                circle = [*path[path.index(target) :], target]
                raise AssertionError(f"import circle: {' -> '.join(circle)}")
            if target not in state:
                walk(target, [*path, target])
        state[name] = 2

    for name in sorted(edges):
        if name not in state:
            walk(name, [name])


def test_the_compiled_engine_imports_nothing_of_ours_above_the_codes() -> None:
    allowed = {"evo_mastermind.codes", "evo_mastermind.lazy"}
    for name, targets in graph().items():
        if name.startswith("evo_mastermind.kernels"):
            above = {
                t for t in targets if t not in allowed and not t.startswith(name.rsplit(".", 1)[0])
            }
            assert not {t for t in above if not t.startswith("evo_mastermind.kernels")}, (
                name,
                above,
            )


LAYERS = (
    # 0, the ground: codes, the compiled kernels and the small services everything may use.
    (
        "evo_mastermind.lazy",
        "evo_mastermind.codes",
        "evo_mastermind.paths",
        "evo_mastermind.messages",
        "evo_mastermind.tracebacks",
        "evo_mastermind.files",
        "evo_mastermind.seeding",
        "evo_mastermind.kernels",
        "evo_mastermind.watchdog",
        "evo_mastermind.colour_counts",
        "evo_mastermind.secrets",
        "evo_mastermind.scsa",
        "evo_mastermind.registry",
        "evo_mastermind.determinism",
        "evo_mastermind.execution",
        "evo_mastermind.studies",  # the shipped files only; studies.reproduce is layer 6
        "evo_mastermind.examples",  # the examples and notebooks shipped in the wheel
    ),
    # 1, the game and the exhaustive engine, the sampler and the optimum.
    (
        "evo_mastermind.scoring",
        "evo_mastermind.symmetry",
        "evo_mastermind.heuristics",
        "evo_mastermind.partitions",
        "evo_mastermind.engine",
        "evo_mastermind.game",
        "evo_mastermind.sampling",
        "evo_mastermind.optimal",
    ),
    ("evo_mastermind.evolution",),  # 2, the DEAP plumbing
    ("evo_mastermind.players",),  # 3
    ("evo_mastermind.runner",),  # 4, configs, plans, storage
    ("evo_mastermind.analysis",),  # 5
    ("evo_mastermind.api", "evo_mastermind.run_options", "evo_mastermind.studies.reproduce"),  # 6
    ("evo_mastermind.cli",),  # 7
)
"""The layers, bottom first: a module imports only from its own layer or those below.

``docs/architecture.md`` says what each holds and where a change belongs.
"""


def layer_of(module: str) -> int:
    """The layer of the longest prefix of ``module`` that :data:`LAYERS` names."""
    best, found = -1, -1
    for number, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, found = len(prefix), number
    return found


def test_every_module_has_a_layer() -> None:
    unplaced = [name for name in graph() if name != "evo_mastermind" and layer_of(name) < 0]
    assert unplaced == []


def test_no_import_runs_up_the_layers() -> None:
    upward = []
    for name, targets in graph().items():
        if name == "evo_mastermind":
            continue  # the package's face: its names load lazily, on first use
        for target in targets:
            # ``from evo_mastermind import messages`` names the package only to reach a module.
            if target != "evo_mastermind" and layer_of(target) > layer_of(name):
                upward.append(f"{name} (layer {layer_of(name)}) imports {target}")
    assert upward == []
