"""The pre-lowering stage's output runs: lowered ARTS ops become calls of a small sequential
runtime written here in Python (a stand-in for arts-to-llvm and the native runtime), the
upstream passes take everything else to LLVM IR, and llvmlite runs it. The values the
programs compute prove the outlined tasks see their parameters, their dependency slots and
their datablock views where they should.

The stand-in runs each task when its epoch is waited on, in creation order (the order in
which dependencies were recorded, so every datablock dependence holds), and checks that
every slot was recorded before the task runs.
"""

from __future__ import annotations

import ctypes
import struct

import pytest

from carts_mlir import ir
from carts_mlir.jit.engine import compile_llvm_ir
from carts_mlir.jit.lowering import lower_to_llvm_dialect, translate_to_llvm_ir
from carts_mlir.pipeline import stage

mlir_ir = pytest.importorskip("mlir.ir")
from mlir.dialects import arith, func, llvm, memref  # noqa: E402

PRE_LOWERING = stage("pre-lowering").pipeline

MODES = {"in": 8, "out": 9, "inout": 9, "concurrent": 10}  # ARTS_DB_READ / WRITE / CONCURRENT
DB_MODES = {"read": 8, "write": 9}


class DepSlot(ctypes.Structure):
    """artsEdtDep_t: guid, mode, payload pointer (24 bytes, ptr at offset 16)."""
    _fields_ = [("guid", ctypes.c_uint64), ("mode", ctypes.c_uint32), ("ptr", ctypes.c_void_p)]


EDT_FN = ctypes.CFUNCTYPE(None, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p)


class Task:
    def __init__(self, fn: int, params: list[int], depc: int):
        self.fn = fn
        self.params = (ctypes.c_uint64 * max(len(params), 1))(*params)
        self.paramc = len(params)
        self.deps = (DepSlot * max(depc, 1))()
        self.depc = depc
        self.recorded = [False] * depc


class SequentialRuntime:
    """GUIDs, datablocks, tasks and epochs for one thread; errors are collected (an exception
    cannot cross a ctypes callback) and checked by the test."""

    def __init__(self):
        self.errors: list[str] = []
        self.next_guid = 1
        self.payloads: dict[int, ctypes.Array] = {}
        self.tasks: dict[int, Task] = {}
        self.epochs: dict[int, list[int]] = {0: []}  # epoch 0: the program's own
        self.current_epoch = [0]
        self.ran: list[int] = []
        self._callbacks = []

    def _guid(self) -> int:
        guid = self.next_guid
        self.next_guid += 1
        return guid

    # -- the calls the lowered program makes
    def reserve_guid(self, mode, route):
        if mode not in DB_MODES.values() or route != 0:
            self.errors.append(f"reserve_guid(mode={mode}, route={route})")
        return self._guid()

    def db_create(self, guid, nbytes):
        buf = ctypes.create_string_buffer(max(nbytes, 1))
        self.payloads[guid] = buf
        return ctypes.addressof(buf)

    def db_destroy(self, guid):
        if self.payloads.pop(guid, None) is None:
            self.errors.append(f"db_destroy of unknown datablock {guid}")

    def create_epoch(self):
        guid = self._guid()
        self.epochs[guid] = []
        return guid

    def wait(self, epoch):
        queue = self.epochs[epoch]
        while queue:
            self._run(queue.pop(0), epoch)

    def edt_create(self, fn, alloc, aligned, offset, size, stride, depc, route, epoch):
        words = ctypes.cast(aligned, ctypes.POINTER(ctypes.c_uint64))
        guid = self._guid()
        self.tasks[guid] = Task(fn, [words[offset + i * stride] for i in range(size)], depc)
        self.epochs[epoch if epoch >= 0 else self.current_epoch[-1]].append(guid)
        return guid

    def rec_dep(self, edt, slot, mode, aligned, offset, sizes, strides):
        task = self.tasks[edt]
        guids = ctypes.cast(aligned, ctypes.POINTER(ctypes.c_int64))
        index = [0] * len(sizes)
        count = 1
        for s in sizes:
            count *= s
        for k in range(count):  # row-major over the (sub)table
            rest = k
            for d in reversed(range(len(sizes))):
                index[d] = rest % sizes[d]
                rest //= sizes[d]
            guid = guids[offset + sum(i * st for i, st in zip(index, strides))]
            if slot + k >= task.depc or task.recorded[slot + k]:
                self.errors.append(f"slot {slot + k} of task {edt} out of range or recorded twice")
                continue
            task.deps[slot + k] = DepSlot(guid, mode, ctypes.addressof(self.payloads[guid]))
            task.recorded[slot + k] = True

    def param(self, paramv, i):
        return ctypes.cast(paramv, ctypes.POINTER(ctypes.c_int64))[i]

    def dep_guid(self, depv, slot):
        return ctypes.cast(depv, ctypes.POINTER(DepSlot))[slot].guid

    def dep_ptr(self, depv, slot):
        return ctypes.cast(depv, ctypes.POINTER(DepSlot))[slot].ptr

    def _run(self, guid, epoch):
        task = self.tasks[guid]
        if not all(task.recorded):
            self.errors.append(f"task {guid} runs with unrecorded slots {task.recorded}")
            return
        self.current_epoch.append(epoch)
        EDT_FN(task.fn)(task.paramc, ctypes.addressof(task.params), task.depc,
                        ctypes.addressof(task.deps))
        self.current_epoch.pop()
        self.ran.append(guid)

    def finish(self):
        self.wait(0)

    # -- registration with the JIT
    def register(self, name: str, restype, argtypes, impl):
        def guarded(*args):
            try:
                return impl(*args)
            except Exception as err:  # noqa: BLE001 - reported by the test
                self.errors.append(f"{name}: {err!r}")
                return 0

        cb = ctypes.CFUNCTYPE(restype, *argtypes)(guarded)
        self._callbacks.append(cb)
        import llvmlite.binding as llvm_binding

        llvm_binding.add_symbol(name, ctypes.cast(cb, ctypes.c_void_p).value)


