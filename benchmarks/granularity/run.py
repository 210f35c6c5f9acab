#!/usr/bin/env python3
"""Task granularity sweep of task_bench.c: METG(50%) of our build and of gcc's -fopenmp build.

METG(50%) is the smallest task duration at which a system still reaches 50% efficiency.

    .venv/bin/python benchmarks/granularity/run.py [--threads T] [--runs K] [--steps S]
        [--patterns stencil,trivial] [--json OUT] [--plot PNG]

Each build is made once; the task duration is set per run by the program's first argument
(busy-loop iterations per task). The sweep is made K times over, both executables running in
turn at each point, and each point keeps its shortest kernel time.

Useful work is calibrated: each executable runs large tasks on one thread without
dependences, which gives its seconds per busy-loop iteration; the smaller of the two is the
reference, so both systems are measured against the same work and a task of ITERS
iterations lasts ITERS times that. The efficiency of a run is

    tasks * task duration / threads / kernel time

so peak efficiency is 1.0 by this definition (the efficiency at the largest tasks is also
printed). METG(50%) is where the efficiency curve, read from the largest tasks down, first
falls below 0.5, interpolated linearly in efficiency against log duration.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "task_bench.c"
SYSTEMS = ("ours", "gcc")
KERNEL = re.compile(r"^kernel\.tasks: ([0-9.eE+-]+)s$", re.M)
CHECKSUM = re.compile(r"^checksum: (\S+)$", re.M)
#: busy-loop iterations per task, and tasks, of a calibration run
CALIBRATION_ITERS = 1 << 20
CALIBRATION_TASKS = 8


def run_command(cmd: list[str], env: dict | None = None, timeout: float = 120) -> str:
    """Run ``cmd`` in a process group of its own and return its stdout; on failure, timeout or
    interruption the whole group is killed first."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    if proc.returncode:
        raise RuntimeError(f"{shlex.join(cmd)} exited {proc.returncode}\n{out}{err}")
    return out


def build(out_dir: Path, carts: list[str], cc: str, threads: int) -> dict[str, Path]:
    """The two executables of task_bench.c: ours (``carts execute --compile-only``) and gcc's."""
    exes = {"ours": out_dir / "task_bench_arts", "gcc": out_dir / "task_bench_gcc"}
    run_command([*carts, "execute", str(SOURCE), "--threads", str(threads), "--compile-only",
                 "-o", str(exes["ours"])], timeout=600)
    run_command([cc, "-O3", "-fopenmp", str(SOURCE), "-o", str(exes["gcc"])], timeout=120)
    return exes


def run_once(exe: Path, threads: int, iters: int, steps: int, width: int, pattern: str,
             timeout: float = 120) -> tuple[float, str]:
    """One run: (kernel seconds, checksum text)."""
    env = dict(os.environ, threads=str(threads), OMP_NUM_THREADS=str(threads))
    env.pop("artsConfig", None)
    out = run_command([str(exe), str(iters), str(steps), str(width), pattern], env, timeout)
    kernel, check = KERNEL.search(out), CHECKSUM.search(out)
    if not kernel or not check:
        raise RuntimeError(f"{exe.name}: no kernel or checksum line in:\n{out}")
    return float(kernel.group(1)), check.group(1)


def calibrate(exes: dict[str, Path], runs: int) -> dict[str, float]:
    """Seconds per busy-loop iteration of each executable: the shortest of ``runs`` one-thread
    runs of large tasks without dependences (the executables in turn)."""
    best = {s: math.inf for s in exes}
    for _ in range(runs):
        for system, exe in exes.items():
            seconds = run_once(exe, 1, CALIBRATION_ITERS, CALIBRATION_TASKS, 1, "trivial")[0]
            best[system] = min(best[system], seconds)
    return {s: t / (CALIBRATION_ITERS * CALIBRATION_TASKS) for s, t in best.items()}


def metg(durations: list[float], efficiencies: list[float], threshold: float = 0.5):
    """The task duration at which efficiency crosses ``threshold``, read from the largest
    duration down: the smallest duration from which every larger one reaches the threshold,
    interpolated (linear in efficiency, logarithmic in duration) with the point below it.
    Returns (duration, exact): exact is False when even the smallest duration reaches the
    threshold (the duration is then an upper bound); None when the largest does not."""
    points = sorted(zip(durations, efficiencies))
    if not points or points[-1][1] < threshold:
        return None
    j = len(points) - 1
    while j > 0 and points[j - 1][1] >= threshold:
        j -= 1
    if j == 0:
        return points[0][0], False
    (d0, e0), (d1, e1) = points[j - 1], points[j]
    frac = (threshold - e0) / (e1 - e0)
    return math.exp(math.log(d0) + frac * (math.log(d1) - math.log(d0))), True


