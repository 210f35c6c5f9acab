#!/usr/bin/env bash
# Install (scripts/bootstrap.sh) and run the whole test suite: lit + FileCheck, then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
.venv/bin/lit -sv test/lit
# Two processes (pytest-xdist): most tests wait on one single-threaded compile at a time.
# Whole files go to a process, so a module's fixtures (a Ray cluster) start once.
.venv/bin/python -m pytest -q -n 2 --dist loadfile test/python test/bad
