"""NumPy golden references for the normalisation examples, checked against the ARTS path.

    carts golden layernorm|batchnorm|all [--threads N] [--json OUT]

    >>> from carts_mlir import golden
    >>> result = golden.run_case(golden.cases("layernorm")[0])
    >>> result.comparison.pcc, result.passed

A case is one compilation of the example (``examples/ml-kernels/<kernel>/<kernel>.c``) with
defines for its shape, input kind, weights and epsilon, plus ``LN_DUMP``/``BN_DUMP``, under
which the program prints eps, x, gamma, beta and its output y as exact hex floats. The golden
is computed in float64 from the very inputs the program printed, so the comparison measures
only the C kernel's float32 arithmetic as our pipeline compiled it, not a second copy of the
input generator.
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from . import runs
from ..arguments import ArgumentParser, positive_number
from .bench import default_examples_root, make_console, write_json_atomically
from ..errors import CartsError
from ..files import check_destination

KERNELS = ("batchnorm", "layernorm")
SHAPES = ((1, 32), (1, 64), (32, 32), (4, 128), (1, 1, 256), (2, 2, 512))
EDGE_SHAPE = (4, 128)
# The C weight kinds (-DLN_WEIGHTS / -DBN_WEIGHTS); 0, the example's own pattern, is not a case.
WEIGHTS = {1: "γ=1 β=0", 2: "γ=2 β=1", 3: "random"}
# The C input kinds (-DLN_INPUT / -DBN_INPUT): 0 is the example's pattern.
INPUTS = {"pattern": 0, "constant": 1, "large": 2}
SMALL_EPS = "1e-12f"
RTOL = ATOL = 1e-4
PCC_NORMAL = 0.999
PCC_EDGE = 0.99
PARALLEL_CASES = 2  # each case compiles once; two at a time keep two cores busy


# --------------------------------------------------------------------------- the references


def batchnorm_stats(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-channel mean and biased variance of ``x`` (channels on axis 1, as NCHW or [B, F]).

    The first of the two kernels of the training-mode batch norm: statistics over every axis
    but the channel axis, divided by the element count (no Bessel correction), as training
    normalises with the batch's own statistics.
    """
    x = np.asarray(x, dtype=np.float64)
    axes = tuple(a for a in range(x.ndim) if a != 1)
    mean = x.mean(axis=axes)
    centred = x - _per_channel(mean, x.ndim)
    return mean, (centred * centred).mean(axis=axes)


def batchnorm_normalize(x: np.ndarray, mean: np.ndarray, var: np.ndarray, gamma: np.ndarray,
                        beta: np.ndarray, eps: float) -> np.ndarray:
    """The second kernel: ``(x - mean) / sqrt(var + eps) * gamma + beta``, per channel."""
    x = np.asarray(x, dtype=np.float64)
    mean, var, gamma, beta = (_per_channel(np.asarray(v, dtype=np.float64), x.ndim)
                              for v in (mean, var, gamma, beta))
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def batchnorm_golden(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray,
                     eps: float) -> np.ndarray:
    """Training-mode batch normalisation in float64: the stats kernel, then the normaliser."""
    mean, var = batchnorm_stats(x)
    return batchnorm_normalize(x, mean, var, gamma, beta, eps)


def layernorm_golden(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray,
                     eps: float) -> np.ndarray:
    """Layer normalisation in float64 over the last axis, biased variance; gamma and beta
    have the last axis's length."""
    x = np.asarray(x, dtype=np.float64)
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    var = (centred * centred).mean(axis=-1, keepdims=True)
    return centred / np.sqrt(var + eps) * np.asarray(gamma, dtype=np.float64) \
        + np.asarray(beta, dtype=np.float64)


def _per_channel(v: np.ndarray, ndim: int) -> np.ndarray:
    """A per-channel vector shaped to broadcast against an array whose channels are axis 1."""
    return v.reshape((1, -1) + (1,) * (ndim - 2))


# --------------------------------------------------------------------------- comparing


