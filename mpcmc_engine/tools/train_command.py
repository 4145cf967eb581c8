"""`mpcmc-engine train`: learn an evaluation by temporal differences (TD(lambda), TD-Leaf, TD-Stem) from self-play,
self-play of KRK / KQK endings, mentor games or PGN files: the linear weights, or the network when --init names one;
see docs/TRAINING.md and docs/NETWORK.md. The defaults are the documented runs' settings."""

import shlex
import sys

from mpcmc_engine.tools.interruption import INTERRUPTED
from mpcmc_engine.tools.td_arguments import add_method_and_freeze
from mpcmc_engine.training.endgame_table import PIECES
from mpcmc_engine.training.td.generate import SourceConfig
from mpcmc_engine.training.td.trainer import CHECKPOINT_EVERY


def configure(parser) -> None:
    """Add the train command's arguments."""
    add_method_and_freeze(parser)
    parser.add_argument("--source", required=True, choices=("selfplay", "mentor", "pgn", "endgame"),
                        help="endgame: self-play from random positions of --ending won for the strong side")
    parser.add_argument("--ending", default="", help="krk or kqk (source endgame)")
    parser.add_argument("--pgn", nargs="+", default=[], metavar="FILE", help="PGN files (source pgn)")
    parser.add_argument("--mentor", default="", metavar="CMD", help="UCI engine command (source mentor)")
    parser.add_argument("--games", type=int, required=True, help="games to train on in all (counting resumed ones)")
    parser.add_argument("--nodes", type=int, default=SourceConfig.nodes,
                        help="nodes per move: our search in self-play, the strong mentor (weak: nodes/10) "
                             "(default %(default)s)")
    parser.add_argument("--epsilon", type=float, default=SourceConfig.epsilon,
                        help="probability of a random move (exploration; default %(default)s)")
    parser.add_argument("--openings", default="", metavar="FILE", help="EPD or PGN openings to start games from")
    parser.add_argument("--leaf-depth", type=int, default=SourceConfig.leaf_depth,
                        help="depth of our search for PV leaves of PGN and mentor positions (td-leaf, td-stem)")
    parser.add_argument("--mentor-timeout", type=float, default=SourceConfig.mentor_timeout_s, metavar="S",
                        help="seconds a mentor may take to start or to answer one move before the run stops with "
                             "an error (default %(default)g)")
    parser.add_argument("--lambda", dest="lam", type=float, default=0.7, help="trace decay lambda (default 0.7)")
    parser.add_argument("--alpha", type=float, default=0.01,
                        help="learning rate (logistic units, see TRAINING.md; default %(default)s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="processes generating games")
    parser.add_argument("--checkpoint-every", type=int, default=CHECKPOINT_EVERY, metavar="N",
                        help="write OUT.checkpoint.json every N games (0: only at the end); it is also written on "
                             "Ctrl-C and when a game fails (default %(default)s)")
    parser.add_argument("--resume", action="store_true", help="continue from OUT.checkpoint.json")
    parser.add_argument("--average-after", type=int, default=0, metavar="N",
                        help="write (and measure) the mean of the weights after each game past N (Polyak averaging; "
                             "the updates go on from the current weights); default 0: the final weights")
    parser.add_argument("--init", default="<material>", metavar="FILE",
                        help="start evaluation: a weights or network file, or <linear> / <network> / <material>; a "
                             "network is trained as a network (default %(default)s: linear weights of material values "
                             "only)")
    parser.add_argument("--curve", default="", metavar="PNG", help="learning-curve plot (data in the .csv beside)")
    parser.add_argument("--curve-every", type=int, default=0, metavar="N", help="curve point every N games")
    parser.add_argument("--curve-measure", choices=("match", "wac"), default="match",
                        help="strength measure of the curve: a fixed-node match against the starting weights (Elo), "
                             "or WAC positions solved (default: match)")
    parser.add_argument("--curve-nodes", type=int, default=None,
                        help="nodes per move (match) or per position (wac); default 1000 and 20000")
    parser.add_argument("--curve-games", type=int, default=200, help="match: games per curve point (whole pairs)")
    parser.add_argument("--curve-openings", default="", metavar="FILE",
                        help="match: EPD or PGN openings (default: the shipped 4mvs_+90_+99.epd)")
    parser.add_argument("--curve-suite", default="", metavar="EPD",
                        help="wac: test suite of the curve (default: the shipped wac.epd)")
    parser.add_argument("--curve-positions", type=int, default=100, help="wac: suite positions in each curve point")
    parser.add_argument("--out", required=True, metavar="FILE",
                        help="weights or network file to write (atomically), of --init's kind")


def _check(args) -> str:
    """Why the arguments cannot run, or ''."""
    if args.source == "pgn" and not args.pgn:
        return "--source pgn needs --pgn FILE ..."
    if args.source == "mentor" and not args.mentor:
        return "--source mentor needs --mentor CMD"
    if args.source == "endgame" and args.ending not in PIECES:
        return f"--source endgame needs --ending {' or '.join(PIECES)}, not {args.ending!r}"
    if args.source != "endgame" and args.ending:
        return "--ending is for --source endgame only"
    if args.source == "endgame" and args.openings:
        return "--openings has no use with --source endgame: its games start from random positions of the ending"
    if args.games < 1 or args.nodes < 1 or args.workers < 1 or args.checkpoint_every < 0:
        return "--games, --nodes and --workers must be positive, --checkpoint-every 0 or more"
    if not args.mentor_timeout > 0:
        return "--mentor-timeout must be positive"
    if not 0.0 <= args.lam <= 1.0 or not 0.0 <= args.epsilon <= 1.0:
        return "--lambda and --epsilon must lie in [0, 1]"
    if args.curve and not args.curve_every:
        return "--curve needs --curve-every N"
    if args.curve_games < 1 or args.curve_positions < 1 or (args.curve_nodes is not None and args.curve_nodes < 1):
        return "--curve-games, --curve-positions and --curve-nodes must be positive"
    if args.average_after < 0:
        return "--average-after must be 0 or more"
    return ""


def _probe(args, initial):
    """The learning curve's probe that the --curve-* arguments ask for (the match's reference: `initial`)."""
    from mpcmc_engine.data import UNBALANCED_OPENINGS, WAC
    from mpcmc_engine.training.td.probes import MatchProbe, WacProbe

    if args.curve_measure == "wac":
        return WacProbe(args.curve_suite or WAC, args.curve_positions, args.curve_nodes or 20000)
    return MatchProbe(initial, args.curve_openings or UNBALANCED_OPENINGS, args.curve_games, args.curve_nodes or 1000,
                      args.seed)


def run(args) -> int:
    """Train and write the evaluation; 0 on success, 2 on bad arguments or files, 1 when a game cannot be generated and
    INTERRUPTED (130) on Ctrl-C or SIGTERM (both after writing the checkpoint, from which --resume continues)."""
    from mpcmc_engine.eval.eval_file import load_evaluation
    from mpcmc_engine.training.td.checkpoint import checkpoint_path
    from mpcmc_engine.training.td.generate import GameError
    from mpcmc_engine.training.td.pgn_games import read_pgn_games
    from mpcmc_engine.training.td.trainable import frozen_blocks, trainable_of
    from mpcmc_engine.training.td.trainer import TrainSettings, train
    from mpcmc_engine.training.td.methods import LEAF_METHODS

    problem = _check(args)
    try:
        if problem:
            raise ValueError(problem)
        initial = load_evaluation(args.init)
        model = trainable_of(initial).name
        pgn_games = tuple(read_pgn_games(args.pgn)) if args.source == "pgn" else ()
        if args.source == "pgn" and not pgn_games:
            raise ValueError("no usable game in the PGN files")
        source = SourceConfig(args.source, args.method in LEAF_METHODS, args.nodes, args.epsilon, args.leaf_depth,
                              args.mentor, args.openings, args.seed, pgn_games, args.mentor_timeout, args.ending)
        command = "mpcmc-engine train " + " ".join(shlex.quote(arg) for arg in sys.argv[2:])
        settings = TrainSettings(args.method, source, args.games, args.lam, args.alpha, args.seed, args.out,
                                 args.workers, args.checkpoint_every, args.curve_every, args.curve,
                                 curve_measure=args.curve_measure if args.curve else "",
                                 average_after=args.average_after, command=command,
                                 model=model, frozen=frozen_blocks(args.freeze))
        probe = _probe(args, initial) if args.curve else None
        train(settings, initial, args.resume, probe)
    except (ValueError, OSError) as error:
        print(f"mpcmc-engine train: error: {error}", file=sys.stderr)
        return 2
    except GameError as error:
        print(f"mpcmc-engine train: error: {error}; {checkpoint_path(args.out)} holds the games before it: rerun "
              f"with --resume to continue", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"mpcmc-engine train: interrupted; {checkpoint_path(args.out)} written: rerun with --resume to continue",
              file=sys.stderr)
        return INTERRUPTED
    print(f"{model} evaluation written to {args.out}")
    return 0
