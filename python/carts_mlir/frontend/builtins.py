"""The compiler builtins C headers expand to: ``INFINITY``, ``HUGE_VAL`` and ``NAN``
(``__builtin_inff()``, ...), the classification macros of <math.h> (``isnan``, ``isinf``,
``isfinite``, ``isnormal``, ``signbit``, ``fpclassify``), ``__builtin_expect`` and the
``__builtin_`` spellings of libm functions. Each becomes arithmetic, as a C compiler
folds them, so no stage downstream sees a call."""

from __future__ import annotations

import math
import struct
from typing import TYPE_CHECKING, Callable

import clang.cindex as ci
from mlir import ir
from mlir.dialects import arith

from . import clang_support as cs

if TYPE_CHECKING:
    from .calls import CallEmitter

#: Smallest normal magnitude per float width (FLT_MIN, DBL_MIN).
_MIN_NORMAL = {32: struct.unpack("<f", struct.pack("<I", 0x00800000))[0],
               64: 2.2250738585072014e-308}


def builtin_name(name: str) -> bool:
    return name in _CONSTANTS or name in _CLASSIFIERS or name == "__builtin_expect"


def emit(calls: "CallEmitter", name: str, args: list[ci.Cursor], c: ci.Cursor) -> ir.Value:
    fn = calls.fn
    rtype = calls.types.to_mlir(c.type, c)
    with fn.loc(c):
        if name in _CONSTANTS:
            if not isinstance(rtype, ir.FloatType):
                raise cs.unsupported(c, f"'{name}' of type {rtype}")
            return fn.const_float(_CONSTANTS[name], rtype)
        values = [calls.expr.rvalue(a) for a in args]
        if name == "__builtin_expect":
            if len(values) != 2:
                raise cs.unsupported(c, f"call to '{name}' with {len(values)} arguments")
            return values[0]
        arity = 6 if name == "__builtin_fpclassify" else 1
        if len(values) != arity:
            raise cs.unsupported(c, f"call to '{name}' with {len(values)} arguments")
        x = values[-1]
        if not isinstance(x.type, ir.FloatType):
            raise cs.unsupported(c, f"'{name}' on {x.type}")
        if name == "__builtin_fpclassify":
            return _fpclassify(fn, values[:5], x, rtype)
        result = _CLASSIFIERS[name](fn, x)
        if result.type == rtype:
            return result
        if ir.IntegerType(result.type).width == 1:
            return arith.ExtUIOp(rtype, result).result
        return result


def _magnitude_is(fn, pred: str, x: ir.Value, bound: float) -> ir.Value:
    from mlir.dialects import math as mmath

    return fn.cmpf(pred, mmath.AbsFOp(x).result, fn.const_float(bound, x.type))


def _isinf_sign(fn, x: ir.Value) -> ir.Value:
    i32 = ir.IntegerType.get_signless(32)
    infinite = _magnitude_is(fn, "oeq", x, math.inf)
    positive = fn.cmpf("ogt", x, fn.const_float(0.0, x.type))
    sign = arith.SelectOp(positive, fn.const_int(1, i32), fn.const_int(-1, i32)).result
    return arith.SelectOp(infinite, sign, fn.const_int(0, i32)).result


def _signbit(fn, x: ir.Value) -> ir.Value:
    width = ir.FloatType(x.type).width
    as_int = arith.BitcastOp(ir.IntegerType.get_signless(width), x).result
    return fn.cmpi("slt", as_int, fn.const_int(0, as_int.type))


def _isnormal(fn, x: ir.Value) -> ir.Value:
    width = ir.FloatType(x.type).width
    above = _magnitude_is(fn, "oge", x, _MIN_NORMAL[width])
    finite = _magnitude_is(fn, "olt", x, math.inf)
    return arith.AndIOp(above, finite).result


def _fpclassify(fn, codes: list[ir.Value], x: ir.Value, rtype: ir.Type) -> ir.Value:
    """``fpclassify(x)``: glibc passes the five class codes first (NaN, infinite, normal,
    subnormal, zero), then the value."""
    nan, inf, normal, subnormal, zero = codes
    width = ir.FloatType(x.type).width
    result = subnormal
    result = arith.SelectOp(fn.cmpf("oeq", x, fn.const_float(0.0, x.type)), zero, result).result
    result = arith.SelectOp(_magnitude_is(fn, "oge", x, _MIN_NORMAL[width]), normal, result).result
    result = arith.SelectOp(_magnitude_is(fn, "oeq", x, math.inf), inf, result).result
    result = arith.SelectOp(fn.cmpf("uno", x, x), nan, result).result
    return result


_CONSTANTS = {name: value for names, value in (
    (("__builtin_inf", "__builtin_inff", "__builtin_huge_val", "__builtin_huge_valf"), math.inf),
    (("__builtin_nan", "__builtin_nanf"), math.nan),
) for name in names}

_CLASSIFIERS: dict[str, Callable] = {
    "__builtin_isnan": lambda fn, x: fn.cmpf("uno", x, x),
    "__builtin_isinf": lambda fn, x: _magnitude_is(fn, "oeq", x, math.inf),
    "__builtin_isinf_sign": _isinf_sign,
    "__builtin_isfinite": lambda fn, x: _magnitude_is(fn, "one", x, math.inf),
    "__builtin_isnormal": _isnormal,
    "__builtin_signbit": _signbit,
    "__builtin_signbitf": _signbit,
    "__builtin_fpclassify": None,
}
