"""Inputs that are not what they claim: bytes that are not UTF-8, directories, devices,
closed streams. Each gets a located one-line error, exit 1, and leaves nothing behind."""

import os

import pytest

from promise import BIN, expect_error, expect_only, run

MLIR = "module {\n  func.func @f() { return }\n}\n"
C = "int main(void) {\n  return 0;\n}\n"


@pytest.mark.parametrize("command", [["carts-opt"], ["carts", "run"]])
@pytest.mark.parametrize("where, data, location", [
    ("comment", b"module {\n  // caf\xe9\n}\n", r"bad\.mlir:2:9"),
    ("first byte", b"\xff\xfe", r"bad\.mlir:1:1"),
    ("op name", b"module {\n  func.func @f\x80() { return }\n}\n", r"bad\.mlir:2:15"),
    ("truncated sequence", b"module {}\n// \xe2\x82", r"bad\.mlir:2:4"),
])
def test_mlir_that_is_not_utf8_is_located_at_the_byte(workdir, command, where, data, location):
    (workdir / "bad.mlir").write_bytes(data)
    r = run(*command, "bad.mlir", "-o", "out.mlir", cwd=workdir)
    expect_error(r, r"invalid UTF-8 byte 0x[0-9a-f]{2}", location=location)
    expect_only(workdir, "bad.mlir")


def test_stdin_that_is_not_utf8(workdir):
    r = run("carts-opt", "-", input=b"module {\n}\n \xc3(\n", cwd=workdir)
    expect_error(r, "invalid UTF-8 byte 0xc3", location=r"<stdin>:3:2")


@pytest.mark.parametrize("command, name, data, location", [
    (["carts-opt"], "x.mlir", b"module {\n}\n\x00garbage\n", r"x\.mlir:3:1"),
    (["carts-opt"], "-", b"module {\n  func.func @f() {\x00 return }\n}\n", r"<stdin>:2:19"),
    (["carts", "execute"], "x.c", b"int main(void) {\n  return 0;\x00\n}\n", r"x\.c:2:12"),
])
def test_a_nul_byte_does_not_end_the_input_silently(workdir, command, name, data, location):
    if name != "-":
        (workdir / name).write_bytes(data)
    r = run(*command, name, input=data if name == "-" else None, cwd=workdir)
    expect_error(r, "NUL byte", location=location)


@pytest.mark.parametrize("command", [["carts", "execute"], ["carts", "cgeist", "-S"]])
@pytest.mark.parametrize("data, location", [
    (b"int main(void) {\n  /* na\xefve */\n  return 0;\n}\n", r"bad\.c:2:8"),
    (b"// \xa9 2026\nint main(void) { return 0; }\n", r"bad\.c:1:4"),
    (b'int main(void) {\n  const char *s = "\xff";\n  return s[0];\n}\n', r"bad\.c:2:20"),
])
def test_c_that_is_not_utf8_is_located_at_the_byte(workdir, command, data, location):
    (workdir / "bad.c").write_bytes(data)
    r = run(*command, "bad.c", cwd=workdir)
    expect_error(r, "invalid UTF-8 byte", location=location)
    expect_only(workdir, "bad.c")


@pytest.mark.parametrize("command", [["carts", "execute"], ["carts", "cgeist", "-S"],
                                     ["carts-opt"], ["carts", "run"]])
def test_a_directory_as_input_says_so(workdir, command):
    (workdir / "src.c").mkdir()
    r = run(*command, "src.c", cwd=workdir)
    expect_error(r, "it is a directory", location=r"src\.c")


@pytest.mark.parametrize("command", [["carts", "execute"], ["carts-opt"]])
def test_a_device_as_input_is_not_a_regular_file(workdir, command):
    r = run(*command, "/dev/null", cwd=workdir)
    expect_error(r, "not a regular file", location="/dev/null")


def test_closed_stdin_is_an_error_not_a_traceback(workdir):
    r = run("sh", "-c", f"exec '{BIN / 'carts-opt'}' - <&-", cwd=workdir)  # fd 0 closed
    expect_error(r, "standard input", location="<stdin>")


def test_a_missing_mlir_file(workdir):
    r = run("carts-opt", "nope.mlir", cwd=workdir)
    expect_error(r, "No such file", location=r"nope\.mlir")
    expect_only(workdir)


def test_cgeist_will_not_write_over_its_source(workdir):
    (workdir / "x.c").write_text(C)
    r = run("carts", "cgeist", "x.c", "-S", "-o", "x.c", cwd=workdir)
    expect_error(r, "it is the input file", location=r"x\.c")
    assert (workdir / "x.c").read_text() == C
    expect_only(workdir, "x.c")


@pytest.mark.parametrize("command, output", [
    (["carts", "cgeist", "x.c", "-S", "-o"], "outdir"),
    (["carts-opt", "x.mlir", "-o"], "outdir"),
    (["carts", "cgeist", "x.c", "-S", "-o"], "x.c/out.mlir"),
])
def test_an_output_that_cannot_be_a_file(workdir, command, output):
    (workdir / "x.c").write_text(C)
    (workdir / "x.mlir").write_text(MLIR)
    (workdir / "outdir").mkdir()
    r = run(*command, output, cwd=workdir)
    expect_error(r, "cannot write output", location=output.replace(".", r"\."))
    expect_only(workdir, "x.c", "x.mlir")


@pytest.mark.parametrize("command", [["carts", "execute"], ["carts-opt"],
                                     ["carts", "run", "--epochs"]])
def test_a_file_name_that_is_not_utf8(workdir, command):
    name = os.fsdecode(b"n\xffame.c")
    (workdir / name).write_text(C)
    r = run(*command, name, cwd=workdir)
    expect_error(r, r"argument 'n\\xffame\.c' is not UTF-8")
    expect_only(workdir, name)


def test_emit_llvm_of_a_program_that_does_not_compile_leaves_nothing(workdir):
    (workdir / "u.c").write_text("int main(void) {\n  return undefined_name;\n}\n")
    r = run("carts", "execute", "--emit-llvm", "u.c", cwd=workdir)
    expect_error(r, "undefined_name", location=r"u\.c:2:\d+")
    expect_only(workdir, "u.c")
