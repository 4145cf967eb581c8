"""Match statistics, time controls, adjudication and opening scheduling, checked against hand-computed values."""

import gzip
import math

import chess
import pytest

from mpcmc_engine.data import BALANCED_OPENINGS
from mpcmc_engine.match.clock import Clock, TimeControl
from mpcmc_engine.match.game import Adjudication, adjudicated
from mpcmc_engine.match.openings import game_index_of, load_openings, ordered, round_label, scheduled
from mpcmc_engine.match.stats import (
    PENTANOMIAL_VALUES, SPRT_MIN_PAIRS, TRINOMIAL_VALUES, Sprt, elo_from_score, estimate_elo, likelihood_of_superiority,
    pentanomial, score_from_elo,
)
from mpcmc_engine.match.tally import Tally, engine1_points


def test_elo_from_score_known_values():
    assert elo_from_score(0.75) == pytest.approx(190.85, abs=0.01)  # -400 log10(1/0.75 - 1) = 400 log10(3)
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(0.25) == pytest.approx(-190.85, abs=0.01)
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf
    assert score_from_elo(elo_from_score(0.64)) == pytest.approx(0.64)


def test_trinomial_interval_by_hand():
    # W=60 D=20 L=20: mean 0.7; variance (60*0.3^2 + 20*0.2^2 + 20*0.7^2)/100 = 0.16; standard error 0.04
    estimate = estimate_elo((20, 20, 60), TRINOMIAL_VALUES)
    assert estimate.score == pytest.approx(0.7)
    assert estimate.elo == pytest.approx(-400 * math.log10(1 / 0.7 - 1))  # 147.19
    assert estimate.low == pytest.approx(elo_from_score(0.7 - 1.959964 * 0.04), abs=1e-3)  # 86.23
    assert estimate.high == pytest.approx(elo_from_score(0.7 + 1.959964 * 0.04), abs=1e-3)  # 218.25
    assert (round(estimate.low, 2), round(estimate.high, 2)) == (86.23, 218.25)


def test_one_sided_series_get_the_exact_bound():
    # 100 wins: 0.025 ** (1/100) = 0.96378 -> -400 log10(1/0.96378 - 1) = +570.1; 50 lost pairs mirror 0.025 ** (1/50)
    won = estimate_elo((0, 0, 100), TRINOMIAL_VALUES)
    assert (won.elo, won.high) == (math.inf, math.inf) and won.low == pytest.approx(570.1, abs=0.1)
    lost = estimate_elo((50, 0, 0, 0, 0), PENTANOMIAL_VALUES)
    assert (lost.elo, lost.low) == (-math.inf, -math.inf)
    assert lost.high == pytest.approx(elo_from_score(1 - 0.025 ** (1 / 50)))  # -446.4
    drawn = estimate_elo((0, 10, 0), TRINOMIAL_VALUES)
    assert (drawn.low, drawn.elo, drawn.high) == (0.0, 0.0, 0.0)


def test_pentanomial_interval_uses_pair_scores():
    # pairs LL=0 LD=0 DD=2 WD=2 WW=0: pair scores 0.5, 0.5, 0.75, 0.75: mean 0.625, variance 0.015625, se 0.0625
    estimate = estimate_elo((0, 0, 2, 2, 0), PENTANOMIAL_VALUES)
    assert estimate.score == pytest.approx(0.625)
    assert estimate.low == pytest.approx(elo_from_score(0.625 - 1.959964 * 0.0625), abs=1e-3)


def test_estimate_needs_results():
    with pytest.raises(ValueError):
        estimate_elo((0, 0, 0), TRINOMIAL_VALUES)


def test_likelihood_of_superiority():
    # 0.5 * (1 + erf((6 - 4) / sqrt(2 * 10))) = 0.5 * (1 + erf(0.4472)) = 0.73646
    assert likelihood_of_superiority(6, 4) == pytest.approx(0.736455, abs=1e-6)
    assert likelihood_of_superiority(0, 0) == 0.5
    assert likelihood_of_superiority(4, 6) == pytest.approx(1 - 0.736455, abs=1e-6)


def test_pentanomial_counts():
    assert pentanomial([0, 0.5, 1, 1, 1.5, 2, 2]) == (1, 1, 2, 1, 2)
    with pytest.raises(ValueError):
        pentanomial([0.3])
    with pytest.raises(ValueError):
        pentanomial([2.5])


def test_tally_pairs_only_complete_pairs():
    tally = Tally()
    for index, points in enumerate([1, 0.5, 0, 0, 1, 1, 0.5]):  # pairs (1, .5) (0, 0) (1, 1) and a lone 0.5
        tally.add(index, points)
    assert tally.wdl() == (3, 2, 2)
    assert tally.pentanomial() == (1, 0, 0, 1, 1)
    assert engine1_points("1-0", True) == 1.0 and engine1_points("1-0", False) == 0.0
    assert engine1_points("1/2-1/2", False) == 0.5 and engine1_points("*", True) is None


