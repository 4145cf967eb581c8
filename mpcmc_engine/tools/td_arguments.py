"""The arguments `train` and `endgame-train` share: the TD method and the feature blocks held at their start."""

from mpcmc_engine.training.td.methods import METHODS


def add_method_and_freeze(parser) -> None:
    """Add --method (one of the TD methods) and --freeze (comma-separated linear feature blocks) to `parser`."""
    parser.add_argument("--method", required=True, choices=METHODS)
    parser.add_argument("--freeze", default="", metavar="BLOCKS",
                        help="comma-separated linear feature blocks (e.g. tempo) whose weights keep their start values")
