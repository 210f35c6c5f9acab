"""Deep nesting and long expressions: what fits is compiled (on a deep stack), what does not
is a located error, never a crash or a RecursionError traceback."""

import pytest

from promise import expect_error, expect_only, run


def nested_ifs(depth: int) -> str:
    opens = "".join(f"  if (argc > {i % 2}) {{\n" for i in range(depth))
    return (f"int main(int argc, char **argv) {{\n  int x = 0;\n{opens}  x = 3;\n"
            + "  }\n" * depth + "  return x;\n}\n")


@pytest.mark.parametrize("mode", [["--no-arts"], []])
def test_nested_ifs_up_to_clangs_limit_compile_and_run(workdir, mode):
    (workdir / "p.c").write_text(nested_ifs(250))
    r = run("carts", "execute", *mode, "p.c", cwd=workdir)
    # argc is 1: the first if holds, the second does not, so x keeps 0
    assert (r.code, "Traceback" in r.stderr) == (0, False), r.stderr


def test_nesting_beyond_clangs_limit_is_clangs_located_error(workdir):
    (workdir / "p.c").write_text(nested_ifs(300))
    r = run("carts", "execute", "--no-arts", "p.c", cwd=workdir)
    expect_error(r, "bracket nesting level exceeded", location=r"p\.c:\d+:\d+")


def test_an_expression_of_thousands_of_terms(workdir):
    terms = " + ".join(["argc"] * 4000)
    (workdir / "p.c").write_text(f"int main(int argc, char **argv) {{\n"
                                 f"  long x = {terms};\n  return (int)(x % 7);\n}}\n")
    r = run("carts", "execute", "--no-arts", "p.c", cwd=workdir)
    assert (r.code, r.stderr) == (4000 % 7, "")


def test_a_loop_body_of_twenty_thousand_terms_parses(workdir):
    # libclang's own parsing thread (8 MiB of stack) overflowed on this chain; the front end
    # parses on its deep stack instead
    terms = " + ".join(f"a[i] * {k % 7 + 1}" for k in range(20_000))
    (workdir / "p.c").write_text(
        "int main(void) {\n  double a[16], b[16];\n"
        "  for (int i = 0; i < 16; i++) a[i] = i;\n"
        f"#pragma omp parallel for\n  for (int i = 0; i < 16; i++)\n    b[i] = {terms};\n"
        "  return (int)(b[15] / 1e6);\n}\n")
    r = run("carts", "cgeist", "p.c", "-fopenmp", "-S", "-o", "p.mlir", cwd=workdir)
    assert (r.code, r.stderr) == (0, "")
    text = (workdir / "p.mlir").read_text()
    assert text.count("arith.addf") == 19_999 and "omp.wsloop" in text


def test_mlir_nested_beyond_the_limit_is_located(workdir):
    depth = 20_001
    (workdir / "deep.mlir").write_text("module {\n" * depth + "}\n" * depth)
    r = run("carts-opt", "deep.mlir", "-o", "out.mlir", cwd=workdir)
    expect_error(r, "nesting deeper than 20000 levels", location=r"deep\.mlir:20001:8")
    expect_only(workdir, "deep.mlir")


def test_braces_in_strings_and_comments_do_not_count(workdir):
    text = ('module attributes {x.s = "' + "{" * 30_000 + '"} {\n// ' + "{" * 30_000
            + "\n}\n")
    (workdir / "braces.mlir").write_text(text)
    r = run("carts-opt", "braces.mlir", cwd=workdir)
    assert r.code == 0, r.stderr[-500:]


def test_thousands_of_nested_regions_go_through_the_stages(workdir):
    depth = 1000
    (workdir / "ifs.mlir").write_text("func.func private @g()\nfunc.func @f(%c: i1) {\n"
                                      + "scf.if %c {\n" * depth + "func.call @g() : () -> ()\n"
                                      + "}\n" * depth + "return\n}\n")
    r = run("carts", "run", "ifs.mlir", "--epochs", "-o", "out.mlir", cwd=workdir)
    assert r.code == 0, r.stderr[-500:]
    assert "func.call @g()" in (workdir / "out.mlir").read_text()