def test_sprt_bounds_and_known_llr():
    sprt = Sprt.parse("0,10,0.05,0.05")
    assert sprt.lower_bound == pytest.approx(math.log(0.05 / 0.95))  # -2.944
    assert sprt.upper_bound == pytest.approx(math.log(0.95 / 0.05))  # +2.944
    s0, s1 = 0.5, 1 / (1 + 10 ** (-10 / 400))  # 0.5143872
    # trinomial W=60 D=20 L=20: mean 0.7, variance 0.16 -> LLR = (s1-s0)(2*0.7-s0-s1) / (2*0.16/100) = 1.7337
    assert sprt.llr((20, 20, 60), TRINOMIAL_VALUES) == pytest.approx((s1 - s0) * (1.4 - s0 - s1) / 0.0032)
    assert sprt.llr((20, 20, 60), TRINOMIAL_VALUES) == pytest.approx(1.7337, abs=1e-4)
    # pentanomial (1, 3, 10, 4, 2), 20 pairs: mean 10.75/20 = 0.5375, variance 6.9375/20 - 0.5375^2 = 0.05796875
    assert sprt.llr((1, 3, 10, 4, 2), PENTANOMIAL_VALUES) == pytest.approx(
        (s1 - s0) * (2 * 0.5375 - s0 - s1) / (2 * 0.05796875 / 20))
    assert sprt.llr((0, 0, 0, 0, 0), PENTANOMIAL_VALUES) == 0.0


def test_sprt_decisions():
    sprt = Sprt(0, 5, 0.05, 0.05)

    def decide(counts):
        return sprt.decision(sprt.llr(counts, PENTANOMIAL_VALUES), sum(counts))

    assert decide((6, 30, 120, 60, 90)) == "H1"
    assert decide((90, 60, 120, 30, 6)) == "H0"
    assert decide((2, 10, 40, 20, 30)) is None  # a third of it: not yet
    assert decide((1, 2, 4, 2, 1)) is None
    assert decide((0, 0, 0, 0, 20)) == "H1"  # regularized one-sided series


def test_sprt_takes_no_decision_on_a_few_pairs():
    """One won (or lost) pair has an LLR beyond the bounds through the regularized variance alone; it decides
    nothing before SPRT_MIN_PAIRS pairs."""
    sprt = Sprt.parse("0,10,0.05,0.05")
    for counts in ((0, 0, 0, 0, 1), (1, 0, 0, 0, 0), (0, 0, 0, 0, SPRT_MIN_PAIRS - 1)):
        llr = sprt.llr(counts, PENTANOMIAL_VALUES)
        assert abs(llr) > sprt.upper_bound  # the approximation alone would stop here
        assert sprt.decision(llr, sum(counts)) is None
    assert sprt.decision(sprt.llr((0, 0, 0, 0, SPRT_MIN_PAIRS), PENTANOMIAL_VALUES), SPRT_MIN_PAIRS) == "H1"


def test_the_sprt_decision_is_kept_from_the_game_that_reached_the_bound():
    """Games added after the decision (those still in play when it was taken) change the LLR, not the decision,
    and the report gives both LLRs."""
    sprt = Sprt.parse("0,10,0.05,0.05")
    tally = Tally()
    for index in range(2 * SPRT_MIN_PAIRS):
        tally.add(index, 1.0, sprt)
        assert (tally.decision is None) == (index < 2 * SPRT_MIN_PAIRS - 1)
    assert tally.decision.hypothesis == "H1" and tally.decision.games == 2 * SPRT_MIN_PAIRS
    for index in range(2 * SPRT_MIN_PAIRS, 4 * SPRT_MIN_PAIRS):
        tally.add(index, 0.0, sprt)
    assert abs(tally.sprt_llr(sprt)) < 0.1 and tally.decision.hypothesis == "H1"
    report = tally.report(("a", "b"), sprt)[-1]
    assert f"LLR {tally.decision.llr:.2f} (bounds -2.94, 2.94) after {2 * SPRT_MIN_PAIRS} games: H1 accepted" in report
    assert report.endswith(f"; LLR {tally.sprt_llr(sprt):.2f} with the {2 * SPRT_MIN_PAIRS} games then in play")


@pytest.mark.parametrize("text", ["0,5", "5,0,0.05,0.05", "0,5,1.5,0.05", "a,b,c,d"])
def test_sprt_parse_rejects(text):
    with pytest.raises(ValueError):
        Sprt.parse(text)


