"""OpenMP worksharing loops: ``omp for`` (alone or in a combined ``parallel for``).

    #pragma omp for ...               omp.wsloop <schedule, reduction, nowait> {
    for (i = lb; i < ub; i++) body      omp.loop_nest (%i) : index = (lb) to (ub) step (1) {
                                          body; omp.yield } }

The loops a construct binds (``collapse(n)``) must be canonical and rectangular; their
bounds are computed where the construct starts, so a combined ``parallel for`` computes
them before the ``omp.parallel``.  ``taskloop`` binds its loop the same way.
"""

from __future__ import annotations

import dataclasses
import re
from contextlib import ExitStack
from typing import TYPE_CHECKING

import clang.cindex as ci
from mlir import ir
from mlir.dialects import arith, func, memref, scf
from mlir.dialects import openmp as omp

from . import clang_support as cs
from .canonical_loops import CanonicalLoop
from .omp_clauses import ClauseReader
from .omp_data_sharing import DataSharing
from . import omp_reduction_copies as reduction_copies
from .pragmas import Clause, Pragma
from .state import LoopFlags, Var, pushed
from .typemap import scalar_of

if TYPE_CHECKING:
    from .function import FunctionEmitter

K = ci.CursorKind


class WorksharingLoops:
    """Binds the loop nest of a worksharing construct and emits its ``omp.wsloop``."""

    def __init__(self, fn: "FunctionEmitter", clauses: ClauseReader, sharing: DataSharing) -> None:
        self.fn = fn
        self.clauses = clauses
        self.sharing = sharing
        # Per enclosing worksharing loop: whether it has the `ordered` clause.
        self._ordered: list[bool] = []
        #: While a scan loop is emitted: the phase its worksharing loops run (omp_scan).
        self.phase = None
        #: lastprivate(conditional: x) of the loop being emitted: key -> the slot of the
        #: latest iteration that set x (OmpEmitter._conditional_bests).
        self.conditional: dict = {}

    def in_ordered_loop(self) -> bool:
        """Whether an enclosing worksharing loop has the ``ordered`` clause."""
        return any(q for q in self._ordered if q)

    def prepare(self, p: Pragma, stmt: ci.Cursor) -> list[tuple[CanonicalLoop, tuple]]:
        """The loops a worksharing construct binds (``collapse(n)``), with their bounds
        computed at the current insertion point."""
        fn = self.fn
        depth = 1
        ordered = p.clause("ordered")
        if ordered is not None and ordered.args:
            # A doacross loop nest (ordered(n)): the threads share its outermost loop (what
            # collapse adds is only how iterations are dealt out); its sink-to-source parts
            # run in the outer loop's order (StmtEmitter._doacross_part).
            if self.clauses.constant(p, ordered.args[0]) < 1:
                raise p.error("ordered(n) needs a positive constant")
        elif p.clause("collapse"):
            depth = self.clauses.constant(p, p.clause("collapse").args[0])
            if depth < 1:
                raise p.error("collapse needs a positive constant")
        loops: list[CanonicalLoop] = []
        current = stmt
        for level in range(depth):
            if current.kind != K.FOR_STMT:
                raise p.error(f"'#pragma omp {p.directive}' must be followed by a for loop"
                              + (f" nest of depth {depth}" if depth > 1 else ""))
            loop = fn.analysis.canonical_loop(current)
            if loop is None:
                raise cs.unsupported(current, "loop shape under '#pragma omp for' (need "
                                     "'for (i = lb; i < ub; i += step)' with an unchanged i)")
            loops.append(loop)
            if level + 1 < depth:
                body = loop.body
                if body.kind == K.COMPOUND_STMT:
                    kids = cs.children(body)
                    if len(kids) != 1:
                        raise cs.unsupported(body, "collapse of a loop nest that is not perfectly nested")
                    body = kids[0]
                current = body
        # A loop whose bounds use an outer loop's variable (`for (j = i; ...)`, a triangle)
        # and the loops inside it run whole in each iteration of the loops around it, which
        # the threads share: every iteration runs once, in the nest's order within a thread.
        outer_keys = set()
        for level, loop in enumerate(loops):
            if any(fn.analysis.references(loop.init, key) or fn.analysis.references(loop.bound, key)
                   for key in outer_keys):
                loops = loops[:level]
                break
            outer_keys.add(loop.var_key)
        return [(loop, fn.stmt.loop_bounds(loop)) for loop in loops]

    def _conditional_stamps(self, last) -> list:
        """For each lastprivate(conditional) variable, (its thread's copy, a slot of the
        latest iteration this thread set it in (-1), its target outside, the team's slot)."""
        fn = self.fn
        out = []
        for key, target in last or []:
            best = self.conditional.get(key)
            if best is None:
                continue
            stamp = fn.alloca(ir.MemRefType.get([], fn.types.i(64)))
            memref.StoreOp(fn.const_int(-1, fn.types.i(64)), stamp, [])
            out.append((fn.vars[key].value, stamp, target, best))
        return out

    def _keep_latest(self, conditional) -> None:
        """After the loop, each thread in turn: if the latest iteration it set x in comes
        after the team's latest so far, x gets its copy's value."""
        critical = omp.CriticalOp()
        with ir.InsertionPoint(critical.region.blocks.append()):
            for copy, stamp, target, best in conditional:
                mine = memref.LoadOp(stamp, []).result
                later = arith.CmpIOp(arith.CmpIPredicate.sgt, mine,
                                     memref.LoadOp(best, []).result).result
                branch = scf.IfOp(later)
                with ir.InsertionPoint(branch.then_block):
                    memref.StoreOp(mine, best, [])
                    memref.StoreOp(memref.LoadOp(copy, []).result, target.value, [])
                    scf.YieldOp([])
            omp.TerminatorOp()

    def _linear(self, p: Pragma, loops, stack: ExitStack) -> list:
        """``linear(x[: step])``: x is private in the loop and starts iteration k (in
        sequential order) at its value before the loop plus k * step; the copy of the
        sequentially last iteration is stored back (as lastprivate's is). Returns (key, the
        variable outside, scalar, value before the loop, step) for each, its private copy
        bound for the rest of the construct."""
        fn = self.fn
        out = []
        for clause in p.all("linear"):
            names, colon, step_text = ",".join(clause.args).rpartition(":")
            if not colon:
                names, step_text = step_text, "1"
            step_text = re.sub(r"^\s*step\s*\((.*)\)\s*$", r"\1", step_text)
            if len(loops) != 1 or re.search(r"\b(val|ref|uval)\b", names + step_text):
                raise p.error("unsupported C construct: linear on a collapsed loop nest or with a "
                              "modifier (a linear integer variable of one loop is supported)")
            for name in (n.strip() for n in names.split(",")):
                key, var = self.clauses.variable(p, name)
                sc = scalar_of(var.ctype)
                if var.kind != "mem" or var.is_array or sc is None or sc.is_float or \
                        ir.MemRefType(var.value.type).rank:
                    raise p.error(f"unsupported C construct: linear variable '{name}' (an integer "
                                  "variable is supported)")
                start = memref.LoadOp(var.value, []).result
                step = self.clauses.value(p, step_text, sc.mlir())
                mine = fn.alloca(var.value.type)
                stack.enter_context(fn.rebind(key, Var("mem", var.ctype, mine)))
                out.append((key, var, sc, start, step))
        return out

    def _start_linear(self, linear, bounds, iv: ir.Value) -> None:
        """At the top of an iteration: each linear variable's copy set for its number."""
        fn = self.fn
        lb, _ub, step, _start = bounds
        number = arith.DivSIOp(arith.SubIOp(iv, lb).result, step).result
        for key, _outer, sc, start, by in linear:
            k = fn.from_index(number, sc)
            value = arith.AddIOp(start, arith.MulIOp(k, by).result).result
            memref.StoreOp(value, fn.vars[key].value, [])

    def _by_thread(self, p: Pragma, stmt: ci.Cursor, loops) -> bool:
        """``schedule(static, c)`` on a loop whose body asks its thread number: OpenMP deals
        chunk k to thread k mod T, so each thread runs its own chunks in order, as plain
        code of the region (each thread's part then runs as the thread its number names):
        ``for (s = lb + t*c*step; s < ub; s += T*c*step) for (i = s; i < min(s + c*step,
        ub); i += step) body``, then the barrier unless ``nowait``. Returns False (the loop
        becomes an ``omp.wsloop``) for other loops, with clauses beyond private and
        firstprivate, collapsed or outside a team."""
        fn = self.fn
        schedule = p.clause("schedule")
        owner = fn.omp
        if schedule is None or schedule.modifier != "static" or not schedule.args or \
                len(loops) != 1 or not owner.teams or owner.serial or owner.nested or \
                self.phase is not None or any(c.name not in (
                    "schedule", "private", "firstprivate", "shared", "nowait", "default",
                    "num_threads", "if", "proc_bind", "order") for c in p.clauses):
            return False
        (loop, (lb, ub, step, start)), = loops
        if not any(c.kind == K.CALL_EXPR and c.spelling == "omp_get_thread_num"
                   for c in cs.walk(loop.body)):
            return False
        with ExitStack() as stack:
            with fn.loc_of_pragma(p):
                if p.directive == "for":
                    self.sharing.privatize(p, stack)
                index = ir.IndexType.get()
                chunk = self.clauses.value(p, schedule.args[0], index)
                chunk = arith.MaxSIOp(chunk, fn.const_index(1)).result
                span = arith.MulIOp(chunk, step).result
                fn.module.declare_function("omp_get_num_threads", [], [fn.types.i(32)], None)
                team = func.CallOp([fn.types.i(32)], ir.FlatSymbolRefAttr.get("omp_get_num_threads"),
                                   []).result
                me = arith.IndexCastOp(index, fn.thread_number()).result
                first = arith.AddIOp(lb, arith.MulIOp(me, span).result).result
                stride = arith.MulIOp(arith.IndexCastOp(index, team).result, span).result
                chunks = scf.ForOp(first, ub, stride)
            with ir.InsertionPoint(chunks.body):
                with fn.loc_of_pragma(p):
                    end = arith.MinSIOp(arith.AddIOp(chunks.induction_variable, span).result,
                                        ub).result
                with pushed(self._ordered, False):
                    fn.stmt.scf_for(loop, (chunks.induction_variable, end, step, start))
                scf.YieldOp([])
        if p.clause("nowait") is None:
            with fn.loc_of_pragma(p):
                omp.BarrierOp()
        return True

    def emit(self, p: Pragma, stmt: ci.Cursor, loops, last=None) -> None:
        """The ``omp.wsloop`` of ``p`` over ``loops`` (from ``prepare``). A combined
        ``parallel for`` passes its ``lastprivate`` targets as ``last``; an ``omp for``
        privatises and finds them itself. Reductions the dialect's clause cannot take
        (``omp_reduction_copies``) are each thread's own copies around the loop, combined
        after it, before its barrier."""
        fn = self.fn
        if self._by_thread(p, stmt, loops):
            return
        own, rest = reduction_copies.split(fn, self.clauses, p)
        if own:
            waits = p.clause("nowait") is None and p.directive == "for"
            if p.clause("nowait") is None:
                rest = dataclasses.replace(rest, clauses=rest.clauses + [Clause("nowait")])
            with ExitStack() as stack:
                with fn.loc_of_pragma(p):
                    copies = reduction_copies.make(fn, self.clauses, p, own, stack)
                self.emit(rest, stmt, loops, last)
            with fn.loc_of_pragma(p):
                reduction_copies.combine(copies)
                if waits:
                    omp.BarrierOp()
            return
        with ExitStack() as stack:
            with fn.loc_of_pragma(p):
                if p.directive == "for":
                    last = self.sharing.lastprivate_targets(p)
                    self.sharing.privatize(p, stack)
                reductions = self.sharing.reductions(p)
                linear = self._linear(p, loops, stack)
                if linear:
                    last = list(last or []) + [(key, outer) for key, outer, _s, _x, _st in linear]
                schedule = p.clause("schedule")
                attrs = self.sharing.reduction_attrs(reductions)
                if schedule is not None:
                    attrs["schedule_kind"] = ir.Attribute.parse(f"#omp<schedulekind {schedule.modifier}>")
                    if schedule.args:
                        attrs["schedule_chunk"] = self.clauses.value(p, schedule.args[0], ir.IndexType.get())
                if p.clause("nowait"):
                    attrs["nowait"] = ir.UnitAttr.get()
                if p.clause("ordered"):
                    attrs["ordered"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 0)
                conditional = self._conditional_stamps(last)
                if conditional:
                    last = [(k, v) for k, v in last if k not in self.conditional]
                ws = omp.WsloopOp([], [], [], [], [], [r[1] for r in reductions], **attrs)
                ws_block = ws.region.blocks.append(*[r[1].type for r in reductions])
            for (key, _, ctype, _sym), arg in zip(reductions, ws_block.arguments):
                stack.enter_context(fn.rebind(key, Var("mem", ctype, arg)))
            with ir.InsertionPoint(ws_block), fn.loc(stmt):
                nest = omp.LoopNestOp([b[0] for _, b in loops], [b[1] for _, b in loops],
                                      [b[2] for _, b in loops])
                body_block = nest.region.blocks.append(*[ir.IndexType.get()] * len(loops))
            innermost = loops[-1][0]
            with ir.InsertionPoint(body_block), fn.loc(innermost.body):
                flags = LoopFlags(omp=True, end=loops[0][0].cursor.extent.end.offset)
                if fn.analysis.needs_continue_flag(innermost.cursor, innermost.body):
                    flags.cont = fn.new_flag()
                for (loop, bounds), iv in zip(loops, body_block.arguments):
                    var = fn.stmt.bind_induction(loop, iv, bounds[3], innermost.body)
                    stack.enter_context(fn.rebind(loop.var_key, var))
                    if loop.declared_in_init:
                        fn.scopes[-1].names[loop.var.spelling] = loop.var_key
                if linear:
                    with fn.loc_of_pragma(p):
                        self._start_linear(linear, loops[0][1], body_block.arguments[0])
                lb, step = loops[-1][1][0], loops[-1][1][2]
                number = arith.DivSIOp(arith.SubIOp(body_block.arguments[0], lb).result, step).result \
                    if conditional else None
                with pushed(fn.loops, flags), fn.omp_region(), \
                        pushed(self._ordered, p.clause("ordered") is not None), \
                        pushed(fn.store_stamps, [(copy, stamp, number) for copy, stamp, _t, _b
                                                 in conditional]):
                    if self.phase is None:
                        fn.stmt.body(innermost.body)
                    else:  # one phase of a scan: some of the body's statements
                        with fn.name_scope(), ExitStack() as own:
                            self.phase.before(body_block.arguments[0], own)
                            fn.stmt.sequence(self.phase.kids)
                            self.phase.after(body_block.arguments[0])
                if last:
                    with fn.loc_of_pragma(p):
                        self.sharing.copy_out_last(loops, body_block.arguments, last)
                omp.YieldOp([])
            if conditional:
                with fn.loc_of_pragma(p):
                    self._keep_latest(conditional)
