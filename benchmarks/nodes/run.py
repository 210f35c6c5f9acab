#!/usr/bin/env python3
"""Micro-benchmarks of the node transport (carts_mlir.nodes), next to Ray's own figures
measured in the same process and the same Ray instance. Reports, never asserts.

    .venv/bin/python benchmarks/nodes/run.py [--reps 200] [--runs 3] [--json OUT]

1. remote task launch: epochs of 2 chunk tasks (launch.c) on 2 nodes x 1 worker, chunk 1 on
   node 1; the same program on 1 node x 2 workers for comparison.
2. datablock fetch (READ) and fetch + write-back (WRITE) of node 1's block of a 1-D double
   array owned by node 0 (transfer.c), per block size; bytes taken from the per-node counters.
3. Ray alone: round trips of an empty call between two actors placed like the node actors,
   one at a time, pipelined, and as two one-way calls (the transport's pattern); numpy arrays
   of the same sizes carried actor -> actor.

4. the same moves through the ARTS C API by hand (native.c), without the compiler's choices.

Each C program times its epochs itself and prints their median; a figure in the table is the
median over --runs runs of that, the parts run interleaved run after run. See README.md.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

#: The target for an epoch of one task on each of 2 nodes of the same machine.
REMOTE_LAUNCH_TARGET_S = 250e-6
#: Block sizes (bytes) of the transfer benchmark; the first is the baseline ("empty" block).
DEFAULT_SIZES = (8, 64 << 10, 1 << 20, 16 << 20)
RUN_TIMEOUT_S = 120.0
#: The size of a small batch of the transport (a task creation and its parameters) for the
#: Ray figure that carries one.
BATCH_BYTES = 144


# ---------------------------------------------------------------------------- helpers


def parse_values(text: str) -> dict[str, float]:
    """The ``name: number`` lines a benchmark program prints."""
    values = {}
    for line in text.splitlines():
        m = re.fullmatch(r"\s*([\w.]+):\s*([-+0-9.eE]+)\s*", line)
        if m:
            try:
                values[m.group(1)] = float(m.group(2))
            except ValueError:
                pass
    return values


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def size_text(nbytes: int) -> str:
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if nbytes >= scale and nbytes % scale == 0:
            return f"{nbytes // scale} {unit}"
    return f"{nbytes} B"


def mb_per_s(nbytes: float, seconds: float | None) -> float | None:
    if seconds is None or seconds <= 0:
        return None
    return nbytes / seconds / 1e6


def _interrupted(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def install_signal_handlers() -> None:
    """SIGINT and SIGTERM leave through main's finally (stopping the actors and Ray). Installed
    after ray.init and after every compile: both install handlers of their own (LLVM's, while
    the compiler runs, re-raises the signal with its default action and kills the process), so
    main compiles everything before it starts Ray."""
    signal.signal(signal.SIGINT, _interrupted)
    signal.signal(signal.SIGTERM, _interrupted)


def compile_program(source: Path, nodes: int, threads: int, defines: list[str]) -> str:
    from carts_mlir.errors import CartsError
    from carts_mlir.execute import ExecuteOptions, arts_llvm_ir

    options = ExecuteOptions(source=str(source), defines=defines, threads=threads, nodes=nodes)
    # The loops here are tiny on purpose (a launch, a block): spread them over the nodes
    # anyway, or the concurrency pass keeps them on node 0 (min-node-ops).
    os.environ.setdefault("nodeMinOps", "0")
    for attempt in range(10):
        try:
            return arts_llvm_ir(options)
        except CartsError as err:  # the pipeline may be mid-change elsewhere: wait and retry
            if "is not implemented yet" not in str(err) or attempt == 9:
                raise
            print(f"  {source.name}: {err}; retrying in 30 s", file=sys.stderr)
            time.sleep(30)
    raise AssertionError("unreachable")


def run_program(cluster, llvm_ir: str, argv: list[str], threads: int) -> tuple[dict, object]:
    """One run; returns node 0's ``name: value`` lines and the ClusterRun."""
    run = cluster.run(llvm_ir, argv, threads=threads, timeout=RUN_TIMEOUT_S)
    if run.code != 0:
        detail = "".join(n.stdout + n.stderr for n in run.nodes)
        raise RuntimeError(f"{argv[0]} {' '.join(argv[1:])} exited {run.code}:\n{detail}")
    return parse_values(run.nodes[0].stdout), run


