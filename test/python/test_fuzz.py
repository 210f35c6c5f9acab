"""The random-program differential tester (``carts_mlir.tools.fuzz``): generation is a function of
the seed, generated programs are well defined under gcc, a fixed set of them prints under
``carts execute`` on 2 threads and on 2 nodes what gcc prints, the reducer shrinks a program
while a predicate holds, and every regression program the tester found (``test/fuzz/``)
prints what gcc prints. Every Ray cluster and child process a test starts is stopped, on
failure too."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from carts_mlir.tools.fuzz.generator import ALL_FEATURES, generate, parse_features
from carts_mlir.tools.fuzz.reducer import reduce_text, simpler
from carts_mlir.tools.fuzz.runner import Carts, Gcc, Proc, Reference, classify, diff

from common import ROOT, needs_gcc

REGRESSIONS = sorted((ROOT / "test" / "fuzz").glob("*.c"))

#: Seeds whose programs run on 2 threads (all features).
SEEDS_THREADS = list(range(7000, 7030))
#: Seeds whose programs run on 2 nodes x 1 thread.
SEEDS_NODES = [7000, 7005, 7010, 7015, 7020, 7025]

#: Regression programs whose bug is still open: name -> {configuration: what goes wrong}
#: (an ``xfail(strict=True)`` each, so that a fix shows as an unexpected pass).
OPEN: dict[str, dict[str, str]] = {}


@pytest.fixture(scope="module")
def gcc(tmp_path_factory):
    return Gcc(tmp_path_factory.mktemp("gcc-cache"))


@pytest.fixture(scope="module")
def carts():
    """One ``carts execute`` driver for the module; its node cluster (Ray) is closed at
    the end, also when a test failed."""
    driver = Carts(timeout=120)
    try:
        yield driver
    finally:
        driver.close()


def check_matches(text: str, name: str, config: str, workdir: Path, gcc: Gcc,
                  carts: Carts) -> None:
    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / name
    path.write_text(text)
    ref = gcc.reference(text)
    kind, count = config[0], int(config[1:])
    got = carts.threads(path, count, ref) if kind == "t" else carts.nodes(path, count, ref)
    assert got.status == "match", (
        f"{config}: {got.status} ({got.signature}); exit {got.code}, gcc {ref.code}\n"
        f"{diff(ref.stdout, got.stdout)}\nstderr:\n{got.stderr[-3000:]}")


# ---------------------------------------------------------------------- the generator


def test_generation_is_a_function_of_the_seed():
    seeds = [0, 1, 7, 123, 2024]
    texts = [generate(s) for s in seeds]
    assert texts == [generate(s) for s in seeds]
    assert len(set(texts)) == len(seeds)
    # the same in another interpreter with another string hash seed
    code = ("import sys; from carts_mlir.tools.fuzz import generate; "
            "sys.stdout.write(generate(int(sys.argv[1])))")
    for seed, text in zip(seeds[:2], texts):
        env = dict(os.environ, PYTHONHASHSEED=str(seed + 11))
        done = subprocess.run([sys.executable, "-c", code, str(seed)], capture_output=True,
                              text=True, env=env, check=True)
        assert done.stdout == text


def test_features_can_be_turned_off():
    off = ("tasks,rectasks,taskloop,ordered,atomic,critical,abs,global1d,global2d,gscalar,"
           "globalred")
    features = parse_features("all", off)
    assert not features & set(off.split(","))
    for seed in range(40):
        text = generate(seed, features)
        assert "#pragma omp task" not in text and "#pragma omp ordered" not in text
        assert "#pragma omp atomic" not in text and "#pragma omp critical" not in text
        assert not re.search(r"\babs\(", text)
        assert not re.search(r"^static \w+ \w+( =|\[)", text, re.M), "no global variables"
    with pytest.raises(ValueError, match="unknown feature"):
        parse_features("all", "no-such-thing")
    # everything on: the program uses the constructs of the subset
    texts = "".join(generate(seed) for seed in range(60))
    for construct in ("parallel for", "collapse(2)", "reduction(", "private(", "firstprivate(",
                      "lastprivate(", "omp single", "omp master", "omp barrier", "omp critical",
                      "omp atomic", "omp task ", "depend(", "omp taskloop", "parallel sections",
                      "schedule(dynamic", "omp ordered", "nowait"):
        assert construct in texts, construct
    assert set(ALL_FEATURES) == set(parse_features("all"))


@needs_gcc
@pytest.mark.parametrize("seed", [3, 17, 2000, 4242])
def test_generated_programs_are_well_defined(seed, gcc):
    """Same output on 1, 2 and 3 gcc threads, with malloc filling memory with a pattern, and
    from an AddressSanitizer + UndefinedBehaviorSanitizer build whose locals start as a
    pattern; no warning of undefined behaviour."""
    ref = gcc.reference(generate(seed), strict=True)
    assert ref.code == 0
    assert ref.stdout.splitlines()[-1] == f"ok fuzz {seed}"
    assert len(re.findall(r"^end \w+ -?\d", ref.stdout, re.M)) >= 4


def test_classification():
    ref = Reference(0, "a 1\nok\n", [])
    assert classify(Proc(0, "a 1\nok\n", "", 1.0), ref) == ("match", "")
    assert classify(Proc(0, "a 2\nok\n", "", 1.0), ref)[0] == "wrong"
    assert classify(Proc(1, "a 1\nFAIL\n", "", 1.0), ref)[0] == "wrong"
    assert classify(Proc(None, "", "", 120.0), ref)[0] == "hang"
    status, sig = classify(Proc(1, "", "p.c:12:3: error: unsupported thing 'x7'\n", 1.0), ref)
    assert status == "refused" and sig == "refused: unsupported thing '_'"
    assert classify(Proc(1, "", "error: no location\n", 1.0), ref)[0] == "crash"
    assert classify(Proc(1, "", "Traceback (most recent call last):\n  x\nKeyError: 3\n",
                         1.0), ref) == ("crash", "crash: traceback: KeyError: N")
    assert classify(Proc(139, "a 1\n", "p.c: error: the program was killed by SIGSEGV "
                                       "(Segmentation fault)\n", 1.0), ref)[0] == "crash"
    assert classify(Proc(-6, "", "", 1.0), ref)[0] == "crash"
    assert classify(Proc(0, "a 1\nok\n", "python: Foo.cpp:3: Assertion `x' failed.\n", 1.0),
                    ref) == ("crash", "crash: Assertion `x' failed")


# ---------------------------------------------------------------------- against gcc


@pytest.mark.slow
@needs_gcc
@pytest.mark.parametrize("seed", SEEDS_THREADS)
def test_generated_program_on_two_threads_matches_gcc(seed, gcc, carts, tmp_path):
    check_matches(generate(seed), "prog.c", "t2", tmp_path, gcc, carts)


@pytest.mark.slow
@needs_gcc
@pytest.mark.parametrize("seed", SEEDS_NODES)
def test_generated_program_on_two_nodes_matches_gcc(seed, gcc, carts, tmp_path):
    pytest.importorskip("ray")
    check_matches(generate(seed), "prog.c", "n2", tmp_path, gcc, carts)


def _regression_cases():
    cases = []
    for path in REGRESSIONS:
        for config in ("t2", "n2"):
            reason = OPEN.get(path.name, {}).get(config)
            marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
            cases.append(pytest.param(path, config, marks=marks, id=f"{path.stem}-{config}"))
    return cases


def test_regression_programs_say_what_they_check():
    assert REGRESSIONS, "test/fuzz/ holds the programs the tester found"
    for path in REGRESSIONS:
        first = path.read_text().splitlines()[0]
        assert first.startswith("// ") and len(first) > 20, path.name


@needs_gcc
@pytest.mark.parametrize("path,config", _regression_cases())
def test_regression_program_matches_gcc(path, config, gcc, carts, tmp_path):
    if config.startswith("n"):
        pytest.importorskip("ray")
    check_matches(path.read_text(), path.name, config, tmp_path, gcc, carts)


# ---------------------------------------------------------------------- the reducer

SYNTHETIC = """\
#include <stdio.h>
#define N 40
#define M 9
static int g[N];
static int unused(int x)
{
  return x * 2;
}
int main(void)
{
  int a[N];
  for (int i = 0; i < N; i++) {
    a[i] = i;
  }
#pragma omp parallel for schedule(static, 2)
  for (int i = 0; i < N; i++) {
    if (a[i] > 3) {
      g[i] = a[i] * 2;
    } else {
      g[i] = 0;
    }
  }
  {
    int keep = (a[1] + (g[2] * 3)) - 4;
    printf("%d\\n", keep);
  }
  printf("done %d\\n", M);
  return 0;
}
"""


def test_reducer_shrinks_a_synthetic_failure():
    """The predicate stands for a failure: it holds while the file keeps the line declaring
    ``keep`` (any right-hand side), the size N is at least 5, and the braces balance."""
    calls = []

    def predicate(text: str) -> bool:
        calls.append(text)
        n = re.search(r"^#define N (\d+)$", text, re.M)
        return (n is not None and int(n.group(1)) >= 5 and "int keep =" in text
                and text.count("{") == text.count("}"))

    small, tests = reduce_text(SYNTHETIC, predicate)
    assert predicate(small)
    assert tests == len(set(calls)) and tests > 10
    assert [line.strip() for line in small.splitlines()] == ["#define N 5", "int keep = 0;"], small


def test_simpler_expressions_are_smaller():
    rhs = "(int)(fmod(fmax((a4[1 % N] / 7), (a1[4 % N] + b1[3 % R][3 % C])), 1009.0))"
    got = simpler(rhs)
    assert got[:2] == ["0", "1"]
    assert "a4[1 % N]" in got and "(a1[4 % N] + b1[3 % R][3 % C])" in got
    assert all(len(c) < len(rhs) for c in got) and "int" not in got


@needs_gcc
def test_reducer_keeps_a_program_that_gcc_compiles(tmp_path):
    """A real generated program and a predicate run by gcc: it must still build and keep
    its atomic histogram update. What is left is a small, compiling program."""
    seed = next(s for s in range(100) if "#pragma omp atomic" in generate(s))
    text = generate(seed)

    def predicate(candidate: str) -> bool:
        src = tmp_path / "c.c"
        src.write_text(candidate)
        done = subprocess.run(["gcc", "-fopenmp", "-fsyntax-only", "-Werror=implicit",
                               "-Werror=implicit-function-declaration", str(src)],
                              capture_output=True, text=True)
        return done.returncode == 0 and re.search(r"^#pragma omp atomic", candidate, re.M) \
            is not None

    small, _ = reduce_text(text, predicate)
    assert predicate(small)
    assert len(small.splitlines()) <= 10 < len(text.splitlines())
    assert "omp task" not in small and "printf" not in small
    assert re.search(r"^int main\(", small, re.M)
