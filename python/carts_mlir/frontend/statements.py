"""C statements -> structured control flow (``scf.for``, ``scf.while``, ``scf.if``).

A ``for`` loop of canonical shape (see ``analysis.CanonicalLoop``) is an ``scf.for`` over
``index`` whose induction variable *is* the C loop variable (an ``arith.index_cast`` gives
its C-typed value); a decreasing loop iterates over its trip count.  Other loops are
``scf.while`` loops without loop-carried values: their variables live in allocas.  See
``function.py`` for how ``break``/``continue``/``return`` are kept structured.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import clang.cindex as ci
from mlir import ir
from mlir.dialects import arith, func, memref, scf

from . import clang_support as cs
from . import typemap as tm
from .analysis import LOOP_KINDS, CanonicalLoop, for_parts, if_jump, is_simple, referenced_decl
from .state import LoopFlags, Var, pushed
from .typemap import scalar_of

if TYPE_CHECKING:
    from .function import FunctionEmitter
    from .pragmas import Pragma

K = ci.CursorKind


class StmtEmitter:
    def __init__(self, fn: "FunctionEmitter") -> None:
        self.fn = fn
        self.expr = fn.expr
        self._case_ends: set[tuple] = set()  # breaks that end a switch case

    # ------------------------------------------------------------------ blocks

    def function_body(self, body: ci.Cursor) -> bool:
        """Emit the top-level block; True when it ended with a direct ``func.return``."""
        if self.fn.in_main_file:
            self.fn.module.pragmas.seek(body.extent.start.offset)
        stmts = cs.children(body)
        direct = bool(stmts) and stmts[-1].kind == K.RETURN_STMT and self.fn.ret.direct
        self.sequence(stmts[:-1] if direct else stmts)
        if direct:
            self._pragmas_before(stmts[-1])
            self.direct_return(stmts[-1])
        else:
            self._trailing_pragmas(body)
        return direct

    def compound(self, c: ci.Cursor) -> None:
        with self.fn.name_scope():
            self.sequence(cs.children(c))
            self._trailing_pragmas(c)

    def body(self, c: ci.Cursor) -> None:
        """A statement used as a body (braced or not)."""
        if c.kind == K.COMPOUND_STMT:
            self.compound(c)
        else:
            with self.fn.name_scope():
                self.sequence([c])

    def sequence(self, stmts: list[ci.Cursor]) -> None:
        """Statements in order; after one that may jump, the rest is guarded."""
        for k, s in enumerate(stmts):
            rest = stmts[k + 1 :]
            jump = if_jump(s)
            if jump is not None and rest and not self._has_pragmas_before(s):
                self._if_jump(s, jump, rest)
                return
            self.emit(s)
            escapes = self.fn.analysis.escapes(s)
            if escapes and rest:
                with self.fn.loc(rest[0]):
                    guard = self.fn.still_running(escapes)
                if guard is not None:
                    with self.fn.loc(rest[0]):
                        if_op = scf.IfOp(guard)
                    with ir.InsertionPoint(if_op.then_block):
                        self.sequence(rest)
                        scf.YieldOp([])
                    return

    def _if_jump(self, s: ci.Cursor, jump: ci.Cursor, rest: list[ci.Cursor]) -> None:
        """``if (c) JUMP; rest...`` -> ``scf.if c { jump effects } else { rest }``."""
        test = cs.children(s)[0]
        bit = self.expr.cond(test)
        with self.fn.loc(s):
            if_op = scf.IfOp(bit, [], has_else=True)
        with ir.InsertionPoint(if_op.then_block), self.fn.loc(jump):
            self.jump(jump)
            scf.YieldOp([])
        with ir.InsertionPoint(if_op.else_block):
            self.sequence(rest)
            scf.YieldOp([])

    # ------------------------------------------------------------------ pragmas

    def _has_pragmas_before(self, s: ci.Cursor) -> bool:
        return self.fn.in_main_file and self.fn.module.pragmas.has_before(s.extent.start.offset)

    def _pragmas_before(self, s: ci.Cursor) -> list["Pragma"]:
        """Standalone directives before ``s`` are emitted; the others are returned (they
        apply to ``s``)."""
        if not self.fn.in_main_file:
            return []
        taken = self.fn.module.pragmas.take_before(s.extent.start.offset)
        attached = []
        for p in taken:
            self.fn.omp.validate(p)  # with or without -fopenmp: the same file, the same errors
            if p.standalone:
                self.fn.omp.standalone(p)
            else:
                attached.append(p)
        return attached

    def _trailing_pragmas(self, block: ci.Cursor) -> None:
        if not self.fn.in_main_file:
            return
        for p in self.fn.module.pragmas.take_before(block.extent.end.offset):
            self.fn.omp.validate(p)
            if p.standalone:
                self.fn.omp.standalone(p)
            else:
                raise p.error(f"'#pragma omp {p.directive}' is not followed by a statement")

    # ------------------------------------------------------------------ statements

    def emit(self, s: ci.Cursor) -> None:
        attached = self._pragmas_before(s)
        if attached and self.fn.module.openmp:
            self.fn.omp.construct(attached, s)
            return
        with self.fn.loc(s):
            self.plain(s)

    def plain(self, s: ci.Cursor) -> None:
        """A statement without OpenMP directives."""
        k = s.kind
        if k == K.COMPOUND_STMT:
            self.compound(s)
        elif k == K.DECL_STMT:
            for d in cs.children(s):
                if d.kind == K.VAR_DECL:
                    self.fn.declare_local(d)
                elif d.kind == K.STRUCT_DECL and tm.struct_fields(d.type) is not None:
                    continue
                elif d.kind in (K.STRUCT_DECL, K.UNION_DECL):
                    raise cs.unsupported(d, "union" if d.kind == K.UNION_DECL else
                                         "struct (a struct is supported when all its fields "
                                         "have one arithmetic type)")
                elif d.kind in (K.TYPEDEF_DECL, K.ENUM_DECL):
                    continue
                else:
                    raise cs.unsupported(d, f"declaration ({d.kind.name.lower()})")
        elif k == K.IF_STMT:
            self.if_stmt(s)
        elif k == K.FOR_STMT:
            self.for_stmt(s)
        elif k == K.WHILE_STMT:
            kids = cs.children(s)
            self.while_loop(s, kids[0], kids[1], inc=None)
        elif k == K.DO_STMT:
            self.do_while(s)
        elif k in (K.BREAK_STMT, K.CONTINUE_STMT, K.RETURN_STMT):
            self.jump(s)
        elif k == K.NULL_STMT:
            return
        elif k.is_expression():
            self.expr.discard(s)
        elif k == K.SWITCH_STMT:
            self.switch_stmt(s)
        elif k in (K.GOTO_STMT, K.INDIRECT_GOTO_STMT):
            raise cs.unsupported(s, "goto")
        elif k == K.LABEL_STMT:
            raise cs.unsupported(s, f"goto (label '{s.spelling}')")
        elif k in (K.CASE_STMT, K.DEFAULT_STMT):
            raise cs.unsupported(s, "switch")
        elif k.name in ("ASM_STMT", "GCC_ASM_STMT", "MS_ASM_STMT"):
            raise cs.unsupported(s, "inline assembly")
        else:
            raise cs.unsupported(s, f"statement ({k.name.lower()})")

    def if_stmt(self, s: ci.Cursor) -> None:
        kids = cs.children(s)
        if len(kids) not in (2, 3):
            raise cs.unsupported(s, "if statement with a declaration")
        bit = self.expr.cond(kids[0])
        if_op = scf.IfOp(bit, [], has_else=len(kids) == 3)
        with ir.InsertionPoint(if_op.then_block):
            self.body(kids[1])
            scf.YieldOp([])
        if len(kids) == 3:
            with ir.InsertionPoint(if_op.else_block):
                self.body(kids[2])
                scf.YieldOp([])

    def switch_stmt(self, s: ci.Cursor) -> None:
        """``switch`` -> one ``scf.if`` per case, in order. A case runs when the value
        matches one of its labels (the default: none of the switch's labels), or when the
        case before it ran and falls through into it; the conditions are computed from
        the value alone, so no flag is needed. A break ends its case (only at the end of
        the case's statements; a break before it is refused)."""
        fn = self.fn
        kids = cs.children(s)
        if len(kids) != 2 or kids[1].kind != K.COMPOUND_STMT:
            raise cs.unsupported(s, "switch (a switch needs a braced body and no declaration "
                                 "in its condition)")
        cond, body = kids
        sv = scalar_of(cond.type)
        if sv is None or sv.is_float:
            raise cs.unsupported(cond, "switch on a value that is not an integer")
        groups: list[tuple[list[int | None], list[ci.Cursor], ci.Cursor]] = []
        for child in cs.children(body):
            if child.kind in (K.CASE_STMT, K.DEFAULT_STMT):
                if not groups or groups[-1][1]:
                    groups.append(([], [], child))
                node = child
                while node.kind in (K.CASE_STMT, K.DEFAULT_STMT):
                    parts = cs.children(node)
                    if node.kind == K.CASE_STMT:
                        value = cs.evaluate(parts[0])
                        if not isinstance(value, int) or len(parts) != 2:
                            raise cs.unsupported(node, "case label that is not an integer "
                                                 "constant (or a case range)")
                        groups[-1][0].append(value)
                    else:
                        groups[-1][0].append(None)
                    node = parts[-1]
                groups[-1][1].append(node)
            elif not groups:
                raise cs.unsupported(child, "statement before the first case of a switch")
            else:
                groups[-1][1].append(child)
        for labels, stmts, where in groups:
            trailing = _trailing_break(stmts)
            for b in _switch_breaks(stmts):
                if trailing is None or cs.node_key(b) != cs.node_key(trailing):
                    raise cs.unsupported(b, "break before the end of a switch case")
            if trailing is not None:
                self._case_ends.add(cs.node_key(trailing))
        v = self.expr.rvalue(cond)
        i1 = fn.types.i(1)
        with fn.loc(s):
            matches, any_case = [], None
            for labels, _, _ in groups:
                bit = None
                for value in labels:
                    if value is None:
                        continue
                    eq = arith.CmpIOp(arith.CmpIPredicate.eq, v, fn.const_int(value, v.type)).result
                    bit = eq if bit is None else arith.OrIOp(bit, eq).result
                    any_case = eq if any_case is None else arith.OrIOp(any_case, eq).result
                matches.append(bit)
            none = arith.XOrIOp(any_case, fn.const_int(1, i1)).result if any_case is not None \
                else fn.const_int(1, i1)
            runs, previous = [], None
            for (labels, stmts, _), bit in zip(groups, matches):
                if None in labels:
                    bit = none if bit is None else arith.OrIOp(bit, none).result
                if previous is not None:
                    bit = arith.OrIOp(bit, previous).result
                runs.append(bit)
                previous = None if _ends_case(stmts) else bit

        def emit(k: int) -> None:
            for j in range(k, len(groups)):
                _, stmts, where = groups[j]
                with fn.loc(where):
                    if_op = scf.IfOp(runs[j], [])
                with ir.InsertionPoint(if_op.then_block):
                    with fn.name_scope():
                        self.sequence(stmts)
                    scf.YieldOp([])
                escapes = set()
                for st in stmts:
                    escapes |= fn.analysis.escapes(st)
                if escapes and j + 1 < len(groups):
                    with fn.loc(groups[j + 1][2]):
                        guard = fn.still_running(frozenset(escapes))
                    if guard is not None:
                        with fn.loc(groups[j + 1][2]):
                            outer = scf.IfOp(guard)
                        with ir.InsertionPoint(outer.then_block):
                            emit(j + 1)
                            scf.YieldOp([])
                        return

        emit(0)

    # ------------------------------------------------------------------ jumps

    def jump(self, s: ci.Cursor) -> None:
        fn = self.fn
        if s.kind == K.BREAK_STMT and cs.node_key(s) in self._case_ends:
            return  # the end of a switch case: nothing follows it in the case
        if s.kind == K.BREAK_STMT:
            loop = self._loop(s)
            if loop.brk is None:
                raise cs.unsupported(s, "break here")
            fn.set_flag(loop.brk, True)
        elif s.kind == K.CONTINUE_STMT:
            loop = self._loop(s)
            if loop.cont is not None:
                fn.set_flag(loop.cont, True)
        else:
            if fn.omp_depth:
                raise cs.unsupported(s, "return inside an OpenMP region")
            kids = [k for k in cs.children(s) if k.kind.is_expression()]
            if kids and fn.ret.value is not None:
                v = self.expr.rvalue(kids[0])
                memref.StoreOp(self._return_value(v, kids[0]), fn.ret.value, [])
            elif kids:
                self.expr.discard(kids[0])
            if fn.ret.flag is None:
                raise cs.unsupported(s, "return here")
            fn.set_flag(fn.ret.flag, True)

    def _loop(self, s: ci.Cursor) -> LoopFlags:
        if not self.fn.loops:
            raise cs.unsupported(s, f"{s.kind.name.split('_')[0].lower()} outside a loop")
        loop = self.fn.loops[-1]
        if loop.omp and s.kind == K.BREAK_STMT:
            raise cs.unsupported(s, "break out of an OpenMP loop")
        return loop

    def direct_return(self, s: ci.Cursor) -> None:
        with self.fn.loc(s):
            kids = [k for k in cs.children(s) if k.kind.is_expression()]
            if kids and self.fn.result_type is not None:
                v = self._return_value(self.expr.rvalue(kids[0]), kids[0])
                func.ReturnOp([v])
            else:
                if kids:
                    self.expr.discard(kids[0])
                self.fn.emit_final_return()

    def _return_value(self, v: ir.Value, where: ci.Cursor) -> ir.Value:
        want = self.fn.result_type
        if v.type != want:
            v = self.expr.coerce_memref(v, want, where)
        return v

    # ------------------------------------------------------------------ loops

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
        flags = LoopFlags()
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
            if start is None:
                span = arith.SubIOp(ub, lb).result
                trips = arith.MaxSIOp(arith.CeilDivSIOp(span, step).result, fn.const_index(0)).result
                final = arith.AddIOp(lb, arith.MulIOp(trips, step).result).result
            else:
                final = arith.SubIOp(start, arith.MulIOp(ub, fn.const_index(loop.step)).result).result
            memref.StoreOp(fn.from_index(final, scalar_of(loop.var.type)), var.value, [])

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
        flags = LoopFlags()
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


def _trailing_break(stmts: list[ci.Cursor]) -> ci.Cursor | None:
    """The break that ends a case's statements, possibly inside a trailing block."""
    if not stmts:
        return None
    last = stmts[-1]
    while last.kind == K.COMPOUND_STMT and cs.children(last):
        last = cs.children(last)[-1]
    return last if last.kind == K.BREAK_STMT else None


def _ends_case(stmts: list[ci.Cursor]) -> bool:
    """Whether a case's statements end by leaving it (break, continue, return)."""
    last = stmts[-1]
    while last.kind == K.COMPOUND_STMT and cs.children(last):
        last = cs.children(last)[-1]
    return last.kind in (K.BREAK_STMT, K.CONTINUE_STMT, K.RETURN_STMT)


def _switch_breaks(stmts: list[ci.Cursor]) -> list[ci.Cursor]:
    """The breaks among ``stmts`` that would leave the switch (not nested loops' or
    nested switches')."""
    out = []
    stack = list(stmts)
    while stack:
        c = stack.pop()
        if c.kind == K.BREAK_STMT:
            out.append(c)
        elif c.kind not in LOOP_KINDS and c.kind != K.SWITCH_STMT:
            stack.extend(cs.children(c))
    return out


def _same_decl(ref: ci.Cursor, decl: ci.Cursor) -> bool:
    target = referenced_decl(ref)
    return target is not None and cs.node_key(target) == cs.node_key(decl)


