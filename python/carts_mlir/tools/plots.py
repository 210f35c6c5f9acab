"""Benchmark results as pictures: speedup bars, thread scaling, memory bandwidth, and the
timeline of a run's tasks.

A table of ratios hides what a picture shows at once: which kernels are slower than OpenMP,
where scaling stops, how far a kernel is from what the memory can deliver. Each function builds
a :class:`matplotlib.figure.Figure` directly rather than through ``pyplot``, so nothing global
(backend, current figure) changes, and a notebook shows the figure it returns; with
``path`` the figure is also written, atomically, in the format the suffix names (PNG when it
names none). matplotlib is imported only when a plot is made.
"""

from __future__ import annotations

import functools
import io
import math
import os
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence

from .suite_runner import geometric_mean
from ..errors import CartsError
from ..files import check_destination, write_atomically

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FASTER = "#2a9d8f"
SLOWER = "#e76f51"
OURS = "#1d3557"
OPENMP = "#a8a8a8"
GEOMEAN = "#6a4c93"
MISSING = "#7f7f7f"
BAND_COLORS = ("#2a9d8f", "#8ab17d", "#e9c46a", "#e76f51")  # best band first
BAND_TEXT = ("#1f7a6f", "#4f7d43", "#a8740a", "#c4472b")  # darker, to be read on white
BELOW_BANDS = "needs investigation"
DPI = 150
NOTEBOOK_DPI = 100
_LABEL_BOX = dict(boxstyle="square,pad=0.1", facecolor="white", edgecolor="none")


# --------------------------------------------------------------------------- plots


def speedup_bars(rows: Sequence[tuple[str, float | str | None]], *, title: str | None = None,
                 path: str | os.PathLike | None = None) -> Figure:
    """One horizontal bar per example: OpenMP time over ours, so longer is better.

    A row's value is the speedup, or ``None`` (shown as an ``n/a`` gap) or a short reason
    (``"failed"``) when there is none: a failed example keeps its place rather than silently
    vanishing. The axis turns logarithmic when the speedups span more than 20x, since a
    ratio of 0.5 is as far from 1 as a ratio of 2.
    """
    Figure = _figure_class()
    names = [name for name, _ in rows]
    values = [v if _is_speedup(v) else None for _, v in rows]
    measured = [v for v in values if v is not None]
    span = measured + [1.0]
    log = max(span) / min(span) > 20
    fig = Figure(figsize=(7.5, max(3.0, 0.45 * len(rows) + 1.9)), layout="constrained")
    ax = fig.add_subplot()
    if log:
        ax.set_xscale("log")
        low, high = min(span) / 2.5, max(span) * 4
    else:
        low, high = 0.0, max(span) * 1.22
    y = list(range(len(rows)))
    bar_y = [i for i, v in zip(y, values) if v is not None]
    left = low if log else 0.0
    ax.barh(bar_y, [v - left for v in measured], left=left, height=0.62, gid="speedup",
            color=[FASTER if v >= 1 else SLOWER for v in measured])
    for i, v in zip(bar_y, measured):
        ax.annotate(_times(v), (v, i), xytext=(3, 0), textcoords="offset points", va="center",
                    ha="left", fontsize=8, zorder=4, bbox=_LABEL_BOX)
    for i, (_, value) in enumerate(rows):
        if values[i] is None:
            reason = value if isinstance(value, str) and value else "n/a"
            ax.annotate(reason, (low, i), xytext=(4, 0), textcoords="offset points",
                        va="center", ha="left", fontsize=8, style="italic", color=MISSING,
                        gid="missing", zorder=4, bbox=_LABEL_BOX)
    ax.axvline(1.0, color="black", linewidth=1.0, label="as fast as OpenMP", gid="parity")
    mean = geometric_mean(measured)
    if mean is not None:
        ax.axvline(mean, color=GEOMEAN, linestyle="--", linewidth=1.3,
                   label=f"geometric mean {_times(mean)}", gid="geomean")
    ax.set_xlim(low, high)
    if log:
        _plain_log_ticks(ax.xaxis, "x")
    else:
        ax.xaxis.set_major_formatter(lambda x, _: f"{x:g}x")
    ax.set_yticks(y, names)
    for label, value in zip(ax.get_yticklabels(), values):
        if value is None:
            label.set_color(MISSING)
    ax.set_ylim(max(len(rows), 1) - 0.5, -0.5)  # first row on top, as in the table
    ax.set_xlabel("speedup = OpenMP time / our time (right of 1: faster than OpenMP)")
    ax.grid(axis="x", alpha=0.3, which="major")
    ax.set_axisbelow(True)
    if title:
        ax.set_title(title)
    fig.legend(loc="outside lower center", ncols=2, frameon=False, fontsize=9)
    return _finish(fig, path)


