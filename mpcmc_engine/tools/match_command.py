"""`mpcmc-engine match`: play a match between two UCI engines and report W/D/L, Elo, LOS, pentanomial and SPRT.

Each `--engine CMD` starts an engine's group; the `--name`, `--option NAME=VALUE` and `--limit KIND=VALUE` flags
after it belong to it.
See docs/TOOLS.md for the time control, adjudication, resume and SPRT conventions.
"""

import argparse
import sys

from mpcmc_engine.match.clock import TimeControl
from mpcmc_engine.match.game import Adjudication, GameSettings, MoveLimits
from mpcmc_engine.match.openings import load_openings
from mpcmc_engine.match.runner import MatchError, MatchPlan, run_match
from mpcmc_engine.match.stats import Sprt
from mpcmc_engine.tools.interruption import INTERRUPTED
from mpcmc_engine.uci_process import EngineSpec, parse_engine_command, parse_option


class EngineGroupAction(argparse.Action):
    """`--engine` opens a new engine group in `namespace.engines`; `--name`/`--option`/`--limit`/`--keep-hash` fill
    the latest group."""

    def __call__(self, parser, namespace, value, option_string=None):
        groups = getattr(namespace, self.dest, None) or []
        if option_string == "--engine":
            groups = groups + [{"command": value, "name": "", "options": {}, "limits": {}, "keep_hash": False}]
        elif not groups:
            parser.error(f"{option_string} must follow the --engine it belongs to")
        elif option_string == "--name":
            groups[-1]["name"] = value
        elif option_string == "--limit":
            groups[-1]["limits"][value[0]] = value[1]
        elif option_string == "--keep-hash":
            groups[-1]["keep_hash"] = True
        else:
            groups[-1]["options"][value[0]] = value[1]
        setattr(namespace, self.dest, groups)


def positive_int(text: str) -> int:
    """An integer >= 1 (argparse type)."""
    value = int(text)
    if value < 1:
        raise ValueError(f"{text} is not >= 1")
    return value


LIMIT_KINDS: dict = {"movetime": ("movetime_s", float), "nodes": ("nodes", positive_int),
                     "depth": ("depth", positive_int)}


