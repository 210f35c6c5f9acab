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
