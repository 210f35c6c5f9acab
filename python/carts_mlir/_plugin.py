"""Locate and load the C++ plugin (the ARTS dialect and passes), once per process.

The plugin links against the bindings' ``libMLIRPythonCAPI.so``; loading it after
``import mlir`` makes the dynamic linker reuse that already-loaded copy, so the plugin and
the bindings share one MLIR (one set of TypeIDs and registries).
"""

from __future__ import annotations

import ctypes
import functools
from pathlib import Path

from . import env
from .errors import CartsError

PLUGIN_NAME = "libCartsPlugin.so"


def installed_library(name: str) -> Path | None:
    """``carts_mlir/_lib/<name>`` of the installed package, or None if it is not there."""
    package_dirs = [Path(__file__).resolve().parent]
    # An editable install keeps the Python sources in the checkout and the built libraries in
    # site-packages; the redirecting finder records the latter's package directory.
    try:
        import importlib.metadata as md

        for file in md.files("carts-mlir") or ():
            if file.name == name:
                package_dirs.insert(0, Path(file.locate()).resolve().parent.parent)
    except md.PackageNotFoundError:
        pass
    for pkg in package_dirs:
        candidate = pkg / "_lib" / name
        if candidate.exists():
            return candidate
    return None


def plugin_path() -> Path:
    """Where the plugin is: ``$CARTS_PLUGIN``, else ``carts_mlir/_lib/`` of the installed package."""
    override = env.get("CARTS_PLUGIN")
    if override:
        return Path(override)
    installed = installed_library(PLUGIN_NAME)
    if installed is None:
        raise CartsError(
            f"the carts-mlir plugin ({PLUGIN_NAME}) is not built; run `pip install -e .` "
            "(or `carts build`) in the checkout, or set CARTS_PLUGIN"
        )
    return installed


@functools.cache
def load() -> ctypes.CDLL:
    """Load the plugin (after ``import mlir``) and register its passes. Idempotent."""
    import mlir.ir  # noqa: F401  (must be loaded first: the plugin reuses its libMLIRPythonCAPI.so)

    lib = ctypes.CDLL(str(plugin_path()), mode=ctypes.RTLD_GLOBAL)
    lib.cartsRegisterDialects.argtypes = [ctypes.c_void_p]
    lib.cartsRegisterDialects.restype = None
    lib.cartsRegisterPasses.restype = None
    lib.cartsSetDebugChannels.argtypes = [ctypes.c_char_p]
    lib.cartsSetDebugChannels.restype = None
    lib.cartsRegisterPasses()
    return lib


def capsule_pointer(capsule: object) -> int:
    """The raw pointer inside one of the bindings' ``_CAPIPtr`` capsules."""
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.argtypes = [ctypes.py_object]
    get_name.restype = ctypes.c_char_p
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    get_pointer.restype = ctypes.c_void_p
    return get_pointer(capsule, get_name(capsule))


def set_debug_channels(channels: list[str]) -> None:
    """Turn on the plugin's ``--debug-only`` channels (an empty list turns them all off)."""
    load().cartsSetDebugChannels(",".join(channels).encode())
