"""`python -m mpcmc_engine` is the same program as the `mpcmc-engine` console script."""

import sys

from mpcmc_engine.cli import main

sys.exit(main())
