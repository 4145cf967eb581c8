"""The engine's UCI options: one table of declarations, each with the action a new value triggers, their `option ...`
lines, and validation of `setoption` values.

Standard UCI types only (check, spin with integer bounds, combo, button, string), as every client requires. Names are
matched case-insensitively. Values are kept as Python values: bool (check), int (spin), str (combo: the declared
spelling; string: as given, `<empty>` for none). Standard library only: imported before `uciok`, so an option names
its action (`on_change`, a method of mpcmc_engine.uci.engine.Engine) rather than referring to it; an option without
one is only read when the next `go` starts.

`UCI_LimitStrength`/`UCI_Elo` and `Skill Level` choose a weaker level (mpcmc_engine.uci.strength).
`Move Overhead` (ms, default 30) is kept back from the clock for this move and, up to a share of the clock, for the
moves after it (see timeman): it covers the GUI's, the network's and the operating system's latency.
"""

import os
from dataclasses import dataclass

from mpcmc_engine.uci.strength import MAX_ELO, MAX_SKILL, MIN_ELO

EMPTY = "<empty>"
DEFAULT_EVALUATION = "<network>"   # EvalFile default: the shipped network (eval.eval_file.SHIPPED_EVALUATIONS)
SHIPPED_POLICY = "<policy>"        # PolicyFile: the shipped policy (its logits added to mcts's priors)
NO_POLICY = "<none>"               # PolicyFile default: no policy (docs/MCTS.md: the shipped one measured no gain)


@dataclass(frozen=True)
class Option:
    """One declared option: `kind` is check|spin|combo|button|string; `low`/`high` bound spins; `choices` list combos;
    `on_change` names the Engine method that applies a new value ('' when none is needed)."""

    name: str
    kind: str
    default: object = None
    low: int = 0
    high: int = 0
    choices: tuple = ()
    on_change: str = ""

    def declaration(self) -> str:
        """The `option name ... type ...` line announced after `uci`."""
        line = f"option name {self.name} type {self.kind}"
        if self.kind == "check":
            line += f" default {'true' if self.default else 'false'}"
        elif self.kind == "spin":
            line += f" default {self.default} min {self.low} max {self.high}"
        elif self.kind == "combo":
            line += f" default {self.default}" + "".join(f" var {choice}" for choice in self.choices)
        elif self.kind == "string":
            line += f" default {self.default}"
        return line

    def parse(self, text: str):
        """The value `text` stands for; raise ValueError with a readable reason when it is not acceptable."""
        text = text.strip()
        if self.kind == "button":
            return None
        if self.kind == "check":
            if text.lower() not in ("true", "false"):
                raise ValueError(f"{self.name} takes true or false, not {text!r}")
            return text.lower() == "true"
        if self.kind == "spin":
            try:
                value = int(text)
            except ValueError:
                raise ValueError(f"{self.name} takes an integer, not {text!r}") from None
            if not self.low <= value <= self.high:
                raise ValueError(f"{self.name} must be between {self.low} and {self.high}, not {value}")
            return value
        if self.kind == "combo":
            for choice in self.choices:
                if choice.lower() == text.lower():
                    return choice
            raise ValueError(f"{self.name} takes one of {', '.join(self.choices)}, not {text!r}")
        return text or EMPTY


OPTIONS = (
    Option("Hash", "spin", 16, 1, 65536, on_change="resize_hash"),
    Option("Threads", "spin", 1, 1, 256, on_change="set_threads"),
    Option("MultiPV", "spin", 1, 1, 256),
    Option("Ponder", "check", False),
    Option("Move Overhead", "spin", 30, 0, 5000),
    Option("UCI_Chess960", "check", False),
    Option("UCI_ShowWDL", "check", False),
    Option("UCI_LimitStrength", "check", False),
    Option("UCI_Elo", "spin", MAX_ELO, MIN_ELO, MAX_ELO),
    Option("Skill Level", "spin", MAX_SKILL, 0, MAX_SKILL),
    Option("SyzygyPath", "string", EMPTY, on_change="open_tablebases"),
    Option("SearchAlgorithm", "combo", "pvs", choices=("pvs", "mtdbi", "mcts", "mcts-rollout"),
           on_change="prepare_search"),
    Option("EvalFile", "string", DEFAULT_EVALUATION, on_change="load_eval_file"),
    Option("PolicyFile", "string", NO_POLICY, on_change="load_policy_file"),
    Option("Clear Hash", "button", on_change="clear_hash"),
)