# ---------------------------------------------------------------- stand-in lowering


def _word(value, ty, i64):
    """One u64 parameter word of a value (the encoding of the lowering contract)."""
    if isinstance(ty, mlir_ir.IndexType):
        return arith.IndexCastOp(i64, value).result
    if isinstance(ty, mlir_ir.IntegerType):
        width = ty.width
        return value if width == 64 else arith.ExtSIOp(i64, value).result
    if isinstance(ty, mlir_ir.F64Type):
        return arith.BitcastOp(i64, value).result
    if isinstance(ty, mlir_ir.F32Type):
        i32 = mlir_ir.IntegerType.get_signless(32)
        return arith.ExtUIOp(i64, arith.BitcastOp(i32, value).result).result
    return llvm.PtrToIntOp(i64, value).result


def _unword(word, ty):
    if isinstance(ty, mlir_ir.IndexType):
        return arith.IndexCastOp(ty, word).result
    if isinstance(ty, mlir_ir.IntegerType):
        return word if ty.width == 64 else arith.TruncIOp(ty, word).result
    if isinstance(ty, mlir_ir.F64Type):
        return arith.BitcastOp(ty, word).result
    if isinstance(ty, mlir_ir.F32Type):
        i32 = mlir_ir.IntegerType.get_signless(32)
        return arith.BitcastOp(ty, arith.TruncIOp(i32, word).result).result
    return llvm.IntToPtrOp(ty, word).result


