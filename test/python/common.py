"""What the behaviour tests share: where things are, how to run ``carts``, how to build and
run the gcc reference of a C file, how to read a program's checksum line, and how to run an
ARTS program given as MLIR on the native runtime.

Run as a script, this file is the process such a program runs in (see :func:`run_arts_mlir`).
"""

from __future__ import annotations

import argparse
import atexit
import ctypes
import hashlib
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

import llvmlite.binding as llvm
import pytest

from carts_mlir import ir, runtime
from carts_mlir.errors import CartsError
from carts_mlir.jit.launch import emit_llvm, run_arts_program
from carts_mlir.pipeline import run_stage, stages_between

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "test" / "c"
CORPUS_FILES = sorted(CORPUS.glob("*.c"))
EXAMPLES = ROOT / "examples"
EXAMPLE_FILES = sorted(EXAMPLES.rglob("*.c"))
INCLUDE = EXAMPLES / "include"

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")


def ids(paths: list[Path]) -> list[str]:
    """Test ids of files: their paths below the repository."""
    return [str(p.relative_to(ROOT)) for p in paths]


def carts(*args, cwd: Path | None = None, stdin: str | None = None,
          timeout: float = 600) -> subprocess.CompletedProcess:
    """``carts ARGS`` (as ``python -m carts_mlir``), output captured as text."""
    return subprocess.run([sys.executable, "-m", "carts_mlir", *map(str, args)], cwd=cwd,
                          input=stdin, capture_output=True, text=True, timeout=timeout)


_SERVER: list[subprocess.Popen] = []


