"""The ``carts`` command: one subcommand per user task, in the shape the seed documents use.

    carts cgeist file.c [-D..] [-I..] [-fopenmp] [-O0] [--print-debug-info] -S [-o out.mlir]
    carts run file.mlir --<stage> [--debug-only=...] [-o out.mlir]
    carts execute file.c [-O3] [-D..] [-I..] [--no-arts]
    carts pipeline
    carts build
    carts benchmarks list | run [NAME...] [--size S] [--threads N] [--runs K] [--json OUT] ...
    carts analyze bandwidth [NAME...] [--size S] [--threads N] [--json OUT] [--plot F.png]
    carts analyze scaling FILE.c [-D..] [-I..] [--threads 1,2,4] [--json OUT] [--plot F.png]
    carts analyze trace FILE.csv [--json OUT] [--plot F.png]
    carts golden batchnorm|layernorm|all [--threads N] [--json OUT]
"""

from __future__ import annotations

import sys
from typing import Callable

from .errors import guarded


def _cgeist(argv: list[str]) -> int:
    from .frontend import cgeist_main

    return cgeist_main(argv)


def _run(argv: list[str]) -> int:
    from . import opt

    return opt.main(argv, prog="carts run")


def _execute(argv: list[str]) -> int:
    from .execute import execute_main

    return execute_main(argv)


def _pipeline(argv: list[str]) -> int:
    from .errors import CartsError
    from .pipeline import describe_stages

    if argv and argv[0] in ("-h", "--help"):
        print("usage: carts pipeline\n\nlists the pipeline stages and their passes")
        return 0
    if argv:
        raise CartsError(f"carts pipeline takes no arguments (got '{argv[0]}')")
    print(describe_stages())
    return 0


def _benchmarks(argv: list[str]) -> int:
    from .tools.bench import benchmarks_main

    return benchmarks_main(argv)


def _analyze(argv: list[str]) -> int:
    from .errors import CartsError

    analyses = {"bandwidth": "achieved bandwidth of the memory-bound examples against an "
                             "elementwise baseline",
                "scaling": "kernel time of one C file over thread counts, ours and OpenMP's",
                "trace": "where a run's tasks ran and waited (the runtime's trace=FILE)"}
    if not argv or argv[0] in ("-h", "--help"):
        stream = sys.stdout if argv else sys.stderr
        print("usage: carts analyze <analysis> [args...]\n\nanalyses:", file=stream)
        for name, what in analyses.items():
            print(f"  {name:<10} {what}", file=stream)
        if argv:
            return 0
        print("error: an analysis is required", file=stream)
        return 2
    if argv[0] not in analyses:
        raise CartsError(f"unknown analysis '{argv[0]}' (analyses: {', '.join(analyses)})")
    if argv[0] == "scaling":
        from .tools.explore import scaling_main

        return scaling_main(argv[1:])
    if argv[0] == "trace":
        from .tools.trace import trace_main

        return trace_main(argv[1:])
    from .tools.bandwidth import bandwidth_main

    return bandwidth_main(argv[1:])


def _golden(argv: list[str]) -> int:
    from .tools.golden import golden_main

    return golden_main(argv)


def _build(argv: list[str]) -> int:
    from .build import rebuild_main

    return rebuild_main(argv)


COMMANDS: dict[str, tuple[Callable[[list[str]], int], str]] = {
    "cgeist": (_cgeist, "C (+ OpenMP) to MLIR with the libclang front end"),
    "run": (_run, "run the ARTS pipeline on an .mlir file, stopping after a stage"),
    "execute": (_execute, "compile and run a C program"),
    "pipeline": (_pipeline, "list the pipeline stages and their passes"),
    "build": (_build, "rebuild the C++ plugin of an editable install"),
    "benchmarks": (_benchmarks, "list the examples, or build and run them against OpenMP"),
    "analyze": (_analyze, "analyses of the examples (bandwidth against an elementwise baseline)"),
    "golden": (_golden, "check batchnorm/layernorm against NumPy golden references"),
}


def usage() -> str:
    lines = ["usage: carts <command> [args...]", "", "commands:"]
    lines += [f"  {name:<10} {help_}" for name, (_, help_) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        print(f"{usage()}\nerror: a command is required", file=sys.stderr)
        return 2
    if argv[0] in ("-h", "--help"):
        print(usage())
        return 0
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"error: unknown command '{name}'\n{usage()}", file=sys.stderr)
        return 2
    from .errors import check_arguments

    def command() -> int:
        check_arguments(rest)
        return COMMANDS[name][0](rest)

    return guarded(command)


if __name__ == "__main__":
    sys.exit(main())