def scaling_plot(series: Mapping[str, Sequence[tuple[int, float]]], *, title: str | None = None,
                 path: str | os.PathLike | None = None, ideal: bool = True) -> Figure:
    """Seconds against threads on log-log axes, one line per series.

    With ``ideal`` each series also gets the time it would take if it scaled perfectly from
    its smallest thread count (dashed): the gap between the two is the parallel overhead.
    """
    Figure = _figure_class()
    from matplotlib.lines import Line2D
    from matplotlib.ticker import NullLocator

    fig = Figure(figsize=(7.0, 4.6), layout="constrained")
    ax = fig.add_subplot()
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    thread_counts: set[int] = set()
    for label, points in series.items():
        points = sorted(points)
        if not points:
            raise CartsError(f"scaling series '{label}' has no points")
        if any(not (t > 0 and s > 0 and math.isfinite(s)) for t, s in points):
            raise CartsError(f"scaling series '{label}' needs positive threads and seconds, "
                             f"got {points}")
        threads = [t for t, _ in points]
        seconds = [s for _, s in points]
        thread_counts.update(threads)
        (line,) = ax.plot(threads, seconds, marker="o", label=label, gid="measured")
        if ideal and len(points) > 1:
            first_t, first_s = points[0]
            ax.plot(threads, [first_s * first_t / t for t in threads], linestyle="--",
                    color=line.get_color(), alpha=0.6, label=f"_ideal {label}", gid="ideal")
    ticks = sorted(thread_counts)
    ax.set_xticks(ticks, [str(t) for t in ticks])
    ax.xaxis.set_minor_locator(NullLocator())  # only the thread counts that were run
    _plain_log_ticks(ax.yaxis, "s")
    ax.set_xlabel("threads")
    ax.set_ylabel("time")
    ax.grid(alpha=0.3, which="major")
    if title:
        ax.set_title(title)
    handles, labels = ax.get_legend_handles_labels()
    if any(line.get_gid() == "ideal" for line in ax.lines):
        handles.append(Line2D([], [], color="black", linestyle="--", alpha=0.6))
        labels.append("ideal scaling")
    if handles:
        ax.legend(handles, labels, loc="best", fontsize=9)
    return _finish(fig, path)


