"""`mpcmc-engine match` with real processes: Stockfish games, the PGN file, resuming, the SPRT stop, and
misbehaving engines (tests/fake_uci_engine.py) that must lose with the reason recorded while the match goes on."""

import os
import shlex
import signal
import subprocess
import sys
import time

import chess
import chess.pgn
import pytest

from mpcmc_engine.cli import main
from mpcmc_engine.data import BALANCED_OPENINGS
from mpcmc_engine.bitboard.position import ended_by_rules
from mpcmc_engine.match.stats import SPRT_MIN_PAIRS
from tests.processes import default_sigint

STOCKFISH = "/usr/games/stockfish"
FAKE_ENGINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_uci_engine.py")
OPENINGS = ("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n"
            "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2\n")
pytestmark = pytest.mark.skipif(not os.path.exists(STOCKFISH), reason=f"Stockfish not found at {STOCKFISH}")


def fake(mode: str) -> str:
    """The engine command of the fake engine in `mode`."""
    return shlex.join([sys.executable, FAKE_ENGINE, mode])


def read_games(path) -> list:
    """Every game of a PGN file."""
    games = []
    with open(path) as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(game)
    return games


def match(pgn, *arguments) -> int:
    """Run `mpcmc-engine match` with Stockfish (named sf1) as engine 1, writing `pgn`; return its exit status."""
    return main(["match", "--engine", STOCKFISH, "--name", "sf1", "--option", "Hash=16", *arguments,
                 "--pgn", str(pgn), "--quiet"])


@pytest.fixture
def openings(tmp_path):
    path = tmp_path / "openings.epd"
    path.write_text(OPENINGS)
    return str(path)


def test_stockfish_match_pgn_and_resume(tmp_path, openings, capsys):
    pgn = tmp_path / "match.pgn"
    arguments = ["--engine", STOCKFISH, "--name", "sf2", "--nodes", "400", "--openings", openings]
    assert match(pgn, *arguments, "--games", "2") == 0
    assert len(read_games(pgn)) == 2
    assert match(pgn, *arguments, "--games", "4", "--concurrency", "2") == 0
    out = capsys.readouterr().out
    games = read_games(pgn)
    assert len(games) == 4  # only the two missing games were played
    assert "sf1 vs sf2: 4 games" in out and "pentanomial [LL, LD, DD/WL, WD, WW]" in out and "LOS" in out
    by_round = {game.headers["Round"]: game for game in games}
    assert sorted(by_round) == ["1.1", "1.2", "2.1", "2.2"]
    fens = OPENINGS.splitlines()
    for label, game in by_round.items():
        pair, number = (int(part) for part in label.split("."))
        headers = game.headers
        assert (headers["White"], headers["Black"]) == (("sf1", "sf2") if number == 1 else ("sf2", "sf1"))
        assert headers["FEN"] == fens[pair - 1] and headers["SetUp"] == "1"
        assert headers["Event"] and headers["TimeControl"] == "-"
        final = game.end().board()
        if headers["Termination"] == "normal":
            assert ended_by_rules(final).result() == headers["Result"]
        else:
            assert headers["Termination"] == "adjudication"
    wins, draws, losses = out.rsplit("W-D-L ", 1)[1].split()[0].split("-")
    assert int(wins) + int(draws) + int(losses) == 4


# Black to move one knight move away from the start position's third occurrence: claimable, not yet a draw
NEAR_THREEFOLD = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]


def test_only_a_repetition_on_the_board_ends_the_game():
    board = chess.Board()
    for move in NEAR_THREEFOLD:
        board.push_uci(move)
    assert board.outcome(claim_draw=True) is not None  # python-chess would let Black claim with Ng8
    assert ended_by_rules(board) is None
    board.push_uci("f6g8")
    assert ended_by_rules(board).termination == chess.Termination.THREEFOLD_REPETITION
    quiet = chess.Board("8/8/4k3/8/8/4K3/8/R7 w - - 99 80")
    assert quiet.outcome(claim_draw=True) is not None and ended_by_rules(quiet) is None  # move 100 not yet played
    quiet.push_uci("a1a2")
    assert ended_by_rules(quiet).termination == chess.Termination.FIFTY_MOVES


