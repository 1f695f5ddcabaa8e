"""The canonical form that every record's hash is computed over never changes: whichever way it
is written, it is the standard library's compact, key-sorted, unescaped JSON, so every record
ever sealed still verifies."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.kernel.log import canonical


def standard(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


keys = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)
scalars = (
    st.none()
    | st.booleans()
    | st.integers()  # past 64 bits too
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=24)
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=6) | st.dictionaries(keys, inner, max_size=6))


@settings(max_examples=1000, deadline=None)
@given(values)
def test_the_canonical_form_is_the_standard_librarys(value: Any) -> None:
    assert canonical(value) == standard(value)


@pytest.mark.parametrize(
    "value",
    [
        {"b": 1, "a": [True, None, '\u2028\x00\x1f\x7f"\\é\U0001f600']},
        {"exponent": 1e16, "small": 1.5e-05, "whole": 100.0},  # floats: written as the standard library does
        {"big": 2**64, "negative": -(2**63) - 1},  # past orjson's 64 bits
        {"nested": [{"z": 0, "y": {"x": [1, 2, 3]}}]},
        [1, (2, 3)],  # a tuple is an array
        {1: "a key that is no string"},
    ],
)
def test_edge_values_keep_the_standard_form(value: Any) -> None:
    assert canonical(value) == standard(value)


@pytest.mark.parametrize("number", [math.nan, math.inf, -math.inf])
def test_non_finite_numbers_are_never_hashed(number: float) -> None:
    with pytest.raises(ValueError):
        canonical({"data": [number]})
