"""carts_mlir.explore: every stage's module of a compilation, as data and as HTML."""

from carts_mlir import explore, pipeline

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
