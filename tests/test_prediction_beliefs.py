"""Wrong predictions read with another op's semantics, or along another dim, on the
book's own prediction exercises: the first step names which rule the answer follows,
and the fix says what the op does instead (answers written for these tests, not
collected ones)."""

from __future__ import annotations

from gatherlab.exercises import EXERCISES


def test_a_gather_predicted_along_the_other_dim_gets_a_traced_fix():
    # torch.gather(x, 0, rows) predicted as if rows counted along dim 1
    result = EXERCISES["01.predict_rows"].check([[11, 11, 10], [20, 20, 21]])
    assert result.verdict.misconception == "other-dim"
    assert "rows count along dim 0 (a row in each column)" in result.message
    assert result.fix == (
        "Each entry of rows sets the coordinate on dim 0; out keeps its own "
        "coordinates on the other dims: out[0, 0] reads x[1, 0] = 20 because "
        "rows[0, 0] = 1."
    )
