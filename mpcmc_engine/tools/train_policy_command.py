"""`mpcmc-engine train-policy`: learn the move policy of `SearchAlgorithm mcts` from the best moves of the searches
that gen-positions recorded, on the hidden layer of a network; see docs/MCTS.md."""

import shlex
import sys
from pathlib import Path

from mpcmc_engine.tools.interruption import INTERRUPTED
from mpcmc_engine.training.policy.trainer import PolicyTrainSettings

CURVE_SUFFIXES = (".png",)


def configure(parser) -> None:
    """Add the train-policy command's arguments."""
    parser.add_argument("--data", required=True, nargs="+", metavar="DIR", help="directories of gen-positions chunks")
    parser.add_argument("--out", required=True, metavar="FILE", help="policy file to write (.npz)")
    parser.add_argument("--eval-file", default="<network>", metavar="NET",
                        help="the network whose hidden layer the policy reads (default %(default)s, the shipped one)")
    parser.add_argument("--epochs", type=int, default=5, help="(default %(default)s)")
    parser.add_argument("--batch-size", type=int, default=1024, help="(default %(default)s)")
    parser.add_argument("--lr", type=float, default=0.01, help="Adam's learning rate at the start (default "
                                                                "%(default)s; cosine schedule down to lr / 20)")
    parser.add_argument("--validation", type=float, default=0.02,
                        help="held-out share of the chunks (whole games; default %(default)s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="processes that make the examples (default "
                                                               "%(default)s)")
    parser.add_argument("--resume", action="store_true", help="continue from OUT.checkpoint.npz")
    parser.add_argument("--curve", metavar="FILE.png", help="learning curve (PNG, and CSV beside it)")


def _error(message: str) -> int:
    print(f"mpcmc-engine train-policy: error: {message}", file=sys.stderr)
    return 2


def run(args) -> int:
    """Train and write the policy; 2 with a one-line message on bad settings or unusable files, INTERRUPTED (130)
    when interrupted (Ctrl-C, SIGTERM)."""
    from mpcmc_engine.eval.eval_file import load_evaluation
    from mpcmc_engine.eval.network import Network
    from mpcmc_engine.eval.policy import network_digest
    from mpcmc_engine.training.curve_csv import write_curve_csv
    from mpcmc_engine.training.network.loss_curve import plot_network_curve
    from mpcmc_engine.training.network.position_data import chunk_files
    from mpcmc_engine.training.network.trainer import checkpoint_file
    from mpcmc_engine.training.policy.examples import examples_from_chunks
    from mpcmc_engine.training.policy.trainer import train_policy

    if args.epochs < 1 or args.batch_size < 1 or args.lr <= 0 or not 0 <= args.validation < 1:
        return _error("--epochs, --batch-size and --lr must be positive and --validation within [0, 1)")
    if args.curve and Path(args.curve).suffix.lower() not in CURVE_SUFFIXES:
        return _error(f"--curve {args.curve}: the curve is written as a .png file (and a .csv beside it)")
    settings = PolicyTrainSettings(args.epochs, args.batch_size, args.lr, args.validation, args.seed)
    try:
        network = load_evaluation(args.eval_file)
        if not isinstance(network, Network):
            return _error(f"--eval-file {args.eval_file}: linear weights have no hidden layer for a policy")
        paths = [path for directory in args.data for path in chunk_files(directory)]
        examples = examples_from_chunks(paths, args.eval_file, max(1, args.workers))
    except ValueError as error:
        return _error(str(error))
    if len(examples) == 0:
        return _error(f"no position of {', '.join(args.data)} has a best move (chunks written before gen-positions "
                      f"recorded them)")
    print(f"{len(examples)} examples from {len(paths)} chunks of {', '.join(args.data)}", flush=True)

    def on_epoch(curve):
        if args.curve:
            write_curve_csv(curve, Path(args.curve).with_suffix(".csv"))
            plot_network_curve(curve, args.curve, "cross-entropy of the searched move",
                               "train-policy: loss per epoch")

    provenance = "mpcmc-engine " + " ".join(shlex.quote(word) for word in sys.argv[1:])
    try:
        state = train_policy(examples, settings, network_digest(network), args.out, provenance, args.resume,
                             on_epoch)
    except (ValueError, OSError) as error:
        return _error(str(error))
    except KeyboardInterrupt:
        print(f"mpcmc-engine train-policy: interrupted; rerun with --resume to continue from the last whole epoch "
              f"({checkpoint_file(args.out)})", file=sys.stderr)
        return INTERRUPTED
    last = state.curve[-1]
    print(f"wrote {args.out}: train loss {last['train_loss']:.4f}, validation loss {last['validation_loss']:.4f}, "
          f"validation top-1 {last['validation_top1']:.3f}")
    return 0