def test_a_side_that_could_reach_a_repetition_still_moves(tmp_path):
    # from an opening that stands one move from a threefold, the side to move plays (the runner used to end such a
    # game at once as a draw, before any engine moved)
    book = tmp_path / "near-threefold.pgn"
    moves = chess.Board().variation_san([chess.Move.from_uci(m) for m in NEAR_THREEFOLD])
    book.write_text(f'[Event "near threefold"]\n\n{moves} *\n')
    pgn = tmp_path / "games.pgn"
    assert match(pgn, "--engine", STOCKFISH, "--name", "sf2", "--nodes", "400", "--openings", str(book)) == 0
    for game in read_games(pgn):
        played = list(game.mainline_moves())[len(NEAR_THREEFOLD):]
        assert played, game.headers
        final = game.end().board()
        assert game.headers["Termination"] == "adjudication" or ended_by_rules(final).result() == game.headers["Result"]


def test_resume_refuses_another_match(tmp_path, openings, capsys):
    pgn = tmp_path / "match.pgn"
    assert match(pgn, "--engine", STOCKFISH, "--name", "sf2", "--depth", "2", "--openings", openings) == 0
    assert match(pgn, "--engine", STOCKFISH, "--name", "other", "--depth", "2", "--openings", openings) == 1
    assert "round 1.1" in capsys.readouterr().err
    assert len(read_games(pgn)) == 2


def test_clock_adjudication_and_start_position(tmp_path, capsys):
    pgn = tmp_path / "clock.pgn"
    assert match(pgn, "--engine", STOCKFISH, "--name", "sf2", "--tc", "1+0.05", "--games", "2",
                 "--resign-score", "300", "--resign-moves", "3", "--draw-score", "20", "--draw-moves", "4",
                 "--draw-after", "20") == 0
    games = read_games(pgn)
    assert len(games) == 2
    for game in games:
        assert game.headers["TimeControl"] == "1+0.05" and "FEN" not in game.headers
        assert game.headers["Termination"] in ("normal", "adjudication", "time forfeit")
        assert game.headers["Result"] in ("1-0", "0-1", "1/2-1/2")


def test_sprt_stops_early(tmp_path, capsys):
    """Won pair after won pair: H1 is accepted once SPRT_MIN_PAIRS pairs are complete, not before."""
    pgn = tmp_path / "sprt.pgn"
    assert match(pgn, "--engine", fake("good"), "--name", "weak", "--nodes", "2000", "--games", "60",
                 "--concurrency", "2", "--sprt", "0,10,0.05,0.05") == 0
    out = capsys.readouterr().out
    assert "H1 accepted" in out
    played = len(read_games(pgn))
    assert 2 * SPRT_MIN_PAIRS <= played < 60
    assert match(pgn, "--engine", fake("good"), "--name", "weak", "--nodes", "2000", "--games", "60",
                 "--concurrency", "2", "--sprt", "0,10,0.05,0.05") == 0
    assert len(read_games(pgn)) == played, "a decided SPRT, resumed, plays no more games"
    assert capsys.readouterr().out.splitlines()[-1] == out.splitlines()[-1]


