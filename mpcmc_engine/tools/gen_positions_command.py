"""`mpcmc-engine gen-positions`: self-play games of our search whose quiet positions, with the search's score and
the game's result, become the neural trainer's data (chunks in a directory; an interrupted run resumes)."""

import sys

from tqdm import tqdm

from mpcmc_engine.tools.interruption import INTERRUPTED
from mpcmc_engine.training.network.position_generation import GenerationSettings, generate_positions, missing_chunks


def configure(parser) -> None:
    """Add the gen-positions command's arguments."""
    parser.add_argument("--out", required=True, metavar="DIR", help="directory of the chunk files")
    parser.add_argument("--games", type=int, required=True, help="games in all (chunks already there count)")
    parser.add_argument("--games-per-chunk", type=int, default=50, metavar="N", help="(default %(default)s)")
    parser.add_argument("--nodes", type=int, default=5000, help="nodes per move (default %(default)s)")
    parser.add_argument("--epsilon", type=float, default=0.05,
                        help="probability of a random move (exploration; default %(default)s)")
    parser.add_argument("--openings", default="", metavar="FILE", help="EPD or PGN openings to start games from")
    parser.add_argument("--eval-file", default="", metavar="FILE",
                        help="the evaluation that plays: linear weights or a network file, or <linear> / "
                             "<network> (default: the engine's default, the shipped network)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="processes playing games (default %(default)s)")


def run(args) -> int:
    """Generate the missing chunks with a progress bar; 2 on bad settings or an unreadable openings file."""
    if args.games < 1 or args.games_per_chunk < 1 or args.nodes < 1 or not 0.0 <= args.epsilon <= 1.0:
        print("mpcmc-engine gen-positions: error: --games, --games-per-chunk and --nodes must be positive and "
              "--epsilon within [0, 1]", file=sys.stderr)
        return 2
    settings = GenerationSettings(args.out, args.games, args.games_per_chunk, args.nodes, args.epsilon, args.openings,
                                  args.seed, args.eval_file)
    if args.eval_file:
        from mpcmc_engine.eval.eval_file import load_evaluation
        try:
            load_evaluation(args.eval_file)
        except ValueError as error:
            print(f"mpcmc-engine gen-positions: error: {error}", file=sys.stderr)
            return 2
    todo = missing_chunks(settings)
    done_games = args.games - sum(settings.games_in(index) for index in todo)
    try:
        with tqdm(total=args.games, initial=done_games, unit="game", desc="gen-positions") as bar:
            kept = [0]

            def progress(games: int, positions: int) -> None:
                kept[0] += positions
                bar.update(games)
                bar.set_postfix(positions=kept[0])

            def on_interrupt() -> None:
                bar.write("mpcmc-engine gen-positions: interrupted; finishing the chunks the workers have begun",
                          file=sys.stderr)

            generate_positions(settings, args.workers, progress, on_interrupt)
    except ValueError as error:  # an openings or evaluation file that cannot be read
        print(f"mpcmc-engine gen-positions: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"mpcmc-engine gen-positions: interrupted; the chunks written in {args.out} are kept, the same command "
              f"generates the missing ones", file=sys.stderr)
        return INTERRUPTED
    return 0
