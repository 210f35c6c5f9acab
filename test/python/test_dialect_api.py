"""The Python side of the ARTS dialect: contexts, generated op classes, passes, the plugin."""

import subprocess
import sys

import mlir.ir as mir
import pytest
from mlir.dialects import arith, func, memref

from carts_mlir import _plugin, ir

GUIDS = "memref<?xi64>"
PTRS = "memref<?xmemref<?xf32>>"


@pytest.fixture
def ctx():
    with ir.context() as c:
        yield c


def build_every_high_level_op():
    """A function built only through the generated classes, using every high-level op."""
    from carts_mlir.dialects import arts

    i32, index, f32 = mir.IntegerType.get_signless(32), mir.IndexType.get(), mir.F32Type.get()
    guids_t, ptrs_t = mir.Type.parse(GUIDS), mir.Type.parse(PTRS)
    module = mir.Module.create()
    with mir.InsertionPoint(module.body):
        fn = func.FuncOp("kernel", ([index], []))
        with mir.InsertionPoint(fn.add_entry_block()):
            n = fn.arguments[0]
            route = arith.constant(i32, 0)
            c0, c1 = arith.constant(index, 0), arith.constant(index, 1)
            alloc = arts.DbAllocOp(guids_t, ptrs_t, arts.ArtsMode.inout, arts.DbMode.write,
                                   arts.PartitionMode.coarse, route, [c1], [n], distributed=True)
            acq = arts.DbAcquireOp(guids_t, ptrs_t, arts.ArtsMode.inout, alloc.guids, alloc.ptrs,
                                   [], [c0], [c1], partition=arts.PartitionMode.coarse)
            acc = memref.alloca(mir.MemRefType.get([], f32), [], [])
            epoch = arts.EpochOp(mir.IntegerType.get_signless(64))
            with mir.InsertionPoint(epoch.body.blocks.append()):
                edt = arts.EdtOp(arts.EdtType.parallel, arts.EdtConcurrency.intranode, route,
                                 [acq.ptrs], workers=2)
                view = edt.body.blocks.append(ptrs_t).arguments[0]
                with mir.InsertionPoint(edt.body.blocks[0]):
                    loop = arts.ForOp(c0, n, c1, [acc], schedule=arts.ScheduleKind.static_,
                                      reduction_kinds=mir.ArrayAttr.get(
                                          [mir.Attribute.parse("#arts.reduction<add>")]))
                    iv = loop.body.blocks.append(index).arguments[0]
                    with mir.InsertionPoint(loop.body.blocks[0]):
                        block = arts.DbRefOp(mir.Type.parse("memref<?xf32>"), view, [c0])
                        x = memref.load(block.payload, [iv])
                        arts.AtomicAddOp(x, acc, [])
                        arts.YieldOp()
                    arts.BarrierOp()
                    arts.RuntimeQueryOp(i32, arts.RuntimeQueryKind.current_worker)
                    arts.DbReleaseOp(view)
                    arts.YieldOp()
                arts.YieldOp()
            arts.DbFreeOp(alloc.guids, alloc.ptrs)
            func.ReturnOp([])
    return module


def test_generated_classes_build_a_valid_module(ctx):
    module = build_every_high_level_op()
    module.operation.verify()
    text = str(module)
    for fragment in ("arts.db_alloc <inout> <write> <coarse>", "{distributed}",
                     "arts.db_acquire <inout>", "partition(<coarse>)",
                     "arts.edt <parallel> <intranode>", "workers = 2",
                     "schedule(<static>) reduction([#arts.reduction<add>]",
                     "arts.db_ref", "arts.atomic_add", "arts.barrier",
                     "arts.runtime_query <current_worker>", "arts.db_release", "arts.db_free"):
        assert fragment in text, fragment
    # What Python built re-parses to the same text.
    assert str(ir.parse(text)) == text


