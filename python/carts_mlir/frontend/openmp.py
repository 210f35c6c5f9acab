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

import ast
import re
from contextlib import ExitStack
from typing import TYPE_CHECKING

import clang.cindex as ci
from mlir import ir
from mlir.dialects import arith, memref, scf
from mlir.dialects import openmp as omp

from . import clang_support as cs
from .analysis import CanonicalLoop, decl_key, referenced_decl
from .state import LoopFlags, Var, pushed
from .pragmas import DEPEND_KINDS, SUPPORTED, Pragma, constant_value, depend_base, expand_macros
from . import typemap as tm
from .typemap import Scalar, scalar_of

if TYPE_CHECKING:
    from .function import FunctionEmitter

K = ci.CursorKind
_REDUCTION_OPS = {"+": "add", "-": "add", "*": "mul", "max": "max", "min": "min",
                  "&": "and", "|": "or", "^": "xor", "&&": "land", "||": "lor"}
_SCHEDULES = {"static", "dynamic", "guided", "auto", "runtime"}
_ATOMIC_OPS = {"+", "-", "*", "/", "&", "|", "^", "<<", ">>"}


def _same_object(a: ci.Cursor, b: ci.Cursor | None) -> bool:
    """Whether two expressions name the same object, as written (``x``, ``a[i]``)."""
    if b is None:
        return False
    spell = lambda c: " ".join(t.spelling for t in cs.strip_implicit(c).get_tokens())
    return spell(a) == spell(b)


def _updated_object(c: ci.Cursor) -> ci.Cursor | None:
    """The object an update expression (``x++``, ``x op= e``, ``x = ...``) writes."""
    if c.kind == K.UNARY_OPERATOR and cs.unary_operator(c) in ("pre++", "pre--", "post++", "post--"):
        return cs.children(c)[0]
    if c.kind in (K.COMPOUND_ASSIGNMENT_OPERATOR, K.BINARY_OPERATOR):
        return cs.children(c)[0]
    return None


