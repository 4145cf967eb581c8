"""The Engine: the facade the UCI layer calls, from one command thread, for every command but `uci` and `quit`.

It holds the options, the game (uci.game_state), the search with its tables, the Syzygy tables and the MPC-MC
player, and runs at most one Job at a time on the search thread (mpcmc_engine.uci.job): a search (search_job), an
MPC-MC decision (mpcmc_job), `go perft` or `bench`. It reports through a listener with four methods:
`info(InfoReport)`, `bestmove(move_text | None, ponder_text | None)`, `error(text)` (sent as `info string error:
text`) and `text(line)` (raw lines). Every `go` gets exactly one `bestmove`, whatever fails. A `setoption` value is
validated (files loaded, tables opened, MPC-MC settings parsed) before anything changes, so a bad one changes nothing
and stops nothing. This module imports numba code: the UCI layer imports it in its warm-up thread, after `uciok`.
"""

import sys
import traceback
from typing import Optional

from mpcmc_engine.eval.eval_file import load_evaluation
from mpcmc_engine.eval.network import Network
from mpcmc_engine.eval.policy import SHIPPED_POLICY_PATH, load_policy
from mpcmc_engine.eval.weights import Weights
from mpcmc_engine.mpcmc.config import config_from_options
from mpcmc_engine.mpcmc.player import MpcmcPlayer
from mpcmc_engine.mpcmc.subengine import SubEngineError
from mpcmc_engine.search.bench import BENCH_DEPTH
from mpcmc_engine.search.limits import SearchLimits
from mpcmc_engine.search.searcher import Searcher
from mpcmc_engine.uci.commands import parse_bench, parse_go, parse_position, parse_setoption
from mpcmc_engine.uci.game_state import GameState
from mpcmc_engine.uci.job import Job
from mpcmc_engine.uci.mpcmc_job import mpcmc_job
from mpcmc_engine.uci.options import EMPTY, NO_POLICY, SHIPPED_POLICY, Options, plain_values
from mpcmc_engine.uci.search_job import SearchJob, root_moves
from mpcmc_engine.uci.tablebase import RootTablebase
from mpcmc_engine.uci.tool_jobs import BenchJob, PerftJob


