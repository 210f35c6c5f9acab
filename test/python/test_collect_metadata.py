"""The collect-metadata stage on real programs: the sequential compile writes the JSON file
with the loop and array facts, the -fopenmp compile of the same file imports them by source
location (the dual compilation of `carts execute`)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import mlir.ir as mir
import pytest

from carts_mlir import ir
from common import EXAMPLES

INCLUDE = str(EXAMPLES / "include")
GEMM = EXAMPLES / "polybench" / "gemm" / "gemm.c"
LAYERNORM = EXAMPLES / "ml-kernels" / "layernorm" / "layernorm.c"
METADATA = ".carts-metadata.json"


def carts(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "carts_mlir", *map(str, args)],
                            capture_output=True, text=True, cwd=cwd)
    assert result.returncode == 0, result.stderr
    return result


def compile_both(source: Path, workdir: Path) -> tuple[dict, Path, str]:
    """Sequential compile -> collect-metadata (writes the file); -fopenmp compile -> the same
    stage (reads it). Returns the JSON, the OpenMP module after the stage and its debug lines."""
    seq, omp = workdir / "seq.mlir", workdir / "omp.mlir"
    common = ("-S", "-I", INCLUDE, "-DMINI_DATASET", "--print-debug-info")
    carts("cgeist", source, *common, "-o", seq, cwd=workdir)
    carts("cgeist", source, *common, "-fopenmp", "-o", omp, cwd=workdir)
    stage = ("--start-from=collect-metadata", "--collect-metadata")
    carts("run", seq, *stage, "-o", workdir / "seq.out.mlir", cwd=workdir)
    facts = json.loads((workdir / METADATA).read_text())
    imported = carts("run", omp, *stage, "-o", workdir / "omp.out.mlir",
                     "--debug-only=collect-metadata", cwd=workdir)
    return facts, workdir / "omp.out.mlir", imported.stderr


def key_of(source: Path, statement: str, nth: int = 0, *, after: str | None = None) -> str:
    """`file.c:line:col` of the nth line of `source` that starts with `statement`, counting
    from the first line that contains `after` (a function's signature) when it is given."""
    lines = source.read_text().splitlines()
    start = 0 if after is None else next(n for n, line in enumerate(lines) if after in line)
    hits = [(n, line.index(statement) + 1)
            for n, line in enumerate(lines[start:], start + 1)
            if line.lstrip().startswith(statement)]
    line, col = hits[nth]
    return f"{source.name}:{line}:{col}"


def attached_facts(module_path: Path) -> list[tuple[str, str, str, str]]:
    """(op name, location, origin, class or "") of every op carrying arts.metadata."""
    found = []
    with ir.context():
        module = ir.parse_file(module_path)

        def visit(op):
            if "arts.metadata" in op.attributes:
                facts = op.attributes["arts.metadata"]
                cls = facts["class"].value if "class" in facts else ""
                found.append((op.name, facts["location"].value, facts["origin"].value, cls))
            return mir.WalkResult.ADVANCE

        module.walk(visit)
    return found


@pytest.fixture(scope="module")
def gemm(tmp_path_factory):
    return compile_both(GEMM, tmp_path_factory.mktemp("gemm"))


@pytest.fixture(scope="module")
def layernorm(tmp_path_factory):
    return compile_both(LAYERNORM, tmp_path_factory.mktemp("layernorm"))


def test_metadata_file_names_its_source_and_version(gemm):
    facts, _, _ = gemm
    assert facts["version"] == 1
    assert Path(facts["source"]).name == "gemm.c"
    assert facts["loops"] and facts["arrays"]


def test_gemm_row_and_column_loops_are_parallel(gemm):
    facts, _, _ = gemm
    loops = facts["loops"]
    i_loop = loops[key_of(GEMM, "for (int i = 0; i < ni; i++) {")]
    scale_j = loops[key_of(GEMM, "for (int j = 0; j < nj; j++)", 2)]
    update_j = loops[key_of(GEMM, "for (int j = 0; j < nj; j++)", 3)]
    assert (i_loop["class"], i_loop["level"], i_loop["loop_carried"]) == ("parallel", 0, "no")
    assert (scale_j["class"], scale_j["level"]) == ("parallel", 1)
    assert (update_j["class"], update_j["level"]) == ("parallel", 2)
    assert i_loop["trip_count"] is None and i_loop["trip_expr"]


def test_gemm_k_loop_is_an_add_reduction_into_c(gemm):
    # Every k iteration does C[i][j] += a * B[k][j] for all j: C[i][j] does not depend on k,
    # each access of C in the loop is that load-add-store, so k carries a dependence only
    # through an add reduction into C (each element of C[i][:] is its own accumulator).
    facts, _, _ = gemm
    k_loop = facts["loops"][key_of(GEMM, "for (int k = 0; k < nk; k++) {")]
    assert k_loop["class"] == "reduction" and k_loop["loop_carried"] == "yes"
    assert k_loop["level"] == 1
    (reduction,) = k_loop["reductions"]
    assert reduction["kind"] == "add"
    assert k_loop["writes"] == [reduction["array"]]  # C is the only array it writes
    c = facts["arrays"][reduction["array"]]
    assert (c["rank"], c["element_type"], c["dims"]) == (2, "f64", ["iv", "iv"])
    assert c["reads"] >= 2 and c["writes"] >= 2  # C[i][j] *= beta and C[i][j] += ...


def test_gemm_checksum_loop_is_a_reduction_with_constant_trip(gemm):
    facts, _, _ = gemm
    loop = facts["loops"][key_of(GEMM, "for (int i = 0; i < ni; i++)", 3)]
    assert (loop["class"], loop["trip_count"]) == ("reduction", 32)
    assert [r["kind"] for r in loop["reductions"]] == ["add"]


def test_layernorm_row_loops_are_parallel_with_private_sums(layernorm):
    facts, _, _ = layernorm
    loops = facts["loops"]
    stats = loops[key_of(LAYERNORM, "for (int b = 0; b < batch; b++) {", after="ln_stats(")]
    # `double s` and `double v` live in the function's frame but are reset at the top of
    # every row: per-iteration temporaries, not a dependence between rows.
    assert stats["class"] == "parallel" and len(stats["private"]) == 2
    mean_sum = loops[key_of(LAYERNORM, "for (int i = 0; i < hidden; i++)", after="ln_stats(")]
    assert mean_sum["class"] == "reduction"
    assert [(r["array"], r["kind"]) for r in mean_sum["reductions"]] == [(stats["private"][0], "add")]
    normalize = loops[key_of(LAYERNORM, "for (int b = 0; b < batch; b++) {",
                             after="ln_normalize(")]
    assert normalize["class"] == "parallel" and normalize["private"] == []
    inner = loops[key_of(LAYERNORM, "for (int i = 0; i < hidden; i++)", after="ln_normalize(")]
    assert inner["class"] == "parallel" and inner["level"] == 1


def test_layernorm_arrays_have_rank_type_and_patterns(layernorm):
    facts, _, _ = layernorm
    arrays = facts["arrays"].values()
    two_d = [a for a in arrays if a["rank"] == 2]
    assert two_d and all(a["element_type"] == "f32" and a["dims"] == ["iv", "iv"] for a in two_d
                         if a["reads"] + a["writes"] > 0)
    scalars = [a for a in arrays if a["rank"] == 0]
    assert scalars and all(a["dims"] == [] for a in scalars)


@pytest.mark.parametrize("which", ["gemm", "layernorm"])
def test_openmp_compile_imports_the_sequential_facts(which, request):
    facts, omp_module, debug = request.getfixturevalue(which)
    attached = attached_facts(omp_module)
    imported = {loc: (name, cls) for name, loc, origin, cls in attached if origin == "sequential"}
    # Every loop of the sequential compile exists in the OpenMP compile at the same location.
    assert set(facts["loops"]) <= set(imported)
    for key, loop in facts["loops"].items():
        assert imported[key][1] == loop["class"]
    # The pragma loops carry their facts on the omp.wsloop that wraps them.
    assert any(name == "omp.wsloop" and cls == "parallel" for name, cls in imported.values())
    match = re.search(r"imported (\d+) loop and (\d+) array facts from \S+", debug)
    assert match and int(match.group(1)) == len(facts["loops"])
    assert int(match.group(2)) > 0


def test_openmp_compile_without_file_analyses_itself(tmp_path):
    omp = tmp_path / "omp.mlir"
    carts("cgeist", GEMM, "-S", "-I", INCLUDE, "-DMINI_DATASET", "--print-debug-info",
          "-fopenmp", "-o", omp, cwd=tmp_path)
    carts("run", omp, "--start-from=collect-metadata", "--collect-metadata",
          "-o", tmp_path / "out.mlir", cwd=tmp_path)
    assert not (tmp_path / METADATA).exists()
    attached = attached_facts(tmp_path / "out.mlir")
    assert attached and {origin for _, _, origin, _ in attached} == {"parallel"}
    i_loop = key_of(GEMM, "for (int i = 0; i < ni; i++) {")
    assert ("omp.wsloop", i_loop, "parallel", "parallel") in attached
