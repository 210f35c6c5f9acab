"""`carts_mlir.tools.plots`: what each figure draws (bars, reference lines, bands, labels), the images
it writes (atomically, readable back), its errors, and `carts benchmarks run --plot` end to end."""

from __future__ import annotations

import math
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

matplotlib_image = pytest.importorskip("matplotlib.image")

from carts_mlir import files  # noqa: E402
from carts_mlir.tools import plots  # noqa: E402
from carts_mlir.errors import CartsError  # noqa: E402

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")


def read_png(path: Path) -> np.ndarray:
    image = matplotlib_image.imread(path)
    assert image.ndim == 3 and image.shape[2] == 4  # RGBA
    assert image[..., :3].std() > 0.05  # not a blank canvas
    return image


def has_colour(image: np.ndarray, hex_colour: str) -> bool:
    """Whether some pixel is (within rounding) ``hex_colour``: the bars were really drawn."""
    rgb = np.array([int(hex_colour[k:k + 2], 16) / 255 for k in (1, 3, 5)])
    return bool((np.abs(image[..., :3] - rgb).max(axis=-1) < 0.01).any())


def by_gid(artists, gid: str) -> list:
    return [a for a in artists if a.get_gid() == gid]


def bars(ax, gid: str) -> list:
    return by_gid(ax.patches, gid)


def no_leftovers(directory: Path, *expected: str) -> None:
    assert sorted(p.name for p in directory.iterdir()) == sorted(expected)


# ------------------------------------------------------------------ speedup bars

ROWS = [("gemm", 1.5), ("jacobi2d", 0.6), ("pooling", None), ("batchnorm", "failed"),
        ("activations", 2.4)]


def test_speedup_bars_draw_one_bar_per_measured_example_and_label_the_gaps(tmp_path):
    out = tmp_path / "speedup.png"
    fig = plots.speedup_bars(ROWS, title="Speedup over OpenMP", path=out)
    (ax,) = fig.axes
    drawn = bars(ax, "speedup")
    assert len(drawn) == 3
    assert [b.get_width() for b in drawn] == pytest.approx([1.5, 0.6, 2.4])
    assert [b.get_y() + b.get_height() / 2 for b in drawn] == [0, 1, 4]  # rows keep their place
    assert ax.get_xscale() == "linear"
    assert [t.get_text() for t in ax.get_yticklabels()] == [name for name, _ in ROWS]
    assert ax.yaxis_inverted()  # first row on top, as in the table
    (parity,) = by_gid(ax.lines, "parity")
    assert list(parity.get_xdata()) == [1.0, 1.0]
    (geomean,) = by_gid(ax.lines, "geomean")
    expected = math.prod([1.5, 0.6, 2.4]) ** (1 / 3)
    assert geomean.get_xdata()[0] == pytest.approx(expected)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == ["as fast as OpenMP", f"geometric mean {expected:.2f}x"]
    gaps = {int(t.xy[1]): t.get_text() for t in by_gid(ax.texts, "missing")}
    assert gaps == {2: "n/a", 3: "failed"}
    values = sorted(t.get_text() for t in ax.texts if t.get_gid() is None)
    assert values == ["0.60x", "1.50x", "2.40x"]
    assert ax.get_title() == "Speedup over OpenMP"

    image = read_png(out)
    # 7.5 inches wide, 0.45 inch a row plus room for the axis and the legend.
    assert image.shape == (round((0.45 * len(ROWS) + 1.9) * plots.DPI), round(7.5 * plots.DPI), 4)
    assert has_colour(image, plots.FASTER) and has_colour(image, plots.SLOWER)
    no_leftovers(tmp_path, "speedup.png")


def test_speedups_spanning_more_than_20x_go_on_a_log_axis(tmp_path):
    fig = plots.speedup_bars([("fast", 400.0), ("slow", 0.25)], path=tmp_path / "s.png")
    (ax,) = fig.axes
    assert ax.get_xscale() == "log"
    low, _ = ax.get_xlim()
    # Bars start at the left edge and end at their value.
    assert [(b.get_x(), b.get_x() + b.get_width()) for b in bars(ax, "speedup")] == [
        pytest.approx((low, 400.0)), pytest.approx((low, 0.25))]
    assert by_gid(ax.lines, "geomean")[0].get_xdata()[0] == pytest.approx(10.0)
    fig.canvas.draw()
    labels = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert "1x" in labels and "100x" in labels  # plain ratios, not 10^2


