"""The translation unit -> one ``builtin.module``: functions in source order, and the
module-level symbols they need (globals, string constants, external declarations,
``omp.declare_reduction``s), which are kept ahead of the functions."""

from __future__ import annotations


import dataclasses

import clang.cindex as ci
import numpy as np
from mlir import ir
from mlir.dialects import memref

from . import clang_support as cs
from . import typemap as tm
from .cursor_queries import flatten_init, parameter_types
from .pragmas import selector_matches
from .function import FunctionEmitter
from .._bounds import MAX_THREADS
from .omp_declare_reduction import declared_operator
from .pragmas import REDUCTION_CLAUSES, PragmaQueue, collect_pragmas

#: Copies of a threadprivate variable: one per thread number a team can have.
THREADPRIVATE_COPIES = MAX_THREADS
#: What the copies of one threadprivate variable may take together.
THREADPRIVATE_BYTES = 64 << 20
from .reductions import reduction_combine, reduction_identity
from .typemap import Scalar, TypeMapper

K = ci.CursorKind


class ModuleEmitter:
    def __init__(self, tu: ci.TranslationUnit, path: str, openmp: bool) -> None:
        self.tu = tu
        self.path = path
        self.openmp = openmp
        self.ctx = ir.Context()
        self.types = TypeMapper()
        self._locs: dict[tuple, ir.Location] = {}
        self._macros: dict[str, list[str]] | None = None
        self.user_functions: dict[str, ci.Cursor] = {}
        self._setters: set[str] | None = None
        #: ``declare variant``: function -> (variant, match selector, its pragma), in order.
        self.variants: dict[str, list] = {}
        self._signatures: dict[str, tuple[list[ir.Type], list[ir.Type]]] = {}
        self._emitted: set[str] = set()
        self._worklist: list[ci.Cursor] = []
        self._symbols: dict[str, ir.Operation] = {}
        self._globals: dict[str, tuple[str, ir.Type]] = {}
        #: File-scope variables with a copy per thread (``threadprivate``).
        self.threadprivate: set[str] = set()
        self._global_decls: dict[str, ci.Cursor] = {}
        self._strings: dict[bytes, str] = {}
        self._first_function: ir.Operation | None = None
        with self.ctx:
            self.pragmas: PragmaQueue = collect_pragmas(tu, path)

    # ------------------------------------------------------------------ driver

    def emit(self) -> ir.Module:
        with self.ctx, self.loc_at(self.path, 1, 1):
            self.module = ir.Module.create()
            self._scan()
            self._check_pragma_placement()
            for name, decl in list(self._global_decls.items()):
                if _file_of(decl) == self.path and name not in self._globals:
                    self._define_global(decl, name)
            for cursor in list(self.user_functions.values()):
                if _file_of(cursor) == self.path:
                    self._emit_function(cursor)
            while self._worklist:
                self._emit_function(self._worklist.pop(0))
        return self.module

    def _scan(self) -> None:
        """Collect user definitions; reject unsupported top-level constructs early."""
        for c in self.tu.cursor.get_children():
            if c.location.file is None or c.location.is_in_system_header:
                continue
            k = c.kind
            if k == K.UNION_DECL or (k == K.STRUCT_DECL and c.is_definition() and
                                     tm.struct_fields(c.type) is None):
                raise cs.unsupported(c, "union" if k == K.UNION_DECL else tm.STRUCT_SUPPORTED)
            if k == K.FUNCTION_DECL:
                if c.is_definition():
                    self.user_functions[c.spelling] = c
            elif k == K.VAR_DECL:
                if tm.is_function_pointer(c.type):
                    raise cs.unsupported(c, "function pointer")
                if c.storage_class != ci.StorageClass.EXTERN or c.is_definition():
                    self._global_decls.setdefault(c.spelling, c)
            elif k == K.TYPEDEF_DECL:
                if tm.is_function_pointer(c.underlying_typedef_type):
                    raise cs.unsupported(c, "function pointer")
                under = tm.canon(c.underlying_typedef_type)
                if under.kind == ci.TypeKind.RECORD and tm.struct_fields(under) is None:
                    raise cs.unsupported(c, tm.STRUCT_SUPPORTED)

    def _check_pragma_placement(self) -> None:
        """Every ``#pragma omp`` must be inside a function body of the main file."""
        bodies = [(c.extent.start.offset, c.extent.end.offset) for c in self.user_functions.values()
                  if _file_of(c) == self.path]
        declared: dict[str, str] = {}  # declare reduction: its name -> a built-in operator
        taken = []
        for p in self.pragmas.pragmas:
            if p.directive == "declare" and p.clause("reduction"):  # at file or block scope
                name, op = declared_operator(p, self.macros)
                declared[name] = op
                taken.append(p)
                continue
            if not any(lo <= p.offset < hi for lo, hi in bodies):
                if p.directive == "threadprivate":
                    self._threadprivate(p)
                    continue
                if p.directive == "declare" and p.clause("variant") and p.clause("match"):
                    if self.openmp:  # without -fopenmp the base function is called, as gcc does
                        self._declare_variant(p)
                    continue
                raise p.error(f"unsupported C construct: omp {p.spelled} outside a function")
        if taken:  # a declare reduction is no statement's directive
            self.pragmas = PragmaQueue([p for p in self.pragmas.pragmas
                                        if not any(p is q for q in taken)])
        for p in self.pragmas.pragmas:  # `reduction(mymax: x)` is the operator it stands for
            p.clauses = [dataclasses.replace(c, modifier=declared[c.modifier])
                         if c.name in REDUCTION_CLAUSES and c.modifier in declared else c
                         for c in p.clauses]

    def _declare_variant(self, p) -> None:
        """``#pragma omp declare variant(v) match(selector)`` before a function's
        declaration: a call of the function where this host and the constructs around the
        call match the selector calls ``v`` instead (``CallEmitter``)."""
        variant = p.clause("variant").args[0].strip() if p.clause("variant").args else ""
        following = [c for c in self.tu.cursor.get_children()
                     if c.kind == ci.CursorKind.FUNCTION_DECL and _file_of(c) == self.path
                     and c.extent.start.offset > p.offset]
        if not following or variant not in self.user_functions:
            raise p.error(f"omp declare variant needs a defined variant function ('{variant}') "
                          "and the declaration of the function it stands for after it")
        base = min(following, key=lambda c: c.extent.start.offset).spelling
        self.variants.setdefault(base, []).append((variant, ",".join(p.clause("match").args), p))

    def variant_for(self, name: str, constructs: frozenset[str]) -> str:
        """The function a call of ``name`` calls: its first declared variant whose selector
        matches here, else ``name``."""
        for variant, selector, p in self.variants.get(name, ()):
            if selector_matches(selector, p.location, self.macros, constructs,
                                "omp declare variant"):
                return variant
        return name

    def _threadprivate(self, p) -> None:
        """``#pragma omp threadprivate(list)`` at file scope: each variable gets a copy per
        thread (with ``-fopenmp``; without, the pragma is ignored, as gcc does)."""
        names = p.clause("list").args if p.clause("list") else ()
        if not names or not all(names):
            raise p.error("threadprivate needs a list of variables")
        for name in names:
            decl = self._global_decls.get(name)
            if decl is None or decl.extent.start.offset > p.offset:
                raise p.error(f"'{name}' in threadprivate is not a file-scope variable declared "
                              "before the directive")
            if not self.openmp:
                continue
            size = max(decl.type.get_size(), 1)
            if size * THREADPRIVATE_COPIES > THREADPRIVATE_BYTES:
                raise p.error(f"unsupported C construct: threadprivate '{name}' of {size} bytes "
                              f"(a copy for each of {THREADPRIVATE_COPIES} threads must fit in "
                              f"{THREADPRIVATE_BYTES >> 20} MiB: allocate it per thread instead)")
            if name in self._globals:
                raise p.error(f"'{name}' is used before its threadprivate directive")
            self.threadprivate.add(name)

    def _emit_function(self, cursor: ci.Cursor) -> None:

        if cursor.spelling in self._emitted:
            return
        self._emitted.add(cursor.spelling)
        FunctionEmitter(self, cursor).emit()

    # ------------------------------------------------------------------ locations

    def loc(self, cursor: ci.Cursor | None) -> ir.Location:
        if cursor is None:
            return ir.Location.unknown()
        loc = cursor.location
        name = loc.file.name if loc.file else self.path
        return self.loc_at(name, loc.line, loc.column)

    def loc_at(self, file: str, line: int, col: int) -> ir.Location:
        key = (file, line, col)
        hit = self._locs.get(key)
        if hit is None:
            hit = ir.Location.file(file, line, col, context=self.ctx)
            self._locs[key] = hit
        return hit

    @property
    def macros(self) -> dict[str, list[str]]:
        if self._macros is None:
            self._macros = cs.object_macros(self.tu)
        return self._macros

    # ------------------------------------------------------------------ functions

    def is_user_function(self, name: str) -> bool:
        return name in self.user_functions

    def sets_thread_count(self, name: str) -> bool:
        """Whether a call of the user function ``name`` may call ``omp_set_num_threads``
        (itself or through the user functions it calls)."""
        if self._setters is None:
            calls: dict[str, set[str]] = {}
            setters: set[str] = set()
            for fname, cursor in self.user_functions.items():
                calls[fname] = set()
                for c in cs.walk(cursor):
                    if c.kind == ci.CursorKind.CALL_EXPR:
                        if c.spelling == "omp_set_num_threads":
                            setters.add(fname)
                        elif c.spelling in self.user_functions:
                            calls[fname].add(c.spelling)
            grew = True
            while grew:
                grew = False
                for fname, callees in calls.items():
                    if fname not in setters and callees & setters:
                        setters.add(fname)
                        grew = True
            self._setters = setters
        return name in self._setters

    def function_signature(self, name: str) -> tuple[list[ir.Type], list[ir.Type]] | None:
        """(inputs, results) of a user function; schedules its emission."""
        cursor = self.user_functions.get(name)
        if cursor is None:
            return None
        if name not in self._signatures:
            params = parameter_types(cursor)
            inputs = [self.types.to_mlir(t, p) for p, t in params]
            result = self.types.to_mlir(cursor.result_type, cursor)
            self._signatures[name] = (inputs, [result] if result is not None else [])
        if name not in self._emitted and cursor not in self._worklist:
            self._worklist.append(cursor)
        return self._signatures[name]

    def new_function(self, name: str, ftype: ir.FunctionType, visibility: str | None):
        from mlir.dialects import func

        with ir.InsertionPoint(self.module.body):
            op = func.FuncOp(name, ftype, visibility=visibility)
        if self._first_function is None:
            self._first_function = op.operation
        return op

    # ------------------------------------------------------------------ module-level symbols

    def _insert_symbol(self, op: ir.Operation) -> None:
        if self._first_function is not None:
            ir.InsertionPoint(self._first_function).insert(op)
        else:
            self.module.body.append(op)

    def _parse_symbol(self, text: str, name: str, where: ci.Cursor | None) -> ir.Operation:
        loc = self.loc(where) if where is not None else ir.Location.unknown()
        op = ir.Operation.parse(f"{text} loc({_loc_text(loc)})" if where is not None else text)
        self._insert_symbol(op)
        self._symbols[name] = op
        return op

    def declare_function(self, name: str, inputs: list[ir.Type], results: list[ir.Type],
                         where: ci.Cursor) -> None:
        """``func.func private @name(...)`` for a library function (once)."""
        if name in self._symbols:
            return
        from mlir.dialects import func

        ip = ir.InsertionPoint(self._first_function) if self._first_function is not None else \
            ir.InsertionPoint(self.module.body)
        with ip, self.loc(where):
            op = func.FuncOp(name, ir.FunctionType.get(inputs, results), visibility="private")
        self._symbols[name] = op.operation

    def declare_vararg(self, name: str, fixed: list[ir.Type], result: ir.Type | None,
                       where: ci.Cursor) -> ir.Type:
        """``llvm.func @printf(!llvm.ptr, ...) -> i32`` (once); returns the function type."""
        params = ", ".join(str(t) for t in fixed)
        res = str(result) if result is not None else "void"
        fn_type = ir.Type.parse(f"!llvm.func<{res} ({params}{', ' if params else ''}...)>")
        if name not in self._symbols:
            ret = f" -> {result}" if result is not None else ""
            self._parse_symbol(f"llvm.func @{name}({params}{', ' if params else ''}...){ret}", name, where)
        return fn_type

    def string_pointer(self, data: bytes, where: ci.Cursor) -> ir.Value:
        """Address of a NUL-terminated string constant (``llvm.mlir.global``)."""
        from mlir.dialects import llvm

        sym = self._strings.get(data)
        if sym is None:
            sym = f"str{len(self._strings)}"
            self._strings[data] = sym
            text = _mlir_string(data + bytes(1))
            self._parse_symbol(
                f'llvm.mlir.global internal constant @{sym}("{text}") {{addr_space = 0 : i32}}',
                sym, where)
        return llvm.AddressOfOp(self.types.llvm_ptr(), sym).result

    def library_global(self, decl: ci.Cursor, where: ci.Cursor) -> ir.Value:
        """The value of a libc global such as ``stderr`` (a pointer-sized external)."""
        from mlir.dialects import llvm

        if not tm.is_opaque_pointer(decl.type):
            raise cs.unsupported(where, f"library global '{decl.spelling}'")
        name = decl.spelling
        if name not in self._symbols:
            self._parse_symbol(f"llvm.mlir.global external @{name}() {{addr_space = 0 : i32}} : !llvm.ptr",
                               name, where)
        ptr = self.types.llvm_ptr()
        addr = llvm.AddressOfOp(ptr, name).result
        return llvm.LoadOp(ptr, addr).result

    # ------------------------------------------------------------------ C globals

    def global_decl(self, name: str) -> ci.Cursor | None:
        return self._global_decls.get(name)

    def global_ref(self, decl: ci.Cursor, where: ci.Cursor | None) -> ir.Value:
        """``memref.get_global`` of a file-scope variable (defined on first use)."""
        name = decl.spelling
        if name not in self._globals:
            definition = self._global_decls.get(name)
            if definition is None:
                if decl.location.is_in_system_header:
                    raise cs.unsupported(where or decl, f"library global '{name}'")
                raise cs.unsupported(where or decl, f"extern variable '{name}' without a definition")
            self._define_global(definition, name)
        return self.global_memref(name, where)

    def global_memref(self, name: str, where: ci.Cursor | None) -> ir.Value:
        sym, mtype = self._globals[name]
        return memref.GetGlobalOp(mtype, sym).result

    def static_local(self, fn, decl: ci.Cursor) -> str:
        """A ``static`` local: a private global named after its function."""
        name = f"{fn.name}.{decl.spelling}"
        if name not in self._globals:
            self._define_global(decl, name)
        return name

    def _define_global(self, decl: ci.Cursor, name: str) -> None:
        ctype = decl.type
        elem_type = self.types.to_mlir(ctype, decl)
        if elem_type is None:
            raise cs.unsupported(decl, "void variable")
        if tm.is_aggregate(ctype):  # an array, or a struct kept as one
            mtype = elem_type
        else:
            mtype = ir.MemRefType.get([], elem_type)
        init = _initializer(decl)
        initial = self._constant_initializer(decl, ctype, mtype, init)
        if name in self.threadprivate:  # a copy per thread, each with the initial value
            one = ir.MemRefType(mtype)
            mtype = ir.MemRefType.get([THREADPRIVATE_COPIES] + list(one.shape), one.element_type)
            if isinstance(initial, ir.DenseElementsAttr):
                values = np.array(initial)
                tensor = ir.RankedTensorType.get(list(mtype.shape), one.element_type)
                if values.size and (values == values.flat[0]).all():  # one value: a splat
                    elem, first = one.element_type, values.flat[0].item()
                    attr = ir.FloatAttr.get(elem, float(first)) if isinstance(first, float) else \
                        ir.IntegerAttr.get(elem, int(first))
                    initial = ir.DenseElementsAttr.get_splat(tensor, attr)
                else:
                    tiled = np.broadcast_to(values, (THREADPRIVATE_COPIES,) + values.shape).copy()
                    if tiled.nbytes > 1 << 20:
                        raise cs.unsupported(decl, f"threadprivate '{name}' with an initialiser "
                                             "of different values whose copies take more than "
                                             "1 MiB (initialise it in the program instead)")
                    initial = ir.DenseElementsAttr.get(tiled, type=tensor)
        private = decl.storage_class == ci.StorageClass.STATIC or "." in name
        is_const = (ctype.is_const_qualified() or _array_of_const(ctype)) and \
            name not in self.threadprivate
        sym = name
        ip = ir.InsertionPoint(self._first_function) if self._first_function is not None else \
            ir.InsertionPoint(self.module.body)
        with ip, self.loc(decl):
            memref.GlobalOp(
                sym_name=ir.StringAttr.get(sym),
                type_=ir.TypeAttr.get(mtype),
                sym_visibility=ir.StringAttr.get("private") if private else None,
                initial_value=initial,
                constant=ir.UnitAttr.get() if (is_const and initial is not None and
                                               not isinstance(initial, ir.UnitAttr)) else None,
            )
        self._globals[name] = (sym, mtype)

    def _constant_initializer(self, decl: ci.Cursor, ctype: ci.Type, mtype: ir.MemRefType,
                              init: ci.Cursor | None) -> ir.Attribute:
        mt = ir.MemRefType(mtype)
        elem = mt.element_type
        if isinstance(elem, ir.MemRefType) or str(elem) == "!llvm.ptr":
            if init is not None:
                raise cs.unsupported(init, "initialised pointer global")
            return ir.UnitAttr.get()  # uninitialized
        shape = list(mt.shape)
        total = int(np.prod(shape)) if shape else 1
        dtype = _numpy_dtype(elem)
        values = np.zeros(total, dtype=dtype)
        if init is not None:
            flat = self._constant_elements(init, shape, decl)
            record = tm.canon(ctype)
            while tm.is_array(record):
                record = tm.canon(record.element_type)
            slots = tm.slot_types(record) if tm.struct_is_mixed(record) else None
            for pos, value in flat:
                if slots is not None:  # a slot of a struct of mixed fields holds the bits
                    value = _field_bits(slots[pos % len(slots)], value)
                values[pos] = value
        tensor = ir.RankedTensorType.get(shape, elem)
        if str(elem) == "i1":
            return ir.DenseElementsAttr.get_splat(tensor, ir.IntegerAttr.get(elem, int(values[0]))) \
                if total == 1 else ir.DenseElementsAttr.get(values.astype(np.bool_), type=tensor)
        return ir.DenseElementsAttr.get(values.reshape(shape) if shape else values.reshape(()), type=tensor)

    def _constant_elements(self, init: ci.Cursor, shape: list[int], decl: ci.Cursor) -> list[tuple[int, float]]:
        s = cs.strip_parens(init)
        if not shape:
            value = cs.evaluate(s)
            if value is None or isinstance(value, bytes):
                raise cs.unsupported(init, "non-constant global initialiser")
            return [(0, value)]
        if s.kind == K.STRING_LITERAL:
            data = cs.string_literal_bytes(s) or b""
            return [(k, b) for k, b in enumerate((data + b"\0")[: shape[0]])]
        if s.kind != K.INIT_LIST_EXPR:
            raise cs.unsupported(init, "array initialiser that is not a brace list")

        record = tm.canon(decl.type)
        while tm.is_array(record):
            record = tm.canon(record.element_type)
        positions: list = []
        flatten_init(s, shape, (), positions,
                     record if tm.struct_fields(record) is not None else None)
        out = []
        for idx, expr in positions:
            value = cs.evaluate(expr)
            if value is None or isinstance(value, bytes):
                raise cs.unsupported(expr, "non-constant global initialiser")
            flat = 0
            for d, i in zip(shape, idx):
                flat = flat * d + i
            out.append((flat, value))
        return out

    # ------------------------------------------------------------------ reductions

    def critical_name(self, name: str, where) -> str:
        """``omp.critical.declare @critical_<name>`` (once per name)."""
        from mlir.dialects import openmp as omp

        sym = f"critical_{name}"
        if sym in self._symbols:
            return sym
        ip = ir.InsertionPoint(self._first_function) if self._first_function is not None else \
            ir.InsertionPoint(self.module.body)
        with ip, self.loc_at(where.file, where.line, where.column):
            op = omp.CriticalDeclareOp(sym)
        self._symbols[sym] = op.operation
        return sym

    def reduction(self, kind: str, s: Scalar, where) -> str:
        """``omp.declare_reduction @<kind>_<type>`` (once per kind and type)."""
        from mlir.dialects import openmp as omp

        suffix = ("u" if (s.unsigned and kind in ("max", "min")) else "") + str(s.mlir())
        sym = f"{kind}_{suffix}"
        if sym in self._symbols:
            return sym
        t = s.mlir()
        ip = ir.InsertionPoint(self._first_function) if self._first_function is not None else \
            ir.InsertionPoint(self.module.body)
        with ip, self.loc_at(where.file, where.line, where.column):
            op = omp.DeclareReductionOp(sym, ir.TypeAttr.get(t))
            init = op.initializerRegion.blocks.append(t)
            with ir.InsertionPoint(init):
                omp.YieldOp([reduction_identity(kind, s)])
            comb = op.reductionRegion.blocks.append(t, t)
            a, b = comb.arguments
            with ir.InsertionPoint(comb):
                omp.YieldOp([reduction_combine(kind, s, a, b)])
        self._symbols[sym] = op.operation
        return sym


