#!/usr/bin/env bash
# Check the self-checking C corpus against the system C compiler:
#   cc -O2 (sequential)          -> exit 0, last line "ok <name> ..."
#   cc -O2 -fopenmp, 1/2/4 threads -> exit 0, stdout identical to sequential
# Usage: test/c/run_gcc.sh [file.c ...]   (default: every test/c/*.c)
set -u
here="$(cd "$(dirname "$0")" && pwd)"
cc="${CC:-cc}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if [ "$#" -eq 0 ]; then set -- "$here"/*.c; fi
pass=0
fail=0
for f in "$@"; do
  name="$(basename "$f" .c)"
  ok=1
  if ! "$cc" -O2 "$f" -o "$tmp/seq" -lm 2>"$tmp/err"; then
    echo "FAIL $name: sequential build"; cat "$tmp/err"; fail=$((fail + 1)); continue
  fi
  if ! "$cc" -O2 -fopenmp "$f" -o "$tmp/omp" -lm 2>"$tmp/err"; then
    echo "FAIL $name: OpenMP build"; cat "$tmp/err"; fail=$((fail + 1)); continue
  fi
  seq_out="$(timeout 10 "$tmp/seq" 2>/dev/null)"
  rc=$?
  [ "$rc" -eq 0 ] || { echo "FAIL $name: sequential exit $rc"; ok=0; }
  case "$(printf '%s\n' "$seq_out" | tail -n 1)" in
    "ok $name"*) ;;
    *) echo "FAIL $name: last line is not 'ok $name ...'"; ok=0 ;;
  esac
  for t in 1 2 4; do
    omp_out="$(OMP_NUM_THREADS=$t timeout 10 "$tmp/omp" 2>/dev/null)"
    rc=$?
    [ "$rc" -eq 0 ] || { echo "FAIL $name: OpenMP ($t threads) exit $rc"; ok=0; }
    [ "$omp_out" = "$seq_out" ] || { echo "FAIL $name: OpenMP ($t threads) output differs"; ok=0; }
  done
  if [ "$ok" -eq 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
