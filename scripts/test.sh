#!/usr/bin/env bash
# Install (scripts/bootstrap.sh) and run the whole test suite: lit + FileCheck, then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
.venv/bin/lit -sv test/lit
.venv/bin/python -m pytest -q test/python test/bad
