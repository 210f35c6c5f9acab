#!/usr/bin/env bash
# Create ./.venv (unless it exists) and install carts-mlir into it in editable mode, with the
# test tools and the build tools (so `carts build` can rebuild the plugin incrementally).
# `--notebook` also installs JupyterLab (the `notebook` extra), for `jupyter lab notebooks/`.
# System needs: python3 (>= 3.10) with venv, a C/C++ compiler (gcc/g++), both standard here.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
extras=test,dev
case "${1:-}" in
  --notebook) extras=test,dev,notebook ;;
  "") ;;
  *) echo "usage: bash scripts/bootstrap.sh [--notebook]" >&2; exit 2 ;;
esac
command -v g++ >/dev/null || { echo "error: g++ is required to build the plugin" >&2; exit 1; }
# Graphviz (`dot`) draws task graphs (carts_mlir.taskgraph; without it a built-in layout
# does). Installed from the system's packages where we may, beside the Python install.
graphviz=
if ! command -v dot >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  apt=(apt-get install -y -q --no-install-recommends graphviz)
  { "${apt[@]}" || { apt-get update -q && "${apt[@]}"; }; } >/dev/null 2>&1 &
  graphviz=$!
fi
[ -x .venv/bin/python ] || "$python" -m venv .venv
pip=(.venv/bin/python -m pip install --quiet --disable-pip-version-check)
# The build requirements (pinned MLIR/LLVM dev wheels, scikit-build-core, ...) come from
# pyproject.toml itself, so their versions are written down once.
mapfile -t build_requires < <(.venv/bin/python -c \
  'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]))')
"${pip[@]}" "${build_requires[@]}" cmake ninja
# The other dependencies (the project's and its extras') install while the plugin compiles.
mapfile -t requires < <(.venv/bin/python - "$extras" <<'PY'
import sys, tomllib
project = tomllib.load(open("pyproject.toml", "rb"))["project"]
extras = project["optional-dependencies"]
print("\n".join(project["dependencies"] + [r for e in sys.argv[1].split(",") for r in extras[e]]))
PY
)
"${pip[@]}" "${requires[@]}" &
dependencies=$!
"${pip[@]}" --no-build-isolation --no-deps -e .
wait "$dependencies"
if [ -n "$graphviz" ] && ! wait "$graphviz"; then
  echo "note: Graphviz could not be installed; task graphs use the built-in layout" >&2
fi
