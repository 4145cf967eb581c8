"""Staged endgame training: a TD method trained on one ending (source `endgame`) in stages, each with its own games,
alpha, lambda and nodes and starting from the previous stage's weights, and measured after each stage (and before
the first) against the perfect player (endgame/study.py): the rows of the learning curve.

A stage's weights go to DIR/METHOD-ENDING-stageK.json (its checkpoint beside it) and its measurement to
...-stageK.study.json, so a run that is stopped and started again resumes the stage it was in (from the checkpoint)
and measures only what was not measured with the same study settings. Stage K's games are drawn with seed
100 * seed + K; every measurement uses the same study seed (the same starting positions at every stage).
"""

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, List

from tqdm import tqdm

from mpcmc_engine.atomic_files import write_text_atomically
from mpcmc_engine.search.limits import SearchLimits
from mpcmc_engine.search.searcher import Searcher
from mpcmc_engine.training.endgame.study import figures, run_study, search_player, wilson_interval
from mpcmc_engine.training.endgame_table import PIECES
from mpcmc_engine.training.td.checkpoint import checkpoint_path
from mpcmc_engine.training.td.generate import SourceConfig
from mpcmc_engine.training.td.trainer import TrainSettings, train
from mpcmc_engine.training.td.methods import LEAF_METHODS

STUDY_HASH_MB = 16
STAGE_FORMAT = "GAMES:ALPHA:LAMBDA:NODES[:EPSILON]"   # NODES may be dD: a fixed search depth of D plies


@dataclass(frozen=True)
class Stage:
    """One stage's games and hyper-parameters: each self-play move searched to `nodes` or, when `depth` is set, to
    that fixed depth (nodes 0); `epsilon` replaces the run's exploration when not None."""

    games: int
    alpha: float
    lam: float
    nodes: int
    depth: int = 0
    epsilon: float | None = None


@dataclass(frozen=True)
class StudySettings:
    """How each stage is measured (the endgame-study command's settings)."""

    games: int
    nodes: int
    seed: int
    max_plies: int


@dataclass(frozen=True)
class StagedRun:
    """A staged run: method, ending, stages, self-play exploration, seed, output folder, workers, checkpoints and the
    feature blocks held at their start values."""

    method: str
    ending: str
    stages: tuple
    epsilon: float
    seed: int
    folder: str
    workers: int = 1
    checkpoint_every: int = 100
    frozen: tuple = ()


def _stage(fields: list) -> Stage:
    """The Stage of a spec's fields (ValueError when one is not a number of its kind)."""
    search = fields[3]
    nodes, depth = (0, int(search[1:])) if search.startswith("d") else (int(search), 0)
    return Stage(int(fields[0]), float(fields[1]), float(fields[2]), nodes, depth,
                 float(fields[4]) if len(fields) == 5 else None)


def parse_stages(text: str) -> tuple:
    """The Stages of `text`, comma-separated GAMES:ALPHA:LAMBDA:NODES[:EPSILON] (NODES or dDEPTH); raise ValueError
    naming the bad stage."""
    stages = []
    for number, part in enumerate(text.split(","), start=1):
        fields = part.strip().split(":")
        try:
            if len(fields) not in (4, 5):
                raise ValueError
            stage = _stage(fields)
        except ValueError:
            raise ValueError(f"--stages: stage {number} {part!r} is not {STAGE_FORMAT}") from None
        if (stage.games < 1 or max(stage.nodes, stage.depth) < 1 or not stage.alpha > 0
                or not 0.0 <= stage.lam <= 1.0 or not 0.0 <= (stage.epsilon or 0.0) <= 1.0):
            raise ValueError(f"--stages: stage {number} {part!r}: GAMES and NODES (or dDEPTH) must be positive, "
                             f"ALPHA > 0, LAMBDA and EPSILON in [0, 1]")
        stages.append(stage)
    return tuple(stages)


