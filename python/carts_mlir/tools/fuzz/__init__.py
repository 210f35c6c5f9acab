"""Random-program differential testing of the ARTS path against ``gcc -fopenmp``.

``generator`` writes, from a seed, a race-free C + OpenMP program whose output does not
depend on the thread count or the schedule; ``runner`` builds the gcc reference and runs the
program through ``carts execute`` on threads and on nodes, classifying every outcome;
``reducer`` shrinks a failing program while a predicate (same failure, still a well-defined
program) holds. ``python -m carts_mlir.tools.fuzz --help`` is the command line.
"""

from .generator import ALL_FEATURES, generate

__all__ = ["ALL_FEATURES", "generate"]