def pcc(a: np.ndarray, b: np.ndarray) -> float:
    """Pearson correlation of ``a`` and ``b`` (flattened), computed in float64.

    The coefficient divides by both standard deviations, so it is undefined when either array
    is constant. Normalising a constant input yields exactly beta, which is constant when beta
    is; there the meaningful question is whether the two constants agree. So: both constant
    and exactly equal gives 1.0; any other constant case, or a NaN/Inf in either array, gives
    NaN ("undefined"), which no threshold accepts.
    """
    a = np.asarray(a, dtype=np.float64).ravel()
    b = np.asarray(b, dtype=np.float64).ravel()
    if a.shape != b.shape:
        raise ValueError(f"pcc of arrays of {a.size} and {b.size} elements")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        return math.nan
    da, db = a - a.mean(), b - b.mean()
    na, nb = math.sqrt(float(da @ da)), math.sqrt(float(db @ db))
    if na == 0.0 or nb == 0.0:
        return 1.0 if na == nb == 0.0 and np.array_equal(a, b) else math.nan
    return max(-1.0, min(1.0, float(da @ db) / (na * nb)))


@dataclass(frozen=True)
class Comparison:
    """How an output matches its reference.

    ``pcc`` is NaN when undefined (see :func:`pcc`); ``nonfinite`` says whether either array
    holds a NaN or an Inf; ``constant`` whether both arrays are constant, where the PCC is
    1.0 or NaN by definition rather than measured.
    """

    pcc: float
    max_abs_err: float
    allclose: bool
    nonfinite: bool
    constant: bool = False

    def passes(self, edge: bool = False) -> bool:
        """The acceptance criteria; the one place they are written down.

        Normal inputs: finite, PCC > 0.999 and allclose(rtol=1e-4, atol=1e-4). Edge inputs
        (constant, large, tiny eps) may lose digits legitimately, so they need only be finite
        and correlate (PCC > 0.99); where the PCC is undefined (a constant output) they must
        still be allclose, so a wrong constant cannot pass.
        """
        if self.nonfinite:
            return False
        if not edge:
            return self.pcc > PCC_NORMAL and self.allclose
        return self.pcc > PCC_EDGE if not math.isnan(self.pcc) else self.allclose


