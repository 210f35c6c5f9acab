"""carts_mlir.taskgraph: the task/datablock graph read back from a stage's IR."""

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from carts_mlir import taskgraph
from carts_mlir.tools import explore

# Two loops in a time loop: the first reads a and writes b, the second updates a from b
# read back to front (so they stay two loops: arts-loop-fusion fuses loops that touch only
# their own element of what the other writes). At 2 threads and this size each loop is one
# task (too little work to chunk), the time loop ends up inside one fused epoch, and every
# size is a compile-time constant.
AXPY = """
#include <stdlib.h>
int main(void) {
  int n = 4096;
  double *a = (double *)malloc(n * sizeof(double));
  double *b = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = i;
  for (int t = 0; t < 3; t++) {
#pragma omp parallel for
    for (int i = 0; i < n; i++) b[i] = 2.0 * a[i];
#pragma omp parallel for
    for (int i = 0; i < n; i++) a[i] = a[i] + b[n - 1 - i];
  }
  int r = (int)a[7];
  free(a); free(b);
  return r % 256;
}
"""

N_BYTES = 4096 * 8


@pytest.fixture(scope="module")
def axpy():
    return explore.compile_source(AXPY, name="axpy.c", threads=2)


def test_datablocks_tasks_and_accesses(axpy):
    g = axpy.graph("epochs")
    assert [d.line for d in g.datablocks] == [5, 6]  # the two mallocs
    assert all(d.bytes == N_BYTES and d.element == "f64" for d in g.datablocks)
    a, b = (d.id for d in g.datablocks)
    first, second = g.tasks
    assert (first.line, second.line) == (9, 11)  # the two pragmas
    modes = {(t.line, x.datablock): (x.mode, x.reads, x.writes) for t in g.tasks for x in t.accesses}
    assert modes[(9, a)] == ("in", True, False)
    assert modes[(9, b)][1:] == (False, True)  # b is only stored to
    assert modes[(11, a)][1:] == (True, True)
    assert modes[(11, b)] == ("in", True, False)


def test_time_loop_inside_one_epoch_counts_repeats_and_bytes(axpy):
    g = axpy.graph("epochs")
    assert len(g.epochs) == 1
    first, second = g.tasks
    assert first.epoch == second.epoch == g.epochs[0].id
    assert (first.chunks, first.repeats) == (1, 3)
    # first: read a, write b; second: read and write a, read b; three time steps each
    assert g.task_bytes(first) == 3 * 2 * N_BYTES
    assert g.task_bytes(second) == 3 * 3 * N_BYTES
    assert g.bytes_between("main", -1, 10**6) == 3 * 5 * N_BYTES


def test_chunk_loop_counts_chunks_not_repeats():
    big = AXPY.replace("int n = 4096;", "int n = 1 << 20;")
    g = explore.compile_source(big, name="axpy.c", threads=2).graph("epochs")
    first = g.tasks[0]
    assert first.chunks == 2 and first.repeats == 3  # one task per worker's chunk
    # the chunks between them cover each array once per time step
    assert g.task_bytes(first) == 3 * 2 * (1 << 20) * 8


def test_dot_names_every_node_and_edge(axpy):
    g = axpy.graph("epochs")
    dot = g.to_dot()
    assert dot.startswith("digraph arts {") and dot.rstrip().endswith("}")
    assert "subgraph cluster_e0" in dot
    for d in g.datablocks:
        assert f"  {d.id} [shape=box" in dot
    a = g.datablocks[0].id
    assert f"{a} -> {g.tasks[0].id}" in dot  # an `in` edge points at the task
    assert dot.count(" -> ") == sum(len(t.accesses) for t in g.tasks)


def test_svg_is_well_formed_with_a_box_per_node(axpy):
    g = axpy.graph("epochs")
    svg = ET.fromstring(g.to_svg(layout="builtin"))
    ns = "{http://www.w3.org/2000/svg}"
    texts = [t.text for t in svg.iter(f"{ns}text")]
    assert any(t.startswith("epoch e0") for t in texts)
    for item in [*g.datablocks, *g.tasks]:
        assert any(t.startswith(f"{item.id} ") for t in texts)
    paths = [p for p in svg.iter(f"{ns}path") if p.get("stroke")]
    assert len(paths) == sum(len(t.accesses) for t in g.tasks)


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_graphviz_lays_out_the_same_graph(axpy):
    g = axpy.graph("epochs")
    svg = ET.fromstring(g.to_svg(layout="dot"))
    ns = "{http://www.w3.org/2000/svg}"
    groups = {c: [e for e in svg.iter(f"{ns}g") if e.get("class") == c]
              for c in ("node", "edge", "cluster")}
    titles = {e.find(f"{ns}title").text for e in groups["node"]}
    assert titles == {item.id for item in [*g.datablocks, *g.tasks]}
    assert len(groups["edge"]) == sum(len(t.accesses) for t in g.tasks)
    assert len(groups["cluster"]) == len(g.epochs)
    assert g.to_svg() == g.to_svg(layout="dot")  # what a notebook shows when dot is there


def test_an_unknown_layout_is_refused(axpy):
    with pytest.raises(ValueError, match="layout must be"):
        axpy.graph("epochs").to_svg(layout="circo")


def test_records_table(axpy):
    rows = axpy.graph("epochs").records()
    assert {r["mode"] for r in rows} >= {"in"}
    assert all(r["bytes"] == N_BYTES for r in rows)


def test_carts_run_writes_the_graph(tmp_path):
    src = tmp_path / "axpy.c"
    src.write_text(AXPY)
    mlir = tmp_path / "axpy.mlir"
    run = [sys.executable, "-m", "carts_mlir"]
    subprocess.run([*run, "cgeist", str(src), "-fopenmp", "--print-debug-info", "-S", "-o",
                    str(mlir)], check=True)
    for name in ("g.dot", "g.svg"):
        out = subprocess.run([*run, "run", str(mlir), "--epochs", "--graph",
                              str(tmp_path / name), "-o", str(tmp_path / "out.mlir")],
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
    assert "subgraph cluster_e0" in (tmp_path / "g.dot").read_text()
    ET.fromstring((tmp_path / "g.svg").read_text())
    bad = subprocess.run([*run, "run", str(mlir), "--epochs", "--graph", str(tmp_path / "g.png")],
                         capture_output=True, text=True)
    assert bad.returncode != 0 and "must end in .dot" in bad.stderr
    assert "Traceback" not in bad.stderr and not (tmp_path / "g.png").exists()