def lower_arts_to_calls(module) -> dict[str, str]:
    """Replace every lowered ARTS op by calls of `rt_*` functions; returns {stub: callback}."""
    body = module.regions[0].blocks[0]
    i32 = mlir_ir.IntegerType.get_signless(32)
    i64 = mlir_ir.IntegerType.get_signless(64)
    ptr = mlir_ir.Type.parse("!llvm.ptr")
    declared: dict[str, str] = {}

    def call(callback: str, args, results=()):
        types = [a.type for a in args]
        key = f"{callback}:{','.join(map(str, types))}"
        if key not in declared:
            name = f"{callback}_{len(declared)}"
            with mlir_ir.InsertionPoint.at_block_begin(body):
                func.FuncOp(name, mlir_ir.FunctionType.get(types, list(results)),
                            visibility="private")
            declared[key] = name
        return func.CallOp(list(results), mlir_ir.FlatSymbolRefAttr.get(declared[key]), args)

    def const(ty, v):
        return arith.ConstantOp(ty, v).result

    ops = []
    module.walk(lambda op: (ops.append(op) if op.name.startswith("arts.") else None)
                or mlir_ir.WalkResult.ADVANCE)
    for op in ops:
        name, args, res = op.name, list(op.operands), list(op.results)
        with mlir_ir.InsertionPoint(op), op.location:
            if name == "arts.edt_param_pack":
                n = mlir_ir.IndexType.get()
                buf = memref.AllocOp(res[0].type, [const(n, len(args))], []).result
                for k, v in enumerate(args):
                    memref.StoreOp(_word(v, v.type, i64), buf, [const(n, k)])
                new = [buf]
            elif name == "arts.edt_param_unpack":
                new = [_unword(call("rt_param", [args[0], const(i64, k)], [i64]).result, r.type)
                       for k, r in enumerate(res)]
            elif name == "arts.edt_create":
                fn = op.attributes["outlined_func"]
                fn_type = mlir_ir.FunctionType.get([i32, ptr, i32, ptr], [])
                fnv = func.ConstantOp(fn_type, fn).result
                epoch = args[3] if len(args) == 4 else const(i64, -1)
                new = [call("rt_edt_create", [fnv, args[0], args[1], args[2], epoch], [i64]).result]
            elif name == "arts.rec_dep":
                modes = [str(m).split("<")[1].rstrip(">") for m in op.attributes["acquire_modes"]]
                for table, mode in zip(args[2:], modes):
                    rank = table.type.rank
                    call(f"rt_rec_dep_r{rank}", [args[0], args[1], const(i32, MODES[mode]), table])
                new = []
            elif name == "arts.dep_gep":
                slot = arith.IndexCastOp(i64, args[1]).result
                new = [call("rt_dep_guid", [args[0], slot], [i64]).result,
                       call("rt_dep_ptr", [args[0], slot], [ptr]).result]
            elif name == "arts.reserve_guid":
                mode = str(op.attributes["db_mode"]).split("<")[1].rstrip(">")
                new = [call("rt_reserve_guid", [const(i32, DB_MODES[mode]), args[0]], [i64]).result]
            elif name == "arts.db_create":
                new = [call("rt_db_create", args, [ptr]).result]
            elif name == "arts.db_destroy":
                call("rt_db_destroy", args)
                new = []
            elif name == "arts.create_epoch":
                new = [call("rt_create_epoch", [], [i64]).result]
            elif name == "arts.wait_on_epoch":
                call("rt_wait", args)
                new = []
            else:
                raise AssertionError(f"no stand-in for {name}")
        for old, value in zip(res, new):
            old.replace_all_uses_with(value)
        op.erase()
    return {stub: key.split(":")[0] for key, stub in declared.items()}


def run_module(text: str) -> tuple[float, SequentialRuntime]:
    """Pre-lower `text`, run its `@main() -> f64` on the stand-in runtime."""
    rt = SequentialRuntime()
    c = ctypes
    with ir.context():
        module = ir.parse(text)
        ir.run_pipeline(module, PRE_LOWERING)
        stubs = lower_arts_to_calls(module)
        lower_to_llvm_dialect(module)
        llvm_ir = translate_to_llvm_ir(module)

    memref1 = [c.c_void_p, c.c_void_p, c.c_int64, c.c_int64, c.c_int64]
    impls = {
        "rt_param": (c.c_int64, [c.c_void_p, c.c_int64], rt.param),
        "rt_dep_guid": (c.c_int64, [c.c_void_p, c.c_int64], rt.dep_guid),
        "rt_dep_ptr": (c.c_void_p, [c.c_void_p, c.c_int64], rt.dep_ptr),
        "rt_reserve_guid": (c.c_int64, [c.c_int32, c.c_int32], rt.reserve_guid),
        "rt_db_create": (c.c_void_p, [c.c_int64, c.c_int64], rt.db_create),
        "rt_db_destroy": (None, [c.c_int64], rt.db_destroy),
        "rt_create_epoch": (c.c_int64, [], rt.create_epoch),
        "rt_wait": (None, [c.c_int64], rt.wait),
        "rt_edt_create": (c.c_int64, [c.c_void_p, *memref1, c.c_int32, c.c_int32, c.c_int64],
                          rt.edt_create),
    }
    for rank in range(4):
        def rec_dep(edt, slot, mode, alloc, aligned, offset, *shape, rank=rank):
            rt.rec_dep(edt, slot, mode, aligned, offset, shape[:rank], shape[rank:])
        impls[f"rt_rec_dep_r{rank}"] = (None, [c.c_int64, c.c_int32, c.c_int32, c.c_void_p,
                                               c.c_void_p, c.c_int64] + [c.c_int64] * (2 * rank),
                                        rec_dep)
    for stub, callback in stubs.items():
        restype, argtypes, impl = impls[callback]
        rt.register(stub, restype, argtypes, impl)

    program = compile_llvm_ir(llvm_ir, opt_level=1)
    entry = c.CFUNCTYPE(c.c_double)(program.engine.get_function_address("main"))
    result = entry()
    rt.finish()
    assert not rt.errors, rt.errors
    return result, rt


