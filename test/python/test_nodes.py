"""Several nodes on Ray: the same ARTS program on 2 and 3 node actors, each pinned to its own
node of a one-machine Ray cluster (``ray.cluster_utils.Cluster``), prints what the
``gcc -fopenmp`` build prints, moves work and datablocks between nodes, and ends cleanly when
a node dies. One Ray cluster serves the whole module; every actor and Ray process it starts
is stopped again, on failure too."""

from __future__ import annotations

import logging
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

#: Minutes of this suite's time: `pytest -m "not slow"` leaves it out (CI runs everything).
pytestmark = pytest.mark.slow

from carts_mlir.execute import ExecuteOptions, arts_llvm_ir  # noqa: E402
from carts_mlir.nodes import NodeCluster, NodeFailure, edt_function_names  # noqa: E402

from common import (CHECKSUM_RTOL, CORPUS, EXAMPLE_FILES, INCLUDE, ROOT, checksum,  # noqa: E402
                    gcc_openmp_output, needs_gcc, write)

#: nodes -> workers per node in the checks below (1 to 2 workers each).
LAYOUTS = {2: 1, 3: 2}
OMP_FILES = sorted(CORPUS.glob("omp_*.c"))


@pytest.fixture(autouse=True)
def spread_every_loop(monkeypatch):
    """These programs are small: by default their loops would stay on node 0 (the
    concurrency pass's min-node-ops). Spreading is what is tested here, so every loop is
    spread (compiles in this process and in children alike)."""
    monkeypatch.setenv("nodeMinOps", "0")


@pytest.fixture(scope="module")
def ray_cluster():
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    try:
        for _ in range(max(LAYOUTS) - 1):
            cluster.add_node(num_cpus=1)
        ray.init(address=cluster.address, log_to_driver=False, logging_level=logging.ERROR)
        cluster.wait_for_nodes()
        yield cluster
    finally:
        ray.shutdown()
        cluster.shutdown()


class _Shared:
    """A NodeCluster shared by the tests of one node count; one whose actor died is replaced
    by a fresh one for the next test, so a failure does not cascade."""

    def __init__(self, made: dict, nodes: int, address: str):
        self.made, self.nodes, self.address = made, nodes, address

    def _cluster(self) -> NodeCluster:
        if self.nodes not in self.made:
            self.made[self.nodes] = NodeCluster(self.nodes, address=self.address,
                                                distinct_nodes=True)
        return self.made[self.nodes]

    def _call(self, method: str, *args, **kwargs):
        try:
            return getattr(self._cluster(), method)(*args, **kwargs)
        except NodeFailure:
            self.made.pop(self.nodes).close()
            raise

    def run(self, *args, **kwargs):
        return self._call("run", *args, **kwargs)

    def run_library(self, *args, **kwargs):
        return self._call("run_library", *args, **kwargs)


@pytest.fixture(scope="module")
def node_clusters(ray_cluster):
    """NodeCluster per node count, made on first use, each actor on its own Ray node."""
    made: dict[int, NodeCluster] = {}

    def get(nodes: int) -> _Shared:
        return _Shared(made, nodes, ray_cluster.address)

    try:
        yield get
    finally:
        for cluster in made.values():
            cluster.close()


def compile_for(source: Path, nodes: int, threads: int, *defines: str,
                includes: tuple[Path, ...] = ()) -> str:
    return arts_llvm_ir(ExecuteOptions(source=str(source), defines=list(defines),
                                       includes=[str(i) for i in includes], threads=threads,
                                       nodes=nodes))


# ---------------------------------------------------------------------- examples


def _example_cases():
    """Every example at mini and small size on 2 nodes; on 3 at small size, where its loops
    have enough chunks for every node (at mini size some have fewer than there are workers)."""
    return [pytest.param(path, size, nodes, id=f"{path.stem}-{size.split('_')[0].lower()}-{nodes}n")
            for nodes in LAYOUTS for path in EXAMPLE_FILES
            for size in ("MINI_DATASET", "SMALL_DATASET")
            if nodes == 2 or size == "SMALL_DATASET"]


