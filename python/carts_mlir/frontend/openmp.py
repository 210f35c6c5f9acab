"""``#pragma omp`` constructs -> the upstream ``omp`` dialect (with ``-fopenmp``).

    #pragma omp parallel for ...      omp.parallel {
    for (i = lb; i < ub; i++) body      omp.wsloop <schedule, reduction, nowait> {
                                          omp.loop_nest (%i) : index = (lb) to (ub) step (1) {
                                            body; omp.yield } }
                                        omp.terminator }

Data sharing: variables are shared unless privatised.  ``private``/``firstprivate`` give
the construct a fresh ``memref.alloca`` inside the ``omp.parallel`` region (one per
thread; ``firstprivate`` copies the outer value in) and the body uses it; no
``omp.private`` clauses are emitted, so later passes see plain allocas.  ``reduction``
uses the dialect's clause with an ``omp.declare_reduction`` per (operator, type); the
accumulator is the variable's rank-0 memref and the body updates the region argument.
Loop bounds of a combined ``parallel for`` are computed before the ``omp.parallel``.
"""

from __future__ import annotations

import re
from contextlib import ExitStack
from typing import TYPE_CHECKING

import clang.cindex as ci
from mlir import ir
from mlir.dialects import memref
from mlir.dialects import openmp as omp

from . import clang_support as cs
from .analysis import CanonicalLoop, decl_key
from .function import AllocaScope, LoopFlags, Var
from .pragmas import SUPPORTED, Pragma, constant_value, expand_macros
from .typemap import Scalar, scalar_of

if TYPE_CHECKING:
    from .function import FunctionEmitter

K = ci.CursorKind
_REDUCTION_OPS = {"+": "add", "-": "add", "*": "mul", "max": "max", "min": "min",
                  "&": "and", "|": "or", "^": "xor"}
_SCHEDULES = {"static", "dynamic", "guided", "auto", "runtime"}


