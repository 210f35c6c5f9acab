"""LLVM IR text -> a native executable: the same optimisation as the JIT, llvmlite's object
emission, and the system C compiler as the linker.

    from carts_mlir.jit.native import build_executable
    build_executable(llvm_ir, "batchnorm_arts")             # ARTS program, host CPU
    build_executable(llvm_ir, "out/gemm_arts", cpu="x86-64-v3", runtime_dir="out",
                     rpath="$ORIGIN")                       # portable, runtime copied beside it

An ARTS program links against the native runtime (``libcartsrt.so``) with an rpath, so the
executable runs from anywhere: the runtime's own directory by default, or ``rpath`` (e.g.
``$ORIGIN`` when the library is copied next to the executable). The OpenMP routines a program
calls resolve as in the JIT: the definitions of :data:`openmp_routines.SEQUENTIAL_RUNTIME_IR` that the
program does not define itself are compiled into the executable, and a sequential program
calling one of the others links the runtime too.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from pathlib import Path

import llvmlite.binding as llvm

from .. import runtime
from ..errors import CartsError
from ..files import check_destination
from .engine import initialize, needs_native_runtime, optimized_modules


def target_machine(cpu: str | None, opt_level: int = 3) -> llvm.TargetMachine:
    """A position-independent target machine: the host CPU, or ``cpu`` (an LLVM CPU name such
    as ``x86-64-v3``) with that CPU's default features."""
    initialize()
    target = llvm.Target.from_default_triple()
    if cpu is None:
        cpu, features = llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten()
    else:
        features = ""
    # the small code model, as a C compiler uses for executables (llvmlite's default is the
    # large one: constants through movabs, library calls through the GOT)
    return target.create_target_machine(cpu=cpu, features=features, opt=opt_level, reloc="pic",
                                        codemodel="small")


def object_code(text: str, *, opt_level: int = 3, cpu: str | None = None) -> bytes:
    """One object file holding the optimised program and the OpenMP routines it needs."""
    tm = target_machine(cpu, opt_level)
    module, needed = optimized_modules(text, tm, opt_level)
    module.link_in(needed)
    return tm.emit_object(module)


def check_output_path(target: Path) -> None:
    """A located error now, rather than a linker's complaint after the whole compile."""
    check_destination(target)


def c_compiler() -> list[str]:
    return shlex.split(os.environ.get("CC") or "cc")


def build_executable(text: str, out: str | os.PathLike, *, arts: bool = True, opt_level: int = 3,
                     cpu: str | None = None, runtime_dir: str | os.PathLike | None = None,
                     rpath: str | None = None) -> Path:
    """Write the executable of the LLVM IR ``text`` to ``out`` (replaced atomically: a failed
    build leaves nothing behind). ``arts`` links the native runtime, found in ``runtime_dir``
    (default: the one :mod:`carts_mlir.runtime` loads) and looked up at run time in ``rpath``
    (default: that same directory). Returns ``out``."""
    target = Path(out)
    check_output_path(target)
    with tempfile.TemporaryDirectory(prefix="carts-native-") as tmp:
        obj = Path(tmp) / "program.o"
        obj.write_bytes(object_code(text, opt_level=opt_level, cpu=cpu))
        command = [*c_compiler(), str(obj)]
        if arts or needs_native_runtime(text):
            libdir = Path(runtime_dir) if runtime_dir else runtime.library_path().resolve().parent
            # -L/-l rather than the library's path: without a SONAME the path would be recorded
            # as the needed entry, and the rpath ignored
            command += [f"-L{libdir}", "-lcartsrt", f"-Wl,-rpath,{rpath or libdir}"]
            # its symbols in the dynamic table, so the runtime's trace=FILE names its tasks
            command += ["-rdynamic"]
        staged = target.absolute().parent / f".{target.name}.tmp{os.getpid()}"
        command += ["-lm", "-lpthread", "-o", str(staged)]
        try:
            done = subprocess.run(command, capture_output=True, text=True)
        except OSError as err:
            raise CartsError(f"cannot run the C compiler '{command[0]}': {err.strerror}") from None
        if done.returncode != 0:
            staged.unlink(missing_ok=True)
            detail = done.stderr.strip().splitlines()
            raise CartsError(f"linking {target} failed: {detail[-1] if detail else done.returncode}")
        try:
            os.replace(staged, target)
        except OSError as err:
            staged.unlink(missing_ok=True)
            raise CartsError(f"cannot write output: {err.strerror}", str(target)) from None
    return target