@needs_gcc
@pytest.mark.parametrize("path,size,nodes", _example_cases())
def test_example_on_nodes_matches_gcc_openmp(path, size, nodes, node_clusters, tmp_path):
    threads = LAYOUTS[nodes]
    expected = gcc_openmp_output(path, tmp_path, nodes * threads, f"-I{INCLUDE}", f"-D{size}")
    llvm_ir = compile_for(path, nodes, threads, size, includes=(INCLUDE,))
    run = node_clusters(nodes).run(llvm_ir, [str(path)], threads=threads, timeout=120)
    assert run.code == 0, run.nodes[0].stderr
    want, got = checksum(expected), checksum(run.nodes[0].stdout)
    assert abs(got - want) <= CHECKSUM_RTOL * max(abs(want), 1e-10), (got, want)
    # Work crossed nodes (at mini size a loop may have fewer chunks than there are
    # workers, so not every node need get one), and what one node sent another received.
    busy = [n.node for n in run.nodes if n.stats["tasks_run"] > 0]
    assert len(busy) >= 2, [n.stats for n in run.nodes]
    totals = run.totals()
    assert totals["messages_sent"] == totals["messages_received"] > 0
    assert totals["bytes_sent"] == totals["bytes_received"]
    assert all(not n.stdout for n in run.nodes[1:]), "only node 0 runs the program's main"


# ---------------------------------------------------------------------- corpus


def _shares_loops(path: Path) -> bool:
    """Whether the program has a worksharing loop or a taskloop: iterations dealt out over
    the nodes, so blocks and halos whose edges move with the node count."""
    return re.search(r"#pragma omp (parallel )?(for|taskloop)\b", path.read_text()) is not None


def _corpus_cases():
    """Every program on 2 nodes; on 3 (an uneven split, a node with neighbours on both
    sides) the programs that share loops: the others' tasks, sections and critical sections
    meet nodes the same way at 2."""
    return [pytest.param(path, nodes, id=f"{path.name}-{nodes}n")
            for path in OMP_FILES for nodes in LAYOUTS if nodes == 2 or _shares_loops(path)]


@needs_gcc
@pytest.mark.parametrize("path,nodes", _corpus_cases())
def test_openmp_corpus_program_on_nodes(path, nodes, node_clusters, tmp_path):
    threads = LAYOUTS[nodes]
    expected = gcc_openmp_output(path, tmp_path, nodes * threads, f"-I{CORPUS}")
    llvm_ir = compile_for(path, nodes, threads, includes=(CORPUS,))
    run = node_clusters(nodes).run(llvm_ir, [str(path)], threads=threads, timeout=120)
    assert run.code == 0, run.nodes[0].stdout + run.nodes[0].stderr
    assert run.nodes[0].stdout == expected


# ---------------------------------------------------------------------- the protocol


@pytest.mark.skipif(shutil.which("cc") is None, reason="no system C compiler (cc)")
@pytest.mark.parametrize("threads", [1, 2])
def test_node_protocol_in_c(threads, node_clusters, tmp_path):
    """test/runtime/nodes/protocol.c drives the ARTS API by hand across 3 nodes: generations
    across nodes, write-back, puts, gets, remote signals, tasks created by remote tasks."""
    library = tmp_path / "protocol.so"
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", f"-I{ROOT / 'runtime' / 'include'}",
                    str(ROOT / "test" / "runtime" / "nodes" / "protocol.c"), "-o", str(library)],
                   check=True)
    for _ in range(3):
        run = node_clusters(3).run_library(library, ["protocol"], threads=threads, timeout=60)
        assert run.code == 0, run.nodes[0].stdout + "".join(n.stderr for n in run.nodes)
        assert run.nodes[0].stdout == "ok protocol\n"
        assert all(n.stats["tasks_run"] > 0 for n in run.nodes)


# ---------------------------------------------------------------------- the command


