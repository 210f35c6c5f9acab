"""One C function -> one ``func.func``: the per-function state (variables, allocation
scopes, control flags) and the small IR helpers every emitter shares (constants,
conversions, allocas).  Expressions, statements and OpenMP constructs are emitted by
their own classes (``expressions.py``, ``statements.py``, ``openmp.py``), which all work
on a FunctionEmitter.

Control flow stays structured.  ``break``, ``continue`` and an early ``return`` set
``i1`` flags held in ``memref.alloca``s; the statements after a jump are guarded by
``scf.if`` on those flags, and a loop left by ``break``/``return`` becomes an
``scf.while`` whose condition tests them.  The frequent ``if (c) continue;`` at the top
level of a loop body needs no flag: the rest of the body goes into the ``else`` branch.
The ``cf`` dialect is never used, so every loop stays a loop for the later passes.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Iterator

import clang.cindex as ci
from mlir import ir
from mlir.dialects import arith, func, llvm, memref

from . import clang_support as cs
from . import typemap as tm
from .analysis import FunctionAnalysis
from .cursor_queries import decl_key, parameter_types, var_initializer
from .expressions import ExprEmitter
from .openmp import OmpEmitter
from .pragmas import depend_base
from .state import AllocaScope, LoopFlags, NameScope, ReturnState, Var, pushed
from .statements import StmtEmitter
from .typemap import Scalar

if TYPE_CHECKING:
    from .module import ModuleEmitter

K = ci.CursorKind



class FunctionEmitter:
    """Emits one function definition into the module."""

    def __init__(self, module: "ModuleEmitter", cursor: ci.Cursor) -> None:

        self.module = module
        self.cursor = cursor
        self.name = cursor.spelling
        self.types = module.types
        self.in_main_file = cursor.location.file is not None and cursor.location.file.name == module.path
        pragmas = module.pragmas.within(cursor.extent.start.offset, cursor.extent.end.offset) if self.in_main_file else []
        clause_names: set[str] = set()
        for p in pragmas:
            for c in p.clauses:
                if c.name in ("private", "firstprivate", "lastprivate", "reduction", "in_reduction",
                              "task_reduction", "copyprivate"):
                    clause_names.update(a.strip() for a in c.args)
                elif c.name == "linear":  # `linear(x, y: step)`: x and y are stored after the loop
                    names = ",".join(c.args).rpartition(":")
                    clause_names.update(n.strip() for n in (names[0] or names[2]).split(","))
                elif c.name == "depend":  # a scalar depend item needs storage to order on
                    clause_names.update(depend_base(a) for a in c.args if "[" not in a)
        self.analysis = FunctionAnalysis(cursor, clause_names)
        self.vars: dict[tuple, Var] = {}
        #: Per enclosing worksharing loop with lastprivate(conditional): (the thread's copy,
        #: its stamp slot, the iteration's number) whose stores note the iteration.
        self.store_stamps: list[list] = []
        self.scopes: list[NameScope] = []
        self.alloca_scopes: list[AllocaScope] = []
        self.loops: list[LoopFlags] = []
        self.ret = ReturnState()
        self.omp_depth = 0
        #: The nthreads ICV where ``omp_set_num_threads(C)`` statements of this function make
        #: it known (``FunctionAnalysis.thread_count_settings``); None: the default.
        self.thread_count: int | None = None
        self._const_cache: dict[tuple, ir.Value] = {}
        self.expr = ExprEmitter(self)
        self.stmt = StmtEmitter(self)
        self.omp = OmpEmitter(self)

    # ------------------------------------------------------------------ entry

    def emit(self) -> None:
        cursor = self.cursor
        body = self.analysis.body

        typed_params = parameter_types(cursor)
        params = [p for p, _ in typed_params]
        arg_types = [self.types.to_mlir(t, p) for p, t in typed_params]
        result = self.types.to_mlir(cursor.result_type, cursor)
        if result is not None and isinstance(result, ir.MemRefType) and result.rank > 0 and \
                tm.is_array(cursor.result_type):
            raise cs.unsupported(cursor, "function returning an array")
        ftype = ir.FunctionType.get(arg_types, [result] if result is not None else [])
        with self.loc(cursor):
            visibility = "private" if cursor.storage_class == ci.StorageClass.STATIC else None
            fn = self.module.new_function(self.name, ftype, visibility)
            entry = fn.add_entry_block(arg_locs=[self.loc(p) for p in params])
        self.func_op = fn
        self.result_type = result
        with ir.InsertionPoint(entry), self.loc(body), \
                pushed(self.alloca_scopes, AllocaScope(entry)), self.name_scope():
            for (p, ctype), arg in zip(typed_params, entry.arguments):
                self.bind_param(p, ctype, arg)
            if self.analysis.uses_return_flag:
                self.ret.direct = False
                self.ret.flag = self.new_flag()
                if result is not None:
                    self.ret.value = self.alloca(ir.MemRefType.get([], result))
            returned = self.stmt.function_body(body)
            if not returned:
                end = body.extent.end  # the closing brace
                with self.module.loc_at(end.file.name if end.file else self.module.path,
                                        end.line, max(1, end.column - 1)):
                    self.emit_final_return()

    def emit_final_return(self) -> None:
        if self.result_type is None:
            func.ReturnOp([])
            return
        if self.ret.value is not None:
            func.ReturnOp([memref.LoadOp(self.ret.value, []).result])
            return
        # Falling off the end: `main` returns 0 (C99); anything else is undefined.
        if isinstance(self.result_type, ir.IntegerType) or isinstance(self.result_type, ir.FloatType):
            func.ReturnOp([self.zero(self.result_type)])
        else:
            poison = ir.Operation.create("ub.poison", results=[self.result_type],
                                         attributes={"value": ir.Attribute.parse("#ub.poison")})
            func.ReturnOp([poison.result])

    # ------------------------------------------------------------------ locations

    def loc(self, cursor: ci.Cursor | None) -> ir.Location:
        return self.module.loc(cursor)

    def loc_of_pragma(self, p) -> ir.Location:
        return self.module.loc_at(p.file, p.line, p.column)

    # ------------------------------------------------------------------ variables

    def bind_param(self, p: ci.Cursor, ctype: ci.Type, arg: ir.Value) -> None:
        if tm.struct_fields(ctype) is not None:
            raise cs.unsupported(p, "struct passed by value (pass a pointer to it)")
        key = decl_key(p)
        if p.spelling:
            self.scopes[-1].names[p.spelling] = key
        if self.analysis.is_ssa(p):
            self.vars[key] = Var("ssa", ctype, arg)
            return
        with self.loc(p):
            slot = self.alloca(ir.MemRefType.get([], self.types.stored(arg.type)))
            memref.StoreOp(self.to_memory(arg, slot), slot, [])
        self.vars[key] = Var("mem", ctype, slot)

    def declare_local(self, decl: ci.Cursor) -> None:
        """A VAR_DECL inside the body: SSA value, scalar slot, or local array."""
        key = decl_key(decl)
        self.scopes[-1].names[decl.spelling] = key
        if decl.storage_class == ci.StorageClass.STATIC:
            self.vars[key] = Var("global", decl.type, self.module.static_local(self, decl))
            return
        if decl.storage_class == ci.StorageClass.EXTERN:
            raise cs.unsupported(decl, "extern declaration inside a function")
        init = var_initializer(decl)
        ctype = decl.type
        if init is not None and init.kind == K.INIT_LIST_EXPR and not tm.is_aggregate(ctype):
            kids = cs.children(init)  # `int x = {5};`
            init = kids[0] if kids else None
        with self.loc(decl):
            if tm.canon(ctype).kind == ci.TypeKind.VARIABLEARRAY:
                self.vars[key] = Var("mem", ctype, self._variable_array(decl))
                return
            if tm.is_aggregate(ctype):
                mtype = self.types.to_mlir(ctype, decl)
                slot = self.alloca(mtype)
                self.vars[key] = Var("mem", ctype, slot)
                if init is not None and tm.struct_fields(ctype) is not None and \
                        cs.strip_parens(init).kind != K.INIT_LIST_EXPR:
                    self.expr.copy_struct(slot, (), init, tm.struct_size(ctype), decl)  # `S b = a;`
                elif init is not None:
                    self.expr.initialize_array(slot, ctype, init)
                return
            mtype = self.types.to_mlir(ctype, decl)
            if mtype is None:
                raise cs.unsupported(decl, "void variable")
            if init is not None and self.analysis.is_walked_pointer(decl):
                # `p++` over an array: the array, and the element index in a slot
                parts = self.expr.pointer_into(init)
                if parts is None:
                    base = self.expr.rvalue(init)
                    if not isinstance(base.type, ir.MemRefType) or ir.MemRefType(base.type).rank != 1:
                        raise cs.unsupported(decl, "pointer moved with ++/-- that does not "
                                             "point into an array")
                    parts = (base, self.const_index(0))
                if isinstance(parts[1], tuple):
                    raise cs.unsupported(decl, "pointer moved with ++/-- along a row of a "
                                         "multi-dimensional array (index the row instead)")
                slot = self.alloca(ir.MemRefType.get([], ir.IndexType.get()))
                memref.StoreOp(parts[1], slot, [])
                self.vars[key] = Var("walk", ctype, parts[0], offset=slot)
                return
            if self.analysis.is_ssa(decl):
                parts = self.expr.pointer_into(init) if tm.is_pointer(ctype) else None
                if parts is not None:
                    self.vars[key] = Var("ssa", ctype, parts[0], offset=parts[1])
                    return
                value = self.expr.rvalue(init)
                self.vars[key] = Var("ssa", ctype, value)
                return
            slot = self.alloca(ir.MemRefType.get([], self.types.stored(mtype)))
            self.vars[key] = Var("mem", ctype, slot)
            if init is not None:
                memref.StoreOp(self.to_memory(self.expr.rvalue(init), slot), slot, [])

    def _variable_array(self, decl: ci.Cursor) -> ir.Value:
        """``double a[n][m]``: a ``memref.alloca`` of the sizes the declaration computes,
        where it is (its sizes are values of that point). The sizes are the declaration's
        expressions, which libclang lists innermost first."""
        if self.loops:
            raise cs.unsupported(decl, "variable-length array declared in a loop (each "
                                 "iteration would grow the stack: declare it before the loop)")
        if var_initializer(decl) is not None:
            raise cs.unsupported(decl, "initialised variable-length array")
        mtype = ir.MemRefType(self.types.to_mlir(decl.type, decl))
        sizes = [k for k in cs.children(decl) if k.kind.is_expression()][::-1]
        if len(sizes) != mtype.rank:
            raise cs.unsupported(decl, "variable-length array of this shape")
        dynamic = [self.expr.index_of(size) for size, extent in zip(sizes, mtype.shape)
                   if extent == ir.ShapedType.get_dynamic_size()]
        return memref.AllocaOp(mtype, dynamic, []).result

    def lookup(self, decl: ci.Cursor, where: ci.Cursor) -> Var:
        key = decl_key(decl)
        var = self.vars.get(key)
        if var is not None:
            if var.kind == "global":
                return Var("mem", var.ctype, self.module.global_memref(var.value, where))
            return var
        # Globals (file scope, or block-scope extern) are found by name.
        value = self.module.global_ref(decl, where)
        if decl.spelling in self.module.threadprivate:
            return Var("mem", decl.type, value, lead=self.thread_index())
        return Var("mem", decl.type, value)

    def thread_number(self) -> ir.Value:
        """``omp_get_thread_num()`` (an ``i32``), which openmp-to-arts answers: the worker's
        number in a parallel region, 0 outside one."""
        i32 = self.types.i(32)
        self.module.declare_function("omp_get_thread_num", [], [i32], None)
        return func.CallOp([i32], ir.FlatSymbolRefAttr.get("omp_get_thread_num"), []).result

    def thread_index(self) -> ir.Value:
        """The current thread's number as an ``index``: the copy of a threadprivate variable
        it uses."""
        return arith.IndexCastOp(ir.IndexType.get(), self.thread_number()).result

    def iv_value(self, var: Var) -> ir.Value:
        """The C-typed value of an induction variable, cast once at the top of the loop
        body when first used (subscripts use the index directly)."""
        if var.c_value is None:
            owner = var.value.owner
            if isinstance(owner, ir.Block):
                with ir.InsertionPoint.at_block_begin(owner), var.loc:
                    var.c_value = self.from_index(var.value, tm.scalar_of(var.ctype))
            else:
                with ir.InsertionPoint.at_block_begin(owner.operation.block), var.loc:
                    var.c_value = self.from_index(var.value, tm.scalar_of(var.ctype))
                var.c_value.owner.operation.move_after(owner.operation)
        return var.c_value

    def lookup_name(self, name: str) -> tuple | None:
        for scope in reversed(self.scopes):
            if name in scope.names:
                return scope.names[name]
        return None

    def name_scope(self) -> contextlib.AbstractContextManager:
        return pushed(self.scopes, NameScope())

    @contextlib.contextmanager
    def omp_region(self, block: ir.Block | None = None) -> Iterator[None]:
        """Inside an OpenMP construct's region; with ``block``, the region also gets the
        allocas of its private variables (an outlined region cannot use the function's)."""
        with contextlib.ExitStack() as stack:
            if block is not None:
                stack.enter_context(pushed(self.alloca_scopes, AllocaScope(block)))
            self.omp_depth += 1
            try:
                yield
            finally:
                self.omp_depth -= 1

    @contextlib.contextmanager
    def rebind(self, key: tuple, var: Var) -> Iterator[None]:
        old = self.vars.get(key)
        self.vars[key] = var
        try:
            yield
        finally:
            if old is None:
                self.vars.pop(key, None)
            else:
                self.vars[key] = old

    # ------------------------------------------------------------------ allocas & flags

    def alloca(self, mtype: ir.Type) -> ir.Value:
        """A ``memref.alloca`` at the start of the current allocation scope (so loops do
        not grow the stack, and ``omp.parallel`` regions get per-thread storage)."""
        scope = self.alloca_scopes[-1]
        with ir.InsertionPoint.at_block_begin(scope.block):
            op = memref.AllocaOp(mtype, [], [])
        if scope.last is not None:
            op.operation.move_after(scope.last)
        scope.last = op.operation
        return op.result

    def new_flag(self, reset: bool = True) -> ir.Value:
        """A control flag: an ``i8`` slot holding 0 or 1 (memrefs of ``i1`` do not lower)."""
        flag = self.alloca(ir.MemRefType.get([], self.types.i(8)))
        if reset:
            self.set_flag(flag, False)
        return flag

    def set_flag(self, flag: ir.Value, value: bool) -> None:
        memref.StoreOp(self.const_int(1 if value else 0, self.types.i(8)), flag, [])

    def load(self, slot: ir.Value) -> ir.Value:
        return memref.LoadOp(slot, []).result

    def from_memory(self, v: ir.Value, ctype: ci.Type) -> ir.Value:
        """A loaded value as the C type's value: the address an ``i64`` holds for a
        pointer that stays ``!llvm.ptr`` (``TypeMapper.stored``), the field a slot of a
        struct of mixed fields holds (``tm.struct_is_mixed``)."""
        if not isinstance(v.type, ir.IntegerType) or ir.IntegerType(v.type).width != 64:
            return v
        if tm.is_opaque_pointer(ctype):
            return llvm.IntToPtrOp(self.types.llvm_ptr(), v).result
        s = tm.scalar_of(ctype)
        if s is None or s.mlir() == v.type:
            return v
        if s.is_float:  # the float's bits, below
            bits = v if s.width == 64 else arith.TruncIOp(self.types.i(s.width), v).result
            return arith.BitcastOp(s.mlir(), bits).result
        return arith.TruncIOp(s.mlir(), v).result

    def to_memory(self, v: ir.Value, slot: ir.Value) -> ir.Value:
        """A value to store into ``slot``: an ``!llvm.ptr`` as its address where the
        memref holds ``i64``; a narrower integer or a float as its bits in a slot of a
        struct of mixed fields."""
        elem = ir.MemRefType(slot.type).element_type
        if v.type == elem or not isinstance(elem, ir.IntegerType) or ir.IntegerType(elem).width != 64:
            return v
        if str(v.type) == "!llvm.ptr":
            return llvm.PtrToIntOp(elem, v).result
        if isinstance(v.type, ir.FloatType):
            width = ir.FloatType(v.type).width
            v = arith.BitcastOp(self.types.i(width), v).result
        if isinstance(v.type, ir.IntegerType) and ir.IntegerType(v.type).width < 64:
            return arith.ExtUIOp(elem, v).result
        return v

    def still_running(self, jumps: frozenset[str] | set[str]) -> ir.Value | None:
        """``i1`` that is true when none of the flags of ``jumps`` is set (None: no flag
        can be set)."""
        flags = []
        if "return" in jumps and self.ret.flag is not None:
            flags.append(self.ret.flag)
        if self.loops:
            loop = self.loops[-1]
            if "break" in jumps and loop.brk is not None:
                flags.append(loop.brk)
            if "continue" in jumps and loop.cont is not None:
                flags.append(loop.cont)
        if not flags:
            return None
        any_set = self.load(flags[0])
        for f in flags[1:]:
            any_set = arith.OrIOp(any_set, self.load(f)).result
        return self.cmpi("eq", any_set, self.const_int(0, self.types.i(8)))

    # ------------------------------------------------------------------ constants

    def _cached(self, key: tuple, make) -> ir.Value:
        block = ir.InsertionPoint.current.block
        full = (block, key)
        hit = self._const_cache.get(full)
        if hit is None:
            hit = make()
            self._const_cache[full] = hit
        return hit

    def const_int(self, value: int, mtype: ir.Type) -> ir.Value:
        if isinstance(mtype, ir.IndexType):
            return self._cached(("index", value), lambda: arith.ConstantOp(mtype, value).result)
        width = ir.IntegerType(mtype).width
        value &= (1 << width) - 1
        if width > 1 and value >= 1 << (width - 1):
            value -= 1 << width
        return self._cached((str(mtype), value),
                            lambda: arith.ConstantOp(mtype, ir.IntegerAttr.get(mtype, value)).result)

    def const_index(self, value: int) -> ir.Value:
        return self.const_int(value, ir.IndexType.get())

    def const_float(self, value: float, mtype: ir.Type) -> ir.Value:
        return self._cached((str(mtype), "f", repr(value)),
                            lambda: arith.ConstantOp(mtype, ir.FloatAttr.get(mtype, value)).result)

    def const_scalar(self, value: int | float, s: Scalar) -> ir.Value:
        if s.is_float:
            return self.const_float(float(value), s.mlir())
        return self.const_int(int(value), s.mlir())

    def zero(self, mtype: ir.Type) -> ir.Value:
        if isinstance(mtype, ir.FloatType):
            return self.const_float(0.0, mtype)
        return self.const_int(0, mtype)

    # ------------------------------------------------------------------ conversions

    def convert(self, v: ir.Value, src: Scalar, dst: Scalar) -> ir.Value:
        """C conversion between arithmetic types."""
        if src == dst:
            return v
        folded = self._fold_conversion(v, src, dst)
        if folded is not None:
            return folded
        if dst.is_bool:
            bit = self.truthy_scalar(v, src)
            return bit if dst.width == 1 else arith.ExtUIOp(dst.mlir(), bit).result
        if src.is_float and dst.is_float:
            if dst.width > src.width:
                return arith.ExtFOp(dst.mlir(), v).result
            return arith.TruncFOp(dst.mlir(), v).result
        if src.is_float:
            op = arith.FPToUIOp if dst.unsigned else arith.FPToSIOp
            return op(dst.mlir(), v).result
        if dst.is_float:
            op = arith.UIToFPOp if src.unsigned else arith.SIToFPOp
            return op(dst.mlir(), v).result
        if dst.width > src.width:
            op = arith.ExtUIOp if src.unsigned else arith.ExtSIOp
            return op(dst.mlir(), v).result
        if dst.width < src.width:
            return arith.TruncIOp(dst.mlir(), v).result
        return v

    def _fold_conversion(self, v: ir.Value, src: Scalar, dst: Scalar) -> ir.Value | None:
        """The converted constant, when ``v`` is a constant that converts exactly as C says
        (a literal `2` in a `double` expression): one op less for every later pass, which
        matters in expressions of thousands of terms. None when it is not that simple."""
        owner = v.owner
        if not isinstance(owner, ir.OpView) or owner.operation.name != "arith.constant":
            return None
        if src.is_bool or dst.is_bool:
            return None
        attr = owner.attributes["value"]
        if not src.is_float and dst.is_float:
            value = ir.IntegerAttr(attr).value
            if src.unsigned and value < 0:
                value += 1 << src.width
            if dst.width == 32:
                return None  # int -> float rounding: left to the op
            return self.const_float(float(value), dst.mlir()) if abs(value) < 1 << 53 else None
        if src.is_float and dst.is_float and dst.width > src.width:
            return self.const_float(ir.FloatAttr(attr).value, dst.mlir())
        if not src.is_float and not dst.is_float:
            value = ir.IntegerAttr(attr).value
            if src.unsigned and value < 0:
                value += 1 << src.width
            return self.const_int(value, dst.mlir())  # wraps to the width, as C does
        return None

    def truthy_scalar(self, v: ir.Value, s: Scalar) -> ir.Value:
        if s.is_bool and s.width == 1:
            return v
        if s.is_float:
            return self.cmpf("une", v, self.const_float(0.0, v.type))
        return self.cmpi("ne", v, self.const_int(0, v.type))

    def cmpi(self, pred: str, a: ir.Value, b: ir.Value) -> ir.Value:
        """``arith.cmpi`` with the predicate named as MLIR prints it (``slt``, ``ne``, ...)."""
        return arith.CmpIOp(getattr(arith.CmpIPredicate, pred), a, b).result

    def cmpf(self, pred: str, a: ir.Value, b: ir.Value) -> ir.Value:
        """``arith.cmpf`` with the predicate named as MLIR prints it (``olt``, ``une``, ...)."""
        return arith.CmpFOp(getattr(arith.CmpFPredicate, pred.upper()), a, b).result

    def to_index(self, v: ir.Value, s: Scalar) -> ir.Value:
        """A C integer as an ``index`` (subscripts, loop bounds, allocation sizes);
        constants and values that came from an index are not cast back and forth."""
        if isinstance(v.type, ir.IndexType):
            return v
        owner = v.owner
        if isinstance(owner, ir.OpView) and owner.operation.name in ("arith.index_cast", "arith.index_castui"):
            src = owner.operation.operands[0]
            if isinstance(src.type, ir.IndexType):
                return src
        if isinstance(owner, ir.OpView) and owner.operation.name == "arith.constant":
            attr = owner.operation.attributes["value"]
            if isinstance(attr, ir.IntegerAttr):
                value = attr.value
                if s.unsigned and value < 0:
                    value += 1 << s.width
                return self.const_index(value)
        if s.is_bool:
            v = arith.ExtUIOp(self.types.i(32), v).result
        op = arith.IndexCastUIOp if s.unsigned else arith.IndexCastOp
        return op(ir.IndexType.get(), v).result

    def from_index(self, v: ir.Value, s: Scalar) -> ir.Value:
        op = arith.IndexCastUIOp if s.unsigned else arith.IndexCastOp
        return op(s.mlir(), v).result
