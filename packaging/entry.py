"""PyInstaller entry point of the stand-alone executable: the `mpcmc-engine` command line (mpcmc_engine.cli).

`freeze_support` lets spawned worker processes (the `train` command's pool) start from the executable itself.
"""

import multiprocessing
import sys

from mpcmc_engine.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(main())
