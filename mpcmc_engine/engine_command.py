"""Command lines of UCI engines: user-given strings and the command that starts this engine itself."""

import os
import shlex
import sys


def parse_engine_command(text: str) -> list:
    """Split a user-given engine command line with shlex (no shell is ever used); raise ValueError if empty."""
    parts = shlex.split(text)
    if not parts:
        raise ValueError("empty engine command")
    return parts


def this_engine_command(*arguments: str) -> list:
    """Return the argv that starts this engine (frozen executable or `python -m mpcmc_engine`) plus `arguments`."""
    if getattr(sys, "frozen", False):
        return [sys.executable, *arguments]
    return [sys.executable, "-m", "mpcmc_engine", *arguments]


def describe_command(command) -> str:
    """Return a short human-readable name for an engine command (its executable's base name)."""
    return os.path.basename(command[0]) if command else "?"
