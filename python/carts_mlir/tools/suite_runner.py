#!/usr/bin/env python3
"""Runs a suite that ``carts benchmarks build`` wrote, on any machine with python3 (standard
library only; nothing of carts-mlir is imported). ``carts benchmarks build`` copies this file
into the suite as ``run.py``, next to ``manifest.json``, the executables and ``lib/``.

    python3 run.py [--runs K] [--threads T[,T...]] [--size S[,S...]] [--json OUT] [NAME...]

Every entry of the manifest is one example at one size and one thread count: our executable
runs with ``threads=T`` in its environment, the ``-fopenmp`` one with ``OMP_NUM_THREADS=T``,
alternately, K times each (default 3). A time is the sum of the ``kernel.`` timers a run
prints (else of its ``e2e.`` timers); the best of the K runs is kept, and the ratio is
OpenMP's best over ours (above 1: ours is faster). Checksums must agree within the example's
tolerance. The table ends with the geometric mean per size and thread count.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

#: What a program prints, as carts_bench.h writes it: its timers (``kernel.<name>: <s>s``,
#: ``e2e.<name>: <s>s``) and its checksum. The one parser of program output (the
#: benchmark runner and the bandwidth report import these).
TIMER = re.compile(r"^(kernel|e2e)\.(\S+):\s*([-+0-9.eE]+)s\s*$", re.M)
CHECKSUM = re.compile(r"^checksum:\s*(\S+)\s*$", re.M)


def run_once(exe: Path, env: dict, timeout: float) -> dict:
    try:
        done = subprocess.run([str(exe)], capture_output=True, text=True, env=env,
                              timeout=timeout, errors="replace")
    except subprocess.TimeoutExpired:
        return {"ok": False, "why": f"timed out after {timeout:g}s"}
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-1:] or [f"exit code {done.returncode}"]
        return {"ok": False, "why": f"exit code {done.returncode}: {tail[0][:160]}"}
    timers = {"kernel": 0.0, "e2e": 0.0}
    for kind, _, seconds in TIMER.findall(done.stdout):
        timers[kind] += float(seconds)
    sums = CHECKSUM.findall(done.stdout)
    seconds = timers["kernel"] or timers["e2e"]
    return {"ok": True, "seconds": seconds, "checksum": float(sums[-1]) if sums else None}


def measure(entry: dict, root: Path, runs: int, timeout: float) -> dict:
    threads = str(entry["threads"])
    envs = {"arts": dict(os.environ, threads=threads, OMP_NUM_THREADS=threads),
            "omp": dict(os.environ, OMP_NUM_THREADS=threads)}
    seen = {"arts": [], "omp": []}
    for _ in range(runs):
        for side in ("arts", "omp"):
            seen[side].append(run_once(root / entry[side], envs[side], timeout))
    result = dict(entry)
    for side, outcomes in seen.items():
        bad = [o["why"] for o in outcomes if not o["ok"]]
        result[side + "_error"] = bad[0] if bad else None
        good = [o for o in outcomes if o["ok"]]
        result[side + "_seconds"] = [o["seconds"] for o in good]
        result[side + "_best"] = min(result[side + "_seconds"]) if good else None
        result[side + "_checksum"] = good[0]["checksum"] if good else None
    a, o = result["arts_checksum"], result["omp_checksum"]
    result["correct"] = (a is not None and o is not None
                         and abs(a - o) / max(abs(o), 1e-10) <= entry["tolerance"])
    best_a, best_o = result["arts_best"], result["omp_best"]
    result["ratio"] = best_o / best_a if best_a and best_o else None
    return result


def geometric_mean(values: list) -> float | None:
    """The geometric mean of the positive values (None and the rest left out), or None."""
    values = [v for v in values if v is not None and v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def main(argv: list[str]) -> int:
    root = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description="Run the suite: ours against OpenMP.")
    parser.add_argument("names", nargs="*", metavar="NAME")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", help="only these thread counts (comma-separated)")
    parser.add_argument("--size", help="only these sizes (comma-separated)")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--json", type=Path, metavar="OUT")
    args = parser.parse_args(argv)
    manifest = json.loads((root / "manifest.json").read_text())
    entries = manifest["entries"]
    if args.names:
        entries = [e for e in entries if e["name"] in args.names]
    if args.threads:
        wanted = {int(t) for t in args.threads.split(",")}
        entries = [e for e in entries if e["threads"] in wanted]
    if args.size:
        entries = [e for e in entries if e["size"] in args.size.split(",")]
    print(f"{'example':<20} {'size':<7} {'threads':>7} {'ours s':>10} {'omp s':>10} "
          f"{'omp/ours':>8}  ok", flush=True)
    results = []
    for entry in entries:
        r = measure(entry, root, args.runs, args.timeout)
        results.append(r)
        fmt = lambda v: f"{v:10.6f}" if v is not None else f"{'-':>10}"
        ratio = f"{r['ratio']:8.2f}" if r["ratio"] else f"{'-':>8}"
        why = r["arts_error"] or r["omp_error"] or ("" if r["correct"] else "checksums differ")
        print(f"{r['name']:<20} {r['size']:<7} {r['threads']:>7} {fmt(r['arts_best'])} "
              f"{fmt(r['omp_best'])} {ratio}  {'yes' if r['correct'] else 'NO'} {why}",
              flush=True)
    groups = sorted({(r["size"], r["threads"]) for r in results})
    for size, threads in groups:
        ratios = [r["ratio"] for r in results
                  if (r["size"], r["threads"]) == (size, threads) and r["correct"]]
        g = geometric_mean(ratios)
        low = min(ratios) if ratios else None
        print(f"geometric mean {size} {threads} threads: "
              f"{g:.2f} (lowest {low:.2f}, {len(ratios)} examples)" if g else
              f"geometric mean {size} {threads} threads: -")
    if args.json:
        args.json.write_text(json.dumps({"manifest": manifest.get("built"), "results": results},
                                        indent=2))
    return 0 if all(r["correct"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
