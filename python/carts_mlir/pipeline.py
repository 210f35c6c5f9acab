"""The stage table: the ARTS pipeline as data.

Each stage is one PassManager run. The drivers (``carts run``, ``python -m carts_mlir.opt``),
the notebook API and the tests all read :data:`STAGES`; nothing else knows the order.
"""

from __future__ import annotations

from dataclasses import dataclass

import mlir.ir as mir

from . import ir
from .errors import CartsError
from .jit.lowering import LOWERING_PIPELINE


@dataclass(frozen=True)
class Stage:
    """One named stage: the passes it runs and why it sits where it does."""

    name: str
    passes: tuple[str, ...]
    does: str
    why_here: str

    @property
    def flag(self) -> str:
        return f"--{self.name}"

    @property
    def pipeline(self) -> str:
        return self.pipeline_with({})

    def pipeline_with(self, options: dict[str, str]) -> str:
        """The stage's pipeline with pass options, e.g. ``{"arts-concurrency": "threads=4"}``
        gives ``arts-concurrency{threads=4}`` wherever that pass runs in this stage."""
        passes = [f"{p}{{{options[p]}}}" if p in options else p for p in self.passes]
        return f"builtin.module({','.join(passes)})"


def _with_alias_scopes(passes: list[str]) -> tuple[str, ...]:
    """The upstream lowering with arts-alias-scopes right before finalize-memref-to-llvm,
    which would otherwise lower the accesses it gives alias scopes to (the sequential
    compile, which has no tasks and loads no plugin, uses the lowering as it is)."""
    at = passes.index("finalize-memref-to-llvm")
    return (*passes[:at], "arts-alias-scopes", *passes[at:])


STAGES: tuple[Stage, ...] = (
    Stage("canonicalize-memrefs", ("arts-inline-helpers", "arts-raise-pointer-tables", "canonicalize",
                                   "arts-fold-reshapes", "canonicalize", "cse"),
          "inline allocation helpers; raise pointer-of-pointer arrays to N-D memrefs; one "
          "allocation of an array seen through reshaped views",
          "every later analysis reasons about plain N-D memrefs"),
    Stage("collect-metadata", ("arts-collect-metadata",),
          "loop and array facts as attributes and a JSON file keyed by source location",
          "runs on the sequential compile, before OpenMP structure is rewritten"),
    Stage("openmp-to-arts", ("arts-openmp-to-arts", "arts-verify-no-omp", "arts-loop-fusion"),
          "omp.parallel/wsloop/single/barrier to arts.edt/for/barrier; a parallel loop that "
          "reads what the one before it writes, element by element, fused into it",
          "the first stage that speaks ARTS; no omp op survives it"),
    Stage("create-dbs", ("arts-create-dbs", "arts-verify-edt-deps"),
          "coarse datablocks for every array a task touches; acquires with in/out/inout",
          "needs the tasks of openmp-to-arts to know who touches what"),
    Stage("concurrency", ("arts-concurrency",),
          "workers and intranode/internode per parallel task from arts.cfg",
          "work distribution below needs the worker count"),
    Stage("concurrency-opt", ("arts-for-lowering", "arts-db-partitioning", "arts-create-dbs",
                              "arts-verify-edt-deps", "canonicalize", "cse"),
          "per-chunk tasks with routes; datablock partitioning; distributed marking; "
          "the datablock pass again on the new tasks",
          "chunk boundaries decide block boundaries, so for-lowering runs first"),
    Stage("epochs", ("arts-epochs", "arts-epoch-fusion", "arts-host-sync", "arts-stable-reads"),
          "barriers become epochs around the task launches before them; epochs "
          "whose datablocks order their tasks fused, also across a loop's iterations; with "
          "several nodes, host flushes/fetches of distributed datablocks around them; reads "
          "of datablocks no task writes marked stable",
          "the last high-level stage: all launches exist now"),
    Stage("pre-lowering", ("loop-invariant-code-motion", "arts-unroll-jam", "arts-alias-facts",
                           "arts-edt-lowering",
                           "arts-db-lowering", "arts-epoch-lowering", "arts-launch-fanout",
                           "canonicalize", "cse", "arts-verify-lowered"),
          "outline tasks (EDT ABI), lower acquires to rec_dep/dep_gep, epochs to runtime ops; "
          "block selection and index math hoisted out of inner loops first; chunk loops "
          "around a reduction chain (collect-metadata's class) jammed four rows at a time; "
          "launch loops of stable tasks shared with launcher tasks, independent short ones "
          "spread over the workers",
          "needs final task and datablock structure"),
    Stage("arts-to-llvm", ("arts-to-llvm", *_with_alias_scopes(LOWERING_PIPELINE.split(","))),
          "runtime ABI calls, main -> mainBody + artsMain + main, then the LLVM dialect",
          "last: everything above is ARTS-level"),
)