def test_speedup_bars_with_nothing_measured_still_show_every_example(tmp_path):
    fig = plots.speedup_bars([("a", None), ("b", "timeout")], path=tmp_path / "s.png")
    (ax,) = fig.axes
    assert bars(ax, "speedup") == []
    assert by_gid(ax.lines, "geomean") == []
    assert [t.get_text() for t in by_gid(ax.texts, "missing")] == ["n/a", "timeout"]
    read_png(tmp_path / "s.png")


def test_a_returned_figure_shows_itself_in_a_notebook():
    png = plots.speedup_bars([("gemm", 1.2)])._repr_png_()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")


# ------------------------------------------------------------------ scaling


def test_scaling_plot_draws_a_line_per_series_and_its_ideal(tmp_path):
    series = {"ours": [(4, 2.5), (1, 8.0), (2, 4.5)], "OpenMP": [(1, 6.0), (2, 3.2), (4, 1.8)]}
    out = tmp_path / "scaling.png"
    fig = plots.scaling_plot(series, title="gemm, large", path=out)
    (ax,) = fig.axes
    measured = by_gid(ax.lines, "measured")
    assert [line.get_label() for line in measured] == ["ours", "OpenMP"]
    assert list(measured[0].get_xdata()) == [1, 2, 4]  # sorted by threads
    assert list(measured[0].get_ydata()) == [8.0, 4.5, 2.5]
    ideal = by_gid(ax.lines, "ideal")
    assert len(ideal) == 2
    assert list(ideal[0].get_ydata()) == pytest.approx([8.0, 4.0, 2.0])
    assert list(ideal[1].get_ydata()) == pytest.approx([6.0, 3.0, 1.5])
    assert ideal[0].get_linestyle() == "--"
    assert ideal[0].get_color() == measured[0].get_color()
    assert ax.get_xscale() == "log" and ax.xaxis.get_transform().base == 2
    assert ax.get_yscale() == "log"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "2", "4"]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["ours", "OpenMP", "ideal scaling"]

    image = read_png(out)
    assert image.shape == (round(4.6 * plots.DPI), round(7.0 * plots.DPI), 4)
    no_leftovers(tmp_path, "scaling.png")


def test_scaling_plot_without_ideal_lines_and_with_bad_points():
    fig = plots.scaling_plot({"ours": [(1, 2.0), (8, 0.5)]}, ideal=False)
    (ax,) = fig.axes
    assert by_gid(ax.lines, "ideal") == []
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["ours"]
    with pytest.raises(CartsError, match="scaling series 'ours' needs positive"):
        plots.scaling_plot({"ours": [(1, 2.0), (2, 0.0)]})
    with pytest.raises(CartsError, match="scaling series 'empty' has no points"):
        plots.scaling_plot({"empty": []})


# ------------------------------------------------------------------ bandwidth


