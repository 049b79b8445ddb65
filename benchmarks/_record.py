"""Writing benchmark figures with the machine they were measured on."""

from __future__ import annotations

import json
import os
import platform
import time
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).parent / "results"


def record(name: str, figures: dict[str, Any]) -> Path:
    """Write ``figures`` to ``benchmarks/results/<name>.json`` and print them."""
    document = {
        "benchmark": name,
        "date": time.strftime("%Y-%m-%d"),
        "machine": {
            "python": platform.python_version(),
            "processor": platform.processor() or platform.machine(),
            "cpus": os.cpu_count(),
        },
        "figures": figures,
    }
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(document, indent=2) + "\n")
    for key, value in figures.items():
        print(f"{key:<48} {value}")
    return path