def test_time_control_parse():
    assert TimeControl.parse("10+0.1") == TimeControl(10.0, 0.1, 0)
    assert TimeControl.parse("40/60+0") == TimeControl(60.0, 0.0, 40)
    assert TimeControl.parse("60") == TimeControl(60.0)
    assert TimeControl.parse("10+0.1").pgn() == "10+0.1" and TimeControl.parse("40/60").pgn() == "40/60"
    for bad in ("abc", "0+1", "0/60", "10+", "-5"):
        with pytest.raises(ValueError):
            TimeControl.parse(bad)


def test_clock_increment_and_periods():
    clock = Clock(TimeControl(60.0, 1.0, 2))
    clock.start_move(chess.WHITE)
    assert clock.remaining[chess.WHITE] == 61.0 and clock.moves_to_go(chess.WHITE) == 2
    clock.finish_move(chess.WHITE, 10.0)
    assert clock.remaining[chess.WHITE] == 51.0 and clock.moves_to_go(chess.WHITE) == 1
    clock.start_move(chess.WHITE)
    clock.finish_move(chess.WHITE, 2.0)
    assert clock.remaining[chess.WHITE] == 110.0 and clock.moves_to_go(chess.WHITE) == 2  # 52 - 2 + 60
    assert clock.remaining[chess.BLACK] == 60.0


def test_adjudication_rules():
    board = chess.Board()
    resign = Adjudication(resign_cp=500, resign_moves=2)
    assert adjudicated(board, [-600, -700, 0, -600, -900], resign) is None  # one of the last 4 plies disagrees
    assert adjudicated(board, [-600, -700, -600, -900], resign)[0] == "0-1"
    assert adjudicated(board, [600, 700, 600, 900], resign)[0] == "1-0"
    assert adjudicated(board, [600, None, 600, 900], resign) is None
    draw = Adjudication(draw_cp=10, draw_moves=2, draw_after=1)
    assert adjudicated(board, [5, -5, 0, 10], draw)[0] == "1/2-1/2"
    assert adjudicated(board, [5, -5, 0, 11], draw) is None
    assert adjudicated(board, [5, -5, 0, 10], Adjudication(draw_cp=10, draw_moves=2, draw_after=40)) is None


def test_round_labels_and_schedule(tmp_path):
    assert [round_label(index) for index in range(4)] == ["1.1", "1.2", "2.1", "2.2"]
    assert all(game_index_of(round_label(index)) == index for index in range(50))
    assert game_index_of("?") is None and game_index_of("3") is None and game_index_of("0.1") is None
    openings = ["a", "b", "c"]
    assert [scheduled(openings, index) for index in range(8)] == [
        ("a", True), ("a", False), ("b", True), ("b", False), ("c", True), ("c", False), ("a", True), ("a", False)]
    assert ordered(range(20), 7) == ordered(range(20), 7) != list(range(20))
    assert ordered(range(5), None) == list(range(5))


def test_load_openings_from_epd_and_pgn(tmp_path, capsys):
    epd = tmp_path / "openings.epd"
    epd.write_text("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\nnot a position\n"
                   "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\n")
    openings = load_openings(str(epd), 5, None)
    assert [opening.board().fullmove_number for opening in openings] == [1, 1]
    assert f"{epd}:2:" in capsys.readouterr().err
    pgn = tmp_path / "openings.pgn"
    pgn.write_text('[Event "a"]\n\n1. e4 e5 2. Nf3 *\n\n[Event "b"]\n\n1. d4 d5 *\n\n[Event "c"]\n\n1. c4 *\n')
    openings = load_openings(str(pgn), 2, None)
    assert [len(opening.moves) for opening in openings] == [3, 2]
    assert openings[0].board().fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    assert load_openings(str(pgn), 3, 1) == load_openings(str(pgn), 3, 1)
    assert load_openings(None, 3, None)[0].fen == chess.STARTING_FEN
    empty = tmp_path / "empty.epd"
    empty.write_text("# nothing\n")
    with pytest.raises(ValueError):
        load_openings(str(empty), 1, None)


def test_gzip_compressed_pgn_gives_the_same_openings(tmp_path):
    text = '[Event "a"]\n\n1. e4 e5 2. Nf3 *\n\n[Event "b"]\n\n1. d4 d5 *\n\n[Event "c"]\n\n1. c4 *\n'
    plain, compressed = tmp_path / "book.pgn", tmp_path / "book.PGN.gz"
    plain.write_text(text)
    compressed.write_bytes(gzip.compress(text.encode()))
    for seed in (None, 5):
        assert load_openings(str(compressed), 3, seed) == load_openings(str(plain), 3, seed)
    assert [len(opening.moves) for opening in load_openings(str(compressed), 3, None)] == [3, 2, 1]


def test_shipped_balanced_book_gives_an_sprt_thousands_of_distinct_openings():
    openings = load_openings(str(BALANCED_OPENINGS), 3000, 1)
    assert len(openings) == 3000
    assert all(len(opening.moves) == 16 for opening in openings[:100])
    assert len({opening.board().epd() for opening in openings}) == 3000
