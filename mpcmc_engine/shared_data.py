"""Where the project's shared data lives (openings, tactical suites, perft counts; provenance in its README): the
directory named by MPCMC_SHARED_DATA, else `../shared/data` beside the checkout, else `../shared/data` from the
working directory (a `pip install .` copies the package away from its checkout, but its user still runs it from
there). Only paths: whoever opens a file reports its absence."""

import os
from pathlib import Path


def _shared_data() -> Path:
    """The first of the candidate directories that exists; the checkout's when none does (so errors name it)."""
    named = os.environ.get("MPCMC_SHARED_DATA")
    if named:
        return Path(named)
    beside_checkout = Path(__file__).resolve().parents[2] / "shared" / "data"
    from_working_directory = Path.cwd().resolve().parent / "shared" / "data"
    return next((path for path in (beside_checkout, from_working_directory) if path.is_dir()), beside_checkout)


SHARED_DATA = _shared_data()
# the slightly unbalanced 4-move openings of the MPC-MC experiments and the learning curve's matches
EXPERIMENT_OPENINGS = SHARED_DATA / "openings" / "4mvs_+90_+99.epd"
WAC = SHARED_DATA / "tactical" / "wac.epd"
