"""C operators: arithmetic, assignment, increments, comparisons, logic and ``?:``.

A condition is built as an ``i1`` (``cond``) and only becomes an ``int`` where the program
uses it as a value.  ``&&``, ``||`` and ``?:`` evaluate an operand only when C does: an
``scf.if``, unless the operand is simple enough (no side effects, cheap) for an
``arith.select`` or a plain ``and``/``or``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import clang.cindex as ci
from mlir import ir
from mlir.dialects import arith, memref, scf

from . import clang_support as cs
from . import typemap as tm
from .conversions import element_address
from .cursor_queries import flatten_init, is_null_constant, is_simple
from .lvalues import slot_indices
from .typemap import Scalar, TypeMapper, scalar_of

if TYPE_CHECKING:
    from .function import FunctionEmitter

K = ci.CursorKind
I1 = Scalar("bool", 1, True)  # a truth value (conditions), not a C type
COMPARISONS = {"<", "<=", ">", ">=", "==", "!="}
_CMPF = {"<": "olt", "<=": "ole", ">": "ogt", ">=": "oge", "==": "oeq", "!=": "une"}
_CMPI_S = {"<": "slt", "<=": "sle", ">": "sgt", ">=": "sge", "==": "eq", "!=": "ne"}
_CMPI_U = {"<": "ult", "<=": "ule", ">": "ugt", ">=": "uge", "==": "eq", "!=": "ne"}


def _slot(lead: tuple, in_slots: bool, k: ir.Value) -> list:
    return list(slot_indices(lead, in_slots, k))


class Operators:
    """The operators of ``ExprEmitter`` (a mixin of it).  Operands are evaluated with
    its ``rvalue``; assignments write through its ``lvalue``/``store``."""

    fn: "FunctionEmitter"
    types: TypeMapper

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
        if op in ("+", "-") and tm.is_opaque_pointer(c.type):
            moved = self._offset_opaque_pointer(op, a, b, c)
            if moved is not None:
                return moved
        if s is None or scalar_of(a.type) is None or scalar_of(b.type) is None:
            raise cs.unsupported(c, "pointer arithmetic (index the pointer instead)")
        x = self.fn.convert(self.rvalue(a), scalar_of(a.type), s)
        y = self.fn.convert(self.rvalue(b), scalar_of(b.type), s)
        return self.arith(op, x, y, s, c)

    def _offset_opaque_pointer(self, op: str, a: ci.Cursor, b: ci.Cursor,
                               c: ci.Cursor) -> ir.Value | None:
        """``s + n`` / ``s - n`` for a ``char *`` that is an address, not an array (what
        ``strrchr`` returns, a string literal): the address ``n`` bytes on. None if the
        pointer is not to plain char."""
        ptr, count = (a, b) if tm.is_pointer(a.type) else (b, a)
        if (op == "-" and ptr is not a) or scalar_of(count.type) is None or \
                tm.pointee(c.type).kind not in (ci.TypeKind.CHAR_S, ci.TypeKind.CHAR_U):
            return None
        base = self.rvalue(ptr)
        if str(base.type) != "!llvm.ptr":
            return None
        n = self.fn.convert(self.rvalue(count), scalar_of(count.type), tm.INDEX_LIKE)
        with self.fn.loc(c):
            if op == "-":
                n = arith.SubIOp(arith.ConstantOp(n.type, 0).result, n).result
            return element_address(base, n, ir.IntegerType.get_signless(8))

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
        if tm.struct_fields(a.type) is not None:  # a struct assignment copies its fields
            dst = self.lvalue(a)
            if dst.memref is None:
                raise cs.unsupported(where, "struct assignment")
            self.copy_struct(dst.memref, dst.indices, b, tm.struct_size(a.type), where,
                             in_slots=dst.in_slots)
            return self.fn.const_index(0)
        lv = self.lvalue(a)
        v = self.rvalue(b)
        with self.fn.loc(where):
            self.store(lv, v, where)
        return v

    def copy_struct(self, dst: ir.Value, at: tuple, source: ci.Cursor, count: int,
                    where: ci.Cursor, in_slots: bool = False) -> None:
        """The ``count`` slots of the struct ``source`` names copied into ``dst[at...]``
        (an assignment, or a declaration initialised from another struct); ``in_slots``:
        the last of ``at`` is the first slot (a struct field of a struct)."""
        literal = cs.strip_implicit(source)
        if literal.kind == K.COMPOUND_LITERAL_EXPR:  # `a[k] = (S){k, 2.0, {0}}`
            self._store_literal(dst, at, literal, count, where, in_slots)
            return
        src = self.lvalue(source)
        if src.memref is None:
            raise cs.unsupported(where, "struct copy")
        # a struct field of a struct of mixed fields (i64 slots) copied into a struct of
        # one type, or the other way: each slot converted by the field it holds
        converted = ir.MemRefType(src.memref.type).element_type != \
            ir.MemRefType(dst.type).element_type
        slot_types = tm.slot_types(source.type) if converted else None

        def copy(k: ir.Value, n: int | None = None) -> None:
            v = memref.LoadOp(src.memref, _slot(src.indices, src.in_slots, k)).result
            if slot_types is not None:
                v = self.fn.to_memory(self.fn.from_memory(v, slot_types[n]), dst)
            memref.StoreOp(v, dst, _slot(at, in_slots, k))

        with self.fn.loc(where):
            if count <= 8 or converted:
                for k in range(count):
                    copy(self.fn.const_index(k), k)
                return
            loop = scf.ForOp(self.fn.const_index(0), self.fn.const_index(count),
                             self.fn.const_index(1))
            with ir.InsertionPoint(loop.body):
                copy(loop.induction_variable)
                scf.YieldOp([])

    def _store_literal(self, dst: ir.Value, at: tuple, literal: ci.Cursor, count: int,
                       where: ci.Cursor, in_slots: bool = False) -> None:
        """A struct compound literal stored slot by slot, the slots it leaves out zero."""
        init = [k for k in cs.children(literal) if k.kind == K.INIT_LIST_EXPR]
        if len(init) != 1:
            raise cs.unsupported(where, "compound literal without a brace list")
        record = tm.canon(literal.type)
        given: list = []
        flatten_init(init[0], [count], (), given, record)
        slots = tm.slot_types(record)
        by_slot = {idx[0]: expr for idx, expr in given}
        with self.fn.loc(where):
            for k in range(count):
                expr = by_slot.get(k)
                if expr is None:
                    v = self.fn.const_scalar(0, scalar_of(slots[k]))
                else:
                    v = self.fn.convert(self.rvalue(expr), scalar_of(expr.type), scalar_of(slots[k]))
                memref.StoreOp(self.fn.to_memory(v, dst), dst,
                               _slot(at, in_slots, self.fn.const_index(k)))

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
            if not isinstance(wanted, ir.MemRefType):  # a struct the program only passes on
                return self.memref_to_ptr(one)
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
            if isinstance(pa[1], tuple) or isinstance(pb[1], tuple):
                raise cs.unsupported(s, "comparison of pointers into a multi-dimensional array")
            return self.fn.cmpi("eq" if op == "==" else "ne", pa[1], pb[1])
        x, y = self.rvalue(a), self.rvalue(b)
        x = self.address(x)
        y = self.address(y)
        return self.fn.cmpi("eq" if op == "==" else "ne", x, y)

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