def compare(actual: np.ndarray, expected: np.ndarray, rtol: float = RTOL,
            atol: float = ATOL) -> Comparison:
    """PCC, largest absolute error, ``allclose(rtol, atol)`` and NaN/Inf presence."""
    actual = np.asarray(actual, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    if actual.shape != expected.shape:
        raise ValueError(f"output shape {actual.shape} differs from the reference's "
                         f"{expected.shape}")
    nonfinite = not (np.isfinite(actual).all() and np.isfinite(expected).all())
    error = float(np.max(np.abs(actual - expected))) if actual.size else 0.0
    constant = bool(actual.size) and bool(np.ptp(actual) == 0 and np.ptp(expected) == 0)
    return Comparison(pcc(actual, expected), error,
                      bool(np.allclose(actual, expected, rtol=rtol, atol=atol)), nonfinite,
                      constant)


# --------------------------------------------------------------------------- the dump


def parse_dump(stdout: str) -> dict[str, np.ndarray]:
    """The arrays a program printed under ``LN_DUMP``/``BN_DUMP``: float32 arrays, and eps
    as a float64 scalar (the example may use it as a double literal).

    The format: a header ``dump NAME D0 [D1 ...]`` followed by the D0*D1*... values as C99 hex
    floats (``%a``), over as many lines as the program liked; ``dump NAME VALUE`` with a
    single value (eps) on the header line itself; ``dump end`` closes. Lines outside the dump
    (timers, checksum) are ignored.
    """
    arrays: dict[str, np.ndarray] = {}
    lines = iter(stdout.splitlines())
    closed = False
    for line in lines:
        words = line.split()
        if not words or words[0] != "dump":
            continue
        if words[1:] == ["end"]:
            closed = True
            break
        if len(words) == 3 and not words[2].isdigit():
            arrays[words[1]] = np.float64(_hex(words[2], line))
            continue
        if len(words) < 3 or not all(w.isdigit() for w in words[2:]):
            raise CartsError(f"malformed dump header '{line}'")
        name, dims = words[1], tuple(int(w) for w in words[2:])
        values: list[float] = []
        count = math.prod(dims)
        while len(values) < count:
            row = next(lines, None)
            if row is None:
                raise CartsError(f"dump of '{name}' ends after {len(values)} of {count} values")
            values += [_hex(w, row) for w in row.split()]
        if len(values) != count:
            raise CartsError(f"dump of '{name}' has {len(values)} values, expected {count}")
        arrays[name] = np.array(values, dtype=np.float32).reshape(dims)
    if not closed:
        raise CartsError("the program's output has no complete dump ('dump end' is missing)")
    return arrays


def _hex(word: str, line: str) -> float:
    try:
        return float.fromhex(word)
    except ValueError:
        raise CartsError(f"'{word}' is not a hex float, in dump line '{line[:80]}'") from None


# --------------------------------------------------------------------------- the cases


@dataclass(frozen=True)
class Case:
    """One configuration of one example: shape, weight kind, input kind and epsilon."""

    kernel: str
    shape: tuple[int, ...]
    weights: int
    inputs: str = "pattern"
    eps: str | None = None  # a C literal for -DLN_EPS/-DBN_EPS; None keeps the default

    def __post_init__(self):
        if self.kernel not in KERNELS or self.weights not in WEIGHTS or self.inputs not in INPUTS:
            raise ValueError(f"no such case: {self}")

    @property
    def edge(self) -> bool:
        return self.inputs != "pattern" or self.eps is not None

    @property
    def kind(self) -> str:
        """What is unusual about the inputs: 'normal', 'constant', 'large' or 'eps=...'."""
        if self.eps is not None:
            return f"eps={self.eps.rstrip('f')}"
        return "normal" if self.inputs == "pattern" else self.inputs

    @property
    def name(self) -> str:
        dims = "x".join(map(str, self.shape))
        kind = "" if self.kind == "normal" else f"-{self.kind}"
        return f"{self.kernel}-{dims}-w{self.weights}{kind}"

    @property
    def c_shape(self) -> tuple[int, ...]:
        """The shape of the C arrays: (rows, hidden), or (N, C, H*W) for batch norm.

        Layer norm: rows are every axis but the last. Batch norm: [B, F] is N=B, C=F, H=W=1;
        [a, b, c] is N=a, C=b, H=1, W=c.
        """
        if self.kernel == "layernorm":
            return (math.prod(self.shape[:-1]), self.shape[-1])
        return (self.shape[0], self.shape[1], math.prod(self.shape[2:]))

    def defines(self) -> list[str]:
        if self.kernel == "layernorm":
            rows, hidden = self.c_shape
            prefix, sizes = "LN", [f"LN_BATCH={rows}", f"LN_HIDDEN={hidden}"]
        else:
            n, c, hw = self.c_shape
            prefix, sizes = "BN", [f"BN_N={n}", f"BN_C={c}", "BN_H=1", f"BN_W={hw}"]
        extra = [f"{prefix}_EPS={self.eps}"] if self.eps is not None else []
        return [*sizes, f"{prefix}_INPUT={INPUTS[self.inputs]}", f"{prefix}_WEIGHTS={self.weights}",
                *extra, f"{prefix}_DUMP"]


def cases(kernel: str) -> list[Case]:
    """Every shape with every weight kind, then the edge inputs at one shape."""
    if kernel not in KERNELS:
        raise CartsError(f"unknown kernel '{kernel}' (known: {', '.join(KERNELS)}, all)")
    normal = [Case(kernel, shape, w) for shape in SHAPES for w in WEIGHTS]
    edges = [Case(kernel, EDGE_SHAPE, w, inputs, eps)
             for inputs, eps in (("constant", None), ("large", None), ("pattern", SMALL_EPS))
             for w in WEIGHTS]
    return normal + edges


def golden_for(case: Case, dump: dict[str, np.ndarray]) -> np.ndarray:
    """The float64 reference for a case, from the inputs its program printed, in C layout."""
    x = dump["x"].astype(np.float64).reshape(case.shape)
    eps = float(dump["eps"])
    reference = layernorm_golden if case.kernel == "layernorm" else batchnorm_golden
    return reference(x, dump["gamma"], dump["beta"], eps).reshape(case.c_shape)


# --------------------------------------------------------------------------- running


@dataclass
class CaseResult:
    """A case's comparison, or why it has none (the build or the run failed); ``dump`` is
    what the program printed (eps, x, gamma, beta, y) and ``expected`` the golden in the
    layout of y, for a closer look."""

    case: Case
    comparison: Comparison | None = None
    error: str | None = None
    reproduce: str = ""
    seconds: float = 0.0
    dump: dict[str, np.ndarray] | None = field(default=None, repr=False)
    expected: np.ndarray | None = field(default=None, repr=False)

    @property
    def actual(self) -> np.ndarray | None:
        return None if self.dump is None else self.dump["y"]

    @property
    def passed(self) -> bool:
        return self.comparison is not None and self.comparison.passes(self.case.edge)

    def to_json(self) -> dict:
        data = {"case": self.case.name, "kernel": self.case.kernel, "shape": list(self.case.shape),
                "weights": WEIGHTS[self.case.weights], "inputs": self.case.kind,
                "edge": self.case.edge, "passed": self.passed, "seconds": round(self.seconds, 3)}
        if self.comparison is not None:
            data.update({k: (None if isinstance(v, float) and math.isnan(v) else v)
                         for k, v in asdict(self.comparison).items()})
        if self.error is not None:
            data.update(error=self.error, reproduce=self.reproduce)
        return data


@dataclass
class Paths:
    """Where the examples are: the root, whose ``include/`` holds ``carts_bench.h``."""

    root: Path = field(default_factory=default_examples_root)

    def source(self, kernel: str) -> Path:
        return self.root / "ml-kernels" / kernel / f"{kernel}.c"

    @property
    def include(self) -> Path:
        return self.root / "include"


def reproduce_command(case: Case, paths: Paths, threads: int) -> str:
    flags = " ".join(f"-D{d}" for d in case.defines())
    return (f"threads={threads} carts execute {paths.source(case.kernel)} -O3 "
            f"-I {paths.include} {flags}")


def run_case(case: Case, *, threads: int = 2, paths: Paths | None = None) -> CaseResult:
    """Compile and run one case through ARTS and compare its output with the golden."""
    paths = paths or Paths()
    result = CaseResult(case, reproduce=reproduce_command(case, paths, threads))
    start = time.perf_counter()
    try:
        run = runs.run_arts(paths.source(case.kernel), defines=case.defines(),
                            includes=[str(paths.include)], threads=threads).check()
        dump = parse_dump(run.stdout)
        missing = [n for n in ("eps", "x", "gamma", "beta", "y") if n not in dump]
        if missing:
            raise CartsError(f"the dump lacks {', '.join(missing)}")
        if dump["y"].shape != case.c_shape:
            raise CartsError(f"the program printed y of shape {dump['y'].shape}, "
                             f"expected {case.c_shape}")
        result.dump, result.expected = dump, golden_for(case, dump)
        result.comparison = compare(dump["y"], result.expected)
    except CartsError as err:
        result.error = err.message
    result.seconds = time.perf_counter() - start
    return result


def run_cases(selected: list[Case], *, threads: int = 2, paths: Paths | None = None,
              jobs: int = PARALLEL_CASES, done=None) -> list[CaseResult]:
    """Run the cases ``jobs`` at a time; ``done(result)`` is called as each finishes."""
    paths = paths or Paths()

    def one(case: Case) -> CaseResult:
        result = run_case(case, threads=threads, paths=paths)
        if done is not None:
            done(result)
        return result

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(one, selected))


