"""C loops -> ``scf.for`` and ``scf.while`` (a mixin of ``StmtEmitter``).

A ``for`` loop of canonical shape (see ``canonical_loops.CanonicalLoop``) is an ``scf.for``
over ``index`` whose induction variable *is* the C loop variable (an ``arith.index_cast``
gives its C-typed value); a decreasing loop iterates over its trip count.  Other loops are
``scf.while`` loops without loop-carried values: their variables live in allocas.  The
bounds and the induction variable are also what the OpenMP loops (``omp_loops``,
``omp_tasks``) bind, through ``loop_bounds``, ``bind_induction`` and ``scf_for``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import clang.cindex as ci
from mlir import ir
from mlir.dialects import arith, memref, scf

from . import clang_support as cs
from . import typemap as tm
from .canonical_loops import CanonicalLoop, for_parts
from .cursor_queries import LOOP_KINDS, is_simple, referenced_decl
from .state import LoopFlags, Var, pushed
from .typemap import scalar_of

if TYPE_CHECKING:
    from .expressions import ExprEmitter
    from .function import FunctionEmitter

K = ci.CursorKind


class LoopStatements:
    """The loops of ``StmtEmitter`` (a mixin of it).  Bodies are emitted with its
    ``body``; a non-canonical ``for``'s declaration with its ``plain``."""

    fn: "FunctionEmitter"
    expr: "ExprEmitter"

    def for_stmt(self, s: ci.Cursor) -> None:
        loop = self.fn.analysis.canonical_loop(s)
        if loop is not None:
            with self.fn.name_scope():
                self.scf_for(loop)
            return
        parts = for_parts(s)
        with self.fn.name_scope():
            if parts.init is not None:
                self.plain(parts.init) if parts.init.kind == K.DECL_STMT else self.expr.discard(parts.init)
            self.while_loop(s, parts.cond, parts.body, parts.inc)

    def loop_bounds(self, loop: CanonicalLoop) -> tuple[ir.Value, ir.Value, ir.Value, ir.Value | None]:
        """(lower, upper, step, start) in ``index`` for an ``scf.for``/``omp.loop_nest``.
        Increasing loops iterate the C variable itself (start None); decreasing ones
        iterate 0..tripcount and ``start`` is the first value of the C variable."""
        fn = self.fn
        var_s = scalar_of(loop.var.type)
        with fn.loc(loop.init):
            lb = self._bound_index(loop.init, var_s)
        with fn.loc(loop.bound):
            ub = self._bound_index(loop.bound, var_s)
            step = fn.const_index(loop.step)
            if loop.increasing:
                if loop.cmp == "<=":
                    ub = arith.AddIOp(ub, fn.const_index(1)).result
                return lb, ub, step, None
            # trip count of `for (v = lb; v > ub; v -= step)`: ceil((lb - ub) / step)
            span = arith.SubIOp(lb, ub).result
            if loop.cmp == ">=":
                span = arith.AddIOp(span, fn.const_index(1)).result
            trips = arith.CeilDivSIOp(span, step).result
            trips = arith.MaxSIOp(trips, fn.const_index(0)).result
            return fn.const_index(0), trips, fn.const_index(1), lb

    def _bound_index(self, expr: ci.Cursor, var_s) -> ir.Value:
        s = scalar_of(expr.type)
        if s is None or s.is_float:
            raise cs.unsupported(expr, "non-integer loop bound")
        inner = tm.strip_int_widening(expr)
        return self.expr.index_of(inner)

    def bind_induction(self, loop: CanonicalLoop, iv: ir.Value, start: ir.Value | None, body: ci.Cursor) -> Var:
        """The C variable's value inside the body, from the induction variable."""
        fn = self.fn
        loc = fn.loc(loop.cursor)
        with loc:
            if start is None:
                return Var("iv", loop.var.type, iv, None, loc)
            offset = arith.MulIOp(iv, fn.const_index(loop.step)).result
            value = arith.SubIOp(start, offset).result
            return Var("iv", loop.var.type, value, None, loc)

    def scf_for(self, loop: CanonicalLoop, bounds=None) -> None:
        """The C loop as an ``scf.for`` over its ``loop_bounds`` (or the given ``(lb, ub,
        step, start)``: a taskloop's chunk runs part of them)."""
        fn = self.fn
        lb, ub, step, start = bounds or self.loop_bounds(loop)
        if loop.declared_in_init:
            fn.scopes[-1].names[loop.var.spelling] = loop.var_key
        with fn.loc(loop.cursor):
            for_op = scf.ForOp(lb, ub, step)
        flags = LoopFlags(end=loop.cursor.extent.end.offset)
        with ir.InsertionPoint(for_op.body), fn.loc(loop.body):
            if fn.analysis.needs_continue_flag(loop.cursor, loop.body):
                flags.cont = fn.new_flag()
            var = self.bind_induction(loop, for_op.induction_variable, start, loop.body)
            with pushed(fn.loops, flags), fn.rebind(loop.var_key, var):
                self.body(loop.body)
            scf.YieldOp([])
        if bounds is None and not loop.declared_in_init and self._needs_final_value(loop):
            self._store_final_value(loop, lb, ub, step, start)

    def _needs_final_value(self, loop: CanonicalLoop) -> bool:
        """Whether code outside the loop may read the variable before reassigning it (every
        other use inside a ``for`` that starts by assigning it does not count)."""
        fn = self.fn
        lo, hi = loop.cursor.extent.start.offset, loop.cursor.extent.end.offset
        reassigning = []
        for c in cs.walk(fn.analysis.body):
            if c.kind == K.FOR_STMT and c != loop.cursor:
                init = for_parts(c).init
                if init is not None and init.kind == K.BINARY_OPERATOR and cs.binary_operator(init) == "=":
                    target = cs.strip_parens(cs.children(init)[0])
                    if target.kind == K.DECL_REF_EXPR and _same_decl(target, loop.var):
                        reassigning.append((c.extent.start.offset, c.extent.end.offset))
        for c in cs.walk(fn.analysis.body):
            if c.kind != K.DECL_REF_EXPR or not _same_decl(c, loop.var):
                continue
            off = c.extent.start.offset
            if lo <= off < hi:
                continue
            if any(a <= off < b for a, b in reassigning):
                continue
            return True
        return False

    def _store_final_value(self, loop: CanonicalLoop, lb, ub, step, start) -> None:
        """After ``scf.for``, the C variable holds the first value that failed the test."""
        fn = self.fn
        var = fn.lookup(loop.var, loop.cursor)
        if var.kind != "mem":
            return
        with fn.loc(loop.cursor):
            memref.StoreOp(self.final_value(loop, lb, ub, step, start), var.value, [])

    def final_value(self, loop: CanonicalLoop, lb, ub, step, start) -> ir.Value:
        """The C variable's value once the loop ``lb .. ub step`` (its ``loop_bounds``) has
        run to the end: the first value that fails the test, in the variable's type."""
        fn = self.fn
        if start is None:
            span = arith.SubIOp(ub, lb).result
            trips = arith.MaxSIOp(arith.CeilDivSIOp(span, step).result, fn.const_index(0)).result
            final = arith.AddIOp(lb, arith.MulIOp(trips, step).result).result
        else:
            final = arith.SubIOp(start, arith.MulIOp(ub, fn.const_index(loop.step)).result).result
        return fn.from_index(final, scalar_of(loop.var.type))

    def while_loop(self, s: ci.Cursor, cond: ci.Cursor | None, body: ci.Cursor,
                   inc: ci.Cursor | None) -> None:
        """``while (cond) body`` (and non-canonical ``for``) as an ``scf.while``."""
        fn = self.fn
        flags = self._loop_flags(s, body)
        jumps = fn.analysis.escapes(body)
        with fn.loc(s):
            loop = scf.WhileOp([], [])
        before = loop.before.blocks.append()
        after = loop.after.blocks.append()
        with ir.InsertionPoint(before), fn.loc(cond if cond is not None else s):
            with pushed(fn.loops, flags):
                bit = self._guarded_condition(cond, jumps)
            scf.ConditionOp(bit, [])
        with ir.InsertionPoint(after), fn.loc(body):
            with pushed(fn.loops, flags):
                if flags.cont is not None:
                    fn.set_flag(flags.cont, False)
                self.body(body)
                if inc is not None:
                    with fn.loc(inc):
                        running = fn.still_running(jumps - {"continue"})
                        if running is None:
                            self.expr.discard(inc)
                        else:
                            if_op = scf.IfOp(running)
                            with ir.InsertionPoint(if_op.then_block):
                                self.expr.discard(inc)
                                scf.YieldOp([])
            scf.YieldOp([])

    def do_while(self, s: ci.Cursor) -> None:
        fn = self.fn
        body, cond = cs.children(s)
        jumps = fn.analysis.escapes(body)
        if cs.evaluate(cond) == 0 and not ({"break", "continue"} & jumps):
            # `do { ... } while (0)`: the macro idiom runs once.
            self.body(body)
            return
        flags = self._loop_flags(s, body)
        with fn.loc(s):
            loop = scf.WhileOp([], [])
        before = loop.before.blocks.append()
        after = loop.after.blocks.append()
        with ir.InsertionPoint(before), fn.loc(body):
            with pushed(fn.loops, flags):
                if flags.cont is not None:
                    fn.set_flag(flags.cont, False)
                self.body(body)
                with fn.loc(cond):
                    bit = self._guarded_condition(cond, jumps)
            scf.ConditionOp(bit, [])
        with ir.InsertionPoint(after):
            scf.YieldOp([])

    def _loop_flags(self, s: ci.Cursor, body: ci.Cursor) -> LoopFlags:
        fn = self.fn
        flags = LoopFlags(end=s.extent.end.offset)
        with fn.loc(s):
            if "break" in _own_jumps(body):
                flags.brk = fn.new_flag()
            if fn.analysis.needs_continue_flag(s, body):
                flags.cont = fn.new_flag(reset=False)
        return flags

    def _guarded_condition(self, cond: ci.Cursor | None, jumps: frozenset[str]) -> ir.Value:
        """The loop test, false once a ``break``/``return`` flag is set (the C test is not
        evaluated then)."""
        fn = self.fn
        running = fn.still_running(jumps - {"continue"})
        if cond is not None and _always_true(cond):
            cond = None  # `while (1)`, `for (;;)`
        if cond is None:
            return running if running is not None else fn.const_int(1, fn.types.i(1))
        if running is None:
            return self.expr.cond(cond)
        if is_simple(cond):
            return arith.AndIOp(running, self.expr.cond(cond)).result
        i1 = fn.types.i(1)
        if_op = scf.IfOp(running, [i1], has_else=True)
        with ir.InsertionPoint(if_op.then_block):
            scf.YieldOp([self.expr.cond(cond)])
        with ir.InsertionPoint(if_op.else_block):
            scf.YieldOp([fn.const_int(0, i1)])
        return if_op.result


def _always_true(cond: ci.Cursor) -> bool:
    value = cs.evaluate(cond) if cs.strip_implicit(cond).kind in (
        K.INTEGER_LITERAL, K.CHARACTER_LITERAL) else None
    return isinstance(value, int) and value != 0


def _own_jumps(body: ci.Cursor) -> set[str]:
    """Jump kinds in ``body`` that target the enclosing loop (not nested loops; a break
    in a switch leaves the switch)."""
    out: set[str] = set()
    stack = [(body, False)]
    while stack:
        c, in_switch = stack.pop()
        if c.kind == K.BREAK_STMT and not in_switch:
            out.add("break")
        elif c.kind == K.CONTINUE_STMT:
            out.add("continue")
        if c.kind in LOOP_KINDS and c != body:
            continue
        inner = in_switch or c.kind == K.SWITCH_STMT
        stack.extend((k, inner) for k in cs.children(c))
    return out


def _same_decl(ref: ci.Cursor, decl: ci.Cursor) -> bool:
    target = referenced_decl(ref)
    return target is not None and cs.node_key(target) == cs.node_key(decl)
