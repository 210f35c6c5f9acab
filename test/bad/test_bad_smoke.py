"""The promise holds for the simplest bad inputs, and the checker itself can fail."""

import pytest

from promise import Result, expect_error, expect_only, run


def test_missing_c_file(workdir):
    r = run("carts", "execute", "nope.c", cwd=workdir)
    expect_error(r, "no such file|not found", location=r"nope\.c")
    expect_only(workdir)


def test_the_checker_rejects_a_traceback_and_exit_zero():
    with pytest.raises(AssertionError):
        expect_error(Result(0, "", "error: x"))
    with pytest.raises(AssertionError):
        expect_error(Result(1, "", "Traceback (most recent call last):\nerror: x"))
    with pytest.raises(AssertionError):
        expect_error(Result(-11, "", "error: x"))
    expect_error(Result(1, "", "a.c:1:2: error: bad thing"), "bad", location=r"a\.c:1:2")
