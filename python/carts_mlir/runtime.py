"""Locating and loading the native ARTS runtime library (``libcartsrt.so``, built from
``runtime/``). JIT-compiled programs resolve the ARTS API against it, so it is loaded
process-wide (``RTLD_GLOBAL``), once.

Several nodes: :mod:`carts_mlir.nodes` runs one node per Ray actor, each with its own
copy of this library and of the JIT-compiled program."""

from __future__ import annotations

import ctypes
import functools
from pathlib import Path

from . import _plugin, env
from .errors import CartsError

RUNTIME_NAME = "libcartsrt.so"


def library_path() -> Path:
    """Where the runtime is: ``$CARTS_RUNTIME``, else ``carts_mlir/_lib/`` of the installed package."""
    override = env.get("CARTS_RUNTIME")
    if override:
        path = Path(override)
        if not path.is_file():
            raise CartsError(f"CARTS_RUNTIME={override}: no such file")
        return path
    installed = _plugin.installed_library(RUNTIME_NAME)
    if installed is None:
        raise CartsError(
            f"the carts-mlir runtime ({RUNTIME_NAME}) is not built; run `carts build` in the "
            "checkout, or set CARTS_RUNTIME"
        )
    return installed


@functools.cache
def load() -> ctypes.CDLL:
    """Load the runtime into the process, its symbols visible to the JIT.

    ``RTLD_GLOBAL`` lets the dynamic linker resolve them; LLVM's own symbol search (which
    ``llvmlite.binding.address_of_symbol`` and the JIT's link step consult) additionally needs
    the library registered with ``load_library_permanently``."""
    import llvmlite.binding as llvm

    path = str(library_path())
    lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    llvm.load_library_permanently(path)
    lib.artsRT.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
    lib.artsRT.restype = ctypes.c_int
    lib.artsSetEntryPoints.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    lib.artsSetEntryPoints.restype = None
    # carts_node.h: what a node actor calls (carts_mlir.nodes)
    lib.cartsNodeInit.argtypes = [ctypes.c_uint32, ctypes.c_uint32]
    lib.cartsNodeInit.restype = ctypes.c_int
    lib.cartsNodeSetFunctions.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_uint32]
    lib.cartsNodeSetFunctions.restype = None
    lib.cartsNodeAttach.argtypes = [ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)]
    lib.cartsNodeAttach.restype = ctypes.c_int
    lib.cartsNodeDetach.argtypes = []
    lib.cartsNodeDetach.restype = None
    lib.cartsNodeStop.argtypes = []
    lib.cartsNodeStop.restype = None
    lib.cartsNodeStats.argtypes = [ctypes.POINTER(ctypes.c_uint64)]
    lib.cartsNodeStats.restype = None
    # carts_config.h: the worker count the driver resolved
    lib.cartsSetThreads.argtypes = [ctypes.c_uint32]
    lib.cartsSetThreads.restype = ctypes.c_int
    # carts_trace.h: names of JIT-compiled task functions for trace=FILE
    lib.cartsTraceName.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    lib.cartsTraceName.restype = None
    return lib
