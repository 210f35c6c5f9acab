"""The task/datablock graph of a module: what a stage has decided, as data, DOT and SVG.

Read from the IR alone (nothing is remembered from the passes), so any stage's output, or a
hand-edited ``.mlir`` file, can be drawn:

- a **datablock** is an ``arts.db_alloc``: its partition, block count and block shape, the
  route (owner node) of its blocks, and its size in bytes when the shape is constant;
- a **task** is an ``arts.edt`` (one launch site: a chunk loop that launches one task per
  chunk is one node with ``chunks`` > 1), with its kind, its route and its accesses;
- an **access** is a dependency of a task traced back through ``arts.db_acquire`` (and the
  acquires of enclosing tasks) to its datablock, with the acquire's mode, its partition, and
  whether the task body loads from it and stores to it;
- an **epoch** is an ``arts.epoch``: the tasks launched inside it form a cluster, and
  ``repeats`` counts how often a host loop around it runs it.

:func:`from_module` builds the graph; :meth:`TaskGraph.to_dot` writes Graphviz DOT and
:meth:`TaskGraph.to_svg` draws it: Graphviz lays the DOT text out when its ``dot`` program is
installed; without it, a drawing of our own (epochs as boxes in program order, datablocks in
a column on the left, one arrow per access coloured by its mode) keeps notebooks and
``carts run --graph x.svg`` working with nothing but Python.
"""

from __future__ import annotations

import html
import math
import shutil
import subprocess
from dataclasses import dataclass, field

import mlir.ir as mir

from .errors import CartsError
from .ir import location_string

MODE_COLORS = {"in": "#1f77b4", "out": "#d62728", "inout": "#9467bd", "concurrent": "#ff7f0e"}
ELEMENT_BYTES = {"f64": 8, "f32": 4, "f16": 2, "bf16": 2, "i64": 8, "i32": 4, "i16": 2,
                 "i8": 1, "i1": 1, "index": 8}


@dataclass
class Datablock:
    id: str
    location: str
    line: int | None
    mode: str
    partition: str
    blocks: list[int | None]
    block_shape: list[int | None]
    element: str
    route: str
    distributed: bool

    @property
    def bytes(self) -> int | None:
        """The whole table's payload in bytes (None when a size is only known at run time)."""
        dims = [*self.blocks, *self.block_shape]
        if any(d is None for d in dims) or self.element not in ELEMENT_BYTES:
            return None
        return math.prod(dims) * ELEMENT_BYTES[self.element]

    @property
    def label(self) -> str:
        shape = "x".join("?" if d is None else str(d) for d in self.block_shape) or "scalar"
        count = "x".join("?" if d is None else str(d) for d in self.blocks)
        return f"{self.id} {self.partition} {count} x [{shape}x{self.element}]"


@dataclass
class Access:
    datablock: str
    mode: str
    partition: str | None
    full_range: bool
    reads: bool
    writes: bool


@dataclass
class Task:
    id: str
    location: str
    line: int | None
    kind: str
    concurrency: str
    route: str
    epoch: str | None
    parent: str | None
    chunks: int | None
    """Trips of the loop that launches one task per chunk (1 for a single launch)."""
    repeats: int | None
    """How often that launch runs: the trips of the other host loops around it, inside its
    epoch (an epoch that a loop runs several times says so in ``Epoch.repeats``)."""
    accesses: list[Access] = field(default_factory=list)
    host_position: int | None = None
    """Index of the top-level op of its function that holds this launch (program order)."""
    function: str = ""

    @property
    def launches(self) -> int | None:
        return None if self.chunks is None or self.repeats is None else self.chunks * self.repeats


@dataclass
class Call:
    """A call at the top level of a function (a timer read, a kernel), for program order."""

    callee: str
    function: str
    position: int
    line: int | None


@dataclass
class Epoch:
    id: str
    location: str
    line: int | None
    repeats: int | None
    host_position: int | None
    function: str = ""


