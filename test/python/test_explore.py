"""carts_mlir.tools.explore: every stage's module of a compilation, as data and as HTML."""

import pytest

from carts_mlir import pipeline
from carts_mlir.tools import explore

PROGRAM = """
int main(void) {
  double a[64];
  double s = 0.0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 64; i++) {
    a[i] = i * 0.5;
    s += a[i];
  }
  return (int)s;
}
"""


def test_every_stage_in_pipeline_order_with_its_ir():
    c = explore.compile_source(PROGRAM, name="sum.c", threads=2)
    assert c.names == [explore.FRONT_END] + [s.name for s in pipeline.STAGES]
    assert "omp.parallel" in c[explore.FRONT_END].text
    assert "omp." not in c["openmp-to-arts"].text and "arts.edt" in c["openmp-to-arts"].text
    assert "arts.db_alloc" in c["create-dbs"].text
    assert "llvm.func @main" in c["arts-to-llvm"].text
    # the IR keeps the C source locations
    assert 'loc("' in c["create-dbs"].text and "sum.c" in c["create-dbs"].text
    assert all(s.seconds >= 0 for s in c.stages) and c["create-dbs"].seconds > 0


def test_diff_between_two_stages_and_its_html():
    c = explore.compile_source(PROGRAM, name="sum.c", threads=2)
    d = c.diff("openmp-to-arts", "create-dbs")
    assert d.changed
    added = [l for l in d.lines if l.startswith("+") and not l.startswith("+++")]
    assert any("arts.db_alloc" in l for l in added)
    assert not c.diff("create-dbs", "create-dbs").changed
    page = d._repr_html_()
    assert "openmp-to-arts" in page and "&rarr;" in page and "arts.db_alloc" in page


def test_notebook_view_collapses_unchanged_stages():
    c = explore.compile_source(PROGRAM, name="sum.c", threads=2)
    page = c._repr_html_()
    assert page.count("<details>") + page.count(": unchanged</div>") == len(c.stages)
    stage = c["create-dbs"]._repr_html_()
    assert "create-dbs" in stage and "&lt;" not in stage.split("<pre>")[0]
    assert "<pre>" in stage and "arts.db_alloc" in stage


def test_decisions_of_a_channel_as_a_table():
    import pandas

    c = explore.compile_source(PROGRAM, name="sum.c", threads=2)
    table = c.decisions("for-lowering")
    assert isinstance(table, pandas.DataFrame) and len(table) > 0
    assert set(table["channel"]) == {"for-lowering"}
    assert set(table["file"]) == {"sum.c"} and (table["line"] == 5).any()  # the pragma
    # key=value facts become columns: the loop's worker count
    assert "workers" in table.columns and "2" in set(table["workers"].dropna())
    every = c.decisions()
    assert {"create-dbs", "db-partitioning", "epochs"} <= set(every["channel"])
    assert set(c.decisions(stage="create-dbs")["stage"]) == {"create-dbs"}
    with pytest.raises(KeyError, match="channels:"):
        c.decisions("no-such-channel")
    # CARTS's spelling of a channel names the same one
    assert c.decisions("for_lowering").equals(table)


def test_decisions_without_pandas_are_records(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    c = explore.compile_source(PROGRAM, name="sum.c", threads=2)
    monkeypatch.setattr(builtins, "__import__", no_pandas)
    rows = c.decisions("for-lowering")
    assert isinstance(rows, list) and rows and rows[0]["channel"] == "for-lowering"


def test_parse_decisions_reads_location_facts_and_reason():
    rows = explore.parse_decisions(
        "[db-partitioning] a.c:3:7: alloc memref<8xf32> -> partition=block (every access is chunked)\n"
        "noise\n[epochs] 2 epochs\n")
    assert rows[0] == {"stage": "", "channel": "db-partitioning", "file": "a.c", "line": 3,
                       "col": 7, "decision": "alloc memref<8xf32> -> partition=block "
                       "(every access is chunked)", "reason": "every access is chunked",
                       "partition": "block"}
    assert rows[1]["channel"] == "epochs" and rows[1]["line"] is None


def test_run_gives_output_and_checksum_back(tmp_path):
    src = tmp_path / "sum.c"
    src.write_text(PROGRAM.replace("return (int)s;", 'printf("checksum: %f\\n", s); return 0;')
                   .replace("int main", "#include <stdio.h>\nint main"))
    ours = explore.run(str(src), threads=2)
    omp = explore.run(str(src), threads=2, openmp=True)
    assert ours.ok and omp.ok
    assert ours.checksum == omp.checksum == sum(i * 0.5 for i in range(64))


TIMED = """
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int n = 200000;
  double *a = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = i;
  double t0 = omp_get_wtime();
#pragma omp parallel for
  for (int i = 0; i < n; i++) a[i] = a[i] * 0.5 + 1.0;
  printf("kernel.scale: %.6fs\\n", omp_get_wtime() - t0);
  printf("checksum: %.12e\\n", a[n - 1]);
  free(a);
  return 0;
}
"""


def test_scaling_over_threads_ours_and_openmp(tmp_path):
    import json

    from carts_mlir import cli
    from matplotlib.image import imread

    src = tmp_path / "scale.c"
    src.write_text(TIMED)
    s = explore.scaling(str(src), threads=[1, 2], repeat=1)
    assert s.threads == [1, 2] and all(t > 0 for t in s.arts + s.openmp)
    assert s.checksums["arts"] == s.checksums["openmp"] == [199999 * 0.5 + 1.0] * 2
    assert [r["threads"] for r in s.records()] == [1, 2]
    png, out = tmp_path / "s.png", tmp_path / "s.json"
    code = cli.main(["analyze", "scaling", str(src), "--threads", "1,2", "--runs", "1",
                     "--plot", str(png), "--json", str(out)])
    assert code == 0 and imread(png).shape[2] == 4
    points = json.loads(out.read_text())["points"]
    assert [p["threads"] for p in points] == [1, 2] and all(p["arts_s"] > 0 for p in points)


def test_scaling_of_a_program_without_timers_is_an_error(tmp_path, capsys):
    from carts_mlir import cli

    src = tmp_path / "quiet.c"
    src.write_text(PROGRAM.replace("return (int)s;", "return s > 0 ? 0 : 1;"))
    assert cli.main(["analyze", "scaling", str(src), "--threads", "1", "--runs", "1",
                     "--no-openmp"]) == 1
    err = capsys.readouterr().err
    assert "prints no kernel.<name>: timer" in err and "Traceback" not in err
