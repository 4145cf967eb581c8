"""UCI engines to start: user-given command lines, the command that starts this engine itself, and EngineSpec."""

import os
import shlex
import sys
from dataclasses import dataclass, field


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


def parse_option(text: str) -> tuple:
    """Split a `NAME=VALUE` option argument into (name, value); raise ValueError without `=` or a name."""
    name, separator, value = text.partition("=")
    if not separator or not name.strip():
        raise ValueError(f"option {text!r} is not NAME=VALUE")
    return name.strip(), value.strip()


@dataclass(frozen=True)
class EngineSpec:
    """How to start one engine: argv (no shell), display name, and UCI options set after the handshake."""

    command: tuple
    name: str = ""
    options: dict = field(default_factory=dict)

    @property
    def display_name(self) -> str:
        """The given name, or the executable's base name."""
        return self.name or describe_command(self.command)
