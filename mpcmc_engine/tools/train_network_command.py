"""`mpcmc-engine train-network`: learn the neural evaluation from positions labelled by search (gen-positions),
bootstrapping from search mixed with game outcomes; see docs/TRAINING.md."""

import shlex
import sys
from pathlib import Path

from mpcmc_engine.eval.network import ACTIVATIONS, QB_LIMIT, TRAINED_QB
from mpcmc_engine.tools.interruption import INTERRUPTED
from mpcmc_engine.training.network.trainer import NetworkTrainSettings

CURVE_SUFFIXES = (".png",)


def configure(parser) -> None:
    """Add the train-network command's arguments."""
    parser.add_argument("--data", required=True, nargs="+", metavar="DIR", help="directories of gen-positions chunks")
    parser.add_argument("--out", required=True, metavar="FILE", help="network file to write")
    parser.add_argument("--epochs", type=int, default=10, help="(default %(default)s)")
    parser.add_argument("--batch-size", type=int, default=4096, help="(default %(default)s)")
    parser.add_argument("--lr", type=float, default=0.002, help="Adam's learning rate at the start (default "
                                                                "%(default)s; cosine schedule down to lr / 20)")
    parser.add_argument("--result-weight", type=float, default=0.3,
                        help="share of the game's outcome in the target, the rest the search's value (default "
                             "%(default)s)")
    parser.add_argument("--validation", type=float, default=0.02,
                        help="held-out share of the chunks (whole games; default %(default)s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--init", metavar="FILE",
                        help="start from this network file (default: random weights); a network of fewer hidden "
                             "units is widened: its units kept, the added ones with output weights 0; a version-1 "
                             "network (one output layer) gets that layer in every output bucket")
    parser.add_argument("--activation", choices=ACTIVATIONS,
                        help="the hidden units' activation: clipped ReLU or squared clipped ReLU (default: the "
                             f"--init network's, else {ACTIVATIONS[0]}); a network may be trained into another")
    default_qbs = ", ".join(f"{qb} for {name}" for name, qb in TRAINED_QB.items())
    parser.add_argument("--qb", type=int, default=0,
                        help=f"the written network's output-weight scale, 1 to {QB_LIMIT} (default: {default_qbs}; "
                             "a screlu network's output weights must stay within +-127 at it)")
    parser.add_argument("--resume", action="store_true", help="continue from OUT.checkpoint.npz")
    parser.add_argument("--curve", metavar="FILE.png", help="learning curve (PNG, and CSV beside it)")


def _error(message: str) -> int:
    print(f"mpcmc-engine train-network: error: {message}", file=sys.stderr)
    return 2


def run(args) -> int:
    """Train and write the network; 2 with a one-line message on bad settings or unusable files, INTERRUPTED (130)
    when interrupted (Ctrl-C, SIGTERM)."""
    from mpcmc_engine.eval.network import load_network
    from mpcmc_engine.training.curve_csv import write_curve_csv
    from mpcmc_engine.training.network.loss_curve import plot_network_curve
    from mpcmc_engine.training.network.position_data import load_positions
    from mpcmc_engine.training.network.trainer import checkpoint_file, train_network
    from mpcmc_engine.training.network_model import dequantize, initial_vector, widened

    if args.epochs < 1 or args.batch_size < 1 or args.lr <= 0 or not 0 <= args.result_weight <= 1 \
            or not 0 <= args.validation < 1 or not 0 <= args.qb <= QB_LIMIT:
        return _error("--epochs, --batch-size and --lr must be positive, --result-weight within [0, 1], "
                      f"--validation within [0, 1) and --qb within 1 to {QB_LIMIT}")
    if args.curve and Path(args.curve).suffix.lower() not in CURVE_SUFFIXES:
        return _error(f"--curve {args.curve}: the curve is written as a .png file (and a .csv beside it)")
    try:
        positions = load_positions(*args.data).quiet_only()
        start = widened(load_network(args.init, older=True), args.seed) if args.init else None
    except ValueError as error:
        return _error(str(error))
    initial = dequantize(start) if start is not None else initial_vector(args.seed)
    activation = args.activation or (start.activation if start is not None else ACTIVATIONS[0])
    settings = NetworkTrainSettings(args.epochs, args.batch_size, args.lr, args.result_weight, args.validation,
                                    args.seed, activation, args.qb)
    print(f"{len(positions)} positions from {', '.join(args.data)}", flush=True)

    def on_epoch(curve):
        if args.curve:
            write_curve_csv(curve, Path(args.curve).with_suffix(".csv"))
            plot_network_curve(curve, args.curve)

    provenance = "mpcmc-engine " + " ".join(shlex.quote(word) for word in sys.argv[1:])
    try:
        state = train_network(positions, settings, initial, args.out, provenance, args.resume, on_epoch)
    except (ValueError, OSError) as error:  # a checkpoint that cannot be resumed, an output that cannot be written
        return _error(str(error))
    except KeyboardInterrupt:
        print(f"mpcmc-engine train-network: interrupted; rerun with --resume to continue from the last whole epoch "
              f"({checkpoint_file(args.out)})", file=sys.stderr)
        return INTERRUPTED
    last = state.curve[-1]
    print(f"wrote {args.out}: train loss {last['train_loss']:.5f}, validation loss {last['validation_loss']:.5f}")
    return 0