STAGE_BY_NAME: dict[str, Stage] = {stage.name: stage for stage in STAGES}


DEBUG_CHANNELS: tuple[str, ...] = (
    "canonicalize-memrefs", "collect-metadata", "openmp-to-arts", "loop-fusion", "create-dbs", "db",
    "concurrency", "tasks", "for-lowering", "db-partitioning", "epochs", "host-sync",
    "stable-reads",
    "unroll-jam", "alias-facts", "db-lowering", "edt-lowering", "epoch-lowering", "launch-fanout",
    "arts-to-llvm")
"""The ``--debug-only`` channels the passes print on (``all`` turns every one on). A
channel is named like its pass, in lower case with hyphens."""

CHANNEL_ALIASES: dict[str, str] = {
    "for_lowering": "for-lowering", "db_partitioning": "db-partitioning",
    "host_sync": "host-sync"}
"""Names the channels had in CARTS (and in this project's first examples), still accepted."""


def channel_name(name: str) -> str:
    """The channel ``name`` (or its old spelling) stands for."""
    return CHANNEL_ALIASES.get(name, name)


def debug_channels(names: list[str]) -> list[str]:
    """``names`` as channels (old spellings mapped) if each is one (or ``all``); an unknown
    one is an error, since a typo would otherwise print nothing and look like a pass that
    decided nothing."""
    names = [channel_name(n) for n in names]
    for name in names:
        if name != "all" and name not in DEBUG_CHANNELS:
            raise CartsError(f"unknown debug channel '{name}' "
                             f"(channels: all, {', '.join(DEBUG_CHANNELS)})")
    return names


def check_start(module: mir.Operation, start: str) -> None:
    """Input said to be at stage ``start`` may not hold what an earlier stage removes: OpenMP
    ops, which openmp-to-arts turns into ARTS ops. Resuming later than that would pass them
    through untouched and exit 0 on IR that never becomes a task program."""
    names = [s.name for s in STAGES]
    if names.index(stage(start).name) <= names.index("openmp-to-arts"):
        return
    found: list[mir.Operation] = []

    def visit(op):
        if op.name.startswith("omp."):
            found.append(op)
            return mir.WalkResult.INTERRUPT
        return mir.WalkResult.ADVANCE

    module.walk(visit, mir.WalkOrder.PRE_ORDER)
    if found:
        raise CartsError(f"'{found[0].name}' is OpenMP-level IR, but --start-from={start} "
                         "expects the output of openmp-to-arts or later (start from "
                         "openmp-to-arts)", ir.location_string(found[0].location)[0])


def stage(name: str) -> Stage:
    """Look a stage up by name (with or without the leading ``--``)."""
    key = name.removeprefix("--")
    if key not in STAGE_BY_NAME:
        known = ", ".join(STAGE_BY_NAME)
        raise CartsError(f"unknown stage '{name}' (stages: {known})")
    return STAGE_BY_NAME[key]


def stages_between(start: str | None, stop: str | None) -> list[Stage]:
    """The stages from ``start`` (inclusive; default the first) to ``stop`` (inclusive)."""
    names = [s.name for s in STAGES]
    first = names.index(stage(start).name) if start else 0
    last = names.index(stage(stop).name) if stop else len(names) - 1
    if first > last:
        raise CartsError(f"--start-from={start} comes after --{stop}")
    return list(STAGES[first : last + 1])


def run_stage(module: mir.Operation, st: Stage, *, print_ir_after_all: bool = False,
              input_name: str = "<input>", options: dict[str, str] | None = None) -> None:
    """Run one stage on ``module`` in place (``options``: see :meth:`Stage.pipeline_with`)."""
    pipeline = st.pipeline_with(options or {})
    ir.run_pipeline(module, pipeline, print_ir_after_all=print_ir_after_all,
                    reproduce=f"carts-opt {input_name} --pass-pipeline='{pipeline}'")


def describe_stages() -> str:
    """The table printed by ``carts pipeline``."""
    width = max(len(s.name) for s in STAGES) + 2
    lines = ["ARTS pipeline stages (stop after one with --<stage>, resume with --start-from=<stage>):", ""]
    for i, s in enumerate(STAGES, 1):
        lines.append(f"{i:>2}. --{s.name:<{width}} {s.does}")
        lines.append(f"    {'':<{width + 2}} passes: {', '.join(s.passes)}")
    return "\n".join(lines)
