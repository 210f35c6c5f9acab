#!/usr/bin/env bash
# Install with the notebook extra (JupyterLab) and open notebooks/ in JupyterLab.
# Extra arguments go to `jupyter lab` (e.g. --no-browser --port 8890).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh --notebook
root=()
[ "$(id -u)" = 0 ] && root=(--allow-root)  # Jupyter refuses root without it (containers)
exec .venv/bin/jupyter lab notebooks/ "${root[@]}" "$@"
