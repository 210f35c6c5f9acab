"""carts-mlir: C + OpenMP programs as ARTS-style asynchronous task programs, on upstream MLIR.

The public entry points are small:

- :func:`carts_mlir.ir.context` makes an MLIR context with the ARTS dialect and every upstream
  dialect registered (the plugin is loaded once per process, lazily);
- :mod:`carts_mlir.ir` parses, runs pass pipelines and prints;
- :mod:`carts_mlir.pipeline` is the stage table;
- ``python -m carts_mlir.opt`` and the ``carts`` command are the drivers.
"""

__version__ = "0.1.0"
