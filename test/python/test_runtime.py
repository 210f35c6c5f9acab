"""The native runtime (libcartsrt) behaves as runtime/include/arts.h says: each C program
in test/runtime/ drives the ARTS API and checks itself; it states what a passing run prints in
`// EXPECT:` (stdout lines, in order), `// EXPECT-EXIT:` and `// EXPECT-STDERR:` comments.
Every program runs with one and with two workers, under a timeout (a hang is a failure)."""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from carts_mlir import runtime
from carts_mlir.errors import CartsError

from common import ROOT

PROGRAM_DIR = ROOT / "test" / "runtime"
PROGRAMS = sorted(PROGRAM_DIR.glob("*.c"))
HEADER = ROOT / "runtime" / "include" / "arts.h"
TIMEOUT_S = 60

needs_cc = pytest.mark.skipif(shutil.which("cc") is None, reason="no system C compiler (cc)")


@dataclass
class Expected:
    stdout_lines: list[str] = field(default_factory=list)
    exit_status: int = 0
    stderr_texts: list[str] = field(default_factory=list)


def expected_of(program: Path) -> Expected:
    exp = Expected()
    for line in program.read_text().splitlines():
        if m := re.match(r"\s*// EXPECT: (.*)$", line):
            exp.stdout_lines.append(m.group(1))
        elif m := re.match(r"\s*// EXPECT-EXIT: (\d+)\s*$", line):
            exp.exit_status = int(m.group(1))
        elif m := re.match(r"\s*// EXPECT-STDERR: (.*)$", line):
            exp.stderr_texts.append(m.group(1))
    return exp


@pytest.fixture(scope="session")
def library() -> Path:
    return runtime.library_path()


@pytest.fixture(scope="session")
def compiled(library, tmp_path_factory):
    """Compile each test program once per session against the runtime under test."""
    out_dir = tmp_path_factory.mktemp("runtime-programs")
    cache: dict[Path, Path] = {}

    def compile_program(program: Path) -> Path:
        if program not in cache:
            exe = out_dir / program.stem
            cmd = ["cc", "-O2", "-std=c11", "-pthread", f"-I{HEADER.parent}", f"-I{PROGRAM_DIR}",
                   str(program), str(library), f"-Wl,-rpath,{library.parent}", "-o", str(exe)]
            done = subprocess.run(cmd, capture_output=True, text=True)
            assert done.returncode == 0, f"{' '.join(cmd)}\n{done.stderr}"
            cache[program] = exe
        return cache[program]

    return compile_program


def run_program(exe: Path, threads: int, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, threads=str(threads))
    env.pop("artsConfig", None)  # the programs choose their configuration themselves
    return subprocess.run([str(exe)], capture_output=True, text=True, timeout=TIMEOUT_S,
                          env=env, cwd=cwd)


@needs_cc
@pytest.mark.parametrize("threads", [1, 2], ids=lambda t: f"threads={t}")
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_program_prints_its_expected_lines(program, threads, compiled, tmp_path):
    exp = expected_of(program)
    assert exp.stdout_lines or exp.stderr_texts, f"{program.name} states no expectation"
    done = run_program(compiled(program), threads, tmp_path)
    report = f"exit {done.returncode}\n--- stdout\n{done.stdout}--- stderr\n{done.stderr}"
    assert done.returncode == exp.exit_status, report
    lines = done.stdout.splitlines()
    position = 0
    for want in exp.stdout_lines:
        assert want in lines[position:], f"missing (in order): {want!r}\n{report}"
        position = lines.index(want, position) + 1
    for text in exp.stderr_texts:
        assert text in done.stderr, f"missing on stderr: {text!r}\n{report}"


