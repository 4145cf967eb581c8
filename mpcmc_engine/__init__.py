"""mpcmc-engine: a UCI chess engine with numba-compiled core and an MPC-MC meta layer."""

__version__ = "0.1.0"
ENGINE_NAME = "mpcmc-engine"
ENGINE_AUTHOR = "the mpcmc-engine developers"