def test_bandwidth_bars_group_ours_with_openmp_over_efficiency_bands(tmp_path):
    rows = [("copy", 90.0, 110.0), ("triad", 30.0, None), ("stencil", 12.0, 40.0)]
    out = tmp_path / "bandwidth.png"
    fig = plots.bandwidth_bars(rows, baseline=120.0, title="bandwidth", path=out)
    (ax,) = fig.axes
    ours, omp = bars(ax, "ours"), bars(ax, "openmp")
    assert [b.get_height() for b in ours] == [90.0, 30.0, 12.0]
    assert [b.get_height() for b in omp] == [110.0, 40.0]
    # Side by side, ours on the left of each kernel's tick.
    assert [b.get_x() + b.get_width() / 2 < k for b, k in zip(ours, range(3))] == [True] * 3
    assert [round(b.get_x() + b.get_width() / 2) for b in omp] == [0, 2]
    (gap,) = by_gid(ax.texts, "missing")
    assert gap.get_text() == "n/a" and round(gap.xy[0]) == 1
    (baseline,) = by_gid(ax.lines, "baseline")
    assert list(baseline.get_ydata()) == [120.0, 120.0]
    spans = {}
    for label in ("excellent", "good", "acceptable", "needs investigation"):
        (patch,) = by_gid(ax.patches, f"band {label}")
        spans[label] = (patch.get_y(), patch.get_y() + patch.get_height())
    top = ax.get_ylim()[1]
    assert spans == {"excellent": pytest.approx((84.0, top)), "good": pytest.approx((60.0, 84.0)),
                     "acceptable": pytest.approx((36.0, 60.0)),
                     "needs investigation": pytest.approx((0.0, 36.0))}
    side = {t.get_text() for t in ax.texts if t.get_gid() is None and "\n" in t.get_text()}
    assert side == {"excellent\n>70%", "good\n50-70%", "acceptable\n30-50%",
                    "needs investigation\n<30%"}
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert set(legend) == {"ours", "OpenMP", "baseline 120 GB/s"}

    image = read_png(out)
    assert image.shape == (round(4.6 * plots.DPI), round(6.5 * plots.DPI), 4)
    assert has_colour(image, plots.OURS) and has_colour(image, plots.OPENMP)
    no_leftovers(tmp_path, "bandwidth.png")


def test_bandwidth_bars_without_a_baseline_have_no_bands():
    fig = plots.bandwidth_bars([("copy", 10.0, 12.0)])
    (ax,) = fig.axes
    assert [p for p in ax.patches if str(p.get_gid()).startswith("band ")] == []
    assert by_gid(ax.lines, "baseline") == []
    with pytest.raises(CartsError, match="baseline bandwidth must be positive"):
        plots.bandwidth_bars([("copy", 10.0, 12.0)], baseline=0.0)


# ------------------------------------------------------------------ writing and errors


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    out = tmp_path / "speedup.png"
    out.write_bytes(b"previous")

    def full_disk(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", full_disk)
    with pytest.raises(CartsError, match="cannot write output: No space left on device"):
        plots.speedup_bars([("gemm", 1.0)], path=out)
    assert out.read_bytes() == b"previous"
    no_leftovers(tmp_path, "speedup.png")


def test_bad_plot_paths_are_clear_errors(tmp_path):
    with pytest.raises(CartsError, match="its directory does not exist"):
        plots.speedup_bars([("gemm", 1.0)], path=tmp_path / "missing" / "s.png")
    with pytest.raises(CartsError, match="it is a directory"):
        plots.speedup_bars([("gemm", 1.0)], path=tmp_path)
    with pytest.raises(CartsError, match=r"unknown image format '\.xyz' \(known: .*\.png"):
        plots.speedup_bars([("gemm", 1.0)], path=tmp_path / "s.xyz")
    no_leftovers(tmp_path)
    plots.speedup_bars([("gemm", 1.0)], path=tmp_path / "s.svg")
    assert (tmp_path / "s.svg").read_text().lstrip().startswith("<?xml")


def test_missing_matplotlib_says_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(CartsError, match="plots need matplotlib.*pip install matplotlib"):
        plots.scaling_plot({"ours": [(1, 1.0)]})


# ------------------------------------------------------------------ carts benchmarks run --plot


@needs_gcc
def test_benchmarks_run_writes_the_speedup_plot(run_cmd, tmp_path):
    proc = run_cmd("carts", "benchmarks", "run", "gemm", "--size", "mini", "--threads", "2",
                   "--plot", "out.png", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Plot: out.png" in proc.stdout
    image = read_png(tmp_path / "out.png")
    assert image.shape[:2] == (round(3.0 * plots.DPI), round(7.5 * plots.DPI))  # the minimum
    assert has_colour(image, plots.FASTER) or has_colour(image, plots.SLOWER)  # gemm's bar
    no_leftovers(tmp_path, "out.png")


def test_benchmarks_run_rejects_a_bad_plot_path_before_running(run_cmd, tmp_path):
    proc = run_cmd("carts", "benchmarks", "run", "gemm", "--size", "mini",
                   "--plot", "no/such/dir/out.png", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stdout == ""  # nothing was built or run
    assert proc.stderr == ("no/such/dir/out.png: error: cannot write output: "
                           "its directory does not exist\n")
    no_leftovers(tmp_path)
