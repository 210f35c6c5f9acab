"""The reductions OpenMP names (``+``, ``max``, ``&&``, ...): each one's identity and how
two partial values combine, for the declared reductions of loops and for a region's own."""

from __future__ import annotations

import math

from mlir import ir

from .typemap import Scalar


def own_copy(fn, kind: str, s: Scalar) -> ir.Value:
    """A thread's (or a task's) own copy of a reduction variable: a slot of the current
    allocation scope, set to the operator's identity."""
    from mlir.dialects import memref

    mine = fn.alloca(ir.MemRefType.get([], s.mlir()))
    mark_scratch(mine)
    memref.StoreOp(reduction_identity(kind, s), mine, [])
    return mine


#: The attribute of an alloca whose every use is preceded by a store of its construct (a
#: reduction's own copy, set to the identity where the construct starts): it carries
#: nothing from one run of the construct to the next.
SCRATCH = "arts.scratch"


def mark_scratch(slot: ir.Value) -> None:
    """Tags the alloca defining ``slot`` as SCRATCH storage."""
    slot.owner.attributes[SCRATCH] = ir.UnitAttr.get()


def combine_in_critical(copies: list[tuple[ir.Value, ir.Value, Scalar, str]]) -> None:
    """Each own copy combined into its shared variable, (shared, own, scalar, kind[, indices
    of the element]), in one
    critical section (which openmp-to-arts makes an atomic update where it can)."""
    from mlir.dialects import memref
    from mlir.dialects import openmp as omp

    critical = omp.CriticalOp()
    with ir.InsertionPoint(critical.region.blocks.append()):
        for shared, mine, s, kind, *at in copies:
            at = at[0] if at else []  # the element of an array item (a[k]), else a scalar
            total = reduction_combine(kind, s, memref.LoadOp(shared, at).result,
                                      memref.LoadOp(mine, at).result)
            memref.StoreOp(total, shared, at)
        omp.TerminatorOp()


def reduction_identity(kind: str, s: Scalar) -> ir.Value:
    """The identity of reduction ``kind`` on ``s``, as a constant at the insertion point."""
    from mlir.dialects import arith

    t = s.mlir()
    attr = ir.FloatAttr.get(t, _identity(kind, s)) if s.is_float else \
        ir.IntegerAttr.get(t, _identity(kind, s))
    return arith.ConstantOp(t, attr).result


def reduction_combine(kind: str, s: Scalar, a: ir.Value, b: ir.Value) -> ir.Value:
    """``a`` combined with ``b`` by reduction ``kind``, at the insertion point."""
    from mlir.dialects import arith

    t = s.mlir()
    if kind in ("land", "lor"):  # C's && and ||: 0 or 1
        zero = arith.ConstantOp(t, ir.IntegerAttr.get(t, 0)).result
        ta = arith.CmpIOp(arith.CmpIPredicate.ne, a, zero).result
        tb = arith.CmpIOp(arith.CmpIPredicate.ne, b, zero).result
        both = (arith.AndIOp if kind == "land" else arith.OrIOp)(ta, tb).result
        return arith.ExtUIOp(t, both).result
    opname = _COMBINERS[(kind, "f" if s.is_float else "u" if s.unsigned else "s")]
    return ir.Operation.create(opname, results=[t], operands=[a, b]).result


_COMBINERS = {
    ("add", "f"): "arith.addf", ("add", "s"): "arith.addi", ("add", "u"): "arith.addi",
    ("mul", "f"): "arith.mulf", ("mul", "s"): "arith.muli", ("mul", "u"): "arith.muli",
    ("max", "f"): "arith.maxnumf", ("max", "s"): "arith.maxsi", ("max", "u"): "arith.maxui",
    ("min", "f"): "arith.minnumf", ("min", "s"): "arith.minsi", ("min", "u"): "arith.minui",
    ("and", "s"): "arith.andi", ("and", "u"): "arith.andi", ("or", "s"): "arith.ori",
    ("or", "u"): "arith.ori", ("xor", "s"): "arith.xori", ("xor", "u"): "arith.xori",
}


def _identity(kind: str, s: Scalar):
    if s.is_float:
        return {"add": 0.0, "mul": 1.0, "max": -math.inf, "min": math.inf}[kind]
    bits = s.width
    lo, hi = (0, (1 << bits) - 1) if s.unsigned else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    value = {"add": 0, "mul": 1, "max": lo, "min": hi, "and": -1, "or": 0, "xor": 0,
             "land": 1, "lor": 0}[kind]
    value &= (1 << bits) - 1
    if value >= 1 << (bits - 1):
        value -= 1 << bits
    return value
