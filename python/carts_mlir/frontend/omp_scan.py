"""``reduction(inscan, op: x)`` with ``#pragma omp scan inclusive(x)`` / ``exclusive(x)``
on a ``parallel for``: a prefix reduction in three steps.

    #pragma omp parallel for reduction(inscan, +: x)
    for (i = lb; i < ub; i += s) {
      input phase;                  // updates x
      #pragma omp scan inclusive(x)
      scan phase;                   // reads x: its value after iterations up to i
    }

1. a ``parallel for`` runs the input phase of every iteration k on its own x (the
   operator's identity), and keeps what it became in ``part[k]``;
2. the encountering thread adds the parts up in order, from x's value before the loop:
   ``part[k]`` becomes the total up to k (inclusive) or before k (exclusive), and x the
   total of all;
3. a second ``parallel for`` runs the scan phase of every iteration k with x = ``part[k]``.

With ``exclusive(x)`` the statements before the directive are the scan phase and those
after it the input phase, as OpenMP defines. A variable declared in one phase cannot be
used in the other.
"""

from __future__ import annotations

import dataclasses
from contextlib import ExitStack
from typing import TYPE_CHECKING

import clang.cindex as ci
from mlir import ir
from mlir.dialects import arith, memref, scf

from . import clang_support as cs
from .omp_data_sharing import REDUCTION_OPS
from .pragmas import Pragma
from .reductions import reduction_combine, reduction_identity
from .state import Var
from .typemap import scalar_of

if TYPE_CHECKING:
    from .openmp import OmpEmitter

K = ci.CursorKind


@dataclasses.dataclass
class Phase:
    """What a worksharing loop of a scan runs for each iteration: ``kids`` (statements of
    the loop's body), with ``before(k, stack)`` / ``after(k)`` around them (k: the
    iteration's number from 0)."""

    kids: list
    before: object
    after: object


def is_scan(p: Pragma) -> bool:
    return any(c.name == "reduction" and c.flavor == "inscan" for c in p.clauses)