def sweep(exes: dict[str, Path], threads: int, width: int, steps: int, runs: int,
          patterns: list[str], iters_list: list[int], sec_per_iter: float) -> dict:
    """Efficiency of each system at each iteration count, for each pattern. The K runs of a
    point are K passes over the whole sweep, so that a burst of load from elsewhere on the
    machine spoils one sample of a point rather than all of them."""
    results = {}
    tasks = steps * width
    for pattern in patterns:
        best = {(i, s): math.inf for i in iters_list for s in SYSTEMS}
        sums: dict[tuple[int, str], str] = {}
        for _ in range(runs):
            for iters in iters_list:
                for system in SYSTEMS:
                    seconds, check = run_once(exes[system], threads, iters, steps, width, pattern)
                    best[iters, system] = min(best[iters, system], seconds)
                    if sums.setdefault((iters, system), check) != check:
                        raise RuntimeError(f"{system}, {pattern}, {iters} iterations: checksum "
                                           f"{check} differs from an earlier run's "
                                           f"{sums[iters, system]}")
        rows = []
        for iters in iters_list:
            ours, gcc = float(sums[iters, "ours"]), float(sums[iters, "gcc"])
            if not math.isclose(ours, gcc, rel_tol=1e-9):
                raise RuntimeError(f"{pattern}, {iters} iterations: checksum {ours} (ours) "
                                   f"differs from {gcc} (gcc)")
            duration = iters * sec_per_iter
            useful = tasks * duration / threads
            rows.append({"iters": iters, "duration_s": duration,
                         **{f"{s}_kernel_s": best[iters, s] for s in SYSTEMS},
                         **{f"{s}_efficiency": useful / best[iters, s] if best[iters, s] > 0
                            else math.inf for s in SYSTEMS}})
        crossing = {}
        for system in SYSTEMS:
            found = metg([r["duration_s"] for r in rows], [r[f"{system}_efficiency"] for r in rows])
            crossing[system] = None if found is None else {"duration_s": found[0], "exact": found[1]}
        results[pattern] = {"rows": rows, "metg": crossing}
    return results


def describe(found: dict | None) -> str:
    if found is None:
        return "not reached"
    return ("" if found["exact"] else "<= ") + f"{found['duration_s'] * 1e6:.3g} us"


def report(results: dict, header: str, threads: int) -> None:
    print(header)
    for pattern, result in results.items():
        print(f"\npattern {pattern}")
        print(f"{'iters':>8}  {'task us':>10}  {'ours eff':>8}  {'gcc eff':>8}")
        for r in result["rows"]:
            print(f"{r['iters']:>8}  {r['duration_s'] * 1e6:>10.3f}  "
                  f"{r['ours_efficiency']:>8.3f}  {r['gcc_efficiency']:>8.3f}")
    print()
    for pattern, result in results.items():
        last = result["rows"][-1]
        print(f"efficiency at the largest tasks ({last['duration_s'] * 1e6:.3g} us), {pattern}: "
              f"ours {last['ours_efficiency']:.3f}, gcc {last['gcc_efficiency']:.3f}")
    for pattern, result in results.items():
        m = result["metg"]
        line = f"METG(50%) {pattern:<8} ours {describe(m['ours']):>12}   gcc {describe(m['gcc']):>12}"
        if m["ours"] and m["gcc"] and m["ours"]["exact"] and m["gcc"]["exact"]:
            line += f"   ours/gcc {m['ours']['duration_s'] / m['gcc']['duration_s']:.2f}"
        print(line)
    for pattern, result in results.items():
        for system in SYSTEMS:
            peak = max(r[f"{system}_efficiency"] for r in result["rows"])
            if threads > 1 and peak * threads < 1.1:
                print(f"note: {system}, {pattern}: the efficiency never exceeds 1/threads "
                      f"(peak {peak:.3f}): at most one thread's worth of work was done at a "
                      f"time (the tasks ran one after another, or the other cores were busy "
                      f"with something else)")


