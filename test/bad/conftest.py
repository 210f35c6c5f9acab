"""Fixtures of the bad-input suite (the promise itself is in ``promise.py``)."""

from pathlib import Path

import pytest


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """An empty directory to run a case in (so leftovers in the current directory show)."""
    d = tmp_path / "work"
    d.mkdir()
    return d