def scan_loop(owner: "OmpEmitter", p: Pragma, stmt: ci.Cursor) -> None:
    """A ``parallel for`` with inscan reductions (see the module's comment)."""
    fn = owner.fn
    if p.directive != "parallel for":
        raise p.error("unsupported C construct: reduction(inscan, ...) on omp "
                      f"{p.directive} among other work of a region (a 'parallel for' scan, "
                      "or an 'omp for' scan that is the whole region, is supported)")
    if any(c.name == "reduction" and c.flavor != "inscan" for c in p.clauses) or \
            p.clause("lastprivate") or p.clause("collapse"):
        raise p.error("unsupported C construct: a scan loop with other reductions, "
                      "lastprivate or collapse")
    items = []
    for c in p.all("reduction"):
        for name in (n.strip() for n in c.args):
            key, var = owner.clauses.variable(p, name)
            s = scalar_of(var.ctype)
            if var.kind != "mem" or s is None:
                raise p.error(f"unsupported C construct: inscan reduction on '{name}' (a "
                              "scalar variable is supported)")
            items.append((REDUCTION_OPS[c.modifier], name, key, var, s))
    loop = fn.analysis.canonical_loop(stmt) if stmt.kind == K.FOR_STMT else None
    body = loop.body if loop is not None else None
    if body is None or body.kind != K.COMPOUND_STMT:
        raise p.error("a scan loop needs a canonical for loop whose body is a block holding "
                      "'#pragma omp scan'")
    marks = [q for q in fn.module.pragmas.within(body.extent.start.offset, body.extent.end.offset)
             if q.directive == "scan"]
    kids = cs.children(body)
    if len(marks) != 1:
        raise p.error("a scan loop's body needs one '#pragma omp scan inclusive(...)' or "
                      "'exclusive(...)' between its statements")
    scan = marks[0]
    inclusive = scan.clause("inclusive") is not None
    listed = {n.strip() for c in scan.clauses for n in c.args}
    if listed != {name for _, name, _, _, _ in items} or len(scan.clauses) != 1:
        raise scan.error("'#pragma omp scan' must name the loop's inscan reduction variables "
                         "in one inclusive(...) or exclusive(...) clause")
    before = [k for k in kids if k.extent.start.offset < scan.offset]
    after = [k for k in kids if k.extent.start.offset > scan.offset]
    inputs, scans = (before, after) if inclusive else (after, before)
    seek_inputs, seek_scans = (body.extent.start.offset, scan.offset) if inclusive else \
        (scan.offset, body.extent.start.offset)
    plain = dataclasses.replace(p, clauses=[c for c in p.clauses if c.name != "reduction"])
    queue = fn.module.pragmas

    with fn.loc_of_pragma(p):
        (loop, (lb, ub, step, _start)), = owner.worksharing.prepare(plain, stmt)
        trips = arith.CeilDivSIOp(arith.SubIOp(ub, lb).result, step).result
        trips = arith.MaxSIOp(trips, fn.const_index(0)).result
        parts = [memref.AllocOp(ir.MemRefType.get([ir.ShapedType.get_dynamic_size()], s.mlir()),
                                [trips], []).result for _, _, _, _, s in items]

    def number(iv: ir.Value) -> ir.Value:
        return arith.DivSIOp(arith.SubIOp(iv, lb).result, step).result

    # 1. the input phase, each iteration on its own x
    own = {}

    def input_before(iv, stack: ExitStack) -> None:
        for kind, name, key, var, s in items:
            mine = fn.alloca(ir.MemRefType.get([], s.mlir()))
            memref.StoreOp(reduction_identity(kind, s), mine, [])
            own[name] = mine
            stack.enter_context(fn.rebind(key, Var("mem", var.ctype, mine)))

    def input_after(iv) -> None:
        k = number(iv)
        for (_, name, _, _, _), part in zip(items, parts):
            memref.StoreOp(memref.LoadOp(own[name], []).result, part, [k])

    queue.seek(seek_inputs)
    with _phase(owner, Phase(inputs, input_before, input_after)):
        owner.parallel(plain, lambda: None, loop=stmt)

    # 2. the totals, in order, on the encountering thread
    with fn.loc_of_pragma(p):
        for (kind, _, _, var, s), part in zip(items, parts):
            total = fn.alloca(ir.MemRefType.get([], s.mlir()))
            memref.StoreOp(memref.LoadOp(var.value, []).result, total, [])
            steps = scf.ForOp(fn.const_index(0), trips, fn.const_index(1))
            with ir.InsertionPoint(steps.body):
                k = steps.induction_variable
                so_far = memref.LoadOp(total, []).result
                then = reduction_combine(kind, s, so_far, memref.LoadOp(part, [k]).result)
                memref.StoreOp(then, total, [])
                memref.StoreOp(then if inclusive else so_far, part, [k])
                scf.YieldOp([])
            memref.StoreOp(memref.LoadOp(total, []).result, var.value, [])

    # 3. the scan phase, each iteration seeing its prefix
    def scan_before(iv, stack: ExitStack) -> None:
        k = number(iv)
        for (_, _, key, var, s), part in zip(items, parts):
            mine = fn.alloca(ir.MemRefType.get([], s.mlir()))
            memref.StoreOp(memref.LoadOp(part, [k]).result, mine, [])
            stack.enter_context(fn.rebind(key, Var("mem", var.ctype, mine)))

    queue.seek(seek_scans)
    with _phase(owner, Phase(scans, scan_before, lambda iv: None)):
        owner.parallel(plain, lambda: None, loop=stmt)
    with fn.loc_of_pragma(p):
        for part in parts:
            memref.DeallocOp(part)
    queue.seek(stmt.extent.end.offset)


class _phase:
    """The worksharing loops emitted while it lasts run ``phase`` for each iteration, and
    the ``#pragma omp scan`` between its statements is expected."""

    def __init__(self, owner: "OmpEmitter", phase: Phase) -> None:
        self.owner, self.phase = owner, phase

    def __enter__(self):
        self.owner.worksharing.phase = self.phase
        self.owner.in_scan += 1

    def __exit__(self, *exc):
        self.owner.worksharing.phase = None
        self.owner.in_scan -= 1
