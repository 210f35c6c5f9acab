"""The runtime's trace=FILE read back: `carts_mlir.tools.trace` reduces the rows the way its
docstring says, and `carts analyze trace` prints that summary for the trace of a real run."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from carts_mlir.errors import CartsError
from carts_mlir.tools.trace import HEADER, read_trace, summarize

from common import write

#: Two workers over a 100 us window: worker 0 runs artsMain, one task from its mailbox
#: (routed to it) and one of its own; worker 1 takes a task routed to worker 0 from its mailbox.
HAND_MADE = f"""{HEADER}
artsMain,0,-1,main,0.000,0.000,200.000
__arts_edt_0,0,0,mail,10.000,12.000,42.000
__arts_edt_0,1,0,mail-stolen,20.000,30.000,80.000
__arts_edt_1,0,-1,own,50.000,60.000,110.000
"""


def test_summary_of_a_hand_made_trace(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text(HAND_MADE)
    s = summarize(read_trace(path))
    assert s.tasks == 3
    assert s.window_us == pytest.approx(100.0)  # first ready 10, last end 110
    assert s.taken == {"mail": 1, "mail-stolen": 1, "own": 1}
    assert s.run_on_routed_us == pytest.approx(30.0)
    assert s.run_elsewhere_us == pytest.approx(50.0)
    assert s.wait_median_us == pytest.approx(10.0)  # waits 2, 10, 10
    assert [(w["worker"], w["tasks"], round(w["busy_pct"])) for w in s.workers] == \
        [(0, 2, 80), (1, 1, 50)]
    assert s.workers[1]["mail-stolen"] == 1 and s.workers[0]["own"] == 1
    assert [(f["task"], f["runs"], f["run_median_us"]) for f in s.functions] == \
        [("__arts_edt_0", 2, 40.0), ("__arts_edt_1", 1, 50.0)]


def _carts(*args, cwd, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "carts_mlir", *map(str, args)],
                          capture_output=True, text=True, timeout=300, cwd=cwd,
                          env=env or dict(os.environ))


def test_analyze_trace_of_a_real_run(tmp_path):
    src = write(tmp_path, "loops.c", "#include <stdio.h>\nint main(void) {\n  static double a[4096];\n"
                "  for (int r = 0; r < 4; r++) {\n#pragma omp parallel for\n"
                "    for (int i = 0; i < 4096; i++) a[i] += i * 0.5;\n  }\n"
                '  printf("%g\\n", a[4095]);\n  return 0;\n}\n')
    trace = tmp_path / "loops.csv"
    ran = _carts("execute", "--threads", 2, "--no-executable", src, cwd=tmp_path,
                 env=dict(os.environ, trace=str(trace)))
    assert ran.returncode == 0, ran.stderr
    rows = read_trace(trace)
    s = summarize(rows)
    assert s.tasks == len(rows) - 1 >= 4  # every task but artsMain, at least one per loop
    assert sum(w["tasks"] for w in s.workers) == s.tasks
    out = tmp_path / "summary.json"
    shown = _carts("analyze", "trace", trace, "--json", out, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert f"{s.tasks} tasks in" in shown.stdout and "task functions" in shown.stdout
    assert json.loads(out.read_text())["tasks"] == s.tasks


@pytest.mark.parametrize("text,where,message", [
    ("worker,task\n", 1, "not a runtime trace"),
    (f"{HEADER}\nf,0,-1,own,1,2\n", 2, "malformed trace row: 7 fields expected, found 6"),
    (f"{HEADER}\nf,0,-1,own,1,2,3\nf,x,-1,own,1,2,3\n", 3, "malformed trace row"),
    (f"{HEADER}\nf,0,-1,borrowed,1,2,3\n", 2, "unknown way a task was taken 'borrowed'"),
])
def test_a_malformed_trace_is_a_located_error(tmp_path, text, where, message):
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(CartsError, match=message) as caught:
        read_trace(path)
    assert caught.value.location == f"{path}:{where}"
    shown = _carts("analyze", "trace", path, cwd=tmp_path)
    assert shown.returncode == 1 and "Traceback" not in shown.stderr
    assert shown.stderr.startswith(f"{path}:{where}: error: ")


def test_analyze_trace_checks_its_json_destination_first(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text(HAND_MADE)
    shown = _carts("analyze", "trace", path, "--json", tmp_path, cwd=tmp_path)
    assert shown.returncode == 1 and "Traceback" not in shown.stderr
    assert "cannot write output: it is a directory" in shown.stderr
    missing = _carts("analyze", "trace", tmp_path / "none.csv", cwd=tmp_path)
    assert missing.returncode == 1 and "none.csv" in missing.stderr


def test_timeline_draws_one_bar_per_task_and_hatches_the_moved_ones(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text(HAND_MADE)
    s = summarize(read_trace(path))
    fig = s.plot(tmp_path / "t.png", title="hand made")
    bars = {gid: 0 for gid in ("home", "moved")}
    for collection in fig.axes[0].collections:
        bars[collection.get_gid()] += len(collection.get_paths())
    # artsMain is left out; the task routed to worker 0 that worker 1 ran is the moved one
    assert bars == {"home": 2, "moved": 1}
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["0", "1"]
    assert (tmp_path / "t.png").read_bytes().startswith(b"\x89PNG")


def test_analyze_trace_checks_its_plot_destination_first(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text(HAND_MADE)
    shown = _carts("analyze", "trace", path, "--plot", tmp_path / "t.nope", cwd=tmp_path)
    assert shown.returncode == 1 and "Traceback" not in shown.stderr
    assert "unknown image format '.nope'" in shown.stderr
    assert "tasks in" not in shown.stdout  # refused before reading the trace
    drawn = _carts("analyze", "trace", path, "--plot", tmp_path / "t.svg", cwd=tmp_path)
    assert drawn.returncode == 0, drawn.stderr
    assert (tmp_path / "t.svg").read_text().lstrip().startswith("<?xml")