class Engine:
    """Options, game state, search tables and the job on the search thread, behind the UCI commands."""

    def __init__(self, listener, plain: bool = False):
        self.listener = listener
        self.options = Options(plain)
        self.game = GameState()
        self.searcher = Searcher(hash_mb=self.options["Hash"], threads=self.options["Threads"])
        self.tablebase = RootTablebase()
        self.mpcmc = MpcmcPlayer(notify=lambda text: listener.text(f"info string {text}"))
        self.evaluation: Optional[Weights | Network] = None  # None: the default evaluation (EvalFile <network>)
        self._job: Optional[Job] = None

    def warm_up(self) -> None:
        """Load (or compile) the numba code the commands use, so that the first `go` is as fast as later ones."""
        self.searcher.search(self.game.position.copy(), SearchLimits(depth=2))
        self.searcher.clear()
        self.game.position.perft(2)

    # --- options: `setoption` and the actions the option table names (options.Option.on_change) ------------------
    def set_option(self, words: list) -> None:
        """`setoption name <name> [value <value>]` (the words after `setoption`): validate, then apply and store; a
        malformed command or bad value is reported and changes nothing."""
        try:
            option, value = self.options.parse(*parse_setoption(words))
            if option.on_change:
                getattr(self, option.on_change)(self.options.with_value(option.name, value))
        except ValueError as error:
            self.listener.error(str(error))
            return
        self.options.store(option.name, value)

    def resize_hash(self, values: dict) -> None:
        """Hash: a new, empty table of values["Hash"] MB (between searches)."""
        self.finish_search()
        self.searcher.resize(values["Hash"])

    def set_threads(self, values: dict) -> None:
        """Threads: search with values["Threads"] threads from the next search on."""
        self.finish_search()
        self.searcher.set_threads(values["Threads"])

    def prepare_search(self, values: dict) -> None:
        """SearchAlgorithm: load (or compile) the chosen algorithm's code now, so that its first `go` is as fast as
        later ones (the commands after `setoption`, `isready` among them, wait for it)."""
        self.searcher.prepare(values["SearchAlgorithm"])

    def clear_hash(self, values: dict) -> None:
        """Clear Hash: forget what the search has learnt (between searches)."""
        self.finish_search()
        self.searcher.clear()

    def load_eval_file(self, values: dict) -> None:
        """EvalFile: load and check the weights or network file or shipped evaluation named (ValueError: nothing
        changes), then evaluate with it."""
        evaluation = load_evaluation(values["EvalFile"])
        self.finish_search()
        self.searcher.set_evaluation(evaluation)
        self.evaluation = evaluation

    def load_policy_file(self, values: dict) -> None:
        """PolicyFile: load and check the policy file named, `<policy>` the shipped one, `<none>` (or empty) none
        (ValueError: nothing changes); `mcts` adds its logits to the priors while the evaluation is its network."""
        name = values["PolicyFile"]
        policy = None
        if name not in (NO_POLICY, EMPTY):
            policy = load_policy(SHIPPED_POLICY_PATH if name == SHIPPED_POLICY else name)
        self.finish_search()
        self.searcher.set_policy(policy)

    def open_tablebases(self, values: dict) -> None:
        """SyzygyPath: open the new tables (ValueError: the old ones stay), then close the old ones."""
        tablebase = RootTablebase.open(values["SyzygyPath"])
        self.tablebase, old = tablebase, self.tablebase
        old.close()

    def configure_mpcmc(self, values: dict) -> None:
        """MPCMC_*: parse the MPC-MC settings (ValueError: nothing changes), then adopt them between moves."""
        config = config_from_options(plain_values(values))
        self.finish_search()
        self.mpcmc.configure(config)

    # --- the game --------------------------------------------------------------------------------------------------
    def new_game(self) -> None:
        """`ucinewgame`: finish any search and clear the hash table."""
        self.finish_search()
        self.searcher.clear()

    def set_position(self, words: list) -> None:
        """`position startpos|fen <fen> [moves ...]` (the words after `position`); a malformed command, bad FEN or
        illegal move is reported and the position kept."""
        try:
            fen, moves = parse_position(words)
            self.game.set_position(fen, moves, self.options["UCI_Chess960"])
        except ValueError as error:
            self.listener.error(str(error))

    def describe(self) -> dict:
        """`d`: the current position (format.format_board's arguments)."""
        return self.game.describe()

    def explain(self):
        """`eval`: the evaluation of the current position, a linear one broken down by feature block (eval.explain)."""
        from mpcmc_engine.eval.explain import explain

        self.finish_search()
        return explain(self.game.position.copy(), self.evaluation)

    # --- jobs on the search thread ---------------------------------------------------------------------------------
    def go(self, words: list, start_ns: int) -> None:
        """`go ...`: start the job it asks for; when anything fails before the job runs, play a legal move at once
        and say why (so that every `go` gets exactly one bestmove)."""
        try:
            self.finish_search()
            params, problems = parse_go(words)
            for problem in problems:
                self.listener.error(problem)
            self._run(self._go_job(params, start_ns))
        except Exception as error:  # the job did not start: this go still needs its bestmove
            traceback.print_exc(file=sys.stderr)
            self._job = None
            move = self.game.any_legal_move()
            self.listener.error(f"go failed: {error!r}; playing {move or 'no move'}")
            self.listener.bestmove(move, None)

    def _go_job(self, go, start_ns: int) -> Job:
        """The job of a parsed `go`: perft, an MPC-MC decision or a plain search."""
        if go.perft is not None:
            return PerftJob(self.listener, self.game.position.copy(), go.perft)
        position, board = self.game.snapshot()
        job = mpcmc_job(self.mpcmc, self.searcher, self.listener, position, board, go, self.options, start_ns)
        if job is not None:
            return job
        allowed = root_moves(position, board, go.searchmoves, self.tablebase, self.listener.error)
        return SearchJob(self.searcher, self.listener, position, board, go, self.options, allowed, start_ns)

    def bench(self, words: list) -> None:
        """`bench [depth]`: the search benchmark's `N nodes N nps` line, from the search thread."""
        try:
            depth = parse_bench(words)
        except ValueError as error:
            self.listener.error(str(error))
            return
        self.finish_search()
        self._run(BenchJob(self.listener, depth or BENCH_DEPTH, self.options["SearchAlgorithm"]))

    def _run(self, job: Job) -> None:
        """Make `job` the current job and start it."""
        self._job = job
        job.start()

    def stop(self) -> None:
        """`stop`: end the current job; a search then sends its bestmove (also in infinite and ponder mode)."""
        job = self._job
        if job is not None:
            job.stop()

    def ponderhit(self, now_ns: int) -> None:
        """`ponderhit`: the pondered move was played; the search goes on under the clock of its `go`, from now."""
        job = self._job
        if isinstance(job, SearchJob):
            job.ponderhit(now_ns, self.options["Move Overhead"])

    def finish_search(self) -> None:
        """Stop the current job, if any, and wait until it has written its last line (a search: its bestmove)."""
        job = self._job
        if job is not None:
            job.stop()
            job.wait()
            self._job = None

    def prepare(self) -> None:
        """`isready`: start the MPC-MC sub-engines if they are on and not running yet (so the first move is fast)."""
        if self.mpcmc.config.enabled:
            try:
                self.mpcmc.warm_up()
            except SubEngineError as error:
                self.listener.error(str(error))

    def close(self) -> None:
        """`quit`: stop any job and quit every sub-engine process."""
        self.finish_search()
        self.mpcmc.close()