@dataclass
class TaskGraph:
    datablocks: list[Datablock] = field(default_factory=list)
    tasks: list[Task] = field(default_factory=list)
    epochs: list[Epoch] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)

    def datablock(self, id_: str) -> Datablock:
        return next(d for d in self.datablocks if d.id == id_)

    def epoch(self, id_: str | None) -> Epoch | None:
        return next((e for e in self.epochs if e.id == id_), None)

    def task_bytes(self, task: Task) -> int | None:
        """The bytes one run of a launch site must move: each datablock it reads is read
        once and each it writes is written once over all its chunks (a chunk loop covers
        the table between them; halo rows read twice are not counted again), times how
        often the launch runs. None when a size or a trip count is known only at run time."""
        epoch = self.epoch(task.epoch)
        repeats = [task.repeats, epoch.repeats if epoch else 1]
        total = 0
        for a in task.accesses:
            size = self.datablock(a.datablock).bytes
            if size is None or None in repeats:
                return None
            total += size * (int(a.reads) + int(a.writes))
        return total * math.prod(repeats)

    def bytes_between(self, function: str, start: int, stop: int) -> int | None:
        """:meth:`task_bytes` of every top-level launch of ``function`` between two host
        positions (exclusive), e.g. between the timer reads around a kernel."""
        sites = [t for t in self.tasks if t.function == function and t.parent is None
                 and t.host_position is not None and start < t.host_position < stop]
        sizes = [self.task_bytes(t) for t in sites]
        return None if None in sizes else sum(sizes)

    def to_dot(self) -> str:
        """Graphviz DOT: epochs as clusters, datablocks as boxes, accesses as coloured edges
        (``in``: datablock to task, ``out`` and ``concurrent``: task to datablock, ``inout``:
        both ways)."""
        lines = ["digraph arts {", "  rankdir=LR;", '  node [fontname="monospace", fontsize=10];']
        for d in self.datablocks:
            lines.append(f'  {d.id} [shape=box, style=filled, fillcolor="#eeeeee", '
                         f'label="{_dot(d.label)}\\nroute {_dot(d.route)}'
                         f'{" distributed" if d.distributed else ""}\\n{_dot(d.location)}"];')
        by_epoch: dict[str | None, list[Task]] = {}
        for t in self.tasks:
            by_epoch.setdefault(t.epoch, []).append(t)
        for e in self.epochs:
            repeats = "" if e.repeats == 1 else f" x{e.repeats if e.repeats else '?'}"
            lines.append(f"  subgraph cluster_{e.id} {{")
            lines.append(f'    label="{e.id}{repeats} {_dot(e.location)}"; style=rounded;')
            lines += [f"    {_dot_task(t)}" for t in by_epoch.get(e.id, [])]
            lines.append("  }")
        lines += [f"  {_dot_task(t)}" for t in by_epoch.get(None, [])]
        for t in self.tasks:
            for a in t.accesses:
                color = MODE_COLORS.get(a.mode, "black")
                attrs = f'color="{color}", label="{a.mode}"'
                if a.mode == "in":
                    lines.append(f"  {a.datablock} -> {t.id} [{attrs}];")
                elif a.mode == "inout":
                    lines.append(f"  {t.id} -> {a.datablock} [{attrs}, dir=both];")
                else:
                    lines.append(f"  {t.id} -> {a.datablock} [{attrs}];")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def to_svg(self, layout: str = "auto") -> str:
        """The graph drawn as SVG. ``layout="dot"``: Graphviz lays out :meth:`to_dot` (its
        ``dot`` program must be installed; ``scripts/bootstrap.sh`` installs it where it
        can). ``"builtin"``: a drawing of our own that needs nothing: datablocks in a column,
        then the epochs in program order. ``"auto"``: Graphviz when ``dot`` is on the PATH."""
        if layout not in ("auto", "dot", "builtin"):
            raise ValueError(f"layout must be auto, dot or builtin, not {layout!r}")
        dot = shutil.which("dot")
        if layout == "builtin" or (layout == "auto" and dot is None):
            return _render_svg(self)
        if dot is None:
            raise CartsError("drawing with Graphviz needs its `dot` program on the PATH")
        done = subprocess.run([dot, "-Tsvg"], input=self.to_dot(), capture_output=True,
                              text=True)
        if done.returncode != 0:
            raise CartsError(f"Graphviz's dot failed: {done.stderr.strip()[-300:]}")
        return done.stdout

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def table(self):
        """:meth:`records` as a DataFrame (pandas installed) or as the list itself."""
        from .tables import as_table

        return as_table(self.records())

    def records(self) -> list[dict]:
        """One row per access (task, datablock, mode, ...), for a table."""
        rows = []
        for t in self.tasks:
            for a in t.accesses:
                d = self.datablock(a.datablock)
                rows.append({"epoch": t.epoch, "task": t.id, "task_location": t.location,
                             "launches": t.launches, "route": t.route,
                             "datablock": d.id, "datablock_location": d.location,
                             "partition": a.partition or d.partition, "mode": a.mode,
                             "full_range": a.full_range, "reads": a.reads, "writes": a.writes,
                             "bytes": d.bytes})
        return rows


