"""C expressions -> ``arith``/``math``/``memref``/``scf`` values.

Array code stays in memrefs with one load per C subscript level, which is the shape
canonicalize-memrefs pattern-matches: ``a[i][j]`` on a ``float **a`` is

    %row = memref.load %a[%i] : memref<?xmemref<?xf32>>
    %v   = memref.load %row[%j] : memref<?xf32>

while on a fixed array ``float a[N][M]`` it is one ``memref.load %a[%i, %j]``.  Subscripts
become ``index`` values through ``arith.index_cast`` (loop induction variables are used
directly).  ``malloc(n * sizeof(T))`` cast to ``T *`` is ``memref.alloc(n)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

import clang.cindex as ci
from mlir import ir
from mlir.dialects import arith, llvm, memref, scf

from . import clang_support as cs
from . import typemap as tm
from .analysis import SIMPLE_BINARY, flatten_init, is_local_decl, is_null_constant, is_simple
from .calls import CallEmitter
from .typemap import Scalar, scalar_of

if TYPE_CHECKING:
    from .function import FunctionEmitter

K = ci.CursorKind
TK = ci.TypeKind
I1 = Scalar("bool", 1, True)  # a truth value (conditions), not a C type
COMPARISONS = {"<", "<=", ">", ">=", "==", "!="}
_CMPF = {"<": "olt", "<=": "ole", ">": "ogt", ">=": "oge", "==": "oeq", "!=": "une"}
_CMPI_S = {"<": "slt", "<=": "sle", ">": "sgt", ">=": "sge", "==": "eq", "!=": "ne"}
_CMPI_U = {"<": "ult", "<=": "ule", ">": "ugt", ">=": "uge", "==": "eq", "!=": "ne"}
_FOLDABLE_ROOTS = {K.BINARY_OPERATOR, K.UNARY_OPERATOR, K.PAREN_EXPR, K.CSTYLE_CAST_EXPR,
                   K.CONDITIONAL_OPERATOR}


@dataclass
class LValue:
    """A C object: an element of a memref (``indices`` may be a prefix for sub-arrays), or
    the address of an element behind an ``!llvm.ptr``."""

    ctype: ci.Type
    memref: ir.Value | None = None
    indices: tuple[ir.Value, ...] = ()
    ptr: ir.Value | None = None
    elem: ir.Type | None = None


class ExprEmitter:
    def __init__(self, fn: "FunctionEmitter") -> None:
        self.fn = fn
        self.types = fn.types
        self.calls = CallEmitter(self)
        self._constant_cache: dict[tuple, bool] = {}
        self._constant_subtrees: dict[tuple, bool] = {}
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
            raise cs.unsupported(c, _describe(c))
        with self.fn.loc(c):
            if c.kind in _FOLDABLE_ROOTS and self._is_constant(c):
                # `DIM / N_HEADS`, `1.0f / 997.0f`: C constant expressions, folded by clang
                # (in the expression's own type, so the value is the one the program sees).
                value = cs.evaluate(c)
                s = scalar_of(c.type)
                if isinstance(value, (int, float)) and s is not None:
                    return self.fn.const_scalar(value, s)
            return handler(c)

    def _is_constant(self, c: ci.Cursor) -> bool:
        key = cs.node_key(c)
        hit = self._constant_cache.get(key)
        if hit is None:
            hit = _constant_tree(c, self._constant_subtrees)
            self._constant_cache[key] = hit
        return hit

    def discard(self, c: ci.Cursor) -> None:
        """Evaluate for side effects only (expression statements)."""
        s = cs.strip_parens(c)
        if s.kind == K.UNARY_OPERATOR and cs.unary_operator(s) in ("post++", "post--"):
            with self.fn.loc(s):
                self._incdec(s, "pre" + cs.unary_operator(s)[4:])
            return
        if s.kind == K.CSTYLE_CAST_EXPR and tm.is_void(s.type):
            self.discard(_cast_operand(s))
            return
        if s.kind == K.CALL_EXPR:
            with self.fn.loc(s):
                self.calls.call(s, discard=True)
            return
        self.rvalue(c)

    def cond(self, c: ci.Cursor) -> ir.Value:
        """``c`` as an ``i1`` truth value (comparisons and logic without a round trip
        through ``int``)."""
        s = cs.strip_parens(c)
        with self.fn.loc(s):
            if s.kind == K.BINARY_OPERATOR:
                op = cs.binary_operator(s)
                if op in COMPARISONS:
                    return self._compare(s, op)
                if op in ("&&", "||"):
                    return self._logical(s, op)
                if op == ",":
                    a, b = cs.children(s)
                    self.discard(a)
                    return self.cond(b)
            if s.kind == K.UNARY_OPERATOR and cs.unary_operator(s) == "!":
                return self._not(self.cond(cs.children(s)[0]))
            if s.kind == K.UNEXPOSED_EXPR:
                kids = cs.children(s)
                if len(kids) == 1 and tm.is_int(s.type) and tm.is_int(kids[0].type) and \
                        tm.int_width(kids[0].type) <= tm.int_width(s.type):
                    return self.cond(kids[0])  # widening keeps the truth value
            return self.truthy(self.rvalue(s), s.type, s)

    def truthy(self, v: ir.Value, ctype: ci.Type, where: ci.Cursor) -> ir.Value:
        s = scalar_of(ctype)
        if s is not None:
            return self.fn.truthy_scalar(v, s)
        if tm.is_pointer(ctype):
            return self.nonnull(v)
        raise cs.unsupported(where, f"condition of type '{ctype.spelling}'")

    # ------------------------------------------------------------------ lvalues

    def lvalue(self, c: ci.Cursor) -> LValue:
        s = cs.strip_parens(c)
        with self.fn.loc(s):
            if s.kind == K.DECL_REF_EXPR:
                decl = s.referenced
                if decl is None or decl.kind not in (K.VAR_DECL, K.PARM_DECL):
                    raise cs.unsupported(s, f"assignment to '{s.spelling}'")
                var = self.fn.lookup(decl, s)
                if tm.is_array(s.type) and not var.is_array:
                    # A parameter declared as an array (`int a[4][4]`) is a pointer.
                    data = var.value if var.kind == "ssa" else memref.LoadOp(var.value, []).result
                    return LValue(s.type, memref=data)
                if var.kind != "mem":
                    raise cs.unsupported(s, f"modification of '{s.spelling}' here")
                return LValue(s.type, memref=var.value)
            if s.kind == K.UNEXPOSED_EXPR:
                kids = cs.children(s)
                if len(kids) == 1 and tm.canon(kids[0].type).spelling == tm.canon(s.type).spelling:
                    return self.lvalue(kids[0])
            if s.kind == K.ARRAY_SUBSCRIPT_EXPR:
                return self._subscript(s)
            if s.kind == K.MEMBER_REF_EXPR:
                return self._member(s)
            if s.kind == K.UNARY_OPERATOR and cs.unary_operator(s) == "*":
                return self._deref(s)
            if s.kind == K.STRING_LITERAL:
                raise cs.unsupported(s, "string literal used as an array")
            raise cs.unsupported(s, f"{_describe(s)} as an object")

    def _member(self, s: ci.Cursor) -> LValue:
        """``x.f`` / ``p->f`` of a struct kept as an array: the field's element."""
        kids = [k for k in cs.children(s) if k.kind.is_expression()]
        field = s.referenced
        if len(kids) != 1 or field is None:
            raise cs.unsupported(s, "struct member access")
        base = kids[0]
        record = tm.pointee(base.type) if tm.is_pointer(base.type) else base.type
        fields = tm.struct_fields(record)
        if fields is None:
            raise cs.unsupported(s, "struct member access")
        index = [f.spelling for f in fields].index(field.spelling)
        if tm.is_pointer(base.type):  # p->f is p[0].f
            lv = self._element(base, lambda: self.fn.const_index(0), s)
        else:
            lv = self.lvalue(base)
        if lv.memref is None:
            raise cs.unsupported(s, "struct member access through this pointer")
        with self.fn.loc(s):
            return LValue(s.type, memref=lv.memref, indices=lv.indices + (self.fn.const_index(index),))

    def _subscript(self, s: ci.Cursor) -> LValue:
        base, index = cs.children(s)
        if tm.is_int(base.type) and not tm.is_int(index.type):
            base, index = index, base
        return self._element(base, lambda: self.index_of(index), s)

    def _deref(self, s: ci.Cursor) -> LValue:
        operand = cs.strip_parens(cs.children(s)[0])
        if operand.kind == K.BINARY_OPERATOR and cs.binary_operator(operand) in ("+", "-"):
            a, b = cs.children(operand)
            negate = cs.binary_operator(operand) == "-"
            if tm.is_pointer(b.type) and not negate:
                a, b = b, a
            if tm.is_pointer(a.type) and tm.is_int(b.type):
                def offset() -> ir.Value:
                    k = self.index_of(b)
                    return arith.SubIOp(self.fn.const_index(0), k).result if negate else k
                return self._element(a, offset, s)
        return self._element(operand, lambda: self.fn.const_index(0), s)

    def _element(self, pointer: ci.Cursor, index, where: ci.Cursor) -> LValue:
        """``pointer[index()]``: the base is evaluated first (so a chain of subscripts
        reads as a chain of loads), then the index."""
        inner = self._array_operand(pointer)
        if inner is not None:
            lv = self.lvalue(inner)
            if lv.memref is None:
                raise cs.unsupported(where, "subscript of this array")
            return LValue(where.type, memref=lv.memref, indices=lv.indices + (index(),))
        parts = self.pointer_into(pointer)
        if parts is not None:  # `row[k]` for `row = p + off`: p[off + k]
            base, offset = parts
            with self.fn.loc(where):
                return LValue(where.type, memref=base,
                              indices=(arith.AddIOp(offset, index()).result,))
        p = self.rvalue(pointer)
        i = index()
        if _is_llvm_ptr(p):
            elem = self.types.to_mlir(tm.pointee(pointer.type), where)
            i64 = self._index_to_i64(i)
            addr = ir.Operation.create(
                "llvm.getelementptr", results=[p.type], operands=[p, i64],
                attributes={"elem_type": ir.TypeAttr.get(elem),
                            "rawConstantIndices": ir.DenseI32ArrayAttr.get([-2147483648])}).result
            return LValue(where.type, ptr=addr, elem=elem)
        return LValue(where.type, memref=p, indices=(i,))

    def pointer_into(self, c: ci.Cursor) -> tuple[ir.Value, ir.Value] | None:
        """``p + e`` / ``p - e`` (p a pointer held as a memref, or itself such a pointer
        variable) as (the array, the element index): pointer arithmetic becomes index
        arithmetic on the array it points into. None for any other expression."""
        s = cs.strip_implicit(c)
        if s.kind == K.DECL_REF_EXPR and s.referenced is not None:
            var = self.fn.vars.get(cs.node_key(s.referenced))
            if var is not None and var.kind == "walk":
                with self.fn.loc(s):
                    return var.value, memref.LoadOp(var.offset, []).result
            if var is not None and var.offset is not None:
                return var.value, var.offset
            return None
        if s.kind == K.UNARY_OPERATOR and cs.unary_operator(s) in ("pre++", "pre--", "post++", "post--"):
            walked = self._walked(cs.children(s)[0])
            if walked is None:
                return None
            var, ref = walked
            with self.fn.loc(s):
                old = memref.LoadOp(var.offset, []).result
                op = arith.AddIOp if cs.unary_operator(s).endswith("++") else arith.SubIOp
                new = op(old, self.fn.const_index(1)).result
                memref.StoreOp(new, var.offset, [])
            return var.value, new if cs.unary_operator(s).startswith("pre") else old
        if s.kind == K.CSTYLE_CAST_EXPR and tm.is_pointer(s.type):
            inner = [k for k in cs.children(s) if k.kind.is_expression()]
            if len(inner) == 1 and tm.is_pointer(inner[0].type) and \
                    tm.canon(tm.pointee(inner[0].type)).spelling.replace("const ", "") == \
                    tm.canon(tm.pointee(s.type)).spelling.replace("const ", ""):
                return self.pointer_into(inner[0])
            return None
        if s.kind != K.BINARY_OPERATOR or cs.binary_operator(s) not in ("+", "-"):
            return None
        a, b = cs.children(s)
        negate = cs.binary_operator(s) == "-"
        if tm.is_pointer(b.type) and not negate:
            a, b = b, a
        if not (tm.is_pointer(a.type) and tm.is_int(b.type)):
            return None
        inner = self.pointer_into(a)
        if inner is None:
            base = self.rvalue(a)
            if _is_llvm_ptr(base) or not isinstance(base.type, ir.MemRefType) or \
                    ir.MemRefType(base.type).rank != 1:
                return None
            inner = (base, self.fn.const_index(0))
        k = self.index_of(b)
        with self.fn.loc(s):
            offset = arith.SubIOp(inner[1], k).result if negate else arith.AddIOp(inner[1], k).result
        return inner[0], offset

    def _walked(self, c: ci.Cursor):
        """(Var, cursor) if ``c`` names a pointer moved with ``++``/``+=``."""
        s = cs.strip_parens(c)
        if s.kind == K.DECL_REF_EXPR and s.referenced is not None:
            var = self.fn.vars.get(cs.node_key(s.referenced))
            if var is not None and var.kind == "walk":
                return var, s
        return None

    def _move_pointer(self, c: ci.Cursor, target: ci.Cursor, value: ci.Cursor, op: str) -> ir.Value | None:
        """``p += e``, ``p -= e``, ``p = q + e`` on a walked pointer: its index changes
        (the pointer must stay in its array). The statement's value is not a pointer
        the program may keep, so a dummy index is returned."""
        walked = self._walked(target)
        if walked is None:
            return None
        var, _ = walked
        with self.fn.loc(c):
            if op == "=":
                parts = self.pointer_into(value)
                if parts is None:
                    base, offset = self.rvalue(value), self.fn.const_index(0)
                else:
                    base, offset = parts
                if base != var.value:
                    raise cs.unsupported(c, "a pointer moved with ++/+= set to point into "
                                         "another array")
                memref.StoreOp(offset, var.offset, [])
                return offset
            k = self.index_of(value)
            old = memref.LoadOp(var.offset, []).result
            new = (arith.AddIOp if op == "+" else arith.SubIOp)(old, k).result
            memref.StoreOp(new, var.offset, [])
            return new

    def _index_to_i64(self, i: ir.Value) -> ir.Value:
        owner = i.owner
        if isinstance(owner, ir.OpView) and owner.operation.name == "arith.constant":
            return self.fn.const_int(ir.IntegerAttr(owner.operation.attributes["value"]).value,
                                     self.types.i(64))
        return arith.IndexCastOp(self.types.i(64), i).result

    @staticmethod
    def _array_operand(c: ci.Cursor) -> ci.Cursor | None:
        """If ``c`` is an array-to-pointer decay, the array expression."""
        s = cs.strip_parens(c)
        if s.kind == K.UNEXPOSED_EXPR and tm.is_pointer(s.type):
            kids = cs.children(s)
            if len(kids) == 1 and tm.is_array(kids[0].type) and \
                    cs.strip_parens(kids[0]).kind != K.STRING_LITERAL:
                return kids[0]
        if tm.is_array(s.type):  # libclang types a decayed array parameter as the array
            return s
        return None

    def load(self, lv: LValue, where: ci.Cursor) -> ir.Value:
        if lv.ptr is not None:
            return llvm.LoadOp(lv.elem, lv.ptr).result
        mtype = ir.MemRefType(lv.memref.type)
        if mtype.rank != len(lv.indices):
            raise cs.unsupported(where, "array used as a value")
        return memref.LoadOp(lv.memref, list(lv.indices)).result

    def store(self, lv: LValue, v: ir.Value, where: ci.Cursor) -> None:
        if lv.ptr is not None:
            llvm.StoreOp(v, lv.ptr)
            return
        mtype = ir.MemRefType(lv.memref.type)
        if mtype.rank != len(lv.indices):
            raise cs.unsupported(where, "assignment to an array")
        if v.type != mtype.element_type:
            v = self.coerce_memref(v, mtype.element_type, where)
        memref.StoreOp(v, lv.memref, list(lv.indices))

    def index_of(self, c: ci.Cursor) -> ir.Value:
        """An integer expression as an ``index``."""
        s = scalar_of(c.type)
        if s is None or s.is_float:
            raise cs.unsupported(c, "non-integer subscript")
        literal = cs.strip_implicit(c)
        if literal.kind in (K.INTEGER_LITERAL, K.CHARACTER_LITERAL) or (
                literal.kind in _FOLDABLE_ROOTS and self._is_constant(literal)):
            value = cs.evaluate(literal)
            if isinstance(value, int):
                with self.fn.loc(literal):
                    return self.fn.const_index(value)
        if literal.kind == K.DECL_REF_EXPR and literal.referenced is not None and \
                literal.referenced.kind in (K.VAR_DECL, K.PARM_DECL) and tm.is_int(literal.type):
            var = self.fn.vars.get(cs.node_key(literal.referenced))
            if var is not None and var.kind == "iv":
                return var.value
        return self.fn.to_index(self.rvalue(c), s)

    # ------------------------------------------------------------------ leaves

    def _literal(self, c: ci.Cursor) -> ir.Value:
        value = cs.evaluate(c)
        s = scalar_of(c.type)
        if value is None or s is None or isinstance(value, bytes):
            raise cs.unsupported(c, _describe(c))
        return self.fn.const_scalar(value, s)

    def _sizeof(self, c: ci.Cursor) -> ir.Value:
        value = cs.evaluate(c)
        s = scalar_of(c.type)
        if not isinstance(value, int) or s is None:
            raise cs.unsupported(c, "sizeof of a variable-length type")
        return self.fn.const_scalar(value, s)

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
        return memref.LoadOp(var.value, []).result

    # ------------------------------------------------------------------ casts

    def _implicit_cast(self, c: ci.Cursor) -> ir.Value | None:
        kids = cs.children(c)
        if len(kids) != 1:
            raise cs.unsupported(c, _describe(c))
        return self.cast(kids[0], c.type, c)

    def _explicit_cast(self, c: ci.Cursor) -> ir.Value | None:
        return self.cast(_cast_operand(c), c.type, c)

    def cast(self, sub: ci.Cursor, to_type: ci.Type, where: ci.Cursor) -> ir.Value | None:
        """Convert expression ``sub`` to ``to_type`` (implicit or explicit cast)."""
        to, frm = tm.canon(to_type), tm.canon(sub.type)
        if to.kind == TK.VOID:
            self.discard(sub)
            return None
        if frm.kind in (TK.FUNCTIONPROTO, TK.FUNCTIONNOPROTO):
            raise cs.unsupported(where, "function pointer")
        if to.kind == TK.POINTER:
            call = self.calls.allocation_call(sub)
            if call is not None:
                return self.calls.allocate(call, to_type, where)
            if tm.is_array(frm):
                return self.decay(sub, to_type, where)
            if is_null_constant(sub):
                return self.null_pointer(to_type, where)
            if tm.is_pointer(frm):
                return self.pointer_cast(self.rvalue(sub), to_type, where)
            raise cs.unsupported(where, "integer to pointer conversion")
        st, sf = scalar_of(to), scalar_of(frm)
        if st is None:
            raise cs.unsupported(where, f"conversion to '{to_type.spelling}'")
        if sf is not None:
            return self.fn.convert(self.rvalue(sub), sf, st)
        if tm.is_pointer(frm) and st.is_bool:
            return self.nonnull(self.rvalue(sub))
        raise cs.unsupported(where, f"conversion from '{sub.type.spelling}' to '{to_type.spelling}'")

    def decay(self, sub: ci.Cursor, to_type: ci.Type, where: ci.Cursor) -> ir.Value:
        """Array-to-pointer decay: the array's memref, cast to the pointer's memref type."""
        s = cs.strip_parens(sub)
        if s.kind == K.STRING_LITERAL:
            data = cs.string_literal_bytes(s)
            if not isinstance(data, bytes):
                raise cs.unsupported(s, "wide string literal")
            return self.fn.module.string_pointer(data, s)
        lv = self.lvalue(sub)
        if lv.memref is None:
            raise cs.unsupported(where, "pointer into this array")
        if lv.indices:
            raise cs.unsupported(where, "pointer to a row of a multi-dimensional array")
        target = self.types.to_mlir(to_type, where)
        return self.coerce_memref(lv.memref, target, where)

    def pointer_cast(self, v: ir.Value, to_type: ci.Type, where: ci.Cursor) -> ir.Value:
        target = self.types.to_mlir(to_type, where)
        return self.coerce_memref(v, target, where)

    def coerce_memref(self, v: ir.Value, target: ir.Type, where: ci.Cursor) -> ir.Value:
        """Between pointer representations: equal types pass, memref shapes are cast,
        memrefs become ``!llvm.ptr`` (``void *`` arguments, ``%p``)."""
        if v.type == target:
            return v
        if isinstance(v.type, ir.MemRefType) and isinstance(target, ir.MemRefType):
            a, b = ir.MemRefType(v.type), ir.MemRefType(target)
            if a.element_type == b.element_type and a.rank == b.rank:
                return memref.CastOp(target, v).result
        if isinstance(v.type, ir.MemRefType) and _is_llvm_ptr_type(target):
            return self.memref_to_ptr(v)
        raise cs.unsupported(where, f"pointer conversion from {v.type} to {target}")

    def memref_to_ptr(self, v: ir.Value) -> ir.Value:
        addr = memref.ExtractAlignedPointerAsIndexOp(v).result
        as_int = arith.IndexCastOp(self.types.i(64), addr).result
        return llvm.IntToPtrOp(self.types.llvm_ptr(), as_int).result

    def null_pointer(self, to_type: ci.Type, where: ci.Cursor) -> ir.Value:
        target = self.types.to_mlir(to_type, where)
        if _is_llvm_ptr_type(target):
            return llvm.ZeroOp(target).result
        raise cs.unsupported(where, "null pointer value for an array pointer (allocate it instead)")

    def nonnull(self, v: ir.Value) -> ir.Value:
        if _is_llvm_ptr(v):
            zero = llvm.ZeroOp(v.type).result
            return llvm.ICmpOp(llvm.ICmpPredicate.ne, v, zero).result
        addr = memref.ExtractAlignedPointerAsIndexOp(v).result
        return self.fn.cmpi("ne", addr, self.fn.const_index(0))

    # ------------------------------------------------------------------ operators

    def _binary(self, c: ci.Cursor) -> ir.Value | None:
        op = cs.binary_operator(c)
        a, b = cs.children(c)
        if op == "=":
            return self.assign(a, b, c)
        if op == ",":
            self.discard(a)
            return self.rvalue(b)
        if op in COMPARISONS or op in ("&&", "||"):
            return self.fn.convert(self.cond(c), I1, scalar_of(c.type) or tm.INT)
        s = scalar_of(c.type)
        if s is None or scalar_of(a.type) is None or scalar_of(b.type) is None:
            raise cs.unsupported(c, "pointer arithmetic (index the pointer instead)")
        x = self.fn.convert(self.rvalue(a), scalar_of(a.type), s)
        y = self.fn.convert(self.rvalue(b), scalar_of(b.type), s)
        return self.arith(op, x, y, s, c)

    def arith(self, op: str, x: ir.Value, y: ir.Value, s: Scalar, where: ci.Cursor) -> ir.Value:
        if s.is_float:
            table = {"+": arith.AddFOp, "-": arith.SubFOp, "*": arith.MulFOp, "/": arith.DivFOp}
        else:
            table = {
                "+": arith.AddIOp, "-": arith.SubIOp, "*": arith.MulIOp,
                "/": arith.DivUIOp if s.unsigned else arith.DivSIOp,
                "%": arith.RemUIOp if s.unsigned else arith.RemSIOp,
                "<<": arith.ShLIOp, ">>": arith.ShRUIOp if s.unsigned else arith.ShRSIOp,
                "&": arith.AndIOp, "|": arith.OrIOp, "^": arith.XOrIOp,
            }
        if op not in table:
            raise cs.unsupported(where, f"operator '{op}' on {s.kind}")
        return table[op](x, y).result

    def assign(self, a: ci.Cursor, b: ci.Cursor, where: ci.Cursor) -> ir.Value:
        moved = self._move_pointer(where, a, b, "=")
        if moved is not None:
            return moved
        fields = tm.struct_fields(a.type)
        if fields is not None:  # a struct assignment copies its fields
            dst, src = self.lvalue(a), self.lvalue(b)
            if dst.memref is None or src.memref is None:
                raise cs.unsupported(where, "struct assignment")
            with self.fn.loc(where):
                for k in range(len(fields)):
                    at = (self.fn.const_index(k),)
                    v = memref.LoadOp(src.memref, list(src.indices + at)).result
                    memref.StoreOp(v, dst.memref, list(dst.indices + at))
            return self.fn.const_index(0)
        lv = self.lvalue(a)
        v = self.rvalue(b)
        with self.fn.loc(where):
            self.store(lv, v, where)
        return v

    def _compound_assign(self, c: ci.Cursor) -> ir.Value:
        op = cs.binary_operator(c)[:-1]
        a, b = cs.children(c)
        if op in ("+", "-"):
            moved = self._move_pointer(c, a, b, op)
            if moved is not None:
                return moved
        ls, rs = scalar_of(a.type), scalar_of(b.type)
        if ls is None or rs is None:
            raise cs.unsupported(c, "pointer arithmetic (index the pointer instead)")
        lv = self.lvalue(a)
        rhs = self.rvalue(b)
        old = self.load(lv, c)
        comp = tm.promote(ls) if op in ("<<", ">>") else tm.usual_arithmetic(ls, rs)
        x = self.fn.convert(old, ls, comp)
        y = self.fn.convert(rhs, rs, comp)
        result = self.fn.convert(self.arith(op, x, y, comp, c), comp, ls)
        self.store(lv, result, c)
        return result

    def _unary(self, c: ci.Cursor) -> ir.Value:
        op = cs.unary_operator(c)
        sub = cs.children(c)[0]
        if op in ("pre++", "pre--", "post++", "post--"):
            return self._incdec(c, op)
        if op == "*":
            return self.load(self.lvalue(c), c)
        if op == "&":
            return self._address_of(c, sub)
        if op == "!":
            return self.fn.convert(self._not(self.cond(sub)), I1, scalar_of(c.type) or tm.INT)
        s = scalar_of(c.type)
        if s is None:
            raise cs.unsupported(c, f"unary '{op}' on a pointer")
        if op in ("-", "+") and cs.strip_implicit(sub).kind in (K.INTEGER_LITERAL, K.FLOATING_LITERAL):
            value = cs.evaluate(c)  # `-1`, `-1e30f`: a negative constant, not a negation
            if isinstance(value, (int, float)):
                return self.fn.const_scalar(value, s)
        v = self.fn.convert(self.rvalue(sub), scalar_of(sub.type), s)
        if op == "+":
            return v
        if op == "-":
            if s.is_float:
                return arith.NegFOp(v).result
            return arith.SubIOp(self.fn.const_int(0, v.type), v).result
        if op == "~":
            return arith.XOrIOp(v, self.fn.const_int(-1, v.type)).result
        raise cs.unsupported(c, f"unary operator '{op}'")

    def _address_of(self, c: ci.Cursor, sub: ci.Cursor) -> ir.Value:
        """``&x`` of a scalar variable (``init_array(n, &alpha, ...)``): its one-element
        slot seen as the ``T *`` it is passed as, a ``memref<?xT>`` of one element. The
        variable is kept in memory (an address-taken variable is never an SSA value)."""
        target = cs.strip_parens(sub)
        s = scalar_of(sub.type)
        if target.kind == K.DECL_REF_EXPR and tm.struct_fields(sub.type) is not None:
            s = True  # a struct variable: its fields' array, seen as a pointer to one struct
        if target.kind != K.DECL_REF_EXPR or s is None:
            raise cs.unsupported(c, "address-of operator '&' (supported on a scalar "
                                 "variable; for an array element write 'a + i' as 'a' and "
                                 "index it)")
        lv = self.lvalue(target)
        if lv.memref is None or lv.indices:
            raise cs.unsupported(c, "address-of operator '&' on this variable")
        mtype = ir.MemRefType(lv.memref.type)
        shape = list(mtype.shape)
        strides = [1] * len(shape)
        for d in range(len(shape) - 2, -1, -1):
            strides[d] = strides[d + 1] * shape[d + 1]
        whole = strides[0] * shape[0] if shape else 1
        with self.fn.loc(c):
            one = memref.ReinterpretCastOp(ir.MemRefType.get([1] + shape, mtype.element_type),
                                           lv.memref, [], [], [], [0], [1] + shape,
                                           [whole] + strides).result
            wanted = self.types.to_mlir(c.type, c)
            return memref.CastOp(wanted, one).result if wanted != one.type else one

    def _incdec(self, c: ci.Cursor, op: str) -> ir.Value:
        sub = cs.children(c)[0]
        s = scalar_of(sub.type)
        if s is None and self._walked(sub) is not None:
            return self.pointer_into(c)[1]  # `p++;` as a statement: the index moves
        if s is None:
            raise cs.unsupported(c, "pointer increment (index the pointer instead)")
        lv = self.lvalue(sub)
        old = self.load(lv, c)
        if s.is_float:
            one = self.fn.const_float(1.0, old.type)
            new = (arith.AddFOp if op.endswith("++") else arith.SubFOp)(old, one).result
        else:
            one = self.fn.const_int(1, old.type)
            new = (arith.AddIOp if op.endswith("++") else arith.SubIOp)(old, one).result
        self.store(lv, new, c)
        return new if op.startswith("pre") else old

    def _not(self, bit: ir.Value) -> ir.Value:
        return arith.XOrIOp(bit, self.fn.const_int(1, self.types.i(1))).result

    def _compare(self, s: ci.Cursor, op: str) -> ir.Value:
        a, b = cs.children(s)
        if tm.is_pointer(a.type) or tm.is_pointer(b.type):
            return self._compare_pointers(s, op, a, b)
        sa, sb = scalar_of(a.type), scalar_of(b.type)
        if sa is None or sb is None:
            raise cs.unsupported(s, "comparison of these operands")
        common = tm.usual_arithmetic(sa, sb) if sa != sb else sa
        x = self.fn.convert(self.rvalue(a), sa, common)
        y = self.fn.convert(self.rvalue(b), sb, common)
        if common.is_float:
            return self.fn.cmpf(_CMPF[op], x, y)
        return self.fn.cmpi((_CMPI_U if common.unsigned else _CMPI_S)[op], x, y)

    def _compare_pointers(self, s: ci.Cursor, op: str, a: ci.Cursor, b: ci.Cursor) -> ir.Value:
        if op not in ("==", "!="):
            raise cs.unsupported(s, "ordering comparison of pointers")
        for p, q in ((a, b), (b, a)):
            if is_null_constant(q):
                bit = self.nonnull(self.rvalue(p))
                return bit if op == "!=" else self._not(bit)
        pa, pb = self.pointer_into(a), self.pointer_into(b)
        if pa is not None or pb is not None:  # pointers into one array: their indices
            pa = pa or (self.rvalue(a), self.fn.const_index(0))
            pb = pb or (self.rvalue(b), self.fn.const_index(0))
            if pa[0] != pb[0]:
                raise cs.unsupported(s, "comparison of pointers into different arrays")
            return self.fn.cmpi("eq" if op == "==" else "ne", pa[1], pb[1])
        x, y = self.rvalue(a), self.rvalue(b)
        x = self._address(x)
        y = self._address(y)
        return self.fn.cmpi("eq" if op == "==" else "ne", x, y)

    def _address(self, v: ir.Value) -> ir.Value:
        if _is_llvm_ptr(v):
            return llvm.PtrToIntOp(self.types.i(64), v).result
        addr = memref.ExtractAlignedPointerAsIndexOp(v).result
        return arith.IndexCastOp(self.types.i(64), addr).result

    def _logical(self, s: ci.Cursor, op: str) -> ir.Value:
        a, b = cs.children(s)
        lhs = self.cond(a)
        if is_simple(b):
            rhs = self.cond(b)
            return (arith.AndIOp if op == "&&" else arith.OrIOp)(lhs, rhs).result
        i1 = self.types.i(1)
        if_op = scf.IfOp(lhs, [i1], has_else=True)
        with ir.InsertionPoint(if_op.then_block):
            scf.YieldOp([self.cond(b) if op == "&&" else self.fn.const_int(1, i1)])
        with ir.InsertionPoint(if_op.else_block):
            scf.YieldOp([self.fn.const_int(0, i1) if op == "&&" else self.cond(b)])
        return if_op.result

    def _conditional(self, c: ci.Cursor) -> ir.Value | None:
        kids = cs.children(c)
        if len(kids) != 3:
            raise cs.unsupported(c, "conditional operator without a middle operand")
        test, a, b = kids
        rtype = self.types.to_mlir(c.type, c)
        bit = self.cond(test)
        if rtype is not None and is_simple(a) and is_simple(b):
            x, y = self.rvalue(a), self.rvalue(b)
            return arith.SelectOp(bit, x, y).result
        if_op = scf.IfOp(bit, [rtype] if rtype is not None else [], has_else=True)
        for block, arm in ((if_op.then_block, a), (if_op.else_block, b)):
            with ir.InsertionPoint(block):
                if rtype is None:
                    self.discard(arm)
                    scf.YieldOp([])
                else:
                    v = self.rvalue(arm)
                    scf.YieldOp([self.coerce_memref(v, rtype, arm) if isinstance(rtype, ir.MemRefType) else v])
        return if_op.result if rtype is not None else None

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
        flatten_init(s, shape, (), elements)
        if len(elements) < total:
            self.fill(slot, self.fn.zero(mtype.element_type))
        elem_scalar = scalar_of(_array_element(ctype))
        for idx, expr in elements:
            if _is_zero_literal(expr) and len(elements) < total:
                continue
            v = self.rvalue(expr)
            if elem_scalar is not None:
                v = self.fn.convert(v, scalar_of(expr.type), elem_scalar)
            memref.StoreOp(v, slot, [self.fn.const_index(k) for k in idx])

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