# ---------------------------------------------------------------------- programs

BLOCK_AND_FULL_RANGE = """
func.func @main() -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %nb = arith.constant 4 : index
  %B = arith.constant 3 : index
  %m = arith.constant 2 : index
  %r = arith.constant 0 : i32
  %gA, %pA = arts.db_alloc <inout> <write> <block> route(%r) sizes[%nb] elementSizes[%B, %m]
      : memref<?xi64>, memref<?xmemref<?x?xf32>>
  %gX, %pX = arts.db_alloc <in> <read> <coarse> route(%r) sizes[%c1] elementSizes[%m]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %x = arts.db_ref %pX[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
  %ten = arith.constant 10.0 : f32
  %twenty = arith.constant 20.0 : f32
  memref.store %ten, %x[%c0] : memref<?xf32>
  memref.store %twenty, %x[%c1] : memref<?xf32>
  %e = arts.epoch {
    scf.for %b = %c0 to %nb step %c1 {
      %lb = arith.muli %b, %B : index
      %ub = arith.addi %lb, %B : index
      %g1, %p1 = arts.db_acquire <inout> (%gA, %pA : memref<?xi64>, memref<?xmemref<?x?xf32>>)
          offsets[%b] sizes[%c1] partition(<block>) : memref<?xi64>, memref<?xmemref<?x?xf32>>
      %g2, %p2 = arts.db_acquire <in> (%gX, %pX : memref<?xi64>, memref<?xmemref<?xf32>>)
          {full_range} : memref<?xi64>, memref<?xmemref<?xf32>>
      arts.edt <task> <intranode> route(%r) (%p1, %p2 : memref<?xmemref<?x?xf32>>, memref<?xmemref<?xf32>>) {
      ^bb0(%v1: memref<?xmemref<?x?xf32>>, %v2: memref<?xmemref<?xf32>>):
        %blk = arts.db_ref %v1[%c0] : memref<?xmemref<?x?xf32>> -> memref<?x?xf32>
        %xs = arts.db_ref %v2[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
        scf.for %i = %lb to %ub step %c1 {
          %li = arith.subi %i, %lb : index
          scf.for %j = %c0 to %m step %c1 {
            %xv = memref.load %xs[%j] : memref<?xf32>
            %ii = arith.index_cast %i : index to i32
            %if = arith.sitofp %ii : i32 to f32
            %hundred = arith.constant 100.0 : f32
            %s = arith.mulf %if, %hundred : f32
            %v = arith.addf %s, %xv : f32
            memref.store %v, %blk[%li, %j] : memref<?x?xf32>
          }
        }
        arts.db_release(%v1 : memref<?xmemref<?x?xf32>>)
        arts.db_release(%v2 : memref<?xmemref<?xf32>>)
      }
    }
  }
  // checksum = sum over blocks b, rows li, columns j of value * (global row * 2 + j + 1)
  %zero = arith.constant 0.0 : f64
  %sum = scf.for %b = %c0 to %nb step %c1 iter_args(%acc = %zero) -> f64 {
    %blk = arts.db_ref %pA[%b] : memref<?xmemref<?x?xf32>> -> memref<?x?xf32>
    %sb = scf.for %li = %c0 to %B step %c1 iter_args(%acc2 = %acc) -> f64 {
      %sr = scf.for %j = %c0 to %m step %c1 iter_args(%acc3 = %acc2) -> f64 {
        %v = memref.load %blk[%li, %j] : memref<?x?xf32>
        %row0 = arith.muli %b, %B : index
        %row = arith.addi %row0, %li : index
        %w0 = arith.muli %row, %c2 : index
        %w1 = arith.addi %w0, %j : index
        %w2 = arith.addi %w1, %c1 : index
        %wi = arith.index_cast %w2 : index to i64
        %wf = arith.sitofp %wi : i64 to f64
        %vd = arith.extf %v : f32 to f64
        %p = arith.mulf %vd, %wf : f64
        %n = arith.addf %acc3, %p : f64
        scf.yield %n : f64
      }
      scf.yield %sr : f64
    }
    scf.yield %sb : f64
  }
  arts.db_free(%gA, %pA : memref<?xi64>, memref<?xmemref<?x?xf32>>)
  arts.db_free(%gX, %pX : memref<?xi64>, memref<?xmemref<?xf32>>)
  return %sum : f64
}
"""


