"""The pre-lowering stage's output runs on the native runtime. Each program below is ARTS IR
as the epochs stage leaves it (datablocks, acquires, epochs, tasks), its work in
``@compute() -> f64``; it goes through the rest of the pipeline (pre-lowering, then
arts-to-llvm), is JIT-compiled and run on ``libcartsrt`` with its task and datablock calls
recorded (``common.run_arts_mlir``). The values the programs compute prove the outlined
tasks see their parameters, their dependency slots and their datablock views where they
should; the recorded calls show what each task was given: its parameter words, its slots and
their access modes.

The runtime runs a task only once each of its slots is satisfied; a slot recorded twice or out
of range, or never recorded, ends the run with status 2 and a message. So every run here must
exit 0 with nothing on stderr, and record each slot of each task exactly once, on a datablock
the program created; every datablock it created must be destroyed.
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass, field
from pathlib import Path

from common import run_arts_mlir

#: Workers of each run: tasks of one epoch may run at the same time.
WORKERS = 2

#: artsRecordDep's access modes.
READ, WRITE, READ_STABLE = 8, 9, 11

#: The program's ``main``: runs ``@compute`` and prints its result with every digit.
REPORT_MAIN = """
llvm.mlir.global internal constant @result_fmt("result = %.17g\\0A\\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32
func.func @main() -> i32 {
  %v = func.call @compute() : () -> f64
  %f = llvm.mlir.addressof @result_fmt : !llvm.ptr
  %r = llvm.call @printf(%f, %v) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, f64) -> i32
  %c0 = arith.constant 0 : i32
  return %c0 : i32
}
"""


@dataclass
class Run:
    """What a program computed, and the tasks it created in the order it created them: each
    task is its ``artsEdtCreate*`` call plus ``deps``, its datablock dependences in slot order
    (``artsRecordDep`` calls, or the GUIDs of its ``artsEdtCreateWithDbs`` runs)."""

    result: float
    tasks: list[dict] = field(repr=False)

    def modes(self, task: dict) -> list[int]:
        return [dep["mode"] for dep in task["deps"]]


def run_module(tmp_path: Path, program: str) -> Run:
    """Run ``program`` from pre-lowering on; check what every run must show (see above)."""
    trace = tmp_path / "calls.jsonl"
    done = run_arts_mlir(tmp_path, program + REPORT_MAIN, "program", start="pre-lowering",
                         threads=WORKERS, trace=trace)
    assert (done.returncode, done.stderr) == (0, ""), done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and lines[0].startswith("result = "), done.stdout
    calls = [json.loads(line) for line in trace.read_text().splitlines()]

    def made(name: str) -> list[dict]:
        return [c for c in calls if c["call"] == name]

    created = [c["guid"] for c in made("artsDbCreateWithGuid")]
    assert sorted(c["guid"] for c in made("artsDbDestroy")) == sorted(created)
    tasks = [c for c in calls if c["call"].startswith("artsEdtCreate")]
    for task in tasks:
        recorded = [c for c in made("artsRecordDep") if c["edt"] == task["guid"]]
        deps = sorted(recorded + task.get("dbs", []), key=lambda c: c["slot"])
        assert [dep["slot"] for dep in deps] == list(range(task["depc"])), (task, deps)
        assert all(dep["db"] in created for dep in deps), (created, deps)
        task["deps"] = deps
    return Run(float(lines[0].removeprefix("result = ")), tasks)


# ---------------------------------------------------------------------- programs

BLOCK_AND_FULL_RANGE = """
func.func @compute() -> f64 {
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


def test_block_tasks_write_their_block_from_a_full_range_read(tmp_path):
    run = run_module(tmp_path, BLOCK_AND_FULL_RANGE)
    x = [10.0, 20.0]
    expected = sum((row * 100 + x[j]) * (row * 2 + j + 1) for row in range(12) for j in range(2))
    assert run.result == expected
    # four tasks, each writing a block of its own and reading the one block of X
    assert [run.modes(task) for task in run.tasks] == [[WRITE, READ]] * 4
    assert len({task["deps"][0]["db"] for task in run.tasks}) == 4
    assert len({task["deps"][1]["db"] for task in run.tasks}) == 1


def test_a_stable_read_is_recorded_as_such_and_reads_the_same_values(tmp_path):
    stable = BLOCK_AND_FULL_RANGE.replace(
        "{full_range} : memref<?xi64>, memref<?xmemref<?xf32>>",
        "{full_range, stable} : memref<?xi64>, memref<?xmemref<?xf32>>")
    assert stable != BLOCK_AND_FULL_RANGE
    run = run_module(tmp_path, stable)
    x = [10.0, 20.0]
    expected = sum((row * 100 + x[j]) * (row * 2 + j + 1) for row in range(12) for j in range(2))
    assert run.result == expected
    assert [run.modes(task) for task in run.tasks] == [[WRITE, READ_STABLE]] * 4


FINE_GRAINED = """
func.func @compute() -> f64 {
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


def test_fine_grained_row_and_box_views_index_the_acquired_blocks(tmp_path):
    run = run_module(tmp_path, FINE_GRAINED)
    a = [[10.0 * i + j for j in range(4)] for i in range(3)]
    for i in range(2):
        for j in range(2):
            a[i][2 + j] = a[i][2 + j] * 1000 + a[2][1 + j]
    assert run.result == sum(a[i][j] * (i * 4 + j + 1) for i in range(3) for j in range(4))
    # slots: the two elements of the row, then the 2 x 2 box
    [task] = run.tasks
    assert run.modes(task) == [READ] * 2 + [WRITE] * 4


NESTED = """
func.func @compute() -> f64 {
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


def test_nested_tasks_acquire_from_the_outer_view_and_from_an_unacquired_table(tmp_path):
    run = run_module(tmp_path, NESTED)
    assert run.result == sum((3.0 * b + 1.0) * 2 * b for b in range(5))
    # the outer task (created first) reads the five blocks of X; each inner task reads the
    # block of X its outer slot holds and writes its block of Y
    outer, *inner = run.tasks
    assert run.modes(outer) == [READ] * 5
    assert [run.modes(task) for task in inner] == [[READ, WRITE]] * 5
    assert sorted(task["deps"][0]["db"] for task in inner) == \
        sorted(dep["db"] for dep in outer["deps"])


CAPTURES = """
func.func @compute() -> f64 {
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


def test_captured_scalars_of_every_kind_reach_the_task(tmp_path):
    run = run_module(tmp_path, CAPTURES)
    assert run.result == 1.0 + -4.5 + -6.0 + 40.0
    [task] = run.tasks
    # in order of first use: f32 1.0 (bits, zero-extended), i32 -6 (sign-extended), the
    # pointer, f64 -4.5 (bits), index 7
    words = task["paramv"]
    assert len(words) == 5
    assert words[0] == struct.unpack("<I", struct.pack("<f", 1.0))[0]
    assert words[1] == (-6) & 0xFFFFFFFFFFFFFFFF
    assert words[3] == struct.unpack("<Q", struct.pack("<d", -4.5))[0]
    assert words[4] == 7
