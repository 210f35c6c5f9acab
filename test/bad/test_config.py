"""A bad ARTS configuration is reported at its own line, before anything is compiled, and
counts the runtime would refuse are refused up front, from the file, the environment or a
flag."""

import pytest

from promise import expect_error, expect_only, run

C = "int main(void) {\n  return 0;\n}\n"


@pytest.mark.parametrize("line, message, location", [
    (b"threads=\xff", "invalid UTF-8 byte 0xff", r"arts\.cfg:2:9"),
    (b"threads=abc", r"threads must be an integer in 1\.\.4096, got 'abc'", r"arts\.cfg:2"),
    (b"threads=100000", r"threads must be an integer in 1\.\.4096, got '100000'", r"arts\.cfg:2"),
    (b"threads=0", r"threads must be an integer in 1\.\.4096", r"arts\.cfg:2"),
    (b"nodeCount=1000000", r"nodeCount must be an integer in 1\.\.256", r"arts\.cfg:2"),
    (b"nodeCount=-2", r"nodeCount must be an integer in 1\.\.256", r"arts\.cfg:2"),
    (b"just words", "expected key=value, got 'just words'", r"arts\.cfg:2"),
])
@pytest.mark.parametrize("command", [["carts", "execute", "ok.c"],
                                     ["carts", "run", "ok.mlir", "--concurrency"]])
def test_a_bad_line_is_located_in_the_configuration(workdir, command, line, message, location):
    (workdir / "ok.c").write_text(C)
    (workdir / "ok.mlir").write_text("module {\n}\n")
    (workdir / "arts.cfg").write_bytes(b"[ARTS]\n" + line + b"\n")
    r = run(*command, cwd=workdir)
    expect_error(r, message, location=location)
    expect_only(workdir, "ok.c", "ok.mlir", "arts.cfg")


def test_keys_of_other_sections_are_not_checked(workdir):
    (workdir / "ok.c").write_text(C)
    (workdir / "arts.cfg").write_text("[ARTS]\nthreads=2\n[Other]\nthreads=many\n")
    r = run("carts", "execute", "ok.c", cwd=workdir)
    assert r.code == 0, r.stderr


@pytest.mark.parametrize("args, env, message", [
    (["--threads", "5000"], {}, r"--threads must be an integer in 1\.\.4096, got '5000'"),
    (["--threads=0"], {}, r"--threads must be an integer in 1\.\.4096, got '0'"),
    (["--nodes", "1000"], {}, r"--nodes must be an integer in 1\.\.256, got '1000'"),
    ([], {"nodeCount": "x"}, "environment variable nodeCount must be an integer"),
    ([], {"artsConfig": "missing.cfg"}, "named by artsConfig does not exist"),
])
def test_counts_out_of_range_are_refused_before_compiling(workdir, args, env, message):
    (workdir / "ok.c").write_text(C)
    r = run("carts", "execute", *args, "ok.c", env=env, cwd=workdir)
    expect_error(r, message)
    expect_only(workdir, "ok.c")
