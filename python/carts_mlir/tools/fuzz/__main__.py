"""``python -m carts_mlir.tools.fuzz``: the random-program differential tester.

    python -m carts_mlir.tools.fuzz --n 1000 --threads 1,2 --nodes 2 --seed S --out DIR
    python -m carts_mlir.tools.fuzz gen SEED [--without abs]        # print one program
    python -m carts_mlir.tools.fuzz reduce DIR/wrong-t2-seed7/prog.c --config t2 [-o small.c]

``run`` (the default) generates ``--n`` programs from seeds ``S, S+1, ...``, runs each under
gcc and ``carts execute`` on every thread count and (every ``--node-every``-th program) on
``--nodes``, writes each failure to ``DIR/<status>-<config>-seed<S>/`` and prints a summary;
``--reduce`` also shrinks the first program of each distinct failure into
``DIR/reduced/``. The exit code is 0 when every run matched gcc, else 1.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from .generator import ALL_FEATURES, generate, parse_features
from .reducer import reduce_failure
from .runner import campaign, format_summary


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()] if text else []


def _feature_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--features", default="all",
                   help=f"comma list of features to use (default all: {', '.join(ALL_FEATURES)})")
    p.add_argument("--without", default="", help="comma list of features to leave out")


def _parse_with_features(p: argparse.ArgumentParser, argv: list[str]):
    """``p``'s arguments (with those of :func:`_feature_args`) and the features they pick;
    a bad feature name is a usage error of ``p``."""
    a = p.parse_args(argv)
    try:
        return a, parse_features(a.features, a.without)
    except ValueError as err:
        p.error(str(err))


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = argv.pop(0) if argv and argv[0] in ("run", "gen", "reduce") else "run"
    if command == "gen":
        return _gen(argv)
    if command == "reduce":
        return _reduce(argv)
    return _run(argv)


def _run(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m carts_mlir.tools.fuzz",
                                description="Differential testing of carts execute against "
                                            "gcc -fopenmp on random C + OpenMP programs.")
    p.add_argument("--n", type=int, default=100, help="programs to generate (default 100)")
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    p.add_argument("--threads", default="2", help="thread counts, comma list (default 2)")
    p.add_argument("--nodes", default="", help="node counts, comma list (default none)")
    p.add_argument("--node-threads", type=int, default=1,
                   help="workers per node in the node configurations (default 1)")
    p.add_argument("--node-every", type=int, default=1,
                   help="run the node configurations on every K-th program (default 1)")
    p.add_argument("--out", default="fuzz-out", help="where failures and the summary go")
    p.add_argument("--timeout", type=float, default=120, help="seconds per carts run")
    p.add_argument("--no-shared-cluster", action="store_true",
                   help="start Ray for every node run (carts execute --nodes) instead of "
                        "reusing one cluster")
    p.add_argument("--reduce", action="store_true",
                   help="reduce one program of each distinct failure into OUT/reduced/")
    _feature_args(p)
    a, features = _parse_with_features(p, argv)
    out = Path(a.out)
    started = time.monotonic()
    summary = campaign(list(range(a.seed, a.seed + a.n)), features=features,
                       threads=_ints(a.threads), nodes=_ints(a.nodes), node_every=a.node_every,
                       out=out, timeout=a.timeout, share_cluster=not a.no_shared_cluster,
                       node_threads=a.node_threads,
                       log=lambda line: print(line, flush=True))
    print(format_summary(summary))
    print(f"time: {time.monotonic() - started:.0f}s; failures and summary in {out}/")
    if a.reduce and summary["signatures"]:
        _reduce_all(out, summary, a.timeout)
    failed = any(n for c in summary["counts"].values() for s, n in c.items() if s != "match")
    return 1 if failed or summary["generator_errors"] else 0


def _reduce_all(out: Path, summary: dict, timeout: float) -> None:
    target = out / "reduced"
    target.mkdir(exist_ok=True)
    index = []
    for k, (sig, entry) in enumerate(sorted(summary["signatures"].items())):
        seed, config = entry["seeds"][0], entry["configs"][0]
        found = sorted(out.glob(f"*-{config}-seed{seed}"))
        if not found:
            continue
        source = found[0] / "prog.c"
        print(f"reducing {source} ({sig})", flush=True)
        result = reduce_failure(source.read_text(), config, timeout=timeout,
                                log=lambda line: print("  " + line, flush=True))
        name = target / f"bug{k}-{config}-seed{seed}.c"
        name.write_text(result.text)
        index.append({"signature": sig, "file": str(name), "config": config,
                      "lines": len(result.text.splitlines()), "status": result.status})
        print(f"  -> {name} ({len(result.text.splitlines())} lines)", flush=True)
    (target / "index.json").write_text(json.dumps(index, indent=1))


def _gen(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m carts_mlir.tools.fuzz gen",
                                description="Print the program of one seed.")
    p.add_argument("seed", type=int)
    _feature_args(p)
    a, features = _parse_with_features(p, argv)
    sys.stdout.write(generate(a.seed, features))
    return 0


def _reduce(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m carts_mlir.tools.fuzz reduce",
                                description="Shrink a program while it fails the same way.")
    p.add_argument("source", help="the failing C program")
    p.add_argument("--config", required=True,
                   help="where it fails: tN (carts execute --threads N), nN (--nodes N --threads 1) or nNxT (--nodes N --threads T)")
    p.add_argument("--status", choices=("wrong", "refused", "crash", "hang"),
                   help="the failure to keep (default: what the program does now)")
    p.add_argument("--any-signature", dest="same_signature", action="store_false",
                   default=None,
                   help="keep only the status, not the failure's signature (its normalised "
                        "message; kept by default for refusals and crashes)")
    p.add_argument("--timeout", type=float, default=60, help="seconds per carts run")
    p.add_argument("-o", "--output", help="write the result here (default: stdout)")
    a = p.parse_args(argv)
    text = Path(a.source).read_text()
    result = reduce_failure(text, a.config, status=a.status, same_signature=a.same_signature,
                            timeout=a.timeout, log=lambda line: print(line, file=sys.stderr,
                                                                      flush=True))
    if a.output:
        Path(a.output).write_text(result.text)
    else:
        sys.stdout.write(result.text)
    print(f"{result.status}: {len(text.splitlines())} -> {len(result.text.splitlines())} lines "
          f"in {result.tests} tests; {result.signature}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
