// arts-openmp-to-arts on OpenMP tasks: a task becomes a task EDT whose depend items are
// arts.depend ops, taskwait and the end of a taskgroup become barriers, and a parallel
// region made of one single that creates tasks becomes host code (the runtime's workers
// are the team). What has no ARTS form fails at its location before the IR changes.
// RUN: split-file %s %t --leading-lines
// RUN: carts-opt %t/convert.mlir --split-input-file --pass-pipeline='builtin.module(arts-openmp-to-arts)' | FileCheck %s
// RUN: carts-opt %t/convert.mlir --pass-pipeline='builtin.module(arts-openmp-to-arts)' --debug-only=tasks 2>&1 | FileCheck %s --check-prefix=DEBUG
// RUN: carts-opt %t/convert.mlir --pass-pipeline='builtin.module(arts-openmp-to-arts)' --debug-only=tasks 2>&1 | FileCheck %s --check-prefix=INCLUDED
// RUN: carts-opt %t/convert.mlir --pass-pipeline='builtin.module(arts-openmp-to-arts)' --debug-only=tasks 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: carts-opt %t/invalid.mlir --split-input-file --pass-pipeline='builtin.module(arts-openmp-to-arts)' --verify-diagnostics

//--- convert.mlir

// The single's body runs on the host; each task is an EDT with its dependences
// declared at the top of its body; taskwait and the implicit barrier of the region
// become arts.barrier.
// CHECK-LABEL: func.func @team_of_tasks
// CHECK-NOT: arts.edt <parallel>
// CHECK-NOT: arts.edt <single>
// CHECK: arts.edt <task> <intranode> route(%{{.*}}) attributes {no_verify} {
// CHECK-NEXT: arts.depend <out> %arg0 : memref<?xf64>
// CHECK-NEXT: memref.store
// CHECK: arts.edt <task> <intranode> route(%{{.*}}) attributes {no_verify} {
// CHECK-NEXT: arts.depend <in> %arg0 : memref<?xf64>
// CHECK-NEXT: arts.depend <inout> %arg1 : memref<f64>
// CHECK: arts.barrier
// CHECK-NEXT: memref.load %arg1[]
// CHECK: arts.barrier
// CHECK-NEXT: return
// CHECK-NOT: omp.
func.func @team_of_tasks(%a: memref<?xf64>, %s: memref<f64>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f64
  // DEBUG: [tasks] {{.*}}convert.mlir:[[@LINE+1]]:3: omp.parallel around one omp.single that creates tasks -> host code; the runtime's workers run the tasks; arts.barrier at its end
  omp.parallel {
    omp.single {
      // DEBUG: [tasks] {{.*}}convert.mlir:[[@LINE+1]]:7: omp.task -> arts.edt <task>; depend(out) on the memref of {{.*}} -> arts.depend <out>
      omp.task depend(taskdependout -> %a : memref<?xf64>) {
        memref.store %f, %a[%c0] : memref<?xf64>
        omp.terminator
      }
      // DEBUG: [tasks] {{.*}}convert.mlir:[[@LINE+1]]:7: omp.task -> arts.edt <task>; depend(in) on the memref of {{.*}} -> arts.depend <in>; depend(inout) on the memref of {{.*}} -> arts.depend <inout>
      omp.task depend(taskdependin -> %a : memref<?xf64>, taskdependinout -> %s : memref<f64>) {
        %v = memref.load %a[%c0] : memref<?xf64>
        memref.store %v, %s[] : memref<f64>
        omp.terminator
      }
      // DEBUG: [tasks] {{.*}}convert.mlir:[[@LINE+1]]:7: omp.taskwait -> arts.barrier (an epoch ends here)
      omp.taskwait
      %r = memref.load %s[] : memref<f64>
      omp.terminator
    }
    omp.terminator
  }
  return
}

// -----

// A region that sets up its private copies (firstprivate: read outside, stored in its
// own allocas) before the single is still one creator: the copies are the host's.
// CHECK-LABEL: func.func @privates_then_single
// CHECK-NOT: arts.edt <parallel>
// CHECK: %[[COPY:.*]] = memref.alloca() : memref<f64>
// CHECK: %[[W:.*]] = memref.load %arg1[] : memref<f64>
// CHECK: memref.store %[[W]], %[[COPY]][]
// CHECK: memref.load %[[COPY]][]
// CHECK: arts.edt <task>
// CHECK: arts.barrier
func.func @privates_then_single(%a: memref<?xf64>, %w: memref<f64>) {
  %c0 = arith.constant 0 : index
  // DEBUG: [tasks] {{.*}}convert.mlir:[[@LINE+1]]:3: omp.parallel around one omp.single that creates tasks
  omp.parallel {
    %copy = memref.alloca() : memref<f64>
    %v = memref.load %w[] : memref<f64>
    memref.store %v, %copy[] : memref<f64>
    omp.single {
      %x = memref.load %copy[] : memref<f64>
      omp.task {
        memref.store %x, %a[%c0] : memref<?xf64>
        omp.terminator
      }
      omp.terminator
    }
    omp.terminator
  }
  return
}

