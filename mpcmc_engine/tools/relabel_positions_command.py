"""`mpcmc-engine relabel-positions`: the neural trainer's data searched again, deeper or with another evaluation,
and written with the new scores to another directory (chunk by chunk; an interrupted run resumes)."""

import sys

from tqdm import tqdm

from mpcmc_engine.tools.interruption import INTERRUPTED
from mpcmc_engine.training.network.position_data import chunk_files
from mpcmc_engine.training.network.relabelling import RelabelSettings, missing_relabels, relabel_positions


def configure(parser) -> None:
    """Add the relabel-positions command's arguments."""
    parser.add_argument("--data", required=True, metavar="DIR", help="directory of the chunks to relabel")
    parser.add_argument("--out", required=True, metavar="DIR", help="directory of the relabelled chunks")
    parser.add_argument("--nodes", type=int, default=10000, help="nodes searched a position (default %(default)s)")
    parser.add_argument("--eval-file", default="", metavar="FILE",
                        help="the evaluation that searches: linear weights or a network file, or <linear> / "
                             "<network> (default: the engine's default, the shipped network)")
    parser.add_argument("--workers", type=int, default=1, help="processes searching (default %(default)s)")


def _fail(message: str) -> int:
    print(f"mpcmc-engine relabel-positions: error: {message}", file=sys.stderr)
    return 2


def run(args) -> int:
    """Relabel the chunks not yet in --out with a progress bar (in chunks); 2 on bad settings, unreadable data or
    an unusable evaluation file, INTERRUPTED (130) when interrupted (Ctrl-C, SIGTERM)."""
    if args.nodes < 1 or args.workers < 1:
        return _fail("--nodes and --workers must be positive")
    settings = RelabelSettings(args.data, args.out, args.nodes, args.eval_file)
    try:
        if args.eval_file:
            from mpcmc_engine.eval.eval_file import load_evaluation
            load_evaluation(args.eval_file)
        todo = missing_relabels(settings)
        total = len(chunk_files(args.data))
    except ValueError as error:
        return _fail(str(error))
    try:
        with tqdm(total=total, initial=total - len(todo), unit="chunk", desc="relabel-positions") as bar:
            counts = [0, 0]

            def progress(read: int, written: int) -> None:
                counts[0] += read
                counts[1] += written
                bar.update(1)
                bar.set_postfix(positions=counts[0], kept=counts[1])

            def on_interrupt() -> None:
                bar.write("mpcmc-engine relabel-positions: interrupted; finishing the chunks the workers have begun",
                          file=sys.stderr)

            relabel_positions(settings, args.workers, progress, on_interrupt)
    except ValueError as error:  # a chunk or evaluation file that cannot be read
        return _fail(str(error))
    except KeyboardInterrupt:
        print(f"mpcmc-engine relabel-positions: interrupted; the chunks written in {args.out} are kept, the same "
              f"command relabels the missing ones", file=sys.stderr)
        return INTERRUPTED
    return 0
