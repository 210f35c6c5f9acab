"""Flags that used to be accepted and ignored: each is now an error that says what is wrong,
before any work is done."""

import re

import pytest

from promise import expect_error, expect_only, run

MLIR = "module {\n  func.func @f() { return }\n}\n"


@pytest.fixture
def mlir(workdir):
    (workdir / "ok.mlir").write_text(MLIR)
    return workdir


@pytest.mark.parametrize("flags", [["--create-dbs", "--epochs"],
                                   ["--epochs", "--create-dbs"],
                                   ["--canonicalize-memrefs", "--arts-to-llvm"]])
def test_two_stages_to_stop_after(mlir, flags):
    r = run("carts", "run", "ok.mlir", *flags, "-o", "out.mlir", cwd=mlir)
    expect_error(r, f"two stages to stop after: {flags[0]} and {flags[1]}")
    expect_only(mlir, "ok.mlir")


def test_the_same_stage_twice_is_one_stage(mlir):
    r = run("carts", "run", "ok.mlir", "--create-dbs", "--create-dbs", cwd=mlir)
    assert r.code == 0, r.stderr
    assert "func.func @f" in r.stdout


@pytest.mark.parametrize("channels, unknown", [("nonexistent", "nonexistent"),
                                               ("db,epoch", "epoch"),
                                               ("DB", "DB")])
def test_an_unknown_debug_channel(mlir, channels, unknown):
    r = run("carts", "run", "ok.mlir", "--create-dbs", f"--debug-only={channels}", cwd=mlir)
    m = expect_error(r, f"unknown debug channel '{unknown}'")
    assert "db-partitioning" in m.group("msg")  # it lists the channels there are


def test_an_unknown_debug_channel_from_the_environment(mlir):
    r = run("carts-opt", "ok.mlir", env={"CARTS_DEBUG_ONLY": "typo"}, cwd=mlir)
    expect_error(r, "unknown debug channel 'typo'")


def test_known_channels_and_all_are_accepted(mlir):
    r = run("carts", "run", "ok.mlir", "--create-dbs", "--debug-only=db, epochs,all", cwd=mlir)
    assert r.code == 0, r.stderr


@pytest.mark.parametrize("value", ["", "bogus", "--"])
def test_start_from_must_name_a_stage(mlir, value):
    r = run("carts", "run", "ok.mlir", f"--start-from={value}", "--epochs", cwd=mlir)
    expect_error(r, f"unknown stage '{value}'")


@pytest.mark.parametrize("args", [["--bogus"], ["extra"], ["--create-dbs"]])
def test_pipeline_takes_no_arguments(workdir, args):
    r = run("carts", "pipeline", *args, cwd=workdir)
    expect_error(r, f"takes no arguments \\(got '{args[0]}'\\)")
    assert r.stdout == ""


def test_pipeline_help_is_not_an_error(workdir):
    r = run("carts", "pipeline", "--help", cwd=workdir)
    assert r.code == 0 and "usage: carts pipeline" in r.stdout


@pytest.mark.parametrize("std", ["bogus", "c++17", ""])
def test_an_unknown_c_standard_is_named(workdir, std):
    (workdir / "ok.c").write_text("int main(void) {\n  return 0;\n}\n")
    r = run("carts", "cgeist", "ok.c", "-S", f"-std={std}", cwd=workdir)
    expect_error(r, f"unknown C standard '{re.escape(std)}'")


def test_a_known_c_standard_is_passed_on(workdir):
    (workdir / "ok.c").write_text("int main(void) {\n  return 0;\n}\n")
    r = run("carts", "cgeist", "ok.c", "-S", "-std=gnu11", cwd=workdir)
    assert r.code == 0 and "func.func @main" in r.stdout, r.stderr


@pytest.mark.parametrize("args, message", [([], "a command is required"),
                                           (["benchmarks"], "an action is required"),
                                           (["analyze"], "an analysis is required")])
def test_no_command_prints_the_usage_and_an_error(workdir, args, message):
    r = run("carts", *args, cwd=workdir)
    expect_error(r, message, code=2)
    assert "usage: carts" in r.stderr
    assert r.stdout == ""