def bandwidth_bars(rows: Sequence[tuple[str, float | None, float | None]], *,
                   baseline: float | None = None,
                   bands: Sequence[tuple[float, str]] = ((0.7, "excellent"), (0.5, "good"),
                                                         (0.3, "acceptable")),
                   title: str | None = None, path: str | os.PathLike | None = None) -> Figure:
    """Memory bandwidth per kernel, ours beside OpenMP's.

    ``baseline`` is what the machine can deliver (a STREAM-like measurement); with it the
    background is shaded by efficiency, each band starting at its fraction of the baseline
    (by default above 70% excellent, 50-70% good, 30-50% acceptable, below that
    the kernel needs investigation), so a bar's colour band reads as a verdict.
    """
    Figure = _figure_class()
    from matplotlib.transforms import blended_transform_factory

    names = [row[0] for row in rows]
    ours = [row[1] for row in rows]
    omp = [row[2] for row in rows]
    known = [v for v in ours + omp if v is not None]
    if any(not (v >= 0 and math.isfinite(v)) for v in known):
        raise CartsError(f"bandwidths must be finite and >= 0, got {known}")
    if baseline is not None and not baseline > 0:
        raise CartsError(f"the baseline bandwidth must be positive, got {baseline}")
    top = (max(known + [baseline or 0.0]) or 1.0) * 1.15
    fig = Figure(figsize=(max(6.5, 1.1 * len(rows) + 3.0), 4.6), layout="constrained")
    ax = fig.add_subplot()
    width = 0.38
    for offset, values, label, color, gid in ((-width / 2, ours, "ours", OURS, "ours"),
                                              (width / 2, omp, "OpenMP", OPENMP, "openmp")):
        at = [i + offset for i, v in enumerate(values) if v is not None]
        heights = [v for v in values if v is not None]
        container = ax.bar(at, heights, width, label=label, color=color, gid=gid, zorder=3)
        ax.bar_label(container, labels=[_gbps(v) for v in heights], fontsize=7, padding=2)
        for i, v in enumerate(values):
            if v is None:
                ax.annotate("n/a", (i + offset, 0), xytext=(0, 2), textcoords="offset points",
                            ha="center", va="bottom", fontsize=7, style="italic",
                            color=MISSING, gid="missing")
    if baseline is not None:
        edges = sorted((fraction for fraction, _ in bands), reverse=True)
        labels = [label for _, label in sorted(bands, reverse=True)] + [BELOW_BANDS]
        bounds = [top] + [f * baseline for f in edges] + [0.0]
        side = blended_transform_factory(ax.transAxes, ax.transData)
        for k, label in enumerate(labels):
            high, low = bounds[k], bounds[k + 1]
            if high <= low:
                continue
            ax.axhspan(low, high, color=BAND_COLORS[min(k, len(BAND_COLORS) - 1)],
                       alpha=0.14, linewidth=0, zorder=0, gid=f"band {label}")
            ax.text(1.01, (low + high) / 2, f"{label}\n{_band_range(edges, k)}", transform=side,
                    va="center", ha="left", fontsize=8,
                    color=BAND_TEXT[min(k, len(BAND_TEXT) - 1)])
        ax.axhline(baseline, color="black", linestyle=":", linewidth=1.2, zorder=2,
                   label=f"baseline {_gbps(baseline)} GB/s", gid="baseline")
    ax.set_ylim(0, top)
    ax.set_xlim(-0.6, len(rows) - 0.4)
    crowded = len(rows) > 6 or any(len(n) > 10 for n in names)
    ax.set_xticks(range(len(rows)), names, rotation=30 if crowded else 0,
                  ha="right" if crowded else "center")
    ax.set_ylabel("bandwidth (GB/s)")
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    if title:
        ax.set_title(title)
    fig.legend(loc="outside lower center", ncols=3, frameon=False, fontsize=9)
    return _finish(fig, path)


# --------------------------------------------------------------------------- writing


def timeline_plot(tasks: Sequence[tuple[str, int, int, float, float]], *,
                  title: str | None = None, path: str | os.PathLike | None = None) -> Figure:
    """What each worker ran when: ``tasks`` are ``(task function, worker, routed worker,
    start us, end us)`` (a runtime trace's rows, :mod:`carts_mlir.tools.trace`). One lane per
    worker, one bar per task coloured by its function; a task that ran on another worker than
    its route asked for is hatched, so tasks that moved stand out. Time is in milliseconds
    from the first start."""
    Figure = _figure_class()
    from matplotlib.patches import Patch

    if not tasks:
        raise CartsError("the timeline has no tasks to draw")
    if any(not (math.isfinite(a) and math.isfinite(b) and b >= a) for *_, a, b in tasks):
        raise CartsError("every task of the timeline needs a finite start no later than its end")
    origin = min(task[3] for task in tasks)
    workers = max(task[1] for task in tasks) + 1
    names = sorted({task[0] for task in tasks})
    palette = ("#1d3557", "#2a9d8f", "#e9c46a", "#e76f51", "#6a4c93", "#8ab17d", "#457b9d",
               "#f4a261", "#a8a8a8", "#264653")
    colors = {name: palette[i % len(palette)] for i, name in enumerate(names)}
    fig = Figure(figsize=(9.0, max(2.5, 0.32 * workers + 1.4)), layout="constrained")
    ax = fig.add_subplot()
    lanes: dict[tuple[bool, str, int], list[tuple[float, float]]] = {}
    for fn, w, routed, a, b in tasks:
        moved = routed >= 0 and routed != w
        lanes.setdefault((moved, fn, w), []).append(((a - origin) / 1e3,
                                                     max((b - a) / 1e3, 1e-6)))
    for (moved, name, worker), spans in sorted(lanes.items()):  # moved ones drawn on top
        ax.broken_barh(spans, (worker - 0.4, 0.8), facecolors=colors[name],
                       edgecolors="black" if moved else "none", linewidth=0.3,
                       hatch="////" if moved else None, gid="moved" if moved else "home")
    ax.set_ylim(workers - 0.5, -0.5)
    ax.set_yticks(range(workers), [str(w) for w in range(workers)])
    ax.set_ylabel("worker")
    ax.set_xlabel("ms")
    ax.grid(alpha=0.3, axis="x")
    handles = [Patch(facecolor=colors[n], label=n) for n in names[:12]]
    if any(moved for moved, _, _ in lanes):
        handles.append(Patch(facecolor="white", edgecolor="black", hatch="////",
                             label="not on its routed worker"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8,
              frameon=False)
    if title:
        ax.set_title(title)
    return _finish(fig, path)


def check_plot_path(path: str | os.PathLike) -> str:
    """The image format ``path`` asks for, or a :class:`CartsError` saying why it cannot be
    written; callers that compute for minutes before plotting check first."""
    _figure_class()  # a missing matplotlib is the first thing to report
    from matplotlib.backend_bases import FigureCanvasBase

    target = Path(path)
    fmt = target.suffix[1:].lower() or "png"
    supported = FigureCanvasBase.get_supported_filetypes()
    if fmt not in supported:
        known = ", ".join("." + s for s in sorted(supported))
        raise CartsError(f"cannot write '{target}': unknown image format '.{fmt}' "
                         f"(known: {known})")
    check_destination(target)
    return fmt


def save(fig: Figure, path: str | os.PathLike) -> Path:
    """Write ``fig`` atomically (rendered in memory first, then through a temporary file in
    the same directory), so a failed write never leaves half an image behind."""
    fmt = check_plot_path(Path(path))
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, dpi=DPI)
    return write_atomically(path, buffer.getvalue())


