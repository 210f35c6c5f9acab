#!/usr/bin/env python3
"""Build and run the native runtime's micro-benchmarks (benchmarks/micro/*.c; a *_omp.c file
is the -fopenmp reference of a measurement) and report their medians next to the runtime's targets
(METRICS below). Reports, never asserts.

    python benchmarks/micro/run.py [--threads 2] [--library path/to/libcartsrt.so] [--runs 3]

The library defaults to carts_mlir.runtime.library_path() ($CARTS_RUNTIME, else the
installed one)."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
INCLUDE = HERE.parents[1] / "runtime" / "include"

#: metric -> (what it measures, target in microseconds or None)
METRICS: dict[str, tuple[str, float | None]] = {
    "task.empty.us_per_task": ("create + schedule + run + complete an empty task (100k per epoch)", 3.0),
    "task.value_slot.us_per_task": ("same, with one slot satisfied by artsSignalEdtValue", None),
    "task.read_dep.us_per_task": ("same, with one READ dependence on a shared datablock", None),
    "task.write_chain.us_per_task": ("a chain of WRITE dependences on one datablock", None),
    "task.stencil.us_per_task": ("a stencil's tasks: three READs and a WRITE each, queued behind the last sweep", None),
    "task.stencil.create_us_per_task": ("of which the creator's creating them", None),
    "task.chain_latency.us": ("each task creates the next: create -> run latency", None),
    "task.signal_relay_latency.us": ("each task signals the next one's slot", None),
    "task.handoff_spinning_worker.us": ("creator spins, an idle (polling) worker runs the task", None),
    "task.handoff_parked_worker.us": ("creator spins, a parked (sleeping) worker wakes and runs it", None),
    "epoch.empty.us": ("artsInitializeAndStartEpoch + artsWaitOnHandle, nothing inside", 20.0),
    "epoch.one_task.us": ("same with one empty task inside", None),
    "forkjoin.empty.us": ("an epoch of one empty task per worker, chunk k asking for worker k", None),
    "forkjoin.empty_unrouted.us": ("same, the tasks placed by the scheduler", None),
    "forkjoin.empty.launch.us": ("of which the creator's creating the tasks", None),
    "forkjoin.deps3.us": ("same, each task reading two shared datablocks and writing its own", None),
    "forkjoin.deps3.launch.us": ("of which the creator's creating the tasks", None),
    "forkjoin.deps3_with_dbs.us": ("same, each task made by artsEdtCreateWithDbs", None),
    "forkjoin.deps3_with_dbs.launch.us": ("of which the creator's creating the tasks", None),
    "forkjoin.deps3_private.us": ("same, the two blocks read being the task's own", None),
    "forkjoin.deps3_private.launch.us": ("of which the creator's creating the tasks", None),
    "forkjoin.deps3_stable.us": ("same as with_dbs, the shared blocks read as READ_STABLE", None),
    "forkjoin.busy21.us": ("3 loops x 7 chunks of 5 us, deps3_stable's acquires (the transformer's q/k/v epoch)", None),
    "forkjoin.busy21.launch.us": ("of which the creator's creating the tasks", None),
    "forkjoin.busy21_launchers.us": ("busy21 launched as arts-launch-fanout does: launcher tasks of 4 chunks", None),
    "forkjoin.busy21_launchers.launch.us": ("of which the creator's part (launchers and its own group)", None),
    "forkjoin.deps3_stable.launch.us": ("of which the creator's creating the tasks", None),
    "omp.forkjoin.empty.us": ("OpenMP: parallel for, one empty iteration per thread", None),
    "forkjoin.work20.us": ("an epoch of one 20 us task per worker, chunk k asking for worker k", None),
    "forkjoin.work20_unrouted.us": ("same, the tasks placed by the scheduler", None),
    "omp.forkjoin.work20.us": ("OpenMP: parallel for, one 20 us iteration per thread", None),
}


def library_path(given: str | None) -> Path:
    if given:
        return Path(given)
    try:
        from carts_mlir import runtime

        return runtime.library_path()
    except Exception as err:  # noqa: BLE001  (any reason: tell the user how to point at it)
        sys.exit(f"error: cannot locate libcartsrt.so ({err}); pass --library")


def build(sources: list[Path], library: Path, out_dir: Path, cc: str) -> list[Path]:
    programs = []
    for source in sources:
        exe = out_dir / source.stem
        if source.stem.endswith("_omp"):  # the OpenMP reference of a measurement
            cmd = [cc, "-O2", "-fopenmp", str(source), "-o", str(exe)]
        else:
            cmd = [cc, "-O2", "-std=c11", "-pthread", f"-I{INCLUDE}", str(source), str(library),
                   f"-Wl,-rpath,{library.parent}", "-o", str(exe)]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode:
            sys.exit(f"error: {' '.join(cmd)}\n{done.stderr}")
        programs.append(exe)
    return programs


def run(program: Path, threads: int, timeout: int) -> dict[str, float]:
    env = dict(os.environ, threads=str(threads), OMP_NUM_THREADS=str(threads))
    env.pop("artsConfig", None)
    done = subprocess.run([str(program)], capture_output=True, text=True, env=env, timeout=timeout)
    if done.returncode:
        sys.exit(f"error: {program.name} exited {done.returncode}\n{done.stdout}{done.stderr}")
    values = {}
    for line in done.stdout.splitlines():
        if m := re.fullmatch(r"([\w.]+): ([0-9.]+)", line.strip()):
            values[m.group(1)] = float(m.group(2))
    return values


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=2, help="workers (default 2)")
    ap.add_argument("--library", help="libcartsrt.so to measure")
    ap.add_argument("--runs", type=int, default=1, help="runs of each program; the median is shown")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    args = ap.parse_args()
    if shutil.which(args.cc) is None:
        sys.exit(f"error: no C compiler {args.cc!r}")

    library = library_path(args.library)
    with tempfile.TemporaryDirectory(prefix="carts-micro-") as tmp:
        programs = build(sorted(HERE.glob("*.c")), library, Path(tmp), args.cc)
        samples: dict[str, list[float]] = {}
        for _ in range(args.runs):
            for program in programs:
                for name, value in run(program, args.threads, args.timeout).items():
                    samples.setdefault(name, []).append(value)

    load = os.getloadavg()[0]
    print(f"runtime {library}, threads={args.threads}, runs={args.runs}, "
          f"cores={os.cpu_count()}, load average {load:.2f}")
    if load > (os.cpu_count() or 1):
        print("note: the machine is busier than its core count; latencies that need two threads "
              "on a CPU at once are inflated")
    width = max(map(len, METRICS))
    print(f"{'metric':<{width}}  {'median us':>10}  {'target':>8}  status  what")
    for name, values in samples.items():
        if name not in METRICS:
            continue
        what, target = METRICS[name]
        value = statistics.median(values)
        status = "" if target is None else ("met" if value <= target else "MISSED")
        target_text = "" if target is None else f"<= {target:g}"
        print(f"{name:<{width}}  {value:>10.3f}  {target_text:>8}  {status:<6}  {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
