"""Exploring a compilation from Python or a notebook: every stage's module, in order.

    >>> from carts_mlir import explore
    >>> c = explore.compile("examples/ml-kernels/batchnorm/batchnorm.c",
    ...                     defines=["MINI_DATASET"], includes=["examples/include"], threads=4)
    >>> c.stages[0].name, c["create-dbs"].seconds
    >>> c.diff("openmp-to-arts", "create-dbs")      # a unified diff; HTML in a notebook
    >>> c                                           # every stage, unchanged ones collapsed

    >>> c.decisions("db-partitioning")                 # one row per decision (a DataFrame)
    >>> c.graph("epochs")                               # tasks, datablocks, epochs: SVG
    >>> run = explore.run("...c", threads=2, ...)       # stdout, checksum, kernel times
    >>> explore.scaling("...c", threads=[1, 2]).plot()  # ours against OpenMP

A C source string is accepted too (``explore.compile_source("int main(void) {...}")``).
Each stage shows itself in a notebook (``_repr_html_``): its name, the time it took, its
size, and its IR with source locations.

Every debug channel is on while a compilation runs here, and what each stage printed is kept
with the stage (``Stage.debug``): the channels are the passes' own record of why they decided
what they did, one ``[channel] file:line:col: decision`` line each, so
:meth:`Compilation.decisions` is a table of them rather than a second analysis.
"""

from __future__ import annotations

import difflib
import html
import os
import re
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .. import ir, pipeline, taskgraph

from . import plots, runs
from ..arguments import ArgumentParser
from ..errors import CartsError
from ..execute import arts_stages
from ..files import write_atomically
from ..tables import as_table

FRONT_END = "front-end"


@dataclass
class Stage:
    """One stage's output: ``name`` (a pipeline stage, or ``front-end`` for the OpenMP
    compile it starts from), the module's text (with locations), and the seconds the
    stage took."""

    name: str
    text: str
    seconds: float
    debug: str = ""
    """What the passes of this stage printed on their debug channels."""

    @property
    def lines(self) -> int:
        return self.text.count("\n")

    def _header(self) -> str:
        return (f"<b>{html.escape(self.name)}</b> &middot; {self.seconds * 1000:.1f} ms "
                f"&middot; {self.lines} lines")

    def _repr_html_(self) -> str:
        return f"<div>{self._header()}<pre>{html.escape(self.text)}</pre></div>"


@dataclass
class Diff:
    """The unified diff between two stages."""

    before: str
    after: str
    lines: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(self.lines)

    @property
    def changed(self) -> bool:
        return bool(self.lines)

    def __str__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        rows = []
        for line in self.lines:
            color = {"+": "#e6ffec", "-": "#ffebe9", "@": "#ddf4ff"}.get(line[:1], "")
            style = f' style="background:{color}"' if color and not line.startswith(("+++", "---")) else ""
            rows.append(f"<span{style}>{html.escape(line)}</span>")
        title = f"<b>{html.escape(self.before)}</b> &rarr; <b>{html.escape(self.after)}</b>"
        if not self.lines:
            return f"<div>{title}: unchanged</div>"
        return f"<div>{title}<pre>{''.join(rows)}</pre></div>"


@dataclass
class Compilation:
    """Every stage of one compilation, in pipeline order (the front end's first)."""

    source: str
    stages: list[Stage]

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.stages]

    def __getitem__(self, name: str) -> Stage:
        for s in self.stages:
            if s.name == name:
                return s
        raise KeyError(f"no stage '{name}' (stages: {', '.join(self.names)})")

    def diff(self, before: str, after: str) -> Diff:
        a, b = self[before], self[after]
        lines = difflib.unified_diff(a.text.splitlines(keepends=True),
                                     b.text.splitlines(keepends=True), before, after)
        return Diff(before, after, list(lines))

    def decisions(self, channel: str | None = None, stage: str | None = None):
        """The debug-channel decisions of every stage (or of ``stage``), optionally of one
        ``channel``: a pandas DataFrame when pandas is installed, else a list of dicts. Each
        row has the stage, the channel, the location (file, line, col), the decision's
        text, its ``key=value`` facts as columns, and the reason in its last parentheses."""
        if channel is not None:
            channel = pipeline.channel_name(channel)
        rows = []
        for s in self.stages:
            if stage is not None and s.name != stage:
                continue
            rows += [r for r in parse_decisions(s.debug, s.name)
                     if channel is None or r["channel"] == channel]
        if stage is not None and stage not in self.names:
            self[stage]  # the KeyError that lists the stages
        known = sorted({r["channel"] for s in self.stages for r in parse_decisions(s.debug, s.name)})
        if channel is not None and channel not in known:
            raise KeyError(f"no decisions on channel '{channel}' (channels: {', '.join(known)})")
        return as_table(rows)

    def graph(self, stage: str = "epochs") -> taskgraph.TaskGraph:
        """The task/datablock graph of one stage's module (SVG in a notebook)."""
        with ir.context():
            return taskgraph.from_module(ir.parse(self[stage].text, source_name=self.source))

    def _repr_html_(self) -> str:
        """Every stage as a collapsible block; a stage that changed nothing says so and
        shows no IR, as Compiler Explorer's pipeline view collapses unchanged passes."""
        parts = [f"<div><b>{html.escape(self.source)}</b></div>"]
        previous = None
        for s in self.stages:
            if previous is not None and previous.text == s.text:
                parts.append(f"<div>{s._header()}: unchanged</div>")
            else:
                parts.append(f"<details><summary>{s._header()}</summary>"
                             f"<pre>{html.escape(s.text)}</pre></details>")
            previous = s
        return "\n".join(parts)