def stage_path(run: StagedRun, stage: int) -> Path:
    """Where the weights after `stage` (1-based) of `run` are written."""
    return Path(run.folder) / f"{run.method}-{run.ending}-stage{stage}.json"


def _measure(evaluation, study: StudySettings, ending: str, stored: Path, log: Callable) -> dict:
    """The figures of `evaluation` against the perfect player, read from `stored` when it holds a measurement with
    the same study settings, else measured (with a progress bar) and written there; ValueError when `stored` is not
    JSON."""
    if stored.exists():
        try:
            data = json.loads(stored.read_text())
        except ValueError as error:
            raise ValueError(f"{stored}: cannot be read ({error}); delete it to measure again") from None
        if data.get("study") == asdict(study):
            return data["figures"]
    searcher = Searcher(hash_mb=STUDY_HASH_MB, threads=1)
    searcher.set_evaluation(evaluation)
    with tqdm(total=2 * study.games, unit="game", desc=f"endgame-study {ending}") as bar:
        games = run_study(PIECES[ending], study.games, search_player(searcher, SearchLimits(nodes=study.nodes)),
                          study.seed, study.max_plies, lambda game: bar.update(1))
    found = figures(games)
    low, high = wilson_interval(found.won, found.attacking_games)
    result = {"attacking": found.attacking_games, "won": found.won, "wcr": found.wcr, "wcr_low": low,
              "wcr_high": high, "we": found.we, "defending": found.defending_games, "lost": found.lost,
              "lhs": found.lhs}
    write_text_atomically(stored, json.dumps({"study": asdict(study), "figures": result}))
    log(f"{stored.name}: WCR {found.wcr:.3f} ({found.won}/{found.attacking_games}), WE {found.we or 0:.3f}, "
        f"LHS {found.lhs or 0:.3f}")
    return result


def _row(stage: int, games: int, settings, epsilon: float, found: dict) -> dict:
    """A curve row: the stage, games trained so far, the stage's hyper-parameters (`epsilon` its exploration; NaN
    before training) and the measured figures (NaN for a figure without games)."""
    nan = float("nan")
    hyper = {"alpha": settings.alpha, "lambda": settings.lam, "nodes": settings.nodes, "depth": settings.depth} \
        if settings else {"alpha": nan, "lambda": nan, "nodes": 0, "depth": 0}
    return {"stage": stage, "games": games, **hyper, "epsilon": epsilon,
            **{key: nan if value is None else value for key, value in found.items()}}


def run_stages(run: StagedRun, initial, study: StudySettings, command: str = "",
               on_rows: Callable[[List[dict]], None] = lambda rows: None, log: Callable = print) -> List[dict]:
    """Measure `initial` (linear Weights or a Network), then train and measure each stage of `run` in turn,
    resuming what a stopped run left; `on_rows(rows so far)` after each measurement; return the curve rows."""
    folder = Path(run.folder)
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{run.method}-{run.ending}"
    start = _measure(initial, study, run.ending, folder / f"{stem}-stage0.study.json", log)
    rows = [_row(0, 0, None, float("nan"), start)]
    on_rows(rows)
    evaluation, games = initial, 0
    for number, stage in enumerate(run.stages, start=1):
        out = stage_path(run, number)
        epsilon = run.epsilon if stage.epsilon is None else stage.epsilon
        source = SourceConfig("endgame", run.method in LEAF_METHODS, stage.nodes, epsilon,
                              seed=100 * run.seed + number, ending=run.ending, depth=stage.depth)
        settings = TrainSettings(run.method, source, stage.games, stage.lam, stage.alpha, 100 * run.seed + number,
                                 str(out), run.workers, run.checkpoint_every,
                                 command=f"{command} (stage {number})" if command else "", frozen=run.frozen)
        evaluation = train(settings, evaluation, resume=checkpoint_path(out).exists(), log=log)
        games += stage.games
        found = _measure(evaluation, study, run.ending, out.with_suffix(".study.json"), log)
        rows.append(_row(number, games, stage, epsilon, found))
        on_rows(rows)
    return rows
