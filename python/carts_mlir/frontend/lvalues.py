"""C objects: lvalues, loads and stores, pointer walks and subscripts as indices.

Array code stays in memrefs with one load per C subscript level, which is the shape
canonicalize-memrefs pattern-matches: ``a[i][j]`` on a ``float **a`` is

    %row = memref.load %a[%i] : memref<?xmemref<?xf32>>
    %v   = memref.load %row[%j] : memref<?xf32>

while on a fixed array ``float a[N][M]`` it is one ``memref.load %a[%i, %j]``.  Subscripts
become ``index`` values through ``arith.index_cast`` (loop induction variables are used
directly).  A pointer into an array (``p + k``, or a pointer moved with ``++``/``+=``) is
the array and an element index; only what has no memref behind it goes through an
``!llvm.ptr``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import clang.cindex as ci
from mlir import ir
from mlir.dialects import arith, llvm, memref

from . import clang_support as cs
from . import typemap as tm
from .conversions import element_address, is_llvm_ptr
from .folding import ConstantExpressions
from .typemap import TypeMapper, scalar_of

if TYPE_CHECKING:
    from .function import FunctionEmitter

K = ci.CursorKind


@dataclass
class LValue:
    """A C object: an element of a memref (``indices`` may be a prefix for sub-arrays), or
    the address of an element behind an ``!llvm.ptr``."""

    ctype: ci.Type
    memref: ir.Value | None = None
    indices: tuple[ir.Value, ...] = ()
    ptr: ir.Value | None = None
    elem: ir.Type | None = None
    #: An array field of a struct (``s.w`` of ``struct { int id; double w[4]; }``): the
    #: dimensions it has left; its last index is the field's first slot, and a subscript
    #: adds to that index instead of adding one.
    field_dims: tuple[int, ...] = ()
    #: A struct field of a struct (``p.pos`` of ``struct { vec2 pos; int id; }``): its
    #: last index is its first slot, and a member of it adds to that index.
    in_slots: bool = False

    def slot(self, k: ir.Value) -> tuple[ir.Value, ...]:
        """The indices of slot ``k`` of the struct this object is."""
        return slot_indices(self.indices, self.in_slots, k)


def slot_indices(lead: tuple, in_slots: bool, k: ir.Value) -> tuple[ir.Value, ...]:
    """The indices of slot ``k`` of the struct at ``lead``: one more index, or (a struct
    field of a struct, whose last index is its first slot) that index moved on by ``k``."""
    if not in_slots:
        return lead + (k,)
    return lead[:-1] + (arith.AddIOp(lead[-1], k).result,)


def _unqualified(t: ci.Type) -> str:
    """The canonical spelling of ``t`` without its own qualifiers (``const box`` is
    ``box``)."""
    words = tm.canon(t).spelling.split(" ")
    while words and words[0] in ("const", "volatile", "restrict"):
        words = words[1:]
    return " ".join(words)


class MemoryAccess:
    """The object side of ``ExprEmitter`` (a mixin of it): where a C object lives and how
    it is read and written.  Operands and subscripts are evaluated with its ``rvalue``."""

    fn: "FunctionEmitter"
    types: TypeMapper
    constants: ConstantExpressions

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
                return LValue(s.type, memref=var.value, indices=() if var.lead is None else (var.lead,))
            if s.kind == K.UNEXPOSED_EXPR:
                kids = cs.children(s)
                if len(kids) == 1 and _unqualified(kids[0].type) == _unqualified(s.type):
                    return self.lvalue(kids[0])  # `S b = table[k];` of a const table too
            if s.kind == K.ARRAY_SUBSCRIPT_EXPR:
                return self._subscript(s)
            if s.kind == K.MEMBER_REF_EXPR:
                return self._member(s)
            if s.kind == K.UNARY_OPERATOR and cs.unary_operator(s) == "*":
                return self._deref(s)
            if s.kind == K.STRING_LITERAL:
                raise cs.unsupported(s, "string literal used as an array")
            raise cs.unsupported(s, f"{cs.describe(s)} as an object")

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
        layout = tm.struct_layout(record)
        slots = layout[[f.spelling for f in fields].index(field.spelling)]
        if tm.is_pointer(base.type):  # p->f is p[0].f
            lv = self._element(base, lambda: self.fn.const_index(0), s)
        else:
            lv = self.lvalue(base)
        if lv.memref is None:
            raise cs.unsupported(s, "struct member access through this pointer")
        with self.fn.loc(s):
            return LValue(s.type, memref=lv.memref, indices=lv.slot(self.fn.const_index(slots.offset)),
                          field_dims=slots.dims, in_slots=slots.record is not None)

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
            if lv.field_dims:
                return self._field_element(lv, index(), where)
            return LValue(where.type, memref=lv.memref, indices=lv.indices + (index(),))
        parts = self.pointer_into(pointer)
        if parts is not None:  # `row[k]` for `row = p + off`: p[off + k]
            base, offset = parts
            with self.fn.loc(where):
                return LValue(where.type, memref=base, indices=_indices(shifted(offset, index())))
        p = self.rvalue(pointer)
        i = index()
        if is_llvm_ptr(p):
            elem = self.types.to_mlir(tm.pointee(pointer.type), where)
            i64 = self._index_to_i64(i)
            addr = element_address(p, i64, elem)
            return LValue(where.type, ptr=addr, elem=elem)
        return LValue(where.type, memref=p, indices=(i,))

    def _field_element(self, lv: LValue, k: ir.Value, where: ci.Cursor) -> LValue:
        """``s.w[k]`` of an array field: k rows of what is left of the field further."""
        stride = 1
        for d in lv.field_dims[1:]:
            stride *= d
        with self.fn.loc(where):
            step = k if stride == 1 else arith.MulIOp(k, self.fn.const_index(stride)).result
            slot = arith.AddIOp(lv.indices[-1], step).result
        return LValue(where.type, memref=lv.memref, indices=lv.indices[:-1] + (slot,),
                      field_dims=lv.field_dims[1:])

    def pointer_into(self, c: ci.Cursor) -> tuple[ir.Value, ir.Value] | None:
        """``p + e`` / ``p - e`` (p a pointer held as a memref, or itself such a pointer
        variable) as (the array, the element index): pointer arithmetic becomes index
        arithmetic on the array it points into. None for any other expression."""
        row = self._row_of(c)
        if row is not None:
            return row
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
            if is_llvm_ptr(base) or not isinstance(base.type, ir.MemRefType) or \
                    ir.MemRefType(base.type).rank != 1:
                return None
            inner = (base, self.fn.const_index(0))
        k = self.index_of(b)
        with self.fn.loc(s):
            return inner[0], shifted(inner[1], k, negate)

    def _row_of(self, c: ci.Cursor) -> tuple[ir.Value, tuple[ir.Value, ...]] | None:
        """``a[i]`` of ``double a[N][M]`` seen as a ``double *`` (decayed), and ``&a[i][j]``
        / ``&x[i]``: the array and the element's indices, the last of which pointer
        arithmetic moves (``row[k]`` is ``a[i][k]``)."""
        s = cs.strip_parens(c)
        while s.kind == K.UNEXPOSED_EXPR and tm.is_pointer(s.type):  # `const T *` of a `T *`
            kids = cs.children(s)
            if len(kids) != 1 or not tm.is_pointer(kids[0].type):
                break
            s = cs.strip_parens(kids[0])
        if s.kind == K.UNARY_OPERATOR and cs.unary_operator(s) == "&":
            target = cs.strip_parens(cs.children(s)[0])
            if target.kind != K.ARRAY_SUBSCRIPT_EXPR or scalar_of(target.type) is None:
                return None
            lv = self.lvalue(target)
        else:
            inner = self._array_operand(s)
            if inner is None or cs.strip_parens(inner).kind != K.ARRAY_SUBSCRIPT_EXPR:
                return None
            lv = self.lvalue(inner)
            if lv.memref is None or lv.field_dims or not lv.indices:
                return None
            lv = LValue(lv.ctype, memref=lv.memref, indices=lv.indices + (self.fn.const_index(0),))
        if lv.memref is None or lv.field_dims or \
                ir.MemRefType(lv.memref.type).rank != len(lv.indices):
            return None
        offset = lv.indices[0] if len(lv.indices) == 1 else tuple(lv.indices)
        return lv.memref, offset

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
                if base != var.value or isinstance(offset, tuple):
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
        return self.fn.from_memory(memref.LoadOp(lv.memref, list(lv.indices)).result, lv.ctype)

    def store(self, lv: LValue, v: ir.Value, where: ci.Cursor) -> None:
        if lv.ptr is not None:
            llvm.StoreOp(v, lv.ptr)
            return
        mtype = ir.MemRefType(lv.memref.type)
        if mtype.rank != len(lv.indices):
            raise cs.unsupported(where, "assignment to an array")
        v = self.fn.to_memory(v, lv.memref)
        if v.type != mtype.element_type:
            v = self.coerce_memref(v, mtype.element_type, where)
        memref.StoreOp(v, lv.memref, list(lv.indices))
        for watched in self.fn.store_stamps:  # lastprivate(conditional): note the iteration
            for copy, stamp, number in watched:
                if copy == lv.memref:
                    memref.StoreOp(arith.IndexCastOp(self.types.i(64), number).result, stamp, [])

    def index_of(self, c: ci.Cursor) -> ir.Value:
        """An integer expression as an ``index``."""
        s = scalar_of(c.type)
        if s is None or s.is_float:
            raise cs.unsupported(c, "non-integer subscript")
        literal = cs.strip_implicit(c)
        if literal.kind in (K.INTEGER_LITERAL, K.CHARACTER_LITERAL) or (
                self.constants.foldable(literal)):
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


def shifted(offset, k: ir.Value, back: bool = False):
    """A pointer's position in its array (an index, or the indices of an element of an
    N-D array) moved by ``k`` elements along the last dimension (``back``: by ``-k``)."""
    op = arith.SubIOp if back else arith.AddIOp
    if isinstance(offset, tuple):
        return offset[:-1] + (op(offset[-1], k).result,)
    return op(offset, k).result


def _indices(offset) -> tuple[ir.Value, ...]:
    return offset if isinstance(offset, tuple) else (offset,)
