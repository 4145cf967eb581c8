"""PyInstaller runtime hook, run before the entry point: compile for the generic CPU the bundled numba cache was
built for, so that its entries match on every x86-64 machine (numba reads these variables when first imported)."""

import os

os.environ["NUMBA_CPU_NAME"] = "generic"
os.environ.pop("NUMBA_CPU_FEATURES", None)
