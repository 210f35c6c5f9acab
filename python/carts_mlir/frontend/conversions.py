"""C conversions: casts between scalar types and between pointer representations.

A C pointer is a memref when the front end knows what it points into, else an
``!llvm.ptr`` (``void *`` arguments, library results).  A cast picks the representation
the target type has: array decay passes the array's memref, ``malloc`` cast to ``T *`` is a
``memref.alloc``, a memref passed where an ``!llvm.ptr`` is wanted is its aligned pointer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import clang.cindex as ci
from mlir import ir
from mlir.dialects import arith, llvm, memref

from . import clang_support as cs
from . import typemap as tm
from .calls import CallEmitter
from .cursor_queries import is_null_constant
from .typemap import Scalar, TypeMapper, scalar_of

if TYPE_CHECKING:
    from .function import FunctionEmitter

K = ci.CursorKind
TK = ci.TypeKind


def is_llvm_ptr_type(t: ir.Type) -> bool:
    """Whether ``t`` is the opaque pointer (as opposed to a memref)."""
    return str(t) == "!llvm.ptr"


def is_llvm_ptr(v: ir.Value) -> bool:
    return is_llvm_ptr_type(v.type)


def element_address(base: ir.Value, index: ir.Value, elem: ir.Type) -> ir.Value:
    """``llvm.getelementptr base[index]`` over elements of type ``elem``: the address of
    element ``index`` (an integer) of the array an ``!llvm.ptr`` points to."""
    return ir.Operation.create(
        "llvm.getelementptr", results=[base.type], operands=[base, index],
        attributes={"elem_type": ir.TypeAttr.get(elem),
                    # one dynamic index: the marker the op's format uses for it
                    "rawConstantIndices": ir.DenseI32ArrayAttr.get([-2147483648])}).result


def constant_index(v: ir.Value) -> int | None:
    """The value of ``v`` when an ``arith.constant`` defines it, else None."""
    owner = v.owner
    if isinstance(owner, ir.OpView) and owner.operation.name == "arith.constant":
        attr = owner.operation.attributes["value"]
        if isinstance(attr, ir.IntegerAttr):
            return attr.value
    return None


class Conversions:
    """The conversions of ``ExprEmitter`` (a mixin of it).  What a cast converts is
    evaluated with its ``rvalue`` (or ``lvalue``, for an array that decays)."""

    fn: "FunctionEmitter"
    types: TypeMapper
    calls: CallEmitter

    def _implicit_cast(self, c: ci.Cursor) -> ir.Value | None:
        kids = cs.children(c)
        if len(kids) != 1:
            raise cs.unsupported(c, cs.describe(c))
        return self.cast(kids[0], c.type, c)

    def _explicit_cast(self, c: ci.Cursor) -> ir.Value | None:
        return self.cast(cs.cast_operand(c), c.type, c)

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
        if tm.is_array(to) and (tm.is_pointer(frm) or tm.is_array(frm)):
            # an argument's qualification conversion to an array-typed parameter
            # (`const double a[]`): the pointer as it is
            if tm.is_array(frm):
                return self.decay(sub, to_type, where)
            return self.pointer_cast(self.rvalue(sub), to_type, where)
        st, sf = scalar_of(to), scalar_of(frm)
        if st is None:
            raise cs.unsupported(where, f"conversion to '{to_type.spelling}'")
        if sf is not None:
            return self.fn.convert(self.rvalue(sub), sf, st)
        if tm.is_pointer(frm) and st.is_bool:
            return self.nonnull(self.rvalue(sub))
        if tm.is_pointer(frm) and not st.is_float:
            # `(intptr_t)p % 64`: the address as an integer (of the node's own copy of the
            # data, which is what an alignment check asks about)
            return self.fn.convert(self.address(self.rvalue(sub)), Scalar("int", 64, True), st)
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
        if lv.field_dims:
            raise cs.unsupported(where, "pointer to an array field of a struct (index the "
                                 "field where it is used)")
        if lv.indices and is_llvm_ptr_type(self.types.to_mlir(to_type, where)):
            return self._row_address(lv, where)  # `names[i]` passed as a `char *`
        target = self.types.to_mlir(to_type, where)
        if lv.indices:
            whole = self._whole_array_rows(lv, target, where)
            if whole is None:
                raise cs.unsupported(where, "a row of a multi-dimensional array used as a "
                                     "pointer value (index it where it is, or pass the array "
                                     "and the row)")
            return whole
        return self.coerce_memref(lv.memref, target, where)

    def _whole_array_rows(self, lv, target: ir.Type, where: ci.Cursor) -> ir.Value | None:
        """``*A`` of a pointer to an array (``double (*A)[N][M]``, PolyBench's arrays) used as
        a pointer to its rows (``double (*)[M]``): the leading indices are all 0, so the
        rows are the whole memory, its leading dimensions collapsed into one. None for
        other rows."""
        if not isinstance(target, ir.MemRefType):
            return None
        mtype = ir.MemRefType(lv.memref.type)
        fixed = len(lv.indices)
        if any(constant_index(i) != 0 for i in lv.indices) or \
                ir.MemRefType(target).rank != mtype.rank - fixed or \
                any(d == ir.ShapedType.get_dynamic_size() for d in mtype.shape[1:fixed + 1]):
            return None
        groups = [list(range(fixed + 1))] + [[d] for d in range(fixed + 1, mtype.rank)]
        rows = mtype.shape[0]
        for d in mtype.shape[1:fixed + 1]:
            rows = rows * d if rows != ir.ShapedType.get_dynamic_size() else rows
        shape = [rows] + list(mtype.shape[fixed + 1:])
        with self.fn.loc(where):
            flat = memref.CollapseShapeOp(ir.MemRefType.get(shape, mtype.element_type),
                                          lv.memref, groups).result
        return self.coerce_memref(flat, target, where)

    def _row_address(self, lv, where: ci.Cursor) -> ir.Value:
        """The address of row ``lv.indices`` of an N-D array (``char names[8][32]``'s
        ``names[i]``) as an ``!llvm.ptr``: the array's address and the row's first element,
        counted row-major over the array's static inner extents."""
        mtype = ir.MemRefType(lv.memref.type)
        inner = list(mtype.shape)[1:]
        if any(d == ir.ShapedType.get_dynamic_size() for d in inner):
            raise cs.unsupported(where, "a row of an array of unknown row length used as a "
                                 "pointer value")
        with self.fn.loc(where):
            linear = None
            for k, i in enumerate(lv.indices):
                stride = 1
                for d in inner[k:]:
                    stride *= d
                term = i if stride == 1 else arith.MulIOp(i, self.fn.const_index(stride)).result
                linear = term if linear is None else arith.AddIOp(linear, term).result
            base = self.memref_to_ptr(lv.memref)
            at = arith.IndexCastOp(self.types.i(64), linear).result
            return element_address(base, at, mtype.element_type)

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
            if a.element_type == b.element_type and a.rank == 1 and b.rank > 1 and \
                    all(d != ir.ShapedType.get_dynamic_size() for d in b.shape[1:]):
                return self._rows_of(v, b, where)
        if isinstance(v.type, ir.MemRefType) and is_llvm_ptr_type(target):
            return self.memref_to_ptr(v)
        raise cs.unsupported(where, f"pointer conversion from {v.type} to {target}")

    def _rows_of(self, v: ir.Value, target: ir.MemRefType, where: ci.Cursor) -> ir.Value:
        """A flat array seen through a pointer to rows of fixed length (``(double (*)[64])
        flat``): the same memory as ``target``, as many whole rows as it holds."""
        inner = list(target.shape[1:])
        strides = [1] * len(inner)
        for d in range(len(inner) - 2, -1, -1):
            strides[d] = strides[d + 1] * inner[d + 1]
        row = strides[0] * inner[0]
        dyn = ir.ShapedType.get_dynamic_size()
        with self.fn.loc(where):
            n = memref.DimOp(v, self.fn.const_index(0)).result
            rows = arith.DivUIOp(n, self.fn.const_index(row)).result
            view = memref.ReinterpretCastOp(ir.MemRefType.get([dyn] + inner, target.element_type),
                                            v, [], [rows], [], [0], [dyn] + inner,
                                            [row] + strides).result
        return view if view.type == target else memref.CastOp(target, view).result

    def memref_to_ptr(self, v: ir.Value) -> ir.Value:
        addr = memref.ExtractAlignedPointerAsIndexOp(v).result
        as_int = arith.IndexCastOp(self.types.i(64), addr).result
        return llvm.IntToPtrOp(self.types.llvm_ptr(), as_int).result

    def null_pointer(self, to_type: ci.Type, where: ci.Cursor) -> ir.Value:
        target = self.types.to_mlir(to_type, where)
        if is_llvm_ptr_type(target):
            return llvm.ZeroOp(target).result
        raise cs.unsupported(where, "null pointer value for an array pointer (allocate it instead)")

    def nonnull(self, v: ir.Value) -> ir.Value:
        if is_llvm_ptr(v):
            zero = llvm.ZeroOp(v.type).result
            return llvm.ICmpOp(llvm.ICmpPredicate.ne, v, zero).result
        addr = memref.ExtractAlignedPointerAsIndexOp(v).result
        return self.fn.cmpi("ne", addr, self.fn.const_index(0))

    def address(self, v: ir.Value) -> ir.Value:
        """A pointer of either representation as an ``i64`` address."""
        if is_llvm_ptr(v):
            return llvm.PtrToIntOp(self.types.i(64), v).result
        addr = memref.ExtractAlignedPointerAsIndexOp(v).result
        return arith.IndexCastOp(self.types.i(64), addr).result
