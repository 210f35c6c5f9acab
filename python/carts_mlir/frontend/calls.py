"""Calls: user functions (``func.call``), libm (``math``/``arith`` ops), allocation and
memory routines (``memref`` ops and loops), varargs libc (``llvm.call``) and every other
library function (``func.call`` to a C-ABI declaration).

External declarations take every pointer as ``!llvm.ptr`` (the C ABI); a memref argument
is passed as its aligned pointer.  ``memset``/``memcpy`` on memrefs become loops so that
later passes see the accesses.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from typing import TYPE_CHECKING

import clang.cindex as ci
from mlir import ir
from mlir.dialects import arith, func, llvm, memref, scf

from ..errors import CartsError
from ..openmp_routines import OPENMP_ROUTINES
from . import builtins
from . import clang_support as cs
from . import typemap as tm
from .cursor_queries import is_null_constant
from .typemap import INT, scalar_of

if TYPE_CHECKING:
    from .expressions import ExprEmitter

K = ci.CursorKind

#: libm function (double form) -> MLIR op; the ``f`` suffix selects f32 ("sqrtf"). The rest
#: (copysign, hypot, ...) are calls to libm, as upstream's math-to-libm has no copysign.
MATH_OPS = {
    "sqrt": "math.sqrt", "exp": "math.exp", "exp2": "math.exp2", "expm1": "math.expm1",
    "log": "math.log", "log2": "math.log2", "log10": "math.log10", "log1p": "math.log1p",
    "sin": "math.sin", "cos": "math.cos", "tan": "math.tan", "tanh": "math.tanh",
    "sinh": "math.sinh", "cosh": "math.cosh", "asin": "math.asin", "acos": "math.acos",
    "atan": "math.atan", "atan2": "math.atan2", "erf": "math.erf", "cbrt": "math.cbrt",
    "floor": "math.floor", "ceil": "math.ceil", "round": "math.round", "trunc": "math.trunc",
    "fabs": "math.absf", "pow": "math.powf", "fma": "math.fma",
    "fmax": "arith.maxnumf", "fmin": "arith.minnumf",
}
INT_ABS = {"abs", "labs", "llabs"}
#: The alignment every heap allocation gets at least (a cache line; the runtime's datablocks
#: start on one too).
LINE = 64

#: Allocation functions: (index of the alignment argument or None, the byte-count factors'
#: arguments, whether the memory is zeroed). OpenMP's allocators are the C heap's here; the
#: allocator argument is not evaluated.
ALLOCATORS = {
    "malloc": (None, slice(0, 1), False),
    "calloc": (None, slice(0, 2), True),
    "omp_alloc": (None, slice(0, 1), False),
    "omp_calloc": (None, slice(0, 2), True),
    "omp_aligned_alloc": (0, slice(1, 2), False),
    "omp_aligned_calloc": (0, slice(1, 3), True),
    "realloc": (None, slice(1, 2), False),
    "omp_realloc": (None, slice(1, 2), False),
}
#: Allocation functions that resize what their first argument points to.
RESIZERS = {"realloc", "omp_realloc"}


def math_op_for(name: str) -> str | None:
    if name in MATH_OPS:
        return MATH_OPS[name]
    if name.endswith("f") and name[:-1] in MATH_OPS:
        return MATH_OPS[name[:-1]]
    return None


class CallEmitter:
    def __init__(self, expr: "ExprEmitter") -> None:
        self.expr = expr
        self.fn = expr.fn
        self.types = expr.types
        self.module = expr.fn.module

    # ------------------------------------------------------------------ dispatch

    def call(self, c: ci.Cursor, discard: bool = False) -> ir.Value | None:
        """Emit a call; ``discard`` when its value is unused (an expression statement)."""
        callee = c.referenced
        if callee is None or callee.kind != K.FUNCTION_DECL:
            raise cs.unsupported(c, "call through a function pointer")
        name = callee.spelling
        args = list(c.get_arguments())
        if name == "omp_set_num_threads":
            settings = self.fn.analysis.thread_count_settings
            self.fn.thread_count = (settings or {}).get(c.extent.start.offset)
        elif name == "omp_get_max_threads" and not args and self.fn.thread_count is not None \
                and not self.fn.omp.teams:
            with self.fn.loc(c):
                return self.fn.const_scalar(self.fn.thread_count, INT)
        if name == "omp_in_final" and not args and self.fn.omp.finals:
            with self.fn.loc(c):
                return self.fn.omp.in_final()
        fixed = self.fn.omp.team_of_one_answer(name) if not args else None
        if fixed is not None:
            with self.fn.loc(c):
                return self.fn.const_scalar(fixed, INT)
        if name in ALLOCATORS and not name.startswith("omp_"):  # those are the runtime's too
            raise cs.unsupported(c, f"{name} whose result is not cast to a typed pointer")
        if self.module.variants.get(name):
            constructs = frozenset(("parallel",) if self.fn.omp.teams else ()) | \
                frozenset(("for",) if self.fn.omp.in_loop else ())
            chosen = self.module.variant_for(name, constructs)
            if chosen != name:
                name, callee = chosen, self.module.user_functions[chosen]
        if self.module.is_user_function(name):
            if self.module.sets_thread_count(name):
                self.fn.thread_count = None
            return self.user_call(name, callee, args, c)
        if builtins.builtin_name(name):
            return builtins.emit(self, name, args, c)
        if name.startswith("__builtin_") and (math_op_for(name[10:]) or name[10:] in INT_ABS):
            name = name[10:]  # __builtin_fabs, __builtin_sqrtf, ...: the library function
        if math_op_for(name) is not None or name in INT_ABS:
            return self.math(name, args, c)
        special = {"free": self.free, "omp_free": self.free, "memset": self.memset,
                   "memcpy": self.memcpy}.get(name)
        if special is not None and (discard or name in ("free", "omp_free")):
            result = special(args, c)
            if result is not NotImplemented:
                return result
        if name in ("qsort", "bsearch", "setjmp", "longjmp", "signal"):
            raise cs.unsupported(c, f"call to '{name}'")
        if (not callee.canonical.location.is_in_system_header and not _libc_has(name)
                and name not in OPENMP_ROUTINES):
            raise CartsError(f"call to '{name}', which is declared but never defined",
                             cs.location_of(c))
        ftype = tm.canon(callee.type)
        if ftype.kind == ci.TypeKind.FUNCTIONPROTO and ftype.is_function_variadic():
            return self.vararg_call(name, callee, args, c)
        if name in ("omp_capture_affinity", "omp_display_affinity"):
            return self._affinity_of_team(name, callee, args, c)
        result = self.external_call(name, callee, args, c)
        if name in ("omp_get_team_size", "omp_get_ancestor_thread_num") and self.fn.omp.nested:
            result = self._nested_levels(name, result, c)
        return result

    def _affinity_of_team(self, name: str, callee: ci.Cursor, args: list[ci.Cursor],
                          c: ci.Cursor) -> ir.Value | None:
        """``omp_capture_affinity``/``omp_display_affinity`` with the asking thread's
        number, its team's size and its level, which only the compiler knows (the
        runtime's threads are workers, not the team's): ``carts_*_in_team``."""
        inputs, result = self._signature(callee, c)
        if len(inputs) != len(args):
            raise cs.unsupported(c, f"call to '{name}' with {len(args)} arguments")
        values = [self._abi_argument(a, t) for a, t in zip(args, inputs)]
        i32 = self.types.i(32)
        results = [result] if result is not None else []
        with self.fn.loc(c):
            for query in ("omp_get_thread_num", "omp_get_num_threads", "omp_get_level"):
                fixed = self.fn.omp.team_of_one_answer(query)
                if fixed is not None:
                    values.append(self.fn.const_scalar(fixed, INT))
                    continue
                self.module.declare_function(query, [], [i32], c)
                values.append(func.CallOp([i32], ir.FlatSymbolRefAttr.get(query), []).result)
            target = f"carts_{name[len('omp_'):]}_in_team"
            self.module.declare_function(target, inputs + [i32] * 3, results, c)
            op = func.CallOp(results, ir.FlatSymbolRefAttr.get(target), values)
        return op.results[0] if results else None

    def _nested_levels(self, name: str, answer: ir.Value, c: ci.Cursor) -> ir.Value:
        """In a region nested in the team's (a team of one, one level deeper per nesting),
        the levels between 2 and the current one are those teams of one: size 1, thread
        0. ``answer`` is the call's own, right for levels 0 and 1 and -1 beyond."""
        with self.fn.loc(c):
            level = answer.owner.operands[0]
            i32 = level.type
            low = arith.CmpIOp(arith.CmpIPredicate.sge, level,
                               arith.ConstantOp(i32, 2).result).result
            high = arith.CmpIOp(arith.CmpIPredicate.sle, level,
                                arith.ConstantOp(i32, 1 + self.fn.omp.nested).result).result
            inner = arith.AndIOp(low, high).result
            fixed = arith.ConstantOp(i32, 1 if name == "omp_get_team_size" else 0).result
            return arith.SelectOp(inner, fixed, answer).result

    # ------------------------------------------------------------------ user functions

    def user_call(self, name: str, callee: ci.Cursor, args: list[ci.Cursor], c: ci.Cursor) -> ir.Value | None:
        ftype = tm.canon(callee.type)
        if ftype.kind == ci.TypeKind.FUNCTIONPROTO and ftype.is_function_variadic():
            raise cs.unsupported(c, "variadic user function")
        param_types = self.module.function_signature(name)
        if param_types is None:
            raise cs.unsupported(c, f"call to '{name}'")
        inputs, results = param_types
        if len(inputs) != len(args):
            raise cs.unsupported(c, f"call to '{name}' with {len(args)} arguments")
        values = []
        for arg, ptype in zip(args, inputs):
            v = self.expr.rvalue(arg)
            if v.type != ptype:
                v = self.expr.coerce_memref(v, ptype, arg)
            values.append(v)
        with self.fn.loc(c):
            op = func.CallOp(results, ir.FlatSymbolRefAttr.get(name), values)
        return op.results[0] if results else None

    # ------------------------------------------------------------------ libm

    def math(self, name: str, args: list[ci.Cursor], c: ci.Cursor) -> ir.Value:
        values = [self.expr.rvalue(a) for a in args]
        rtype = self.types.to_mlir(c.type, c)
        if name in INT_ABS:
            return self.int_abs(name, values, rtype, c)
        opname = math_op_for(name)
        expected = 3 if opname == "math.fma" else 2 if opname in (
            "math.powf", "math.atan2", "arith.maxnumf", "arith.minnumf") else 1
        if len(values) != expected:
            raise cs.unsupported(c, f"call to '{name}' with {len(values)} arguments")
        for v in values:
            if v.type != rtype:
                raise cs.unsupported(c, f"'{name}' on {v.type}")
        with self.fn.loc(c):
            return ir.Operation.create(opname, results=[rtype], operands=values).result

    def int_abs(self, name: str, values: list[ir.Value], rtype: ir.Type, c: ci.Cursor) -> ir.Value:
        """``abs``/``labs``/``llabs`` as ``x < 0 ? 0 - x : x`` (what C defines, wrapping
        on the most negative value as gcc's code does): arithmetic every later stage knows,
        which LLVM folds back into its ``abs`` intrinsic."""
        if len(values) != 1:
            raise cs.unsupported(c, f"call to '{name}' with {len(values)} arguments")
        x = values[0]
        if x.type != rtype:
            raise cs.unsupported(c, f"'{name}' on {x.type}")
        with self.fn.loc(c):
            zero = arith.ConstantOp(rtype, 0).result
            negative = arith.CmpIOp(arith.CmpIPredicate.slt, x, zero).result
            return arith.SelectOp(negative, arith.SubIOp(zero, x).result, x).result

    # ------------------------------------------------------------------ allocation

    @staticmethod
    def allocation_call(sub: ci.Cursor) -> ci.Cursor | None:
        s = cs.strip_implicit(sub)
        if s.kind == K.CALL_EXPR and s.spelling in ALLOCATORS:
            callee = s.referenced
            if callee is not None and callee.kind == K.FUNCTION_DECL:
                return s
        return None

    def allocate(self, call: ci.Cursor, to_type: ci.Type, where: ci.Cursor) -> ir.Value:
        """``(T *)malloc(bytes)`` / ``calloc(n, size)`` -> ``memref.alloc(count)`` (and the
        OpenMP allocators alike: an alignment known at compile time is the allocation's).
        Every allocation starts on a 64-byte line at least, as every datablock does, so a
        program that checks an allocator's alignment trait through the address sees the
        same on the task runtime and without it."""
        target = self.types.to_mlir(to_type, where)
        args = list(call.get_arguments())
        if tm.is_opaque_pointer(to_type):
            return self.external_call(call.spelling, call.referenced, args, call)
        elem_size = tm.pointee(to_type).get_size()
        if elem_size <= 0:
            raise cs.unsupported(where, f"allocation of '{to_type.spelling}'")
        align_arg, factors, zeroed = ALLOCATORS[call.spelling]
        alignment = LINE
        if align_arg is not None:
            value = cs.evaluate(args[align_arg])
            if isinstance(value, int) and value > 0 and value & (value - 1) == 0:
                alignment = max(value, LINE)
        with self.fn.loc(call):
            old = None
            if call.spelling in RESIZERS:  # the pointer first, as C evaluates it
                old = self.expr.coerce_memref(self.expr.rvalue(_strip_pointer_casts(args[0])),
                                              target, call)
            count = self.element_count(args[factors], elem_size, call)
            rows = isinstance(ir.MemRefType(target).element_type, ir.MemRefType)
            line = None if rows else ir.IntegerAttr.get(ir.IntegerType.get_signless(64),
                                                        alignment)  # a row table: no data
            alloc = memref.AllocOp(target, [count], [], alignment=line).result
            if old is not None:
                self._move_into(old, alloc, count)
            if zeroed:
                elem = ir.MemRefType(target).element_type
                if ir.MemRefType(target).rank == 1 and not isinstance(elem, ir.MemRefType):
                    self.fill_loop(alloc, count, self.fn.zero(elem))
        return alloc

    def _move_into(self, old: ir.Value, new: ir.Value, count: ir.Value) -> None:
        """``realloc``'s copy: the elements both allocations have, then the old one freed
        (a pointer of this subset always points to an allocation: it is never NULL)."""
        kept = arith.MinUIOp(memref.DimOp(old, self.fn.const_index(0)).result, count).result
        extents = [kept] + [self.fn.const_index(d) for d in ir.MemRefType(old.type).shape[1:]]

        def nest(ivs: list[ir.Value]) -> None:  # rows of a struct or of a fixed-size array
            if len(ivs) == len(extents):
                memref.StoreOp(memref.LoadOp(old, ivs).result, new, ivs)
                return
            loop = scf.ForOp(self.fn.const_index(0), extents[len(ivs)], self.fn.const_index(1))
            with ir.InsertionPoint(loop.body):
                nest(ivs + [loop.induction_variable])
                scf.YieldOp([])

        nest([])
        memref.DeallocOp(old)

    def element_count(self, factors: list[ci.Cursor], elem_size: int, where: ci.Cursor) -> ir.Value:
        """Number of elements in a byte count given as a product of factors: a constant
        factor that is a multiple of the element size (``sizeof(T)``) is divided out;
        otherwise the product is divided by the element size."""
        flat: list[ci.Cursor] = []
        for f in factors:
            _flatten_product(f, flat)
        constant = 1
        symbolic: list[ci.Cursor] = []
        for f in flat:
            value = cs.evaluate(f)
            if isinstance(value, int) and not _has_side_effects(f):
                constant *= value
            else:
                symbolic.append(f)
        count: ir.Value | None = None
        for f in symbolic:
            inner = tm.strip_int_widening(f)
            v = self.fn.to_index(self.expr.rvalue(inner), scalar_of(inner.type))
            count = v if count is None else arith.MulIOp(count, v).result
        if constant % elem_size == 0:
            scale = constant // elem_size
            if count is None:
                return self.fn.const_index(scale)
            if scale != 1:
                count = arith.MulIOp(count, self.fn.const_index(scale)).result
            return count
        total = self.fn.const_index(constant) if count is None else arith.MulIOp(
            count, self.fn.const_index(constant)).result
        return arith.DivUIOp(total, self.fn.const_index(elem_size)).result

    def fill_loop(self, target: ir.Value, count: ir.Value, value: ir.Value, start: ir.Value | None = None) -> None:
        loop = scf.ForOp(start if start is not None else self.fn.const_index(0), count, self.fn.const_index(1))
        with ir.InsertionPoint(loop.body):
            memref.StoreOp(value, target, [loop.induction_variable])
            scf.YieldOp([])

    def free(self, args: list[ci.Cursor], c: ci.Cursor):
        if c.referenced is not None and c.referenced.spelling == "omp_free" and len(args) == 2:
            args = args[:1]  # the allocator is the C heap's
        if len(args) != 1:
            return NotImplemented
        inner = _strip_pointer_casts(args[0])
        v = self.expr.rvalue(inner)
        with self.fn.loc(c):
            if isinstance(v.type, ir.MemRefType):
                memref.DeallocOp(v)
                return None
        return NotImplemented

    def memset(self, args: list[ci.Cursor], c: ci.Cursor):
        if len(args) != 3:
            return NotImplemented
        target, elem_type = self._memory_operand(args[0])
        byte = cs.evaluate(args[1])
        if target is None or not isinstance(byte, int):
            return NotImplemented
        elem = ir.MemRefType(target.type).element_type
        if isinstance(elem, ir.MemRefType) or (byte != 0 and str(elem) != "i8"):
            return NotImplemented
        with self.fn.loc(c):
            count = self.element_count([args[2]], elem_type.get_size(), c)
            value = self.fn.const_int(byte, elem) if str(elem) == "i8" else self.fn.zero(elem)
            self.fill_loop(target, count, value)
        return None

    def _memory_operand(self, arg: ci.Cursor) -> tuple[ir.Value | None, ci.Type | None]:
        """The 1-D memref behind a ``void *`` argument of memset/memcpy, and its C element
        type; (None, None) when it is not one."""
        inner = _strip_pointer_casts(arg)
        if tm.is_array(inner.type):
            lv = self.expr.lvalue(inner)
            if lv.memref is None or lv.indices or ir.MemRefType(lv.memref.type).rank != 1:
                return None, None
            return lv.memref, tm.canon(tm.canon(inner.type).element_type)
        if tm.is_memref_pointer(inner.type):
            v = self.expr.rvalue(inner)
            if ir.MemRefType(v.type).rank != 1:
                return None, None
            return v, tm.pointee(inner.type)
        return None, None

    def memcpy(self, args: list[ci.Cursor], c: ci.Cursor):
        if len(args) != 3:
            return NotImplemented
        d, dt = self._memory_operand(args[0])
        s, st = self._memory_operand(args[1])
        if d is None or s is None:
            return NotImplemented
        elem = ir.MemRefType(d.type).element_type
        if elem != ir.MemRefType(s.type).element_type:
            return NotImplemented
        with self.fn.loc(c):
            count = self.element_count([args[2]], dt.get_size(), c)
            loop = scf.ForOp(self.fn.const_index(0), count, self.fn.const_index(1))
            with ir.InsertionPoint(loop.body):
                v = memref.LoadOp(s, [loop.induction_variable]).result
                memref.StoreOp(v, d, [loop.induction_variable])
                scf.YieldOp([])
        return None

    # ------------------------------------------------------------------ library calls

    def _abi_type(self, t: ci.Type, where: ci.Cursor) -> ir.Type | None:
        if tm.is_pointer(t) or tm.is_array(t):
            if tm.is_function_pointer(t):
                raise cs.unsupported(where, "function pointer argument")
            return self.types.llvm_ptr()
        return self.types.to_mlir(t, where)

    def _abi_argument(self, arg: ci.Cursor, ptype: ir.Type | None) -> ir.Value:

        if ptype is not None and str(ptype) == "!llvm.ptr":
            if is_null_constant(arg):
                return llvm.ZeroOp(ptype).result
            v = self.expr.rvalue(arg)
            if isinstance(v.type, ir.MemRefType):
                return self.expr.memref_to_ptr(v)
            return v
        v = self.expr.rvalue(arg)
        if isinstance(v.type, ir.MemRefType):
            return self.expr.memref_to_ptr(v)
        return v

    def _signature(self, callee: ci.Cursor, c: ci.Cursor) -> tuple[list[ir.Type], ir.Type | None]:
        ftype = tm.canon(callee.type)
        params = list(ftype.argument_types()) if ftype.kind == ci.TypeKind.FUNCTIONPROTO else []
        inputs = [self._abi_type(p, c) for p in params]
        result_c = ftype.get_result()
        if tm.is_memref_pointer(result_c):
            raise cs.unsupported(c, f"library function '{callee.spelling}' returning a typed pointer")
        result = self._abi_type(result_c, c)
        return inputs, result

    def external_call(self, name: str, callee: ci.Cursor, args: list[ci.Cursor], c: ci.Cursor) -> ir.Value | None:
        inputs, result = self._signature(callee, c)
        if len(inputs) != len(args):
            raise cs.unsupported(c, f"call to '{name}' without a prototype")
        values = [self._abi_argument(a, t) for a, t in zip(args, inputs)]
        with self.fn.loc(c):
            self.module.declare_function(name, inputs, [result] if result is not None else [], c)
            op = func.CallOp([result] if result is not None else [], ir.FlatSymbolRefAttr.get(name), values)
        return op.results[0] if result is not None else None

    def vararg_call(self, name: str, callee: ci.Cursor, args: list[ci.Cursor], c: ci.Cursor) -> ir.Value | None:
        inputs, result = self._signature(callee, c)
        values = [self._abi_argument(a, inputs[k] if k < len(inputs) else None) for k, a in enumerate(args)]
        with self.fn.loc(c):
            fn_type = self.module.declare_vararg(name, inputs, result, c)
            op = llvm.CallOp(result, values, [], [], callee=ir.FlatSymbolRefAttr.get(name),
                             var_callee_type=ir.TypeAttr.get(fn_type))
        return op.result if result is not None else None


