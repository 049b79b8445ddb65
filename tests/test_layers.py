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
