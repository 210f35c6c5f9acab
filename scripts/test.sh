#!/usr/bin/env bash
# Install (scripts/bootstrap.sh) and run the whole test suite: lit + FileCheck and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
# lit runs beside pytest (pytest leaves part of the cores idle while its tests wait on
# programs and Ray); its report is printed after pytest's.
lit_log=$(mktemp)
trap 'rm -f "$lit_log"' EXIT
.venv/bin/lit -sv test/lit >"$lit_log" 2>&1 &
lit=$!
# Two pytest processes (pytest-xdist): most tests wait on one single-threaded compile at a
# time. Whole files go to a process, so a module's fixtures (a Ray cluster) start once.
status=0
.venv/bin/python -m pytest -q -n 2 --dist loadfile test/python test/bad || status=$?
wait "$lit" || status=1
cat "$lit_log"
exit "$status"