# ---------------------------------------------------------------------------- 1. launch


def bench_launch(cluster2, cluster1, ir2: str, ir1: str, reps: int) -> dict:
    """One run of launch.c on 2 nodes and on 1."""
    result = {"reps": reps, "two_nodes": [], "one_node": []}
    values, run = run_program(cluster2, ir2, ["launch.c"], threads=1)
    epochs = values["epochs_run"]  # the timed ones and the warm-up
    result["two_nodes"].append({
        **values, "node1_tasks_run": run.nodes[1].stats["tasks_run"],
        "messages_per_epoch": run.totals()["messages_sent"] / epochs,
        "db_bytes_per_epoch": run.totals()["db_bytes_sent"] / epochs,
        "stats": [n.stats for n in run.nodes], "jit_s": [n.jit_s for n in run.nodes]})
    values, run = run_program(cluster1, ir1, ["launch.c"], threads=2)
    result["one_node"].append(values)
    for key in ("two_nodes", "one_node"):
        for stat in ("epoch_median_s", "epoch_mean_s", "epoch_min_s", "epoch_p90_s"):
            result[f"{key}_{stat}"] = median(r.get(stat) for r in result[key])
    result["target_s"] = REMOTE_LAUNCH_TARGET_S
    return result


# ---------------------------------------------------------------------------- native


def build_native(out_dir: Path, cc: str) -> Path | None:
    """native.c as a shared library (its ARTS calls resolve against the loaded runtime)."""
    if shutil.which(cc) is None:
        return None
    library = out_dir / "native.so"
    cmd = [cc, "-O2", "-shared", "-fPIC", f"-I{ROOT / 'runtime' / 'include'}",
           str(HERE / "native.c"), "-o", str(library)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd)}\n{done.stderr}")
    return library


def native_counts(reps: int, nbytes: int) -> int:
    """Timed epochs native.c runs per block size (as its program() picks them)."""
    return min(reps, 7) if nbytes >= 8 << 20 else min(reps, 20) if nbytes >= 1 << 20 else reps


def bench_native(cluster2, library: Path, sizes: list[int], reps: int) -> dict:
    """One run of native.c on 2 nodes."""
    samples = []
    run = cluster2.run_library(library, ["native", str(reps), *map(str, sizes)],
                               threads=1, timeout=RUN_TIMEOUT_S)
    if run.code != 0:
        raise RuntimeError("native exited %d:\n%s" % (run.code, "".join(
            n.stdout + n.stderr for n in run.nodes)))
    values = parse_values(run.nodes[0].stdout)
    if "native.remote_empty_s" not in values:
        raise RuntimeError(f"native printed no figures:\n{run.nodes[0].stdout}")
    samples.append({"values": values, "stats": [n.stats for n in run.nodes]})
    figures = {}
    for name in samples[0]["values"]:
        figures[name[len("native."):-2]] = median(s["values"].get(name) for s in samples)
    # Every datablock byte the run moved: a READ ships the block, a WRITE ships it and gets it
    # back; one warm-up epoch per size and mode.
    fetched = sum(n * (native_counts(reps, n) + 1) for n in sizes)
    expected = {"node0_db_bytes_sent": 2 * fetched, "node1_db_bytes_sent": fetched}
    stats = samples[0]["stats"]
    measured = {"node0_db_bytes_sent": stats[0]["db_bytes_sent"],
                "node1_db_bytes_sent": stats[1]["db_bytes_sent"]}
    rows = {}
    base = sizes[0]
    for mode, factor in (("read", 1), ("write", 2)):
        for nbytes in sizes:
            t, t0 = figures.get(f"{mode}.{nbytes}"), figures.get(f"{mode}.{base}")
            rows[f"{mode}.{nbytes}"] = {
                "epoch_s": t,
                "mb_per_s": None if nbytes == base or t is None or t0 is None
                else mb_per_s(factor * (nbytes - base), t - t0)}
    return {"reps": reps, "sizes": sizes, "figures": figures, "transfer": rows,
            "expected_db_bytes": expected, "measured_db_bytes": measured,
            "stats": [s["stats"] for s in samples]}


# ---------------------------------------------------------------------------- 2. transfer