# The MPC-MC meta layer's options (mpcmc_engine.mpcmc.config reads them); absent in `--plain` mode, so that an
# engine started as a sub-engine can never recurse into MPC-MC.
MPCMC_OPTIONS = (
    Option("MPCMC", "combo", "off", choices=("off", "half", "one", "two"), on_change="configure_mpcmc"),
    Option("MPCMC_Evaluator", "string", "internal", on_change="configure_mpcmc"),
    Option("MPCMC_Opponent", "string", "internal", on_change="configure_mpcmc"),
    Option("MPCMC_EvaluatorOptions", "string", EMPTY, on_change="configure_mpcmc"),
    Option("MPCMC_OpponentOptions", "string", EMPTY, on_change="configure_mpcmc"),
    Option("MPCMC_Workers", "spin", max(1, os.cpu_count() or 1), 1, 64, on_change="configure_mpcmc"),
    Option("MPCMC_Cluster", "string", "local", on_change="configure_mpcmc"),
    Option("MPCMC_Fortify", "check", False, on_change="configure_mpcmc"),
    Option("MPCMC_EvalLimit", "string", "auto", on_change="configure_mpcmc"),
    Option("MPCMC_OpponentLimit", "string", "auto", on_change="configure_mpcmc"),
    Option("MPCMC_TwoStepKeep", "spin", 25, 1, 100, on_change="configure_mpcmc"),
    Option("MPCMC_TwoStepRank", "combo", "evaluator", choices=("evaluator", "opponent"), on_change="configure_mpcmc"),
    Option("MPCMC_EvaluatorHash", "combo", "fresh", choices=("fresh", "keep"), on_change="configure_mpcmc"),
    Option("MPCMC_Candidates", "spin", 0, 0, 64, on_change="configure_mpcmc"),
    Option("MPCMC_PlainShare", "spin", 50, 5, 95, on_change="configure_mpcmc"),
    Option("MPCMC_MinCallMs", "spin", 0, 0, 10000, on_change="configure_mpcmc"),
    Option("UCI_ShowMPCMC", "check", False),
)


def plain_values(values: dict) -> dict:
    """The option values with every EMPTY as "": what the layers below, which know no `<empty>`, are given."""
    return {name: "" if value == EMPTY else value for name, value in values.items()}


def declared_options(plain: bool) -> tuple:
    """The options this engine declares: all of them, or without MPC-MC's in `--plain` mode."""
    return OPTIONS if plain else OPTIONS + MPCMC_OPTIONS


class Options:
    """Current option values, keyed by declared name; nothing changes until `store`."""

    def __init__(self, plain: bool = False):
        self.declared = declared_options(plain)
        self._by_key = {option.name.lower(): option for option in self.declared}
        self.values = {option.name: option.default for option in self.declared if option.kind != "button"}

    def __getitem__(self, name: str):
        return self.values[name]

    def declarations(self) -> list:
        """The `option` lines, in table order."""
        return [option.declaration() for option in self.declared]

    def parse(self, name: str, text) -> tuple:
        """(declared Option, parsed value) for `setoption name <name> [value <text>]`; raise ValueError if unacceptable.

        Nothing is stored: the caller stores the value with `store` once it has been applied successfully.
        """
        option = self._by_key.get(name.strip().lower())
        if option is None:
            raise ValueError(f"no such option {name.strip()!r}")
        if text is None and option.kind != "button":
            raise ValueError(f"option {option.name} needs a value")
        return option, option.parse(text or "")

    def with_value(self, name: str, value) -> dict:
        """The option values as they would be with `name` set to `value` (the current ones are left unchanged)."""
        return {**self.values, name: value} if name in self.values else dict(self.values)

    def store(self, name: str, value) -> None:
        """Record the value of a declared option (buttons keep nothing)."""
        if name in self.values:
            self.values[name] = value
