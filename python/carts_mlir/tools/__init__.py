"""Tools built on the compiler: benchmarks against OpenMP (``bench``, ``suite``, and
``suite_runner``, which runs a built suite anywhere), the bandwidth report, golden
references, exploring from notebooks (``explore``, ``plots``, ``trace``, ``runs``) and the
random-program tester (``fuzz``). The compiler's core (``ir``, ``opt``, ``pipeline``,
``frontend``, ``jit``, ``nodes``, ``execute``, ``taskgraph``) imports nothing from here."""
