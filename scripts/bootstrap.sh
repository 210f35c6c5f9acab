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
[ -x .venv/bin/python ] || "$python" -m venv .venv
pip=(.venv/bin/python -m pip install --quiet --disable-pip-version-check)
# The build requirements (pinned MLIR/LLVM dev wheels, scikit-build-core, ...) come from
# pyproject.toml itself, so their versions are written down once.
mapfile -t build_requires < <(.venv/bin/python -c \
  'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]))')
"${pip[@]}" "${build_requires[@]}" cmake ninja
"${pip[@]}" --no-build-isolation -e ".[$extras]"
