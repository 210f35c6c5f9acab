"""Report and side outputs that cannot be written are refused before any work, so a
benchmark run is never lost after it finished."""

import pytest

from promise import expect_error, expect_only, run

C = "int main(void) {\n  return 0;\n}\n"


@pytest.mark.parametrize("command", [
    ["carts", "benchmarks", "run", "layernorm", "--size", "mini", "--threads", "1"],
    ["carts", "analyze", "bandwidth", "layernorm", "--size", "mini", "--threads", "1"],
    ["carts", "golden", "layernorm"],
])
@pytest.mark.parametrize("target, why", [("outdir", "it is a directory"),
                                         ("missing/r.json", "its directory does not exist"),
                                         ("file.txt/r.json", "its directory is not a directory")])
def test_a_json_report_that_cannot_be_written(workdir, command, target, why):
    (workdir / "outdir").mkdir()
    (workdir / "file.txt").write_text("x")
    r = run(*command, "--json", target, cwd=workdir)
    expect_error(r, f"cannot write output: {why}", location=target.replace(".", r"\."))
    assert "passed" not in r.stdout  # refused before anything ran
    expect_only(workdir, "file.txt")


def test_emit_llvm_onto_a_directory(workdir):
    (workdir / "ok.c").write_text(C)
    (workdir / "ok-arts.ll").mkdir()
    r = run("carts", "execute", "--emit-llvm", "ok.c", cwd=workdir)
    expect_error(r, "cannot write output: it is a directory", location=r"ok-arts\.ll")


SEQUENTIAL_MLIR = """func.func @f(%a: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %c0 to %c32 step %c1 {
    %x = memref.load %a[%i] : memref<32xf32>
    memref.store %x, %a[%i] : memref<32xf32>
  }
  return
}
"""


def test_collect_metadata_writes_beside_the_output_not_into_the_current_directory(workdir):
    (workdir / "here").mkdir()
    (workdir / "s.mlir").write_text(SEQUENTIAL_MLIR)
    r = run("carts", "run", "../s.mlir", "--collect-metadata", "-o", "../out/s.out.mlir",
            cwd=workdir / "here")
    assert r.code == 0, r.stderr
    expect_only(workdir / "here")
    expect_only(workdir / "out", "s.out.mlir", ".carts-metadata.json")
    assert '"loops"' in (workdir / "out" / ".carts-metadata.json").read_text()


def test_a_metadata_file_that_is_a_directory(workdir):
    (workdir / "s.mlir").write_text(SEQUENTIAL_MLIR)
    (workdir / "facts").mkdir()
    r = run("carts", "run", "s.mlir", "--collect-metadata", "--metadata-file", "facts",
            "-o", "s.out.mlir", cwd=workdir)
    expect_error(r, "cannot use as the metadata file: it is a directory", location="facts")
    expect_only(workdir, "s.mlir")


def test_emit_llvm_leaves_nothing_when_the_native_link_fails_after_the_jit(workdir):
    # the link of ./ok_arts is the last step, after the LLVM IR exists and was JIT-compiled
    (workdir / "ok.c").write_text(C)
    r = run("carts", "execute", "-O3", "--emit-llvm", "ok.c", cwd=workdir,
            env={"CC": "cc -Wl,--no-such-linker-flag"})
    expect_error(r, "linking ok_arts failed: .*ld returned 1")
    expect_only(workdir, "ok.c")


OPS_MLIR = "func.func @f() {\n  return\n}\n"
REFUSED_C = "int main(void) {\n  int *p = 0;\n  goto end;\nend:\n  return *p;\n}\n"


@pytest.mark.parametrize("flags, target, why", [
    ([], "afile/out.mlir", "its directory is not a directory"),
    ([], "afile/sub/out.mlir", "its directory is not a directory"),
    (["--all-stages"], "afile", "it is a file, not a directory"),
    (["--all-stages"], "afile/stages", "a directory above it is a file"),
])
def test_an_output_below_or_onto_a_file(workdir, flags, target, why):
    (workdir / "ok.mlir").write_text(OPS_MLIR)
    (workdir / "afile").write_text("x")
    r = run("carts-opt", "ok.mlir", *flags, "-o", target, cwd=workdir)
    expect_error(r, f"cannot write output: {why}", location=target.replace(".", r"\."))
    expect_only(workdir, "ok.mlir", "afile")
    assert (workdir / "afile").read_text() == "x"


@pytest.mark.parametrize("target", ["stages", "deep/er/stages"])
def test_all_stages_of_refused_input_leave_no_directory(workdir, target):
    # openmp-to-arts refuses the ordered(n) loop below after collect-metadata has run
    (workdir / "bad.mlir").write_text(DOACROSS_MLIR)
    r = run("carts-opt", "bad.mlir", "--all-stages", "-o", target, cwd=workdir)
    expect_error(r, "doacross")
    expect_only(workdir, "bad.mlir")
    assert not (workdir / target.split("/")[0]).exists()


def test_all_stages_into_an_existing_directory_keep_it(workdir):
    (workdir / "bad.mlir").write_text(DOACROSS_MLIR)
    (workdir / "stages").mkdir()
    (workdir / "stages" / "mine.txt").write_text("kept")
    r = run("carts-opt", "bad.mlir", "--all-stages", "-o", "stages", cwd=workdir)
    expect_error(r, "doacross")
    expect_only(workdir, "bad.mlir", "stages/mine.txt")


DOACROSS_MLIR = """func.func @f(%n: index, %a: memref<?xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop ordered(1) {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.store %i, %a[%i] : memref<?xindex>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
"""
