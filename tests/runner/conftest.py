from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

ConfigWriter = Callable[..., Path]


@pytest.fixture
def write_config(tmp_path: Path) -> ConfigWriter:
    """Write a small valid config, with any top-level keys replaced or removed (value None)."""

    def write(filename: str = "small.yaml", **changes: object) -> Path:
        config: dict[str, object] = {
            "name": "small",
            "game": {"pegs": 3, "colors": 4},
            "secrets": "full",
            "runs": 2,
            "seed": 11,
            "players": [
                {"label": "Entropy", "player": "entropy"},
                {"label": "Random", "player": "random"},
            ],
        }
        for key, value in changes.items():
            if value is None:
                config.pop(key, None)
            else:
                config[key] = value
        path = tmp_path / filename
        path.write_text(yaml.safe_dump(config, sort_keys=False))
        return path

    return write