# ---------------------------------------------------------------------- helpers


@functools.cache
def _libc_has(name: str) -> bool:
    """Whether the C library or libm defines ``name`` (a libc function the program
    declares itself, without its header)."""
    for lib in (None, ctypes.util.find_library("m")):
        try:
            getattr(ctypes.CDLL(lib), name)
            return True
        except (AttributeError, OSError):
            continue
    return False


def _flatten_product(c: ci.Cursor, out: list[ci.Cursor]) -> None:
    s = cs.strip_implicit(c)
    if s.kind == K.BINARY_OPERATOR and cs.binary_operator(s) == "*":
        a, b = cs.children(s)
        _flatten_product(a, out)
        _flatten_product(b, out)
    else:
        out.append(c)


def _strip_pointer_casts(c: ci.Cursor) -> ci.Cursor:
    """``free(p)`` sees ``(void *)p``: get back to ``p``."""
    while True:
        s = cs.strip_parens(c)
        if s.kind in (K.UNEXPOSED_EXPR, K.CSTYLE_CAST_EXPR) and tm.is_pointer(s.type):
            kids = [k for k in cs.children(s) if k.kind.is_expression()]
            if len(kids) == 1 and (tm.is_pointer(kids[0].type) or tm.is_array(kids[0].type)):
                if tm.is_array(kids[0].type):
                    return kids[0]
                c = kids[0]
                continue
        return s


def _has_side_effects(c: ci.Cursor) -> bool:
    return any(n.kind == K.CALL_EXPR for n in cs.walk(c))