# ---------------------------------------------------------------------- helpers


def _describe(c: ci.Cursor) -> str:
    names = {
        "STRING_LITERAL": "string literal here",
        "INIT_LIST_EXPR": "initialiser list here",
        "MEMBER_REF_EXPR": "struct member access",
        "ADDR_LABEL_EXPR": "label address",
        "STMT_EXPR": "statement expression",
        "GNU_STMT_EXPR": "statement expression",
        "COMPOUND_LITERAL_EXPR": "compound literal",
    }
    if c.kind.name in names:
        return names[c.kind.name]
    return f"expression ({c.kind.name.lower()})"


def _cast_operand(c: ci.Cursor) -> ci.Cursor:
    kids = [k for k in cs.children(c) if k.kind.is_expression()]
    if not kids:
        raise cs.unsupported(c, "cast")
    return kids[-1]


def _is_llvm_ptr_type(t: ir.Type) -> bool:
    return str(t) == "!llvm.ptr"


def _is_llvm_ptr(v: ir.Value) -> bool:
    return _is_llvm_ptr_type(v.type)



def _constant_tree(c: ci.Cursor, subtrees: dict[tuple, bool]) -> bool:
    """Only literals, sizeof, enum constants, casts and non-assigning operators.

    ``subtrees`` remembers the verdict of every subtree already looked at, so asking again
    for each node of a long chain (``a + b + c + ...``, left-deep) costs its own node, not
    its whole subtree each time."""
    if scalar_of(c.type) is None:
        return False
    stack: list[tuple[ci.Cursor, tuple, bool]] = [(c, cs.node_key(c), False)]
    while stack:
        node, key, expanded = stack.pop()
        if expanded:
            subtrees[key] = True  # every child was constant
            continue
        known = subtrees.get(key)
        if known is True:
            continue
        if known is False or not _constant_node(node):
            subtrees[key] = False
            for _, ancestor, open_ in stack:  # the nodes whose walk is in progress hold it
                if open_:
                    subtrees[ancestor] = False
            return False
        stack.append((node, key, True))
        stack.extend((child, cs.node_key(child), False)
                     for child in reversed(cs.children(node)))
    return True