// A barrier or taskwait after the creator waits for what the region's end waits for.
// CHECK-LABEL: func.func @single_then_barrier
// CHECK-NOT: arts.edt <parallel>
// CHECK: arts.edt <task>
// CHECK: arts.barrier
func.func @single_then_barrier(%a: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %x = arith.constant 1.0 : f64
  omp.parallel {
    omp.master {
      omp.task {
        memref.store %x, %a[%c0] : memref<?xf64>
        omp.terminator
      }
      omp.terminator
    }
    omp.taskwait
    omp.barrier
    omp.terminator
  }
  return
}

// -----

// Every thread creates tasks and nothing orders the threads: they take turns on the host,
// a loop over the thread numbers (num_threads, else the worker count) whose index is
// omp_get_thread_num() outside the tasks; a barrier after the loop waits for the tasks.
// CHECK-LABEL: func.func @threads_take_turns
// CHECK: %[[W:.*]] = arts.runtime_query <total_workers> : i32
// CHECK: %[[N:.*]] = arith.index_cast %[[W]] : i32 to index
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK: %[[ME:.*]] = arith.index_cast %[[T]] : index to i32
// CHECK: memref.store %[[ME]], %arg0[%{{.*}}]
// CHECK: arts.edt <task>
// CHECK: }
// CHECK: arts.barrier
func.func @threads_take_turns(%seen: memref<?xi32>, %ran: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  // DEBUG: [tasks] {{.*}}convert.mlir:[[@LINE+1]]:3: omp.parallel whose every thread creates tasks -> host code, the threads taking turns (the worker count of them); arts.barrier at its end
  omp.parallel {
    %me = func.call @omp_get_thread_num() : () -> i32
    %i = arith.index_cast %me : i32 to index
    memref.store %me, %seen[%i] : memref<?xi32>
    omp.task {
      %w = func.call @omp_get_thread_num() : () -> i32
      memref.store %w, %ran[%c0] : memref<?xi32>
      omp.terminator
    }
    omp.terminator
  }
  return
}
// A single creating tasks among other work: a region per part, in order; the single's
// alone becomes host code, the work after it a region of its own, which computes the
// thread's number again.
// CHECK-LABEL: func.func @single_among_work
// CHECK-NOT: arts.edt <parallel>
// CHECK: arts.edt <task>
// CHECK: arts.barrier
// CHECK: arts.edt <parallel>
// CHECK: %[[T:.*]] = arts.runtime_query <current_worker>
// CHECK: memref.store %{{.*}}, %arg1[%{{.*}}]
func.func @single_among_work(%a: memref<?xf64>, %seen: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %x = arith.constant 1.0 : f64
  // SPLIT: [tasks] {{.*}}convert.mlir:[[@LINE+1]]:3: omp.parallel holding a task-creating single or master among other work or beside another -> 2 regions in order, each creator alone in its own
  omp.parallel {
    %me = func.call @omp_get_thread_num() : () -> i32
    %i = arith.index_cast %me : i32 to index
    omp.single {
      omp.task {
        memref.store %x, %a[%c0] : memref<?xf64>
        omp.terminator
      }
      omp.terminator
    }
    memref.store %x, %seen[%i] : memref<?xf64>
    omp.terminator
  }
  return
}

func.func private @omp_get_thread_num() -> i32

// -----

// Two masters creating tasks, nothing else in the region (`master taskloop` twice): a
// region each, one after the other, each host code creating its tasks.
// CHECK-LABEL: func.func @masters_alone
// CHECK-NOT: arts.edt <parallel>
// CHECK: arts.edt <task>
// CHECK: arts.barrier
// CHECK: arts.edt <task>
// CHECK: arts.barrier
// CHECK-NOT: arts.edt <parallel>
// CHECK: return
func.func @masters_alone(%a: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 1.0 : f64
  // SPLIT: [tasks] {{.*}}convert.mlir:[[@LINE+1]]:3: omp.parallel holding a task-creating single or master among other work or beside another -> 2 regions in order, each creator alone in its own
  omp.parallel {
    omp.master {
      omp.task {
        memref.store %x, %a[%c0] : memref<?xf64>
        omp.terminator
      }
      omp.terminator
    }
    omp.master {
      omp.task {
        memref.store %x, %a[%c1] : memref<?xf64>
        omp.terminator
      }
      omp.terminator
    }
    omp.terminator
  }
  return
}

// -----

// A task created in another task or in a work-sharing loop's body (a helper that creates
// tasks, inlined there) is included: its creator runs its body in place (its depend items
// dropped: creation order satisfies them).
// CHECK-LABEL: func.func @included
// CHECK: arts.edt <task>
// CHECK-NOT: arts.edt <task>
// CHECK-NOT: arts.depend
// CHECK: memref.store %{{.*}}, %arg0[%{{.*}}]
// CHECK: memref.store %{{.*}}, %arg0[%{{.*}}]
// CHECK: }
func.func @included(%a: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 1.0 : f64
  omp.task {
    memref.store %x, %a[%c0] : memref<?xf64>
    // INCLUDED: [tasks] {{.*}}convert.mlir:[[@LINE+1]]:5: omp.task inside a task or a work-sharing loop -> included: its creator runs its body in place
    omp.task depend(taskdependout -> %a : memref<?xf64>) {
      memref.store %x, %a[%c1] : memref<?xf64>
      omp.terminator
    }
    omp.taskwait
    omp.terminator
  }
  return
}