def program_lines(compiled, tmp_path, name: str, **settings: str) -> list[str]:
    """What test/runtime/``name`` prints (the runtime's own lines left out) on 2 workers with
    these configuration keys in its environment and no arts.cfg; it must exit 0."""
    program = PROGRAM_DIR / name
    env = dict(os.environ, threads="2", **settings)
    env.pop("artsConfig", None)
    done = subprocess.run([str(compiled(program))], capture_output=True, text=True,
                          timeout=TIMEOUT_S, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    return [line for line in done.stdout.splitlines() if not line.startswith("carts")]


@needs_cc
def test_a_large_payload_behaves_the_same_without_huge_pages(compiled, tmp_path):
    """db_large.c again with hugePages=0: its 3 MiB payload comes from calloc instead."""
    lines = program_lines(compiled, tmp_path, "db_large.c", hugePages="0")
    assert lines == expected_of(PROGRAM_DIR / "db_large.c").stdout_lines


@needs_cc
def test_populate_faults_a_large_payload_in_when_it_is_made(compiled, tmp_path):
    """db_populate.c with populate=1: every page resident from its creation."""
    assert program_lines(compiled, tmp_path, "db_populate.c", populate="1") == [
        "at creation: every page resident", "after the writer: every page resident"]


def test_expectations_are_parsed_from_directives(tmp_path):
    program = tmp_path / "p.c"
    program.write_text("// EXPECT: a b\n// EXPECT-EXIT: 2\n  // EXPECT-STDERR: oops (guid\nint x;\n")
    assert expected_of(program) == Expected(["a b"], 2, ["oops (guid"])


def test_library_exports_every_function_of_the_header(library):
    declared = re.findall(r"^ARTS_API [^;]*?\b(arts\w+)\(", HEADER.read_text(), re.M)
    assert len(declared) >= 20, declared
    lib = ctypes.CDLL(str(library))
    missing = [name for name in declared if not hasattr(lib, name)]
    assert not missing, f"{library} lacks {missing}"


def test_carts_runtime_overrides_the_installed_library(monkeypatch, library):
    monkeypatch.setenv("CARTS_RUNTIME", str(library))
    assert runtime.library_path() == library
    monkeypatch.setenv("CARTS_RUNTIME", str(library.parent / "no-such-library.so"))
    with pytest.raises(CartsError, match="no such file"):
        runtime.library_path()


def test_installed_runtime_is_found_without_the_override(monkeypatch):
    monkeypatch.delenv("CARTS_RUNTIME", raising=False)
    path = runtime.library_path()
    assert path.name == runtime.RUNTIME_NAME and path.is_file()
    assert path.parent.name == "_lib"


def test_load_makes_the_api_global():
    lib = runtime.load()
    assert runtime.load() is lib
    assert ctypes.CDLL(None).artsRT  # the dynamic linker sees it process-wide
    import llvmlite.binding as llvm

    assert llvm.address_of_symbol("artsRT")  # and so does LLVM's symbol search
    assert lib.artsGetTotalNodes() == 1


#: An ARTS program as the lowering emits it (main -> artsSetEntryPoints + artsRT; artsMain
#: creates tasks in an epoch, waits, prints, shuts down), JIT-compiled into the process.
JIT_PROGRAM = r"""
declare void @artsSetEntryPoints(ptr, ptr, ptr)
declare i32 @artsRT(i32, ptr)
declare i64 @artsInitializeAndStartEpoch(i64, i32)
declare i1 @artsWaitOnHandle(i64)
declare i64 @artsEdtCreate(ptr, i32, i32, ptr, i32)
declare i32 @artsGetTotalWorkers()
declare void @artsShutdown()
declare i32 @printf(ptr, ...)

@sum = global i64 0
@fmt = private constant [26 x i8] c"sum %ld workers %d ok %d\0A\00"

define void @add(i32 %paramc, ptr %paramv, i32 %depc, ptr %depv) {
  %p = load i64, ptr %paramv
  %old = atomicrmw add ptr @sum, i64 %p seq_cst
  ret void
}

define void @artsMain(i32 %argc, ptr %argv) {
entry:
  store i64 0, ptr @sum
  %e = call i64 @artsInitializeAndStartEpoch(i64 0, i32 0)
  %param = alloca i64
  br label %loop
loop:
  %i = phi i64 [ 1, %entry ], [ %next, %loop ]
  store i64 %i, ptr %param
  %t = call i64 @artsEdtCreate(ptr @add, i32 0, i32 1, ptr %param, i32 0)
  %next = add i64 %i, 1
  %more = icmp ne i64 %next, 1001
  br i1 %more, label %loop, label %wait
wait:
  %ok = call i1 @artsWaitOnHandle(i64 %e)
  %ok32 = zext i1 %ok to i32
  %s = load i64, ptr @sum
  %w = call i32 @artsGetTotalWorkers()
  %r = call i32 (ptr, ...) @printf(ptr @fmt, i64 %s, i32 %w, i32 %ok32)
  call void @artsShutdown()
  ret void
}

define i32 @main(i32 %argc, ptr %argv) {
  call void @artsSetEntryPoints(ptr @artsMain, ptr null, ptr null)
  %r = call i32 @artsRT(i32 %argc, ptr %argv)
  ret i32 %r
}
"""

JIT_DRIVER = """
import ctypes, sys
import llvmlite.binding as llvm
from carts_mlir import runtime

runtime.load()
llvm.initialize_native_target()
llvm.initialize_native_asmprinter()
module = llvm.parse_assembly(open(sys.argv[1]).read())
module.verify()
machine = llvm.Target.from_default_triple().create_target_machine()
engine = llvm.create_mcjit_compiler(module, machine)
engine.finalize_object()
main = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p))(
    engine.get_function_address("main"))
argv = (ctypes.c_char_p * 2)(b"program", None)
for run in range(3):
    status = main(1, argv)
    ctypes.CDLL(None).fflush(None)
    print("run", run, "status", status, flush=True)
"""


def test_jit_compiled_program_runs_three_times_in_one_process(tmp_path, library):
    (tmp_path / "program.ll").write_text(JIT_PROGRAM)
    (tmp_path / "driver.py").write_text(JIT_DRIVER)
    env = dict(os.environ, threads="2", CARTS_RUNTIME=str(library))
    env.pop("artsConfig", None)
    done = subprocess.run([sys.executable, "driver.py", "program.ll"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT_S)
    assert done.returncode == 0, done.stdout + done.stderr
    expected = []
    for run in range(3):
        expected += ["sum 500500 workers 2 ok 1", f"run {run} status 0"]
    assert done.stdout.splitlines() == expected, done.stdout + done.stderr


# ---------------------------------------------------------------------- trace=FILE


def _traced(library, tmp_path, threads: int, trace: str) -> subprocess.CompletedProcess:
    """trace_routes.c built with its symbols exported (as `carts execute` builds programs),
    run with trace=<trace> and routeFollows=0, so that a routed task is always sent to the
    worker its route names (by default the route follows a worker that took one of its tasks,
    and the trace's `routed` column still names the route's own worker)."""
    program = PROGRAM_DIR / "trace_routes.c"
    exe = tmp_path / "trace_routes"
    cmd = ["cc", "-O2", "-std=c11", "-pthread", "-rdynamic", f"-I{HEADER.parent}",
           f"-I{PROGRAM_DIR}", str(program), str(library), f"-Wl,-rpath,{library.parent}",
           "-o", str(exe)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    env = dict(os.environ, threads=str(threads), trace=trace, routeFollows="0")
    env.pop("artsConfig", None)
    return subprocess.run([str(exe)], capture_output=True, text=True, timeout=TIMEOUT_S,
                          env=env, cwd=tmp_path)


@needs_cc
@pytest.mark.parametrize("threads", [1, 3], ids=lambda t: f"threads={t}")
def test_trace_has_one_row_per_task_run(library, tmp_path, threads):
    trace = tmp_path / "run.csv"
    done = _traced(library, tmp_path, threads, str(trace))
    assert done.returncode == 0, done.stderr
    assert "tasks run: 64" in done.stdout
    lines = trace.read_text().splitlines()
    assert lines[0] == "task,worker,routed,taken,ready,start,end"
    rows = [line.split(",") for line in lines[1:]]
    assert all(len(row) == 7 for row in rows), lines[:5]
    by_name: dict[str, list] = {}
    for row in rows:
        by_name.setdefault(row[0], []).append(row)
    assert sorted((name, len(rs)) for name, rs in by_name.items()) == \
        [("artsMain", 1), ("traced_leaf", 64)]
    (main,) = by_name["artsMain"]
    assert (main[1], main[2], main[3]) == ("0", "-1", "main")
    routed = sorted(int(row[2]) for row in by_name["traced_leaf"])
    assert routed == sorted(i % threads for i in range(64))
    for name, worker, asked, taken, ready, start, end in rows:
        assert 0 <= int(worker) < threads
        assert taken in {"main", "own", "mail", "injected", "stolen", "mail-stolen"}
        assert 0 <= float(ready) <= float(start) <= float(end), (name, ready, start, end)
        # a task from the own mailbox ran where its route asked
        if taken == "mail":
            assert worker == asked
    # every task ran inside artsMain's span: it waits for the epoch holding them
    assert all(float(main[5]) <= float(row[5]) and float(row[6]) <= float(main[6])
               for row in by_name["traced_leaf"])


@needs_cc
def test_trace_that_cannot_be_written_stops_the_run_before_it_starts(library, tmp_path):
    done = _traced(library, tmp_path, 2, str(tmp_path / "no" / "such" / "dir" / "t.csv"))
    assert done.returncode == 1
    assert "tasks run" not in done.stdout  # the program's first task never ran
    assert done.stderr.strip() == (f"carts runtime: error: cannot write the trace "
                                   f"{tmp_path}/no/such/dir/t.csv: No such file or directory")
    too_long = _traced(library, tmp_path, 2, "x" * 5000)
    assert too_long.returncode == 1 and "tasks run" not in too_long.stdout
    assert ("environment variable trace: trace must be a file path shorter than 4096 bytes"
            in too_long.stderr)


@needs_cc
def test_a_run_that_dies_leaves_no_trace_file(compiled, tmp_path):
    program = PROGRAM_DIR / "misuse_slot.c"
    trace = tmp_path / "dead.csv"
    env = dict(os.environ, threads="2", trace=str(trace))
    env.pop("artsConfig", None)
    done = subprocess.run([str(compiled(program))], capture_output=True, text=True,
                          timeout=TIMEOUT_S, env=env, cwd=tmp_path)
    assert done.returncode == expected_of(program).exit_status != 0, done.stderr
    assert list(tmp_path.iterdir()) == []  # neither the trace nor its temporary file