def test_block_tasks_write_their_block_from_a_full_range_read():
    result, rt = run_module(BLOCK_AND_FULL_RANGE)
    x = [10.0, 20.0]
    expected = sum((row * 100 + x[j]) * (row * 2 + j + 1) for row in range(12) for j in range(2))
    assert result == expected
    assert len(rt.ran) == 4
    assert not rt.payloads, "every datablock is destroyed by db_free"


FINE_GRAINED = """
func.func @main() -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <fine_grained> route(%r) sizes[%c3, %c4] elementSizes[]
      : memref<?x?xi64>, memref<?x?xmemref<f64>>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %e = arts.db_ref %p[%i, %j] : memref<?x?xmemref<f64>> -> memref<f64>
      %t = arith.muli %i, %c10 : index
      %v = arith.addi %t, %j : index
      %vi = arith.index_cast %v : index to i64
      %vf = arith.sitofp %vi : i64 to f64
      memref.store %vf, %e[] : memref<f64>
    }
  }
  %ep = arts.epoch {
    // row 2, columns 1..2 (the row dimension dropped), and the box rows 0..1 x columns 2..3
    %rg, %rp = arts.db_acquire <in> (%g, %p : memref<?x?xi64>, memref<?x?xmemref<f64>>)
        indices[%c2] offsets[%c1] sizes[%c2] : memref<?xi64>, memref<?xmemref<f64>>
    %bg, %bp = arts.db_acquire <inout> (%g, %p : memref<?x?xi64>, memref<?x?xmemref<f64>>)
        offsets[%c0, %c2] sizes[%c2, %c2] : memref<?x?xi64>, memref<?x?xmemref<f64>>
    arts.edt <task> <intranode> route(%r) (%rp, %bp : memref<?xmemref<f64>>, memref<?x?xmemref<f64>>) {
    ^bb0(%row: memref<?xmemref<f64>>, %box: memref<?x?xmemref<f64>>):
      %k = arith.constant 1000.0 : f64
      scf.for %i = %c0 to %c2 step %c1 {
        scf.for %j = %c0 to %c2 step %c1 {
          %re = arts.db_ref %row[%j] : memref<?xmemref<f64>> -> memref<f64>
          %be = arts.db_ref %box[%i, %j] : memref<?x?xmemref<f64>> -> memref<f64>
          %rv = memref.load %re[] : memref<f64>
          %bv = memref.load %be[] : memref<f64>
          %s = arith.mulf %bv, %k : f64
          %n = arith.addf %s, %rv : f64
          memref.store %n, %be[] : memref<f64>
        }
      }
    }
  }
  %zero = arith.constant 0.0 : f64
  %sum = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> f64 {
    %s2 = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc2 = %acc) -> f64 {
      %e = arts.db_ref %p[%i, %j] : memref<?x?xmemref<f64>> -> memref<f64>
      %v = memref.load %e[] : memref<f64>
      %w0 = arith.muli %i, %c4 : index
      %w1 = arith.addi %w0, %j : index
      %w2 = arith.addi %w1, %c1 : index
      %wi = arith.index_cast %w2 : index to i64
      %wf = arith.sitofp %wi : i64 to f64
      %pr = arith.mulf %v, %wf : f64
      %n = arith.addf %acc2, %pr : f64
      scf.yield %n : f64
    }
    scf.yield %s2 : f64
  }
  arts.db_free(%g, %p : memref<?x?xi64>, memref<?x?xmemref<f64>>)
  return %sum : f64
}
"""


