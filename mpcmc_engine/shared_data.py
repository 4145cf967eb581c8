"""Where the project's shared data lives in a checkout: `../shared/data` beside the repository (openings, tactical
suites, perft counts; provenance in its README). Only paths: whoever opens a file reports its absence."""

from pathlib import Path

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
# the slightly unbalanced 4-move openings of the MPC-MC experiments and the learning curve's matches
EXPERIMENT_OPENINGS = SHARED_DATA / "openings" / "4mvs_+90_+99.epd"
WAC = SHARED_DATA / "tactical" / "wac.epd"
