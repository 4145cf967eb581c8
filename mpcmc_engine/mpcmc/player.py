"""MPC-MC as the engine sees it: UCI option values in, a decision out; the worker pool kept warm across moves.

Sub-engine command lines are `internal` (this engine started again with `--plain`, so it never recurses) or any
command line, split with shlex and run without a shell. Their UCI options are given as `Name=Value` pairs
separated by `;` (e.g. `Hash=16; Threads=1; UCI_LimitStrength=true; UCI_Elo=1500`). MPCMC_EvaluatorHash is `fresh`
(a new game, so a clean hash, before every evaluator call) or `keep` (the evaluator's hash carries over from call to
call, move to move and game to game).
"""

import os
from dataclasses import dataclass, replace
from typing import Optional

from mpcmc_engine.mpcmc.limits import parse_call_limit
from mpcmc_engine.mpcmc.pool import WorkerPool
from mpcmc_engine.mpcmc.rollout import MODES, Rollout, RolloutSettings
from mpcmc_engine.uci.options import EMPTY
from mpcmc_engine.uci_process import EngineSpec, parse_engine_command, parse_option, this_engine_command

INTERNAL = "internal"
# this engine as a sub-engine is a local pipe away: no lag to allow for (with the default 30 ms, a 50 ms call searched
# for 29 ms; with 0, for 48 ms and 2.4 times the nodes)
INTERNAL_OPTIONS = {"Move Overhead": 0}
DEFAULT_WORKERS = max(1, os.cpu_count() or 1)


def parse_option_pairs(text: Optional[str]) -> dict:
    """`Name=Value; Name=Value` -> {name: value}; raise ValueError naming the malformed pair."""
    return dict(parse_option(pair) for pair in (text or "").split(";") if pair.strip())


def engine_spec(command_text: Optional[str], options_text: Optional[str], role: str) -> EngineSpec:
    """EngineSpec for a role from its option values (`internal` or a command line; `internal` starts with
    INTERNAL_OPTIONS unless the options given say otherwise); raise ValueError if malformed."""
    text = (command_text or INTERNAL).strip()
    options = parse_option_pairs(options_text)
    if text.lower() == INTERNAL:
        return EngineSpec(tuple(this_engine_command("--plain")), role, {**INTERNAL_OPTIONS, **options})
    return EngineSpec(tuple(parse_engine_command(text)), role, options)


@dataclass(frozen=True)
class MpcmcConfig:
    """Everything the MPC-MC options say; `mode` is 'off' or one of MODES."""
    mode: str = "off"
    evaluator: Optional[EngineSpec] = None
    opponent: Optional[EngineSpec] = None
    workers: int = DEFAULT_WORKERS
    rollout: RolloutSettings = RolloutSettings()

    @property
    def enabled(self) -> bool:
        return self.mode in MODES


def config_from_options(values: dict) -> MpcmcConfig:
    """Build the configuration from option values (keys as the UCI options are named, `<empty>` for an empty
    string); raise ValueError naming what is malformed."""
    values = {name: "" if value == EMPTY else value for name, value in values.items()}
    mode = values.get("MPCMC", "off").lower()
    if mode != "off" and mode not in MODES:
        raise ValueError(f"MPCMC must be off, half, one or two, not {mode!r}")
    evaluator_hash = values.get("MPCMC_EvaluatorHash", "fresh").lower()
    if evaluator_hash not in ("fresh", "keep"):
        raise ValueError(f"MPCMC_EvaluatorHash must be fresh or keep, not {evaluator_hash!r}")
    settings = RolloutSettings(
        mode=mode if mode in MODES else "one",
        fortify=bool(values.get("MPCMC_Fortify", False)),
        two_step_keep=int(values.get("MPCMC_TwoStepKeep", 25)) / 100,
        fresh_evaluator=evaluator_hash == "fresh",
        eval_limit=parse_call_limit(values.get("MPCMC_EvalLimit", "auto")),
        opponent_limit=parse_call_limit(values.get("MPCMC_OpponentLimit", "auto")),
    )
    return MpcmcConfig(
        mode=mode,
        evaluator=engine_spec(values.get("MPCMC_Evaluator"), values.get("MPCMC_EvaluatorOptions"), "evaluator"),
        opponent=engine_spec(values.get("MPCMC_Opponent"), values.get("MPCMC_OpponentOptions"), "opponent"),
        workers=int(values.get("MPCMC_Workers", DEFAULT_WORKERS)),
        rollout=settings,
    )


class MpcmcPlayer:
    """Owns the worker pool for the current configuration and makes decisions with it."""

    def __init__(self):
        self.config = MpcmcConfig()
        self._pool = None

    def configure(self, config: MpcmcConfig) -> None:
        """Adopt a configuration; the pool is rebuilt only when its engines or size change."""
        if self._pool is not None and (config.evaluator, config.opponent, config.workers) != (
                self.config.evaluator, self.config.opponent, self.config.workers):
            self.close()
        self.config = config

    def _ensure_pool(self) -> WorkerPool:
        if self._pool is None:
            self._pool = WorkerPool(self.config.workers, self.config.evaluator, self.config.opponent)
        return self._pool

    def fits(self, legal_moves: int, seconds: float) -> bool:
        """Whether the first level (every one of `legal_moves`: the first step is exact) can be scored in
        `seconds` on the configured workers."""
        return self.config.rollout.first_step_seconds(legal_moves, self.config.workers) <= seconds

    def warm_up(self) -> None:
        """Start the sub-engine processes now (so that the first move does not pay for it)."""
        self._ensure_pool().start(with_opponents=self.config.mode != "half")

    def decide(self, board, budget_seconds, deadline, stop_event=None, fallback=None, call_limit=None):
        """Decision for `board` under the current configuration (see Rollout.decide); `call_limit` replaces the
        `auto` per-call limits (e.g. `go nodes N` gives every sub-engine call N nodes)."""
        settings = self.config.rollout
        if call_limit is not None:
            settings = replace(
                settings, eval_limit=call_limit if settings.eval_limit.is_auto else settings.eval_limit,
                opponent_limit=call_limit if settings.opponent_limit.is_auto else settings.opponent_limit)
        return Rollout(self._ensure_pool(), settings).decide(board, budget_seconds, deadline, stop_event, fallback)

    def close(self) -> None:
        """Quit every sub-engine process."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None
