"""`mpcmc-engine endgame-study`: our search against the perfect player in K+R v K or K+Q v K, with the study's
figures WCR, WE and LHS (training/endgame/study.py)."""

import sys

from tqdm import tqdm

from mpcmc_engine.search.limits import SearchLimits
from mpcmc_engine.training.endgame.study import EndgameFigures, figures, run_study, search_player
from mpcmc_engine.training.endgame_table import PIECES

SEARCH_HASH_MB = 16


def configure(parser) -> None:
    """Add the endgame-study command's arguments."""
    parser.add_argument("--ending", required=True, help="krk or kqk")
    parser.add_argument("--games", type=int, required=True, help="games in each role (attacking, defending)")
    budget = parser.add_mutually_exclusive_group(required=True)
    budget.add_argument("--nodes", type=int, help="nodes per move of our search")
    budget.add_argument("--depth", type=int,
                        help="our search to this fixed depth every move instead (as a training stage's dD)")
    parser.add_argument("--eval-file", default="", metavar="FILE",
                        help="the evaluation that plays: linear weights or a network file, or <linear> / "
                             "<network> / <material> (default: the engine's default, the shipped network)")
    parser.add_argument("--seed", type=int, default=1, help="draws the starting positions (default %(default)s)")
    parser.add_argument("--max-plies", type=int, default=200,
                        help="a game this long is drawn (default %(default)s)")


def _figure(value) -> str:
    """A figure to three decimals, or '-' when it has no game."""
    return "-" if value is None else f"{value:.3f}"


def report(ending: str, found: EndgameFigures) -> str:
    """The figures as a short table."""
    return "\n".join([
        f"{ending.upper():<6} {'figure':>8}  games",
        f"{'WCR':<6} {_figure(found.wcr):>8}  {found.won} won of {found.attacking_games} attacking",
        f"{'WE':<6} {_figure(found.we):>8}  over the {found.won} won",
        f"{'LHS':<6} {_figure(found.lhs):>8}  over the {found.lost} lost of {found.defending_games} defending",
    ])


def run(args) -> int:
    """Play the games with a progress bar and print the figures; 2 on bad settings or an unusable evaluation."""
    def fail(message: str) -> int:
        print(f"mpcmc-engine endgame-study: error: {message}", file=sys.stderr)
        return 2

    if args.ending not in PIECES:
        return fail(f"--ending must be one of {', '.join(PIECES)}, not {args.ending!r}")
    limits = SearchLimits(nodes=args.nodes) if args.depth is None else SearchLimits(depth=args.depth)
    if args.games < 1 or (args.nodes if args.depth is None else args.depth) < 1 or args.max_plies < 1:
        return fail("--games, --nodes or --depth, and --max-plies must be positive")
    from mpcmc_engine.eval.eval_file import load_evaluation
    from mpcmc_engine.search.searcher import Searcher
    try:
        evaluation = load_evaluation(args.eval_file) if args.eval_file else None
    except ValueError as error:
        return fail(str(error))
    searcher = Searcher(hash_mb=SEARCH_HASH_MB, threads=1)  # plays with the default evaluation unless told otherwise
    if evaluation is not None:
        searcher.set_evaluation(evaluation)
    with tqdm(total=2 * args.games, unit="game", desc=f"endgame-study {args.ending}") as bar:
        games = run_study(PIECES[args.ending], args.games, search_player(searcher, limits), args.seed,
                          args.max_plies, lambda game: bar.update(1))
    print(report(args.ending, figures(games)))
    return 0
