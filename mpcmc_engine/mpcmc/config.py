"""The MPC-MC options: their values (keyed as the UCI options are named) parsed into an MpcmcConfig.

Sub-engine command lines are `internal` (this engine started again with `--plain`, so it never recurses) or any
command line, split with shlex and run without a shell. Their UCI options are given as `Name=Value` pairs
separated by `;` (e.g. `Hash=16; Threads=1; UCI_LimitStrength=true; UCI_Elo=1500`). MPCMC_EvaluatorHash is `fresh`
(a new game, so a clean hash, before every evaluator call) or `keep` (the evaluator's hash carries over from call to
call, move to move and game to game). MPCMC_TwoStepRank is `evaluator` (two-step prunes the root moves by their
one-step values) or `opponent` (by the nominal opponent's own value of the position after each). MPCMC_Cluster is
`local` (the workers' processes run here), `ray` or `HOST:PORT` (each worker is a Ray actor, ray_pool); Ray is
imported only then. MPCMC_Candidates 0 scores every legal move (the paper's exact first step); k > 0 gives
MPCMC_PlainShare percent of the move's time to a plain MultiPV search and scores only its best k moves
(uci.mpcmc_job). MPCMC_MinCallMs is the shortest `auto` call worth making: a move that cannot give every first-step
call that long is played by the plain search.
"""

import importlib
import os
from dataclasses import dataclass
from typing import Optional

from mpcmc_engine.mpcmc.call_limits import parse_call_limit
from mpcmc_engine.mpcmc.rollout import MODES, TWO_STEP_RANKS, RolloutSettings
from mpcmc_engine.uci_process import EngineSpec, parse_engine_command, parse_option, this_engine_command

INTERNAL = "internal"
# this engine as a sub-engine is a local pipe away: no lag to allow for (with the default 30 ms, a 50 ms call searched
# for 29 ms; with 0, for 48 ms and 2.4 times the nodes)
INTERNAL_OPTIONS = {"Move Overhead": 0}
DEFAULT_WORKERS = max(1, os.cpu_count() or 1)
LOCAL, RAY = "local", "ray"
# a call through Ray costs this much more than a local one (experiments/mpcmc_ray.py, docs/RESULTS.md)
RAY_CALL_OVERHEAD_SECONDS = 0.002


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


def parse_cluster(text: Optional[str]) -> str:
    """The MPCMC_Cluster value `local`, `ray` or `HOST:PORT`, normalized; raise ValueError when it is none of them, or
    names Ray and Ray cannot be imported (`import ray` happens here, the first time Ray is named)."""
    value = (text or LOCAL).strip()
    if value.lower() in (LOCAL, RAY):
        value = value.lower()
    elif split_address(value) is None:
        raise ValueError(f"MPCMC_Cluster must be local, ray or HOST:PORT, not {value!r}")
    if value != LOCAL:
        try:
            importlib.import_module("ray")
        except ImportError as error:
            raise ValueError(f"MPCMC_Cluster {value} needs Ray, which cannot be imported ({error}): "
                             'pip install "mpcmc-engine[cluster]"; the sub-engines stay local') from None
    return value


def split_address(text: str) -> Optional[tuple]:
    """(host, port) of `HOST:PORT` (a port from 1 to 65535; an IPv6 host in brackets), or None when `text` is not
    of that form."""
    host, separator, port = text.strip().rpartition(":")
    if not separator or not host or not port.isdigit() or not 0 < int(port) < 65536:
        return None
    return host.strip("[]"), int(port)


@dataclass(frozen=True)
class MpcmcConfig:
    """Everything the MPC-MC options say; `mode` is 'off' or one of MODES."""
    mode: str = "off"
    evaluator: Optional[EngineSpec] = None
    opponent: Optional[EngineSpec] = None
    workers: int = DEFAULT_WORKERS
    cluster: str = LOCAL  # parse_cluster's values
    rollout: RolloutSettings = RolloutSettings()
    candidates: int = 0  # 0: every legal move; k: the plain search's best k
    plain_share: float = 0.5  # with candidates: the share of the move's time the plain search takes

    @property
    def enabled(self) -> bool:
        return self.mode in MODES


def config_from_options(values: dict) -> MpcmcConfig:
    """Build the configuration from option values (keys as the UCI options are named, "" for an empty string);
    raise ValueError naming what is malformed."""
    mode = values.get("MPCMC", "off").lower()
    if mode != "off" and mode not in MODES:
        raise ValueError(f"MPCMC must be off, half, one or two, not {mode!r}")
    evaluator_hash = values.get("MPCMC_EvaluatorHash", "fresh").lower()
    if evaluator_hash not in ("fresh", "keep"):
        raise ValueError(f"MPCMC_EvaluatorHash must be fresh or keep, not {evaluator_hash!r}")
    two_step_rank = values.get("MPCMC_TwoStepRank", "evaluator").lower()
    if two_step_rank not in TWO_STEP_RANKS:
        raise ValueError(f"MPCMC_TwoStepRank must be evaluator or opponent, not {two_step_rank!r}")
    cluster = parse_cluster(values.get("MPCMC_Cluster"))
    settings = RolloutSettings(
        mode=mode if mode in MODES else "one",
        fortify=bool(values.get("MPCMC_Fortify", False)),
        two_step_keep=int(values.get("MPCMC_TwoStepKeep", 25)) / 100,
        two_step_rank=two_step_rank,
        fresh_evaluator=evaluator_hash == "fresh",
        eval_limit=parse_call_limit(values.get("MPCMC_EvalLimit", "auto")),
        opponent_limit=parse_call_limit(values.get("MPCMC_OpponentLimit", "auto")),
        call_overhead_seconds=RolloutSettings.call_overhead_seconds + (RAY_CALL_OVERHEAD_SECONDS if cluster != LOCAL
                                                                        else 0.0),
        min_call_seconds=int(values.get("MPCMC_MinCallMs", 0)) / 1000,
    )
    return MpcmcConfig(
        mode=mode,
        evaluator=engine_spec(values.get("MPCMC_Evaluator"), values.get("MPCMC_EvaluatorOptions"), "evaluator"),
        opponent=engine_spec(values.get("MPCMC_Opponent"), values.get("MPCMC_OpponentOptions"), "opponent"),
        workers=int(values.get("MPCMC_Workers", DEFAULT_WORKERS)),
        cluster=cluster,
        rollout=settings,
        candidates=int(values.get("MPCMC_Candidates", 0)),
        plain_share=int(values.get("MPCMC_PlainShare", 50)) / 100,
    )
