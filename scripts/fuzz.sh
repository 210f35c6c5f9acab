#!/usr/bin/env bash
# Random-program differential testing of `carts execute` against gcc -fopenmp: every argument
# goes to `python -m carts_mlir.tools.fuzz` (run, gen or reduce; see docs/fuzzing.md), e.g.
#   bash scripts/fuzz.sh --n 1000 --threads 1,2 --nodes 2 --node-every 10 --out fuzz-out
#   bash scripts/fuzz.sh gen 42
#   bash scripts/fuzz.sh reduce fuzz-out/wrong-t2-seed42/prog.c --config t2 -o small.c
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="$root/.venv/bin/python"
[ -x "$python" ] || { echo "error: $python not found (run scripts/bootstrap.sh first)" >&2; exit 1; }
exec "$python" -m carts_mlir.tools.fuzz "$@"