def _constant_node(n: ci.Cursor) -> bool:
    k = n.kind
    if k in (K.INTEGER_LITERAL, K.FLOATING_LITERAL, K.CHARACTER_LITERAL, K.PAREN_EXPR,
             K.CXX_UNARY_EXPR, K.TYPE_REF, K.CONDITIONAL_OPERATOR):
        return True
    if k in (K.UNEXPOSED_EXPR, K.CSTYLE_CAST_EXPR):
        return scalar_of(n.type) is not None
    if k == K.DECL_REF_EXPR and n.referenced is not None and \
            n.referenced.kind == K.ENUM_CONSTANT_DECL:
        return True
    if k == K.BINARY_OPERATOR and cs.binary_operator(n) in SIMPLE_BINARY | {"/", "%", "&&", "||"}:
        return True
    return k == K.UNARY_OPERATOR and cs.unary_operator(n) in ("-", "+", "!", "~")


def _is_zero_literal(c: ci.Cursor) -> bool:
    value = cs.evaluate(c)
    return isinstance(value, (int, float)) and value == 0 and not isinstance(value, bool)


def _array_element(t: ci.Type) -> ci.Type:
    t = tm.canon(t)
    while t.kind == TK.CONSTANTARRAY:
        t = tm.canon(t.element_type)
    return t
