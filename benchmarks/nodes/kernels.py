"""The examples on N nodes x 1 worker against 1 node x N workers (the same cores): kernel time,
wall time, datablock bytes, batches per node per epoch (the most any node sent, and
received, over the epochs of the run). Best of --runs, the two layouts
alternating run by run, in one process and one Ray instance. Reports only.

    .venv/bin/python benchmarks/nodes/kernels.py                        # the default set
    .venv/bin/python benchmarks/nodes/kernels.py jacobi2d:MEDIUM --runs 5 --nodes 2
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

from carts_mlir.tools.suite_runner import CHECKSUM, TIMER  # noqa: E402
EXAMPLES = ROOT / "examples"
DEFAULT = ("jacobi2d:MEDIUM", "batchnorm:LARGE", "layernorm:LARGE", "gemm:LARGE",
           "activations:LARGE", "pooling:LARGE", "transformer:SMALL")


def source_of(name: str) -> Path:
    found = sorted(p for p in EXAMPLES.rglob(f"{name}.c"))
    if not found:
        raise SystemExit(f"kernels.py: no example named {name}")
    return found[0]


def kernel_seconds(stdout: str) -> float:
    return sum(float(seconds) for kind, _, seconds in TIMER.findall(stdout) if kind == "kernel")


def checksum(stdout: str) -> str:
    found = CHECKSUM.findall(stdout)
    return found[-1] if found else "?"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", default=list(DEFAULT),
                        help="NAME:SIZE (MINI, SMALL, MEDIUM, LARGE)")
    parser.add_argument("--nodes", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)

    from carts_mlir.execute import ExecuteOptions, arts_llvm_ir
    from carts_mlir.nodes import NodeCluster

    n = args.nodes
    rows = []
    with NodeCluster(n, threads=1) as spread, NodeCluster(1, threads=n) as single:
        for case in args.cases:
            name, _, size = case.partition(":")
            src = source_of(name)
            defines = [f"{size or 'SMALL'}_DATASET"]
            common = dict(source=str(src), defines=defines, includes=[str(EXAMPLES / "include")])
            ir_n = arts_llvm_ir(ExecuteOptions(threads=1, nodes=n, **common))
            ir_1 = arts_llvm_ir(ExecuteOptions(threads=n, nodes=1, **common))
            best = {"n": None, "1": None}
            for _ in range(args.runs):
                for key, cluster, llvm_ir in (("n", spread, ir_n), ("1", single, ir_1)):
                    run = cluster.run(llvm_ir, [str(src)])
                    out = run.nodes[0].stdout
                    k = kernel_seconds(out)
                    if best[key] is None or k < best[key][0]:
                        best[key] = (k, run.wall_s, run, checksum(out))
            kn, walln, run_n, sum_n = best["n"]
            k1, wall1, _, sum_1 = best["1"]
            epochs = sum(x.stats["epochs"] for x in run_n.nodes) or 1
            per_epoch = max(x.stats["batches_sent"] for x in run_n.nodes) / epochs
            in_epoch = max(x.stats["batches_received"] for x in run_n.nodes) / epochs
            control = max(x.stats["control_sent"] + x.stats["control_received"]
                          for x in run_n.nodes) / epochs
            launches = sum(x.stats["launches"] for x in run_n.nodes)
            per_launch = (max(x.stats["control_sent"] + x.stats["control_received"]
                              for x in run_n.nodes[1:]) / launches if launches and n > 1 else 0.0)
            moved = sum(x.stats["db_bytes_sent"] for x in run_n.nodes)
            synced = sum(x.stats["sync_bytes_sent"] for x in run_n.nodes)
            rows.append((case, k1, kn, kn / k1 if k1 else math.inf, wall1, walln, moved,
                         per_epoch, epochs, "same" if sum_n == sum_1 else f"{sum_n} vs {sum_1}"))
            print(f"{case}: kernel 1x{n} {k1:.4f}s  {n}x1 {kn:.4f}s  ratio {rows[-1][3]:.2f}  "
                  f"wall {wall1:.3f}s / {walln:.3f}s  "
                  f"moved {moved / 1e6:.2f} MB (host sync {synced / 1e6:.2f})  batches/node/epoch sent {per_epoch:.1f} "
                  f"received {in_epoch:.1f}  control msgs/node/epoch {control:.1f} "
                  f"({epochs} epochs), other nodes' per launch {per_launch:.1f} ({launches} launches)  "
                  f"checksum {rows[-1][-1]}", flush=True)
    ratios = [r[3] for r in rows if r[3] > 0 and math.isfinite(r[3])]
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"geometric mean of kernel time {n} nodes / 1 node: {geo:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