def _dot(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _dot_task(t: Task) -> str:
    times = "" if t.launches == 1 else f" x{t.launches if t.launches else '?'}"
    return (f'{t.id} [shape=ellipse, label="{t.id} {t.kind}{times}\\nroute {_dot(t.route)}'
            f'\\n{_dot(t.location)}"];')


# --------------------------------------------------------------------------- reading the IR


def _attr(op, name: str) -> str | None:
    """The value inside an enum attribute's angle brackets (``#arts.mode<in>`` -> ``in``)."""
    if name not in op.attributes:
        return None
    text = str(op.attributes[name])
    return text[text.index("<") + 1 : text.rindex(">")] if "<" in text else text


def _constant(value) -> int | None:
    owner = value.owner
    if isinstance(owner, mir.Block) or not hasattr(owner, "name"):
        return None
    op = owner.operation if hasattr(owner, "operation") else owner
    if op.name != "arith.constant":
        return None
    attr = op.attributes["value"]
    return attr.value if isinstance(attr, mir.IntegerAttr) else None


def _route(value) -> str:
    c = _constant(value)
    return str(c) if c is not None else "computed"


def _trip_count(for_op) -> int | None:
    lb, ub, step = (_constant(v) for v in list(for_op.operands)[:3])
    if None in (lb, ub, step) or step <= 0:
        return None
    return max(0, -(-(ub - lb) // step))


def _times(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a * b


def _element(memref_type: str) -> str:
    """``memref<?xmemref<2x4x64xf32>>`` -> ``f32``."""
    inner = memref_type.rsplit("memref<", 1)[-1].split(">")[0]
    return inner.split("x")[-1].split(",")[0].strip()


def _loc(op) -> tuple[str, int | None]:
    return location_string(op.location)


def _op(x):
    return x.operation if hasattr(x, "operation") else x


class _Reader:
    def __init__(self):
        self.graph = TaskGraph()
        self.db_ids: dict = {}  # db_alloc op -> id

    def datablock_of(self, value, task_args: dict) -> tuple[str | None, object | None]:
        """The datablock id a dependency value comes from, and the acquire that made it."""
        acquire = None
        for _ in range(32):
            owner = value.owner
            if isinstance(owner, mir.Block):
                key = (owner, mir.BlockArgument(value).arg_number)
                if key not in task_args:
                    return None, acquire
                value = task_args[key]
                continue
            op = _op(owner)
            if op.name == "arts.db_alloc":
                return self.db_ids.get(op), acquire
            if op.name == "arts.db_acquire":
                acquire = acquire or op
                value = op.operands[1]
                continue
            return None, acquire
        return None, acquire

    def usage(self, block_arg) -> tuple[bool, bool]:
        """Whether a task body loads from / stores to the payloads of one dependency."""
        reads = writes = False
        views = [block_arg]
        seen = 0
        while views and seen < 10000:
            v = views.pop()
            seen += 1
            for use in v.uses:
                user = _op(use.owner)
                name = user.name
                if name in ("arts.db_ref", "memref.subview", "memref.cast",
                            "memref.reinterpret_cast", "memref.collapse_shape",
                            "memref.expand_shape"):
                    views += list(user.results)
                elif name in ("memref.load", "affine.load", "vector.load", "vector.transfer_read"):
                    reads = True
                elif name in ("memref.store", "affine.store", "vector.store",
                              "vector.transfer_write"):
                    writes = True
                elif name in ("memref.atomic_rmw", "memref.generic_atomic_rmw", "arts.atomic_add"):
                    reads = writes = True
                elif name in ("arts.db_release", "memref.dim", "arts.db_acquire"):
                    pass
                else:  # handed on (a nested task, a call): assume both
                    reads = writes = True
        return reads, writes

    def walk(self, op, *, function: str, position: int | None, epoch: str | None,
             parent: str | None, chunks: int | None, repeats: int | None,
             task_args: dict) -> None:
        for region in op.regions:
            for block in region.blocks:
                for index, child in enumerate(block.operations):
                    child = _op(child)
                    if position is None and child.name == "func.call" and function:
                        callee = str(child.attributes["callee"]).lstrip("@")
                        self.graph.calls.append(Call(callee, function, index, _loc(child)[1]))
                    pos = index if position is None else position
                    self.visit(child, function=function, position=pos, epoch=epoch,
                               parent=parent, chunks=chunks, repeats=repeats,
                               task_args=task_args)

    def visit(self, op, *, function, position, epoch, parent, chunks, repeats, task_args):
        name = op.name
        g = self.graph
        if name == "func.func":
            fname = str(op.attributes["sym_name"]).strip('"')
            self.walk(op, function=fname, position=None, epoch=None, parent=None,
                      chunks=1, repeats=1, task_args={})
            return
        if name == "arts.db_alloc":
            id_ = f"db{len(g.datablocks)}"
            self.db_ids[op] = id_
            where, line = _loc(op)
            # operands: route, sizes..., elementSizes..., address?
            _, n_sizes, n_elems, _ = _segments(op)
            ops = list(op.operands)
            g.datablocks.append(Datablock(
                id_, where, line, _attr(op, "mode") or "?", _attr(op, "partition") or "?",
                [_constant(v) for v in ops[1:1 + n_sizes]],
                [_constant(v) for v in ops[1 + n_sizes:1 + n_sizes + n_elems]],
                _element(str(op.results[1].type)), _route(ops[0]),
                "distributed" in op.attributes))
            return
        if name == "arts.epoch":
            id_ = f"e{len(g.epochs)}"
            where, line = _loc(op)
            g.epochs.append(Epoch(id_, where, line, _times(repeats, chunks), position, function))
            self.walk(op, function=function, position=position, epoch=id_, parent=parent,
                      chunks=1, repeats=1, task_args=task_args)
            return
        if name == "scf.for":
            trips = _trip_count(op)
            launch_loop = "arts.launch_loop" in op.attributes  # for-lowering's chunks
            outer = _times(repeats, chunks)  # whatever ran so far now runs once per trip
            self.walk(op, function=function, position=position, epoch=epoch, parent=parent,
                      chunks=trips if launch_loop else 1,
                      repeats=outer if launch_loop else _times(outer, trips),
                      task_args=task_args)
            return
        if name == "arts.edt":
            id_ = f"t{len(g.tasks)}"
            where, line = _loc(op)
            operands = list(op.operands)
            route_value, deps = operands[0], operands[1:]
            task = Task(id_, where, line, _attr(op, "edt_type") or "?",
                        _attr(op, "concurrency") or "?", _route(route_value), epoch, parent,
                        chunks, repeats, host_position=position, function=function)
            g.tasks.append(task)
            body = op.regions[0].blocks[0]
            args = dict(task_args)
            for k, dep in enumerate(deps):
                args[(body, k)] = dep
            for k, dep in enumerate(deps):
                db, acquire = self.datablock_of(dep, task_args)
                if db is None:
                    continue
                mode = _attr(acquire, "mode") if acquire is not None else "?"
                partition = _attr(acquire, "partition") if acquire is not None else None
                full = acquire is not None and "full_range" in acquire.attributes
                if k < len(body.arguments):
                    reads, writes = self.usage(body.arguments[k])
                else:
                    reads, writes = mode != "out", mode != "in"
                task.accesses.append(Access(db, mode, partition, full, reads, writes))
            self.walk(op, function=function, position=position, epoch=epoch, parent=id_,
                      chunks=1, repeats=1, task_args=args)
            return
        self.walk(op, function=function, position=position, epoch=epoch, parent=parent,
                  chunks=chunks, repeats=repeats, task_args=task_args)


def _segments(op) -> list[int]:
    return [int(x) for x in str(op.attributes["operandSegmentSizes"]).split(":")[1]
            .rstrip(">").split(",")]


def from_module(module) -> TaskGraph:
    """The graph of a parsed module (an ``mlir.ir`` Operation or Module)."""
    reader = _Reader()
    reader.walk(_op(module), function="", position=None, epoch=None, parent=None,
                chunks=1, repeats=1, task_args={})
    return reader.graph


def from_text(text: str) -> TaskGraph:
    """The graph of MLIR text (parsed in a fresh context)."""
    from . import ir

    with ir.context():
        return from_module(ir.parse(text))


# --------------------------------------------------------------------------- SVG


_BOX_H = 40
_DB_W = 300
_TASK_W = 330
_GAP = 14


def _text(x: float, y: float, text: str, *, size: int = 11, weight: str = "normal",
          color: str = "#222") -> str:
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-family="monospace" font-size="{size}" '
            f'font-weight="{weight}" fill="{color}">{html.escape(text)}</text>')


def _short(location: str) -> str:
    """``dir/file.c:12:3`` -> ``file.c:12``: enough to find the line, short enough to read."""
    parts = location.rsplit("/", 1)[-1].split(":")
    return ":".join(parts[:2])


def _render_svg(g: TaskGraph) -> str:
    """A left-to-right drawing: datablocks in one column, then each epoch as a box of its
    tasks in program order, an arrow per access in the colour of its mode."""
    parts: list[str] = []
    db_pos: dict[str, tuple[float, float]] = {}
    task_pos: dict[str, tuple[float, float]] = {}
    y = 50.0
    for d in g.datablocks:
        parts.append(f'<rect x="10" y="{y:.0f}" width="{_DB_W}" height="{_BOX_H}" rx="3" '
                     f'fill="#eeeeee" stroke="#666"/>')
        parts.append(_text(16, y + 16, d.label, size=11, weight="bold"))
        owner = f"owner route {d.route}{' (distributed)' if d.distributed else ''}"
        parts.append(_text(16, y + 32, f"{_short(d.location)}  {owner}", size=10, color="#555"))
        db_pos[d.id] = (10 + _DB_W, y + _BOX_H / 2)
        y += _BOX_H + _GAP
    height = y
    x0 = 10 + _DB_W + 160
    y = 50.0
    groups = [(e, [t for t in g.tasks if t.epoch == e.id]) for e in g.epochs]
    loose = [t for t in g.tasks if t.epoch is None]
    if loose:
        groups.append((None, loose))
    width = x0 + _TASK_W + 30
    for epoch, tasks in groups:
        rows = max(1, len(tasks))
        box_h = 26 + rows * (_BOX_H + _GAP)
        if epoch is not None:
            repeats = "" if epoch.repeats == 1 else f" (runs x{epoch.repeats or '?'})"
            title = f"epoch {epoch.id} {_short(epoch.location)}{repeats}"
            parts.append(f'<rect x="{x0 - 10}" y="{y:.0f}" width="{width - x0}" height="{box_h}" '
                         f'rx="8" fill="none" stroke="#888" stroke-dasharray="4 3"/>')
        else:
            title = "outside any epoch"
        parts.append(_text(x0, y + 16, title, size=11, weight="bold", color="#444"))
        for k, t in enumerate(tasks):
            tx, ty = x0, y + 24 + k * (_BOX_H + _GAP)
            parts.append(f'<rect x="{tx:.0f}" y="{ty:.0f}" width="{_TASK_W}" height="{_BOX_H}" '
                         f'rx="{_BOX_H / 2:.0f}" fill="#fff8e1" stroke="#b08900"/>')
            times = "" if t.launches == 1 else f" x{t.launches or '?'}"
            parts.append(_text(tx + 12, ty + 16, f"{t.id} {t.kind}{times} route {t.route}",
                               size=11, weight="bold"))
            parts.append(_text(tx + 12, ty + 32, _short(t.location), size=10, color="#555"))
            task_pos[t.id] = (tx, ty + _BOX_H / 2)
        y += box_h + _GAP
    height = max(height, y) + 10
    edges = []
    for t in g.tasks:
        for a in t.accesses:
            if a.datablock not in db_pos or t.id not in task_pos:
                continue
            (x1, y1), (x2, y2) = db_pos[a.datablock], task_pos[t.id]
            color = MODE_COLORS.get(a.mode, "#000")
            mid = (x1 + x2) / 2
            ends = {"in": 'marker-end="url(#arrow-in)"',
                    "inout": 'marker-start="url(#arrow-inout-start)" marker-end="url(#arrow-inout)"'}
            marker = ends.get(a.mode, f'marker-start="url(#arrow-{a.mode}-start)"')
            title = f"{t.id} {a.mode} {a.datablock}" + (" full-range" if a.full_range else "")
            dash = ' stroke-dasharray="5 3"' if a.full_range else ""
            edges.append(f'<path d="M{x1:.0f},{y1:.0f} C{mid:.0f},{y1:.0f} {mid:.0f},{y2:.0f} '
                         f'{x2:.0f},{y2:.0f}" fill="none" stroke="{color}" stroke-width="1.5"'
                         f'{dash} {marker}><title>{html.escape(title)}</title></path>')
    markers = []
    for mode, color in MODE_COLORS.items():
        markers.append(f'<marker id="arrow-{mode}" viewBox="0 0 10 10" refX="10" refY="5" '
                       f'markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L10,5 '
                       f'L0,10 z" fill="{color}"/></marker>')
        markers.append(f'<marker id="arrow-{mode}-start" viewBox="0 0 10 10" refX="0" refY="5" '
                       f'markerWidth="7" markerHeight="7" orient="auto"><path d="M10,0 L0,5 '
                       f'L10,10 z" fill="{color}"/></marker>')
    legend = [_text(10, 20, "task/datablock graph", size=13, weight="bold")]
    lx = 220
    for mode, color in MODE_COLORS.items():
        legend.append(f'<line x1="{lx}" y1="16" x2="{lx + 24}" y2="16" stroke="{color}" '
                      f'stroke-width="2"/>')
        legend.append(_text(lx + 28, 20, mode, size=11))
        lx += 110
    legend.append(_text(lx, 20, "dashed: full-range acquire", size=11, color="#555"))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}"><defs>{"".join(markers)}</defs>'
            f'<rect width="100%" height="100%" fill="white"/>'
            + "".join(legend) + "".join(edges) + "".join(parts) + "</svg>\n")
