"""Running a match: resume from the PGN file, K workers playing games at once, the progress bar, PGN appends and
the SPRT stop.

Each worker thread owns one process per engine, reuses them across its games and restarts an engine after a game
it lost by a failure (crash, hang, time forfeit, illegal move). Only the main thread writes the PGN file and the
tally. Resuming: games already in the PGN file whose Round (`pair.game`) lies within --games are counted and not
played again. Before anything is written, every game in the file must be one this command writes: its Event, a
Round label of the runner's, the engine names of that round and (within --games) its start position (same engines,
--event, --openings and --seed); otherwise the run stops with MatchError and the file is left byte for byte as it
was, rather than mixing two matches or cutting someone else's file.
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
from mpcmc_engine.match.pgn_file import MatchFile, cut_tail, event_line, game_pgn, read_match_file
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
        self.engines: list = [None, None]
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


def stranger_reason(plan: MatchPlan, game) -> str:
    """Why `game` (pgn_file.StoredGame) is not a game this plan writes, or '' when it is: its Event, a Round
    label of the runner's, the engines' names and colours for that round, and (for a round within --games) the
    start position scheduled for it."""
    index = game_index_of(game.round_label)
    if game.event != plan.event:
        return f"its Event is {game.event!r}, this match's is {plan.event!r} (--event)"
    if index is None:
        return f"its Round {game.round_label!r} is not a round of a match (pair.game, e.g. 1.2)"
    headers = plan.headers(index)
    if (game.white, game.black) != (headers["White"], headers["Black"]):
        return (f"round {game.round_label} is {game.white} vs {game.black}, but this match schedules "
                f"{headers['White']} vs {headers['Black']}")
    opening = scheduled(plan.openings, index)[0]
    if index < plan.games and game.fen != opening.fen:
        return (f"round {game.round_label} starts from {game.fen!r}, but this match schedules {opening.fen!r} "
                f"(same --openings and --seed?)")
    return ""


def open_match_file(plan: MatchPlan) -> MatchFile:
    """The PGN file of `plan`, checked to hold only games of this match, with an incomplete last game it wrote
    (power loss) cut off; raise MatchError naming the file and the reason, leaving the file unchanged, when it is
    not a file of this match."""
    assert plan.pgn_path is not None  # called for a plan with a PGN file
    try:
        match_file = read_match_file(plan.pgn_path)
    except ValueError as error:
        raise MatchError(f"{error}; this file was not written by this match and is left unchanged") from None
    refusal = "is left unchanged: use another --pgn file, or the engines, --openings, --seed and --event it was " \
              "written with"
    for game in match_file.games:
        reason = stranger_reason(plan, game)
        if reason:
            raise MatchError(f"{plan.pgn_path}:{game.line}: not a game of this match: {reason}; the file {refusal}")
    tail = match_file.tail
    if tail is not None:
        expected = event_line(plan.event)
        if not match_file.games:
            raise MatchError(f"{plan.pgn_path}: holds no complete game, only an incomplete one from line {tail.line}; "
                             f"the file is left unchanged: delete it to start afresh")
        if not (tail.text.startswith(expected) or expected.startswith(tail.text)):
            raise MatchError(f"{plan.pgn_path}:{tail.line}: the text after the last complete game is not the start "
                             f"of a game of this match (a game here begins with {expected}); the file {refusal}")
        cut_tail(match_file)
        print(f"{plan.pgn_path}: removed an incomplete last game (from line {tail.line})", file=sys.stderr)
    return match_file


def resumed_tally(plan: MatchPlan, games: list) -> Tally:
    """The tally of the stored `games` (each checked by open_match_file) whose rounds lie within the plan."""
    tally = Tally()
    for game in games:
        index = game_index_of(game.round_label)
        if index < plan.games and index not in tally:
            points = plan.engine1_points(index, game.result)
            if points is not None:
                tally.add(index, points, plan.sprt)
    return tally


def check_engines_start(plan: MatchPlan) -> None:
    """Start and close each engine once; raise MatchError naming the one that cannot start."""
    for spec in plan.engines:
        try:
            start_engine(spec, own_process_group=True).close()
        except START_ERRORS as error:
            raise MatchError(f"cannot start engine {' '.join(spec.command)}: {error}") from error


def run_match(plan: MatchPlan, show_progress: bool = True):
    """Play the games of `plan` not yet in its PGN file (none once the SPRT has decided, also when resumed); return
    the tally (with the SPRT's decision when one was taken).

    On KeyboardInterrupt the games in progress are dropped (never written) and the interrupt propagates."""
    match_file = open_match_file(plan) if plan.pgn_path is not None else None
    tally = resumed_tally(plan, match_file.games if match_file else [])
    pending = [index for index in range(plan.games) if index not in tally]
    if tally.decision or not pending:
        return tally
    check_engines_start(plan)
    jobs: queue.Queue = queue.Queue()
    finished: queue.Queue = queue.Queue()
    stop = threading.Event()
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
            if match_file is not None:
                match_file.append(game_pgn(record, plan.headers(index)))
            tally.add(index, plan.engine1_points(index, record.result), plan.sprt)
            progress.update(1)
            progress.set_postfix_str(tally.elo_text())
            if tally.decision:
                stop.set()
    finally:
        stop.set()
        progress.close()
        for worker in workers:
            worker.close()
    return tally
