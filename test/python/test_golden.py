"""carts_mlir.tools.golden: the normalisation examples, run through ARTS, against float64 NumPy."""

import json
import math

import numpy as np
import pytest

from carts_mlir.tools import golden
from carts_mlir.errors import CartsError

ALL_CASES = golden.cases("batchnorm") + golden.cases("layernorm")
# Run through ARTS here: every shape with the LCG weights (the general case), and the edge
# inputs (constant, large, tiny eps) with every weight kind. The kernels' code is the same for
# every weight kind, which only changes the values gamma and beta start from; `carts golden`
# runs all 54.
TESTED_CASES = [c for c in ALL_CASES if c.edge or c.weights == 3]
PROBE = next(c for c in ALL_CASES if c.name == "layernorm-4x128-w3")


@pytest.fixture(scope="module")
def arts_results(request) -> dict[str, golden.CaseResult]:
    """Every selected case of this module, compiled and run two at a time, once."""
    wanted: dict[str, golden.Case] = {}
    for item in request.session.items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if item.module is request.module and isinstance(params.get("case"), golden.Case):
            wanted[params["case"].name] = params["case"]
    return {r.case.name: r for r in golden.run_cases(list(wanted.values()), threads=2)}


# --------------------------------------------------------------------------- through ARTS


@pytest.mark.parametrize("case", TESTED_CASES, ids=lambda c: c.name)
def test_arts_output_matches_golden(case, arts_results):
    r = arts_results[case.name]
    assert r.error is None, f"{r.error}\nreproduce with: {r.reproduce}"
    cmp = r.comparison
    assert r.actual.shape == case.c_shape and np.isfinite(r.actual).all()
    assert not cmp.nonfinite
    if not case.edge:
        assert cmp.pcc > 0.999, cmp
        assert cmp.allclose, cmp
    elif math.isnan(cmp.pcc):
        assert cmp.allclose, cmp
    else:
        assert cmp.pcc > 0.99, cmp
    assert r.passed


@pytest.mark.parametrize("case", [PROBE], ids=lambda c: c.name)
def test_plausible_kernel_mistakes_are_caught(case, arts_results):
    """Outputs a buggy kernel could print, built from the inputs the program printed, fail."""
    r = arts_results[case.name]
    assert r.passed
    x = r.dump["x"].astype(np.float64)
    gamma, beta, eps = r.dump["gamma"], r.dump["beta"], float(r.dump["eps"])
    mean, var = x.mean(axis=1, keepdims=True), x.var(axis=1, keepdims=True)

    one_off = r.actual.astype(np.float64)
    one_off[1, 7] += 1e-3
    unbiased = (x - mean) / np.sqrt(x.var(axis=1, ddof=1, keepdims=True) + eps) * gamma + beta
    other_stats = r.expected.copy()
    other_stats[1] = (x[1] - mean[0]) / np.sqrt(var[0] + eps) * gamma + beta
    mistakes = {"one element off by 1e-3": one_off, "unbiased variance": unbiased,
                "row 1 with row 0's statistics": other_stats, "beta left out": r.actual - beta}
    for what, wrong in mistakes.items():
        assert not golden.compare(wrong, r.expected).passes(edge=False), what


def test_constant_input_gives_beta_exactly(arts_results):
    constant = [r for r in arts_results.values() if r.case.inputs == "constant"]
    assert {r.case.kernel for r in constant} == {"batchnorm", "layernorm"}
    for r in constant:
        assert np.array_equal(r.actual, r.expected), r.case.name


# --------------------------------------------------------------------------- the maths


def test_layernorm_golden_by_hand():
    x = np.array([[0.0, 0.0, 4.0, 4.0], [1.0, 3.0, 1.0, 3.0]])  # means 2, 2; variances 4, 1
    y = golden.layernorm_golden(x, np.array([1.0, 1.0, 2.0, 2.0]), np.full(4, 0.5), eps=0.0)
    np.testing.assert_array_equal(y, [[-0.5, -0.5, 2.5, 2.5], [-0.5, 1.5, -1.5, 2.5]])


