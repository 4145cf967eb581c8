"""Experiment scripts measure the checkout they live in, not whatever copy pip installed (`pip install .` copies the
package into site-packages, where it may be older than the checkout)."""

import os
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent


def use_checkout() -> Path:
    """Make this checkout's `mpcmc_engine` the one imported from now on, here and by every engine process started
    from here (`python -m mpcmc_engine` reads PYTHONPATH); return the checkout's root. Call before importing it."""
    sys.path.insert(0, str(REPOSITORY))
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPOSITORY), os.environ.get("PYTHONPATH", "")]))
    return REPOSITORY