class OmpEmitter:
    def __init__(self, fn: "FunctionEmitter") -> None:
        self.fn = fn
        # Per enclosing ``parallel`` construct: the variables visible at its start, with the
        # value they had then. A task shares what is still bound the same way (shared in
        # the parallel region); everything else it captures is firstprivate.
        self.team_vars: list[dict[tuple, ir.Value]] = []
        # Per enclosing worksharing loop: whether it has the `ordered` clause.
        self._ordered_loops: list[bool] = []

    # ------------------------------------------------------------------ entry points

    def standalone(self, p: Pragma) -> None:
        if not self.fn.module.openmp:
            return
        self.validate(p)
        with self.fn.loc_of_pragma(p):
            if p.directive == "barrier":
                omp.BarrierOp()
            elif p.directive == "taskwait":
                omp.TaskwaitOp([])
            # taskyield: a scheduling point; ARTS tasks run to completion, so nothing to do

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
        elif d == "task":
            self.task(p, body, stmt)
        elif d == "taskgroup":
            self.taskgroup(p, body)
        elif d == "taskloop":
            if inner:
                raise p.error("an 'omp taskloop' must be followed by its loop")
            self.taskloop(p, stmt)
        elif d == "sections":
            if inner:
                raise p.error("an 'omp sections' must be followed by its block of sections")
            self.sections(p, stmt)
        elif d == "parallel sections":
            if inner:
                raise p.error("a 'parallel sections' must be followed by its block of sections")
            self.parallel(p, lambda: self.sections(p, stmt))
        elif d == "section":
            raise p.error("'#pragma omp section' outside the block of an 'omp sections'")
        elif d == "critical":
            self.critical(p, body)
        elif d == "ordered":
            self.ordered(p, body)
        elif d == "atomic":
            if inner:
                raise p.error("an 'omp atomic' must be followed by its expression statement")
            with self.fn.loc(stmt):
                self.atomic(p, stmt)

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
            if_expr = None
            if p.clause("if"):
                text = p.clause("if").args[0]
                text = re.sub(r"^\s*parallel\s*:", "", text)  # `if(parallel: e)`
                if_expr = self._condition(p, text)
            reductions = [] if loop is not None else self._reductions(p)
            op = omp.ParallelOp([], [], [], [r[1] for r in reductions], num_threads=num_threads,
                                if_expr=if_expr, **self._reduction_attrs(reductions))
            block = op.region.blocks.append(*[r[1].type for r in reductions])
        with pushed(self.team_vars, {key: var.value for key, var in fn.vars.items()}):
            last = self._lastprivate_targets(p)
            with ir.InsertionPoint(block), ExitStack() as stack, fn.omp_region(block):
                for (key, _, ctype, _sym), arg in zip(reductions, block.arguments):
                    stack.enter_context(fn.rebind(key, Var("mem", ctype, arg)))
                with fn.loc_of_pragma(p):
                    self._privatize(p, stack)
                if loop is not None:
                    self.worksharing_loop(p, loop, loops, last)
                else:
                    body()
                with fn.loc_of_pragma(p):
                    omp.TerminatorOp()

    def single(self, p: Pragma, body) -> None:
        fn = self.fn
        with fn.loc_of_pragma(p):
            op = omp.SingleOp([], [], [], [], nowait=ir.UnitAttr.get() if p.clause("nowait") else None)
            block = op.region.blocks.append()
        with ir.InsertionPoint(block), ExitStack() as stack, fn.omp_region():
            with fn.loc_of_pragma(p):
                self._privatize(p, stack)
            body()
            with fn.loc_of_pragma(p):
                omp.TerminatorOp()

    def _fill(self, p: Pragma, block: ir.Block, body) -> None:
        """A construct's region: its statement, then the terminator."""
        fn = self.fn
        with ir.InsertionPoint(block), fn.omp_region():
            body()
            with fn.loc_of_pragma(p):
                omp.TerminatorOp()

    def master(self, p: Pragma, body) -> None:
        fn = self.fn
        with fn.loc_of_pragma(p):
            op = omp.MasterOp()
            block = op.region.blocks.append()
        self._fill(p, block, body)

    def sections(self, p: Pragma, stmt: ci.Cursor) -> None:
        """``#pragma omp sections``: an ``omp.sections`` with one ``omp.section`` per
        section of the block. A section starts at the block's first statement and at
        each ``#pragma omp section``; the statements up to the next one belong to it."""
        fn = self.fn
        if stmt.kind != K.COMPOUND_STMT:
            raise p.error(f"'#pragma omp {p.directive}' must be followed by a block of sections")
        groups: list[list[ci.Cursor]] = []
        marks = fn.module.pragmas
        for child in cs.children(stmt):
            if marks.take_directive_before(child.extent.start.offset, "section") or not groups:
                groups.append([])
            groups[-1].append(child)
        for q in marks.take_directive_before(stmt.extent.end.offset, "section"):
            raise q.error("'#pragma omp section' is not followed by a statement")
        nowait = p.directive == "sections" and p.clause("nowait") is not None
        with fn.loc_of_pragma(p):
            op = omp.SectionsOp([], [], [], [], nowait=ir.UnitAttr.get() if nowait else None)
            block = op.region.blocks.append()
        with ir.InsertionPoint(block), fn.omp_region():
            for group in groups:
                with fn.loc(group[0]):
                    section = omp.SectionOp()
                    inner = section.region.blocks.append()
                with ir.InsertionPoint(inner):
                    for child in group:
                        fn.stmt.emit(child)
                    with fn.loc_of_pragma(p):
                        omp.TerminatorOp()
            with fn.loc_of_pragma(p):
                omp.TerminatorOp()

    def ordered(self, p: Pragma, body) -> None:
        """``#pragma omp ordered`` (a block, in a loop with the ``ordered`` clause): an
        ``omp.ordered.region``. openmp-to-arts makes the ordered parts a chain."""
        fn = self.fn
        if not any(q for q in self._ordered_loops if q):
            raise p.error("'#pragma omp ordered' outside a loop with the 'ordered' clause")
        with fn.loc_of_pragma(p):
            op = omp.OrderedRegionOp()
            block = op.region.blocks.append()
        self._fill(p, block, body)

    def critical(self, p: Pragma, body) -> None:
        """``#pragma omp critical [(name)]``: an ``omp.critical`` naming its
        ``omp.critical.declare`` (one per name; the unnamed section has none)."""
        fn = self.fn
        name = p.clause("name").args[0] if p.clause("name") else None
        with fn.loc_of_pragma(p):
            sym = fn.module.critical_name(name, p) if name else None
            op = omp.CriticalOp(name=ir.FlatSymbolRefAttr.get(sym) if sym else None)
            block = op.region.blocks.append()
        self._fill(p, block, body)

    # ------------------------------------------------------------------ atomic

    def atomic(self, p: Pragma, stmt: ci.Cursor) -> None:
        """``#pragma omp atomic [read|write|update|capture]``: the access to the shared
        location becomes one ``memref.generic_atomic_rmw`` (a read-modify-write with
        indices; the ``omp.atomic.*`` ops take a pointer, which an element of a memref
        array does not have). Its block computes the new value from the current one; the
        operand the program combines with is evaluated before, as OpenMP allows. The op
        yields the value it replaced, so ``read`` yields the current value unchanged and
        ``capture`` keeps the old or the new value as the statement says."""
        kinds = [c.name for c in p.clauses if c.name in ("read", "write", "update", "capture")]
        kind = kinds[0] if kinds else "update"
        body = cs.strip_parens(stmt)
        if kind == "capture" and body.kind == K.COMPOUND_STMT:
            self._atomic_capture_block(p, body)
            return
        expr = body
        if kind in ("read", "write"):
            if expr.kind != K.BINARY_OPERATOR or cs.binary_operator(expr) != "=":
                raise self._atomic_shape(p, stmt, "'v = x;'" if kind == "read" else "'x = expr;'")
            target, value = cs.children(expr)
            if kind == "read":
                ref = cs.strip_implicit(value)
                if ref.kind == K.DECL_REF_EXPR and ref.referenced is not None and \
                        self.fn.vars.get(decl_key(ref.referenced)) is not None and \
                        self.fn.vars[decl_key(ref.referenced)].kind != "mem":
                    # never written, so kept as a value: reading it is already atomic
                    old = self.fn.expr.rvalue(value)
                else:
                    old = self._atomic_rmw(p, value, lambda cur, s: cur, float_add=-0.0)[0]
                self._assign_value(target, old, scalar_of(value.type), stmt)
            else:
                self._atomic_swap(p, target, value)
            return
        if kind == "capture":
            if expr.kind != K.BINARY_OPERATOR or cs.binary_operator(expr) != "=":
                raise self._atomic_shape(p, stmt, "'v = x++;', 'v = x op= expr;' or a block "
                                         "'{ v = x; x op= expr; }'")
            target, update = cs.children(expr)
            update = cs.strip_implicit(update)
            old, new, xs = self._atomic_update(p, update, stmt)
            # `v = x++` keeps the old value; `v = ++x`, `v = x op= e` the new one.
            after = update.kind != K.UNARY_OPERATOR or cs.unary_operator(update) in ("pre++", "pre--")
            self._assign_value(target, new() if after else old, xs, stmt)
            return
        self._atomic_update(p, expr, stmt)

    def _atomic_capture_block(self, p: Pragma, block: ci.Cursor) -> None:
        """``{ v = x; x op= e; }`` (v gets the old value) or ``{ x op= e; v = x; }`` (the
        new one); ``x = e`` as the update is a swap."""
        kids = [cs.strip_parens(k) for k in cs.children(block)]
        shape = "'{ v = x; x op= expr; }' or '{ x op= expr; v = x; }'"
        if len(kids) != 2 or any(k.kind not in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR,
                                                K.UNARY_OPERATOR) for k in kids):
            raise self._atomic_shape(p, block, shape)

        def is_read(k: ci.Cursor) -> bool:
            if k.kind != K.BINARY_OPERATOR or cs.binary_operator(k) != "=":
                return False
            return cs.strip_implicit(cs.children(k)[1]).kind in (K.DECL_REF_EXPR, K.ARRAY_SUBSCRIPT_EXPR)

        first, second = kids
        if is_read(first) and _same_object(cs.children(first)[1], _updated_object(second)):
            read, update, after = first, second, False
        elif is_read(second) and _same_object(cs.children(second)[1], _updated_object(first)):
            read, update, after = second, first, True
        else:
            raise self._atomic_shape(p, block, shape)
        old, new, xs = self._atomic_update(p, update, block, allow_write=True)
        self._assign_value(cs.children(read)[0], new() if after else old, xs, block)

    def _atomic_update(self, p: Pragma, expr: ci.Cursor, where: ci.Cursor, allow_write: bool = False):
        """An update statement as one atomic read-modify-write: (old, new(), scalar of x)."""
        fn = self.fn
        shape = "'x++', 'x--', 'x op= expr' or 'x = x op expr'"
        if expr.kind == K.UNARY_OPERATOR and cs.unary_operator(expr) in ("pre++", "pre--", "post++", "post--"):
            target = cs.children(expr)[0]
            xs = scalar_of(target.type)
            if xs is None:
                raise self._atomic_shape(p, where, "an arithmetic variable or element")
            op = "+" if cs.unary_operator(expr).endswith("++") else "-"
            comp = tm.promote(xs)
            one = fn.const_scalar(1, comp)
            return self._atomic_rmw(p, target, lambda cur, s: fn.convert(
                fn.expr.arith(op, fn.convert(cur, s, comp), one, comp, expr), comp, s),
                float_add=1.0 if op == "+" else -1.0)
        if expr.kind == K.COMPOUND_ASSIGNMENT_OPERATOR:
            op = cs.binary_operator(expr)[:-1]
            target, value = cs.children(expr)
            return self._atomic_binary(p, target, value, op, True, expr)
        if expr.kind == K.BINARY_OPERATOR and cs.binary_operator(expr) == "=":
            target, value = cs.children(expr)
            rhs = cs.strip_implicit(value)
            if rhs.kind == K.BINARY_OPERATOR and cs.binary_operator(rhs) in _ATOMIC_OPS:
                a, b = cs.children(rhs)
                if _same_object(a, target):
                    return self._atomic_binary(p, target, b, cs.binary_operator(rhs), True, rhs)
                if _same_object(b, target):
                    return self._atomic_binary(p, target, a, cs.binary_operator(rhs), False, rhs)
            if allow_write:  # a capture's `x = expr`: swap in the new value
                return self._atomic_swap(p, target, value)
        raise self._atomic_shape(p, where, shape)

    def _atomic_binary(self, p: Pragma, target: ci.Cursor, value: ci.Cursor, op: str,
                       x_first: bool, where: ci.Cursor):
        fn = self.fn
        if op not in _ATOMIC_OPS:
            raise p.error(f"unsupported C construct: operator '{op}' in omp atomic")
        xs, vs = scalar_of(target.type), scalar_of(value.type)
        if xs is None or vs is None:
            raise self._atomic_shape(p, where, "an arithmetic variable or element")
        comp = tm.promote(xs) if op in ("<<", ">>") else tm.usual_arithmetic(xs, vs)
        if xs.is_float and (op not in ("+", "-") or (op == "-" and not x_first) or comp != xs):
            raise p.error("unsupported C construct: omp atomic on a floating-point object "
                          "supports 'x += e', 'x -= e', 'x++' and 'x--' with e of x's type "
                          "(use a reduction clause for other operators)")
        v = fn.convert(fn.expr.rvalue(value), vs, comp)  # evaluated once, before the update

        def new(cur: ir.Value, s: Scalar) -> ir.Value:
            x = fn.convert(cur, s, comp)
            return fn.convert(fn.expr.arith(op, x, v, comp, where) if x_first
                              else fn.expr.arith(op, v, x, comp, where), comp, s)
        addend = None
        if xs.is_float:
            addend = v if op == "+" else arith.NegFOp(v).result
        return self._atomic_rmw(p, target, new, float_add=addend)

    def _atomic_swap(self, p: Pragma, target: ci.Cursor, value: ci.Cursor):
        """``x = e`` done atomically: the old value comes back."""
        fn = self.fn
        xs, vs = scalar_of(target.type), scalar_of(value.type)
        if xs is None or vs is None:
            raise p.error("omp atomic needs a scalar variable or an array element")
        v = fn.convert(fn.expr.rvalue(value), vs, xs)
        return self._atomic_rmw(p, target, lambda cur, s: v, float_add=v, float_kind="assign")

    def _atomic_rmw(self, p: Pragma, target: ci.Cursor, update, float_add=None,
                    float_kind: str = "addf"):
        """``memref.generic_atomic_rmw`` on the object ``target`` names; ``update(cur,
        scalar)`` builds the new value inside its block. Returns (old, new, scalar), where
        ``new()`` recomputes the new value from the old one after the op (for a capture).

        A floating-point object takes ``memref.atomic_rmw`` instead (``addf`` of
        ``float_add``, or ``assign``): the compare-and-swap loop the generic op lowers to
        exists for integers only. Adding -0.0 is the identity, so a read is an add. A
        swap is ``assign`` for every type (the generic op's lowering cannot yield a value
        defined outside its block)."""
        fn = self.fn
        xs = scalar_of(target.type)
        lv = fn.expr.lvalue(target)
        if xs is None or lv.memref is None or \
                ir.MemRefType(lv.memref.type).rank != len(lv.indices):
            raise p.error("omp atomic needs a scalar variable or an array element")
        if xs.is_float or float_kind == "assign":  # a swap is `assign` for every type
            if float_add is None:
                raise p.error("unsupported C construct: this omp atomic on a floating-point object")
            if not isinstance(float_add, ir.Value):
                float_add = fn.const_scalar(float_add, xs)
            kind = getattr(arith.AtomicRMWKind, float_kind)
            old = memref.AtomicRMWOp(kind, float_add, lv.memref, list(lv.indices)).result
            return old, lambda: update(old, xs), xs
        rmw = memref.GenericAtomicRMWOp(xs.mlir(), lv.memref, list(lv.indices))
        block = rmw.atomic_body.blocks.append(xs.mlir())
        with ir.InsertionPoint(block):
            memref.AtomicYieldOp(update(block.arguments[0], xs))
        old = rmw.result
        return old, lambda: update(old, xs), xs

    def _assign_value(self, target: ci.Cursor, value: ir.Value, vs: Scalar, where: ci.Cursor) -> None:
        fn = self.fn
        ts = scalar_of(target.type)
        lv = fn.expr.lvalue(target)
        fn.expr.store(lv, fn.convert(value, vs, ts), where)

    @staticmethod
    def _atomic_shape(p: Pragma, where: ci.Cursor, expected: str):
        return p.error(f"unsupported C construct: this statement under omp atomic (expected {expected})")

    # ------------------------------------------------------------------ tasks

    def task(self, p: Pragma, body, stmt: ci.Cursor):
        """``#pragma omp task``: an ``omp.task`` whose region holds the statement.

        Data sharing as OpenMP says when no clause names a variable: globals, and
        variables still bound as they were when the enclosing ``parallel`` began, are
        shared; every other variable the task uses is firstprivate (its value is read when
        the task is created and the task works on a copy of its own). Arrays are never
        copied: a task uses them where they are. ``depend`` items name the variable they
        order on; ``if``, ``final`` and ``priority`` keep their values on the op."""
        fn = self.fn
        shared, copied, private = self._task_sharing(p, stmt)
        with fn.loc_of_pragma(p):
            captured = [(key, var, fn.load(var.value)) for key, var in copied]
            depend_vars, depend_kinds = [], []
            for clause in p.all("depend"):
                if clause.modifier not in DEPEND_KINDS:
                    raise p.error(f"unsupported C construct: depend({clause.modifier}: ...) "
                                  "(in, out and inout are supported)")
                for item in clause.args:
                    name = depend_base(item)
                    if not name:
                        raise p.error(f"depend item '{item}' does not name a variable")
                    depend_vars.append(self._depend_target(p, item, name))
                    depend_kinds.append(ir.Attribute.parse(
                        f"#omp<clause_task_depend({DEPEND_KINDS[clause.modifier]})>"))
            attrs = {}
            if depend_kinds:
                attrs["depend_kinds"] = ir.ArrayAttr.get(depend_kinds)
            for name in ("if", "final"):
                if p.clause(name):
                    attrs["if_expr" if name == "if" else name] = self._condition(p, p.clause(name).args[0])
            if p.clause("priority"):
                attrs["priority"] = arith.TruncIOp(fn.types.i(32), self._clause_expr(p, p.clause("priority").args[0])).result
            for name in ("untied", "mergeable"):
                if p.clause(name):
                    attrs[name] = ir.UnitAttr.get()
            op = omp.TaskOp([], [], depend_vars, [], [], **attrs)
            block = op.region.blocks.append()
        with ir.InsertionPoint(block), ExitStack() as stack, fn.omp_region(block):
            with fn.loc_of_pragma(p):
                for key, var, value in captured:
                    fresh = fn.alloca(var.value.type)
                    memref.StoreOp(value, fresh, [])
                    stack.enter_context(fn.rebind(key, Var("mem", var.ctype, fresh)))
                for key, var in private:
                    stack.enter_context(fn.rebind(key, Var("mem", var.ctype, fn.alloca(var.value.type))))
            body()
            with fn.loc_of_pragma(p):
                omp.TerminatorOp()
        return op

    #: Chunks of a taskloop without grainsize or num_tasks.
    TASKLOOP_DEFAULT_TASKS = 64

    def taskloop(self, p: Pragma, stmt: ci.Cursor) -> None:
        """``#pragma omp taskloop``: the loop's iterations in chunks, one task per chunk
        (``grainsize(g)`` iterations each, or ``num_tasks(n)`` chunks, else
        TASKLOOP_DEFAULT_TASKS), created in order by the encountering thread, in a
        taskgroup unless ``nogroup``. The tasks take the data sharing of ``task``; the
        chunk's bounds are values of the creating loop."""
        fn = self.fn
        if p.clause("grainsize") and p.clause("num_tasks"):
            raise p.error("grainsize and num_tasks are exclusive on omp taskloop")
        (loop, (lb, ub, step, start)), = self._prepare_loops(p, stmt)
        with fn.loc_of_pragma(p):
            trips = arith.CeilDivSIOp(arith.SubIOp(ub, lb).result, step).result
            trips = arith.MaxSIOp(trips, fn.const_index(0)).result
            one = fn.const_index(1)
            if p.clause("grainsize"):
                per = self._clause_value(p, p.clause("grainsize").args[0], ir.IndexType.get())
            else:
                tasks = self._clause_value(p, p.clause("num_tasks").args[0], ir.IndexType.get()) \
                    if p.clause("num_tasks") else fn.const_index(self.TASKLOOP_DEFAULT_TASKS)
                tasks = arith.MaxSIOp(tasks, one).result
                per = arith.CeilDivSIOp(trips, tasks).result
            per = arith.MaxSIOp(per, one).result
            stride = arith.MulIOp(per, step).result

        def create() -> None:
            with fn.loc_of_pragma(p):
                chunks = scf.ForOp(lb, ub, stride)
            with ir.InsertionPoint(chunks.body):
                first = chunks.induction_variable
                with fn.loc_of_pragma(p):
                    last = arith.MinSIOp(arith.AddIOp(first, stride).result, ub).result
                op = self.task(p, lambda: fn.stmt.scf_for(loop, (first, last, step, start)), stmt)
                # The chunks write disjoint iterations: the datablock passes let them share
                # what they write, as the chunks of an `omp for` do.
                op.operation.attributes["arts.taskloop"] = ir.UnitAttr.get()
                scf.YieldOp([])

        if p.clause("nogroup"):
            create()
        else:
            self.taskgroup(p, create)

    def _depend_target(self, p: Pragma, item: str, name: str) -> ir.Value:
        """The memref a depend item orders on: the array of ``a[i]`` / ``a[lo:len]`` (the
        whole array: datablocks are per array until partitioned), the variable ``x``."""
        fn = self.fn
        _, var = self._variable(p, name)
        subscripted = "[" in item
        if var.kind == "ssa" and isinstance(var.value.type, ir.MemRefType):
            if subscripted:
                return var.value
        elif var.kind == "mem":
            mtype = ir.MemRefType(var.value.type)
            if not subscripted or var.is_array:
                return var.value
            if mtype.rank == 0 and isinstance(mtype.element_type, ir.MemRefType):
                return fn.load(var.value)
        raise p.error(f"depend item '{item}': unsupported C construct (a scalar variable, or "
                      "an element or section of an array, is supported)")

    def _task_sharing(self, p: Pragma, stmt: ci.Cursor):
        """(shared, firstprivate, private) variables of a task: lists of (key, Var) for the
        scalars kept in memory that the task's statement uses and does not declare."""
        fn = self.fn
        explicit: dict[tuple, str] = {}
        for clause in p.clauses:
            if clause.name in ("shared", "firstprivate", "private"):
                for name in clause.args:
                    key, _ = self._variable(p, name)
                    explicit[key] = clause.name
        default = p.clause("default").args[0] if p.clause("default") else None
        team = self.team_vars[-1] if self.team_vars else {}
        start, end = stmt.extent.start.offset, stmt.extent.end.offset
        seen: set[tuple] = set()
        shared, copied, private = [], [], []
        for c in cs.walk(stmt):
            if c.kind != K.DECL_REF_EXPR:
                continue
            decl = referenced_decl(c)
            if decl is None:
                continue
            key = decl_key(decl)
            if key in seen:
                continue
            seen.add(key)
            loc = decl.location
            if loc.file is not None and loc.file.name == stmt.location.file.name and \
                    start <= loc.offset < end:
                continue  # declared inside the task
            var = fn.vars.get(key)
            if var is None or var.kind == "global":
                continue  # globals are shared
            kind = explicit.get(key)
            if kind is None:
                if default == "none":
                    raise p.error(f"'{decl.spelling}' not specified in enclosing 'task' "
                                  "(default(none))")
                kind = "shared" if default == "shared" or team.get(key) is var.value else "firstprivate"
            if var.is_array and kind == "firstprivate":
                raise p.error(f"'{decl.spelling}' is an array the task would copy "
                              "(firstprivate): not supported; name it in shared(...) if the "
                              "task may use it in place")
            if var.is_array and kind == "private" and var.kind == "mem":
                private.append((key, var))  # a fresh array of the task's own
                continue
            if var.kind != "mem" or var.is_array:
                continue  # values are copied anyway; shared arrays are used in place
            if ir.MemRefType(var.value.type).rank:
                continue
            (shared if kind == "shared" else copied if kind == "firstprivate" else private).append((key, var))
        for key, kind in explicit.items():
            if key not in seen and kind == "private":
                var = fn.vars.get(key)
                if var is not None and var.kind == "mem":
                    private.append((key, var))
        return shared, copied, private

    def _condition(self, p: Pragma, text: str) -> ir.Value:
        """An ``if``/``final`` clause argument as an ``i1``."""
        value = self._clause_expr(p, text)
        zero = self.fn.const_int(0, self.fn.types.i(64))
        return arith.CmpIOp(arith.CmpIPredicate.ne, value, zero).result

    def _clause_expr(self, p: Pragma, text: str) -> ir.Value:
        """An integer clause expression as an ``i64``: literals, macros and integer
        variables combined with ``+ - * / %``, comparisons, ``&& || !`` and parentheses."""
        fn = self.fn
        i64 = Scalar("int", 64)
        expanded = text
        for _ in range(20):  # object-like macros, in place (the operators stay as written)
            done = re.sub(r"[A-Za-z_]\w*", lambda m: "(" + " ".join(fn.module.macros[m.group(0)]) + ")"
                          if m.group(0) in fn.module.macros else m.group(0), expanded)
            if done == expanded:
                break
            expanded = done
        py = re.sub(r"!(?!=)", " not ", expanded.replace("&&", " and ").replace("||", " or "))
        py = re.sub(r"(?<=\d)[uUlL]+\b", "", py)
        try:
            tree = ast.parse(py.strip(), mode="eval").body
        except SyntaxError:
            raise p.error(f"unsupported C construct: clause expression '{text}'") from None

        def bool_of(v: ir.Value) -> ir.Value:
            return arith.CmpIOp(arith.CmpIPredicate.ne, v, fn.const_int(0, fn.types.i(64))).result

        def int_of(b: ir.Value) -> ir.Value:
            return arith.ExtUIOp(fn.types.i(64), b).result

        def ev(node) -> ir.Value:
            if isinstance(node, ast.Constant) and isinstance(node.value, int):
                return fn.const_int(node.value, fn.types.i(64))
            if isinstance(node, ast.Name):
                _, var = self._variable(p, node.id)
                sc = scalar_of(var.ctype)
                if sc is None or sc.is_float:
                    raise p.error(f"clause variable '{node.id}' must be an integer")
                v = var.value if var.kind == "ssa" else fn.iv_value(var) if var.kind == "iv" \
                    else memref.LoadOp(var.value, []).result
                return fn.convert(v, sc, i64)
            if isinstance(node, ast.UnaryOp):
                v = ev(node.operand)
                if isinstance(node.op, ast.USub):
                    return arith.SubIOp(fn.const_int(0, fn.types.i(64)), v).result
                if isinstance(node.op, ast.UAdd):
                    return v
                if isinstance(node.op, ast.Not):
                    return int_of(arith.XOrIOp(bool_of(v), fn.const_int(1, ir.IntegerType.get_signless(1))).result)
            if isinstance(node, ast.BinOp):
                ops = {ast.Add: arith.AddIOp, ast.Sub: arith.SubIOp, ast.Mult: arith.MulIOp,
                       ast.Div: arith.DivSIOp, ast.FloorDiv: arith.DivSIOp, ast.Mod: arith.RemSIOp}
                if type(node.op) in ops:
                    return ops[type(node.op)](ev(node.left), ev(node.right)).result
            if isinstance(node, ast.BoolOp):
                values = [bool_of(ev(v)) for v in node.values]
                combine = arith.AndIOp if isinstance(node.op, ast.And) else arith.OrIOp
                out = values[0]
                for v in values[1:]:
                    out = combine(out, v).result
                return int_of(out)
            if isinstance(node, ast.Compare) and len(node.ops) == 1:
                preds = {ast.Lt: "slt", ast.LtE: "sle", ast.Gt: "sgt", ast.GtE: "sge",
                         ast.Eq: "eq", ast.NotEq: "ne"}
                if type(node.ops[0]) in preds:
                    pred = getattr(arith.CmpIPredicate, preds[type(node.ops[0])])
                    return int_of(arith.CmpIOp(pred, ev(node.left), ev(node.comparators[0])).result)
            raise p.error(f"unsupported C construct: clause expression '{text}'")

        return ev(tree)

    def taskgroup(self, p: Pragma, body) -> None:
        fn = self.fn
        with fn.loc_of_pragma(p):
            op = omp.TaskgroupOp([], [], [])
            block = op.region.blocks.append()
        self._fill(p, block, body)

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

    def worksharing_loop(self, p: Pragma, stmt: ci.Cursor, loops, last=None) -> None:
        fn = self.fn
        with ExitStack() as stack:
            with fn.loc_of_pragma(p):
                if p.directive == "for":
                    last = self._lastprivate_targets(p)
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
                if p.clause("ordered"):
                    if p.clause("ordered").args:
                        raise p.error("unsupported C construct: ordered(n) (doacross loops); "
                                      "the 'ordered' clause without a count is supported")
                    attrs["ordered"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 0)
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
                with pushed(fn.loops, flags), fn.omp_region(), \
                        pushed(self._ordered_loops, p.clause("ordered") is not None):
                    fn.stmt.body(innermost.body)
                if last:
                    with fn.loc_of_pragma(p):
                        self._copy_out_last(loops, body_block.arguments, last)
                omp.YieldOp([])

    # ------------------------------------------------------------------ data sharing

    def _lastprivate_targets(self, p: Pragma) -> list[tuple[tuple, Var]]:
        """The variables of ``lastprivate(...)`` as they are outside the construct."""
        out = []
        for clause in p.all("lastprivate"):
            for name in clause.args:
                key, var = self._variable(p, name)
                if var.kind != "mem" or scalar_of(var.ctype) is None:
                    raise p.error(f"lastprivate variable '{name}' must be a scalar variable")
                out.append((key, var))
        return out

    def _copy_out_last(self, loops, ivs, last: list[tuple[tuple, Var]]) -> None:
        """``lastprivate``: the iteration that is last in sequential order stores its
        private copies into the variables outside. The last index value of a loop
        ``lb .. ub step s`` is ``lb + ((ub - lb - 1) / s) * s``."""
        fn = self.fn
        is_last = None
        for (_, (lb, ub, step, _start)), iv in zip(loops, ivs):
            span = arith.SubIOp(arith.SubIOp(ub, lb).result, fn.const_index(1)).result
            final = arith.AddIOp(lb, arith.MulIOp(arith.DivSIOp(span, step).result, step).result).result
            here = arith.CmpIOp(arith.CmpIPredicate.eq, iv, final).result
            is_last = here if is_last is None else arith.AndIOp(is_last, here).result
        if_op = scf.IfOp(is_last)
        with ir.InsertionPoint(if_op.then_block):
            for key, outer in last:
                mine = fn.vars[key]
                memref.StoreOp(memref.LoadOp(mine.value, []).result, outer.value, [])
            scf.YieldOp([])

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
        firstprivate = {n for c in p.all("firstprivate") for n in c.args}
        for clause in p.clauses:
            if clause.name not in ("private", "firstprivate", "lastprivate"):
                continue
            for name in clause.args:
                if clause.name == "lastprivate" and name in firstprivate:
                    continue  # the firstprivate copy is the one copied out
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
                section = name.strip()
                if "[" in section:  # `a[:n]`, `a[0:n]`: the whole array, element by element
                    key, var = self._array_section(p, section)
                    s = scalar_of(var.ctype.get_array_element_type())
                else:
                    key, var = self._variable(p, name)
                    s = scalar_of(var.ctype)
                    if var.kind != "mem" or s is None:
                        raise p.error(f"reduction variable '{name}' must be a scalar variable")
                if s.is_float and clause.modifier in ("&", "|", "^", "&&", "||"):
                    raise p.error(f"reduction({clause.modifier}: {name}) needs an integer "
                                  "variable")
                sym = self.fn.module.reduction(_REDUCTION_OPS[clause.modifier], s, p)
                out.append((key, var.value, var.ctype, sym))
        return out

    def _array_section(self, p: Pragma, text: str) -> tuple[tuple, Var]:
        """``a[:n]`` / ``a[0:n]`` of a reduction: a local 1-D array of at most 64 elements,
        the section its whole (the partials are kept per element)."""
        m = re.fullmatch(r"([A-Za-z_]\w*)\s*\[\s*([^:\]]*)\s*:\s*([^\]]*)\]", text)
        if not m:
            raise p.error(f"unsupported C construct: array-section reduction '{text}' (a section "
                          "'a[:n]' of a whole local array is supported)")
        key, var = self._variable(p, m.group(1))
        mtype = ir.MemRefType(var.value.type) if isinstance(var.value.type, ir.MemRefType) else None
        if var.kind != "mem" or not tm.is_array(var.ctype) or mtype is None or mtype.rank != 1 or \
                scalar_of(var.ctype.get_array_element_type()) is None:
            raise p.error(f"unsupported C construct: array-section reduction '{text}' on "
                          "something other than a local 1-D array")
        start = self._constant(p, m.group(2)) if m.group(2).strip() else 0
        length = self._constant(p, m.group(3)) if m.group(3).strip() else mtype.shape[0]
        if start != 0 or length != mtype.shape[0] or length > 64:
            raise p.error(f"unsupported C construct: array-section reduction '{text}' (the "
                          "section must be the whole array, of at most 64 elements)")
        return key, var

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
