"""Exploring a compilation from Python or a notebook: every stage's module, in order.

    >>> from carts_mlir import explore
    >>> c = explore.compile("examples/ml-kernels/batchnorm/batchnorm.c",
    ...                     defines=["MINI_DATASET"], includes=["examples/include"], threads=4)
    >>> c.stages[0].name, c["create-dbs"].seconds
    >>> c.diff("openmp-to-arts", "create-dbs")      # a unified diff; HTML in a notebook
    >>> c                                           # every stage, unchanged ones collapsed

A C source string is accepted too (``explore.compile_source("int main(void) {...}")``).
Each stage shows itself in a notebook (``_repr_html_``): its name, the time it took, its
size, and its IR with source locations.
"""

from __future__ import annotations

import difflib
import html
import os
import tempfile
from dataclasses import dataclass, field

from . import ir
from .execute import arts_stages

FRONT_END = "front-end"


@dataclass
class Stage:
    """One stage's output: ``name`` (a pipeline stage, or ``front-end`` for the OpenMP
    compile it starts from), the module's text (with locations), and the seconds the
    stage took."""

    name: str
    text: str
    seconds: float

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


def compile(path: str, *, defines=(), includes=(), threads: int | None = None,
            nodes: int | None = None) -> Compilation:
    """Compile the C file ``path`` through every stage, keeping each stage's module."""
    stages = []
    with ir.context():
        for st, module, seconds in arts_stages(path, defines=defines, includes=includes,
                                               threads=threads, nodes=nodes):
            stages.append(Stage(st.name if st else FRONT_END,
                                ir.to_text(module, debug_info=True), seconds))
    return Compilation(path, stages)


def compile_source(code: str, *, name: str = "input.c", **kwargs) -> Compilation:
    """:func:`compile` for C source text (written to a temporary file named ``name``)."""
    with tempfile.TemporaryDirectory(prefix="carts-explore-") as tmp:
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(code)
        compilation = compile(path, **kwargs)
    compilation.source = name
    return compilation