def test_fine_grained_row_and_box_views_index_the_acquired_blocks():
    result, rt = run_module(FINE_GRAINED)
    a = [[10.0 * i + j for j in range(4)] for i in range(3)]
    for i in range(2):
        for j in range(2):
            a[i][2 + j] = a[i][2 + j] * 1000 + a[2][1 + j]
    assert result == sum(a[i][j] * (i * 4 + j + 1) for i in range(3) for j in range(4))
    task = rt.tasks[rt.ran[0]]
    assert task.depc == 6
    assert [task.deps[s].mode for s in range(6)] == [8, 8, 9, 9, 9, 9]


NESTED = """
func.func @main() -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 5 : index
  %r = arith.constant 0 : i32
  %gX, %pX = arts.db_alloc <in> <read> <block> route(%r) sizes[%n] elementSizes[%c1]
      : memref<?xi64>, memref<?xmemref<?xf64>>
  %gY, %pY = arts.db_alloc <out> <write> <block> route(%r) sizes[%n] elementSizes[%c1]
      : memref<?xi64>, memref<?xmemref<?xf64>>
  scf.for %b = %c0 to %n step %c1 {
    %xb = arts.db_ref %pX[%b] : memref<?xmemref<?xf64>> -> memref<?xf64>
    %bi = arith.index_cast %b : index to i64
    %bf = arith.sitofp %bi : i64 to f64
    memref.store %bf, %xb[%c0] : memref<?xf64>
  }
  %scale = arith.constant 3.0 : f64
  // The outer task reads X whole; its inner tasks read one block of X through its view and
  // write one block of Y, which the outer task does not acquire.
  %e = arts.epoch {
    %og, %op = arts.db_acquire <in> (%gX, %pX : memref<?xi64>, memref<?xmemref<?xf64>>)
        : memref<?xi64>, memref<?xmemref<?xf64>>
    arts.edt <single> <intranode> route(%r) (%op : memref<?xmemref<?xf64>>) {
    ^bb0(%ov: memref<?xmemref<?xf64>>):
      %ie = arts.epoch {
        scf.for %b = %c0 to %n step %c1 {
          %xg, %xp = arts.db_acquire <in> (%og, %ov : memref<?xi64>, memref<?xmemref<?xf64>>)
              offsets[%b] sizes[%c1] : memref<?xi64>, memref<?xmemref<?xf64>>
          %yg, %yp = arts.db_acquire <out> (%gY, %pY : memref<?xi64>, memref<?xmemref<?xf64>>)
              offsets[%b] sizes[%c1] : memref<?xi64>, memref<?xmemref<?xf64>>
          arts.edt <task> <intranode> route(%r) (%xp, %yp : memref<?xmemref<?xf64>>, memref<?xmemref<?xf64>>) {
          ^bb0(%xv: memref<?xmemref<?xf64>>, %yv: memref<?xmemref<?xf64>>):
            %xb = arts.db_ref %xv[%c0] : memref<?xmemref<?xf64>> -> memref<?xf64>
            %yb = arts.db_ref %yv[%c0] : memref<?xmemref<?xf64>> -> memref<?xf64>
            %v = memref.load %xb[%c0] : memref<?xf64>
            %s = arith.mulf %v, %scale : f64
            %one = arith.constant 1.0 : f64
            %t = arith.addf %s, %one : f64
            memref.store %t, %yb[%c0] : memref<?xf64>
            arts.db_release(%xv : memref<?xmemref<?xf64>>)
            arts.db_release(%yv : memref<?xmemref<?xf64>>)
          }
        }
      }
      arts.db_release(%ov : memref<?xmemref<?xf64>>)
    }
  }
  %zero = arith.constant 0.0 : f64
  %sum = scf.for %b = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %yb = arts.db_ref %pY[%b] : memref<?xmemref<?xf64>> -> memref<?xf64>
    %v = memref.load %yb[%c0] : memref<?xf64>
    %bi = arith.index_cast %b : index to i64
    %w = arith.sitofp %bi : i64 to f64
    %w1 = arith.addf %w, %w : f64
    %p = arith.mulf %v, %w1 : f64
    %s = arith.addf %acc, %p : f64
    scf.yield %s : f64
  }
  arts.db_free(%gX, %pX : memref<?xi64>, memref<?xmemref<?xf64>>)
  arts.db_free(%gY, %pY : memref<?xi64>, memref<?xmemref<?xf64>>)
  return %sum : f64
}
"""


