"""The ARTS pipeline on the examples: every stage prints and re-parses, restarting from any
stage gives the IR of a straight run, and the end state has the structure the stages promise
(no omp/arts.for/barrier left, tasks inside epochs, datablocks everywhere tasks touch memory)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import mlir.ir as mir

from carts_mlir import ir as cir
from carts_mlir import pipeline
from common import ROOT, carts_forked

EXAMPLES = sorted((ROOT / "examples").rglob("*.c"))
INCLUDE = ROOT / "examples" / "include"
HIGH_LEVEL = [s.name for s in pipeline.STAGES[: [s.name for s in pipeline.STAGES].index("epochs") + 1]]


def front_end(source: Path, tmp_path: Path, *flags: str) -> Path:
    out = tmp_path / (source.stem + ("_seq" if "-fopenmp" not in flags else "") + ".mlir")
    result = carts_forked("cgeist", str(source), "-DMINI_DATASET", f"-I{INCLUDE}", "-S", "-o",
                          str(out), *flags, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return out


#: Datablocks each example has after the epochs stage (mini size, one node of 2 workers).
DATABLOCKS = {"transformer": 21, "activations": 6, "batchnorm": 6, "layernorm": 7, "pooling": 4,
              "3mm": 7, "gemm": 5, "jacobi2d": 2, "2mm": 5, "correlation": 4,
              "jacobi2d-float": 2, "convolution2d": 2, "stencil3d-order4": 3}


def machine(tmp_path: Path) -> None:
    (tmp_path / "arts.cfg").write_text("[ARTS]\nthreads=2\nnodeCount=1\n")


@pytest.mark.parametrize("source", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_stage_reparses_and_restarts_to_the_same_ir(source, tmp_path):
    machine(tmp_path)
    seq = front_end(source, tmp_path)
    assert carts_forked("run", str(seq), "--collect-metadata", "-o",
                        str(tmp_path / "seq.meta.mlir"), cwd=tmp_path).returncode == 0
    par = front_end(source, tmp_path, "-fopenmp")
    stages_dir = tmp_path / "stages"
    result = carts_forked("run", str(par), "--epochs", "--all-stages", "-o", str(stages_dir),
                          cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    outputs = sorted(stages_dir.glob("*.mlir"))
    assert [re.sub(r"^.*\.\d\d\.", "", p.stem) for p in outputs] == HIGH_LEVEL
    final = outputs[-1].read_text()
    # Each stage's output is a valid input of the next one: restarting there ends the same.
    for done, nxt in zip(outputs, HIGH_LEVEL[1:]):
        again = carts_forked("run", str(done), f"--start-from={nxt}", "--epochs",
                             "--mlir-print-debuginfo", cwd=tmp_path)
        assert again.returncode == 0, f"--start-from={nxt}: {again.stderr}"
        assert again.stdout.strip() == final.strip(), f"restarting from {nxt} changes the result"


@pytest.mark.parametrize("source", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_epochs_stage_leaves_tasks_in_epochs_over_datablocks(source, tmp_path):
    machine(tmp_path)
    par = front_end(source, tmp_path, "-fopenmp")
    result = carts_forked("run", str(par), "--epochs", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    ir = result.stdout
    for gone in ("omp.", "arts.for", "arts.barrier", "arts.edt <parallel>", "memref<?xmemref<?xmemref",
                 "no_verify"):
        assert gone not in ir, f"{gone} left after --epochs"
    # One datablock per array a task touches (block-partitioned ones too) and one per loop
    # with reductions (its partial results), at mini size on 2 workers.
    assert ir.count("arts.db_alloc") == DATABLOCKS[source.stem]
    # Every task launch sits inside an epoch (or inside the task that launches it).
    with cir.context():
        module = cir.parse(ir, "epochs.mlir")
        tasks = []

        def visit(op):
            if op.name == "arts.edt":
                tasks.append(op)
            return mir.WalkResult.ADVANCE

        module.walk(visit)
        assert tasks
        for task in tasks:
            parent = task.parent
            while parent is not None and parent.name not in ("arts.epoch", "arts.edt"):
                parent = parent.parent
            assert parent is not None, f"task outside any epoch at {task.location}"