def plot(results: dict, path: str, title: str) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"matplotlib is not importable: no plot written to {path}")
        return
    fig, axes = plt.subplots(1, len(results), figsize=(5.5 * len(results), 4), squeeze=False)
    for ax, (pattern, result) in zip(axes[0], results.items()):
        us = [r["duration_s"] * 1e6 for r in result["rows"]]
        for system, style in zip(SYSTEMS, ("o-", "s--")):
            ax.plot(us, [r[f"{system}_efficiency"] for r in result["rows"]], style, label=system)
        ax.axhline(0.5, color="grey", linewidth=0.8)
        ax.set_xscale("log")
        ax.set_ylim(0, 1.2)
        ax.set_xlabel("task duration (us)")
        ax.set_ylabel("efficiency")
        ax.set_title(f"{pattern}: {title}")
        ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    print(f"plot written to {path}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                    help="threads of both systems (default: all cores)")
    ap.add_argument("--width", type=int, help="tasks per time step (default: --threads)")
    ap.add_argument("--steps", type=int, default=1000, help="time steps (default 1000)")
    ap.add_argument("--runs", type=int, default=3, help="runs per point; the shortest is kept")
    ap.add_argument("--patterns", default="stencil,trivial",
                    help="comma-separated: stencil, trivial (default both)")
    ap.add_argument("--min-iters", type=int, default=1,
                    help="smallest busy-loop iteration count of the sweep (default 1)")
    ap.add_argument("--max-iters", type=int, default=1 << 16,
                    help="largest busy-loop iteration count (default 65536); the sweep goes "
                         "from it down by halves to --min-iters")
    ap.add_argument("--json", help="write the results there")
    ap.add_argument("--plot", help="write a plot of efficiency against task duration there")
    ap.add_argument("--carts", default=f"{shlex.quote(sys.executable)} -m carts_mlir",
                    help="the carts command (default: this Python's carts_mlir)")
    ap.add_argument("--cc", default="gcc", help="the reference compiler (default gcc)")
    ap.add_argument("--executables", metavar="DIR",
                    help="run the two builds found there (task_bench_arts, task_bench_gcc) "
                         "instead of building them: a machine without the compiler")
    args = ap.parse_args(argv)
    patterns = args.patterns.split(",")
    if not set(patterns) <= {"stencil", "trivial"} or min(args.threads, args.steps,
                                                          args.runs, args.max_iters) < 1:
        ap.error("patterns are stencil and trivial; threads, steps, runs and iterations "
                 "are positive")
    if args.executables is None and shutil.which(args.cc) is None:
        ap.error(f"no C compiler {args.cc!r}")
    width = args.width or args.threads
    iters_list = []
    iters = args.max_iters
    while iters >= max(args.min_iters, 1):
        iters_list.insert(0, iters)
        iters //= 2

    with tempfile.TemporaryDirectory(prefix="carts-granularity-") as tmp:
        try:
            if args.executables:
                exes = {s: Path(args.executables) / f"task_bench_{'arts' if s == 'ours' else s}"
                        for s in SYSTEMS}
            else:
                exes = build(Path(tmp), shlex.split(args.carts), args.cc, args.threads)
            cal = calibrate(exes, args.runs)
            sec_per_iter = min(cal.values())
            results = sweep(exes, args.threads, width, args.steps, args.runs, patterns,
                            iters_list, sec_per_iter)
        except (RuntimeError, subprocess.TimeoutExpired) as err:
            print(f"error: {err}", file=sys.stderr)
            return 1

    title = (f"{args.threads} thread{'s' if args.threads > 1 else ''}, width {width}, "
             f"{args.steps} steps")
    load = os.getloadavg()[0]
    report(results, f"{title}, best of {args.runs} runs, {os.cpu_count()} cores, "
                    f"load average {load:.2f}\nns per busy-loop iteration: ours "
                    f"{cal['ours'] * 1e9:.3f}, gcc {cal['gcc'] * 1e9:.3f} "
                    f"(reference {sec_per_iter * 1e9:.3f})", args.threads)
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"threads": args.threads, "width": width, "steps": args.steps, "runs": args.runs,
             "sec_per_iter": cal, "reference_sec_per_iter": sec_per_iter,
             "patterns": results}, indent=1) + "\n")
    if args.plot:
        plot(results, args.plot, title)
    return 0


if __name__ == "__main__":
    sys.exit(main())