def _numpy_dtype(t: ir.Type):
    text = str(t)
    return {"f32": np.float32, "f64": np.float64, "i8": np.int8, "i16": np.int16,
            "i32": np.int32, "i64": np.int64, "i1": np.int8}[text]


def _initializer(decl: ci.Cursor) -> ci.Cursor | None:
    return cs.var_initializer(decl)


def _array_of_const(t: ci.Type) -> bool:
    """``const T a[N]`` (libclang drops the qualifier from canonical element types)."""
    for _ in range(16):
        if t.is_const_qualified():
            return True
        if t.kind == ci.TypeKind.ELABORATED or t.kind == ci.TypeKind.TYPEDEF:
            t = t.get_canonical() if t.kind == ci.TypeKind.TYPEDEF else t.get_named_type()
            continue
        if t.kind != ci.TypeKind.CONSTANTARRAY:
            return False
        t = t.element_type
    return False


def _file_of(c: ci.Cursor) -> str | None:
    return c.location.file.name if c.location.file else None


def _mlir_string(data: bytes) -> str:
    out = []
    for b in data:
        ch = chr(b)
        if 0x20 <= b < 0x7F and ch not in '"\\':
            out.append(ch)
        else:
            out.append(f"\\{b:02X}")
    return "".join(out)


def _loc_text(loc: ir.Location) -> str:
    return str(loc)[4:-1] if str(loc).startswith("loc(") else "unknown"


def _field_bits(ctype: ci.Type, value) -> int:
    """A constant as a slot of a struct of mixed fields holds it (``FunctionEmitter
    .to_memory``): a float's bits, an integer's value, in a signed 64-bit word."""
    import struct

    s = tm.scalar_of(ctype)
    if s.is_float:
        raw = struct.unpack("<Q", struct.pack("<d", float(value)))[0] if s.width == 64 else \
            struct.unpack("<I", struct.pack("<f", float(value)))[0]
    else:
        raw = int(value) & ((1 << s.width) - 1)  # widened without its sign, as stores do
    return raw - (1 << 64) if raw >= 1 << 63 else raw
