"""Several nodes on Ray: a program that kills its node is reported as on one node (its
output so far, then the signal, naming the node; exit 128 + N) with nothing of Ray's own
reports on stdout, and a Ray address that cannot work is one line before anything starts."""

import signal

import pytest

from promise import expect_error, run

pytest.importorskip("ray")

#: Minutes of this suite's time: `pytest -m "not slow"` leaves it out (CI runs everything).
pytestmark = pytest.mark.slow

SEGFAULT_AFTER_OUTPUT = """\
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  printf("before\\n");
  fprintf(stderr, "warned\\n");
  fflush(stdout);
  double *a = (double *)malloc(4 * sizeof(double));
  long far = 1L << 40;
  a[far * argc] = 1.0;
  return (int)a[0];
}
"""
# the last iteration runs on the second node
SEGFAULT_IN_A_TASK = """\
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  int n = 1000;
  double *a = (double *)malloc(n * sizeof(double));
  long far = 1L << 40;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    if (i == n - 1)
      a[far * argc] = 1.0;
    a[i] = i;
  }
  printf("%f\\n", a[3]);
  return 0;
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


@pytest.mark.parametrize("source, sig, node, stdout, stderr", [
    (SEGFAULT_AFTER_OUTPUT, signal.SIGSEGV, 0, "before\n", "warned\n"),
    (SEGFAULT_IN_A_TASK, signal.SIGSEGV, 1, "", ""),
    (ABORT, signal.SIGABRT, 0, "before the abort\n", ""),
], ids=["segfault-on-node-0", "segfault-in-a-task-on-node-1", "abort"])
def test_a_program_that_kills_its_node(workdir, source, sig, node, stdout, stderr):
    (workdir / "p.c").write_text(source)
    # nodeMinOps=0: the loop is spread over both nodes although it is small
    r = run("carts", "execute", "p.c", "--nodes", "2", cwd=workdir, env={"nodeMinOps": "0"})
    expect_error(r, f"the program was killed by {sig.name} \\(.+\\) on node {node}$",
                 location=r"p\.c", code=128 + sig)
    assert r.stdout == stdout  # no "(raylet) A worker died ..." amid the program's output
    assert r.stderr.split("p.c: error:")[0] == stderr


@pytest.mark.parametrize("address, message", [
    ("127.0.0.1:1", "cannot reach a Ray cluster at 127.0.0.1:1"),
    ("nonsense", "cannot start 2 node actors on Ray: Invalid address format: nonsense"),
])
def test_a_ray_address_that_cannot_work(workdir, address, message):
    (workdir / "ok.c").write_text("int main(void) {\n  return 0;\n}\n")
    r = run("carts", "execute", "ok.c", "--nodes", "2", "--ray-address", address, cwd=workdir)
    expect_error(r, message)


def test_a_ray_address_without_nodes(workdir):
    (workdir / "ok.c").write_text("int main(void) {\n  return 0;\n}\n")
    r = run("carts", "execute", "ok.c", "--ray-address", "127.0.0.1:1", cwd=workdir)
    expect_error(r, r"--ray-address needs --nodes N with N > 1")