def carts_forked(*args, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    """``carts ARGS`` as :func:`carts` runs it (a process of its own, its exit code, its
    output captured as text), forked from a server process that imported the compiler once
    (this file run with ``--serve``): a command starts in milliseconds instead of the
    ~0.35 s its imports take. Its stdin is empty, its environment the server's (the test
    process's when the server started). For the matrices that run hundreds of programs;
    the CLI itself is tested through :func:`carts`."""
    if not _SERVER or _SERVER[0].poll() is not None:
        _SERVER[:] = [subprocess.Popen([sys.executable, __file__, "--serve"],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       text=True)]
        atexit.register(_SERVER[0].stdin.close)
    server = _SERVER[0]
    with tempfile.TemporaryDirectory(prefix="carts-test-forked-") as tmp:
        out, err = Path(tmp) / "stdout", Path(tmp) / "stderr"
        command = [str(a) for a in args]
        server.stdin.write(json.dumps({"argv": command, "cwd": str(cwd), "stdout": str(out),
                                       "stderr": str(err)}) + "\n")
        server.stdin.flush()
        pid = json.loads(server.stdout.readline())["pid"]
        ready, _, _ = select.select([server.stdout], [], [], timeout)
        if not ready:
            os.kill(pid, signal.SIGKILL)
            server.stdout.readline()
            raise subprocess.TimeoutExpired(["carts", *command], timeout)
        code = json.loads(server.stdout.readline())["returncode"]
        return subprocess.CompletedProcess(["carts", *command], code,
                                           out.read_text(errors="replace"),
                                           err.read_text(errors="replace"))


def _serve() -> int:
    """The server of :func:`carts_forked`: a request a line on stdin (JSON: argv, cwd,
    stdout, stderr), answered by the forked child's pid, then its return code as
    :mod:`subprocess` gives it (-N for signal N). Ends at the end of its input."""
    import contextlib
    import importlib
    import io

    from carts_mlir.cli import main

    for module in ("execute", "frontend", "jit.engine", "jit.native", "jit.launch"):
        importlib.import_module(f"carts_mlir.{module}")  # what a command imports, once
    # and one compile, so that what a first compile sets up (libclang's index, LLVM's
    # targets, the plugin) is there in every child: 0.26 s a corpus program instead of 0.34.
    # The server is left with its one thread (a compile's threads end with it).
    with tempfile.TemporaryDirectory(prefix="carts-test-warm-") as tmp:
        source = Path(tmp) / "warm.c"
        source.write_text("int main(void) {\n  int a[4];\n#pragma omp parallel for\n"
                          "  for (int i = 0; i < 4; i++) a[i] = i;\n  return a[3] - 3;\n}\n")
        with contextlib.redirect_stderr(io.StringIO()):  # its "compiled in" line
            main(["execute", "--no-executable", "--compile-only", "--threads", "2",
                  str(source)])

    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                os.chdir(request["cwd"])
                for fd, path in ((0, os.devnull), (1, request["stdout"]),
                                 (2, request["stderr"])):
                    opened = os.open(path, os.O_RDONLY if fd == 0 else
                                     os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                    os.dup2(opened, fd)
                    os.close(opened)
                code = main(request["argv"])
            except SystemExit as done:
                code = done.code if isinstance(done.code, int) else 1
            except BaseException:  # noqa: BLE001 - reported as Python would, then exit 1
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code & 0xFF)
        print(json.dumps({"pid": pid}), flush=True)
        _, status = os.waitpid(pid, 0)
        print(json.dumps({"returncode": os.waitstatus_to_exitcode(status)}), flush=True)
    return 0


#: gcc builds of this test process, by (source, its bytes, flags, OpenMP or not): a file run
#: at several thread counts, or by several tests, is compiled once, into one directory
#: removed when the process ends.
_GCC_BUILDS: dict[tuple, Path] = {}
_GCC_DIR: list[Path] = []


def _gcc_build(source: Path, flags: tuple[str, ...], openmp: bool) -> Path:
    source = Path(source).resolve()
    key = (str(source), hashlib.sha256(source.read_bytes()).hexdigest(), flags, openmp)
    exe = _GCC_BUILDS.get(key)
    if exe is None or not exe.exists():
        if not _GCC_DIR:
            _GCC_DIR.append(Path(tempfile.mkdtemp(prefix="carts-test-gcc-")))
            atexit.register(shutil.rmtree, _GCC_DIR[0], True)
        exe = _GCC_DIR[0] / f"{len(_GCC_BUILDS)}-{source.stem}{'-omp' if openmp else ''}"
        subprocess.run(["gcc", *(["-O3", "-fopenmp"] if openmp else ["-O2"]), *flags,
                        str(source), "-lm", "-o", str(exe)], check=True, capture_output=True)
        _GCC_BUILDS[key] = exe
    return exe


def gcc_run(source: Path, tmp_path: Path, *flags: str, openmp_threads: int | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess:
    """Build ``source`` with gcc (``-O3 -fopenmp`` and that many OpenMP threads when
    ``openmp_threads`` is given, else ``-O2``) and run it; the build must succeed. A build is
    made once per test process for the same file, bytes and flags (``tmp_path`` is kept for
    the callers)."""
    openmp = openmp_threads is not None
    exe = _gcc_build(source, tuple(flags), openmp)
    env = os.environ | ({"OMP_NUM_THREADS": str(openmp_threads)} if openmp else {})
    return subprocess.run([str(exe)], capture_output=True, text=True, timeout=timeout, env=env)


def checksum_line(stdout: str) -> str:
    """The last ``checksum: <v>`` line a program printed (there must be one)."""
    lines = [ln for ln in stdout.splitlines() if ln.startswith("checksum:")]
    assert lines, f"no checksum line in:\n{stdout}"
    return lines[-1]


def checksum(stdout: str) -> float:
    return float(checksum_line(stdout).split(":", 1)[1])


#: How close our checksum must be to gcc's (the benchmark runner accepts 1e-2).
CHECKSUM_RTOL = 1e-6


def gcc_openmp_output(source: Path, tmp_path: Path, threads: int, *flags: str) -> str:
    """What the ``gcc -O3 -fopenmp`` build of ``source`` prints on ``threads`` threads (it
    must exit 0)."""
    done = gcc_run(source, tmp_path, *flags, openmp_threads=threads)
    assert done.returncode == 0, done.stderr
    return done.stdout


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# ---------------------------------------------------------------------- ARTS programs


def run_arts_mlir(tmp_path: Path, mlir: str, *argv: str, start: str = "arts-to-llvm",
                  threads: int | None = None, emit: Path | None = None,
                  trace: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run the ARTS program ``mlir`` (MLIR text, the output of the stage before ``start``) as
    ``carts execute`` does: the pipeline's stages from ``start`` on, then the JIT and the
    native runtime (:func:`carts_mlir.jit.launch.run_arts_program`), ``main`` getting
    ``argv`` and ``threads`` workers. It runs in a process of its own, so that its exit code
    and output are the process's; after the program, that process prints
    ``[python] after the program``. ``emit``: write the program's LLVM IR there too.
    ``trace``: write there, one JSON object a line, every task and datablock call the
    program makes to the runtime (:func:`_trace_runtime_calls`). Skips the test when the runtime
    library is not built."""
    try:
        runtime.library_path()
    except CartsError as err:
        pytest.skip(f"the ARTS runtime library is not available ({err})")
    source = tmp_path / "program.mlir"
    source.write_text(mlir)
    options = [f"--start={start}"]
    options += [f"--threads={threads}"] if threads else []
    options += [f"--emit={emit}"] if emit else []
    options += [f"--trace={trace}"] if trace else []
    return subprocess.run([sys.executable, __file__, *options, str(source), *argv],
                          capture_output=True, text=True, timeout=timeout)


def _trace_runtime_calls(calls: list[dict]) -> list:
    """Put a recorder in front of the runtime's task and datablock calls: the JIT resolves
    the program's calls to it (symbols added to LLVM come before every library's), and it
    appends each call to ``calls`` (arguments by name, ``paramv`` as its ``paramc`` words,
    an ``artsEdtCreateWithDbs``'s runs as ``dbs``, one ``{db, slot, mode}`` per GUID, the
    result) after forwarding it to the runtime. Returns the recorders, which must live while
    the program runs."""
    u32, u64, ptr = ctypes.c_uint32, ctypes.c_uint64, ctypes.c_void_p
    words = ctypes.POINTER(u64)

    class DbRun(ctypes.Structure):  # artsDbRun
        _fields_ = [("guids", words), ("rows", u64), ("cols", u64), ("stride", u64),
                    ("first_slot", u32), ("mode", u32)]

    def run_entries(runc: int, runv) -> list[dict]:
        entries = []
        for k in range(runc):
            run = runv[k]
            slot = run.first_slot
            for i in range(run.rows):
                for j in range(run.cols):
                    entries.append({"db": run.guids[i * run.stride + j], "slot": slot,
                                    "mode": run.mode})
                    slot += 1
        return entries

    traced = {  # name: (its result's name and type), then its arguments' (see arts.h)
        "artsEdtCreate": (("guid", u64), ("fn", ptr), ("route", u32), ("paramc", u32),
                          ("paramv", words), ("depc", u32)),
        "artsEdtCreateWithEpoch": (("guid", u64), ("fn", ptr), ("route", u32),
                                   ("paramc", u32), ("paramv", words), ("depc", u32),
                                   ("epoch", u64)),
        "artsEdtCreateWithDbs": (("guid", u64), ("fn", ptr), ("route", u32), ("paramc", u32),
                                 ("paramv", words), ("depc", u32), ("epoch", u64),
                                 ("runc", u32), ("runv", ctypes.POINTER(DbRun))),
        "artsRecordDep": ((None, None), ("db", u64), ("edt", u64), ("slot", u32),
                          ("mode", u32)),
        "artsDbCreateWithGuid": (("ptr", ptr), ("guid", u64), ("bytes", u64)),
        "artsDbDestroy": ((None, None), ("guid", u64)),
    }
    library = runtime.load()
    recorders = []
    for name, ((result, result_type), *arguments) in traced.items():
        real = getattr(library, name)
        real.restype = result_type
        real.argtypes = [t for _, t in arguments]

        def record(*args, name=name, result=result, arguments=arguments, real=real):
            value = real(*args)
            call = {"call": name, **{a: v for (a, _), v in zip(arguments, args)}}
            if "paramv" in call:
                call["paramv"] = [call["paramv"][i] for i in range(call["paramc"])]
            if "runv" in call:
                call["dbs"] = run_entries(call.pop("runc"), call.pop("runv"))
            if result:
                call[result] = value
            calls.append(call)  # workers append one at a time: a callback holds the GIL
            return value

        recorder = ctypes.CFUNCTYPE(result_type, *real.argtypes)(record)
        llvm.add_symbol(name, ctypes.cast(recorder, ctypes.c_void_p).value)
        recorders.append(recorder)
    return recorders


def _run_arts_mlir_here(arguments: list[str]) -> int:
    """The process of :func:`run_arts_mlir`."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--start", required=True)
    parser.add_argument("--threads", type=int)
    parser.add_argument("--emit")
    parser.add_argument("--trace")
    parser.add_argument("source")
    parser.add_argument("argv", nargs=argparse.REMAINDER)
    options = parser.parse_args(arguments)
    calls: list[dict] = []
    recorders = _trace_runtime_calls(calls) if options.trace else []
    with ir.context():
        module = ir.parse_file(options.source)
        for stage in stages_between(options.start, None):
            run_stage(module, stage)
        if options.emit:
            emit_llvm(module, options.emit)
        code = run_arts_program(module, options.argv, threads=options.threads)
    del recorders  # not before the program has run
    if options.trace:
        Path(options.trace).write_text("".join(json.dumps(c) + "\n" for c in calls))
    print("[python] after the program", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(_serve() if sys.argv[1:] == ["--serve"] else _run_arts_mlir_here(sys.argv[1:]))