def transfer_reps(nbytes: int) -> int:
    """Timed epochs per size: enough for a median, few enough to keep the run short."""
    return 50 if nbytes <= 64 << 10 else 20 if nbytes <= 1 << 20 else 7


def bench_transfer(cluster2, cluster1, ir2: str, ir1: str, sizes: list[int]) -> dict:
    """One run of transfer.c per mode and size, on 2 nodes and on 1."""
    rows = []
    for mode, mode_name in ((0, "read"), (1, "write")):
        for nbytes in sizes:
            elements = max(1, nbytes // 8)
            reps = transfer_reps(nbytes)
            argv = ["transfer.c", str(elements), str(reps), str(mode)]
            samples, local = [], []
            values, run = run_program(cluster2, ir2, argv, threads=1)
            epochs = values["epochs"]
            samples.append({
                "epoch_median_s": values.get("epoch_median_s"),
                "checksum": values.get("checksum"),
                "epochs": epochs,
                "node1_tasks_run": run.nodes[1].stats["tasks_run"],
                "db_sent_per_epoch": [n.stats["db_bytes_sent"] / epochs for n in run.nodes],
                "db_received_per_epoch": [n.stats["db_bytes_received"] / epochs
                                          for n in run.nodes],
                "bytes_sent_per_epoch": [n.stats["bytes_sent"] / epochs for n in run.nodes],
                "messages_per_epoch": run.totals()["messages_sent"] / epochs})
            values1, _ = run_program(cluster1, ir1, argv, threads=2)
            local.append(values1)
            first = samples[0]
            rows.append({
                "mode": mode_name, "block_bytes": elements * 8, "reps": reps,
                "epoch_s": median(s["epoch_median_s"] for s in samples),
                "one_node_epoch_s": median(v.get("epoch_median_s") for v in local),
                # bytes that crossed nodes per epoch, both directions, from the counters
                "db_bytes_per_epoch": sum(first["db_sent_per_epoch"]),
                "db_sent_per_epoch": first["db_sent_per_epoch"],
                "db_received_per_epoch": first["db_received_per_epoch"],
                "bytes_sent_per_epoch": first["bytes_sent_per_epoch"],
                "messages_per_epoch": first["messages_per_epoch"],
                "node1_tasks_run": first["node1_tasks_run"], "epochs": first["epochs"],
                "checksum_two_nodes": first["checksum"],
                "checksum_one_node": local[0].get("checksum"),
                "samples": samples})
    # Bandwidth: the bytes beyond the baseline block over the time beyond its epoch.
    for mode_name in ("read", "write"):
        mode_rows = [r for r in rows if r["mode"] == mode_name]
        base = mode_rows[0]
        for r in mode_rows:
            r["expected_block_bytes_per_epoch"] = r["block_bytes"] * (1 if mode_name == "read" else 2)
            r["baseline_block_bytes"] = base["block_bytes"]
            if r is base or r["epoch_s"] is None or base["epoch_s"] is None:
                r["mb_per_s"] = None
                continue
            moved = r["db_bytes_per_epoch"] - base["db_bytes_per_epoch"]
            r["mb_per_s"] = mb_per_s(moved, r["epoch_s"] - base["epoch_s"])
            r["mb_per_s_whole_epoch"] = mb_per_s(r["db_bytes_per_epoch"], r["epoch_s"])
    return {"rows": rows}


# ---------------------------------------------------------------------------- 3. Ray alone


class Peer:
    """An actor like a node actor (threaded, no CPU reserved); the driver asks one peer to
    time calls to the other, so both ends are actor processes as in the transport."""

    def __init__(self):
        import threading

        self.other = None
        self.back = threading.Event()
        self.buffer = None

    def connect(self, other) -> None:
        self.other = other

    def ping(self) -> None:
        return None

    def bounce(self, batch=None) -> None:
        """Called one-way by the other peer; answers one-way, as a batch and its reply do."""
        self.other.pong.remote(batch)

    def pong(self, batch=None) -> None:
        self.back.set()

    def take(self, array) -> int:
        """Receive an array and copy it, as cartsNodeDeliver copies a payload into place."""
        import numpy as np

        if self.buffer is None or self.buffer.nbytes != array.nbytes:
            self.buffer = np.empty_like(array)
        np.copyto(self.buffer, array)
        return int(array.nbytes)

    def take_ref(self, refs) -> int:
        import ray

        return self.take(ray.get(refs[0]))

    def echo(self, array):
        """Receive an array, copy it, send the copy back (a fetch and its write-back)."""
        self.take(array)
        return self.buffer

    # -- the timing loops, run inside this actor ---------------------------------------------

    def time_calls(self, n: int) -> list[float]:
        import ray

        out = []
        for _ in range(n):
            t = time.perf_counter()
            ray.get(self.other.ping.remote())
            out.append(time.perf_counter() - t)
        return out

    def time_pipelined(self, n: int, reps: int) -> list[float]:
        import ray

        out = []
        for _ in range(reps):
            t = time.perf_counter()
            ray.get([self.other.ping.remote() for _ in range(n)])
            out.append((time.perf_counter() - t) / n)
        return out

    def time_one_way_pairs(self, n: int, batch_bytes: int = 0) -> list[float]:
        """A call there and a call back, neither waited on; with ``batch_bytes``, each carries
        a numpy array of that size, as the transport's batches are."""
        import numpy as np

        batch = np.zeros(batch_bytes, np.uint8) if batch_bytes else None
        out = []
        for _ in range(n):
            self.back.clear()
            t = time.perf_counter()
            self.other.bounce.remote(batch)
            if not self.back.wait(10.0):
                raise RuntimeError("no answer within 10 s")
            out.append(time.perf_counter() - t)
        return out

    def time_array(self, nbytes: int, n: int, how: str) -> list[float]:
        import numpy as np
        import ray

        array = np.full(max(1, nbytes // 8), 1.5)
        out = []
        for _ in range(n):
            t = time.perf_counter()
            if how == "arg":
                ray.get(self.other.take.remote(array))
            elif how == "put":
                ray.get(self.other.take_ref.remote([ray.put(array)]))
            elif how == "echo":
                back = ray.get(self.other.echo.remote(array))
                assert back.nbytes == array.nbytes
            out.append(time.perf_counter() - t)
        return out


def start_peers():
    import ray

    peer_class = ray.remote(Peer)
    options = dict(num_cpus=0, max_concurrency=6, max_restarts=0)  # as NodeCluster's actors
    a = peer_class.options(**options).remote()
    b = peer_class.options(**options).remote()
    ray.get([a.connect.remote(b), b.connect.remote(a)])
    return [a, b]


def bench_ray(peers: list, sizes: list[int], calls: int) -> dict:
    """One run of the Ray figures; peer 0 times its calls to peer 1."""
    import ray

    a = peers[0]
    ray.get(a.time_calls.remote(20))  # warm up both workers and the call path
    result: dict = {"calls": calls}
    result["round_trip_s"] = median(ray.get(a.time_calls.remote(calls)))
    result["pipelined_per_call_s"] = median(ray.get(a.time_pipelined.remote(100, max(3, calls // 50))))
    result["one_way_pair_s"] = median(ray.get(a.time_one_way_pairs.remote(calls)))
    result["one_way_pair_batch_s"] = median(ray.get(a.time_one_way_pairs.remote(calls, BATCH_BYTES)))
    arrays = []
    for nbytes in sizes:
        n = 30 if nbytes <= 1 << 20 else 7
        row = {"bytes": nbytes}
        for how in ("arg", "put", "echo"):
            ray.get(a.time_array.remote(nbytes, 2, how))  # warm up
            row[f"{how}_s"] = median(ray.get(a.time_array.remote(nbytes, n, how)))
        arrays.append(row)
    base = arrays[0]
    for row in arrays:
        for how, factor in (("arg", 1), ("put", 1), ("echo", 2)):
            if row is base:
                row[f"{how}_mb_per_s"] = None
            else:
                row[f"{how}_mb_per_s"] = mb_per_s(factor * (row["bytes"] - base["bytes"]),
                                                  row[f"{how}_s"] - base[f"{how}_s"])
    result["arrays"] = arrays
    return result


def merge(runs: list):
    """The runs' results as one: the median of every number, the first of anything else."""
    first = runs[0]
    if isinstance(first, dict):
        return {k: merge([r.get(k) for r in runs]) for k in first}
    if isinstance(first, list) and all(isinstance(r, list) and len(r) == len(first) for r in runs):
        return [merge([r[i] for r in runs]) for i in range(len(first))]
    numbers = [r for r in runs if isinstance(r, (int, float)) and not isinstance(r, bool)]
    if numbers and len(numbers) == len([r for r in runs if r is not None]):
        return median(numbers)
    return first


# ---------------------------------------------------------------------------- report


def fmt_us(seconds) -> str:
    return "-" if seconds is None else f"{seconds * 1e6:.1f}"


def fmt_ms(seconds) -> str:
    return "-" if seconds is None else f"{seconds * 1e3:.3f}"


def fmt_mb(value) -> str:
    return "-" if value is None else f"{value:.0f}"


def table(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for k, r in enumerate(rows):
        cells = [c.ljust(w) if i in (0, len(r) - 1) else c.rjust(w)
                 for i, (c, w) in enumerate(zip(r, widths))]
        lines.append("  ".join(cells).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def report(results: dict) -> str:
    out = []
    env = results["environment"]
    out.append(f"node transport micro-benchmarks: ray {env['ray']}, {env['cores']} cores, "
               f"load average {env['load_before']:.2f} -> {env['load_after']:.2f}, "
               f"{env['wall_s']:.0f} s in all; runtime {env['runtime']}")
    launch, ray_r = results["launch"], results["ray"]
    native = results.get("native")
    nf = native["figures"] if native else {}
    t2 = launch["two_nodes_epoch_median_s"]
    status = "met" if t2 is not None and t2 <= launch["target_s"] else "MISSED"
    two = launch["two_nodes"][0]
    out.append("")
    out.append(f"1. task launch: median epoch time on node 0 (us); launch.c: {launch['reps']} "
               f"epochs per run, median of {results['runs']} runs; target for an epoch across 2 nodes "
               f"<= {launch['target_s'] * 1e6:g} us")
    rows = [["what", "median", "mean", "min", "p90", "notes"],
            ["launch.c, 2 nodes x 1 worker", fmt_us(t2), fmt_us(launch["two_nodes_epoch_mean_s"]),
             fmt_us(launch["two_nodes_epoch_min_s"]), fmt_us(launch["two_nodes_epoch_p90_s"]),
             f"{status}; chunk 1 on node 1 ({two['node1_tasks_run']} tasks run there), "
             f"{two['messages_per_epoch']:.1f} batches and {two['db_bytes_per_epoch']:.0f} "
             "db bytes per epoch"],
            ["launch.c, 1 node x 2 workers", fmt_us(launch["one_node_epoch_median_s"]),
             fmt_us(launch["one_node_epoch_mean_s"]), fmt_us(launch["one_node_epoch_min_s"]),
             fmt_us(launch["one_node_epoch_p90_s"]), "both chunks local (same actor kind)"]]
    if native:
        rows += [
            ["native, 1 task on node 0", fmt_us(nf.get("local_empty")), "", "", "",
             "no dependences"],
            ["native, 1 task on node 1", fmt_us(nf.get("remote_empty")), "", "", "",
             "no dependences: 1 batch there, 1 back"],
            ["native, 16 tasks on node 1", fmt_us(nf.get("remote_batch16")), "", "", "",
             "per epoch: the creates travel together"],
            ["native, 1 task on node 1 + 8 B WRITE", fmt_us(nf.get("write.%d" % native["sizes"][0])),
             "", "", "", "the dependence of launch.c's chunk 1, by hand"]]
    rows.append(["Ray: one-way call there + one back", fmt_us(ray_r["one_way_pair_batch_s"]), "",
                 "", "", f"with a {BATCH_BYTES} B numpy batch each way: what a launch would cost "
                 "if batches travelled as Ray calls (3a)"])
    out.append(table(rows))

    transfer = results["transfer"]["rows"]
    arrays = {row["bytes"]: row for row in ray_r["arrays"]}
    base = transfer[0]
    out.append("")
    out.append("2. datablock transfer: node 1's chunk acquires its block of a 1-D double array owned "
               "by node 0 (transfer.c). Epoch medians in ms; MB/s = (bytes - baseline's) / (epoch - "
               f"baseline's), baseline = the {size_text(base['block_bytes'])} block; db bytes per "
               "epoch from the counters (both directions)")
    rows = [["mode", "block", "epoch 2n", "epoch 1n", "db B/epoch", "block needs", "MB/s",
             "native ms", "native MB/s", "Ray ms", "Ray MB/s", "Ray call"]]
    for r in transfer:
        ray_row = arrays.get(r["block_bytes"])
        how = "arg" if r["mode"] == "read" else "echo"
        nat = (native or {}).get("transfer", {}).get(f"{r['mode']}.{r['block_bytes']}", {})
        rows.append([r["mode"], size_text(r["block_bytes"]), fmt_ms(r["epoch_s"]),
                     fmt_ms(r["one_node_epoch_s"]), f"{r['db_bytes_per_epoch']:.0f}",
                     str(r["expected_block_bytes_per_epoch"]), fmt_mb(r.get("mb_per_s")),
                     fmt_ms(nat.get("epoch_s")), fmt_mb(nat.get("mb_per_s")),
                     fmt_ms(ray_row[f"{how}_s"]) if ray_row else "-",
                     fmt_mb(ray_row[f"{how}_mb_per_s"]) if ray_row else "-",
                     "array as argument" if how == "arg" else "array there and back"])
    out.append(table(rows))

    out.append("")
    out.append(f"3a. Ray alone: empty calls between two actors placed like the node actors "
               f"(num_cpus=0, threaded), median over {ray_r['calls']} calls, median of {results['runs']} runs (us)")
    out.append(table([
        ["call", "latency", "what"],
        ["round trip", fmt_us(ray_r["round_trip_s"]), "ray.get(peer.ping.remote()), one at a time"],
        ["pipelined", fmt_us(ray_r["pipelined_per_call_s"]), "100 calls in flight, then ray.get; per call"],
        ["one-way pair", fmt_us(ray_r["one_way_pair_s"]),
         "fire-and-forget call there, fire-and-forget call back (a batch there, a batch back)"],
        [f"one-way pair, {BATCH_BYTES} B", fmt_us(ray_r["one_way_pair_batch_s"]),
         f"the same, each call carrying a {BATCH_BYTES}-byte numpy array (a small batch)"],
    ]))

    out.append("")
    out.append("3b. Ray alone: a numpy array actor -> actor, the receiver copies it; median ms, "
               "MB/s net of the smallest size")
    rows = [["array", "as argument", "MB/s", "ray.put + ref", "MB/s", "there and back", "MB/s"]]
    for row in ray_r["arrays"]:
        rows.append([size_text(row["bytes"]), fmt_ms(row["arg_s"]), fmt_mb(row["arg_mb_per_s"]),
                     fmt_ms(row["put_s"]), fmt_mb(row["put_mb_per_s"]), fmt_ms(row["echo_s"]),
                     fmt_mb(row["echo_mb_per_s"])])
    out.append(table(rows))
    notes = results.get("notes") or []
    out.append("")
    out.extend(f"note: {n}" for n in notes) if notes else out.append(
        "counters: every figure moved the bytes it should (see --json for the per-node counters)")
    return "\n".join(out)


def consistency_notes(results: dict) -> list[str]:
    """What the counters say that the figures do not: bytes or checksums not as expected."""
    notes = []
    launch = results["launch"]["two_nodes"][0]
    if launch["node1_tasks_run"] == 0:
        notes.append("launch.c: node 1 ran no task; the epochs were not remote")
    for r in results["transfer"]["rows"]:
        name = f"transfer.c {r['mode']} {size_text(r['block_bytes'])}"
        if r["node1_tasks_run"] < r["epochs"]:
            notes.append(f"{name}: node 1 ran {r['node1_tasks_run']} tasks for {r['epochs']} epochs")
        if r["db_bytes_per_epoch"] < r["expected_block_bytes_per_epoch"]:
            notes.append(f"{name}: {r['db_bytes_per_epoch']:.0f} db bytes per epoch, fewer than "
                         f"the {r['expected_block_bytes_per_epoch']} the block needs")
        sent, received = r["db_sent_per_epoch"], r["db_received_per_epoch"]
        if sent[0] != received[1] or sent[1] != received[0]:
            notes.append(f"{name}: db bytes sent and received disagree: sent {sent}, "
                         f"received {received}")
        c2, c1 = r["checksum_two_nodes"], r["checksum_one_node"]
        if c2 is None or c1 is None or abs(c2 - c1) > 1e-9 * max(abs(c1), 1.0):
            notes.append(f"{name}: checksum on 2 nodes {c2} differs from 1 node {c1}")
    native = results.get("native")
    if native and native["measured_db_bytes"] != native["expected_db_bytes"]:
        notes.append(f"native: db bytes {native['measured_db_bytes']}, expected "
                     f"{native['expected_db_bytes']}")
    return notes


# ---------------------------------------------------------------------------- main


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=200, help="timed launch epochs per run (default 200)")
    ap.add_argument("--runs", type=int, default=3, help="runs of each measurement; the median is shown")
    ap.add_argument("--sizes", default=",".join(str(s) for s in DEFAULT_SIZES),
                    help="block sizes in bytes, multiples of 8, comma-separated; the first is the "
                         "baseline (default %(default)s)")
    ap.add_argument("--calls", type=int, default=300, help="Ray calls per latency sample (default 300)")
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"), help="C compiler for native.c")
    ap.add_argument("--json", metavar="OUT", help="also write every figure to OUT as JSON")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    if len(sizes) < 2 or any(s < 8 or s % 8 for s in sizes):
        ap.error("--sizes needs at least two sizes, multiples of 8 bytes")

    import ray

    from carts_mlir import runtime
    from carts_mlir.nodes import NodeCluster

    started = time.monotonic()
    load_before = os.getloadavg()[0]
    results: dict = {}
    clusters: list = []
    peers: list = []
    tmp = tempfile.mkdtemp(prefix="carts-nodes-bench-")
    try:
        print("compiling ...", file=sys.stderr, flush=True)
        launch_defines = [f"REPS={args.reps}"]
        programs = {
            "launch2": compile_program(HERE / "launch.c", 2, 1, launch_defines),
            "launch1": compile_program(HERE / "launch.c", 1, 2, launch_defines),
            "transfer2": compile_program(HERE / "transfer.c", 2, 1, []),
            "transfer1": compile_program(HERE / "transfer.c", 1, 2, []),
        }
        library = build_native(Path(tmp), args.cc)
        # address="local": a Ray instance of our own even if another one runs on this machine.
        ray.init(address="local", num_cpus=max(2, os.cpu_count() or 1), include_dashboard=False,
                 log_to_driver=False, logging_level=logging.ERROR)
        install_signal_handlers()
        peers = start_peers()
        cluster2 = NodeCluster(2, threads=1)
        clusters.append(cluster2)
        cluster1 = NodeCluster(1, threads=2)
        clusters.append(cluster1)
        if library is None:
            print(f"no C compiler {args.cc!r}: native.c skipped", file=sys.stderr)
        # Run after run, every part once, so a change of load on the machine touches all.
        per_run = []
        for k in range(args.runs):
            print(f"run {k + 1}/{args.runs}: Ray alone, launch.c, "
                  f"{'native.c, ' if library else ''}transfer.c ...", file=sys.stderr, flush=True)
            one: dict = {"ray": bench_ray(peers, sizes, args.calls)}
            one["launch"] = bench_launch(cluster2, cluster1, programs["launch2"],
                                         programs["launch1"], args.reps)
            if library is not None:
                one["native"] = bench_native(cluster2, library, sizes, min(args.reps, 100))
            one["transfer"] = bench_transfer(cluster2, cluster1, programs["transfer2"],
                                             programs["transfer1"], sizes)
            per_run.append(one)
        results = merge(per_run)
        results["runs"] = args.runs
        results["per_run"] = per_run
    finally:
        for actor in peers:
            try:
                ray.kill(actor)
            except Exception:  # noqa: BLE001  (already gone)
                pass
        for cluster in clusters:
            cluster.close()
        if ray.is_initialized():
            ray.shutdown()
        shutil.rmtree(tmp, ignore_errors=True)
    results["environment"] = {
        "ray": ray.__version__, "cores": os.cpu_count(), "runtime": str(runtime.library_path()),
        "load_before": load_before, "load_after": os.getloadavg()[0],
        "wall_s": time.monotonic() - started, "argv": sys.argv[1:]}
    notes = [n for run in results["per_run"] for n in consistency_notes(run)]
    results["notes"] = list(dict.fromkeys(notes))  # each once, in order
    print(report(results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