_DECISION = re.compile(r"^\[([\w.-]+)\] (?:(\S+?):(\d+):(\d+): )?(.*)$")
_FACT = re.compile(r"([\w.-]+)=([^\s,()]+)")


def parse_decisions(text: str, stage: str = "") -> list[dict]:
    """The ``[channel] file:line:col: decision`` lines of ``text`` as records."""
    rows = []
    for line in text.splitlines():
        m = _DECISION.match(line)
        if not m:
            continue
        channel, file, line_no, col, message = m.groups()
        reason = re.search(r"\(([^()]*)\)\s*$", message)
        row = {"stage": stage, "channel": channel, "file": file,
               "line": int(line_no) if line_no else None, "col": int(col) if col else None,
               "decision": message, "reason": reason.group(1) if reason else None}
        for key, value in _FACT.findall(message):
            row.setdefault(key, value)
        rows.append(row)
    return rows


@contextmanager
def _stderr_captured(into: list[str]):
    """Send file descriptor 2 (where the C++ passes write) to a file for the duration, and
    append what arrived to ``into``."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            into.append(tmp.read().decode(errors="replace"))


def compile(path: str, *, defines=(), includes=(), threads: int | None = None,
            nodes: int | None = None) -> Compilation:
    """Compile the C file ``path`` through every stage, keeping each stage's module and what
    its passes printed on their debug channels."""
    from .. import _plugin

    stages = []
    _plugin.set_debug_channels(["all"])
    try:
        with ir.context():
            steps = arts_stages(path, defines=defines, includes=includes, threads=threads,
                                nodes=nodes)
            while True:
                printed: list[str] = []
                with _stderr_captured(printed):
                    step = next(steps, None)
                if step is None:
                    break
                st, module, seconds = step
                stages.append(Stage(st.name if st else FRONT_END,
                                    ir.to_text(module, debug_info=True), seconds, printed[0]))
    finally:
        _plugin.set_debug_channels([])
    return Compilation(path, stages)


def compile_source(code: str, *, name: str = "input.c", **kwargs) -> Compilation:
    """:func:`compile` for C source text (written to a temporary file named ``name``)."""
    with tempfile.TemporaryDirectory(prefix="carts-explore-") as tmp:
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(code)
        compilation = compile(path, **kwargs)
    # locations name the file as the caller did, not the temporary directory
    for s in compilation.stages:
        s.text = s.text.replace(f"{tmp}/", "")
        s.debug = s.debug.replace(f"{tmp}/", "")
    compilation.source = name
    return compilation


def run(path: str, *, defines=(), includes=(), threads: int | None = None,
        nodes: int | None = None, args=(), openmp: bool = False) -> runs.RunResult:
    """Run the C file ``path`` (the ARTS path, or its ``-fopenmp`` build with ``openmp``) and
    return what it printed: ``stdout``, ``checksum``, ``kernels`` (seconds per timer)."""
    if openmp:
        return runs.run_openmp(path, defines=defines, includes=includes, threads=threads,
                               args=args)
    return runs.run_arts(path, defines=defines, includes=includes, threads=threads,
                         nodes=nodes, args=args)


@dataclass
class Scaling:
    """Kernel seconds per thread count, ours and OpenMP's (best of ``repeat`` runs each)."""

    source: str
    threads: list[int]
    arts: list[float | None]
    openmp: list[float | None]
    checksums: dict[str, list[float | None]] = field(default_factory=dict)

    def records(self) -> list[dict]:
        return [{"threads": t, "arts_s": a, "openmp_s": o,
                 "omp_over_arts": (o / a) if a and o else None}
                for t, a, o in zip(self.threads, self.arts, self.openmp)]

    def table(self):
        return as_table(self.records())

    def plot(self, path: str | None = None):
        """Seconds against threads, both builds, with the ideal line (matplotlib Figure)."""
        series = {"carts-mlir (ARTS)": [(t, s) for t, s in zip(self.threads, self.arts) if s],
                  "gcc -fopenmp": [(t, s) for t, s in zip(self.threads, self.openmp) if s]}
        return plots.scaling_plot(series, title=f"{Path(self.source).name}: kernel time",
                                  path=path)

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{r['threads']}</td><td>{_fmt(r['arts_s'])}</td>"
            f"<td>{_fmt(r['openmp_s'])}</td><td>{_fmt(r['omp_over_arts'], '.2f')}</td></tr>"
            for r in self.records())
        return ("<table><tr><th>threads</th><th>ours (s)</th><th>OpenMP (s)</th>"
                f"<th>OpenMP / ours</th></tr>{rows}</table>")


