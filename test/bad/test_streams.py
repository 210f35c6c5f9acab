"""Standard streams that are closed or lead to a full disk: a one-line error and exit 1
where output is lost, never a traceback or an abort; a closed stdin or stdout does not make
a later file take its descriptor."""

import os
import stat
import threading

import pytest

from promise import BIN, expect_error, run

C = "int main(void) {\n  return 0;\n}\n"
MLIR = "module {\n}\n"

COMMANDS = {
    "carts-opt": "carts-opt ok.mlir",
    "carts run": "carts run ok.mlir --epochs",
    "cgeist": "carts cgeist ok.c -S",
    "pipeline": "carts pipeline",
    "benchmarks list": "carts benchmarks list",
}


@pytest.fixture
def inputs(workdir):
    (workdir / "ok.c").write_text(C)
    (workdir / "ok.mlir").write_text(MLIR)
    return workdir


def shell(line: str, cwd):
    return run("sh", "-c", f"PATH='{BIN}':\"$PATH\"; exec {line}", cwd=cwd)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("name", list(COMMANDS))
def test_stdout_on_a_full_disk(inputs, name):
    r = shell(f"{COMMANDS[name]} > /dev/full", inputs)
    expect_error(r, "cannot write to standard output: No space left on device")


@pytest.mark.parametrize("name", list(COMMANDS))
def test_stdout_closed(inputs, name):
    r = shell(f"{COMMANDS[name]} >&-", inputs)
    expect_error(r, "cannot write to standard output: it is closed")


@pytest.mark.parametrize("redirect", ["<&-", ">&-", "<&- >&-"])
def test_execute_with_a_closed_stream_runs(inputs, redirect):
    r = shell(f"carts execute ok.c {redirect}", inputs)
    assert (r.code, r.stderr) == (0, "")
    assert (inputs / "ok_arts").is_file()


def test_stderr_closed_still_exits_1_on_bad_input(inputs):
    r = shell("carts execute missing.c 2>&-", inputs)
    assert (r.code, r.stdout) == (1, "")


def test_an_output_pipe_is_written_in_place_not_replaced(inputs):
    """As ``-o /dev/null`` is: a file that is not a regular file is not renamed over (a
    FIFO here, so that a regression cannot replace a device of the machine)."""
    fifo = inputs / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    r = run("carts-opt", "ok.mlir", "-o", "pipe", cwd=inputs)
    if reader.is_alive():  # nothing opened the pipe: release the reader
        with open(fifo, "w"):
            pass
    reader.join()
    assert (r.code, r.stderr) == (0, ""), r.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert received and "module" in received[0]
