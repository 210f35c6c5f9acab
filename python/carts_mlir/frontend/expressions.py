"""C expressions -> ``arith``/``math``/``memref``/``scf`` values.

``ExprEmitter`` dispatches on the kind of an expression and emits the leaves (literals,
``sizeof``, variable references) and array initialisers itself.  The rest is split by
concern into the mixins it is made of: ``lvalues`` (objects, loads and stores, pointer
walks), ``conversions`` (casts and pointer representations) and ``operators``; calls go
to a ``CallEmitter`` (``calls``) and constant expressions are folded (``folding``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import clang.cindex as ci
from mlir import ir
from mlir.dialects import arith, memref, scf

from . import clang_support as cs
from . import typemap as tm
from .calls import CallEmitter
from .conversions import Conversions
from .cursor_queries import flatten_init, is_local_decl
from .folding import ConstantExpressions
from .lvalues import MemoryAccess
from .operators import Operators
from .typemap import scalar_of

if TYPE_CHECKING:
    from .function import FunctionEmitter

K = ci.CursorKind
TK = ci.TypeKind


class ExprEmitter(MemoryAccess, Conversions, Operators):
    """Emits the expressions of one function."""

    def __init__(self, fn: "FunctionEmitter") -> None:
        self.fn = fn
        self.types = fn.types
        self.calls = CallEmitter(self)
        self.constants = ConstantExpressions()
        self._rvalue: dict[ci.CursorKind, Callable[[ci.Cursor], ir.Value | None]] = {
            K.INTEGER_LITERAL: self._literal,
            K.FLOATING_LITERAL: self._literal,
            K.CHARACTER_LITERAL: self._literal,
            K.CXX_UNARY_EXPR: self._sizeof,
            K.DECL_REF_EXPR: self._declref,
            K.PAREN_EXPR: lambda c: self.rvalue(cs.children(c)[0]),
            K.UNEXPOSED_EXPR: self._implicit_cast,
            K.CSTYLE_CAST_EXPR: self._explicit_cast,
            K.BINARY_OPERATOR: self._binary,
            K.COMPOUND_ASSIGNMENT_OPERATOR: self._compound_assign,
            K.UNARY_OPERATOR: self._unary,
            K.ARRAY_SUBSCRIPT_EXPR: lambda c: self.load(self.lvalue(c), c),
            K.MEMBER_REF_EXPR: lambda c: self.load(self.lvalue(c), c),
            K.CALL_EXPR: lambda c: self.calls.call(c),
            K.CONDITIONAL_OPERATOR: self._conditional,
        }

    # ------------------------------------------------------------------ entry points

    def rvalue(self, c: ci.Cursor) -> ir.Value | None:
        """The value of expression ``c`` in its C type (None for void)."""
        handler = self._rvalue.get(c.kind)
        if handler is None:
            raise cs.unsupported(c, cs.describe(c))
        with self.fn.loc(c):
            if self.constants.foldable(c):
                # `DIM / N_HEADS`, `1.0f / 997.0f`: C constant expressions, folded by clang
                # (in the expression's own type, so the value is the one the program sees).
                value = cs.evaluate(c)
                s = scalar_of(c.type)
                if isinstance(value, (int, float)) and s is not None:
                    return self.fn.const_scalar(value, s)
            return handler(c)

    def discard(self, c: ci.Cursor) -> None:
        """Evaluate for side effects only (expression statements)."""
        s = cs.strip_parens(c)
        if s.kind == K.UNARY_OPERATOR and cs.unary_operator(s) in ("post++", "post--"):
            with self.fn.loc(s):
                self._incdec(s, "pre" + cs.unary_operator(s)[4:])
            return
        if s.kind == K.CSTYLE_CAST_EXPR and tm.is_void(s.type):
            self.discard(cs.cast_operand(s))
            return
        if s.kind == K.CALL_EXPR:
            with self.fn.loc(s):
                self.calls.call(s, discard=True)
            return
        self.rvalue(c)

    # ------------------------------------------------------------------ leaves

    def _literal(self, c: ci.Cursor) -> ir.Value:
        value = cs.evaluate(c)
        s = scalar_of(c.type)
        if value is None or s is None or isinstance(value, bytes):
            raise cs.unsupported(c, cs.describe(c))
        return self.fn.const_scalar(value, s)

    def _sizeof(self, c: ci.Cursor) -> ir.Value:
        value = cs.evaluate(c)
        s = scalar_of(c.type)
        if isinstance(value, int) and s is not None:
            return self.fn.const_scalar(value, s)
        operand = [k for k in cs.children(c) if k.kind.is_expression()]
        if s is None or len(operand) != 1 or not tm.is_array(operand[0].type):
            raise cs.unsupported(c, "sizeof of a variable-length type (sizeof of a "
                                 "variable-length array variable is supported)")
        # a variable-length array: its extents at run time times its element's size
        lv = self.lvalue(operand[0])
        if lv.memref is None:
            raise cs.unsupported(c, "sizeof of this variable-length array")
        mtype = ir.MemRefType(lv.memref.type)
        elem = tm.canon(operand[0].type)
        while tm.is_array(elem):
            elem = tm.canon(elem.element_type)
        total = self.fn.const_index(elem.get_size())
        for d in range(len(lv.indices), mtype.rank):
            total = arith.MulIOp(total, memref.DimOp(lv.memref, self.fn.const_index(d)).result).result
        return self.fn.from_index(total, s)

    def _declref(self, c: ci.Cursor) -> ir.Value:
        decl = c.referenced
        if decl is None:
            raise cs.unsupported(c, f"reference to '{c.spelling}'")
        if decl.kind == K.ENUM_CONSTANT_DECL:
            return self.fn.const_scalar(decl.enum_value, scalar_of(c.type) or tm.INT)
        if decl.kind == K.FUNCTION_DECL:
            raise cs.unsupported(c, "function pointer")
        if decl.kind == K.VAR_DECL and not is_local_decl(decl) and decl.location.is_in_system_header:
            return self.fn.module.library_global(decl, c)
        var = self.fn.lookup(decl, c)
        if var.kind == "walk" or var.offset is not None:
            raise cs.unsupported(c, f"pointer '{c.spelling}' into the middle of an array used "
                                 "as a value (index it, or pass the array and the index)")
        if var.kind == "ssa":
            return var.value
        if var.kind == "iv":
            return self.fn.iv_value(var)
        if var.is_array:
            raise cs.unsupported(c, "array used as a value")
        at = [] if var.lead is None else [var.lead]
        return self.fn.from_memory(memref.LoadOp(var.value, at).result, var.ctype)

    # ------------------------------------------------------------------ initialisers

    def initialize_array(self, slot: ir.Value, ctype: ci.Type, init: ci.Cursor) -> None:
        """``T a[N][M] = {...}``: zero-fill when the list is partial, then store each
        given element."""
        mtype = ir.MemRefType(slot.type)
        shape = list(mtype.shape)
        total = 1
        for d in shape:
            total *= d
        elements: list[tuple[tuple[int, ...], ci.Cursor]] = []
        s = cs.strip_parens(init)
        if s.kind == K.STRING_LITERAL:
            data = cs.string_literal_bytes(s)
            if not isinstance(data, bytes):
                raise cs.unsupported(s, "wide string literal")
            data = (data + b"\0")[: shape[0]]
            for k, byte in enumerate(data):
                memref.StoreOp(self.fn.const_int(byte, mtype.element_type), slot, [self.fn.const_index(k)])
            if len(data) < total:
                self.fill(slot, self.fn.zero(mtype.element_type), start=len(data))
            return
        if s.kind != K.INIT_LIST_EXPR:
            raise cs.unsupported(init, "array initialiser that is not a brace list")
        flatten_init(s, shape, (), elements, _struct_element(ctype))
        if len(elements) < total:
            self.fill(slot, self.fn.zero(mtype.element_type))
        elem_scalar = scalar_of(_array_element(ctype))
        for idx, expr in elements:
            if _is_zero_literal(expr) and len(elements) < total:
                continue
            v = self.rvalue(expr)
            if elem_scalar is not None:
                v = self.fn.convert(v, scalar_of(expr.type), elem_scalar)
            memref.StoreOp(self.fn.to_memory(v, slot), slot, [self.fn.const_index(k) for k in idx])

    def fill(self, slot: ir.Value, value: ir.Value, start: int = 0) -> None:
        """Store ``value`` into every element of a static-shape memref (from flat
        position ``start`` for 1-D memrefs)."""
        shape = list(ir.MemRefType(slot.type).shape)

        def nest(dim: int, ivs: list[ir.Value]) -> None:
            if dim == len(shape):
                memref.StoreOp(value, slot, ivs)
                return
            lo = start if len(shape) == 1 else 0
            loop = scf.ForOp(self.fn.const_index(lo), self.fn.const_index(shape[dim]),
                             self.fn.const_index(1))
            with ir.InsertionPoint(loop.body):
                nest(dim + 1, ivs + [loop.induction_variable])
                scf.YieldOp([])

        nest(0, [])


def _is_zero_literal(c: ci.Cursor) -> bool:
    value = cs.evaluate(c)
    return isinstance(value, (int, float)) and value == 0 and not isinstance(value, bool)


def _struct_element(t: ci.Type) -> ci.Type | None:
    """The struct an array of structs (or a struct) keeps as its last dimension."""
    t = _array_element(t)
    return t if tm.struct_fields(t) is not None else None


def _array_element(t: ci.Type) -> ci.Type:
    t = tm.canon(t)
    while t.kind == TK.CONSTANTARRAY:
        t = tm.canon(t.element_type)
    return t