def test_generated_classes_build_lowered_ops(ctx):
    from carts_mlir.dialects import arts

    i32, i64 = mir.IntegerType.get_signless(32), mir.IntegerType.get_signless(64)
    params_t, ptr_t = mir.Type.parse("memref<?xi64>"), mir.Type.parse("!llvm.ptr")
    module = mir.Module.create()
    with mir.InsertionPoint(module.body):
        body = func.FuncOp("task", ([i32, ptr_t, i32, ptr_t], []))
        with mir.InsertionPoint(body.add_entry_block()):
            unpacked = arts.EdtParamUnpackOp([i64], body.arguments[1])
            arts.DepGepOp(i64, ptr_t, body.arguments[3], arith.constant(mir.IndexType.get(), 0))
            func.ReturnOp([])
        host = func.FuncOp("host", ([i64, mir.Type.parse(GUIDS)], []))
        with mir.InsertionPoint(host.add_entry_block()):
            route, deps = arith.constant(i32, 0), arith.constant(i32, 1)
            epoch = arts.CreateEpochOp(i64)
            params = arts.EdtParamPackOp(params_t, [host.arguments[0]])
            edt = arts.EdtCreateOp(i64, "task", params, deps, route, epoch=epoch)
            arts.RecDepOp(edt, route, [host.arguments[1]],
                          mir.ArrayAttr.get([mir.Attribute.parse("#arts.mode<in>")]))
            guid = arts.ReserveGuidOp(i64, arts.DbMode.read, route)
            ptr = arts.DbCreateOp(ptr_t, guid, arith.constant(i64, 64), distributed=True)
            arts.PutInDbEpochOp(ptr, epoch, guid, route, deps)
            arts.WaitOnEpochOp(epoch)
            func.ReturnOp([])
    module.operation.verify()
    text = str(module)
    assert "arts.edt_create @task(" in text and "epoch(" in text
    assert "modes [#arts.mode<in>]" in text
    assert "arts.reserve_guid <read>" in text
    assert len(unpacked.values) == 1


def test_verifier_error_reaches_python_with_location(ctx):
    bad = 'func.func @f(%r: i32) {\n  arts.edt <single> <intranode> route(%r) attributes {workers = 2} {\n  }\n  return\n}'
    with pytest.raises(ir.DiagnosedError) as err:
        ir.parse(bad, source_name="bad.mlir")
    rendered = err.value.render()
    assert rendered.startswith("bad.mlir:2:3: error: 'arts.edt' op only a parallel task has workers")


def test_python_defined_pass_runs_in_a_pipeline_with_plugin_passes(ctx):
    from mlir.passmanager import PassManager

    module = build_every_high_level_op()
    seen = []

    def count_tasks(op, pass_):
        op.walk(lambda o: seen.append(o.name) or mir.WalkResult.ADVANCE)

    pm = PassManager.parse("builtin.module(arts-verify-no-omp)")
    pm.add(count_tasks, name="count-tasks")
    pm.add("canonicalize")
    pm.run(module.operation)
    assert seen.count("arts.edt") == 1 and seen.count("arts.for") == 1


def test_python_pass_failure_is_reported(ctx):
    from mlir.passmanager import PassManager

    module = build_every_high_level_op()

    def reject(op, pass_):
        pass_.signal_pass_failure()

    pm = PassManager("builtin.module")
    pm.add(reject, name="reject")
    with pytest.raises(mir.MLIRError):
        pm.run(module.operation)


def test_plugin_passes_fail_with_located_diagnostics(ctx):
    module = ir.parse("func.func @f() {\n  omp.barrier\n  return\n}", source_name="omp.mlir")
    with pytest.raises(ir.DiagnosedError) as err:
        ir.run_pipeline(module, "builtin.module(arts-verify-no-omp)")
    assert "omp.mlir:2:3: error: 'omp.barrier' left after openmp-to-arts" in err.value.render()


def test_contexts_share_one_plugin_load():
    first = _plugin.load()
    with ir.context():
        pass
    with ir.context():
        pass
    assert _plugin.load() is first
    assert _plugin.load.cache_info().misses == 1


def test_plugin_is_mapped_once_in_a_fresh_process():
    code = (
        "from carts_mlir import ir\n"
        "for _ in range(3):\n"
        "    with ir.context():\n"
        "        ir.parse('func.func @f() { return }')\n"
        "maps = open('/proc/self/maps').read().splitlines()\n"
        "paths = {l.split()[-1] for l in maps if 'libCartsPlugin' in l}\n"
        "capi = {l.split()[-1] for l in maps if 'libMLIRPythonCAPI' in l}\n"
        "print(len(paths), len(capi))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["1", "1"]


def test_arts_ops_are_unknown_without_the_plugin_registry():
    ctx = mir.Context()
    with ctx, pytest.raises(mir.MLIRError):
        mir.Module.parse("func.func @f(%r: i32) {\n arts.barrier\n return\n}")
