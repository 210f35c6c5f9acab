"""Reductions kept as copies of each thread's own: a worksharing loop's reduction whose
list item is not a local scalar or a small whole local array (a global scalar, a section
of a global or heap array, ``bins[0:nb]`` of a parameter).

Each thread of the team works on its own copy, set to the operator's identity where the
section lies, and after its share of the loop combines the copy into the list item in a
critical section; the loop's barrier then follows the combination. The dialect's
reduction clause needs an accumulator of the team's own (a local), which these are not.
"""

from __future__ import annotations

import dataclasses
import re
from contextlib import ExitStack
from typing import TYPE_CHECKING

from mlir import ir
from mlir.dialects import arith, memref, scf
from mlir.dialects import openmp as omp

from ..errors import CartsError
from . import typemap as tm
from .omp_data_sharing import REDUCTION_OPS
from .pragmas import Pragma
from .reductions import mark_scratch, own_copy, reduction_combine, reduction_identity
from .state import Var
from .typemap import scalar_of

if TYPE_CHECKING:
    from .function import FunctionEmitter
    from .omp_clauses import ClauseReader

_SECTION = re.compile(r"([A-Za-z_]\w*)\s*\[\s*([^:\]]*?)\s*:\s*([^\]]*?)\s*\]")

#: The dialect's reduction clause takes a whole local 1-D array of at most this many elements.
LOCAL_ARRAY_LIMIT = 64


@dataclasses.dataclass
class Copy:
    """One list item and the thread's copy of it: ``shared[lo + i]`` combines ``mine[at +
    i]`` for ``i < length`` (a scalar: ``length`` None)."""

    kind: str
    scalar: tm.Scalar
    shared: ir.Value
    mine: ir.Value
    lo: ir.Value | None = None
    at: ir.Value | None = None
    length: ir.Value | None = None
    heap: bool = False


def split(fn: "FunctionEmitter", clauses: "ClauseReader", p: Pragma,
          arrays: bool = False) -> tuple[list, Pragma]:
    """The reduction items of ``p`` to keep as own copies, (kind, name, section) each, and
    ``p`` without them; ``arrays``: every array and section item (a region's reduction,
    whose own copies the dialect's clause does not make), not only those the clause
    cannot take."""
    own, kept = [], []
    for c in p.clauses:
        if c.name != "reduction":
            kept.append(c)
            continue
        stay = []
        for item in (a.strip() for a in c.args):
            if (_is_scalar(clauses, p, item) if arrays else _dialect_takes(fn, clauses, p, item)):
                stay.append(item)
            else:
                own.append((REDUCTION_OPS[c.modifier], item))
        if stay:
            kept.append(dataclasses.replace(c, args=tuple(stay)))
    return own, dataclasses.replace(p, clauses=kept)


def _is_scalar(clauses, p: Pragma, item: str) -> bool:
    if _SECTION.fullmatch(item):
        return False
    _, var = clauses.variable(p, item)
    return not tm.is_array(var.ctype)


def _dialect_takes(fn, clauses, p: Pragma, item: str) -> bool:
    """Whether the dialect's reduction clause takes ``item``: a local scalar, or a whole
    local 1-D array of at most LOCAL_ARRAY_LIMIT elements."""
    m = _SECTION.fullmatch(item)
    name = m.group(1) if m else item
    _, var = clauses.variable(p, name)
    if not m and not tm.is_array(var.ctype):
        return True  # a scalar (openmp-to-arts gives a global one a local shadow)
    if not m or fn.lookup_name(name) is None:
        return False  # a whole array named as such, or a global one
    if var.kind != "mem" or not tm.is_array(var.ctype) or not isinstance(var.value.type, ir.MemRefType):
        return False
    mtype = ir.MemRefType(var.value.type)
    if mtype.rank != 1 or mtype.has_static_shape is False or mtype.shape[0] > LOCAL_ARRAY_LIMIT:
        return False
    lo, length = m.group(2), m.group(3)
    try:
        start = clauses.constant(p, lo) if lo else 0
        count = clauses.constant(p, length) if length else mtype.shape[0] - start
    except CartsError:  # not constants: a section of the array
        return False
    return start == 0 and count == mtype.shape[0]