# --------------------------------------------------------------------------- the command


def _number(value: float, fmt: str) -> str:
    return "undefined" if math.isnan(value) else format(value, fmt)


def _pcc_cell(cmp: Comparison) -> str:
    """The PCC to 15 digits, since on float32 data it sits within ~1e-13 of 1."""
    return _number(cmp.pcc, ".15g") + (" (both const)" if cmp.constant else "")


def _table(results: list[CaseResult]):
    from rich import box
    from rich.table import Table

    table = Table(box=box.ROUNDED)
    table.add_column("Case", overflow="fold")
    table.add_column("Shape", no_wrap=True)
    table.add_column("Inputs", no_wrap=True)
    table.add_column("Weights", no_wrap=True)
    for title in ("PCC", "Max abs err"):
        table.add_column(title, justify="right", no_wrap=True)
    for title in ("allclose", "NaN/Inf", "Verdict"):
        table.add_column(title, justify="center", no_wrap=True)
    for r in results:
        c, cmp = r.case, r.comparison
        head = (c.name, "[" + ",".join(map(str, c.shape)) + "]", c.kind, WEIGHTS[c.weights])
        if cmp is None:
            table.add_row(*head, "-", "-", "-", "-", "[red]✗[/] error")
            continue
        table.add_row(*head, _pcc_cell(cmp), _number(cmp.max_abs_err, ".2e"),
                      "yes" if cmp.allclose else "[red]no[/]",
                      "[red]yes[/]" if cmp.nonfinite else "no",
                      "[green]✓[/] pass" if r.passed else "[red]✗[/] fail")
    return table


