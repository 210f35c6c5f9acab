"""``carts build``: rebuild the C++ plugin of an editable install after a C++ change.

It re-runs the editable install without build isolation, so scikit-build-core reuses its
build directory (``build/<wheel tag>``) and ninja recompiles only what changed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .errors import CartsError


def checkout_root() -> Path:
    root = Path(__file__).resolve().parents[2]
    if not (root / "pyproject.toml").exists() or not (root / "CMakeLists.txt").exists():
        raise CartsError("carts build works in an editable install (pip install -e .) of a checkout")
    return root


def rebuild_main(argv: list[str]) -> int:
    root = checkout_root()
    cmd = [sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "-e", str(root)]
    print("+ " + " ".join(cmd), file=sys.stderr)
    return subprocess.call(cmd)