// -----

// The single's code runs on the host, but the team it (and its tasks) asks about is the
// region's: num_threads where given, else every worker.
// CHECK-LABEL: func.func @team_size_of_tasks
// CHECK: memref.store %arg1, %arg0[]
// CHECK: arts.edt <task>
// CHECK: %[[W:.*]] = arts.runtime_query <total_workers> : i32
// CHECK: memref.store %[[W]], %arg0[]
func.func @team_size_of_tasks(%n: memref<i32>, %k: i32) {
  omp.parallel num_threads(%k : i32) {
    omp.single {
      // DEBUG: [tasks] {{.*}}convert.mlir:[[@LINE+1]]:12: omp_get_num_threads in a region of tasks -> its num_threads
      %t = func.call @omp_get_num_threads() : () -> i32
      memref.store %t, %n[] : memref<i32>
      omp.task {
        // DEBUG: [tasks] {{.*}}convert.mlir:[[@LINE+1]]:14: omp_get_num_threads in a region of tasks -> its num_threads
        %u = func.call @omp_get_num_threads() : () -> i32
        omp.terminator
      }
      omp.terminator
    }
    omp.terminator
  }
  omp.parallel {
    omp.single {
      omp.task {
        // DEBUG: [tasks] {{.*}}convert.mlir:[[@LINE+1]]:14: omp_get_num_threads in a region of tasks -> the worker count
        %u = func.call @omp_get_num_threads() : () -> i32
        memref.store %u, %n[] : memref<i32>
        omp.terminator
      }
      omp.terminator
    }
    omp.terminator
  }
  return
}
func.func private @omp_get_num_threads() -> i32

// -----

// A taskgroup is its body followed by a barrier; hints are noted and dropped.
// CHECK-LABEL: func.func @group_and_hints
// CHECK: arts.edt <task>
// CHECK: arts.barrier
// CHECK-NEXT: return
func.func @group_and_hints(%m: memref<f32>, %p: i32, %fin: i1) {
  %f = arith.constant 1.0 : f32
  // DEBUG: [tasks] {{.*}}convert.mlir:[[@LINE+1]]:3: omp.taskgroup -> its body + arts.barrier (an epoch ends at its end)
  omp.taskgroup {
    // DEBUG: [tasks] {{.*}}convert.mlir:[[@LINE+1]]:5: omp.task -> arts.edt <task>; 'final' ignored (ARTS tasks are always deferred); 'priority' ignored; 'untied'/'mergeable' ignored (hints)
    omp.task final(%fin) priority(%p : i32) untied {
      memref.store %f, %m[] : memref<f32>
      omp.terminator
    }
    omp.terminator
  }
  return
}

// -----

// if(c): the task when c holds, else the same task inside an epoch of its own.
// CHECK-LABEL: func.func @undeferred
// CHECK: scf.if %arg1 {
// CHECK-NEXT: arts.edt <task>
// CHECK: } else {
// CHECK-NEXT: arts.epoch {
// CHECK-NEXT: arts.edt <task>
func.func @undeferred(%m: memref<f32>, %c: i1) {
  %f = arith.constant 1.0 : f32
  omp.task if(%c) {
    memref.store %f, %m[] : memref<f32>
    omp.terminator
  }
  return
}

//--- invalid.mlir

// Threads that create tasks and also wait for each other (a barrier) cannot take turns.
func.func @task_per_thread_with_barrier() {
  // expected-error @+1 {{omp.task in a parallel region is supported when one 'single' or 'master' construct is the whole region, or when every thread creates tasks and nothing else orders the threads (here: 'omp.barrier')}}
  omp.parallel {
    omp.task {
      omp.terminator
    }
    omp.barrier
    omp.terminator
  }
  return
}

// -----

// A function the threads call asks which thread it runs in: on the host it would not know.
func.func private @which() -> i32 {
  %t = func.call @omp_get_thread_num() : () -> i32
  return %t : i32
}
func.func private @omp_get_thread_num() -> i32
func.func @task_per_thread_calling(%m: memref<?xi32>) {
  // expected-error @+1 {{(here: @which asks which thread it runs in)}}
  omp.parallel {
    %t = func.call @which() : () -> i32
    omp.task {
      omp.terminator
    }
    omp.terminator
  }
  return
}

// -----

func.func @mutexinoutset(%m: memref<f32>) {
  // expected-error @+1 {{depend(taskdependmutexinoutset) on omp.task is not supported}}
  omp.task depend(taskdependmutexinoutset -> %m : memref<f32>) {
    omp.terminator
  }
  return
}

// -----

func.func @taskwait_depend(%m: memref<f32>) {
  // expected-error @+1 {{'depend' and 'nowait' on omp.taskwait are not supported}}
  omp.taskwait depend(taskdependin -> %m : memref<f32>)
  return
}