def _parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="carts golden",
        description="Check the normalisation examples, run through ARTS, against NumPy "
                    "float64 references.")
    parser.add_argument("name", choices=(*KERNELS, "all"), metavar="NAME",
                        help="batchnorm, layernorm or all")
    parser.add_argument("--threads", type=positive_number(int), default=2,
                        help="ARTS worker threads per run (default 2)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="write a JSON report")
    return parser


def golden_main(argv: list[str]) -> int:
    """``carts golden NAME [--threads N] [--json OUT]``: 0 iff every case passes."""
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    try:
        args = _parser().parse_args(argv)
    except SystemExit as done:  # --help
        return int(done.code or 0)
    if args.json is not None:
        check_destination(args.json)
    selected = [c for k in (KERNELS if args.name == "all" else (args.name,)) for c in cases(k)]
    paths = Paths()
    for kernel in {c.kernel for c in selected}:
        if not paths.source(kernel).is_file():
            raise CartsError(f"example '{paths.source(kernel)}' not found")
    console = make_console()
    start = time.perf_counter()
    with Progress(TextColumn("golden"), BarColumn(), MofNCompleteColumn(), console=console,
                  transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task("", total=len(selected))
        results = run_cases(selected, threads=args.threads, paths=paths,
                            done=lambda _: progress.advance(task))
    seconds = time.perf_counter() - start
    console.print(_table(results))
    for r in results:
        if r.error is not None:
            console.print(f"[red]✗[/] {escape(r.case.name)}: {escape(r.error)}", soft_wrap=True)
        if not r.passed:
            console.print(f"  reproduce with: {escape(r.reproduce)}", soft_wrap=True)
    passed = sum(r.passed for r in results)
    console.print(f"[green]✓[/] {passed} passed  [red]✗[/] {len(results) - passed} failed  "
                  f"⏱ {seconds:.2f}s   (normal: PCC > {PCC_NORMAL}, allclose rtol={RTOL:g} "
                  f"atol={ATOL:g}; edge: PCC > {PCC_EDGE}, or allclose where PCC is undefined; "
                  "both: no NaN/Inf)")
    if args.json is not None:
        write_json_atomically(args.json, {"threads": args.threads, "seconds": round(seconds, 3),
                                          "passed": passed, "failed": len(results) - passed,
                                          "cases": [r.to_json() for r in results]})
        console.print(f"JSON report: {escape(str(args.json))}")
    return 0 if passed == len(results) else 1
