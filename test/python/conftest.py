import shutil
import subprocess
import sys
from pathlib import Path

import pytest



@pytest.fixture
def run_cmd():
    """Run a command of this environment (carts, carts-opt, ...) and capture its output."""

    def run(*args: str, input: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
        exe = shutil.which(args[0], path=str(Path(sys.executable).parent)) or args[0]
        return subprocess.run([exe, *args[1:]], input=input, capture_output=True, text=True, cwd=cwd)

    return run