@pytest.mark.parametrize("mode, limit, termination, reason", [
    ("crash", ["--nodes", "500"], "abandoned", "crashed"),
    ("hang", ["--tc", "1+0"], "time forfeit", "lost on time"),
    ("hang", ["--nodes", "500", "--hang-timeout", "0.5"], "abandoned", "stalled"),
    ("illegal", ["--nodes", "500"], "rules infraction", "invalid move"),
    ("garbage", ["--nodes", "500"], "rules infraction", "invalid move"),
])
def test_misbehaving_engine_loses_and_match_goes_on(tmp_path, capsys, mode, limit, termination, reason):
    pgn = tmp_path / f"{mode}.pgn"
    assert match(pgn, "--engine", fake(mode), "--name", "fake", *limit, "--games", "2") == 0
    assert "W-D-L 2-0-0" in capsys.readouterr().out
    games = read_games(pgn)
    assert len(games) == 2  # the fake engine was restarted after the first game
    for game in games:
        fake_is_white = game.headers["White"] == "fake"
        assert game.headers["Result"] == ("0-1" if fake_is_white else "1-0")
        assert game.headers["Termination"] == termination
        assert reason in game.end().comment and "fake" in game.end().comment
        assert len(list(game.mainline_moves())) >= 4  # the fake engine played its good moves first


def test_engine_that_cannot_start(tmp_path, capsys):
    assert match(tmp_path / "x.pgn", "--engine", str(tmp_path / "missing"), "--nodes", "10") == 1
    assert "cannot start engine" in capsys.readouterr().err
    assert not (tmp_path / "x.pgn").exists()


def test_needs_two_engines_and_a_limit(tmp_path, capsys):
    assert main(["match", "--engine", STOCKFISH, "--nodes", "10"]) == 1
    assert main(["match", "--engine", STOCKFISH, "--engine", STOCKFISH]) == 1
    with pytest.raises(SystemExit):
        main(["match", "--name", "x", "--engine", STOCKFISH])
    err = capsys.readouterr().err
    assert "exactly two" in err and "give a limit" in err and "must follow the --engine" in err


FOREIGN_GAME = ('[Event "Club championship"]\n[Site "?"]\n[Date "2024.01.02"]\n[Round "1"]\n[White "Ann"]\n'
                '[Black "Bob"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n')
OWN_EVENT_GAME = FOREIGN_GAME.replace("Club championship", "mpcmc-engine match")  # wrong round and players