def test_batchnorm_golden_by_hand():
    # channel 0 holds 0, 4, 0, 4 (mean 2, variance 4); channel 1 holds 1, 1, 3, 3
    x = np.array([[[0.0, 4.0], [1.0, 1.0]], [[0.0, 4.0], [3.0, 3.0]]])
    mean, var = golden.batchnorm_stats(x)
    np.testing.assert_array_equal(mean, [2.0, 2.0])
    np.testing.assert_array_equal(var, [4.0, 1.0])
    y = golden.batchnorm_golden(x, np.array([3.0, 1.0]), np.array([1.0, 0.0]), eps=0.0)
    np.testing.assert_array_equal(y, [[[-2.0, 4.0], [-1.0, -1.0]], [[-2.0, 4.0], [1.0, 1.0]]])


def test_batchnorm_golden_is_layernorm_over_channels():
    """Batch norm of [N, C, HW] is layer norm of each channel's N*HW values, then the
    per-channel affine: an independent route to the same numbers."""
    rng = np.random.default_rng(7)
    x = rng.normal(3.0, 2.0, size=(3, 5, 8))
    gamma, beta = rng.uniform(0.5, 1.5, 5), rng.uniform(-1, 1, 5)
    by_channel = x.transpose(1, 0, 2).reshape(5, -1)
    normalised = golden.layernorm_golden(by_channel, np.ones(24), np.zeros(24), eps=1e-5)
    expected = (normalised * gamma[:, None] + beta[:, None]).reshape(5, 3, 8).transpose(1, 0, 2)
    np.testing.assert_allclose(golden.batchnorm_golden(x, gamma, beta, 1e-5), expected,
                               rtol=1e-13, atol=1e-13)
    # a 2-D [B, F] input is N=B, C=F with H=W=1
    flat = x[:, :, 0]
    np.testing.assert_allclose(golden.batchnorm_golden(flat, gamma, beta, 1e-5),
                               golden.batchnorm_golden(x[:, :, :1], gamma, beta, 1e-5)[:, :, 0],
                               rtol=1e-13, atol=1e-13)


def test_pcc_values_and_its_constant_rule():
    a = np.arange(10.0)
    assert golden.pcc(a, 2 * a + 1) == pytest.approx(1.0)
    assert golden.pcc(a, -a) == pytest.approx(-1.0)
    assert golden.pcc(np.full(4, 0.5), np.full(4, 0.5)) == 1.0
    assert math.isnan(golden.pcc(np.full(4, 0.5), np.full(4, 0.25)))
    assert math.isnan(golden.pcc(np.full(4, 0.5), np.arange(4.0)))
    assert math.isnan(golden.pcc(np.array([1.0, np.nan, 3.0]), np.array([1.0, 2.0, 3.0])))


def test_compare_flags_wrong_outputs():
    rng = np.random.default_rng(1)
    expected = rng.normal(size=(4, 128))
    good = golden.compare(expected.astype(np.float32), expected)
    assert good.passes() and good.allclose and good.pcc > 0.999999
    wrong = expected.copy()
    wrong[2, 5] += 5e-3
    bad = golden.compare(wrong, expected)
    assert not bad.allclose and not bad.passes() and bad.max_abs_err == pytest.approx(5e-3)
    assert bad.passes(edge=True)  # still correlated: the edge criteria only ask for PCC > 0.99
    wrong[0, 0] = np.inf
    inf = golden.compare(wrong, expected)
    assert inf.nonfinite and not inf.passes(edge=True)
    # a wrong constant: PCC undefined, so the edge criteria fall back to allclose
    const = golden.compare(np.full(8, 1.0), np.full(8, 1.5))
    assert math.isnan(const.pcc) and const.constant and not const.passes(edge=True)
    with pytest.raises(ValueError, match="shape"):
        golden.compare(np.zeros(3), np.zeros(4))