def _finish(fig: Figure, path: str | os.PathLike | None) -> Figure:
    if path is not None:
        save(fig, path)
    return fig


def _figure_class():
    try:
        from matplotlib.figure import Figure
    except ImportError as err:
        raise CartsError(f"plots need matplotlib, which cannot be imported ({err}); "
                         "install it with 'pip install matplotlib'") from None
    return _shown_in_notebooks(Figure)


@functools.cache
def _shown_in_notebooks(figure: type) -> type:
    """``figure`` that a notebook shows as an image: a figure made without ``pyplot`` has no
    display hook of its own until ``%matplotlib inline`` runs."""

    class PlotFigure(figure):
        def _repr_png_(self) -> bytes:
            image = io.BytesIO()
            self.savefig(image, format="png", dpi=NOTEBOOK_DPI)
            return image.getvalue()

    return PlotFigure


# --------------------------------------------------------------------------- labels


def _is_speedup(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and \
        math.isfinite(value) and value > 0


def _times(value: float) -> str:
    return f"{value:.0f}x" if value >= 100 else f"{value:.1f}x" if value >= 10 else f"{value:.2f}x"


def _gbps(value: float) -> str:
    return f"{value:.0f}" if value >= 100 else f"{value:.1f}" if value >= 1 else f"{value:.2f}"


def _band_range(edges: list[float], k: int) -> str:
    """``>70%``, ``50-70%``, ... for band ``k`` of the descending ``edges``."""
    def pct(f: float) -> str:
        return f"{f * 100:g}%"

    if not edges:
        return ""
    if k == 0:
        return f">{pct(edges[0])}"
    if k == len(edges):
        return f"<{pct(edges[-1])}"
    return f"{edges[k] * 100:g}-{pct(edges[k - 1])}"


def _plain_log_ticks(axis, unit: str) -> None:
    """Label a log axis ``0.5s``, ``2s`` rather than in scientific notation, on the ticks
    matplotlib would label anyway (so minor labels still thin out over many decades)."""
    from matplotlib.ticker import LogFormatter

    class PlainLogFormatter(LogFormatter):
        def __call__(self, x, pos=None):
            return f"{x:g}{unit}" if super().__call__(x, pos) else ""

    axis.set_major_formatter(PlainLogFormatter(labelOnlyBase=False))
    axis.set_minor_formatter(PlainLogFormatter(labelOnlyBase=False, minor_thresholds=(2, 0.5)))
