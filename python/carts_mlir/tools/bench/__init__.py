"""``carts benchmarks``: our build of each example against the OpenMP build of the same source.

:mod:`.discovery` finds the examples and their sizes, :mod:`.running` builds and runs one both
ways and judges the result, :mod:`.report` makes the table, notes, JSON report and plot rows,
and :mod:`.cli` is the command (its docstring describes what a run does).
"""

from .cli import benchmarks_main
from .discovery import SIZES, Example, default_examples_root, discover_examples, parse_sizes, select
from .report import make_console, write_json_atomically
from ..suite_runner import geometric_mean
from .running import (BenchResult, ProgramOutput, RunConfig, Step, checksum_verdict, evaluate,
                      parse_output, relative_error, run_command)

__all__ = [
    "BenchResult", "Example", "ProgramOutput", "RunConfig", "SIZES", "Step",
    "benchmarks_main", "checksum_verdict", "default_examples_root", "discover_examples",
    "evaluate", "geometric_mean", "make_console", "parse_output", "parse_sizes",
    "relative_error", "run_command", "select", "write_json_atomically",
]
