"""`mpcmc-engine endgame-train`: a TD method trained on KRK or KQK in stages with their own hyper-parameters, measured
against the perfect player after each stage (WCR, WE, LHS); the learning curve as CSV and PNG
(training/endgame/stages.py, training/endgame/stage_curve.py)."""

import shlex
import sys
from pathlib import Path

from mpcmc_engine.tools.interruption import INTERRUPTED
from mpcmc_engine.tools.td_arguments import add_method_and_freeze
from mpcmc_engine.training.endgame_table import PIECES


def configure(parser) -> None:
    """Add the endgame-train command's arguments."""
    add_method_and_freeze(parser)
    parser.add_argument("--ending", required=True, help="krk or kqk")
    parser.add_argument("--stages", required=True, metavar="SPEC",
                        help="comma-separated stages GAMES:ALPHA:LAMBDA:NODES[:EPSILON], NODES a node count or "
                             "dDEPTH (a fixed depth), EPSILON the stage's own exploration, "
                             "e.g. 400:0.02:0.8:500,400:0.01:0.7:d3:0")
    parser.add_argument("--init", default="<linear>", metavar="FILE",
                        help="start evaluation: weights or network file, <linear>, <network> or <material> "
                             "(default %(default)s)")
    parser.add_argument("--epsilon", type=float, default=0.05,
                        help="probability of a random move in self-play (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="stage K's games are drawn with 100 * seed + K")
    parser.add_argument("--dir", required=True, metavar="DIR", help="folder of the stages' weights, checkpoints and "
                                                                    "measurements (a stopped run resumes from it)")
    parser.add_argument("--study-games", type=int, default=200, help="measurement: games in each role")
    parser.add_argument("--study-nodes", type=int, default=2000, help="measurement: nodes per move of our search")
    parser.add_argument("--study-seed", type=int, default=1, help="measurement: draws the starting positions")
    parser.add_argument("--max-plies", type=int, default=200, help="measurement: a game this long is drawn")
    parser.add_argument("--curve", default="", metavar="PNG",
                        help="learning-curve plot, rewritten after each stage (data in the .csv beside)")
    parser.add_argument("--workers", type=int, default=1, help="processes generating training games")
    parser.add_argument("--checkpoint-every", type=int, default=100, metavar="N",
                        help="a stage's checkpoint every N games (also written on Ctrl-C; default %(default)s)")


def _check(args) -> str:
    """Why the arguments cannot run, or ''."""
    if args.ending not in PIECES:
        return f"--ending must be one of {', '.join(PIECES)}, not {args.ending!r}"
    if min(args.study_games, args.study_nodes, args.max_plies, args.workers) < 1 or args.checkpoint_every < 0:
        return "--study-games, --study-nodes, --max-plies and --workers must be positive, --checkpoint-every 0 or more"
    if not 0.0 <= args.epsilon <= 1.0:
        return "--epsilon must lie in [0, 1]"
    return ""


def run(args) -> int:
    """Train and measure stage by stage; 0 on success, 2 on bad arguments or files, 1 when a game cannot be generated
    and INTERRUPTED (130) on Ctrl-C or SIGTERM (rerunning the same command continues)."""
    from mpcmc_engine.eval.eval_file import load_evaluation
    from mpcmc_engine.training.curve_csv import write_curve_csv
    from mpcmc_engine.training.endgame.stage_curve import plot_endgame_curves
    from mpcmc_engine.training.endgame.stages import StagedRun, StudySettings, parse_stages, run_stages
    from mpcmc_engine.training.td.generate import GameError
    from mpcmc_engine.training.td.trainable import frozen_blocks, trainable_of

    def fail(message: str, status: int = 2) -> int:
        print(f"mpcmc-engine endgame-train: error: {message}", file=sys.stderr)
        return status

    def write_curve(rows) -> None:
        if args.curve:
            write_curve_csv(rows, Path(args.curve).with_suffix(".csv"))
            plot_endgame_curves({args.method: rows}, args.curve, f"{args.method} on {args.ending.upper()}")

    try:
        problem = _check(args)
        if problem:
            raise ValueError(problem)
        stages = parse_stages(args.stages)
        initial = load_evaluation(args.init)
        frozen = frozen_blocks(args.freeze)
        if frozen:
            trainable_of(initial).frozen_mask(frozen)   # ValueError: an unknown block, or a network
        run_settings = StagedRun(args.method, args.ending, stages, args.epsilon, args.seed, args.dir, args.workers,
                                 args.checkpoint_every, frozen)
        study = StudySettings(args.study_games, args.study_nodes, args.study_seed, args.max_plies)
        command = "mpcmc-engine endgame-train " + " ".join(shlex.quote(arg) for arg in sys.argv[2:])
        rows = run_stages(run_settings, initial, study, command, write_curve)
    except (ValueError, OSError) as error:
        return fail(str(error))
    except GameError as error:
        return fail(f"{error}; rerun the same command to continue from the stage's checkpoint", 1)
    except KeyboardInterrupt:
        return fail("interrupted; rerun the same command to continue", INTERRUPTED)
    for row in rows:
        print(f"stage {row['stage']}: {row['games']} games, WCR {row['wcr']:.3f} [{row['wcr_low']:.3f}, "
              f"{row['wcr_high']:.3f}] ({row['won']}/{row['attacking']}), WE {row['we']:.3f}, LHS {row['lhs']:.3f}")
    return 0
