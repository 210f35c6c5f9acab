"""``carts benchmarks build``: both executables of every example, to measure elsewhere.

    carts benchmarks build [NAME...] --out DIR [--size S[,S...]] [--threads T[,T...]]
                           [--cpu CPU] [--examples DIR]

For every example and size it writes ``DIR/<size>/<name>_omp`` (``$CC -O3 -fopenmp
-march=CPU``) and, per thread count T, ``DIR/<size>/<name>_arts_t<T>``: the ARTS program
planned for T workers, optimised as the JIT does it for CPU (:mod:`carts_mlir.jit.native`),
linked against ``DIR/lib/libcartsrt.so`` through an ``$ORIGIN``-relative rpath. It copies the
runtime there, records every pair in ``DIR/manifest.json`` (an existing manifest is merged,
so a thread sweep of some examples can be added to a suite) and writes ``DIR/run.py``
(:mod:`carts_mlir.tools.suite_runner`), which needs nothing but python3 on the machine that runs it:

    python3 DIR/run.py --runs 3
"""

from __future__ import annotations

import json
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

from ...errors import CartsError
from .discovery import SIZES, discover_examples, select

#: The default CPU: what both compilers target, so the suite runs on any recent x86-64.
DEFAULT_CPU = "x86-64-v3"


def _has_fma(cc: list[str], cpu: str) -> bool:
    """Whether the C compiler's ``-march=cpu`` build has FMA (``__FMA__``), where gcc
    contracts multiplies into adds by default."""
    done = subprocess.run([*cc, f"-march={cpu}", "-dM", "-E", "-x", "c", "-"], input="",
                          capture_output=True, text=True)
    return done.returncode == 0 and "#define __FMA__ 1" in done.stdout


def _list(text: str, parse, what: str) -> list:
    try:
        values = [parse(v) for v in text.split(",") if v]
    except ValueError:
        values = []
    if not values:
        raise CartsError(f"{what}: expected a comma-separated list, got '{text}'")
    return values


def build_main(args, root: Path) -> int:
    # The compiler's own modules, imported when a build is asked for (they load MLIR).
    from ... import runtime
    from ...execute import ExecuteOptions, arts_llvm_ir
    from ...jit.native import build_executable, c_compiler

    examples = select(discover_examples(root), args.names)
    sizes = _list(args.size, str, "--size")
    for size in sizes:
        if size not in SIZES:
            raise CartsError(f"--size: unknown size '{size}' (one of {', '.join(SIZES)})")
    threads = _list(args.threads, int, "--threads")
    if any(t < 1 for t in threads):
        raise CartsError("--threads: thread counts must be positive")
    out: Path = args.out
    if out.exists() and not out.is_dir():
        raise CartsError(f"--out '{out}' exists and is not a directory")
    (out / "lib").mkdir(parents=True, exist_ok=True)
    shutil.copy2(runtime.library_path(), out / "lib" / runtime.RUNTIME_NAME)
    manifest_path = out / "manifest.json"
    entries: dict[tuple, dict] = {}
    if manifest_path.is_file():
        for e in json.loads(manifest_path.read_text()).get("entries", []):
            entries[(e["name"], e["size"], e["threads"])] = e
    include = root / "include"
    cc = c_compiler()
    started = time.perf_counter()
    contracted = "fast" if _has_fma(cc, args.cpu) else "off"
    for ex in examples:
        for size in sizes:
            folder = out / size
            folder.mkdir(exist_ok=True)
            stem = ex.name.replace("/", "_")
            define = f"{size.upper()}_DATASET"
            omp = folder / f"{stem}_omp"
            command = [*cc, "-O3", "-fopenmp", f"-march={args.cpu}", str(ex.source), "-I",
                       str(include), f"-D{define}", "-lm", "-o", str(omp)]
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode != 0:
                raise CartsError(f"{ex.name} ({size}): the OpenMP build failed: "
                                 f"{done.stderr.strip()[-300:]}")
            for t in threads:
                # gcc contracts multiplies into adds where the target has FMA (the
                # x86-64-v3 default build does): ours does the same
                opts = ExecuteOptions(source=str(ex.source), defines=[define],
                                      includes=[str(include)], threads=t, nodes=1,
                                      fp_contract=contracted)
                arts = folder / f"{stem}_arts_t{t}"
                build_executable(arts_llvm_ir(opts), arts, cpu=args.cpu,
                                 runtime_dir=out / "lib", rpath="$ORIGIN/../lib")
                entries[(ex.name, size, t)] = {
                    "name": ex.name, "size": size, "threads": t, "tolerance": ex.tolerance,
                    "arts": arts.relative_to(out).as_posix(),
                    "omp": omp.relative_to(out).as_posix()}
                print(f"built {ex.name} {size} t{t}", file=sys.stderr, flush=True)
    manifest = {"built": {"cpu": args.cpu, "host": platform.node(), "cc": cc,
                          "fp_contract": contracted,
                          "date": time.strftime("%Y-%m-%d %H:%M:%S")},
                "entries": sorted(entries.values(),
                                  key=lambda e: (e["size"], e["threads"], e["name"]))}
    manifest_path.write_text(json.dumps(manifest, indent=1) + "\n")
    runner = out / "run.py"
    shutil.copy2(Path(__file__).parent.parent / "suite_runner.py", runner)
    runner.chmod(0o755)
    print(f"{len(entries)} pairs in {out} ({time.perf_counter() - started:.0f}s); "
          f"run them with: python3 {runner}", file=sys.stderr)
    return 0