def match_process(engine_command, engine_env, pgn, *arguments):
    """`mpcmc-engine match` as a process: Stockfish against itself at 200 nodes a move, writing `pgn`."""
    return subprocess.run([*engine_command, "match", "--engine", STOCKFISH, "--name", "sf1", "--engine", STOCKFISH,
                           "--name", "sf2", "--nodes", "200", "--pgn", str(pgn), "--quiet", *arguments],
                          env=engine_env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_ctrl_c_or_sigterm_stops_keeping_the_finished_games_and_resume_plays_on(tmp_path, engine_command, engine_env,
                                                                               stop_signal):
    pgn = tmp_path / "match.pgn"
    process = subprocess.Popen([*engine_command, "match", "--engine", STOCKFISH, "--name", "sf1", "--engine",
                                STOCKFISH, "--name", "sf2", "--nodes", "200", "--games", "400", "--pgn", str(pgn),
                                "--quiet"], env=engine_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=default_sigint)
    deadline = time.monotonic() + 120
    while not (pgn.exists() and pgn.read_text().count("[Result ") >= 2) and time.monotonic() < deadline:
        time.sleep(0.1)
    process.send_signal(stop_signal)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "interrupted; finished games are in the PGN file" in err and "games" not in out
    played = read_games(pgn)
    assert 2 <= len(played) < 400 and all(game.headers["Result"] in ("1-0", "0-1", "1/2-1/2") for game in played)
    resumed = match_process(engine_command, engine_env, pgn, "--games", str(len(played) + 2))
    assert resumed.returncode == 0, resumed.stderr
    assert len(read_games(pgn)) == len(played) + 2


@pytest.mark.parametrize("content, reason", [
    (FOREIGN_GAME.encode(), "Event is 'Club championship'"),                       # one game, one final newline
    (FOREIGN_GAME.replace("\n", "\r\n").encode(), "Event is 'Club championship'"),  # CRLF line ends
    (((FOREIGN_GAME + "\n") * 3).encode(), "Event is 'Club championship'"),  # several games, blank line
    (OWN_EVENT_GAME.encode(), "Round '1' is not a round of a match"),              # this Event, not its games
    (FOREIGN_GAME.encode()[:-40], "holds no complete game"),                       # one incomplete game
    (b"\xff\xfe[\x00E\x00", "not UTF-8 text"),                                    # not text at all
    (b"1. e4 e5 2. Nf3 *\n", "moves before any header"),                           # no headers
], ids=["single-game", "crlf", "several-games", "same-event", "incomplete-only", "binary", "no-headers"])
def test_a_file_this_match_did_not_write_is_refused_and_left_byte_identical(tmp_path, engine_command, engine_env,
                                                                           content, reason):
    pgn = tmp_path / "theirs.pgn"
    pgn.write_bytes(content)
    before = pgn.read_bytes()
    finished = match_process(engine_command, engine_env, pgn, "--games", "2")
    assert finished.returncode == 1, finished.stderr
    assert str(pgn) in finished.stderr and reason in finished.stderr, finished.stderr
    assert "left unchanged" in finished.stderr
    assert pgn.read_bytes() == before


def test_own_file_with_crlf_and_no_final_blank_line_resumes(tmp_path, engine_command, engine_env):
    # the match's own file after an editor saved it with CRLF line ends and a single final newline: resuming keeps
    # every byte of it, separates the next game by a blank line and keeps writing CRLF
    pgn = tmp_path / "ours.pgn"
    assert match_process(engine_command, engine_env, pgn, "--games", "2").returncode == 0
    converted = pgn.read_bytes().replace(b"\n", b"\r\n").rstrip(b"\r\n") + b"\r\n"
    pgn.write_bytes(converted)
    finished = match_process(engine_command, engine_env, pgn, "--games", "4")
    assert finished.returncode == 0, finished.stderr
    data = pgn.read_bytes()
    assert data.startswith(converted) and data.count(b"\n") == data.count(b"\r\n") and data.endswith(b"\r\n\r\n")
    games = read_games(pgn)
    assert [game.headers["Round"] for game in games] == ["1.1", "1.2", "2.1", "2.2"]
    assert "sf1 vs sf2: 4 games" in finished.stdout


def test_an_incomplete_last_game_this_match_wrote_is_cut_before_resuming(tmp_path, engine_command, engine_env):
    # a power loss in the middle of the third game's write: only that tail goes, the two complete games stay
    pgn = tmp_path / "ours.pgn"
    assert match_process(engine_command, engine_env, pgn, "--games", "2").returncode == 0
    complete = pgn.read_bytes()
    second_game = complete[complete.index(b'[Event', 1):]
    pgn.write_bytes(complete + second_game.replace(b'"1.2"', b'"2.1"')[:len(second_game) // 2])
    finished = match_process(engine_command, engine_env, pgn, "--games", "4")
    assert finished.returncode == 0, finished.stderr
    assert "removed an incomplete last game (from line" in finished.stderr
    assert pgn.read_bytes().startswith(complete)
    assert [game.headers["Round"] for game in read_games(pgn)] == ["1.1", "1.2", "2.1", "2.2"]


def test_a_foreign_tail_after_games_of_this_match_is_refused(tmp_path, engine_command, engine_env):
    pgn = tmp_path / "ours.pgn"
    assert match_process(engine_command, engine_env, pgn, "--games", "2").returncode == 0
    pgn.write_bytes(pgn.read_bytes() + FOREIGN_GAME.encode()[:-40])
    before = pgn.read_bytes()
    finished = match_process(engine_command, engine_env, pgn, "--games", "4")
    assert finished.returncode == 1 and "is not the start of a game of this match" in finished.stderr
    assert pgn.read_bytes() == before


def test_pgn_openings_from_the_shipped_compressed_book(tmp_path, capsys):
    pgn = tmp_path / "book.pgn"
    assert match(pgn, "--engine", STOCKFISH, "--name", "sf2", "--nodes", "400",
                 "--openings", str(BALANCED_OPENINGS), "--seed", "3", "--games", "4", "--concurrency", "2") == 0
    games = read_games(pgn)
    assert len(games) == 4
    first_moves = {game.headers["Round"]: list(game.mainline_moves())[:16] for game in games}
    assert first_moves["1.1"] == first_moves["1.2"] and first_moves["2.1"] == first_moves["2.2"]


def test_fresh_hash_sends_ucinewgame_before_every_move(tmp_path, openings, capsys):
    log = tmp_path / "sent.log"
    logged = f"sh -c 'tee -a {log} | {STOCKFISH}'"
    pgn = tmp_path / "fresh.pgn"
    assert main(["match", "--engine", logged, "--name", "logged", "--engine", STOCKFISH, "--name", "sf",
                 "--nodes", "300", "--fresh-hash", "--openings", openings, "--games", "2", "--pgn", str(pgn),
                 "--quiet"]) == 0
    sent = log.read_text().splitlines()
    goes = sum(line.startswith("go ") for line in sent)
    assert goes > 0
    assert sum(line == "ucinewgame" for line in sent) >= goes


def test_keep_hash_exempts_one_engine_from_fresh_hash(tmp_path, openings, capsys):
    kept_log, fresh_log = tmp_path / "kept.log", tmp_path / "fresh.log"
    assert main(["match", "--engine", f"sh -c 'tee -a {kept_log} | {STOCKFISH}'", "--name", "kept", "--keep-hash",
                 "--engine", f"sh -c 'tee -a {fresh_log} | {STOCKFISH}'", "--name", "fresh",
                 "--nodes", "300", "--fresh-hash", "--openings", openings, "--games", "2",
                 "--pgn", str(tmp_path / "kept.pgn"), "--quiet"]) == 0
    kept, fresh = kept_log.read_text().splitlines(), fresh_log.read_text().splitlines()
    kept_goes = sum(line.startswith("go ") for line in kept)
    assert kept_goes > 2
    assert sum(line == "ucinewgame" for line in kept) == 2  # once a game
    assert sum(line == "ucinewgame" for line in fresh) >= sum(line.startswith("go ") for line in fresh) > 2
    with pytest.raises(SystemExit):
        main(["match", "--keep-hash", "--engine", STOCKFISH, "--engine", STOCKFISH, "--nodes", "10"])


def test_an_engine_of_its_own_limit(tmp_path, openings, capsys):
    log, other_log = tmp_path / "own.log", tmp_path / "other.log"
    pgn = tmp_path / "own.pgn"
    assert main(["match", "--engine", f"sh -c 'tee -a {log} | {STOCKFISH}'", "--name", "own", "--limit", "nodes=300",
                 "--limit", "depth=30", "--engine", f"sh -c 'tee -a {other_log} | {STOCKFISH}'", "--name", "other",
                 "--movetime", "0.02", "--openings", openings, "--games", "2", "--pgn", str(pgn), "--quiet"]) == 0
    own_goes = [line for line in log.read_text().splitlines() if line.startswith("go ")]
    other_goes = [line for line in other_log.read_text().splitlines() if line.startswith("go ")]
    assert own_goes and all(line == "go depth 30 nodes 300" for line in own_goes), own_goes[:3]
    assert other_goes and all(line == "go movetime 20" for line in other_goes), other_goes[:3]
    # a match-wide limit is needed only by an engine without limits of its own
    assert main(["match", "--engine", STOCKFISH, "--limit", "nodes=10", "--engine", STOCKFISH]) == 1
    assert "give a limit" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["match", "--engine", STOCKFISH, "--limit", "time=3", "--engine", STOCKFISH, "--nodes", "10"])