def make(fn: "FunctionEmitter", clauses: "ClauseReader", p: Pragma, items, stack: ExitStack) -> list[Copy]:
    """Each item's copy, at the insertion point (the thread's code), set to the identity
    and bound in place of the variable while ``stack`` lasts."""
    copies = []
    for kind, item in items:
        m = _SECTION.fullmatch(item)
        name = m.group(1) if m else item
        key, var = clauses.variable(p, name)
        lo_text, length_text = (m.group(2), m.group(3)) if m else ("", "")
        if not m and not tm.is_array(var.ctype):
            s = scalar_of(var.ctype)
            if var.kind != "mem" or s is None:
                raise p.error(f"reduction variable '{name}' must be a scalar variable")
            _check_operator(p, kind, s, item)
            mine = own_copy(fn, kind, s)
            copies.append(Copy(kind, s, var.value, mine))
            stack.enter_context(fn.rebind(key, Var("mem", var.ctype, mine)))
            continue
        shared, elem = _array_of(fn, p, var, name)
        s = scalar_of(elem)
        if s is None:
            raise p.error(f"unsupported C construct: array-section reduction '{item}' of "
                          "elements that are not arithmetic")
        _check_operator(p, kind, s, item)
        index = ir.IndexType.get()
        lo = clauses.value(p, lo_text, index) if lo_text else fn.const_index(0)
        if length_text:
            length = clauses.value(p, length_text, index)
        elif tm.is_array(var.ctype) and ir.MemRefType(shared.type).has_static_shape:
            length = arith.SubIOp(fn.const_index(ir.MemRefType(shared.type).shape[0]), lo).result
        else:
            raise p.error(f"array-section reduction '{item}' needs a length")
        mtype = ir.MemRefType(shared.type)
        if tm.is_array(var.ctype):  # an array variable: a whole copy, indexed as it is
            if mtype.has_static_shape:
                mine, heap = fn.alloca(mtype), False
                mark_scratch(mine)
            else:
                dims = [memref.DimOp(shared, fn.const_index(d)).result for d in range(mtype.rank)
                        if mtype.shape[d] == ir.ShapedType.get_dynamic_size()]
                mine, heap = memref.AllocOp(mtype, dims, []).result, True
            at = lo
            stack.enter_context(fn.rebind(key, Var("mem", var.ctype, mine)))
        else:  # a pointer: a copy of the section, indexed from its start
            mine, heap = memref.AllocOp(ir.MemRefType.get([ir.ShapedType.get_dynamic_size()],
                                                          mtype.element_type), [length], []).result, True
            at = fn.const_index(0)
            shift = arith.SubIOp(fn.const_index(0), lo).result
            stack.enter_context(fn.rebind(key, Var("ssa", var.ctype, mine, offset=shift)))
        _over(length, lambda i: memref.StoreOp(reduction_identity(kind, s), mine,
                                               [arith.AddIOp(at, i).result]))
        copies.append(Copy(kind, s, shared, mine, lo, at, length, heap))
    return copies


def combine(copies: list[Copy]) -> None:
    """Every copy combined into its list item, in one critical section; heap copies freed."""
    critical = omp.CriticalOp()
    with ir.InsertionPoint(critical.region.blocks.append()):
        for c in copies:
            if c.length is None:
                total = reduction_combine(c.kind, c.scalar, memref.LoadOp(c.shared, []).result,
                                          memref.LoadOp(c.mine, []).result)
                memref.StoreOp(total, c.shared, [])
                continue

            def one(i: ir.Value, c: Copy = c) -> None:
                there = arith.AddIOp(c.lo, i).result
                here = arith.AddIOp(c.at, i).result
                total = reduction_combine(c.kind, c.scalar, memref.LoadOp(c.shared, [there]).result,
                                          memref.LoadOp(c.mine, [here]).result)
                memref.StoreOp(total, c.shared, [there])
            _over(c.length, one)
        omp.TerminatorOp()
    for c in copies:
        if c.heap:
            memref.DeallocOp(c.mine)


def _over(length: ir.Value, body) -> None:
    """``for (i = 0; i < length; i++) body(i)`` at the insertion point."""
    index = ir.IndexType.get()
    zero = arith.ConstantOp(index, ir.IntegerAttr.get(index, 0)).result
    one = arith.ConstantOp(index, ir.IntegerAttr.get(index, 1)).result
    loop = scf.ForOp(zero, length, one)
    with ir.InsertionPoint(loop.body):
        body(loop.induction_variable)
        scf.YieldOp([])


def _array_of(fn: "FunctionEmitter", p: Pragma, var: Var, name: str) -> tuple[ir.Value, object]:
    """(the memref a section indexes, its element's C type) of the variable ``name``: an
    array variable, or a pointer (held in a slot or as a value)."""
    if tm.is_array(var.ctype):
        if var.kind != "mem" or ir.MemRefType(var.value.type).rank != 1:
            raise p.error(f"unsupported C construct: array-section reduction on '{name}' (a "
                          "1-D array or a pointer is supported)")
        return var.value, tm.canon(var.ctype).element_type
    if not tm.is_memref_pointer(var.ctype) or tm.is_pointer(tm.pointee(var.ctype)):
        raise p.error(f"unsupported C construct: array-section reduction on '{name}' (a 1-D "
                      "array or a pointer to its elements is supported)")
    value = var.value
    if var.kind == "mem" and ir.MemRefType(value.type).rank == 0:
        value = fn.load(value)
    elif var.kind not in ("mem", "ssa") or var.offset is not None:
        raise p.error(f"unsupported C construct: array-section reduction on '{name}' here")
    return value, tm.pointee(var.ctype)


def _check_operator(p: Pragma, kind: str, s: tm.Scalar, item: str) -> None:
    if s.is_float and kind in ("and", "or", "xor", "land", "lor"):
        raise p.error(f"reduction on '{item}' with a bitwise or logical operator needs an "
                      "integer variable")
