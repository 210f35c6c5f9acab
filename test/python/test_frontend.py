"""The C front end (`carts cgeist`, `carts_mlir.frontend`): output that parses and
verifies, OpenMP structure, located errors for C outside the subset, and the CLI
contract (stdout/-o, nothing on stderr on success, no partial output on failure)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import mlir.ir as mir
import pytest

from carts_mlir.errors import CartsError
from carts_mlir.frontend import compile_c
from carts_mlir.frontend.pragmas import constant_value, expand_macros, parse_pragma_text
from common import CORPUS, CORPUS_FILES, EXAMPLES, ROOT

EXAMPLE_FILES = sorted(p for p in EXAMPLES.rglob("*.c"))
BAD_FILES = sorted((CORPUS / "bad").glob("*.c"))
INCLUDE = str(EXAMPLES / "include")


def cgeist(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "carts_mlir", "cgeist", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)


def parse(text: str) -> mir.Module:
    ctx = mir.Context()
    module = mir.Module.parse(text, ctx)
    assert module.operation.verify()
    return module


def ids(paths):
    return [str(p.relative_to(ROOT)) for p in paths]


# ---------------------------------------------------------------------- examples


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=ids(EXAMPLE_FILES))
def test_example_sequential_output_has_no_omp_and_verifies(path):
    text = compile_c(str(path), defines=("MINI_DATASET",), includes=(INCLUDE,))
    parse(text)
    assert "omp." not in text
    assert "func.func @main" in text


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=ids(EXAMPLE_FILES))
def test_example_openmp_output_has_one_parallel_per_pragma(path):
    text = compile_c(str(path), defines=("MINI_DATASET",), includes=(INCLUDE,), openmp=True)
    parse(text)
    source = path.read_text()
    pragmas = len(re.findall(r"^\s*#\s*pragma\s+omp\s+parallel\b", source, re.M))
    assert pragmas > 0
    assert text.count("omp.parallel") == pragmas
    for_pragmas = len(re.findall(r"^\s*#\s*pragma\s+omp\s+(parallel\s+)?for\b", source, re.M))
    assert text.count("omp.wsloop") == for_pragmas


def test_every_op_of_an_example_is_located_in_c_source():
    path = EXAMPLES / "ml-kernels" / "batchnorm" / "batchnorm.c"
    text = compile_c(str(path), defines=("MINI_DATASET",), includes=(INCLUDE,), openmp=True,
                     debug_info=True)
    assert "unknown" not in text
    aliases = re.findall(r'^#loc\d* = loc\("([^"]+)":(\d+):(\d+)\)', text, re.M)
    alias_lines = [ln for ln in text.splitlines() if ln.startswith("#loc")]
    assert aliases and len(aliases) == len(alias_lines)
    assert all(f.endswith((".c", ".h")) for f, _, _ in aliases)
    # Every operation refers to a location (ops with regions print it after their `}`).
    lines = text.splitlines()
    op_lines = [ln for ln in lines if re.match(r"\s*(%\S+ = )?[a-z_]+\.[a-z_.]+", ln)
                and not ln.rstrip().endswith("{")]
    closing = [ln for ln in lines if ln.strip().startswith("}") and not ln.rstrip().endswith("{")]
    assert len(op_lines) > 100 and all("loc(" in ln for ln in op_lines)
    assert closing and all("loc(" in ln for ln in closing)


def test_batchnorm_parallel_loops_sit_under_their_pragmas():
    path = EXAMPLES / "ml-kernels" / "batchnorm" / "batchnorm.c"
    text = compile_c(str(path), defines=("MINI_DATASET",), includes=(INCLUDE,), openmp=True,
                     debug_info=True)
    source_lines = path.read_text().splitlines()
    pragma_lines = {k + 1 for k, ln in enumerate(source_lines) if "#pragma omp parallel" in ln}
    aliases = dict(re.findall(r'^(#loc\d*) = loc\("[^"]+":(\d+):\d+\)', text, re.M))
    parallel_locs = re.findall(r"^\s*omp\.terminator loc\((#loc\d*)\)", text, re.M)
    assert {int(aliases[a]) for a in parallel_locs} == pragma_lines


# ---------------------------------------------------------------------- corpus


@pytest.mark.parametrize("path", [p for p in CORPUS_FILES if p.name.startswith("omp_")],
                         ids=ids([p for p in CORPUS_FILES if p.name.startswith("omp_")]))
def test_openmp_corpus_programs_give_verified_omp_dialect(path):
    text = compile_c(str(path), includes=(str(CORPUS),), openmp=True)
    parse(text)
    # One omp.parallel per `#pragma omp parallel` of the code (comments do not count); a
    # region nested in another is a team of one and has none (those files have one outer
    # one); the metadirectives of that file choose three parallel variants; a scan loop is
    # two (its input pass and its scan pass), a `parallel for` one or the `omp for` that is
    # the whole of its region.
    code = re.sub(r"/\*.*?\*/", "", re.sub(r"//.*", "", path.read_text()), flags=re.S)
    pragmas = len(re.findall(r"#\s*pragma\s+omp\s+parallel\b", code))
    scans = len(re.findall(r"#\s*pragma\s+omp\s+(?:parallel\s+)?for\b[^\n]*reduction\s*\(\s*inscan",
                           code))
    expected = {"omp_nested_parallel.c": 1, "omp_nested_levels.c": 1,
                "omp_metadirective.c": 3}.get(path.name, pragmas + scans)
    assert len(re.findall(r"\bomp\.parallel\b", text)) == expected


@pytest.mark.parametrize("path", BAD_FILES, ids=ids(BAD_FILES))
def test_bad_program_fails_with_its_located_error_and_no_output(path, tmp_path):
    first = path.read_text().splitlines()[0]
    m = re.match(r"//\s*EXPECT-ERROR:\s*(\d+):(\d+):\s*(.*)$", first)
    assert m, f"{path.name}: no EXPECT-ERROR line"
    line, col, message = m.group(1), m.group(2), m.group(3).strip()
    out = tmp_path / "out.mlir"
    result = cgeist(path, "-fopenmp", "-S", "-o", out)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert f"{path}:{line}:{col}: error: " in result.stderr
    assert message in result.stderr
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_unsupported_construct_raises_carts_error_with_location(tmp_path):
    src = tmp_path / "s.c"
    src.write_text("int main(void) {\n  int k = 1;\n  goto end;\nend:\n  return k;\n}\n")
    with pytest.raises(CartsError) as err:
        compile_c(str(src))
    assert err.value.location == f"{src}:3:3"
    assert err.value.message == "unsupported C construct: goto"


# ---------------------------------------------------------------------- CLI


def test_cgeist_prints_module_and_nothing_on_stderr(tmp_path):
    src = tmp_path / "k.c"
    src.write_text("#include <stdio.h>\nint main(void) { printf(\"hi\\n\"); return 0; }\n")
    result = cgeist(src, "-S", "-O0", "--raise-scf-to-affine", "--print-debug-info")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    parse(result.stdout)


def test_cgeist_writes_output_file_only_on_success(tmp_path):
    good, bad = tmp_path / "good.c", tmp_path / "bad.c"
    good.write_text("int main(void) { return 0; }\n")
    bad.write_text("int main(void) { return 0 }\n")
    out = tmp_path / "out.mlir"
    assert cgeist(good, "-S", "-o", out).returncode == 0
    assert "func.func @main" in out.read_text()
    out.unlink()
    result = cgeist(bad, "-S", "-o", out)
    assert result.returncode == 1 and f"{bad}:1:26: error:" in result.stderr
    assert not out.exists()


def test_cgeist_defines_and_includes(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "size.h").write_text("#ifndef N\n#define N 4\n#endif\n")
    src = tmp_path / "d.c"
    src.write_text('#include "size.h"\nint a[N];\nint main(void) { return N; }\n')
    default = cgeist(src, "-S", "-I", tmp_path / "inc")
    assert "memref<4xi32>" in default.stdout
    override = cgeist(src, "-S", f"-I{tmp_path / 'inc'}", "-DN=9")
    assert "memref<9xi32>" in override.stdout


def test_cgeist_rejects_unknown_flags_and_missing_files(tmp_path):
    result = cgeist("--frobnicate", "x.c")
    assert result.returncode == 1 and "unknown argument '--frobnicate'" in result.stderr
    result = cgeist(tmp_path / "absent.c", "-S")
    assert result.returncode == 1 and "no such file" in result.stderr
    assert "Traceback" not in result.stderr


def test_cgeist_help_mentions_ignored_affine_flag():
    result = cgeist("--help")
    assert result.returncode == 0
    assert "--raise-scf-to-affine" in result.stdout and "ignored" in result.stdout


# ---------------------------------------------------------------------- pragmas


def test_pragma_text_parses_into_directive_and_clauses():
    d, clauses = parse_pragma_text(
        " parallel for private(j, k) reduction(+: s) schedule(dynamic, CHUNK) collapse(2) nowait",
        "x.c:1:1")
    assert d == "parallel for"
    names = [c.name for c in clauses]
    assert names == ["private", "reduction", "schedule", "collapse", "nowait"]
    assert clauses[0].args == ("j", "k")
    assert clauses[1].modifier == "+" and clauses[1].args == ("s",)
    assert clauses[2].modifier == "dynamic" and clauses[2].args == ("CHUNK",)


def test_clause_arguments_expand_macros_before_evaluation():
    macros = {"CHUNK": ["(", "BASE", "*", "2", ")"], "BASE": ["8"]}
    assert constant_value(expand_macros("CHUNK", macros)) == 16
    assert constant_value(expand_macros("n", macros)) is None


def test_ir_that_does_not_verify_is_an_internal_error_at_its_c_line():
    """Should the front end ever emit IR that does not verify, the user sees one located
    line (the C position of the op the verifier names), not the verifier's exception."""
    from carts_mlir.frontend.driver import _located_internal_error

    with mir.Context(), mir.Location.unknown():
        module = mir.Module.create()
        with mir.InsertionPoint(module.body):
            mir.Operation.create("memref.store", operands=[], loc=mir.Location.file("x.c", 53, 8))
        with pytest.raises(mir.MLIRError) as raised:
            module.operation.verify()
    assert _located_internal_error(raised.value, "x.c").render() == (
        "x.c:53:8: error: internal error: 'memref.store' op expected 2 or more operands, "
        "but found 0")