def test_carts_execute_on_two_nodes_reports_per_node_counters(ray_cluster, tmp_path):
    path = next(p for p in EXAMPLE_FILES if p.stem == "batchnorm")
    done = subprocess.run(
        [sys.executable, "-m", "carts_mlir", "execute", str(path), "-O3", "-DSMALL_DATASET",
         "-I", str(INCLUDE), "--nodes", "2", "--threads", "1", "--stats",
         "--ray-address", ray_cluster.address],
        capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    expected = gcc_openmp_output(path, tmp_path, 2, f"-I{INCLUDE}", "-DSMALL_DATASET")
    assert checksum(done.stdout) == pytest.approx(checksum(expected), rel=CHECKSUM_RTOL)
    lines = done.stderr[done.stderr.index("per-node counters"):].splitlines()
    head = re.split(r"\s{2,}", lines[1].strip())
    rows = {int(r.split()[0]): dict(zip(head, re.split(r"\s{2,}", r.strip()))) for r in lines[2:4]}
    assert set(rows) == {0, 1}
    for node, row in rows.items():
        assert int(row["tasks run"]) > 0, (node, rows)
        assert int(row["db bytes out"]) + int(row["db bytes in"]) > 0, (node, rows)
        assert int(row["batches out"]) > 0 and float(row["batches/epoch"]) > 0, (node, rows)
    assert int(rows[0]["batches out"]) == int(rows[1]["batches in"])
    # the host fills the arrays on node 0: its flush to node 1 is host synchronisation, a
    # part of the datablock bytes
    assert 0 < int(rows[0]["host sync out"]) <= int(rows[0]["db bytes out"]), rows
    assert int(rows[0]["host sync out"]) == int(rows[1]["host sync in"]), rows


def small_example_on_two_nodes(name: str, node_clusters, tmp_path):
    """The example ``name`` at small size on 2 nodes x 1 worker, checked against gcc's
    checksum on 2 threads; the run, for its counters."""
    path = next(p for p in EXAMPLE_FILES if p.stem == name)
    expected = gcc_openmp_output(path, tmp_path, 2, f"-I{INCLUDE}", "-DSMALL_DATASET")
    llvm_ir = compile_for(path, 2, 1, "SMALL_DATASET", includes=(INCLUDE,))
    run = node_clusters(2).run(llvm_ir, [str(path)], threads=1, timeout=120)
    assert run.code == 0, run.nodes[0].stderr
    assert checksum(run.nodes[0].stdout) == pytest.approx(checksum(expected), rel=CHECKSUM_RTOL)
    return run


def test_a_stencil_on_two_nodes_moves_its_edges_and_reports_once_an_epoch(node_clusters,
                                                                          tmp_path):
    """jacobi2d (small: 256 x 256 doubles, 50 steps of two sweeps) on 2 nodes: the tables are
    cut in edges, so besides the host's flush and fetch the tasks move one row of 2 KiB each
    way a sweep; node 1 runs three chunks a sweep, gets all of them in one launch message
    (the time loop in its fused epoch is one launch), and reports their ends to node 0
    together when it has none of the epoch left, not once a task."""
    run = small_example_on_two_nodes("jacobi2d", node_clusters, tmp_path)
    stats = [n.stats for n in run.nodes]
    sweeps, row = 100, 256 * 8
    for node in (0, 1):
        halos = stats[node]["db_bytes_sent"] - stats[node]["sync_bytes_sent"]
        assert halos == sweeps * row, stats
    assert stats[1]["tasks_run"] == 3 * sweeps, stats
    # Node 1 creates nothing: its control messages are its end reports, sent when it has no
    # task of the epoch left (once an epoch but when node 0's creations fall behind), not one
    # a task as before (300).
    assert 0 < stats[1]["control_sent"] <= stats[1]["tasks_run"] // 10, stats
    # Node 0 launches every sweep's chunks of node 1 with one message (their creations and
    # dependence records together; one a sweep before); the few others are the host's fetch
    # requests.
    assert 1 <= stats[1]["control_received"] <= 1 + 4, stats
    # one launch, made by node 0: the time loop of the fused epoch
    assert stats[0]["launches"] == 1 and stats[1]["launches"] == 0, stats


def test_a_table_every_node_reads_whole_is_sent_before_the_kernel(node_clusters, tmp_path):
    """gemm (small: 128 x 128 doubles) on 2 nodes: A and C are cut by rows, B is read whole by
    both nodes' tasks. The host shares B (and the scalars alpha and beta) with node 1 right
    after writing them, with its flushes of A and C, so node 1's task finds every input there
    and its grants carry no bytes."""
    node1 = small_example_on_two_nodes("gemm", node_clusters, tmp_path).nodes[1].stats
    assert node1["tasks_run"] == 1, node1
    n = 128 * 8
    # half of A and half of C, all of B, alpha and beta; nothing else reaches node 1
    assert node1["sync_bytes_received"] == 64 * n + 64 * n + 128 * n + 2 * 8, node1
    assert node1["db_bytes_received"] == node1["sync_bytes_received"], node1


REDUCTION_PROGRAM = """\
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int n = 1 << 16;
  long *a = malloc(n * sizeof(long));
  for (int i = 0; i < n; i++)
    a[i] = i % 1000;
  long sum = 0, most = 0;
#pragma omp parallel for reduction(+: sum) reduction(max: most)
  for (int i = 0; i < n; i++) {
    sum += a[i] * a[i];
    if (a[i] > most)
      most = a[i];
  }
  printf("sum: %ld most: %ld\\n", sum, most);
  free(a);
  return 0;
}
"""


def test_a_reduction_sends_one_partial_per_node(node_clusters, tmp_path, monkeypatch):
    """A reduction over 2 nodes x 2 workers (4 chunks): each node combines the partials of its
    own chunks, so node 1 sends node 0 one write-back of its two partials (16 bytes of ranges
    header and 8 of value each, 2 x 24) however many chunks it ran; its chunks' partials stay
    on node 1."""
    monkeypatch.setenv("nodeMinOps", "0")
    src = write(tmp_path, "reduce.c", REDUCTION_PROGRAM)
    n = 1 << 16
    want = "sum: %d most: %d\n" % (sum((i % 1000) ** 2 for i in range(n)), 999)
    run = node_clusters(2).run(compile_for(src, 2, 2), [str(src)], threads=2, timeout=60)
    assert run.code == 0, run.nodes[0].stderr
    assert run.nodes[0].stdout == want
    node1 = run.nodes[1].stats
    assert node1["tasks_run"] == 3, node1  # two chunks and the node's combining task
    assert node1["db_bytes_sent"] == 2 * 24, node1


GLOBAL_PROGRAM = """\
#include <stdio.h>
static int mark[4];
int main(void) {
  for (int r = 0; r < 10; r++) {
#pragma omp parallel for
    for (int i = 0; i < 4; i++)
      mark[i] += r + i;
  }
  printf("mark: %d %d %d %d\\n", mark[0], mark[1], mark[2], mark[3]);
  return 0;
}
"""


def test_a_task_using_a_global_runs_where_the_global_is(node_clusters, tmp_path):
    """A mutable global is node 0's memory: the loop stays there and the result is right."""
    src = write(tmp_path, "global.c", GLOBAL_PROGRAM)
    run = node_clusters(2).run(compile_for(src, 2, 1), [str(src)], threads=1, timeout=60)
    assert run.code == 0, run.nodes[0].stderr
    assert run.nodes[0].stdout == "mark: 45 55 65 75\n"


SMALL_LOOP_PROGRAM = """\
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int n = 64;
  double *a = malloc(n * sizeof(double));
  double sum = 0;
  for (int r = 0; r < 50; r++) {
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      a[i] = i * 0.5 + r;
#pragma omp parallel for reduction(+: sum)
    for (int i = 0; i < n; i++)
      sum += a[i];
  }
  printf("sum: %.1f\\n", sum);
  free(a);
  return 0;
}
"""


def test_loops_too_small_for_several_nodes_stay_on_node_0(node_clusters, tmp_path, monkeypatch):
    """By default a loop that weighs less than an epoch across nodes costs runs on node 0:
    no task and no message crosses; nodeMinOps=0 spreads it, with the same answer."""
    src = write(tmp_path, "small.c", SMALL_LOOP_PROGRAM)
    want = "sum: %.1f\n" % sum(i * 0.5 + r for r in range(50) for i in range(64))
    monkeypatch.delenv("nodeMinOps")
    kept = node_clusters(2).run(compile_for(src, 2, 1), [str(src)], threads=1, timeout=60)
    monkeypatch.setenv("nodeMinOps", "0")
    spread = node_clusters(2).run(compile_for(src, 2, 1), [str(src)], threads=1, timeout=60)
    for run in (kept, spread):
        assert run.code == 0, run.nodes[0].stderr
        assert run.nodes[0].stdout == want
    assert kept.nodes[1].stats["tasks_run"] == 0 and kept.totals()["batches_sent"] <= 2, \
        [n.stats for n in kept.nodes]
    assert spread.nodes[1].stats["tasks_run"] > 0, [n.stats for n in spread.nodes]
    assert spread.totals()["batches_sent"] > 50, [n.stats for n in spread.nodes]


def test_invalid_node_count_in_the_environment_is_one_line(tmp_path):
    src = write(tmp_path, "one.c", "int main(void) { return 0; }\n")
    done = subprocess.run([sys.executable, "-m", "carts_mlir", "execute", str(src)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env={**__import__("os").environ, "nodeCount": "two"})
    assert done.returncode == 1
    assert done.stderr.strip() == "error: environment variable nodeCount must be an integer " \
                                  "in 1..256, got 'two'"


def test_an_unreachable_ray_address_is_one_line(tmp_path):
    src = write(tmp_path, "one.c", "int main(void) { return 0; }\n")
    done = subprocess.run([sys.executable, "-m", "carts_mlir", "execute", str(src), "--nodes", "2",
                           "--ray-address", "127.0.0.1:1"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr.startswith("error: cannot reach a Ray cluster at 127.0.0.1:1")
    assert "Traceback" not in done.stderr


def test_stdout_keeps_what_ray_prints_for_its_raylets_apart():
    """While a NodeCluster's own Ray instance runs, stdout passes the program's lines and
    keeps the lines Ray's driver prints for its raylets (as Ray prints them: the text, then
    its newline; in colour or not, with an address or not)."""
    import io

    from carts_mlir.nodes import _WithoutRayReports

    out = io.StringIO()
    stream = _WithoutRayReports(out)
    print("\x1b[33m(raylet)\x1b[0m A worker died or was killed while executing a task.\n"
          "Worker exit type: SYSTEM_ERROR", file=stream)
    print("checksum: 1.5", file=stream)
    print("(raylet, ip=10.0.0.2) [repeated 2x across cluster]", file=stream)
    print("rows", end=" ", file=stream)
    print("done", file=stream)
    assert out.getvalue() == "checksum: 1.5\nrows done\n"
    assert len(stream.held) == 2
    assert "A worker died" in stream.held[0] and "Worker exit type" in stream.held[0]
    assert stream.held[1].startswith("(raylet, ip=10.0.0.2) [repeated")


def test_task_functions_are_numbered_by_name():
    text = ("define void @__arts_edt_10(i32 %0) {\n}\ndefine void @__arts_edt_2(i32 %0) {\n}\n"
            "define i32 @main() {\n}\n")
    assert edt_function_names(text) == ["__arts_edt_2", "__arts_edt_10"]


# ---------------------------------------------------------------------- faults

LONG_PROGRAM = """\
#include <stdio.h>
#include <stdlib.h>
#define N 4096
int main(void) {
  double *a = (double *)malloc(N * sizeof(double));
  double *b = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++)
    a[i] = b[i] = i;
  for (int step = 0; step < 200000; step++) {
#pragma omp parallel for
    for (int i = 1; i < N - 1; i++) b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0;
#pragma omp parallel for
    for (int i = 1; i < N - 1; i++) a[i] = b[i];
    if (a[1] < 0.0)  /* host code between the steps: each is its own epoch */
      break;
  }
  printf("%f\\n", a[N / 2]);
  return 0;
}
"""


def test_a_node_killed_mid_run_ends_the_run_naming_it(ray_cluster, tmp_path):
    src = write(tmp_path, "long.c", LONG_PROGRAM)
    llvm_ir = compile_for(src, 2, 1)
    with NodeCluster(2, address=ray_cluster.address, distinct_nodes=True) as cluster:
        victim = cluster.actors[1]
        killer = threading.Timer(3.0, lambda: ray.kill(victim))
        killer.start()
        started = time.monotonic()
        try:
            with pytest.raises(NodeFailure) as failure:
                cluster.run(llvm_ir, [str(src)], threads=1, timeout=120)
        finally:
            killer.cancel()
        ended = time.monotonic()
    assert "node 1" in failure.value.message
    assert ended - started < 3.0 + 10.0


class _FlakyStart:
    """Stands in for the ray module in start_ray's loop: ``init`` fails ``failures`` times
    the way Ray's start-up does on a loaded machine, then succeeds."""

    def __init__(self, failures: int):
        self.failures, self.inits, self.shutdowns = failures, 0, 0

    def init(self, **options):
        self.inits += 1
        if self.inits <= self.failures:
            raise Exception("The current node timed out during startup. This could happen "
                            "because some of the raylet failed to startup.\nmore")

    def shutdown(self):
        self.shutdowns += 1


def test_ray_start_up_is_tried_again_and_then_reported_in_one_line():
    from carts_mlir.errors import CartsError
    from carts_mlir.nodes import start_ray

    pauses = []
    flaky = _FlakyStart(failures=2)
    start_ray(flaky, {"address": "local"}, "start a local Ray instance", sleep=pauses.append)
    assert (flaky.inits, flaky.shutdowns, pauses) == (3, 2, [2.0, 5.0])

    never = _FlakyStart(failures=10)
    with pytest.raises(CartsError) as caught:
        start_ray(never, {}, "start a local Ray instance", sleep=lambda s: None)
    message = str(caught.value)
    assert never.inits == 3 and "\n" not in message
    assert message.startswith("cannot start a local Ray instance (tried 3 times")
    assert message.endswith("The current node timed out during startup. This could happen "
                            "because some of the raylet failed to startup.")

    class _BadAddress(_FlakyStart):
        def init(self, **options):
            self.inits += 1
            raise ValueError("Invalid address format: nonsense")

    bad = _BadAddress(failures=0)
    with pytest.raises(ValueError):
        start_ray(bad, {}, "connect", sleep=lambda s: None)
    assert bad.inits == 1  # not worth another try


def test_two_runs_on_nodes_at_once_on_one_machine(tmp_path):
    """Each `carts execute --nodes` starts its own local Ray instance; two at once both
    finish with their own program's answer."""
    procs = []
    for k, value in enumerate((11, 13)):
        src = write(tmp_path, f"p{k}.c", "#include <stdio.h>\nint main(void) {\n  long a[8];\n"
                    "#pragma omp parallel for\n  for (int i = 0; i < 8; i++) a[i] = i * "
                    f"{value};\n  long s = 0;\n  for (int i = 0; i < 8; i++) s += a[i];\n"
                    '  printf("%ld\\n", s);\n  return 0;\n}\n')
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "carts_mlir", "execute", str(src), "--nodes", "2",
             "--threads", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            cwd=tmp_path))
    try:
        outputs = [p.communicate(timeout=300) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    for p, (out, err), value in zip(procs, outputs, (11, 13)):
        assert p.returncode == 0, err
        assert out == f"{28 * value}\n", (out, err)


LONG_PROGRAM = """\
#include <stdio.h>
int main(void) {
  double a[64];
  for (int i = 0; i < 64; i++) a[i] = 0.0;
  for (int r = 0; r < 1000000; r++) {
#pragma omp parallel for
    for (int i = 0; i < 64; i++) a[i] += 1.0;
    if (a[0] < 0.0)  /* host code between the steps: each is its own epoch */
      break;
  }
  printf("%f\\n", a[0]);
  return 0;
}
"""


def test_a_node_that_stops_answering_ends_the_run_naming_it(ray_cluster, tmp_path):
    """SIGSTOP on a node's actor (a hung host, a network cut): the run ends within the
    configured timeout plus a little, naming the node and its pid, and the cluster's close
    leaves nothing of it running."""
    import os
    import signal as signals

    src = write(tmp_path, "long.c", LONG_PROGRAM)
    llvm_ir = compile_for(src, 2, 1)
    cluster = NodeCluster(2, threads=1, address=ray_cluster.address, distinct_nodes=True,
                          node_timeout=3)
    stopped = None
    try:
        outcome: dict = {}

        def body():
            try:
                outcome["run"] = cluster.run(llvm_ir, [str(src)], timeout=120)
            except NodeFailure as failure:
                outcome["failure"] = failure

        runner = threading.Thread(target=body)
        runner.start()
        time.sleep(3.0)  # well into the run: JIT done, epochs crossing nodes
        stopped = cluster.pids[1]
        os.kill(stopped, signals.SIGSTOP)
        since = time.monotonic()
        runner.join(timeout=60)
        waited = time.monotonic() - since
        assert not runner.is_alive(), "the run did not end"
        failure = outcome.get("failure")
        assert failure is not None, outcome
        assert str(failure).startswith(f"node 1 (pid {stopped}) stopped answering"), str(failure)
        assert failure.node == 1
        assert waited < 3 + 8, waited
    finally:
        cluster.close()  # kills the actors, the stopped one too
        if stopped is not None:
            gone = _wait_gone(stopped, 30)
            if not gone:  # do not leave it behind for the next test
                os.kill(stopped, signals.SIGKILL)
                os.kill(stopped, signals.SIGCONT)
    assert stopped is None or gone, f"the stopped node's process {stopped} is still running"


def _wait_gone(pid: int, seconds: float) -> bool:
    import os

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.5)
    return False


@pytest.mark.parametrize("value", ["0", "-3", "soon", "3601"])
def test_a_node_timeout_out_of_bounds_is_refused(value, monkeypatch):
    from carts_mlir.errors import CartsError
    from carts_mlir.nodes import configured_node_timeout

    monkeypatch.setenv("nodeTimeout", value)
    with pytest.raises(CartsError, match=r"nodeTimeout must be an integer in 1\.\.3600"):
        configured_node_timeout({})


def _can_make_private_tmp() -> bool:
    import os

    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs tmpfs /tmp"],
                           capture_output=True)
    return probe.returncode == 0


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@needs_gcc
@pytest.mark.skipif(not _can_make_private_tmp(), reason="needs root and unshare -m")
def test_a_node_with_its_own_tmp_joined_through_a_ray_address(tmp_path):
    """A second Ray node in its own mount namespace with a tmpfs on /tmp sees nothing of the
    driver's /tmp, as a node on another host would: `ray start --head` here, `ray start
    --address` inside the namespace, then `carts execute --ray-address` runs batchnorm on
    both with gcc's checksum."""
    import os
    import signal as signals

    ray_bin = Path(sys.executable).parent / "ray"
    keep_list = tmp_path / "kept-mounts"
    keep_list.write_text("")
    port = _free_port()
    env = {**os.environ, "RAY_AUTH_MODE": "token"}
    common = ["--num-cpus=1", "--disable-usage-stats", "--block"]
    started = []
    try:
        started.append(subprocess.Popen(
            [str(ray_bin), "start", "--head", f"--port={port}", "--include-dashboard=false",
             *common], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
            start_new_session=True))
        # The project and its environment stay visible where they are, as they would be
        # installed on another host, also when they live under /tmp themselves.
        keep = [str(p) for p in {ROOT.resolve(), Path(sys.prefix).resolve()}
                if Path("/tmp") in p.parents]
        binds = "".join(f'k=$(mktemp -d /run/carts-keep.XXXXXX) && mount --bind {p} "$k" && '
                        f'echo "$k" >> {keep_list} && ' for p in keep)
        restore = "".join(f'mkdir -p {p} && mount --bind "$(sed -n {i + 1}p {keep_list})" {p} && '
                          for i, p in enumerate(keep))
        joined = (f"{binds}cp {keep_list} /run/carts-keep-list.$$ && mount -t tmpfs tmpfs /tmp && "
                  f"{restore.replace(str(keep_list), '/run/carts-keep-list.$$')}"
                  f"exec {ray_bin} start --address=127.0.0.1:{port} {' '.join(common)}")
        started.append(subprocess.Popen(["unshare", "-m", "sh", "-c", joined], env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                                        start_new_session=True))
        deadline = time.monotonic() + 120
        while True:  # both nodes registered
            status = subprocess.run([str(ray_bin), "status", "--address", f"127.0.0.1:{port}"],
                                    env=env, capture_output=True, text=True)
            active = status.stdout.split("Active:")[-1].split("Pending:")[0]
            if status.returncode == 0 and active.count("node_") >= 2:
                break
            assert time.monotonic() < deadline, status.stdout + status.stderr
            time.sleep(2)
        path = next(p for p in EXAMPLE_FILES if p.stem == "batchnorm")
        done = subprocess.run(
            [sys.executable, "-m", "carts_mlir", "execute", str(path), "-O3", "-DMINI_DATASET",
             "-I", str(INCLUDE), "--nodes", "2", "--threads", "1", "--stats",
             "--ray-address", f"127.0.0.1:{port}"],
            capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)
        assert done.returncode == 0, done.stderr
        expected = gcc_openmp_output(path, tmp_path, 2, f"-I{INCLUDE}", "-DMINI_DATASET")
        assert checksum(done.stdout) == pytest.approx(checksum(expected), rel=CHECKSUM_RTOL)
        table = done.stderr[done.stderr.index("per-node counters"):].splitlines()[2:4]
        assert all(int(row.split()[1]) > 0 for row in table), table  # both nodes ran tasks
    finally:
        for proc in started:  # `ray start --block` stops what it started on SIGTERM; its
            # graceful stop can take half a minute, so what is left after 5 s is killed
            try:
                os.killpg(proc.pid, signals.SIGTERM)
            except ProcessLookupError:
                pass
        for proc in started:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signals.SIGKILL)
                proc.wait()
        if keep_list.exists():  # the empty mount points made in /run
            for line in keep_list.read_text().split():
                shutil.rmtree(line, ignore_errors=True)
        for leftover in Path("/run").glob("carts-keep-list.*"):
            leftover.unlink(missing_ok=True)