def parse_limit(text: str) -> tuple:
    """`movetime=S`, `nodes=N` or `depth=D` as (MoveLimits field, value) (argparse type)."""
    kind, _, value = text.partition("=")
    if kind.strip() not in LIMIT_KINDS:
        raise ValueError(f"{text!r}: expected movetime=S, nodes=N or depth=D")
    field, convert = LIMIT_KINDS[kind.strip()]
    converted = convert(value.strip())
    if converted <= 0:
        raise ValueError(f"{text!r}: the value must be positive")
    return field, converted


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the `match` command's arguments to `parser`."""
    engine = parser.add_argument_group(
        "engines (exactly two; --name/--option/--limit/--keep-hash belong to the --engine before them)")
    engine.add_argument("--engine", dest="engines", action=EngineGroupAction, type=parse_engine_command,
                        metavar="CMD", help="engine command line (shlex-split, no shell)")
    engine.add_argument("--name", dest="engines", action=EngineGroupAction, metavar="NAME",
                        help="the engine's name in the PGN")
    engine.add_argument("--option", dest="engines", action=EngineGroupAction, type=parse_option,
                        metavar="NAME=VALUE", help="UCI option of the engine (repeatable)")
    engine.add_argument("--limit", dest="engines", action=EngineGroupAction, type=parse_limit,
                        metavar="KIND=VALUE", help="the engine's own fixed limit per move, movetime=S, nodes=N or "
                                                   "depth=D (repeatable); it then ignores --movetime/--nodes/--depth")
    engine.add_argument("--keep-hash", dest="engines", action=EngineGroupAction, nargs=0,
                        help="the engine keeps its hash tables from move to move despite --fresh-hash")
    limits = parser.add_argument_group("limits per move (combine freely; --tc keeps a real clock)")
    limits.add_argument("--tc", type=TimeControl.parse, help="time control BASE+INC or MOVES/BASE+INC in seconds")
    limits.add_argument("--movetime", type=float, metavar="S", help="seconds per move")
    limits.add_argument("--nodes", type=positive_int, help="nodes per move")
    limits.add_argument("--depth", type=positive_int, help="depth per move")
    limits.add_argument("--time-margin", type=float, default=GameSettings.time_margin_s, metavar="S",
                        help="seconds an engine may overrun its clock before it forfeits (default %(default)g)")
    limits.add_argument("--hang-timeout", type=float, default=GameSettings.hang_timeout_s, metavar="S",
                        help="without --tc, seconds beyond --movetime after which a silent engine loses "
                             "(default %(default)g)")
    limits.add_argument("--fresh-hash", action="store_true",
                        help="send ucinewgame before every move (clean hash tables: fixed-node play is reproducible)")
    games = parser.add_argument_group("games")
    games.add_argument("--openings", metavar="FILE",
                       help="EPD (one position a line), or .pgn or .pgn.gz (each game's moves)")
    games.add_argument("--games", type=positive_int, default=2, help="games to play, in pairs (default 2)")
    games.add_argument("--seed", type=int, help="shuffle the openings reproducibly")
    games.add_argument("--concurrency", type=positive_int, default=1, metavar="K", help="games at once")
    games.add_argument("--pgn", metavar="OUT", help="append each finished game here; rerun to resume")
    games.add_argument("--event", default="mpcmc-engine match", help="the PGN Event header")
    games.add_argument("--sprt", type=Sprt.parse, metavar="ELO0,ELO1,ALPHA,BETA",
                       help="stop on an SPRT decision; negative bounds need the '=' form: --sprt=-10,0,0.05,0.05")
    adjudication = parser.add_argument_group("adjudication by both engines' scores (off by default)")
    adjudication.add_argument("--resign-score", type=int, default=0, metavar="CP")
    adjudication.add_argument("--resign-moves", type=int, default=0, metavar="N")
    adjudication.add_argument("--draw-score", type=int, default=0, metavar="CP")
    adjudication.add_argument("--draw-moves", type=int, default=0, metavar="N")
    adjudication.add_argument("--draw-after", type=int, default=0, metavar="MOVE", help="first full move number")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def plan_from(args) -> MatchPlan:
    """The match plan the arguments describe; raise ValueError on inconsistent arguments or bad openings."""
    groups = args.engines or []
    if len(groups) != 2:
        raise ValueError(f"exactly two --engine groups are needed, got {len(groups)}")
    limits = MoveLimits(args.movetime, args.nodes, args.depth)
    engine_limits = tuple(MoveLimits(**group["limits"]) for group in groups)
    if not args.tc and not all(own or limits for own in engine_limits):
        raise ValueError("give a limit: --tc, --movetime, --nodes and/or --depth (or --limit for each engine)")
    settings = GameSettings(args.tc, limits, args.time_margin, args.hang_timeout,
                            Adjudication(args.resign_score, args.resign_moves, args.draw_score, args.draw_moves,
                                         args.draw_after), args.fresh_hash)
    engines = tuple(EngineSpec(tuple(group["command"]), group["name"], group["options"]) for group in groups)
    openings = load_openings(args.openings, (args.games + 1) // 2, args.seed)
    keeps_hash = tuple(group["keep_hash"] for group in groups)
    return MatchPlan(engines, settings, openings, args.games, args.concurrency, args.pgn, args.event, args.sprt,
                     engine_limits, keeps_hash)


def run(args) -> int:
    """Play the match and print the report on stdout; return 0, 1 when it cannot run, INTERRUPTED on Ctrl-C (or
    SIGTERM, which the command line turns into it): the games in progress dropped, the finished ones in the PGN."""
    try:
        plan = plan_from(args)
        tally = run_match(plan, show_progress=not args.quiet)
    except (ValueError, OSError, MatchError) as error:
        print(f"mpcmc-engine match: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("mpcmc-engine match: interrupted; finished games are in the PGN file, rerun to resume",
              file=sys.stderr)
        return INTERRUPTED
    print("\n".join(tally.report(plan.names, plan.sprt)))
    return 0
