"""Running a match: resume from the PGN file, K workers playing games at once, the progress bar, PGN appends and
the SPRT stop.

Each worker thread owns one process per engine, reuses them across its games and restarts an engine after a game
it lost by a failure (crash, hang, time forfeit, illegal move). Only the main thread writes the PGN file and the
tally. Resuming: games already in the PGN file whose Round (`pair.game`) lies within --games are counted and not
played again; they must show the engine names and start positions this command schedules for that round (same
engines, --openings and --seed), otherwise the run stops with MatchError rather than mixing two matches.
"""

import queue
import sys
import threading
from dataclasses import dataclass
from typing import Optional

import chess
import chess.engine
from tqdm import tqdm

from mpcmc_engine.match.game import FinishedGame, GameSettings, MoveLimits, loss_for, play_game
from mpcmc_engine.match.openings import game_index_of, round_label, scheduled
from mpcmc_engine.match.pgn_file import append_game, drop_incomplete_tail, game_pgn, read_stored_games
from mpcmc_engine.match.stats import Sprt
from mpcmc_engine.match.tally import Tally, engine1_points
from mpcmc_engine.uci_process import START_ERRORS, start_engine

class MatchError(Exception):
    """The match cannot start or continue (an engine does not start, the PGN file belongs to another match)."""


@dataclass(frozen=True)
class MatchPlan:
    """Everything a match needs: the two engines (engine 1 first), game settings, ordered openings, game count,
    each engine's own fixed limits (empty MoveLimits: the match-wide ones) and whether it keeps its hash tables
    despite settings.fresh_hash."""

    engines: tuple
    settings: GameSettings
    openings: list
    games: int
    concurrency: int = 1
    pgn_path: Optional[str] = None
    event: str = "mpcmc-engine match"
    sprt: Optional[Sprt] = None
    engine_limits: tuple = (MoveLimits(), MoveLimits())
    keeps_hash: tuple = (False, False)

    @property
    def names(self) -> tuple:
        """Display names of engine 1 and engine 2, made distinct (`name#1`, `name#2`) when they are equal."""
        first, second = (spec.display_name for spec in self.engines)
        return (f"{first}#1", f"{second}#2") if first == second else (first, second)

    def players(self, game_index: int) -> dict:
        """{colour: engine number (0 or 1)} in game `game_index`."""
        engine1_is_white = scheduled(self.openings, game_index)[1]
        return {chess.WHITE: 0 if engine1_is_white else 1, chess.BLACK: 1 if engine1_is_white else 0}

    def engine1_points(self, game_index: int, result: str):
        """Engine 1's points in game `game_index` that ended with PGN `result` (None for `*`)."""
        return engine1_points(result, self.players(game_index)[chess.WHITE] == 0)

    def headers(self, game_index: int) -> dict:
        """The PGN headers this plan gives game `game_index` (the result-dependent ones come with the game)."""
        players = self.players(game_index)
        time_control = self.settings.time_control
        return {"Event": self.event, "Site": "?", "Round": round_label(game_index),
                "White": self.names[players[chess.WHITE]], "Black": self.names[players[chess.BLACK]],
                "TimeControl": time_control.pgn() if time_control else "-"}


class Worker:
    """One process per engine, started when first needed; plays whole games."""

    def __init__(self, plan: MatchPlan):
        self.plan = plan
        self.engines = [None, None]
        self.lock = threading.Lock()

    def engine(self, number: int) -> chess.engine.SimpleEngine:
        """Engine `number`'s process, started when there is none (raises one of START_ERRORS on failure)."""
        if self.engines[number] is None:
            engine = start_engine(self.plan.engines[number], own_process_group=True)
            with self.lock:
                self.engines[number] = engine
        return self.engines[number]

    def restart_later(self, number: int) -> None:
        """Close engine `number`; the next game starts a fresh process."""
        with self.lock:
            engine, self.engines[number] = self.engines[number], None
        if engine is not None:
            engine.close()

    def close(self) -> None:
        """Close both processes (safe to call from another thread)."""
        for number in (0, 1):
            self.restart_later(number)

    def play(self, game_index: int) -> FinishedGame:
        """Play game `game_index` of the plan; an engine that cannot start loses it."""
        opening = scheduled(self.plan.openings, game_index)[0]
        players = self.plan.players(game_index)
        names = {color: self.plan.names[number] for color, number in players.items()}
        engines = {}
        for color, number in players.items():
            try:
                engines[color] = self.engine(number)
            except START_ERRORS as error:
                return FinishedGame(opening, opening.board(), [], loss_for(color), "abandoned",
                                  f"{names[color]} could not start: {error}", color)
        own_limits = {color: self.plan.engine_limits[number] for color, number in players.items()}
        keeps_hash = {color: self.plan.keeps_hash[number] for color, number in players.items()}
        record = play_game(engines, names, opening, self.plan.settings, game_id=game_index, own_limits=own_limits,
                           keeps_hash=keeps_hash)
        if record.offender is not None:
            self.restart_later(players[record.offender])
        return record


