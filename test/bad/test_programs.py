"""Programs that fault or never end: the program dies as a shell would report it (a line
naming the signal, exit 128 + N), carts itself stays intact, and Ctrl-C stops a program
whose workers are busy."""

import contextlib
import os
import signal
import subprocess
import time

import pytest

from promise import BIN, expect_error, run

SEGFAULT = """\
#include <stdlib.h>
int main(int argc, char **argv) {
  double *a = (double *)malloc(4 * sizeof(double));
  long far = 1L << 40;
  a[far * argc] = 1.0;
  return (int)a[0];
}
"""
ABORT = """\
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  printf("before the abort\\n");
  abort();
}
"""
DIVIDE = "int main(int argc, char **argv) {\n  int z = argc - 1;\n  return 7 / z;\n}\n"
FOREVER = """\
int main(void) {
  volatile double s = 0;
#pragma omp parallel for
  for (long i = 0; i < 1000000000000000L; i++)
    s += 1;
  return 0;
}
"""


@pytest.mark.parametrize("mode", [[], ["--no-arts"], ["--threads", "2"]])
@pytest.mark.parametrize("source, sig", [(SEGFAULT, signal.SIGSEGV), (ABORT, signal.SIGABRT),
                                         (DIVIDE, signal.SIGFPE)])
def test_a_faulting_program_is_reported_like_a_shell_does(workdir, mode, source, sig):
    (workdir / "p.c").write_text(source)
    r = run("carts", "execute", *mode, "p.c", cwd=workdir)
    expect_error(r, f"the program was killed by {sig.name}", location=r"p\.c", code=128 + sig)
    if source is ABORT:
        assert r.stdout == "before the abort\n"  # what it printed before dying is kept


def test_an_exit_status_is_taken_modulo_256(workdir):
    (workdir / "p.c").write_text("int main(void) {\n  return 300;\n}\n")
    r = run("carts", "execute", "p.c", cwd=workdir)
    assert (r.code, r.stderr) == (300 % 256, "")


@contextlib.contextmanager
def _carts_on_a_program_that_never_ends(workdir):
    """``carts execute`` (in a session of its own) of a program that spins: yields carts'
    Popen; everything it started is killed on the way out."""
    (workdir / "p.c").write_text(FOREVER)
    # SIGINT as a terminal's foreground job has it, whoever started the tests: a job a
    # non-interactive shell starts in the background inherits it ignored, and carts, as
    # any program, leaves an ignored SIGINT ignored.
    proc = subprocess.Popen([str(BIN / "carts"), "execute", "--threads", "2", "p.c"],
                            cwd=workdir, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        yield proc
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


@contextlib.contextmanager
def _program_that_never_ends(workdir):
    """The same, once the program runs (in a forked child of carts, not the compiler it ran
    before): yields (carts' Popen, the program's pid)."""
    with _carts_on_a_program_that_never_ends(workdir) as proc:
        deadline = time.monotonic() + 120
        while (program := _program_of(proc.pid)) is None:
            assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read()
            time.sleep(0.2)
        yield proc, program


@pytest.mark.parametrize("to", ["group", "carts"])
def test_ctrl_c_stops_a_program_that_never_ends(workdir, to):
    with _program_that_never_ends(workdir) as (proc, _):
        time.sleep(0.5)
        if to == "group":  # what a terminal's Ctrl-C does
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=20)
    assert proc.returncode == 130, err
    assert err.decode().strip().endswith("p.c: error: interrupted")
    assert "Traceback" not in err.decode()


def _has_loaded(pid: int, library: str) -> bool:
    try:
        with open(f"/proc/{pid}/maps") as f:
            return library in f.read()
    except (FileNotFoundError, ProcessLookupError):
        return False


@pytest.mark.parametrize("delay", [0.0, 0.08, 0.16, 0.24])
def test_ctrl_c_while_compiling_stops_carts(workdir, delay):
    """Ctrl-C to carts alone while it compiles (``delay`` after the front end loaded
    libclang: the front end, the passes, the JIT): it ends with 130 and one line, and the
    program never starts. A KeyboardInterrupt raised inside a finaliser the collector runs
    (libclang's objects have some) is dropped by Python: carts used to go on and run the
    program forever when the interrupt landed there (a narrow window: one try in 18 of a
    sweep of these delays). It exits at once after saying so: an interpreter torn down
    while a thread is still inside MLIR ended in nanobind's abort (about one try in four)."""
    with _carts_on_a_program_that_never_ends(workdir) as proc:
        deadline = time.monotonic() + 60
        while not _has_loaded(proc.pid, "libclang"):
            assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read()
            time.sleep(0.01)
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=20)
    assert proc.returncode == 130, err
    assert err.decode().strip().endswith("error: interrupted"), err
    assert "Traceback" not in err.decode()


def test_a_killed_carts_takes_its_running_program_with_it(workdir):
    """SIGKILL cannot be handled: the program's process must end by itself when carts
    does, or it would spin on after the run (and after a test's timeout)."""
    with _program_that_never_ends(workdir) as (proc, program):
        proc.kill()
        proc.wait()
        deadline = time.monotonic() + 10
        while _alive(program) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(program), f"the program (pid {program}) outlived carts"


def _program_of(pid: int) -> int | None:
    """The child of ``pid`` with ``pid``'s own command line (the fork that runs the
    program), or None."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            children = f.read().split()
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            own = f.read()
        for child in children:
            with open(f"/proc/{child}/cmdline", "rb") as f:
                if f.read() == own:
                    return int(child)
    except (FileNotFoundError, ProcessLookupError):
        pass
    return None


def _alive(pid: int) -> bool:
    """Running, not a zombie waiting for its parent to reap it."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


# 2^60 bytes: more than any x86-64 or AArch64 address space, so malloc fails everywhere.
NO_MEMORY = """\
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  long n = 1L << 57;
  double *a = malloc(n * sizeof(double));
  if (a == NULL) {
    fprintf(stderr, "no memory for %ld doubles\\n", n);
    return 3;
  }
#pragma omp parallel for
  for (long i = 0; i < n; i++)
    a[i] = i;
  printf("%f\\n", a[5]);
  free(a);
  return 0;
}
"""


@pytest.mark.parametrize("mode", [[], ["--threads", "2"]])
def test_a_failing_malloc_reaches_the_programs_own_check(workdir, mode):
    (workdir / "p.c").write_text(NO_MEMORY)
    ours = run("carts", "execute", *mode, "p.c", cwd=workdir)
    subprocess.run(["cc", "-fopenmp", "-O1", "p.c", "-o", "p-omp"], cwd=workdir, check=True)
    theirs = run(str(workdir / "p-omp"), cwd=workdir)
    assert (ours.code, ours.stdout, ours.stderr) == (3, "", "no memory for 144115188075855872 doubles\n")
    assert (theirs.code, theirs.stdout, theirs.stderr) == (ours.code, ours.stdout, ours.stderr)


def test_a_datablock_that_was_never_allocated_is_named_when_used(workdir):
    (workdir / "p.c").write_text(NO_MEMORY.replace("if (a == NULL)", "if (0)"))
    r = run("carts", "execute", "p.c", cwd=workdir)
    assert "Traceback" not in r.stderr and r.code not in (0, 3) and r.code > 0, r
    assert "the datablock was never allocated (out of memory" in r.stderr, r.stderr