class OmpEmitter:
    def __init__(self, fn: "FunctionEmitter") -> None:
        self.fn = fn

    # ------------------------------------------------------------------ entry points

    def standalone(self, p: Pragma) -> None:
        if not self.fn.module.openmp:
            return
        self.validate(p)
        with self.fn.loc_of_pragma(p):
            if p.directive == "barrier":
                omp.BarrierOp()

    def construct(self, pragmas: list[Pragma], stmt: ci.Cursor) -> None:
        """Directives (outermost first) applied to ``stmt``."""
        p, inner = pragmas[0], pragmas[1:]
        self.validate(p)

        def body() -> None:
            if inner:
                self.construct(inner, stmt)
            else:
                with self.fn.loc(stmt):
                    self.fn.stmt.plain(stmt)

        d = p.directive
        if d == "parallel for":
            if inner:
                raise p.error("a 'parallel for' must be followed by its loop")
            self.parallel(p, lambda: None, loop=stmt)
        elif d == "parallel":
            self.parallel(p, body)
        elif d == "for":
            if inner:
                raise p.error("an 'omp for' must be followed by its loop")
            self.worksharing_loop(p, stmt, self._prepare_loops(p, stmt))
        elif d == "single":
            self.single(p, body)
        elif d == "master":
            self.master(p, body)

    # ------------------------------------------------------------------ validation

    def validate(self, p: Pragma) -> None:
        if p.directive not in SUPPORTED:
            what = p.directive or p.text
            raise p.error(f"unsupported C construct: omp {what}")
        allowed = SUPPORTED[p.directive]
        for c in p.clauses:
            if c.name not in allowed:
                raise p.error(f"unsupported C construct: '{c.name}' clause on omp {p.directive}")
            if c.name == "default" and c.args not in (("shared",), ("none",)):
                raise p.error(f"unsupported C construct: default({', '.join(c.args)})")
            if c.name == "schedule" and c.modifier not in _SCHEDULES:
                raise p.error(f"unknown schedule kind '{c.modifier}'")
            if c.name == "reduction" and c.modifier not in _REDUCTION_OPS:
                raise p.error(f"unsupported C construct: reduction operator '{c.modifier}'")

    # ------------------------------------------------------------------ constructs

    def parallel(self, p: Pragma, body, loop: ci.Cursor | None = None) -> None:
        fn = self.fn
        loops = self._prepare_loops(p, loop) if loop is not None else None
        with fn.loc_of_pragma(p):
            num_threads = None
            if p.clause("num_threads"):
                num_threads = self._clause_value(p, p.clause("num_threads").args[0], fn.types.i(32))
            reductions = [] if loop is not None else self._reductions(p)
            op = omp.ParallelOp([], [], [], [r[1] for r in reductions], num_threads=num_threads,
                                **self._reduction_attrs(reductions))
            block = op.region.blocks.append(*[r[1].type for r in reductions])
        with ir.InsertionPoint(block), ExitStack() as stack:
            fn.alloca_scopes.append(AllocaScope(block))
            fn.omp_depth += 1
            try:
                for (key, _, ctype, _sym), arg in zip(reductions, block.arguments):
                    stack.enter_context(fn.rebind(key, Var("mem", ctype, arg)))
                with fn.loc_of_pragma(p):
                    self._privatize(p, stack)
                if loop is not None:
                    self.worksharing_loop(p, loop, loops)
                else:
                    body()
                with fn.loc_of_pragma(p):
                    omp.TerminatorOp()
            finally:
                fn.omp_depth -= 1
                fn.alloca_scopes.pop()

    def single(self, p: Pragma, body) -> None:
        fn = self.fn
        with fn.loc_of_pragma(p):
            op = omp.SingleOp([], [], [], [], nowait=ir.UnitAttr.get() if p.clause("nowait") else None)
            block = op.region.blocks.append()
        with ir.InsertionPoint(block), ExitStack() as stack:
            fn.omp_depth += 1
            try:
                with fn.loc_of_pragma(p):
                    self._privatize(p, stack)
                body()
                with fn.loc_of_pragma(p):
                    omp.TerminatorOp()
            finally:
                fn.omp_depth -= 1

    def master(self, p: Pragma, body) -> None:
        fn = self.fn
        with fn.loc_of_pragma(p):
            op = omp.MasterOp()
            block = op.region.blocks.append()
        with ir.InsertionPoint(block):
            fn.omp_depth += 1
            try:
                body()
                with fn.loc_of_pragma(p):
                    omp.TerminatorOp()
            finally:
                fn.omp_depth -= 1

    # ------------------------------------------------------------------ loops

    def _prepare_loops(self, p: Pragma, stmt: ci.Cursor) -> list[tuple[CanonicalLoop, tuple]]:
        """The loops a worksharing construct binds (``collapse(n)``), with their bounds
        computed at the current insertion point."""
        fn = self.fn
        depth = 1
        if p.clause("collapse"):
            depth = self._constant(p, p.clause("collapse").args[0])
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
        outer_keys = set()
        for loop in loops:
            for key in outer_keys:
                if fn.analysis.references(loop.init, key) or fn.analysis.references(loop.bound, key):
                    raise cs.unsupported(loop.cursor, "non-rectangular loop nest under collapse")
            outer_keys.add(loop.var_key)
        return [(loop, fn.stmt.loop_bounds(loop)) for loop in loops]

    def worksharing_loop(self, p: Pragma, stmt: ci.Cursor, loops) -> None:
        fn = self.fn
        with ExitStack() as stack:
            with fn.loc_of_pragma(p):
                if p.directive == "for":
                    self._privatize(p, stack)
                reductions = self._reductions(p)
                schedule = p.clause("schedule")
                attrs = self._reduction_attrs(reductions)
                if schedule is not None:
                    attrs["schedule_kind"] = ir.Attribute.parse(f"#omp<schedulekind {schedule.modifier}>")
                    if schedule.args:
                        attrs["schedule_chunk"] = self._clause_value(p, schedule.args[0], ir.IndexType.get())
                if p.clause("nowait"):
                    attrs["nowait"] = ir.UnitAttr.get()
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
                flags = LoopFlags(omp=True)
                if fn.analysis.needs_continue_flag(innermost.cursor, innermost.body):
                    flags.cont = fn.new_flag()
                for (loop, bounds), iv in zip(loops, body_block.arguments):
                    var = fn.stmt.bind_induction(loop, iv, bounds[3], innermost.body)
                    stack.enter_context(fn.rebind(loop.var_key, var))
                    if loop.declared_in_init:
                        fn.scopes[-1].names[loop.var.spelling] = loop.var_key
                fn.loops.append(flags)
                fn.omp_depth += 1
                try:
                    fn.stmt.body(innermost.body)
                finally:
                    fn.omp_depth -= 1
                    fn.loops.pop()
                omp.YieldOp([])

    # ------------------------------------------------------------------ data sharing

    def _variable(self, p: Pragma, name: str) -> tuple[tuple, Var]:
        fn = self.fn
        key = fn.lookup_name(name)
        if key is None:
            decl = fn.module.global_decl(name)
            if decl is None:
                raise p.error(f"unknown variable '{name}' in OpenMP clause")
            return decl_key(decl), fn.lookup(decl, None)
        var = fn.vars.get(key)
        if var is None:
            raise p.error(f"unknown variable '{name}' in OpenMP clause")
        if var.kind == "global":
            var = Var("mem", var.ctype, fn.module.global_memref(var.value, None))
        return key, var

    def _privatize(self, p: Pragma, stack: ExitStack) -> None:
        """``private``/``firstprivate``: a fresh alloca in the current (per-thread)
        allocation scope, rebound for the rest of the construct."""
        fn = self.fn
        for clause in p.clauses:
            if clause.name not in ("private", "firstprivate"):
                continue
            for name in clause.args:
                key, var = self._variable(p, name)
                if var.kind != "mem":
                    raise p.error(f"cannot privatise '{name}' here")
                fresh = fn.alloca(var.value.type)
                if clause.name == "firstprivate":
                    if ir.MemRefType(var.value.type).rank:
                        memref.CopyOp(var.value, fresh)
                    else:
                        memref.StoreOp(memref.LoadOp(var.value, []).result, fresh, [])
                stack.enter_context(fn.rebind(key, Var("mem", var.ctype, fresh)))

    def _reductions(self, p: Pragma) -> list[tuple[tuple, ir.Value, ci.Type, str]]:
        out = []
        for clause in p.all("reduction"):
            for name in clause.args:
                key, var = self._variable(p, name)
                s = scalar_of(var.ctype)
                if var.kind != "mem" or s is None:
                    raise p.error(f"reduction variable '{name}' must be a scalar variable")
                sym = self.fn.module.reduction(_REDUCTION_OPS[clause.modifier], s, p)
                out.append((key, var.value, var.ctype, sym))
        return out

    @staticmethod
    def _reduction_attrs(reductions) -> dict:
        if not reductions:
            return {}
        return {
            "reduction_syms": ir.ArrayAttr.get([ir.FlatSymbolRefAttr.get(r[3]) for r in reductions]),
            "reduction_byref": ir.DenseBoolArrayAttr.get([False] * len(reductions)),
        }

    # ------------------------------------------------------------------ clause values

    def _constant(self, p: Pragma, text: str) -> int:
        value = constant_value(expand_macros(text, self.fn.module.macros))
        if value is None:
            raise p.error(f"'{text}' is not an integer constant")
        return value

    def _clause_value(self, p: Pragma, text: str, mtype: ir.Type) -> ir.Value:
        """A clause argument: an integer constant (macros expanded) or a variable."""
        fn = self.fn
        value = constant_value(expand_macros(text, fn.module.macros))
        if value is not None:
            return fn.const_int(value, mtype)
        name = text.strip()
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise p.error(f"unsupported C construct: clause argument '{text}'")
        _, var = self._variable(p, name)
        s = scalar_of(var.ctype)
        if s is None or s.is_float:
            raise p.error(f"clause argument '{name}' must be an integer")
        v = var.value if var.kind == "ssa" else fn.iv_value(var) if var.kind == "iv" else memref.LoadOp(var.value, []).result
        if isinstance(mtype, ir.IndexType):
            return fn.to_index(v, s)
        return fn.convert(v, s, Scalar("int", ir.IntegerType(mtype).width))
