"""Where the shared test data lives (mpcmc_engine.shared_data: $MPCMC_SHARED_DATA or ../shared/data); tests skip
when it is absent."""

from pathlib import Path

import pytest

from mpcmc_engine.shared_data import SHARED_DATA


def data_file(relative: str) -> Path:
    """Path of a shared data file; skip the calling test with a clear message when it is missing."""
    path = SHARED_DATA / relative
    if not path.is_file():
        pytest.skip(f"shared test data {path} not found (expected $MPCMC_SHARED_DATA or ../shared/data beside the "
                    "repository)")
    return path