def resumed_tally(plan: MatchPlan) -> Tally:
    """The games of plan.pgn_path within the plan (none without a file); raise MatchError on a mismatch."""
    tally = Tally()
    if plan.pgn_path is None:
        return tally
    try:
        if drop_incomplete_tail(plan.pgn_path):
            print(f"{plan.pgn_path}: removed an incomplete last game", file=sys.stderr)
    except FileNotFoundError:
        return tally
    for stored in read_stored_games(plan.pgn_path):
        index = game_index_of(stored.round_label)
        if index is None or index >= plan.games or index in tally:
            continue
        headers = plan.headers(index)
        opening = scheduled(plan.openings, index)[0]
        if (stored.white, stored.black, stored.fen) != (headers["White"], headers["Black"], opening.fen):
            raise MatchError(f"{plan.pgn_path}: round {stored.round_label} is {stored.white} vs {stored.black} from "
                             f"{stored.fen!r}, but this match schedules {headers['White']} vs {headers['Black']} "
                             f"from {opening.fen!r}; use another --pgn file or the same engines, openings and seed")
        points = plan.engine1_points(index, stored.result)
        if points is not None:
            tally.add(index, points)
    return tally


def check_engines_start(plan: MatchPlan) -> None:
    """Start and close each engine once; raise MatchError naming the one that cannot start."""
    for spec in plan.engines:
        try:
            start_engine(spec, own_process_group=True).close()
        except START_ERRORS as error:
            raise MatchError(f"cannot start engine {' '.join(spec.command)}: {error}") from error


def run_match(plan: MatchPlan, show_progress: bool = True):
    """Play the games of `plan` not yet in its PGN file; return (tally, SPRT decision or None).

    On KeyboardInterrupt the games in progress are dropped (never written) and the interrupt propagates."""
    tally = resumed_tally(plan)
    decision = tally.sprt_decision(plan.sprt) if plan.sprt else None
    pending = [index for index in range(plan.games) if index not in tally]
    if decision or not pending:
        return tally, decision
    check_engines_start(plan)
    jobs, finished, stop = queue.Queue(), queue.Queue(), threading.Event()
    for index in pending:
        jobs.put(index)
    workers = [Worker(plan) for _ in range(max(1, min(plan.concurrency, len(pending))))]

    def work(worker: Worker) -> None:
        try:
            while not stop.is_set():
                try:
                    index = jobs.get_nowait()
                except queue.Empty:
                    break
                finished.put((index, worker.play(index)))
        except BaseException as error:  # reported by the main thread
            finished.put((None, error))
        finally:
            worker.close()
            finished.put(None)

    threads = [threading.Thread(target=work, args=(worker,), daemon=True) for worker in workers]
    progress = tqdm(total=plan.games, initial=len(tally), unit="game", file=sys.stderr, disable=not show_progress)
    progress.set_postfix_str(tally.elo_text())
    try:
        for thread in threads:
            thread.start()
        running = len(threads)
        while running:
            item = finished.get()
            if item is None:
                running -= 1
                continue
            index, record = item
            if index is None:
                raise record
            if plan.pgn_path is not None:
                append_game(plan.pgn_path, game_pgn(record, plan.headers(index)))
            tally.add(index, plan.engine1_points(index, record.result))
            progress.update(1)
            progress.set_postfix_str(tally.elo_text())
            if plan.sprt and decision is None:
                decision = tally.sprt_decision(plan.sprt)
                if decision:
                    stop.set()
    finally:
        stop.set()
        progress.close()
        for worker in workers:
            worker.close()
    return tally, decision