def test_edge_criteria_are_looser_than_normal():
    near = golden.Comparison(pcc=0.995, max_abs_err=1e-2, allclose=False, nonfinite=False)
    assert near.passes(edge=True) and not near.passes(edge=False)


# --------------------------------------------------------------------------- the plumbing


def test_dump_round_trips_exactly():
    values = np.random.default_rng(3).normal(size=(2, 3)).astype(np.float32)
    rows = "\n".join(" ".join(float(v).hex() for v in row) for row in values)
    text = (f"kernel.layernorm: 0.1s\nchecksum: 1\ndump eps {float(np.float32(1e-5)).hex()}\n"
            f"dump x 2 3\n{rows}\ndump gamma 3\n0x1p+0 -nan inf\ndump end\n")
    dump = golden.parse_dump(text)
    np.testing.assert_array_equal(dump["x"], values)
    assert float(dump["eps"]) == float(np.float32(1e-5))
    assert math.isnan(dump["gamma"][1]) and dump["gamma"][2] == np.inf
    with pytest.raises(CartsError, match="dump end"):
        golden.parse_dump(text.replace("dump end\n", ""))
    with pytest.raises(CartsError, match="ends after 3 of 6"):
        golden.parse_dump("dump x 2 3\n0x1p+0 0x1p+0 0x1p+0\n")


def test_case_shapes_map_to_the_c_defines():
    bn = golden.Case("batchnorm", (2, 2, 512), 3)
    assert bn.c_shape == (2, 2, 512)
    assert bn.defines() == ["BN_N=2", "BN_C=2", "BN_H=1", "BN_W=512", "BN_INPUT=0",
                            "BN_WEIGHTS=3", "BN_DUMP"]
    assert golden.Case("batchnorm", (32, 32), 1).c_shape == (32, 32, 1)
    ln = golden.Case("layernorm", (2, 2, 512), 1, "large", "1e-12f")
    assert ln.c_shape == (4, 512) and ln.edge
    assert ln.defines() == ["LN_BATCH=4", "LN_HIDDEN=512", "LN_INPUT=2", "LN_WEIGHTS=1",
                            "LN_EPS=1e-12f", "LN_DUMP"]
    assert len(ALL_CASES) == len({c.name for c in ALL_CASES}) == 2 * (6 * 3 + 3 * 3)


def test_golden_main_rejects_an_unknown_kernel():
    with pytest.raises(CartsError, match="invalid choice"):
        golden.golden_main(["softmax"])


def test_a_failing_build_is_a_failed_case_with_its_reproducer(tmp_path):
    source = tmp_path / "ml-kernels" / "layernorm" / "layernorm.c"
    source.parent.mkdir(parents=True)
    source.write_text("int main(void) {\n  return undeclared;\n}\n")
    case = golden.Case("layernorm", (1, 32), 2)
    [r] = golden.run_cases([case], paths=golden.Paths(tmp_path))
    assert not r.passed and r.comparison is None
    assert f"{source}:2:10: error: use of undeclared identifier" in r.error
    assert r.reproduce.endswith(f"carts execute {source} -O3 -I {tmp_path / 'include'} "
                                "-DLN_BATCH=1 -DLN_HIDDEN=32 -DLN_INPUT=0 -DLN_WEIGHTS=2 -DLN_DUMP")


@pytest.mark.parametrize("case", [PROBE], ids=lambda c: c.name)
def test_report_row_and_json(case, arts_results):
    from rich.console import Console

    r = arts_results[case.name]
    console = Console(record=True, width=200)
    console.print(golden._table([r]))
    row = next(line for line in console.export_text().splitlines() if case.name in line)
    assert "[4,128]" in row and "random" in row and "✓ pass" in row and "0.99999999999" in row
    data = json.loads(json.dumps(r.to_json()))
    assert data["passed"] and data["pcc"] == r.comparison.pcc and data["allclose"]
    assert data["max_abs_err"] == r.comparison.max_abs_err < 1e-5
