"""``#pragma omp atomic``: one statement, one atomic memref op.

Apart from the constructs because it builds no region: it matches the statement forms
OpenMP allows (read ``v = x``, write ``x = e``, update ``x++``/``x op= e``/``x = x op e``,
and the captures of these) and emits the access to the shared location as a
``memref.generic_atomic_rmw`` (integers) or a ``memref.atomic_rmw`` (floating point, and
every swap).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import clang.cindex as ci
from mlir import ir
from mlir.dialects import arith, memref
from mlir.dialects import openmp as omp

from . import clang_support as cs
from . import typemap as tm
from .cursor_queries import decl_key
from .pragmas import Pragma
from .typemap import Scalar, scalar_of

if TYPE_CHECKING:
    from .function import FunctionEmitter

K = ci.CursorKind
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


class AtomicEmitter:
    """Emits the atomic statements of one function."""

    def __init__(self, fn: "FunctionEmitter") -> None:
        self.fn = fn

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
        if p.clause("compare"):
            if kind == "capture":
                self._atomic_compare_capture(p, body)
            else:
                self._atomic_compare(p, body)
            return
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
                    self._assign_value(target, old, scalar_of(value.type), stmt)
                else:  # x read in its own type, then converted to v's as `v = x` does
                    old = self._atomic_rmw(p, ref, lambda cur, s: cur, float_add=-0.0)[0]
                    self._assign_value(target, old, scalar_of(ref.type), stmt)
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

    _COMPARE_SHAPE = ("'x = e < x ? e : x;', 'x = x == e ? d : x;', 'if (e < x) { x = e; }' or "
                      "'if (x == e) { x = d; }' (< or > in either order)")

    def _compare_parts(self, p: Pragma, stmt: ci.Cursor):
        """An atomic compare statement as (x, comparison, the operand compared with x,
        whether x is its left side, the value x gets when it holds)."""
        if stmt.kind == K.IF_STMT:
            kids = cs.children(stmt)
            if len(kids) != 2:  # no else
                raise self._atomic_shape(p, stmt, self._COMPARE_SHAPE)
            cond, then = cs.strip_parens(kids[0]), cs.strip_parens(kids[1])
            if then.kind == K.COMPOUND_STMT:
                inner = cs.children(then)
                if len(inner) != 1:
                    raise self._atomic_shape(p, stmt, self._COMPARE_SHAPE)
                then = cs.strip_parens(inner[0])
            if then.kind != K.BINARY_OPERATOR or cs.binary_operator(then) != "=":
                raise self._atomic_shape(p, stmt, self._COMPARE_SHAPE)
            x, value = cs.children(then)
        elif stmt.kind == K.BINARY_OPERATOR and cs.binary_operator(stmt) == "=":
            x, rhs = cs.children(stmt)
            rhs = cs.strip_parens(cs.strip_implicit(rhs))
            if rhs.kind != K.CONDITIONAL_OPERATOR:
                raise self._atomic_shape(p, stmt, self._COMPARE_SHAPE)
            cond, value, otherwise = [cs.strip_parens(k) for k in cs.children(rhs)]
            if not _same_object(otherwise, x):
                raise self._atomic_shape(p, stmt, self._COMPARE_SHAPE)
        else:
            raise self._atomic_shape(p, stmt, self._COMPARE_SHAPE)
        cond = cs.strip_parens(cs.strip_implicit(cond))
        if cond.kind != K.BINARY_OPERATOR or cs.binary_operator(cond) not in ("<", ">", "=="):
            raise self._atomic_shape(p, stmt, self._COMPARE_SHAPE)
        a, b = cs.children(cond)
        if _same_object(a, x):
            other, x_left = b, True
        elif _same_object(b, x):
            other, x_left = a, False
        else:
            raise self._atomic_shape(p, stmt, self._COMPARE_SHAPE)
        op = cs.binary_operator(cond)
        if op != "==" and not _same_object(value, other):  # min/max: x becomes what it lost to
            raise self._atomic_shape(p, stmt, self._COMPARE_SHAPE)
        return x, op, other, x_left, value

    def _atomic_compare(self, p: Pragma, stmt: ci.Cursor):
        """``#pragma omp atomic compare``: x replaced by a value when a comparison with it
        holds, in one read-modify-write. The operands are evaluated before it; a
        floating-point x supports the min/max forms (``memref.atomic_rmw`` minnumf/maxnumf).
        Returns (old, new(), scalar of x), as ``_atomic_rmw``."""
        fn = self.fn
        x, op, other, x_left, value = self._compare_parts(p, stmt)
        xs, os_, vs = scalar_of(x.type), scalar_of(other.type), scalar_of(value.type)
        if xs is None or os_ is None or vs is None:
            raise self._atomic_shape(p, stmt, "an arithmetic variable or element")
        if xs.is_float:
            if op == "==":
                raise p.error("unsupported C construct: omp atomic compare of a floating-point "
                              "object for equality (min and max forms are supported)")
            bound = fn.convert(fn.expr.rvalue(other), os_, xs)
            # x < e ? -> x = e: the larger (max); x > e ? -> the smaller (min)
            larger = (op == "<") == x_left
            lv = fn.expr.lvalue(x)
            if lv.memref is None or ir.MemRefType(lv.memref.type).rank != len(lv.indices):
                raise p.error("omp atomic needs a scalar variable or an array element")
            _check_slot(p, lv, xs)
            kind = arith.AtomicRMWKind.maxnumf if larger else arith.AtomicRMWKind.minnumf
            old = memref.AtomicRMWOp(kind, bound, lv.memref, list(lv.indices)).result
            combine = arith.MaxNumFOp if larger else arith.MinNumFOp
            return old, lambda: combine(old, bound).result, xs
        comp = tm.usual_arithmetic(xs, os_)
        against = fn.convert(fn.expr.rvalue(other), os_, comp)
        # min/max: x becomes the operand it lost to; a swap: the value the statement names
        new = fn.convert(against, comp, xs) if op != "==" else \
            fn.convert(fn.expr.rvalue(value), vs, xs)
        pred = {"<": "ult" if comp.unsigned else "slt", ">": "ugt" if comp.unsigned else "sgt",
                "==": "eq"}[op]

        def update(cur: ir.Value, s: Scalar) -> ir.Value:
            current = fn.convert(cur, s, comp)
            lhs, rhs = (current, against) if x_left else (against, current)
            holds = arith.CmpIOp(getattr(arith.CmpIPredicate, pred), lhs, rhs).result
            return arith.SelectOp(holds, new, cur).result
        return self._atomic_rmw(p, x, update)

    def _atomic_compare_capture(self, p: Pragma, block: ci.Cursor) -> None:
        """``{ v = x; <compare>; }`` (v gets the value x had) or ``{ <compare>; v = x; }``
        (the value it has after), the compare one of ``_atomic_compare``'s statements."""
        shape = "'{ v = x; <compare statement> }' or '{ <compare statement> v = x; }'"
        if block.kind != K.COMPOUND_STMT:
            raise self._atomic_shape(p, block, shape)
        kids = [cs.strip_parens(k) for k in cs.children(block)]
        if len(kids) != 2:
            raise self._atomic_shape(p, block, shape)

        def read_of(k: ci.Cursor) -> ci.Cursor | None:
            if k.kind != K.BINARY_OPERATOR or cs.binary_operator(k) != "=":
                return None
            source = cs.strip_implicit(cs.children(k)[1])
            return source if source.kind in (K.DECL_REF_EXPR, K.ARRAY_SUBSCRIPT_EXPR) else None

        def is_compare(k: ci.Cursor) -> bool:
            if k.kind == K.IF_STMT:
                return True
            return k.kind == K.BINARY_OPERATOR and cs.binary_operator(k) == "=" and \
                cs.strip_parens(cs.strip_implicit(cs.children(k)[1])).kind == K.CONDITIONAL_OPERATOR

        for read, compare, after in ((kids[0], kids[1], False), (kids[1], kids[0], True)):
            source = read_of(read)
            if source is None or not is_compare(compare):
                continue
            x = self._compare_parts(p, compare)[0]
            if _same_object(source, x):
                old, new, xs = self._atomic_compare(p, compare)
                self._assign_value(cs.children(read)[0], new() if after else old, xs, block)
                return
        raise self._atomic_shape(p, block, shape)

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
        if ir.MemRefType(lv.memref.type).element_type != xs.mlir():
            return self._slot_update(p, lv, target, update, xs)
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

    def _slot_update(self, p: Pragma, lv, target: ci.Cursor, update, xs: Scalar):
        """The atomic update of a field of a struct whose fields have different types (its
        slot holds the field's bits in an i64, which no atomic operation of the field's
        type reaches) as a critical section of its own: every atomic on such fields takes
        it, so they exclude each other. Returns (old, new(), scalar) as ``_atomic_rmw``."""
        fn = self.fn
        sym = fn.module.critical_name("carts_atomic_fields", p)
        kept = fn.alloca(ir.MemRefType.get([], xs.mlir()))
        op = omp.CriticalOp(name=ir.FlatSymbolRefAttr.get(sym))
        with ir.InsertionPoint(op.region.blocks.append()):
            current = fn.expr.load(lv, target)
            memref.StoreOp(current, kept, [])
            fn.expr.store(lv, update(current, xs), target)
            omp.TerminatorOp()
        old = memref.LoadOp(kept, []).result
        return old, lambda: update(old, xs), xs

    def _assign_value(self, target: ci.Cursor, value: ir.Value, vs: Scalar, where: ci.Cursor) -> None:
        fn = self.fn
        ts = scalar_of(target.type)
        lv = fn.expr.lvalue(target)
        fn.expr.store(lv, fn.convert(value, vs, ts), where)

    @staticmethod
    def _atomic_shape(p: Pragma, where: ci.Cursor, expected: str):
        return p.error(f"unsupported C construct: this statement under omp atomic (expected {expected})")


def _check_slot(p: Pragma, lv, xs: Scalar) -> None:
    """An atomic operation works on the object's own type: not on a field of a struct
    whose fields have different types, whose slot holds the field's bits in an i64."""
    if ir.MemRefType(lv.memref.type).element_type != xs.mlir():
        raise p.error("unsupported C construct: omp atomic on a field of a struct whose fields "
                      "have different types (update it in a critical section)")