def test_nested_tasks_acquire_from_the_outer_view_and_from_an_unacquired_table():
    result, rt = run_module(NESTED)
    assert result == sum((3.0 * b + 1.0) * 2 * b for b in range(5))
    assert len(rt.ran) == 6
    outer = rt.tasks[rt.ran[-1]]
    assert outer.depc == 5


CAPTURES = """
func.func @main() -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 0 : i32
  %i = arith.constant 7 : index
  %x = arith.constant 0.5 : f32
  %y = arith.constant -2.25 : f64
  %k = arith.constant -3 : i32
  %one = arith.constant 1 : i64
  %cell = llvm.alloca %one x i64 : (i64) -> !llvm.ptr
  %forty = arith.constant 40 : i64
  llvm.store %forty, %cell : i64, !llvm.ptr
  // Non-constant scalars, so they travel as parameters.
  %iv = arith.addi %i, %c0 : index
  %xv = arith.addf %x, %x : f32
  %yv = arith.addf %y, %y : f64
  %kv = arith.addi %k, %k : i32
  %c8 = arith.constant 8 : index
  %g, %p = arts.db_alloc <out> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c8]
      : memref<?xi64>, memref<?xmemref<?xf64>>
  %e = arts.epoch {
    %ag, %ap = arts.db_acquire <out> (%g, %p : memref<?xi64>, memref<?xmemref<?xf64>>)
        : memref<?xi64>, memref<?xmemref<?xf64>>
    arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xf64>>) {
    ^bb0(%v: memref<?xmemref<?xf64>>):
      %blk = arts.db_ref %v[%c0] : memref<?xmemref<?xf64>> -> memref<?xf64>
      %xe = arith.extf %xv : f32 to f64
      %ke = arith.sitofp %kv : i32 to f64
      %c = llvm.load %cell : !llvm.ptr -> i64
      %cf = arith.sitofp %c : i64 to f64
      %s1 = arith.addf %xe, %yv : f64
      %s2 = arith.addf %s1, %ke : f64
      %s3 = arith.addf %s2, %cf : f64
      memref.store %s3, %blk[%iv] : memref<?xf64>
      arts.db_release(%v : memref<?xmemref<?xf64>>)
    }
  }
  %blk = arts.db_ref %p[%c0] : memref<?xmemref<?xf64>> -> memref<?xf64>
  %res = memref.load %blk[%i] : memref<?xf64>
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?xf64>>)
  return %res : f64
}
"""


def test_captured_scalars_of_every_kind_reach_the_task():
    result, rt = run_module(CAPTURES)
    assert result == 1.0 + -4.5 + -6.0 + 40.0
    task = rt.tasks[rt.ran[0]]
    # in order of first use: f32 1.0 (bits, zero-extended), i32 -6 (sign-extended), the
    # pointer, f64 -4.5 (bits), index 7
    assert task.paramc == 5
    words = [task.params[i] for i in range(5)]
    assert words[0] == struct.unpack("<I", struct.pack("<f", 1.0))[0]
    assert words[1] == (-6) & 0xFFFFFFFFFFFFFFFF
    assert words[3] == struct.unpack("<Q", struct.pack("<d", -4.5))[0]
    assert words[4] == 7
