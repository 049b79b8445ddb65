"""An installed package, as ``pip install`` leaves one: metadata that declares entry points."""

from pathlib import Path


def install(folder: Path, name: str, group: str, *points: str) -> None:
    """Write the metadata of distribution ``name`` declaring ``points`` in ``group``.

    ``importlib.metadata`` finds it once ``folder`` is on ``sys.path``.
    """
    info = folder / f"{name}-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(f"[{group}]\n" + "".join(f"{p}\n" for p in points))