def _fmt(value, spec: str = ".6f") -> str:
    return "-" if value is None else format(value, spec)


def scaling(path: str, *, threads=(1, 2), defines=(), includes=(), repeat: int = 3,
            openmp: bool = True) -> Scaling:
    """Kernel time over thread counts, for our build and (``openmp``) the ``-fopenmp`` one.
    Our build is compiled for each thread count (the chunking is decided at compile time);
    each program must print ``kernel.<name>:`` timers (``carts_bench.h``)."""
    result = Scaling(path, list(threads), [], [], {"arts": [], "openmp": []})
    with tempfile.TemporaryDirectory(prefix="carts-scaling-") as tmp:
        omp_exe = Path(tmp) / "omp"
        if openmp:
            runs.build_openmp(path, omp_exe, defines=defines, includes=includes)
        for t in threads:
            exe = Path(tmp) / f"arts_t{t}"
            runs.build_arts(path, exe, defines=defines, includes=includes, threads=t)
            sides = [("arts", exe)] + ([("openmp", omp_exe)] if openmp else [])
            for side, program in sides:
                results = [runs.run_executable(program, threads=t).check() for _ in range(repeat)]
                times = [r.kernel_seconds for r in results]
                if any(x is None for x in times):
                    raise CartsError(f"{path}: the program prints no kernel.<name>: timer")
                getattr(result, side).append(min(times))
                result.checksums[side].append(results[0].checksum)
        if not openmp:
            result.openmp = [None] * len(result.threads)
    return result


def scaling_main(argv: list[str]) -> int:
    """``carts analyze scaling FILE.c [-D..] [-I..] --threads 1,2,4 [--runs K] [--no-openmp]
    [--json F] [--plot F.png]``: :func:`scaling` from the command line, as a table."""
    import json



    p = ArgumentParser(prog="carts analyze scaling",
               description="kernel time over thread counts, ours against gcc -fopenmp")
    p.add_argument("source", help="a C file printing carts_bench.h kernel timers")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]")
    p.add_argument("-I", dest="includes", action="append", default=[], metavar="DIR")
    p.add_argument("--threads", default="1,2", help="comma-separated thread counts (default 1,2)")
    p.add_argument("--runs", type=int, default=3, help="runs per point; the best counts")
    p.add_argument("--no-openmp", action="store_true", help="only our build")
    p.add_argument("--json", metavar="FILE", help="write the points as JSON")
    p.add_argument("--plot", metavar="FILE.png", help="draw seconds against threads")
    a = p.parse_args(argv)
    try:
        threads = [int(t) for t in a.threads.split(",") if t.strip()]
    except ValueError:
        threads = []
    if not threads or min(threads) < 1:
        raise CartsError(f"--threads needs positive integers, got '{a.threads}'")
    if a.runs < 1:
        raise CartsError(f"--runs needs a positive integer, got {a.runs}")
    if not Path(a.source).is_file():
        raise CartsError("no such file", location=a.source)
    if a.plot:
        plots.check_plot_path(Path(a.plot))
    result = scaling(a.source, threads=threads, defines=a.defines, includes=a.includes,
                     repeat=a.runs, openmp=not a.no_openmp)
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{Path(a.source).name}: kernel seconds (best of {a.runs})")
    for column in ("threads", "ours (s)", "OpenMP (s)", "OpenMP / ours"):
        table.add_column(column, justify="right")
    for r in result.records():
        table.add_row(str(r["threads"]), _fmt(r["arts_s"]), _fmt(r["openmp_s"]),
                      _fmt(r["omp_over_arts"], ".2f"))
    Console(highlight=False).print(table)
    if a.json:
        write_atomically(a.json, json.dumps({"source": a.source, "points": result.records(),
                                             "checksums": result.checksums}, indent=2) + "\n")
    if a.plot:
        result.plot(a.plot)
    return 0
