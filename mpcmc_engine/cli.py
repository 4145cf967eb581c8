"""The command line: `mpcmc-engine [COMMAND] ...`.

With no command the program speaks UCI on stdin/stdout. Each other command lives in its own module that
exposes `configure(parser)` (adds its arguments) and `run(args) -> int` (the exit status); a module is imported only
when its command is chosen, so that the UCI start-up path never pays for numba or other heavy imports. The
commands that keep their work on Ctrl-C stop on SIGTERM the same way (mpcmc_engine.tools.interruption); the UCI engine
and the other commands keep SIGTERM's default.
"""

import argparse
import contextlib
import importlib
import sys

from mpcmc_engine.tools.interruption import sigterm_as_interrupt

# command name -> (module, one-line help)
COMMANDS = {
    "uci": ("mpcmc_engine.uci.protocol", "speak UCI on stdin/stdout (the default when no command is given)"),
    "perft": ("mpcmc_engine.tools.perft_command", "count the leaves of the move tree; validate EPD perft suites"),
    "bench": ("mpcmc_engine.tools.bench_command", "benchmarks that print their figures"),
    "epd": ("mpcmc_engine.tools.epd_command", "run an EPD test suite (bm/am/c0) through a UCI engine"),
    "match": ("mpcmc_engine.tools.match_command", "play a match between two UCI engines"),
    "train": ("mpcmc_engine.tools.train_command", "learn evaluation weights by temporal differences"),
    "gen-positions": ("mpcmc_engine.tools.gen_positions_command",
                      "self-play positions labelled by search: the neural trainer's data"),
    "relabel-positions": ("mpcmc_engine.tools.relabel_positions_command",
                          "the trainer's positions searched again (deeper): new labels in another directory"),
    "train-network": ("mpcmc_engine.tools.train_network_command",
                      "learn the neural evaluation from positions labelled by search"),
    "train-policy": ("mpcmc_engine.tools.train_policy_command",
                     "learn MCTS's move policy from the searches' best moves (distillation)"),
    "endgame-study": ("mpcmc_engine.tools.endgame_study_command",
                      "our search against a perfect KRK / KQK player: WCR, WE and LHS"),
    "endgame-train": ("mpcmc_engine.tools.endgame_train_command",
                      "TD training on KRK / KQK in stages, measured against the perfect player after each"),
}

# Commands whose Ctrl-C path keeps their finished work (checkpoint, chunks, games) and that SIGTERM stops the same way.
# The others keep SIGTERM's default, which ends them at once: a Python handler would wait for a numba call in the main
# thread (a deep perft) to return.
STOPPED_AS_BY_CTRL_C = frozenset(
    {"match", "train", "gen-positions", "relabel-positions", "train-network", "train-policy", "endgame-train"})


def main(argv=None) -> int:
    """Run the command named by argv[0] (UCI when there is none); return the process exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        argv = ["uci"] + argv
    name = argv[0]
    if name not in COMMANDS:
        usage = "\n".join(f"  {key:<8} {help_text}" for key, (_, help_text) in COMMANDS.items())
        stream = sys.stdout if name in ("-h", "--help") else sys.stderr
        print(f"usage: mpcmc-engine [COMMAND] [ARGS]\n\ncommands:\n{usage}", file=stream)
        if stream is sys.stderr:
            print(f"mpcmc-engine: error: unknown command {name!r}", file=sys.stderr)
            return 2
        return 0
    module_name, help_text = COMMANDS[name]
    if name == "uci":
        # standard library only: `uciok` comes before anything heavy is imported
        from mpcmc_engine.uci import protocol as uci
        return uci.run_from_argv(argv[1:])
    module = importlib.import_module(module_name)
    parser = argparse.ArgumentParser(prog=f"mpcmc-engine {name}", description=help_text)
    module.configure(parser)
    with sigterm_as_interrupt() if name in STOPPED_AS_BY_CTRL_C else contextlib.nullcontext():
        return module.run(parser.parse_args(argv[1:]))
